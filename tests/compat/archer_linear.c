/*
 * archer_linear.c -- a race-free program for Archer with the worksharing
 * clauses for which GCC calls GOMP_barrier itself, a barrier that is no
 * construct of the source: `linear` and a variable both `firstprivate`
 * and `lastprivate`.  Every thread reads the original value before the
 * thread with the last iteration writes it back; only that barrier orders
 * the two.  Archer must report nothing; it does only if libpompt reports
 * those barriers (bridge_gomp_sync.c).
 *
 *   archer_linear R      (R repetitions)
 */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

#define N 64

int main(int argc, char **argv) {
  int reps = argc > 1 ? atoi(argv[1]) : 10;
  long bad = 0;
  for (int r = 0; r < reps; r++) {
    double c[N] = {0};
    int j = r, last = r;
#pragma omp parallel
    {
#pragma omp for linear(j : 1)
      for (int i = 0; i < N; i++) {
        c[i] = j;
        j++;
      }
#pragma omp for firstprivate(last) lastprivate(last)
      for (int i = 0; i < N; i++)
        if (i == N - 1)
          last += i;
    }
    for (int i = 0; i < N; i++)
      if (c[i] != r + i)
        bad++;
    if (j != r + N || last != r + N - 1)
      bad++;
  }
  printf("linear: %s\n", bad ? "WRONG" : "ok");
  return bad != 0;
}
