/* taskloop: grainsize, num_tasks, nogroup, reduction, lastprivate,
 * collapse; taskloop simd; master taskloop, masked taskloop,
 * parallel master taskloop (simd), parallel masked taskloop, default(none). */
#include <stdio.h>
#define CHECK_LINE() _Static_assert(__builtin_LINE() == __LINE__, "line numbering")

int main(void) {
  int a[64] = {0}, n = 64, sum = 0, last = -1, s2 = 0, s3 = 0;
  long total = 0;
#pragma omp parallel num_threads(3)
#pragma omp single
  {
#pragma omp taskloop grainsize(8) reduction(+: sum) lastprivate(last)
    for (int i = 0; i < n; i++) {
      a[i] = i;
      sum += i;
      last = i;
    }
    CHECK_LINE();
#pragma omp taskloop num_tasks(4) nogroup collapse(2) shared(a)
    for (int i = 0; i < 8; i++)
      for (int j = 0; j < 8; j++)
        a[i * 8 + j] += 1;
#pragma omp taskwait
#pragma omp taskloop simd reduction(+: s2) simdlen(4)
    for (int i = 0; i < n; i++)
      s2 += a[i];
  }
  CHECK_LINE();

#pragma omp parallel num_threads(2) shared(total)
  {
#pragma omp master taskloop reduction(+: total) grainsize(16)
    for (int i = 0; i < n; i++)
      total += a[i];
#pragma omp masked taskloop filter(0) num_tasks(2)
    for (int i = 0; i < n; i++)
      a[i] -= 1;
  }
  CHECK_LINE();

#pragma omp parallel master taskloop num_threads(2) default(none) shared(a, n) reduction(+: s3) if(n > 1)
  for (int i = 0; i < n; i++)
    s3 += a[i];
  CHECK_LINE();

#pragma omp parallel masked taskloop simd num_threads(2) firstprivate(n) lastprivate(last)
  for (int i = 0; i < n; i++)
    last = a[i] + n;
  CHECK_LINE();
  printf("sum=%d last=%d s2=%d s3=%d total=%ld\n", sum, last, s2, s3, total);
  return 0;
}
