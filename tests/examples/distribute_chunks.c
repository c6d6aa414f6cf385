/*
 * distribute_chunks.c -- the chunks of distribute loops in host teams
 * (built with --loop-level=chunks): each team's initial thread reports
 * dispatch(distribute_chunk) for every chunk of its share, so over all
 * teams the chunks partition each loop's logical iterations
 * (tests/examples/meson.build has the counts; a0 = N, the argument).
 */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

#define MAXN 1000

static int opaque(int n) { return n; } /* a bound with a call: unknown */

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 100;
  if (n < 1 || n > MAXN)
    return 1;
  static double a[MAXN];
  long s = 0, t = 0;
#pragma omp teams num_teams(3)
  {
    /* no dist_schedule: one contiguous chunk per team (3) */
#pragma omp distribute
    for (int i = 0; i < n; i++)
      a[i] = i;
    /* chunks of 7 dealt round robin: (n + 6) / 7 */
#pragma omp distribute dist_schedule(static, 7)
    for (int i = 0; i < n; i++)
      a[i] += 1.0;
    /* counting down by 3, chunks of 4: ((n + 2) / 3 + 3) / 4 */
#pragma omp distribute dist_schedule(static, 4)
    for (int i = n - 1; i >= 0; i -= 3)
      a[i] *= 2.0;
    /* bounds with a call: not reported */
#pragma omp distribute
    for (int i = 0; i < opaque(n); i++)
      a[i] -= 1.0;
  }
#pragma omp teams num_teams(4)
  {
    /* simd, no chunk size: one chunk per team (4) */
#pragma omp distribute simd reduction(+ : s)
    for (int i = 0; i < n; i++)
      s += i;
    /* simd with a chunk size: nothing goes into a simd body, none */
#pragma omp distribute simd dist_schedule(static, 5) reduction(+ : t)
    for (int i = 0; i < n; i++)
      t += i;
  }
  /* each parallel region is a chunk of 10: (n + 9) / 10 */
#pragma omp teams distribute parallel for num_teams(2) \
    dist_schedule(static, 10) num_threads(2)
  for (int i = 0; i < n; i++)
    a[i] += 0.5;
  /* one team, one chunk */
#pragma omp teams num_teams(1)
#pragma omp distribute parallel for simd
  for (int i = 0; i < n; i++)
    a[i] += 0.25;
  double check = 0.0;
  for (int i = 0; i < n; i++)
    check += a[i];
  printf("s=%ld t=%ld check=%.2f\n", s, t, check);
  return 0;
}
