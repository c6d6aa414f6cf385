/* golden-args: --loop-level=chunks
 * Loop chunks: who decides them (static schedules computed from the
 * bounds, with a check at the start of each iteration when a chunk size is
 * given; libgomp's hand-out otherwise), and the loops whose chunks cannot
 * be reported (unknown bounds, collapse, simd bodies, inscan). */
#include <stdio.h>
#define CHECK_LINE() _Static_assert(__builtin_LINE() == __LINE__, "line numbering")

static int next(int i) { return i + 1; }

int main(void) {
  int a[64] = {0}, b[10] = {0}, n = 64, chunk = 4, s = 0, t = 0;
  long k;
#pragma omp parallel shared(a, n, chunk, s, t) private(k) num_threads(2)
  {
#pragma omp for
    for (int i = 0; i < n; i++)
      a[i] += i;
#pragma omp for schedule(static, chunk)
    for (int i = n - 1; i >= 0; i -= 3) {
      if (i % 2)
        continue;
      a[i] += 1;
    }
    CHECK_LINE();
#pragma omp for schedule(dynamic, 3) reduction(+: s)
    for (k = 0; k < n; k++)
      s += a[k];
#pragma omp for schedule(guided) nowait
    for (int i = 0; i < n; i++)
      a[i] -= 1;
#pragma omp for schedule(runtime)
    for (unsigned long long u = 0; u < 10ULL; u++)
      b[u] += 1;
#pragma omp for ordered schedule(static, 2)
    for (int i = 0; i < 8; i++)
#pragma omp ordered
      t += i;
    CHECK_LINE();
#pragma omp for schedule(static, 4)
    for (int i = 0; i < next(n - 1); i++)
      a[i] += 1;
#pragma omp for schedule(static, 2) collapse(2)
    for (int i = 0; i < 8; i++)
      for (int j = 0; j < 8; j++)
        a[i * 8 + j] += 1;
#pragma omp for simd schedule(static, 8)
    for (int i = 0; i < n; i++)
      a[i] += 1;
#pragma omp for schedule(simd: static, 8)
    for (int i = 0; i < n; i++)
      a[i] += 1;
  }
  CHECK_LINE();
#pragma omp parallel for schedule(static, 5) reduction(+: t) num_threads(2)
  for (int i = 0; i < n; i++)
    t += a[i];
  CHECK_LINE();
  printf("s=%d t=%d a=%d %d\n", s, t, a[0], a[63]);
  return 0;
}
