/*
 * prof_known.c - a program whose constructs pompt-prof must count exactly.
 *
 * Each construct's pragma line carries a marker comment "@name"; the test
 * (check_prof.py) finds the markers in this file and expects, for a team of
 * n threads and R = argv[1] repetitions:
 *
 *   @par      parallel                 n visits (one implicit task each)
 *   @static   loop(static)             R*n, and its implicit barrier R*n
 *   @dynamic  loop(dynamic), nowait    R*n, no barrier of its own
 *   @single   single                   R*n visits, R executions, barrier R*n
 *   @crit     critical(acc)            R*n, with R*n waits inside
 *   @master   masked                   R (the primary thread only)
 *   @barrier  barrier                  R*n
 *   @sections sections                 R*n, and its implicit barrier R*n
 *   @pfor     parallel for (guided)    n, its loop n
 *
 * The static loop's iterations cost more the higher their index, so the
 * threads with the later chunks arrive at its barrier last: the waiting of
 * the others is attributed to the loop.  What it prints on stdout does not
 * depend on the number of threads.
 */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

#define N 256

static double work(int i) {
  double x = 0.0;
  for (int k = 0; k < 40 * i; k++)
    x += (double)(k % 7) * 0.5;
  return x;
}

int main(int argc, char **argv) {
  int reps = argc > 1 ? atoi(argv[1]) : 4;
  static double a[N], b[N];
  double total = 0.0;
  int singles = 0, masters = 0, sec1 = 0, sec2 = 0;

  #pragma omp parallel /* @par */
  {
    for (int r = 0; r < reps; r++) {
      #pragma omp for schedule(static) /* @static */
      for (int i = 0; i < N; i++)
        a[i] = work(i);

      #pragma omp for schedule(dynamic, 8) nowait /* @dynamic */
      for (int i = 0; i < N; i++)
        b[i] = a[i] * 0.5;

      #pragma omp single /* @single */
      singles++;

      double mine = 0.0;
      for (int i = omp_get_thread_num(); i < N; i += omp_get_num_threads())
        mine += b[i];
      #pragma omp critical(acc) /* @crit */
      total += mine;

      #pragma omp master /* @master */
      masters++;

      #pragma omp barrier /* @barrier */

      #pragma omp sections /* @sections */
      {
        #pragma omp section
        sec1++;
        #pragma omp section
        sec2++;
      }
    }
  }

  double g = 0.0;
  #pragma omp parallel for schedule(guided) reduction(+:g) /* @pfor */
  for (int i = 0; i < N; i++)
    g += a[i] - 2.0 * b[i];

  printf("reps %d singles %d masters %d sections %d %d\n", reps, singles,
         masters, sec1, sec2);
  printf("total %.1f check %.1f\n", total, g);
  return 0;
}
