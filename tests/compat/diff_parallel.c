/*
 * diff_parallel.c -- parallel regions for the differential tests: default
 * team, num_threads, a false if clause, nested regions.  Run with
 * OMP_MAX_ACTIVE_LEVELS=2 so that both runtimes activate the inner teams.
 *
 *   diff_parallel R      (R repetitions; prints results that do not depend
 *                         on the runtime or the team size)
 */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
  int reps = argc > 1 ? atoi(argv[1]) : 2;
  long total = 0;
  for (int r = 0; r < reps; r++) {
    long a = 0, b = 0, c = 0, d = 0;
#pragma omp parallel
    {
#pragma omp atomic
      a += 1;
    }
#pragma omp parallel num_threads(2)
    {
#pragma omp atomic
      b += omp_get_num_threads();
    }
#pragma omp parallel if (r < 0)
    {
#pragma omp atomic
      c += omp_get_num_threads();
    }
#pragma omp parallel num_threads(2)
    {
#pragma omp parallel num_threads(2)
      {
#pragma omp atomic
        d += omp_get_level();
      }
    }
    total += (a == omp_get_max_threads()) + (b == 4) + (c == 1) + (d == 8);
  }
  printf("parallel: %ld of %d checks\n", total, 4 * reps);
  return total == 4L * reps ? 0 : 1;
}
