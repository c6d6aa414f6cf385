/*
 * prof_exit.c - the primary thread calls exit(3) inside a parallel region
 * while the other threads are still working.  The profiler must write a
 * complete profile and the exit status must stay 3.
 */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

int main(void) {
  static double a[1000];
  #pragma omp parallel
  {
    #pragma omp for schedule(static)
    for (int i = 0; i < 1000; i++)
      a[i] = i * 0.5;
    if (omp_get_thread_num() == 0) {
      printf("exit inside the parallel region\n");
      fflush(stdout);
      exit(3);
    }
    volatile double x = 0.0;
    for (long k = 0; k < 400000000L; k++)
      x += a[k % 1000];
  }
  return 0;
}
