/* for: schedule, nowait, reduction, loop bounds. */
#include <stdio.h>
#define CHECK_LINE() _Static_assert(__builtin_LINE() == __LINE__, "line numbering")

struct range { int lo, hi; };
static int next(int i) { return i + 1; }

int main(void) {
  int a[100], n = 100, i, sum = 0, chunk = 4;
  struct range r = {10, 90};

#pragma omp parallel
  {
#pragma omp for schedule(static, 8)
    for (i = 0; i < n; i++)
      a[i] = i;
    CHECK_LINE();

#pragma omp for schedule(dynamic, chunk) nowait reduction(+: sum)
    for (int j = n - 1; j >= 0; j -= 2) {
      sum += a[j];
    }
    CHECK_LINE();

#pragma omp for schedule(guided)
    for (long k = r.lo; k <= r.hi; k += (long)sizeof(int)) {
      a[k] = 0;
    }

#pragma omp for
    for (i = 0; i < next(n - 1); i++)
      a[i] += 1;

#pragma omp for collapse(2)
    for (i = 0; i < 10; i++)
      for (int j = 0; j < 10; j++)
        a[i * 10 + j] = i + j;
  }
  CHECK_LINE();
  printf("sum=%d\n", sum);
  return 0;
}
