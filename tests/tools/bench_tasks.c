/*
 * bench_tasks.c - a task-heavy OpenMP kernel for pompt-prof's overhead
 * measurement: one thread creates many small tasks (a few microseconds of
 * work each) in batches ended by taskwait; the team executes them.
 * (Programs built with pomp-cc show tasks once pomp-instr instruments the
 * task construct; the native runtime reports them already.)
 *
 * usage: bench_tasks [batches [tasks]]     prints "time <seconds>"
 */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

static double leaf(int i) {
  double x = (double)i;
  for (int k = 0; k < 2000; k++)
    x = x * 0.9999 + 1e-4;
  return x;
}

int main(int argc, char **argv) {
  int batches = argc > 1 ? atoi(argv[1]) : 200;
  int ntasks = argc > 2 ? atoi(argv[2]) : 200;
  double *r = calloc((size_t)ntasks, sizeof *r);
  if (r == NULL)
    return 1;
  double sum = 0.0;
  double t0 = omp_get_wtime();
  #pragma omp parallel
  {
    #pragma omp single
    {
      for (int b = 0; b < batches; b++) {
        for (int i = 0; i < ntasks; i++) {
          #pragma omp task firstprivate(i) shared(r)
          r[i] = leaf(i + b);
        }
        #pragma omp taskwait
        for (int i = 0; i < ntasks; i++)
          sum += r[i];
      }
    }
  }
  double t = omp_get_wtime() - t0;
  printf("sum %.6e\n", sum);
  printf("time %.6f\n", t);
  free(r);
  return 0;
}
