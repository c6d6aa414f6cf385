/* sections: with and without the first section pragma; parallel sections. */
#include <stdio.h>
#define CHECK_LINE() _Static_assert(__builtin_LINE() == __LINE__, "line numbering")

int main(void) {
  int x = 0, y = 0, z = 0;

#pragma omp parallel
  {
#pragma omp sections
    {
#pragma omp section
      x = 1;
#pragma omp section
      {
        y = 2;
      }
    }
    CHECK_LINE();

#pragma omp sections nowait lastprivate(z)
    {
      z = 3;
#pragma omp section
      z = 4;
    }
  }
  CHECK_LINE();

#pragma omp parallel sections
  {
    { x += 10; }
#pragma omp section
    y += 10;
  }
  CHECK_LINE();
  printf("%d %d %d\n", x, y, z);
  return 0;
}
