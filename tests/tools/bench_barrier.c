/*
 * bench_barrier.c - a synchronisation-heavy OpenMP kernel for pompt-prof's
 * overhead measurement: a 1-D Jacobi stencil on a small array, two
 * worksharing loops per sweep, each ending in an implicit barrier, plus a
 * single and an explicit barrier every 10 sweeps.  With the default size a
 * loop instance lasts some tens of microseconds: several thousand barriers
 * per second per thread.
 *
 * usage: bench_barrier [sweeps [n]]     prints "time <seconds>"
 */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
  int sweeps = argc > 1 ? atoi(argv[1]) : 20000;
  int n = argc > 2 ? atoi(argv[2]) : 20000;
  double *u = calloc((size_t)n + 2, sizeof *u);
  double *v = calloc((size_t)n + 2, sizeof *v);
  if (u == NULL || v == NULL)
    return 1;
  u[0] = 1.0;
  v[0] = 1.0;
  int checks = 0;
  double t0 = omp_get_wtime();
  #pragma omp parallel
  {
    for (int s = 0; s < sweeps; s++) {
      #pragma omp for schedule(static)
      for (int i = 1; i <= n; i++)
        v[i] = 0.5 * u[i] + 0.25 * (u[i - 1] + u[i + 1]);
      #pragma omp for schedule(static)
      for (int i = 1; i <= n; i++)
        u[i] = 0.5 * v[i] + 0.25 * (v[i - 1] + v[i + 1]);
      if (s % 10 == 0) {
        #pragma omp single
        checks++;
        #pragma omp barrier
      }
    }
  }
  double t = omp_get_wtime() - t0;
  printf("u[1] %.6e checks %d\n", u[1], checks);
  printf("time %.6f\n", t);
  free(u);
  free(v);
  return 0;
}
