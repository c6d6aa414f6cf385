/* barrier */
#include <stdio.h>
#define CHECK_LINE() _Static_assert(__builtin_LINE() == __LINE__, "line numbering")

int main(void) {
  int x = 0;
#pragma omp parallel shared(x)
  {
#pragma omp atomic
    x++;
#pragma omp barrier
    CHECK_LINE();
    if (x == 0)
      printf("barrier failed\n");
#pragma omp barrier
#pragma omp barrier
  }
  CHECK_LINE();
  printf("done\n");
  return 0;
}
