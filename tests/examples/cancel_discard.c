/*
 * cancel_discard.c -- tasks that a cancellation discards before they start,
 * a0 repetitions (default 3), run with OMP_CANCELLATION=true.  Only thread
 * 0 makes tasks; the others wait in plain code (no scheduling point, so
 * they cannot run a task) until thread 0 is past the construct, so every
 * count is exact for any team size.  Per repetition:
 *  - a taskgroup: K deferred tasks, then an undeferred task that cancels
 *    the taskgroup, then K more tasks: 1 activated, 2K discarded
 *    (taskgroup): the first K when the taskgroup's wait would run them,
 *    the last K at their creation;
 *  - a taskgroup with one deferred task that creates 2 tasks (in the same
 *    taskgroup, which they inherit) and then cancels it: 1 activated, 2
 *    discarded (taskgroup);
 *  - a taskloop of K tasks, each cancelling the taskloop's taskgroup first:
 *    the first to run activates it, K - 1 are discarded (taskgroup);
 *  - a taskgroup with a `nogroup` taskloop of K tasks (they belong to the
 *    enclosing taskgroup) and then an undeferred task that cancels it: 1
 *    activated, K discarded (taskgroup) when the taskgroup's wait would run
 *    them;
 *  - K deferred tasks, then `cancel parallel`; the other threads spin on a
 *    cancellation point: 1 activated, n - 1 detected, K discarded
 *    (parallel) when the region's end barrier would run them.
 * Totals per repetition: 5K + 5 tasks created, 4 of them begun (the four
 * that cancel, each ending cancelled), activated 5, discarded 5K + 1
 * (taskgroup 4K + 1, parallel K), detected n - 1, and no other task body
 * ever runs past its cancel.
 */
#include <omp.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>

#define K 5
#define SPIN_LIMIT 2000000000L

static atomic_int ran;

static void spin_until(atomic_int *flag, int value) {
  for (long spins = 0; atomic_load(flag) != value; spins++)
    if (spins >= SPIN_LIMIT) {
      fprintf(stderr, "cancel_discard: thread 0 never got past a construct\n");
      exit(2);
    }
}

int main(int argc, char **argv) {
  int reps = argc > 1 ? atoi(argv[1]) : 3;
  if (!omp_get_cancellation()) {
    fprintf(stderr, "cancel_discard: run with OMP_CANCELLATION=true\n");
    return 77;
  }
  for (int r = 0; r < reps; r++) {
    atomic_int past = 0;
#pragma omp parallel shared(past)
    {
      if (omp_get_thread_num() == 0) {
#pragma omp taskgroup
        {
          for (int k = 0; k < K; k++) {
#pragma omp task
            atomic_fetch_add(&ran, 1);
          }
#pragma omp task if (0)
          {
#pragma omp cancel taskgroup
          }
          for (int k = 0; k < K; k++) {
#pragma omp task
            atomic_fetch_add(&ran, 1);
          }
        }
#pragma omp taskgroup
        {
#pragma omp task
          {
            for (int k = 0; k < 2; k++) {
#pragma omp task
              atomic_fetch_add(&ran, 1);
            }
#pragma omp cancel taskgroup
          }
        }
        /* A taskloop whose every task cancels its taskgroup first: the
         * first to run does, the others are discarded. */
#pragma omp taskloop num_tasks(K)
        for (int k = 0; k < K; k++) {
#pragma omp cancel taskgroup
          atomic_fetch_add(&ran, 1);
        }
        /* A nogroup taskloop's tasks are the enclosing taskgroup's. */
#pragma omp taskgroup
        {
#pragma omp taskloop num_tasks(K) nogroup
          for (int k = 0; k < K; k++)
            atomic_fetch_add(&ran, 1);
#pragma omp task if (0)
          {
#pragma omp cancel taskgroup
          }
        }
        atomic_store(&past, 1);
      } else {
        spin_until(&past, 1);
      }
    }

#pragma omp parallel
    {
      if (omp_get_thread_num() == 0) {
        for (int k = 0; k < K; k++) {
#pragma omp task
          atomic_fetch_add(&ran, 1);
        }
#pragma omp cancel parallel
      }
      for (long spins = 0; spins < SPIN_LIMIT; spins++) {
#pragma omp cancellation point parallel
      }
      fprintf(stderr, "cancel_discard: the cancellation was never seen\n");
      exit(2);
    }
  }
  printf("cancel_discard: %d repetitions, %d task bodies ran\n", reps,
         atomic_load(&ran));
  return 0;
}
