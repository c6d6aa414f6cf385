/*
 * hand_onoff.c -- POMP_Off / POMP_On (seed 004, section 3.6).  Five
 * parallel regions, each with a loop (nowait), a critical and a task:
 *   A  monitored;
 *   B  after POMP_Off in serial code: nothing is reported;
 *   C  after POMP_On: monitored;
 *   D  monitoring switched off inside the region (thread 0, then a barrier
 *      libpompt does not see): what began before (the region, the implicit
 *      tasks) still ends for the tool, what began after is not reported;
 *   E  after POMP_On in serial code: monitored.
 * Each switch is a control_tool callback (pause / start): 4.  For a team of
 * n: parallel_begin 4 (A, C, D, E), implicit_task_begin 4n, work_loop 3n,
 * barrier_implicit_parallel 3n, mutex_acquire 3n, task_create 3.
 */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

#include "hand.h"

static POMP_Handle_t h_par, h_loop, h_crit, h_single, h_task;
static const char ctc_par[] = CTC("type=parallel*file=onoff.c*lines=20,40");
static const char ctc_loop[] = CTC("type=for*file=onoff.c*lines=22,24");
static const char ctc_crit[] = CTC("type=critical*file=onoff.c*lines=25,26");
static const char ctc_single[] = CTC("type=single*file=onoff.c*lines=27,32");
static const char ctc_task[] = CTC("type=task*file=onoff.c*lines=28,31");

static long total;

static void region(int switch_off_inside) {
  PARALLEL_ENTER(h_par, ctc_par)
#pragma omp parallel shared(pompt_team, total)
  {
    PARALLEL_BEGIN(h_par)
    if (switch_off_inside) {
      /* Every implicit task has begun (monitored) before the switch. */
#pragma omp barrier
      if (omp_get_thread_num() == 0)
        POMP_Off();
#pragma omp barrier
    }
    long local = 0;
    POMP_Loop_enter(&h_loop, T, -1, 0, 99, 1, ctc_loop);
#pragma omp for schedule(static) nowait
    for (int i = 0; i < 100; i++)
      local += i;
    POMP_Loop_exit(h_loop, T);
    POMP_Critical_enter(&h_crit, T, ctc_crit);
#pragma omp critical
    {
      POMP_Critical_begin(h_crit, T);
      /* Atomic also here: the task's update below may run on another
       * thread while this one is inside the critical region. */
      __atomic_fetch_add(&total, local, __ATOMIC_RELAXED);
      POMP_Critical_end(h_crit, T);
    }
    POMP_Critical_exit(h_crit, T);
    POMP_Single_enter(&h_single, T, ctc_single);
#pragma omp single nowait
    {
      POMP_Single_begin(h_single, T);
      TASK_CREATE(h_task, ctc_task, 0)
#pragma omp task firstprivate(pompt_task) shared(total)
      TASK_BEGIN(h_task)
      __atomic_fetch_add(&total, 1, __ATOMIC_RELAXED);
      TASK_END(h_task)
      TASK_DONE(h_task)
      POMP_Single_end(h_single, T);
    }
    POMP_Single_exit(h_single, T);
    PARALLEL_END(h_par)
  }
  PARALLEL_EXIT(h_par)
}

int main(void) {
  region(0); /* A */
  POMP_Off();
  region(0); /* B */
  POMP_On();
  region(0); /* C */
  region(1); /* D */
  POMP_On();
  region(0); /* E */
  if (total != 5 * (4950 + 1)) {
    fprintf(stderr, "wrong total %ld\n", total);
    return 1;
  }
  printf("onoff ok\n");
  return 0;
}
