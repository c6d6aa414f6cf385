/* Blocks that are single statements without braces. */
#include <stdio.h>
#define CHECK_LINE() _Static_assert(__builtin_LINE() == __LINE__, "line numbering")

static int counter;
static void bump(int *p) { __atomic_add_fetch(p, 1, __ATOMIC_RELAXED); }

int main(void) {
  int n = 0;
#pragma omp parallel num_threads(2)
  bump(&counter);
  CHECK_LINE();
#pragma omp parallel num_threads(2)
#pragma omp critical
  n = n + 1; CHECK_LINE();
#pragma omp parallel
  if (n > 0)
#pragma omp critical
    n += 0;
  else
    n = -1;
  CHECK_LINE();
#pragma omp parallel
#pragma omp single
  do { n++; } while (0);
  CHECK_LINE();
  printf("%d %d\n", counter, n);
  return 0;
}
