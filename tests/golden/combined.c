/* Combined and composite constructs: each clause on the leaf where it means
 * the same thing; simd and loop bodies get no calls. */
#include <stdio.h>
#define CHECK_LINE() _Static_assert(__builtin_LINE() == __LINE__, "line numbering")

static int one(void) { return 1; }

int main(void) {
  float a[64], b[64];
  int n = 64, i, sum = 0, last = 0, hits = 0, m = 0;
  for (i = 0; i < n; i++)
    b[i] = (float)i;

#pragma omp parallel for simd if(simd: n > 8) if(parallel: n > 1) num_threads(2) \
    schedule(static) simdlen(4) order(concurrent) lastprivate(last) default(none) shared(a, b, n)
  for (int k = 0; k < n; k++) {
    a[k] = b[k] * 2.0f;
    last = k;
  }
  CHECK_LINE();

#pragma omp parallel for simd if(n > 1) reduction(+: sum) aligned(b: 16) linear(m: 1)
  for (int k = 0; k < n; k++) {
    sum += (int)b[k];
    m += 1;
  }
  CHECK_LINE();

#pragma omp parallel master num_threads(2) default(none) shared(n, hits)
  {
#pragma omp atomic
    hits += n;
#pragma omp task shared(hits)
    {
#pragma omp atomic
      hits++;
    }
  }
  CHECK_LINE();

#pragma omp parallel masked num_threads(2) filter(one()) shared(hits)
  hits += 100;
  CHECK_LINE();

#pragma omp parallel loop num_threads(2) reduction(+: sum) collapse(1) bind(parallel)
  for (int k = 0; k < n; k++)
    sum += (int)a[k];
  CHECK_LINE();

#pragma omp parallel num_threads(2) shared(sum)
  {
#pragma omp for simd reduction(+: sum) nowait
    for (int k = 0; k < n; k++)
      sum += 1;
#pragma omp loop reduction(+: sum)
    for (int k = 0; k < n; k++)
      sum += 1;
  }
#pragma omp simd reduction(+: sum)
  for (int k = 0; k < n; k++) {
#pragma omp ordered simd
    sum += 1;
  }
#pragma omp parallel sections num_threads(2) lastprivate(i) firstprivate(n)
  {
    i = n;
#pragma omp section
    i = n + 1;
  }
  CHECK_LINE();
  printf("a=%g sum=%d last=%d hits=%d m=%d i=%d\n", (double)a[5], sum, last, hits, m, i);
  return 0;
}
