/* cancel (parallel, for, sections, taskgroup; if), cancellation point,
 * error at(execution) with literal and computed messages.  Cancellation is
 * off unless OMP_CANCELLATION=true: the program's result must not depend
 * on it. */
#include <stdio.h>
#define CHECK_LINE() _Static_assert(__builtin_LINE() == __LINE__, "line numbering")

static const char *reason(int n) { return n > 100 ? "too big" : "fine"; }

int main(void) {
  int n = 16, found = 0, count = 0;
#pragma omp parallel num_threads(2) shared(found, count)
  {
#pragma omp for
    for (int i = 0; i < n; i++) {
      if (i == 1000) {
#pragma omp atomic write
        found = 1;
#pragma omp cancel for if(found)
      }
#pragma omp cancellation point for
    }
    CHECK_LINE();
#pragma omp sections
    {
#pragma omp section
      {
#pragma omp cancel sections if(cancel: n < 0)
      }
#pragma omp section
      {
#pragma omp cancellation point sections
      }
    }
#pragma omp single
#pragma omp taskgroup
    {
#pragma omp task shared(count)
      {
#pragma omp cancellation point taskgroup
#pragma omp atomic
        count++;
#pragma omp cancel taskgroup if(n > 1000)
      }
    }
    if (n > 1000) {
#pragma omp cancel parallel
    }
  }
  CHECK_LINE();
  if (n > 1000) {
#pragma omp error at(execution) severity(fatal) message("impossible")
  }
#pragma omp error at(execution) severity(warning) message(reason(n))
#pragma omp error severity(warning) message("at compilation: not instrumented")
  CHECK_LINE();
  printf("found=%d count=%d\n", found, count);
  return 0;
}
