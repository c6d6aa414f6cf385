/* master */
#include <stdio.h>
#include <omp.h>
#define CHECK_LINE() _Static_assert(__builtin_LINE() == __LINE__, "line numbering")

int main(void) {
  int who = -1;
#pragma omp parallel
  {
#pragma omp master
    {
      who = omp_get_thread_num();
    }
    CHECK_LINE();
  }
  CHECK_LINE();
  printf("master=%d\n", who);
  return 0;
}
