/* single: plain, nowait, copyprivate. */
#include <stdio.h>
#define CHECK_LINE() _Static_assert(__builtin_LINE() == __LINE__, "line numbering")

int main(void) {
  int v = 0, w = 0;

#pragma omp parallel firstprivate(v)
  {
#pragma omp single
    {
      w = 1;
    }
    CHECK_LINE();

#pragma omp single nowait
    w++;

#pragma omp single copyprivate(v)
    v = 42;
    CHECK_LINE();
    if (v != 42)
      printf("copyprivate failed\n");
  }
  CHECK_LINE();
  printf("w=%d\n", w);
  return 0;
}
