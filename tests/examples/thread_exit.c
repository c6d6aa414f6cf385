/*
 * thread_exit.c -- threads that libgomp lets exit on their own just before
 * the program ends: a team of OMP_NUM_THREADS, then a smaller one, for
 * which libgomp releases the pool's surplus threads.  Each of them must get
 * its last callbacks (the end of its region's barrier and implicit task,
 * then thread_end) on its own thread, not from the exiting program's.
 */
#include <stdio.h>

int main(void) {
  int n = 0;
#pragma omp parallel
  {
#pragma omp atomic
    n++;
  }
#pragma omp parallel num_threads(2)
  {
#pragma omp atomic
    n++;
  }
  printf("ran: %d\n", n > 0);
  return 0;
}
