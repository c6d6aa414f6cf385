/* A construct inside a user header.  golden-also: header.h */
#include <stdio.h>
#include "header.h"
#define CHECK_LINE() _Static_assert(__builtin_LINE() == __LINE__, "line numbering")

int main(void) {
  int n = count_threads();
#pragma omp parallel
  { CHECK_LINE(); }
  CHECK_LINE();
  printf("%d\n", n > 0);
  return 0;
}
