/*
 * diff_sync.c -- synchronisation constructs for the differential tests:
 * master (in a region, and in the initial task outside any region: its
 * thread is thread 0 of a team of one, though the initial task's index is
 * 1), critical (unnamed and named), explicit barriers, reductions on a
 * parallel region, atomic.
 *
 *   diff_sync R
 */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
  int reps = argc > 1 ? atoi(argv[1]) : 2;
  long checks = 0;
  for (int r = 0; r < reps; r++) {
    long crit = 0, named = 0, masters = 0, red = 0, at = 0;
    int n = 1;
#pragma omp parallel
    {
#pragma omp master
      {
        masters++;
        n = omp_get_num_threads();
      }
#pragma omp barrier
#pragma omp critical
      crit += 1;
#pragma omp critical(second)
      named += 2;
#pragma omp barrier
#pragma omp critical
      crit += 1;
#pragma omp atomic
      at += 1;
    }
#pragma omp parallel reduction(+ : red)
    {
      red += 3;
    }
#pragma omp master
    masters++;
    checks += (masters == 2) + (crit == 2 * n) + (named == 2 * n) +
              (red == 3 * n) + (at == n);
  }
  printf("sync: %ld of %d checks\n", checks, 5 * reps);
  return checks == 5L * reps ? 0 : 1;
}
