/* golden-args: --loop-level=chunks
 * Distribute chunks: each team's share computed by libpompt from the
 * bounds and the dist_schedule chunk size; with a chunk size a check at the
 * start of each iteration of a plain distribute, each parallel region of a
 * distribute parallel for; none in a chunked simd body or with unknown
 * bounds; also split off a combined teams construct with default(none). */
#include <omp.h>
#include <stdio.h>
#define CHECK_LINE() _Static_assert(__builtin_LINE() == __LINE__, "line numbering")
#define N 40

static int len(void) { return N; }

int main(void) {
  double a[N] = {0};
  long s = 0;
  int n = N;
#pragma omp teams num_teams(2)
  {
#pragma omp distribute
    for (int i = 0; i < N; i++)
      a[i] = i;
    CHECK_LINE();
#pragma omp distribute dist_schedule(static, 8)
    for (int i = N - 1; i >= 0; i -= 2) {
      if (i == 7)
        continue;
      a[i] += 1.0;
    }
    CHECK_LINE();
#pragma omp distribute simd dist_schedule(static, 4) reduction(+: s)
    for (int i = 0; i < N; i++)
      s += i;
    CHECK_LINE();
#pragma omp distribute
    for (int i = 0; i < len(); i++)
      a[i] -= 0.5;
    CHECK_LINE();
#pragma omp distribute parallel for dist_schedule(static, 16) num_threads(2)
    for (int i = 0; i < N; i++)
      a[i] *= 2.0;
  }
  CHECK_LINE();
#pragma omp teams distribute num_teams(2) default(none) shared(a, n) \
    dist_schedule(static, 5)
  for (int i = 0; i < n; i++)
    a[i] += 0.25;
  CHECK_LINE();
  printf("s=%ld a=%g %g\n", s, a[1], a[N - 1]);
  return 0;
}
