/*
 * doacross.c -- doacross loops (`for ordered(n)` with `ordered
 * depend(sink: ...)` / `ordered depend(source)`); a0 = I (at least 2).
 * Each reports, per iteration, one source dependence (depend(source)) and
 * one sink dependence per depend(sink) whose iteration lies inside the
 * loop nest, as vectors of logical iteration numbers (0 for each loop's
 * first iteration, whatever its bounds and step):
 *  A  2 loops, i = 10, 12, ... (I iterations), j = 20, 19, 18 (3), static
 *     schedule; sinks (i - 2, j) and (i, j + 1):
 *       source 3I, sink 3(I - 1) + 2I, items 2 per dependence,
 *       value sums: source 3I(I-1)/2 + 3I, sink (i - 2, j) 3(I-1)(I-2)/2 +
 *       3(I-1), sink (i, j + 1) 2I(I-1)/2 + I;
 *  B  1 loop over unsigned long long u = 1 ... I (libgomp's _ull_
 *     entries), dynamic schedule, sink u - 1: source I, sink I - 1, items
 *     1 each, value sums I(I-1)/2 and (I-1)(I-2)/2 (from 1: GCC 12 passes
 *     the sink u - 1 of an unsigned loop's iteration 0 as iteration -1,
 *     which libgomp then waits for forever);
 *  C  collapse(2) ordered(3), i < 2, j < 2, k < I: GCC makes the two
 *     collapsed loops one dimension (i * 2 + j), k the second; sink
 *     (i, j, k - 1): source 4I, sink 4(I - 1), items 2 each, value sums
 *     source I * 6 + 4 * I(I-1)/2, sink (I-1) * 6 + 4 * (I-1)(I-2)/2.
 * Totals, whatever the team: doacross_source 8I, doacross_sink 10I - 8,
 * doacross_items 34I - 15 (tests/examples/meson.build has the value sum).
 * The computed arrays are checked against a sequential computation.
 */
#include <stdio.h>
#include <stdlib.h>

#define IMAX 64

static long a[2 * IMAX + 12][24], b[IMAX + 1], c[2][2][IMAX];

int main(int argc, char **argv) {
  int I = argc > 1 ? atoi(argv[1]) : 8;
  if (I < 2 || I > IMAX) {
    fprintf(stderr, "doacross: I must be in [2, %d]\n", IMAX);
    return 2;
  }
  int hi = 10 + 2 * I;
  unsigned long long nn = (unsigned long long)I;
  for (int j = 0; j < 24; j++)
    a[8][j] = 1;
  for (int i = 0; i < 2 * IMAX + 12; i++)
    a[i][21] = 1;
#pragma omp parallel
  {
    int i, j;
#pragma omp for ordered(2) schedule(static)
    for (i = 10; i < hi; i += 2)
      for (j = 20; j > 17; j--) {
#pragma omp ordered depend(sink : i - 2, j) depend(sink : i, j + 1)
        a[i][j] = a[i - 2][j] + a[i][j + 1];
#pragma omp ordered depend(source)
      }

    unsigned long long u;
#pragma omp for ordered(1) schedule(dynamic)
    for (u = 1; u <= nn; u++) {
#pragma omp ordered depend(sink : u - 1)
      b[u] = b[u - 1] + (long)u;
#pragma omp ordered depend(source)
    }

    int k;
#pragma omp for collapse(2) ordered(3)
    for (i = 0; i < 2; i++)
      for (j = 0; j < 2; j++)
        for (k = 0; k < I; k++) {
#pragma omp ordered depend(sink : i, j, k - 1)
          c[i][j][k] = (k ? c[i][j][k - 1] : i + j) + 1;
#pragma omp ordered depend(source)
        }
  }
  /* The same sequentially. */
  long sa = 0, sb = 0, sc = 0, ta = 0;
  static long ra[2 * IMAX + 12][24];
  for (int j = 0; j < 24; j++)
    ra[8][j] = 1;
  for (int i = 0; i < 2 * IMAX + 12; i++)
    ra[i][21] = 1;
  for (int i = 10; i < hi; i += 2)
    for (int j = 20; j > 17; j--) {
      ra[i][j] = ra[i - 2][j] + ra[i][j + 1];
      sa += a[i][j];
      ta += ra[i][j];
    }
  int bad = sa != ta;
  for (int u = 1; u <= I; u++) {
    sb += b[u];
    bad |= b[u] != (long)u * (u + 1) / 2;
  }
  for (int i = 0; i < 2; i++)
    for (int j = 0; j < 2; j++)
      for (int k = 0; k < I; k++) {
        sc += c[i][j][k];
        bad |= c[i][j][k] != i + j + k + 1;
      }
  printf("doacross: I=%d sums %ld %ld %ld %s\n", I, sa, sb, sc,
         bad ? "WRONG" : "ok");
  return bad;
}
