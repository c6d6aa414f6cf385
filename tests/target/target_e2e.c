/*
 * target_e2e.c -- target constructs instrumented by pomp-cc (not by hand):
 * a data region with a target region and an update inside, and a combined
 * target teams distribute parallel for with a reduction.  Run under the
 * example trace tool, host fallback: five target regions, two kernels, no
 * transfers.
 */
#include <stdio.h>
#define N 1000
int main(void) {
  static double a[N], b[N];
  double sum = 0;
  for (int i = 0; i < N; i++) a[i] = i;
#pragma omp target data map(to: a[0:N]) map(from: b[0:N])
  {
#pragma omp target
    for (int i = 0; i < N; i++) b[i] = 2 * a[i];
#pragma omp target update from(b[0:N])
  }
#pragma omp target teams distribute parallel for map(to: b[0:N]) reduction(+:sum)
  for (int i = 0; i < N; i++) sum += b[i];
  printf("sum %.1f\n", sum);
  return 0;
}
