/*
 * hand.h -- instrumentation written by hand, the way pomp-instr writes it
 * (doc/instrumentation.md), for libpompt's own tests.
 *
 * CTC strings: CTC("type=task*file=f.c*lines=1,2") frames the attributes
 * the seed's way, "<length>*...**", with 0 for the length (a literal cannot
 * count itself); libpompt reads up to the closing "**" and does not use it.
 */
#ifndef POMPT_TESTS_HAND_H
#define POMPT_TESTS_HAND_H

#include "pomp.h"

#define T POMP_THREAD_SELF
#define CTC(text) "0*" text "**"
/* No tail call out of the last event of a block: keeps codeptr_ra in the
 * instrumented function (the check tool verifies it). */
#define NO_TAIL __asm__ __volatile__("")

/* A task construct:
 *   TASK_CREATE(h, ctc, flags)
 *   #pragma omp task firstprivate(pompt_task) ...
 *   TASK_BEGIN(h) body TASK_END(h)
 *   TASK_DONE(h)
 */
#define TASK_CREATE(h, ctc, flags)                                             \
  {                                                                            \
    POMP_Task_t pompt_task;                                                    \
    POMP_Task_create_begin(&h, T, &pompt_task, (flags), ctc);
#define TASK_DEPS(h, deps, n)                                                  \
  POMP_Task_dependences(h, T, &pompt_task, deps, n);
#define TASK_BEGIN(h)                                                          \
  {                                                                            \
    POMP_Task_begin(h, T, &pompt_task);
#define TASK_END(h)                                                            \
  POMP_Task_end(h, T, &pompt_task);                                            \
  NO_TAIL;                                                                     \
  }
#define TASK_DONE(h)                                                           \
  POMP_Task_create_end(h, T, &pompt_task);                                     \
  }

#define TASKWAIT(h, ctc)                                                       \
  {                                                                            \
    POMP_Taskwait_enter(&h, T, ctc);                                           \
    _Pragma("omp taskwait") POMP_Taskwait_exit(h, T);                          \
  }

#define BARRIER(h, ctc)                                                        \
  {                                                                            \
    POMP_Barrier_enter(&h, T, ctc);                                            \
    _Pragma("omp barrier") POMP_Barrier_exit(h, T);                            \
  }

#define IMPLICIT_BARRIER(h, ctc)                                               \
  {                                                                            \
    POMP_Implicit_barrier_enter(&h, T, ctc);                                   \
    _Pragma("omp barrier") POMP_Implicit_barrier_exit(h, T);                   \
  }

/* A parallel region: PARALLEL_ENTER(h, ctc) #pragma omp parallel
 * shared(pompt_team) { PARALLEL_BEGIN(h) ... PARALLEL_END(h) }
 * PARALLEL_EXIT(h) */
#define PARALLEL_ENTER(h, ctc)                                                 \
  {                                                                            \
    POMP_Team_t pompt_team;                                                    \
    POMP_Parallel_enter_team(&h, T, -1, -1, &pompt_team, ctc);
#define PARALLEL_BEGIN(h) POMP_Parallel_begin_team(h, T, &pompt_team);
#define PARALLEL_END(h)                                                        \
  POMP_Parallel_end_team(h, T, &pompt_team);                                   \
  NO_TAIL;
#define PARALLEL_EXIT(h)                                                       \
  POMP_Parallel_exit_team(h, T, &pompt_team);                                  \
  }

#endif /* POMPT_TESTS_HAND_H */
