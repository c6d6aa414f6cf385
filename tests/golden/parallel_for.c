/* parallel for: clauses split between parallel and for, default(none). */
#include <stdio.h>
#define CHECK_LINE() _Static_assert(__builtin_LINE() == __LINE__, "line numbering")

int main(void) {
  int a[64], n = 64, i, sum = 0, last = -1, first = 5, t = 3;

#pragma omp parallel for
  for (i = 0; i < n; i++)
    a[i] = i;
  CHECK_LINE();

#pragma omp parallel for default(none) shared(a, n) reduction(+: sum) \
    schedule(static, 4) num_threads(4) firstprivate(t, last) lastprivate(last)
  for (i = 0; i < n; i++) {
    sum += a[i] + t;
    last = i;
  }
  CHECK_LINE();

#pragma omp parallel for firstprivate(first) if(n > 10) ordered
  for (i = 0; i < n; i++) {
#pragma omp ordered
    a[i] += first;
  }
  CHECK_LINE();
  printf("sum=%d last=%d a[1]=%d\n", sum, last, a[1]);
  return 0;
}
