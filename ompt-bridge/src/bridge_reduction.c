/*
 * bridge_reduction.c -- the reductions that can be seen (OMPT's reduction
 * callback, ompt_set_sometimes).  GCC combines a thread's partial results
 * of a reduction clause in the construct's outlined code, at the end of the
 * thread's share:
 *  - a clause on a parallel region's leaf after the region's block: the
 *    block's end event and libpompt's trampoline bracket it
 *    (bridge_parallel_end, bridge_events.c);
 *  - every clause that is not one scalar with an atomic instruction
 *    (several list items, user-defined reductions, arrays) between
 *    GOMP_atomic_start and GOMP_atomic_end, interposed here: such a pair
 *    is a reduction when the thread is inside an instrumented worksharing
 *    construct of its current task, or past its implicit task's block
 *    before the end barrier, and not inside an instrumented atomic
 *    construct (GCC brackets an atomic on a type without atomic
 *    instructions with the same pair).  Begin once GOMP_atomic_start has
 *    taken the lock, end before GOMP_atomic_end lets it go, both with the
 *    GOMP_atomic_start call's codeptr_ra: the threads' combinings are
 *    reported one after the other, in the order they run (libomp's
 *    critical method brackets its lock instead, which lets two threads'
 *    begins come in the other order than their combinings; OpDiLib,
 *    which orders its reverse pass by reduction begins as by a mutex's
 *    acquisitions, got wrong derivatives then).  The state is
 *    work_reduction from the call on, the wait for the lock included.
 *    An atomic on such a type in code pomp-cc did not instrument, inside
 *    an instrumented loop, would be taken for one; any other pair outside
 *    an instrumented atomic construct belongs to code pomp-cc did not
 *    compile (a library built with plain gcc, a Fortran unit, a
 *    noinstrument range, the host fallback of a target region), where an
 *    atomic construct on such a type and a reduction's combining look the
 *    same: it is reported as what it is for certain, libgomp's atomic
 *    lock taken and released (mutex_acquire, _acquired
 *    and _released of ompt_mutex_atomic, the wait id of that lock, as for
 *    an instrumented atomic construct under it), so that race detectors
 *    see the order the lock gives;
 *  - task reductions, after their taskgroup (below).
 * A one-scalar reduction of a worksharing construct becomes an atomic
 * instruction: nothing to see.  The state is ompt_state_work_reduction
 * while a thread combines.  Inside an instrumented atomic construct
 * GOMP_atomic_start tells bridge_atomic.c that the construct takes
 * libgomp's lock.
 *
 * Without a tool an entry is a load and a branch before libgomp's.
 * Definitions are weak; the static library defines them as
 * __wrap_GOMP_<x>, linked with --wrap (bridge_gomp_entry.h).
 */
#define _GNU_SOURCE
#include <stdbool.h>
#include <stdint.h>

#include "bridge.h"
#include "bridge_gomp_entry.h"
#include "bridge_internal.h"

__thread unsigned char bridge_in_atomic
    __attribute__((tls_model("initial-exec")));

typedef void (*gomp_atomic_t)(void);

/* An entry without arguments: without a tool, a load and a branch before
 * libgomp's (real); with one, slow (which calls libgomp's itself). */
#define ENTRY_VOID(name, real, slow)                                           \
  GOMP_EXPORT void GOMP_ENTRY(name)(void) {                                    \
    gomp_atomic_t real_ = (real);                                              \
    if (__builtin_expect(bridge_active || !real_, 0)) {                        \
      slow;                                                                    \
      return;                                                                  \
    }                                                                          \
    real_();                                                                   \
  }

GOMP_REAL_VAR(gomp_atomic_t, real_atomic_start, GOMP_atomic_start)
GOMP_REAL_VAR(gomp_atomic_t, real_atomic_end, GOMP_atomic_end)

__thread bridge_combining_t bridge_combining
    __attribute__((tls_model("initial-exec")));

/* While the thread holds libgomp's atomic lock for code pomp-cc did not
 * compile, its acquisition reported: the acquisition's code address (the
 * release's too, as for a reduction's end). */
static __thread const void *opaque_atomic_held
    __attribute__((tls_model("initial-exec")));

/* A reduction's begin or end for the thread's task.  A worker past its
 * block has let go of its team's storage: the copy of parallel_data. */
static void deliver(bridge_thread_t *t, ompt_scope_endpoint_t endpoint,
                    const void *codeptr) {
  bridge_task_t *cur = t->cur;
  ompt_data_t *pd =
      cur->parallel_data ? cur->parallel_data : &cur->parallel_data_seen;
  ompt_callback_sync_region_t cb =
      endpoint == ompt_scope_begin
          ? BRIDGE_ACTIVE_AS(BRIDGE_B_SYNC_EE, reduction,
                             ompt_callback_sync_region_t)
          : BRIDGE_GROUP_AS(BRIDGE_B_SYNC_EE, reduction,
                            ompt_callback_sync_region_t);
  if (cb)
    cb(ompt_sync_region_reduction, endpoint, pd, &cur->task_data, codeptr);
}

/* The combining begun, its begin callback still to come. */
static void combine_open(bridge_thread_t *t, int kind, int state,
                         ompt_wait_id_t wait_id, const void *codeptr) {
  bridge_combining_t *c = &bridge_combining;
  c->open = (unsigned char)kind;
  c->delivered = (unsigned char)(bridge_enabled && t->cur->announced);
  c->state = state;
  c->wait_id = wait_id;
  c->codeptr = codeptr;
  c->held = 0;
  bridge_set_state(t, ompt_state_work_reduction, 0);
}

void bridge_combine_begin(bridge_thread_t *t, int kind, int state,
                          ompt_wait_id_t wait_id, const void *codeptr) {
  combine_open(t, kind, state, wait_id, codeptr);
  if (bridge_combining.delivered)
    deliver(t, ompt_scope_begin, codeptr);
}

void bridge_combine_end(bridge_thread_t *t) {
  bridge_combining_t *c = &bridge_combining;
  c->open = 0;
  if (c->delivered && t->cur)
    deliver(t, ompt_scope_end, c->codeptr);
  bridge_set_state(t, (ompt_state_t)c->state, c->wait_id);
}

/* A parallel block's clause, combined between the block's end and its
 * function's return: with several list items, arrays or user-defined
 * reductions under libgomp's atomic lock, whose pairs then carry the
 * begin and end (atomic_start_slow); one scalar with an atomic
 * instruction, which nothing brackets, has both at the return. */
void bridge_combine_block_begin(bridge_thread_t *t, const void *codeptr) {
  combine_open(t, BRIDGE_COMBINING_BLOCK, ompt_state_work_parallel, 0, codeptr);
  bridge_combining.held = 1;
}

void bridge_combine_block_end(bridge_thread_t *t) {
  bridge_combining_t *c = &bridge_combining;
  if (c->held == 1 && c->delivered && t->cur) /* no lock came */
    deliver(t, ompt_scope_begin, c->codeptr);
  else if (c->held == 2)
    c->delivered = 0; /* its end came under the lock */
  bridge_combine_end(t);
}

/* Whether a GOMP_atomic_start of this thread is a reduction's. */
static bool reduction_here(const bridge_thread_t *t) {
  const bridge_task_t *cur = t->cur;
  if (!cur || bridge_in_atomic || (cur->flags & ompt_task_initial))
    return false;
  if (cur == t->pending) /* a parallel construct's clause */
    return true;
  return bridge_pairs[BRIDGE_PAIR_WORK].next !=
         cur->pair_next[BRIDGE_PAIR_WORK];
}

static __attribute__((noinline)) void atomic_start_slow(const void *codeptr,
                                                        void *frame) {
  GOMP_REAL_ENSURE(real_atomic_start, GOMP_atomic_start);
  /* A quiet Parallel_end before the combining of its reduction: done now,
   * so that the combining begins as after the end's event. */
  bridge_block_due(frame);
  if (bridge_in_atomic)
    bridge_atomic_locking(); /* the construct's kind is found here */
  bridge_thread_t *t = bridge_thread_peek();
  int opaque = 0, reducing = 0;
  if (t && bridge_combining.open == BRIDGE_COMBINING_BLOCK &&
      bridge_combining.held && !bridge_in_atomic) {
    reducing = 1; /* a parallel block's clause: its pair (above) */
    bridge_combining.held = 2;
  } else if (t && !bridge_combining.open) {
    if (reduction_here(t)) {
      ompt_wait_id_t wait_id;
      int state = bridge_get_state(t, &wait_id);
      combine_open(t, BRIDGE_COMBINING_LOCK, state, wait_id, codeptr);
      reducing = 1;
    } else if (!bridge_in_atomic && !opaque_atomic_held &&
               bridge_wants_mutex(BRIDGE_B_SYNC_EE)) {
      opaque = 1;
      bridge_mutex_acquire(BRIDGE_B_SYNC_EE, ompt_mutex_atomic,
                           0 /* omp_sync_hint_none */,
                           bridge_atomic_lock_wait_id(), codeptr, frame);
    }
  }
  real_atomic_start();
  /* The begin once the lock is held, the end before it is let go: the
   * threads' combinings are reported one after the other, in the order
   * they run (a tool such as OpDiLib orders its work by them, as by a
   * mutex's acquisitions).  The wait for the lock is in the state. */
  if (reducing && bridge_combining.delivered)
    deliver(t, ompt_scope_begin, bridge_combining.codeptr);
  if (opaque) {
    opaque_atomic_held = codeptr;
    bridge_mutex_acquired(BRIDGE_B_SYNC_EE, ompt_mutex_atomic,
                          bridge_atomic_lock_wait_id(), 1, codeptr, frame);
  }
}

ENTRY_VOID(GOMP_atomic_start, real_atomic_start,
           atomic_start_slow(gomp_codeptr(__builtin_return_address(0)),
                             BRIDGE_FRAME()))

/* The end names the begin's code address: GCC may make GOMP_atomic_end
 * the outlined function's tail call, whose return address is then the
 * runtime's. */
static __attribute__((noinline)) void atomic_end_slow(void *frame) {
  GOMP_REAL_ENSURE(real_atomic_end, GOMP_atomic_end);
  const void *held = opaque_atomic_held;
  if (held) { /* released while the thread still holds it */
    opaque_atomic_held = NULL;
    bridge_mutex_release_held(BRIDGE_B_SYNC_EE, ompt_mutex_atomic,
                              bridge_atomic_lock_wait_id(), held, frame);
  }
  bridge_thread_t *t = bridge_thread_peek();
  int reducing = t && bridge_combining.open == BRIDGE_COMBINING_LOCK;
  int in_block = t && bridge_combining.open == BRIDGE_COMBINING_BLOCK &&
                 bridge_combining.held == 2;
  if ((reducing || in_block) && bridge_combining.delivered && t->cur) {
    deliver(t, ompt_scope_end, bridge_combining.codeptr);
    if (reducing)
      bridge_combining.delivered = 0; /* delivered: not again below */
  }
  real_atomic_end();
  if (reducing)
    bridge_combine_end(t); /* the state before it */
}

ENTRY_VOID(GOMP_atomic_end, real_atomic_end, atomic_end_slow(BRIDGE_FRAME()))

/* ---- Task reductions -------------------------------------------------------
 * A taskgroup with task_reduction registers it with libgomp after its start
 * (GOMP_taskgroup_reduction_register); once GOMP_taskgroup_end returns (the
 * wait is over; bridge_gomp_taskgroup.c interposes it) the encountering
 * thread combines the threads' copies in GCC's code, then calls
 * GOMP_taskgroup_reduction_unregister.  A taskloop with a reduction does the
 * same after GOMP_taskloop, which registered it in the taskgroup of its own
 * (bridge_taskloop.c calls bridge_task_reduction_begin).  The instrumented
 * taskgroup's scope keeps the mark of a registered reduction
 * (BRIDGE_TG_REDUCING). */

typedef void (*gomp_tg_red_t)(uintptr_t *);
GOMP_REAL_VAR(gomp_tg_red_t, real_tg_register,
              GOMP_taskgroup_reduction_register)
GOMP_REAL_VAR(gomp_tg_red_t, real_tg_unregister,
              GOMP_taskgroup_reduction_unregister)

GOMP_EXPORT void
GOMP_ENTRY(GOMP_taskgroup_reduction_register)(uintptr_t *data) {
  GOMP_REAL_ENSURE(real_tg_register, GOMP_taskgroup_reduction_register);
  real_tg_register(data);
  bridge_thread_t *t = bridge_active ? bridge_thread_peek() : NULL;
  bridge_scope_t *tg = t ? bridge_innermost_taskgroup(t) : NULL;
  if (tg)
    tg->seq |= BRIDGE_TG_REDUCING;
}

void bridge_taskgroup_reduction_waited(bridge_thread_t *t, bridge_scope_t *tg,
                                       const void *codeptr) {
  if (!(tg->seq & BRIDGE_TG_REDUCING) || bridge_combining.open)
    return;
  tg->seq &= ~BRIDGE_TG_REDUCING;
  /* The wait is over: its end now, not after the combining. */
  bridge_taskgroup_wait_over(t, codeptr);
  bridge_combine_begin(t, BRIDGE_COMBINING_TASKS, bridge_working_state(t->cur),
                       0, codeptr);
}

void bridge_task_reduction_begin(const void *codeptr) {
  bridge_thread_t *t = bridge_thread_peek();
  if (t && t->cur && !bridge_combining.open)
    bridge_combine_begin(t, BRIDGE_COMBINING_TASKS,
                         bridge_working_state(t->cur), 0, codeptr);
}

GOMP_EXPORT void
GOMP_ENTRY(GOMP_taskgroup_reduction_unregister)(uintptr_t *data) {
  GOMP_REAL_ENSURE(real_tg_unregister, GOMP_taskgroup_reduction_unregister);
  bridge_thread_t *t = bridge_combining.open == BRIDGE_COMBINING_TASKS
                           ? bridge_thread_peek()
                           : NULL;
  if (t)
    bridge_combine_end(t);
  real_tg_unregister(data);
}
