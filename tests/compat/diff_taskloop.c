/*
 * diff_taskloop.c -- the tasks of taskloops and taskwait with depend
 * clauses for the differential tests.  Only task counts OpenMP 5.2 fixes:
 * num_tasks and a grainsize that divides the iterations (without either
 * clause the count is the runtime's choice), and at most 10 tasks per
 * taskloop: above that, libomp 14 in a team of one splits the generation
 * with a task of its own, which it reports as well.
 *
 *   diff_taskloop R
 */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
  int reps = argc > 1 ? atoi(argv[1]) : 2;
  long checks = 0;
  for (int r = 0; r < reps; r++) {
    long s = 0, t = 0, red = 0, x = 0, y = 0;
    /* master, not single: libomp 14 asserts at a taskwait with depend
     * clauses on a worker thread whose implicit task the tool gave data
     * (it keeps both in one place). */
#pragma omp parallel shared(s, t, red, x, y)
#pragma omp master
    {
#pragma omp taskloop grainsize(10)
      for (int i = 0; i < 100; i++) {
#pragma omp atomic
        s += i;
      }
#pragma omp taskloop num_tasks(3) untied
      for (long i = 99; i >= 0; i -= 3) {
#pragma omp atomic
        t += 1;
      }
#pragma omp taskloop num_tasks(4) nogroup
      for (int i = 0; i < 40; i++) {
#pragma omp atomic
        t += 1;
      }
#pragma omp taskwait
#pragma omp taskloop grainsize(10) reduction(+ : red)
      for (int i = 0; i < 100; i++)
        red += i;
#pragma omp task depend(out : x) shared(x)
      x = 1;
#pragma omp taskwait depend(in : x)
      y = x;
    }
    checks += (s == 4950) + (t == 74) + (red == 4950) + (y == 1);
  }
  printf("taskloop: %ld of %d checks\n", checks, 4 * reps);
  return checks == 4L * reps ? 0 : 1;
}
