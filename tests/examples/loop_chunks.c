/*
 * loop_chunks.c -- worksharing loops of every schedule, built with
 * POMPT_INSTR_OPTIONS=--loop-level=chunks: the chunks each thread runs
 * (dispatch ws_loop_chunk) can be counted exactly, and over all threads
 * they must partition each loop's logical iterations (tests/examples/
 * meson.build holds the formulas, for a team of n threads and an iteration
 * count N = a0).  A dynamic loop that pomp-instr does not instrument runs
 * inside the body of an instrumented one: libgomp's hand-out to it must not
 * be taken for the outer loop's chunks.
 */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

static long inner_sum(int m) {
  long s = 0;
#ifdef _POMP /* pomp-cc defines it; plain compilers need not see these */
#pragma pomp noinstrument
#endif
#pragma omp parallel for schedule(dynamic, 1) reduction(+ : s) num_threads(1)
  for (int j = 0; j < m; j++)
    s += j;
#ifdef _POMP
#pragma pomp instrument
#endif
  return s;
}

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 100;
  long sum = 0, down = 0, ord = 0, inner = 0;
  double *a = calloc((size_t)n, sizeof *a);
  if (!a)
    return 1;
#pragma omp parallel shared(a, sum, down, ord, inner)
  {
    /* handed out by libgomp: ceil(N / 7) chunks */
#pragma omp for schedule(dynamic, 7) reduction(+ : sum)
    for (int i = 0; i < n; i++)
      sum += i;
    /* computed (a check at the start of each iteration): ceil(N / 7) */
#pragma omp for schedule(static, 7)
    for (int i = 0; i < n; i++)
      a[i] += i;
    /* computed at the loop's start: one chunk per thread */
#pragma omp for
    for (int i = 0; i < n; i++)
      a[i] += 1.0;
    /* guided: libgomp's sizes, ceil(remaining / n), at least 3 */
#pragma omp for schedule(guided, 3) nowait
    for (int i = 0; i < n; i++)
      a[i] -= 1.0;
    /* runtime schedule (OMP_SCHEDULE=dynamic,5), unsigned long long */
#pragma omp for schedule(runtime)
    for (unsigned long long k = 0; k < (unsigned long long)n; k++)
      a[k] += 1.0;
    /* counting down by 3: ceil(N / 3) iterations, in chunks of 2 */
#pragma omp for schedule(dynamic, 2) reduction(+ : down)
    for (int i = n - 1; i >= 0; i -= 3)
      down += i;
    /* counting down, static with a chunk size */
#pragma omp for schedule(static, 4) reduction(+ : down)
    for (int i = n - 1; i >= 0; i -= 3)
      down -= i;
    /* ordered: libgomp hands out chunks of 5 (one chunk for a team of 1) */
#pragma omp for ordered schedule(static, 5) reduction(+ : ord)
    for (int i = 0; i < n; i++) {
#pragma omp ordered
      ord += i;
    }
    /* 10 chunks of 1; each runs an uninstrumented dynamic loop, whose
     * region libpompt reports from libgomp's entry */
#pragma omp for schedule(dynamic, 1) reduction(+ : inner)
    for (int i = 0; i < 10; i++)
      inner += inner_sum(i + 2);
  }
#pragma omp parallel for schedule(static, 4)
  for (int i = 0; i < n; i++)
    a[i] *= 2.0;
  double check = 0.0;
  for (int i = 0; i < n; i++)
    check += a[i];
  printf("sum=%ld down=%ld ord=%ld inner=%ld check=%.1f\n", sum, down, ord,
         inner, check);
  free(a);
  return 0;
}
