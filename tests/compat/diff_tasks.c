/*
 * diff_tasks.c -- explicit tasks for the differential tests: deferred and
 * undeferred tasks, dependences (also mutexinoutset, and through a depend
 * object: pomp-instr passes the object, libpompt reads its address and
 * kind), taskwait, taskgroup, nested tasks, tasks completed at a barrier.
 *
 *   diff_tasks R
 */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
  int reps = argc > 1 ? atoi(argv[1]) : 2;
  long checks = 0;
  for (int r = 0; r < reps; r++) {
    long a = 0, b = 0, c = 0, d = 0, e = 0, f = 0;
    omp_depend_t fo;
#pragma omp depobj(fo) depend(inout : f)
#pragma omp parallel
    {
#pragma omp single
      {
#pragma omp task depend(out : a)
        a = 1;
#pragma omp task depend(in : a) depend(out : b)
        b = a + 1;
#pragma omp taskwait
#pragma omp task if (0)
        c = b + 1;
#pragma omp task depend(depobj : fo) shared(f)
        f += 1;
#pragma omp task depend(mutexinoutset : f) shared(f)
        f += 1;
#pragma omp task depend(in : f) shared(f, checks)
        checks += f == 2;
#pragma omp taskgroup
        {
#pragma omp task
          {
#pragma omp task
            {
#pragma omp atomic
              d += 1;
            }
#pragma omp atomic
            d += 1;
          }
        }
      }
#pragma omp task
      {
#pragma omp atomic
        e += 1;
      }
    }
#pragma omp depobj(fo) destroy
    checks += (a == 1) + (b == 2) + (c == 3) + (d == 2) +
              (e == omp_get_max_threads());
  }
  printf("tasks: %ld of %d checks\n", checks, 6 * reps);
  return checks == 6L * reps ? 0 : 1;
}
