/*
 * archer_locks.c -- race-free use of the OpenMP lock routines for Archer on
 * a pomp-cc gcc build: simple locks (set/unset, test), nestable locks.
 * Archer sees them through mutex_acquired / mutex_released, which libpompt
 * delivers from the instrumenter's lock wrappers.
 *
 *   archer_locks R
 */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

static long guarded, nested, tested;

static void add_nested(omp_nest_lock_t *l, int depth) {
  omp_set_nest_lock(l);
  nested += 1;
  if (depth > 0)
    add_nested(l, depth - 1);
  omp_unset_nest_lock(l);
}

int main(int argc, char **argv) {
  int reps = argc > 1 ? atoi(argv[1]) : 20;
  omp_lock_t lock;
  omp_nest_lock_t nlock;
  omp_init_lock(&lock);
  omp_init_nest_lock(&nlock);
  int n = 1;
#pragma omp parallel
  {
#pragma omp single
    n = omp_get_num_threads();
    for (int r = 0; r < reps; r++) {
      omp_set_lock(&lock);
      guarded += 1;
      omp_unset_lock(&lock);
      add_nested(&nlock, 2);
      while (!omp_test_lock(&lock)) {
      }
      tested += 1;
      omp_unset_lock(&lock);
    }
  }
  omp_destroy_nest_lock(&nlock);
  omp_destroy_lock(&lock);
  int ok = guarded == (long)reps * n && nested == 3L * reps * n &&
           tested == (long)reps * n;
  printf("locks: %s\n", ok ? "ok" : "WRONG");
  return ok ? 0 : 1;
}
