/*
 * diff_locks.c -- the OpenMP lock routines for the differential tests:
 * init/destroy, set/unset, test, nestable locks (re-acquired by their
 * owner).  Every call is deterministic: contended locks are only set (the
 * number of failed tests would depend on timing), and each thread tests a
 * lock of its own, which always succeeds.
 *
 *   diff_locks R
 */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

#define MAX_THREADS 64

int main(int argc, char **argv) {
  int reps = argc > 1 ? atoi(argv[1]) : 2;
  long checks = 0;
  static omp_lock_t own[MAX_THREADS];
  for (int r = 0; r < reps; r++) {
    omp_lock_t l;
    omp_nest_lock_t nl;
    omp_init_lock(&l);
    omp_init_nest_lock(&nl);
    long s = 0, t = 0, n = 0;
    int threads = 1;
#pragma omp parallel
    {
      int me = omp_get_thread_num() % MAX_THREADS;
#pragma omp single
      threads = omp_get_num_threads();
      omp_set_lock(&l);
      s += 1;
      omp_unset_lock(&l);
      omp_init_lock(&own[me]);
      if (omp_test_lock(&own[me])) {
#pragma omp atomic
        t += 1;
        omp_unset_lock(&own[me]);
      }
      omp_destroy_lock(&own[me]);
      omp_set_nest_lock(&nl);
      omp_set_nest_lock(&nl);
      n += 1;
      omp_unset_nest_lock(&nl);
      omp_unset_nest_lock(&nl);
    }
    omp_destroy_nest_lock(&nl);
    omp_destroy_lock(&l);
    checks += (s == threads) + (t == threads) + (n == threads);
  }
  printf("locks: %ld of %d checks\n", checks, 3 * reps);
  return checks == 3L * reps ? 0 : 1;
}
