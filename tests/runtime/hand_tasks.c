/*
 * hand_tasks.c -- explicit tasks instrumented by hand as pomp-instr does it
 * (tests/runtime/hand.h), for libpompt's task model under the check tool.
 *
 * Each of the R repetitions creates, per repetition:
 *  - 1 task outside any parallel region (undeferred: run at once);
 *  - in a parallel region, from a single: 4 untied tasks that each create 2
 *    children and wait for them (taskwait), one undeferred mergeable task
 *    (if(0)) holding a nested parallel region of one thread,
 *    one final task with a child (included: final, undeferred),
 *    3 tasks in a taskgroup, 4 tasks with dependences on one variable
 *    (out; in; in; inout: 4 pairs of dependent tasks), a taskyield, a
 *    taskloop, and a taskwait.
 * That is 23 tasks, and the taskloop's 4 (libpompt finds them in libgomp).  The out task holds back until every dependent task is
 * created, so that each dependence is still pending when its sink is made
 * and the pairs are deterministic.
 *
 * Built with -fopenmp (libgomp) and without (the serial stubs: every task
 * runs at once, in the thread that creates it).
 */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

#include "hand.h"

static POMP_Handle_t h_par, h_single, h_outside, h_parent, h_child, h_tw,
    h_undef, h_final, h_incl, h_tg, h_tgtask, h_out, h_in, h_inout, h_yield,
    h_loop, h_tw2, h_inner;
static const char ctc_par[] = CTC("type=parallel*file=tasks.c*lines=40,90");
static const char ctc_single[] = CTC("type=single*file=tasks.c*lines=42,88");
static const char ctc_outside[] = CTC("type=task*file=tasks.c*lines=35,36");
static const char ctc_parent[] =
    CTC("type=task*file=tasks.c*lines=44,52*hasUntied=1");
static const char ctc_child[] = CTC("type=task*file=tasks.c*lines=46,47");
static const char ctc_tw[] = CTC("type=taskwait*file=tasks.c*lines=49,49");
static const char ctc_undef[] =
    CTC("type=task*file=tasks.c*lines=54,55*hasIf=1*hasMergeable=1");
static const char ctc_final[] =
    CTC("type=task*file=tasks.c*lines=56,60*hasFinal=1");
static const char ctc_incl[] = CTC("type=task*file=tasks.c*lines=58,59");
static const char ctc_tg[] = CTC("type=taskgroup*file=tasks.c*lines=61,65");
static const char ctc_tgtask[] = CTC("type=task*file=tasks.c*lines=63,64");
static const char ctc_out[] =
    CTC("type=task*file=tasks.c*lines=66,70*hasDepend=1");
static const char ctc_in[] =
    CTC("type=task*file=tasks.c*lines=71,72*hasDepend=1");
static const char ctc_inout[] =
    CTC("type=task*file=tasks.c*lines=73,75*hasDepend=1");
static const char ctc_yield[] = CTC("type=taskyield*file=tasks.c*lines=76,76");
static const char ctc_loop[] = CTC("type=taskloop*file=tasks.c*lines=77,80");
static const char ctc_tw2[] = CTC("type=taskwait*file=tasks.c*lines=86,86");
static const char ctc_inner[] = CTC("type=parallel*file=tasks.c*lines=54,56");

static long hits;
static int dep_x, dep_seen, go;

static void hit(void) {
  __atomic_fetch_add(&hits, 1, __ATOMIC_RELAXED);
}

/* The out task: wait (a bounded time) until the creator made the tasks that
 * depend on it; only with more than one thread can it run that early. */
static void hold_back(void) {
  if (omp_get_num_threads() < 2)
    return;
  double until = omp_get_wtime() + 5.0;
  while (!__atomic_load_n(&go, __ATOMIC_ACQUIRE) && omp_get_wtime() < until) {
  }
}

static int run(void) {
  hits = 0;
  dep_x = dep_seen = go = 0;
  int loop_sum = 0;

  TASK_CREATE(h_outside, ctc_outside, 0)
#pragma omp task firstprivate(pompt_task)
  TASK_BEGIN(h_outside) hit();
  TASK_END(h_outside)
  TASK_DONE(h_outside)

  PARALLEL_ENTER(h_par, ctc_par)
#pragma omp parallel shared(pompt_team, loop_sum)
  {
    PARALLEL_BEGIN(h_par)
    POMP_Single_enter(&h_single, T, ctc_single);
#pragma omp single nowait
    {
      POMP_Single_begin(h_single, T);
      for (int k = 0; k < 4; k++) {
        TASK_CREATE(h_parent, ctc_parent, POMP_TASK_UNTIED)
#pragma omp task untied firstprivate(pompt_task)
        TASK_BEGIN(h_parent)
        for (int j = 0; j < 2; j++) {
          TASK_CREATE(h_child, ctc_child, 0)
#pragma omp task firstprivate(pompt_task)
          TASK_BEGIN(h_child) hit();
          TASK_END(h_child)
          TASK_DONE(h_child)
        }
        TASKWAIT(h_tw, ctc_tw)
        hit();
        TASK_END(h_parent)
        TASK_DONE(h_parent)
      }

      int cond = 0; /* if(cond): evaluated once, as pomp-instr does */
      TASK_CREATE(h_undef, ctc_undef,
                  (cond ? 0 : POMP_TASK_UNDEFERRED) | POMP_TASK_MERGEABLE)
#pragma omp task if(cond) mergeable firstprivate(pompt_task)
      TASK_BEGIN(h_undef)
      hit();
      /* A region inside a task: its implicit tasks' parent is the task. */
      PARALLEL_ENTER(h_inner, ctc_inner)
#pragma omp parallel num_threads(1) shared(pompt_team)
      {
        PARALLEL_BEGIN(h_inner)
        PARALLEL_END(h_inner)
      }
      PARALLEL_EXIT(h_inner)
      TASK_END(h_undef)
      TASK_DONE(h_undef)

      TASK_CREATE(h_final, ctc_final, POMP_TASK_FINAL)
#pragma omp task final(1) firstprivate(pompt_task)
      TASK_BEGIN(h_final)
      hit();
      TASK_CREATE(h_incl, ctc_incl, 0)
#pragma omp task firstprivate(pompt_task)
      TASK_BEGIN(h_incl) hit();
      TASK_END(h_incl)
      TASK_DONE(h_incl)
      TASK_END(h_final)
      TASK_DONE(h_final)

      POMP_Taskgroup_enter(&h_tg, T, ctc_tg);
#pragma omp taskgroup
      {
        POMP_Taskgroup_begin(h_tg, T);
        for (int g = 0; g < 3; g++) {
          TASK_CREATE(h_tgtask, ctc_tgtask, 0)
#pragma omp task firstprivate(pompt_task)
          TASK_BEGIN(h_tgtask) hit();
          TASK_END(h_tgtask)
          TASK_DONE(h_tgtask)
        }
        POMP_Taskgroup_end(h_tg, T);
      }
      POMP_Taskgroup_exit(h_tg, T);

      POMP_Dependence_t d_out[] = {{&dep_x, 2}}, d_in[] = {{&dep_x, 1}},
                        d_inout[] = {{&dep_x, 3}};
      TASK_CREATE(h_out, ctc_out, POMP_TASK_HAS_DEPEND)
      TASK_DEPS(h_out, d_out, 1)
#pragma omp task depend(out : dep_x) firstprivate(pompt_task)
      TASK_BEGIN(h_out)
      hold_back();
      dep_x = 1;
      hit();
      TASK_END(h_out)
      TASK_DONE(h_out)
      for (int i = 0; i < 2; i++) {
        TASK_CREATE(h_in, ctc_in, POMP_TASK_HAS_DEPEND)
        TASK_DEPS(h_in, d_in, 1)
#pragma omp task depend(in : dep_x) firstprivate(pompt_task)
        TASK_BEGIN(h_in)
        if (dep_x == 1)
          __atomic_fetch_add(&dep_seen, 1, __ATOMIC_RELAXED);
        hit();
        TASK_END(h_in)
        TASK_DONE(h_in)
      }
      TASK_CREATE(h_inout, ctc_inout, POMP_TASK_HAS_DEPEND)
      TASK_DEPS(h_inout, d_inout, 1)
#pragma omp task depend(inout : dep_x) firstprivate(pompt_task)
      TASK_BEGIN(h_inout)
      if (__atomic_load_n(&dep_seen, __ATOMIC_RELAXED) == 2)
        dep_x = 2;
      hit();
      TASK_END(h_inout)
      TASK_DONE(h_inout)
      __atomic_store_n(&go, 1, __ATOMIC_RELEASE);

      POMP_Taskyield_enter(&h_yield, T, ctc_yield);
#pragma omp taskyield
      POMP_Taskyield_exit(h_yield, T);

      POMP_Taskloop_enter(&h_loop, T, 0, 15, 1, ctc_loop);
#pragma omp taskloop grainsize(4) shared(loop_sum)
      for (int i = 0; i < 16; i++)
        __atomic_fetch_add(&loop_sum, i, __ATOMIC_RELAXED);
      POMP_Taskloop_exit(h_loop, T);

      TASKWAIT(h_tw2, ctc_tw2)
      POMP_Single_end(h_single, T);
    }
    POMP_Single_exit(h_single, T);
    IMPLICIT_BARRIER(h_single, ctc_single)
    PARALLEL_END(h_par)
  }
  PARALLEL_EXIT(h_par)

  if (hits != 23 || dep_x != 2 || dep_seen != 2 || loop_sum != 120) {
    fprintf(stderr, "wrong results: hits=%ld dep_x=%d dep_seen=%d sum=%d\n",
            hits, dep_x, dep_seen, loop_sum);
    return 1;
  }
  return 0;
}

int main(int argc, char **argv) {
  int reps = argc > 1 ? atoi(argv[1]) : 3;
  for (int r = 0; r < reps; r++)
    if (run())
      return 1;
  printf("tasks ok\n");
  return 0;
}
