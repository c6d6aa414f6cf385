/*
 * legacy_main.c -- an instrumented program (pomp-cc) that calls OpenMP code
 * of libgomp's first ABI (legacy_lib.c, as GCC before 4.9 compiled it): its
 * regions from the initial task, nested in each other, and from inside an
 * instrumented region (a team of one each).  tests/examples/meson.build
 * holds the exact counts.
 */
#include <omp.h>
#include <stdio.h>

#include "legacy_lib.h"

int main(void) {
  long r[6];
  r[0] = legacy_barrier();
  r[1] = legacy_dynamic(100);
  r[2] = legacy_runtime(50);
  r[3] = legacy_sections();
  r[4] = legacy_tasks(10);
  r[5] = legacy_nested(2);
  long inside = 0;
#pragma omp parallel reduction(+ : inside)
  inside += legacy_sections();
  /* Thread counts vary with OMP_NUM_THREADS; what every team computes
   * does not. */
  printf("dynamic %ld runtime %ld sections %ld tasks %ld inside %ld\n", r[1],
         r[2], r[3], r[4], inside / omp_get_max_threads());
  return r[0] > 0 && r[5] > 0 ? 0 : 1;
}
