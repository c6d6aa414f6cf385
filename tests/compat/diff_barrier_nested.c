/*
 * diff_barrier_nested.c -- a task that runs inside the end barrier of its
 * region and starts a region of its own.  libgomp defers the tasks of a
 * team of one to the region's end barrier, where the implicit task's code
 * has returned; the nested region's implicit task then leaves its block
 * and waits in its own end barrier while the outer one still waits in
 * its.  Found by the differential fuzz runs (fuzz_run.py, seed 19): the
 * outer barrier ended early and was reported a second time, with the
 * implicit task's frame set inside it.
 *
 *   diff_barrier_nested R
 */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
  int reps = argc > 1 ? atoi(argv[1]) : 2;
  long sum = 0;
  for (int r = 0; r < reps; r++) {
#pragma omp parallel num_threads(1)
    {
#pragma omp task
      {
#pragma omp parallel num_threads(2)
        {
#pragma omp atomic
          sum += 1;
        }
      }
    }
#pragma omp parallel num_threads(1)
    {
#pragma omp task
      {
#pragma omp parallel num_threads(1)
        {
#pragma omp sections
          {
#pragma omp section
            {
#pragma omp atomic
              sum += 10;
            }
          }
        }
      }
    }
#pragma omp parallel num_threads(2)
    {
#pragma omp single
#pragma omp task
      {
#pragma omp parallel num_threads(1)
        {
#pragma omp task
          {
#pragma omp atomic
            sum += 100;
          }
        }
      }
    }
  }
  printf("sum %ld\n", sum);
  return 0;
}
