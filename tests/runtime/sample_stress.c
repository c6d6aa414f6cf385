/*
 * sample_stress.c -- keeps libpompt busy for a while (parallel regions,
 * worksharing, nested explicit tasks with taskwait, critical, locks, atomic,
 * barriers, all instrumented by hand), for the check tool's SIGPROF sampler
 * (OMPT_CHECK_SAMPLE_HZ), which calls the inquiry entry points from its
 * signal handler at any point of that work.
 *
 *   sample_stress S      run for about S tenths of a second (default 10)
 */
#include <math.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

#include "hand.h"

static POMP_Handle_t h_par, h_for, h_single, h_task, h_child, h_tw, h_crit,
    h_lock, h_unlock, h_atomic, h_bar;
static const char ctc_par[] = CTC("type=parallel*file=stress.c*lines=1,50");
static const char ctc_for[] = CTC("type=for*file=stress.c*lines=2,4");
static const char ctc_single[] = CTC("type=single*file=stress.c*lines=5,20");
static const char ctc_task[] = CTC("type=task*file=stress.c*lines=6,15");
static const char ctc_child[] = CTC("type=task*file=stress.c*lines=8,10");
static const char ctc_tw[] = CTC("type=taskwait*file=stress.c*lines=12,12");
static const char ctc_crit[] = CTC("type=critical*file=stress.c*lines=21,22");
static const char ctc_rt[] = CTC("type=runtime*file=stress.c*lines=23,23");
static const char ctc_atomic[] = CTC("type=atomic*file=stress.c*lines=24,25");
static const char ctc_bar[] = CTC("type=barrier*file=stress.c*lines=26,26");

static volatile double sink;

static double compute(int n) {
  double s = 0;
  for (int i = 1; i <= n; i++)
    s += sin((double)i) / i;
  return s;
}

int main(int argc, char **argv) {
  double seconds = (argc > 1 ? atoi(argv[1]) : 10) / 10.0;
  omp_lock_t lock;
  omp_init_lock(&lock);
  double start = omp_get_wtime();
  /* Two counters: a critical section does not exclude an atomic update. */
  long regions = 0, total = 0, atomic_total = 0;
  while (omp_get_wtime() - start < seconds) {
    regions++;
    PARALLEL_ENTER(h_par, ctc_par)
#pragma omp parallel shared(pompt_team, lock, total, atomic_total)
    {
      PARALLEL_BEGIN(h_par)
      double local = 0;
      POMP_Loop_enter(&h_for, T, -1, 0, 63, 1, ctc_for);
#pragma omp for schedule(dynamic, 4) nowait
      for (int i = 0; i < 64; i++)
        local += compute(200);
      POMP_Loop_exit(h_for, T);
      IMPLICIT_BARRIER(h_for, ctc_for)
      POMP_Single_enter(&h_single, T, ctc_single);
#pragma omp single nowait
      {
        POMP_Single_begin(h_single, T);
        for (int k = 0; k < 16; k++) {
          TASK_CREATE(h_task, ctc_task, 0)
#pragma omp task firstprivate(pompt_task)
          TASK_BEGIN(h_task)
          TASK_CREATE(h_child, ctc_child, 0)
#pragma omp task firstprivate(pompt_task)
          TASK_BEGIN(h_child) sink = compute(300);
          TASK_END(h_child)
          TASK_DONE(h_child)
          sink = compute(200);
          TASKWAIT(h_tw, ctc_tw)
          TASK_END(h_task)
          TASK_DONE(h_task)
        }
        POMP_Single_end(h_single, T);
      }
      POMP_Single_exit(h_single, T);
      IMPLICIT_BARRIER(h_single, ctc_single)
      {
        POMP_Critical_enter(&h_crit, T, ctc_crit);
#pragma omp critical
        {
          POMP_Critical_begin(h_crit, T);
          total++;
          sink = compute(50);
          POMP_Critical_end(h_crit, T);
        }
        POMP_Critical_exit(h_crit, T);
      }
      POMP_Api_omp_set_lock(&h_lock, ctc_rt, &lock);
      sink = compute(50);
      POMP_Api_omp_unset_lock(&h_unlock, ctc_rt, &lock);
      POMP_Atomic_enter(&h_atomic, T, ctc_atomic);
#pragma omp atomic
      atomic_total++;
      POMP_Atomic_exit(h_atomic, T);
      BARRIER(h_bar, ctc_bar)
      sink = local;
      PARALLEL_END(h_par)
    }
    PARALLEL_EXIT(h_par)
  }
  omp_destroy_lock(&lock);
  total += atomic_total;
  if (total != 2 * regions * omp_get_max_threads()) {
    fprintf(stderr, "total %ld, expected %ld\n", total,
            2 * regions * omp_get_max_threads());
    return 1;
  }
  printf("stress ok\n");
  return 0;
}
