/*
 * taskloops.c -- the tasks taskloops generate, and taskwait with depend
 * clauses: each taskloop task is created, scheduled, given its chunk of
 * iterations and completed; the chunks of a taskloop partition its logical
 * iterations; the taskloop's implicit taskgroup is reported unless nogroup.
 * tests/examples/meson.build holds the exact counts for a team of n
 * threads and N = a0 iterations.
 */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

struct acc {
  long v;
};

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 100;
  long s = 0, r = 0, u = 0, x = 0, y = 0;
  struct acc fp = {1};
#pragma omp parallel shared(s, r, u, x, y)
#pragma omp single
  {
    /* N / 10 tasks of 10 */
#pragma omp taskloop grainsize(10)
    for (int i = 0; i < n; i++) {
#pragma omp atomic
      s += i;
    }
    /* 3 untied tasks, counting down by 3 */
#pragma omp taskloop num_tasks(3) untied
    for (long i = n; i > 0; i -= 3) {
#pragma omp atomic
      s += i;
    }
    /* one task per thread of the team, undeferred, no taskgroup */
#pragma omp taskloop nogroup if(0)
    for (unsigned long long k = 0; k < (unsigned long long)n; k++) {
#pragma omp atomic
      u += 1;
    }
#pragma omp taskwait
    /* a reduction: libgomp keeps the taskgroup; ceil(N / 7) tasks */
#pragma omp taskloop reduction(+ : r) grainsize(strict : 7)
    for (int i = 0; i < n; i++)
      r += i;
    /* final and mergeable tasks with a firstprivate struct (a copy
     * function), 4 of them */
#pragma omp taskloop num_tasks(4) final(1) mergeable firstprivate(fp)
    for (int i = 0; i < n; i++) {
#pragma omp atomic
      u += fp.v;
    }
    /* taskloop simd: 2 tasks */
#pragma omp taskloop simd num_tasks(2) reduction(+ : r)
    for (int i = 0; i < n; i++)
      r += 1;
    /* taskwait with depend clauses: the dependence task of the taskwait
     * depends on the task that writes x */
#pragma omp task depend(out : x) shared(x)
    x = 1;
#pragma omp taskwait depend(in : x)
    y = x;
  }
  printf("s=%ld r=%ld u=%ld y=%ld\n", s, r, u, y);
  return 0;
}
