/* distribute parallel for [simd] on the host (OpenMP 5.0 host teams): a
 * composite construct, one directive, whose parallel and worksharing-loop
 * leaves libpompt reports between Distribute_parallel_enter and _exit
 * (also split off a combined teams construct, with default(none)). */
#include <omp.h>
#include <stdio.h>
#define CHECK_LINE() _Static_assert(__builtin_LINE() == __LINE__, "line numbering")
#define N 64

int main(void) {
  double a[N] = {0};
  long s = 0;
  int n = N;
#pragma omp teams num_teams(2) thread_limit(2)
  {
#pragma omp distribute parallel for dist_schedule(static, 16) num_threads(2)
    for (int i = 0; i < N; i++)
      a[i] += i;
    CHECK_LINE();
#pragma omp distribute parallel for simd reduction(+: s) if(parallel: n > 1)
    for (int i = 0; i < N; i++)
      s += i;
  }
  CHECK_LINE();
#pragma omp teams distribute parallel for num_teams(2) default(none) \
    shared(a, n) schedule(dynamic, 4)
  for (int i = 0; i < n; i++)
    a[i] *= 2.0;
  CHECK_LINE();
  printf("s=%ld a=%g %g\n", s, a[1], a[N - 1]);
  return 0;
}
