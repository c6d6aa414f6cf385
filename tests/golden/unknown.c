/* Directives that are not instrumented pass through: declarative ones
 * silently, unknown ones and target regions with a warning. */
#include <stdio.h>
#define CHECK_LINE() _Static_assert(__builtin_LINE() == __LINE__, "line numbering")

static int tp;
#pragma omp threadprivate(tp)

#pragma omp declare simd
static int twice(int x) { return 2 * x; }

#pragma omp declare target
static int on_device(int x) {
  int r = 0;
#pragma omp parallel for reduction(+: r)
  for (int i = 0; i < x; i++)
    r += i;
  return r;
}
#pragma omp end declare target

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
#pragma omp target map(tofrom: y)
  {
#pragma omp parallel num_threads(2)
    {
#pragma omp atomic
      y++;
    }
  }
#pragma omp frobnicate(x) now
#pragma omp nothing
  y += on_device(4);
  /* Loop transformations and assumptions: nothing happens at run time that
   * a tool could observe, so no warning either. */
#pragma omp unroll partial(2)
  for (int i = 0; i < 4; i++)
    y += i;
#pragma omp tile sizes(2)
  for (int i = 0; i < 4; i++)
    y -= i;
#pragma omp assume holds(y > 0)
  {
    y += 1;
  }
  printf("%d %d %d\n", x, y, tp);
  return 0;
}
