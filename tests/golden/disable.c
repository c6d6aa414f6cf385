/* golden-args: --disable=sync,runtime,parallel
 * Disabled groups: no events for their constructs; a combined construct
 * is still split when one of its leaves is instrumented. */
#include <omp.h>
#include <stdio.h>
#define CHECK_LINE() _Static_assert(__builtin_LINE() == __LINE__, "line numbering")

int main(void) {
  int s = 0, t = 0, n = 16;
#pragma omp parallel for num_threads(2) reduction(+: s) default(none) shared(n)
  for (int i = 0; i < n; i++)
    s += i;
  CHECK_LINE();
#pragma omp parallel num_threads(2) shared(t)
  {
#pragma omp critical
    t += omp_get_thread_num() >= 0;
#pragma omp barrier
#pragma omp single
    t += 10;
  }
  CHECK_LINE();
  printf("s=%d t=%d\n", s, t);
  return 0;
}
