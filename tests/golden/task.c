/* task: if, final, untied, mergeable, priority (a call in it, evaluated
 * before the hand-over), depend, in_reduction and
 * task_reduction, default(none), taskwait (with depend), taskgroup,
 * taskyield, nested and recursive tasks. */
#include <stdio.h>
#define CHECK_LINE() _Static_assert(__builtin_LINE() == __LINE__, "line numbering")

static int fib(int n) {
  int x, y, z = 0;
  if (n < 2)
    return n;
#pragma omp task shared(x) if(n > 5) final(n < 3) mergeable
  x = fib(n - 1);
#pragma omp task shared(y) untied \
    priority(1)
  y = fib(n - 2);
#pragma omp task shared(z) priority(fib(1))
  z = 1;
#pragma omp taskwait
  return x + y + z - 1;
}

int main(void) {
  int a[16] = {0}, b = 0, c = 0, sum = 0, i;
  int *p = a;
#pragma omp parallel num_threads(4)
#pragma omp single
  {
#pragma omp task depend(out: a[0:8]) depend(in: b) shared(a)
    for (i = 0; i < 8; i++)
      a[i] = i;
#pragma omp task depend(inout: p[8:8], c) depend(mutexinoutset: b) shared(a, c)
    {
      for (int k = 8; k < 16; k++)
        a[k] = k;
      c++;
    }
#pragma omp task depend(inout: a[3]) depend(in: a[:8]) default(none) shared(a, sum)
    {
#pragma omp atomic
      sum += a[3];
    }
#pragma omp taskwait depend(in: c)
    CHECK_LINE();
#pragma omp taskgroup task_reduction(+: sum)
    {
      for (int k = 0; k < 16; k++) {
#pragma omp task in_reduction(+: sum) firstprivate(k) shared(a)
        sum += a[k];
      }
#pragma omp taskyield
    }
    CHECK_LINE();
#pragma omp task if(0)
    b = fib(7);
#pragma omp taskwait
#pragma omp task depend(out: a[0:4]) depend(inout: b) shared(a)
    a[0] += b;
#pragma omp taskwait depend(in: a[0:4], c) depend(inout: b)
    CHECK_LINE();
  }
  CHECK_LINE();
  printf("sum=%d b=%d c=%d p=%d\n", sum, b, c, p[15]);
  return 0;
}
