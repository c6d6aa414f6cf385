/* critical: unnamed, named, with a hint. */
#include <stdio.h>
#include <omp.h>
#define CHECK_LINE() _Static_assert(__builtin_LINE() == __LINE__, "line numbering")

int main(void) {
  int a = 0, b = 0, c = 0;
#pragma omp parallel num_threads(4)
  {
#pragma omp critical
    a++;
    CHECK_LINE();
#pragma omp critical (update_b)
    {
      b++;
    }
    CHECK_LINE();
#pragma omp critical(update_c) hint(omp_sync_hint_contended)
    c++;
  }
  CHECK_LINE();
  printf("%d\n", a == b && b == c);
  return 0;
}
