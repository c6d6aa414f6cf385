/*
 * thread_exit.c -- threads that libgomp lets exit on their own just before
 * the program ends: a team of OMP_NUM_THREADS, then a smaller one, for
 * which libgomp releases the pool's surplus threads.  Each of them must get
 * its last callbacks (the end of its region's barrier and implicit task,
 * then thread_end) on its own thread, not from the exiting program's.
 *
 *   thread-exit [regrow]
 */
#include <omp.h>
#include <stdio.h>
#include <string.h>

int main(int argc, char **argv) {
  /* regrow: a team of OMP_NUM_THREADS, one thread fewer, then
   * OMP_NUM_THREADS again, twice.  With a place list libgomp may start a new
   * thread for the last number rather than move the docked one, which the
   * finalising team then lets go (thread-exit-bound-regrow). */
  int regrow = argc > 1 && !strcmp(argv[1], "regrow");
  int n = 0;
  for (int round = 0; round < (regrow ? 2 : 1); round++) {
#pragma omp parallel
    {
#pragma omp atomic
      n++;
    }
    int smaller = regrow ? omp_get_max_threads() - 1 : 2;
#pragma omp parallel num_threads(smaller)
    {
#pragma omp atomic
      n++;
    }
    if (regrow) {
#pragma omp parallel
      {
#pragma omp atomic
        n++;
      }
    }
  }
  printf("ran: %d\n", n > 0);
  return 0;
}
