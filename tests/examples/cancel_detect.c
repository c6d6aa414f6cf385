/*
 * cancel_detect.c -- threads that detect a cancellation, each construct a
 * cancellation can bind to, a0 repetitions (default 3), run
 * with OMP_CANCELLATION=true.  Every detection is made deterministic: the
 * detecting threads cannot get past the point where they detect it until
 * the cancellation is activated.  Per repetition and team of n threads:
 *  - cancel parallel, the others spin on `cancellation point parallel`:
 *    1 activated, n - 1 detected (parallel);
 *  - cancel parallel, the others wait in a barrier (GOMP_barrier_cancel):
 *    1 activated, n - 1 detected (parallel);
 *  - a loop of n iterations, one per thread: iteration 0 cancels the loop,
 *    the others spin on `cancellation point for`: 1 activated, n - 1
 *    detected (loop), and none at the loop's barrier (GOMP_loop_end_cancel
 *    tells only of the region's cancellation);
 *  - two sections: the first cancels the construct, the second spins on
 *    `cancellation point sections`: 1 activated, and 1 detected (sections)
 *    when n > 1 (libgomp hands the sections out in order, so a team of one
 *    runs the first, which cancels, and never the second);
 *  - on each thread a taskgroup with one task whose undeferred child cancels
 *    the taskgroup; the task then reaches `cancellation point taskgroup`
 *    (n detected, taskgroup), and in a second taskgroup `cancel taskgroup
 *    if(0)`, which is a cancellation point (n detected, taskgroup): 2n
 *    activated.
 * Totals per repetition: activated 2n + 4, detected 3(n - 1) + 2n + (n > 1),
 * of which parallel 2(n - 1), loop n - 1, sections (n > 1), taskgroup 2n.  With OMP_CANCELLATION=false
 * nothing is cancelled and the spins would not end: the program checks
 * omp_get_cancellation() and prints the same either way.
 */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

/* A spin that cannot end is a failed test, not a hang. */
#define SPIN_LIMIT 2000000000L

static int spin_failed(long spins) {
  if (spins < SPIN_LIMIT)
    return 0;
  fprintf(stderr, "cancel_detect: a cancellation was never detected\n");
  exit(2);
}

static int zero(void) {
  static volatile int z = 0;
  return z;
}

int main(int argc, char **argv) {
  int reps = argc > 1 ? atoi(argv[1]) : 3;
  if (!omp_get_cancellation()) {
    fprintf(stderr, "cancel_detect: run with OMP_CANCELLATION=true\n");
    return 77;
  }
  int left = 0;
  for (int r = 0; r < reps; r++) {
    /* Cancellation points spun on until the cancellation is seen. */
#pragma omp parallel
    {
      if (omp_get_thread_num() == 0) {
#pragma omp cancel parallel
      }
      for (long spins = 0; !spin_failed(spins); spins++) {
#pragma omp cancellation point parallel
      }
    }

    /* A barrier the cancelling thread never reaches. */
#pragma omp parallel reduction(+ : left)
    {
      if (omp_get_thread_num() == 0) {
#pragma omp cancel parallel
      }
#pragma omp barrier
      left++; /* never: every thread leaves at the cancel or the barrier */
    }

    /* A cancelled loop: iteration 0 cancels, the others wait for it. */
    int n = omp_get_max_threads();
#pragma omp parallel
    {
#pragma omp for schedule(static, 1)
      for (int i = 0; i < n; i++) {
        if (i == 0) {
#pragma omp cancel for
        }
        for (long spins = 0; !spin_failed(spins); spins++) {
#pragma omp cancellation point for
        }
      }
    }

    /* Sections: the second waits for the first's cancellation. */
#pragma omp parallel
    {
#pragma omp sections
      {
#pragma omp section
        {
#pragma omp cancel sections
        }
#pragma omp section
        {
          for (long spins = 0; !spin_failed(spins); spins++) {
#pragma omp cancellation point sections
          }
        }
      }
    }

    /* Taskgroups, one per thread, each cancelled by an undeferred child
     * of its task before the task's cancellation point. */
#pragma omp parallel
    {
#pragma omp taskgroup
      {
#pragma omp task
        {
#pragma omp task if (0)
          {
#pragma omp cancel taskgroup
          }
#pragma omp cancellation point taskgroup
          left++; /* never */
        }
      }
#pragma omp taskgroup
      {
#pragma omp task
        {
#pragma omp task if (0)
          {
#pragma omp cancel taskgroup
          }
#pragma omp cancel taskgroup if (zero())
          left++; /* never */
        }
      }
    }
  }
  printf("cancel_detect: %d repetitions, %d statements after a cancellation\n",
         reps, left);
  return left != 0;
}
