/*
 * chunkbench.c -- what one loop chunk costs: a worksharing loop with chunks
 * of one iteration (so that each iteration is a chunk) and an almost empty
 * body, dynamic (libgomp hands each chunk out) and static (computed in the
 * program), run by a team of one (nothing waits for another thread).
 * chunk_bench.py runs the builds it is compared across and prints ratios.
 *
 *   chunkbench [ITERATIONS] [SAMPLES]
 *
 * Output: "chunks dynamic NS static NS", the fastest sample's nanoseconds
 * per iteration of each loop.
 */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

static volatile double sink;

int main(int argc, char **argv) {
  long n = argc > 1 ? atol(argv[1]) : 4000000;
  int samples = argc > 2 ? atoi(argv[2]) : 7;
  double best_dyn = 1e30, best_st = 1e30;
  for (int k = 0; k < samples; k++) {
    double s = 0.0, t0 = omp_get_wtime();
#pragma omp parallel reduction(+ : s)
    {
#pragma omp for schedule(dynamic, 1)
      for (long i = 0; i < n; i++)
        s += (double)i;
    }
    double t1 = omp_get_wtime();
#pragma omp parallel reduction(+ : s)
    {
#pragma omp for schedule(static, 1)
      for (long i = 0; i < n; i++)
        s += (double)i;
    }
    double t2 = omp_get_wtime();
    sink = s;
    if (t1 - t0 < best_dyn)
      best_dyn = t1 - t0;
    if (t2 - t1 < best_st)
      best_st = t2 - t1;
  }
  printf("chunks dynamic %.3f static %.3f\n", best_dyn / (double)n * 1e9,
         best_st / (double)n * 1e9);
  return 0;
}
