/* Directives that are not instrumented pass through. */
#include <stdio.h>
#define CHECK_LINE() _Static_assert(__builtin_LINE() == __LINE__, "line numbering")

static int tp;
#pragma omp threadprivate(tp)

#pragma omp declare simd
static int twice(int x) { return 2 * x; }

int main(void) {
  int x = 0, y = 0;
#pragma omp parallel
  {
#pragma omp single
    {
#pragma omp task default(none) shared(x)
      {
#pragma omp critical
        x++;
      }
#pragma omp task
      y++;
#pragma omp taskwait
    }
  }
  CHECK_LINE();
#pragma omp simd
  for (int i = 0; i < 4; i++)
    y += twice(i);
  printf("%d %d %d\n", x, y, tp);
  return 0;
}
