/*
 * prof_tasks.c - tasks under pompt-prof, with counts check_prof.py
 * ("tasks") knows for T = argv[1] and any team:
 *   @outer    task            T created, T executed
 *   @inner    task            2T created, 2T executed (each outer task
 *                             creates two and waits for them)
 *   @wait     taskwait        T (one per outer task)
 *   @group    taskgroup       1 region, with its wait
 *   @final    taskwait        1 (the single's)
 */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

static double leaf(int i) {
  double x = (double)i;
  for (int k = 0; k < 1000; k++)
    x = x * 0.999 + 1e-3;
  return x;
}

int main(int argc, char **argv) {
  int ntasks = argc > 1 ? atoi(argv[1]) : 10;
  double *r = calloc((size_t)ntasks * 2, sizeof *r);
  if (r == NULL)
    return 1;
  #pragma omp parallel
  {
    #pragma omp single
    {
      #pragma omp taskgroup /* @group */
      {
        for (int i = 0; i < ntasks; i++) {
          #pragma omp task firstprivate(i) shared(r) /* @outer */
          {
            #pragma omp task firstprivate(i) shared(r) /* @inner */
            r[2 * i] = leaf(i);
            #pragma omp task firstprivate(i) shared(r) /* @inner2 */
            r[2 * i + 1] = leaf(i + 1);
            #pragma omp taskwait /* @wait */
          }
        }
      }
      #pragma omp taskwait /* @final */
    }
  }
  double sum = 0.0;
  for (int i = 0; i < 2 * ntasks; i++)
    sum += r[i];
  printf("tasks %d sum %.3f\n", ntasks, sum);
  free(r);
  return 0;
}
