/* parallel: if, num_threads, default(none), a directive-name modifier. */
#include <stdio.h>
#define CHECK_LINE() _Static_assert(__builtin_LINE() == __LINE__, "line numbering")

static int work(int n) { return n * 2; }

int main(void) {
  int n = 4, sum = 0;

#pragma omp parallel
  {
    CHECK_LINE();
  }
  CHECK_LINE();

#pragma omp parallel if(n > 1) num_threads(work(n) / 2) default(none) shared(sum)
  {
#pragma omp atomic
    sum++;
  }
  CHECK_LINE();

#pragma omp parallel if(parallel: n > 100) private(n) \
    num_threads(2)
  {
    n = 1;
    (void)n;
  }
  CHECK_LINE();
  printf("sum>0: %d\n", sum > 0);
  return 0;
}
