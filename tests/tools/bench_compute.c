/*
 * bench_compute.c - a compute-bound OpenMP kernel for pompt-prof's overhead
 * measurement: a parallel region sweeping a worksharing loop over an array
 * with a few floating-point operations per element, so that each loop
 * instance runs for about a millisecond.
 *
 * usage: bench_compute [sweeps]     prints "time <seconds>" of the kernel
 */
#include <math.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

#define N 200000

int main(int argc, char **argv) {
  int sweeps = argc > 1 ? atoi(argv[1]) : 200;
  static double a[N], b[N];
  for (int i = 0; i < N; i++)
    a[i] = (double)i / N;
  double t0 = omp_get_wtime();
  double sum = 0.0;
  #pragma omp parallel
  {
    for (int s = 0; s < sweeps; s++) {
      #pragma omp for schedule(static)
      for (int i = 0; i < N; i++) {
        double x = a[i];
        for (int k = 0; k < 8; k++)
          x = x * 0.999 + 0.001 * sqrt(x + 1.0);
        b[i] = x;
      }
      #pragma omp for schedule(static) reduction(+:sum)
      for (int i = 0; i < N; i++) {
        a[i] = 0.5 * (a[i] + b[i]);
        sum += a[i];
      }
    }
  }
  double t = omp_get_wtime() - t0;
  printf("sum %.6e\n", sum);
  printf("time %.6f\n", t);
  return 0;
}
