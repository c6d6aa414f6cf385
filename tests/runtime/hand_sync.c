/*
 * hand_sync.c -- synchronisation instrumented by hand as pomp-instr does it:
 * the lock routine wrappers (simple, nestable, test, with hint), atomic,
 * flush, critical, ordered, masked, scope, omp_control_tool, the error
 * directive and cancel.  Per repetition and team of n threads:
 *   lock_init / lock_destroy    2 + n   (a lock, a nest lock with a hint,
 *                                         one private nest lock per thread)
 *   acquire_lock n, acquire_nest_lock 2n, acquire_test_nest_lock 2n,
 *   acquired_test 2n (one test_lock and one test_nest_lock succeed per
 *   thread; failed test_lock attempts add acquire_test_lock only),
 *   nest_lock_begin 2n, nest_lock_end 2n, acquire_atomic n,
 *   acquire_critical n, acquire_ordered 2n, mutex_acquired 8n,
 *   mutex_released 8n, flush n, masked 1, work_scope n, work_loop n,
 *   control_tool 2, error_warning 1,
 *   and a second region that cancels itself: cancel n when
 *   OMP_CANCELLATION=true (thread 0 activates it and leaves the region at
 *   once, the others detect it at the barrier and leave, past their
 *   Barrier_exit and Parallel_end).
 * The program checks omp_control_tool's answers: 100 * command + modifier
 * under the check tool, omp_control_tool_notool (-2) without a tool.
 */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

#include "hand.h"

/* libgomp's omp.h has no omp_control_tool; libpompt provides it. */
int omp_control_tool(int command, int modifier, void *arg);
#define CONTROL_TOOL_FLUSH 3

static POMP_Handle_t h_par, h_init, h_hint, h_set, h_unset, h_test, h_nset,
    h_nunset, h_ntest, h_ninit, h_ndestroy, h_destroy, h_ndestroy2, h_atomic,
    h_flush, h_crit, h_masked, h_scope, h_loop, h_ord, h_ctl, h_ctl2, h_err,
    h_par2, h_cancel, h_bar;
static const char ctc_par[] = CTC("type=parallel*file=sync.c*lines=10,90");
static const char ctc_rt[] = CTC("type=runtime*file=sync.c*lines=5,5");
static const char ctc_atomic[] = CTC("type=atomic*file=sync.c*lines=20,21");
static const char ctc_flush[] = CTC("type=flush*file=sync.c*lines=22,22");
static const char ctc_crit[] =
    CTC("type=critical*file=sync.c*lines=23,24*name=upd");
static const char ctc_masked[] =
    CTC("type=masked*file=sync.c*lines=25,30*filter=0");
static const char ctc_scope[] = CTC("type=scope*file=sync.c*lines=31,33");
static const char ctc_loop[] =
    CTC("type=for*file=sync.c*lines=34,40*schedule=static*hasOrdered=1");
static const char ctc_ord[] = CTC("type=ordered*file=sync.c*lines=36,39");
static const char ctc_err[] =
    CTC("type=error*file=sync.c*lines=28,28*severity=warning");
static const char ctc_par2[] = CTC("type=parallel*file=sync.c*lines=50,60");
static const char ctc_cancel[] =
    CTC("type=cancel*file=sync.c*lines=52,52*constructType=parallel");
static const char ctc_bar[] = CTC("type=barrier*file=sync.c*lines=54,54");

static int expect_tool;

static int check_control(int got, int command, int modifier) {
  int want = expect_tool ? 100 * command + modifier : -2;
  if (got != want) {
    fprintf(stderr, "omp_control_tool(%d, %d) = %d, expected %d\n", command,
            modifier, got, want);
    return 1;
  }
  return 0;
}

static int run(void) {
  omp_lock_t lock;
  omp_nest_lock_t nlock;
  static omp_nest_lock_t own[64];
  long in_lock = 0, in_nest = 0, in_test = 0, in_crit = 0, atomics = 0;
  int ordered_next = 0, bad = 0, scopes = 0, masked = 0;
  POMP_Api_omp_init_lock(&h_init, ctc_rt, &lock);
  POMP_Api_omp_init_nest_lock_with_hint(&h_hint, ctc_rt, &nlock,
                                        omp_sync_hint_contended);

  PARALLEL_ENTER(h_par, ctc_par)
#pragma omp parallel shared(pompt_team, lock, nlock, in_lock, in_nest,        \
                                in_test, in_crit, atomics, ordered_next, bad,  \
                                scopes, masked)
  {
    PARALLEL_BEGIN(h_par)
    int me = omp_get_thread_num() % 64;
    POMP_Api_omp_set_lock(&h_set, ctc_rt, &lock);
    in_lock++;
    POMP_Api_omp_unset_lock(&h_unset, ctc_rt, &lock);

    POMP_Api_omp_set_nest_lock(&h_nset, ctc_rt, &nlock);
    POMP_Api_omp_set_nest_lock(&h_nset, ctc_rt, &nlock);
    in_nest++;
    POMP_Api_omp_unset_nest_lock(&h_nunset, ctc_rt, &nlock);
    POMP_Api_omp_unset_nest_lock(&h_nunset, ctc_rt, &nlock);

    while (!POMP_Api_omp_test_lock(&h_test, ctc_rt, &lock)) {
    }
    in_test++;
    POMP_Api_omp_unset_lock(&h_unset, ctc_rt, &lock);

    POMP_Api_omp_init_nest_lock(&h_ninit, ctc_rt, &own[me]);
    int c1 = POMP_Api_omp_test_nest_lock(&h_ntest, ctc_rt, &own[me]);
    int c2 = POMP_Api_omp_test_nest_lock(&h_ntest, ctc_rt, &own[me]);
    if (c1 != 1 || c2 != 2)
      __atomic_store_n(&bad, 1, __ATOMIC_RELAXED);
    POMP_Api_omp_unset_nest_lock(&h_nunset, ctc_rt, &own[me]);
    POMP_Api_omp_unset_nest_lock(&h_nunset, ctc_rt, &own[me]);
    POMP_Api_omp_destroy_nest_lock(&h_ndestroy, ctc_rt, &own[me]);

    POMP_Atomic_enter(&h_atomic, T, ctc_atomic);
#pragma omp atomic
    atomics++;
    POMP_Atomic_exit(h_atomic, T);

#pragma omp flush
    POMP_Flush_event(&h_flush, T, ctc_flush);

    {
      POMP_Critical_enter(&h_crit, T, ctc_crit);
#pragma omp critical(upd)
      {
        POMP_Critical_begin(h_crit, T);
        in_crit++;
        POMP_Critical_end(h_crit, T);
      }
      POMP_Critical_exit(h_crit, T);
    }

#pragma omp masked
    {
      POMP_Masked_begin(&h_masked, T, 0, ctc_masked);
      masked++;
      bad |= check_control(omp_control_tool(CONTROL_TOOL_FLUSH, 7, NULL),
                           CONTROL_TOOL_FLUSH, 7);
      bad |= check_control(POMP_Api_omp_control_tool(&h_ctl, ctc_rt,
                                                     CONTROL_TOOL_FLUSH, 8,
                                                     NULL),
                           CONTROL_TOOL_FLUSH, 8);
      POMP_Error_event(&h_err, T, 1, "a warning from the error directive",
                       ctc_err);
      POMP_Masked_end(h_masked, T);
    }
    (void)h_ctl2;

    POMP_Scope_enter(&h_scope, T, ctc_scope);
    {
      __atomic_fetch_add(&scopes, 1, __ATOMIC_RELAXED);
    }
    POMP_Scope_exit(h_scope, T);
    IMPLICIT_BARRIER(h_scope, ctc_scope)

    POMP_Loop_enter(&h_loop, T, -1, 0, 2 * omp_get_num_threads() - 1, 1,
                    ctc_loop);
#pragma omp for ordered schedule(static) nowait
    for (int i = 0; i < 2 * omp_get_num_threads(); i++) {
      POMP_Ordered_enter(&h_ord, T, ctc_ord);
#pragma omp ordered
      {
        POMP_Ordered_begin(h_ord, T);
        if (ordered_next != i)
          bad = 1;
        ordered_next++;
        POMP_Ordered_end(h_ord, T);
      }
      POMP_Ordered_exit(h_ord, T);
    }
    POMP_Loop_exit(h_loop, T);
    IMPLICIT_BARRIER(h_loop, ctc_loop)
    PARALLEL_END(h_par)
  }
  PARALLEL_EXIT(h_par)

  POMP_Api_omp_destroy_nest_lock(&h_ndestroy2, ctc_rt, &nlock);
  POMP_Api_omp_destroy_lock(&h_destroy, ctc_rt, &lock);

  /* A region that cancels itself. */
  int after_barrier = 0;
  PARALLEL_ENTER(h_par2, ctc_par2)
#pragma omp parallel shared(pompt_team, after_barrier)
  {
    PARALLEL_BEGIN(h_par2)
    if (omp_get_thread_num() == 0) {
      POMP_Cancel_event(&h_cancel, T, omp_get_cancellation(), ctc_cancel);
#pragma omp cancel parallel
    }
    BARRIER(h_bar, ctc_bar)
    __atomic_fetch_add(&after_barrier, 1, __ATOMIC_RELAXED);
    PARALLEL_END(h_par2)
  }
  PARALLEL_EXIT(h_par2)

  int n = omp_get_max_threads();
  if (bad || in_lock != n || in_nest != n || in_test != n || in_crit != n ||
      atomics != n || scopes != n || masked != 1 ||
      after_barrier != (omp_get_cancellation() ? 0 : n)) {
    fprintf(stderr, "wrong results: bad=%d lock=%ld nest=%ld test=%ld "
                    "crit=%ld atomic=%ld scopes=%d masked=%d after=%d\n",
            bad, in_lock, in_nest, in_test, in_crit, atomics, scopes, masked,
            after_barrier);
    return 1;
  }
  return 0;
}

int main(int argc, char **argv) {
  int reps = argc > 1 ? atoi(argv[1]) : 3;
  const char *tool = getenv("OMP_TOOL_LIBRARIES");
  expect_tool = tool && *tool;
  for (int r = 0; r < reps; r++)
    if (run())
      return 1;
  printf("sync ok\n");
  return 0;
}
