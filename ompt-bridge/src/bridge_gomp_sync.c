/*
 * bridge_gomp_sync.c -- libgomp's barriers that are no construct of the
 * source, interposed so that a tool sees them as
 * ompt_sync_region_barrier_implementation.
 *
 * GCC calls GOMP_barrier (GOMP_barrier_cancel in a cancellable region) for
 * barriers of its own: before the copy-out of a `linear` variable or of one
 * both `firstprivate` and `lastprivate`, after a `copyin` by reference, and
 * at the end of a `single copyprivate`, which cannot take the `nowait` that
 * pomp-instr adds to expose a construct's barrier.  `copyprivate` itself
 * hands the executing thread's values to the others through
 * GOMP_single_copy_start / _end, one barrier split in two: the other
 * threads wait in _start, the executing thread (for which _start returns
 * NULL at once) waits in _end, after its block.  No POMP event surrounds
 * any of these, so a tool that orders memory through barrier callbacks
 * (LLVM's Archer) saw no order across them.  libomp reports its own
 * internal barriers the same way, as barrier_implementation.
 *
 * Each is reported as sync_region + sync_region_wait with the state
 * wait_barrier_implementation (bridge_sync_enter/_exit, the Sync group),
 * but only
 *  - when a tool wants those callbacks now: bridge_wants() is what POMP_Off
 *    and POMP_SYNC switch off, so the call is then passed on untouched;
 *  - when the thread is not already in a barrier it reports: pomp-instr
 *    turns a `barrier` directive and every exposed implicit barrier into
 *    POMP_(Implicit_)Barrier_enter, a real `#pragma omp barrier` (which GCC
 *    compiles to GOMP_barrier) and _exit, and the enter event has set the
 *    thread's state to a wait_barrier_* state: one load tells;
 *  - on a thread that runs a task of a team the bridge knows (not the
 *    initial task, not a thread whose region ended);
 *  - for GOMP_barrier, when GCC added it: inside an instrumented
 *    worksharing construct of the current task, ending a copyprivate
 *    construct, or (copyin's) in an implicit task that libpompt's
 *    trampoline began before the region's first statement
 *    (reporting_thread_internal).
 *
 * copyprivate's split barrier is one barrier on every thread, as for
 * Archer the threads of a team must count barriers in step.  Whether a
 * thread executes the block is known only when GOMP_single_copy_start
 * returns, so: the executing thread's region surrounds its wait in _end
 * (its begin comes after its block's writes); each other thread's region
 * is delivered when _start has returned, before it copies the values (its
 * end thereby comes after the executing thread's begin).  Its state is
 * wait_barrier_implementation while it waits in _start, but the callbacks
 * of the region come after the wait: a tool measures no time in it.
 *
 * With no tool the cost is a load and a branch before libgomp's entry.
 * Definitions are weak; the static library defines them as
 * __wrap_GOMP_<x>, linked with --wrap (bridge_gomp_entry.h, as
 * bridge_gomp.c).
 */
#define _GNU_SOURCE
#include <stdbool.h>
#include <stdlib.h>

#include "bridge.h"
#include "bridge_gomp_entry.h"
#include "bridge_internal.h"
#include "bridge_runtime.h"

#define SYNC_KIND ompt_sync_region_barrier_implementation

typedef void (*gomp_barrier_t)(void);
typedef bool (*gomp_barrier_cancel_t)(void);
typedef void *(*gomp_copy_start_t)(void);
typedef void (*gomp_copy_end_t)(void *);

static gomp_barrier_t real_barrier;
typedef void (*gomp_taskwait_t)(void);
static gomp_taskwait_t real_taskwait;
#ifdef GOMP_JUMP_ENTRIES
/* The jump slots of the POMP events that wait themselves (pomp_waits.c):
 * until libgomp's entries are known, the routines below that find them. */
GOMP_JUMP_SLOT(gomp_barrier_t, jump_barrier, "bridge_gomp_jump_barrier",
               bridge_gomp_barrier);
GOMP_JUMP_SLOT(gomp_taskwait_t, jump_taskwait, "bridge_gomp_jump_taskwait",
               bridge_gomp_taskwait);
#endif
static gomp_barrier_cancel_t real_barrier_cancel;
static gomp_copy_start_t real_copy_start;
static gomp_copy_end_t real_copy_end;
static gomp_barrier_t real_loop_end;
static gomp_barrier_t real_sections_end;
GOMP_REAL_DECL(GOMP_barrier);
GOMP_REAL_DECL(GOMP_barrier_cancel);
GOMP_REAL_DECL(GOMP_single_copy_start);
GOMP_REAL_DECL(GOMP_single_copy_end);
GOMP_REAL_DECL(GOMP_taskwait);
GOMP_REAL_DECL(GOMP_loop_end);
GOMP_REAL_DECL(GOMP_sections_end);

/* At load time, when libgomp (a dependency loaded first) is there, so that
 * the fast paths find the entries set; lazily otherwise. */
__attribute__((constructor)) static void gomp_sync_setup(void) {
  real_barrier = (gomp_barrier_t)GOMP_REAL(GOMP_barrier);
  real_barrier_cancel = (gomp_barrier_cancel_t)GOMP_REAL(GOMP_barrier_cancel);
  real_copy_start = (gomp_copy_start_t)GOMP_REAL(GOMP_single_copy_start);
  real_copy_end = (gomp_copy_end_t)GOMP_REAL(GOMP_single_copy_end);
  real_taskwait = (gomp_taskwait_t)GOMP_REAL(GOMP_taskwait);
  real_loop_end = (gomp_barrier_t)GOMP_REAL(GOMP_loop_end);
  real_sections_end = (gomp_barrier_t)GOMP_REAL(GOMP_sections_end);
#ifdef GOMP_JUMP_ENTRIES
  if (real_barrier)
    jump_barrier = real_barrier;
  if (real_taskwait)
    jump_taskwait = real_taskwait;
#endif
}

/* GOMP_single_copy_start calls of this thread whose construct's end
 * barrier (GCC's GOMP_barrier after the copy) is still to come: nested
 * constructs (a region inside the block) stack. */
static __thread unsigned copyprivate_open
    __attribute__((tls_model("initial-exec")));

/* Whether t is in a barrier the instrumentation reports: the common case
 * with a tool (every barrier directive and exposed implicit barrier), told
 * inline so that it costs no call. */
static inline bool in_reported_barrier(const bridge_thread_t *t) {
  int state = t ? bridge_get_state(t, NULL) : ompt_state_undefined;
  return state >= ompt_state_wait_barrier &&
         state <= ompt_state_wait_barrier_teams;
}

/* The calling thread, if the barrier it enters is to be reported. */
static bridge_thread_t *reporting_thread(void) {
  if (!bridge_wants_sync(BRIDGE_B_SYNC_EE))
    return NULL;
  bridge_thread_t *t = bridge_thread_peek();
  if (!t)
    return NULL; /* no event yet: not in a region the bridge reported */
  bridge_task_t *cur = t->cur;
  if (!cur || cur == t->pending || (cur->flags & ompt_task_initial))
    return NULL;
  if (in_reported_barrier(t))
    return NULL; /* inside an instrumented barrier: reported already */
  return t;
}

/* The same for GOMP_barrier: only a barrier of GCC's own, which is inside
 * an instrumented worksharing construct of the current task (a barrier
 * directive cannot be), ends a copyprivate construct, or precedes the
 * region's first statement (copyin).  A barrier
 * directive that was not instrumented (hand instrumentation, pomp-instr
 * --disable=sync) stays unreported, as its author chose. */
static bridge_thread_t *reporting_thread_internal(void) {
  bridge_thread_t *t = bridge_thread_peek();
  bridge_task_t *cur = t ? t->cur : NULL;
  int in_work = cur && bridge_pairs[BRIDGE_PAIR_WORK].next !=
                           cur->pair_next[BRIDGE_PAIR_WORK];
  /* An implicit task begun by libpompt's trampoline whose construct has not
   * run its first statement yet (Parallel_begin clears early_begun): the
   * only barrier there is GCC's after a copyin by reference. */
  int copyin = cur && (cur->flags & ompt_task_implicit) && cur->early_begun;
  /* In a region reported from libgomp's entry (bridge_gomp.c) every
   * barrier is one no POMP event reports: a barrier directive or a
   * worksharing construct's implicit barrier of code pomp-cc did not
   * compile, which libgomp's entry does not tell apart. */
  int opaque = cur && (cur->flags & ompt_task_implicit) && cur->team &&
               (cur->team->origin & BRIDGE_TEAM_OPAQUE);
  if (!in_work && !copyin && !opaque) {
    if (!copyprivate_open)
      return NULL;
    copyprivate_open--;
  }
  return reporting_thread();
}

static __attribute__((noinline)) void barrier_slow(const void *codeptr,
                                                   void *frame) {
  if (!reporting_thread_internal()) {
    bridge_gomp_barrier();
    return;
  }
  bridge_sync_enter(BRIDGE_B_SYNC_EE, SYNC_KIND, codeptr, frame);
  bridge_gomp_barrier();
  bridge_sync_exit(BRIDGE_B_SYNC_EE, SYNC_KIND, codeptr, frame);
}

GOMP_EXPORT void GOMP_ENTRY(GOMP_barrier)(void) {
  gomp_barrier_t real = real_barrier;
  if (__builtin_expect(bridge_active || !real, 0) &&
      !(real && in_reported_barrier(bridge_thread_peek()))) {
    barrier_slow(gomp_codeptr(__builtin_return_address(0)), BRIDGE_FRAME());
    return;
  }
  real();
}

static __attribute__((noinline)) bool barrier_cancel_slow(const void *codeptr,
                                                          void *frame) {
  GOMP_REAL_ENSURE(real_barrier_cancel, GOMP_barrier_cancel);
  bool cancelled;
  if (!reporting_thread_internal()) {
    cancelled = real_barrier_cancel();
  } else {
    bridge_sync_enter(BRIDGE_B_SYNC_EE, SYNC_KIND, codeptr, frame);
    cancelled = real_barrier_cancel();
    bridge_sync_exit(BRIDGE_B_SYNC_EE, SYNC_KIND, codeptr, frame);
  }
  /* The thread found the region cancelled and leaves it: a cancellation
   * detected (bridge_gomp_cancel.c has the other entries that tell). */
  if (cancelled) {
    bridge_lane_hold();
    bridge_cancel(ompt_cancel_parallel | ompt_cancel_detected, codeptr, frame);
  }
  return cancelled;
}

GOMP_EXPORT bool GOMP_ENTRY(GOMP_barrier_cancel)(void) {
  gomp_barrier_cancel_t real = real_barrier_cancel;
  if (__builtin_expect(bridge_active || !real, 0))
    return barrier_cancel_slow(gomp_codeptr(__builtin_return_address(0)),
                               BRIDGE_FRAME());
  return real();
}

static __attribute__((noinline)) void *copy_start_slow(const void *codeptr,
                                                       void *frame) {
  GOMP_REAL_ENSURE(real_copy_start, GOMP_single_copy_start);
  copyprivate_open++;
  bridge_thread_t *t = reporting_thread();
  if (!t)
    return real_copy_start();
  /* Waiting, unless this thread turns out to execute the block. */
  ompt_wait_id_t wait_id;
  int state = bridge_get_state(t, &wait_id);
  bridge_set_state(t, ompt_state_wait_barrier_implementation, 0);
  void *data = real_copy_start();
  bridge_set_state(t, (ompt_state_t)state, wait_id);
  if (data) { /* the executing thread's values are there: its barrier */
    bridge_sync_enter(BRIDGE_B_SYNC_EE, SYNC_KIND, codeptr, frame);
    bridge_sync_exit(BRIDGE_B_SYNC_EE, SYNC_KIND, codeptr, frame);
  }
  return data;
}

GOMP_EXPORT void *GOMP_ENTRY(GOMP_single_copy_start)(void) {
  gomp_copy_start_t real = real_copy_start;
  if (__builtin_expect(bridge_active || !real, 0))
    return copy_start_slow(__builtin_return_address(0), BRIDGE_FRAME());
  return real();
}

static __attribute__((noinline)) void
copy_end_slow(void *data, const void *codeptr, void *frame) {
  GOMP_REAL_ENSURE(real_copy_end, GOMP_single_copy_end);
  if (!reporting_thread()) {
    real_copy_end(data);
    return;
  }
  bridge_sync_enter(BRIDGE_B_SYNC_EE, SYNC_KIND, codeptr, frame);
  real_copy_end(data);
  bridge_sync_exit(BRIDGE_B_SYNC_EE, SYNC_KIND, codeptr, frame);
}

GOMP_EXPORT void GOMP_ENTRY(GOMP_single_copy_end)(void *data) {
  gomp_copy_end_t real = real_copy_end;
  if (__builtin_expect(bridge_active || !real, 0)) {
    copy_end_slow(data, __builtin_return_address(0), BRIDGE_FRAME());
    return;
  }
  real(data);
}

/* ---- Worksharing constructs' implicit barriers ---------------------------
 * GOMP_loop_end and GOMP_sections_end (GOMP_loop_end_cancel and
 * GOMP_sections_end_cancel in a cancellable region, bridge_gomp_cancel.c)
 * are the implicit barrier of a loop or sections construct without nowait.
 * pomp-instr exposes that barrier wherever it can (nowait, and its own
 * events around a barrier), so a thread that reaches one of these entries
 * is in code pomp-cc did not compile (a library built with plain gcc, a
 * Fortran unit, a noinstrument range) or in a construct whose barrier could
 * not be exposed (a cancel inside, a task reduction) or was not
 * (--disable=sync): no POMP event reports it, and a tool that orders memory
 * through barriers (Archer) needs it.  Reported as
 * barrier_implicit_workshare, the kind a native runtime gives it, under the
 * same conditions as GCC's own barriers (reporting_thread). */
#define WS_KIND ompt_sync_region_barrier_implicit_workshare

int bridge_gomp_ws_barrier_begin(const void *codeptr, void *frame) {
  if (!reporting_thread())
    return 0;
  bridge_sync_enter(BRIDGE_B_SYNC_EE, WS_KIND, codeptr, frame);
  return 1;
}

void bridge_gomp_ws_barrier_end(const void *codeptr, void *frame) {
  bridge_sync_exit(BRIDGE_B_SYNC_EE, WS_KIND, codeptr, frame);
}

#define WS_END(name, real_var)                                                 \
  static __attribute__((noinline)) void name##_slow(const void *codeptr,       \
                                                    void *frame) {             \
    GOMP_REAL_ENSURE(real_var, name);                                          \
    bridge_gomp_work_close(codeptr, frame);                                    \
    int reported = bridge_gomp_ws_barrier_begin(codeptr, frame);               \
    real_var();                                                                \
    if (reported)                                                              \
      bridge_gomp_ws_barrier_end(codeptr, frame);                              \
  }                                                                            \
  GOMP_VOID_ENTRY(name, real_var, name##_slow)

WS_END(GOMP_loop_end, real_loop_end)
WS_END(GOMP_sections_end, real_sections_end)

/* ---- taskwait --------------------------------------------------------------
 * A taskwait directive of code pomp-cc did not compile: every instrumented
 * one waits in libgomp's entry without passing this one (pomp_waits.c, by
 * the jump slot above), or, in libpompt.a, reaches it in the wait state its
 * event set.  Reported as an instrumented one is, sync_region and
 * sync_region_wait(taskwait) around libgomp's wait, on a thread that runs a
 * task the bridge knows (doc/ompt-mapping.md, "Code pomp-cc did not
 * compile"). */
static __attribute__((noinline)) void taskwait_slow(const void *codeptr,
                                                    void *frame) {
  bridge_thread_t *t = bridge_thread_peek();
  bridge_task_t *cur = t ? t->cur : NULL;
  if (!cur || cur == t->pending ||
      bridge_get_state(t, NULL) == ompt_state_wait_taskwait ||
      !bridge_wants_sync(BRIDGE_B_TASK_EE)) {
    bridge_gomp_taskwait();
    return;
  }
  bridge_sync_enter(BRIDGE_B_TASK_EE, ompt_sync_region_taskwait, codeptr,
                    frame);
  bridge_gomp_taskwait();
  bridge_sync_exit(BRIDGE_B_TASK_EE, ompt_sync_region_taskwait, codeptr, frame);
}

GOMP_VOID_ENTRY(GOMP_taskwait, real_taskwait, taskwait_slow)

/* libgomp's barrier and taskwait, past libpompt's entries: for the
 * barrier entry's slow path above, and for the POMP events that wait
 * themselves (pomp_waits.c), which report their construct (libpompt.a's
 * copy of those calls libgomp.a's entries by name). */
void bridge_gomp_barrier(void) {
  gomp_barrier_t real = real_barrier;
  if (__builtin_expect(!real, 0))
    real = real_barrier = (gomp_barrier_t)GOMP_REAL_CHECKED(GOMP_barrier);
  real();
}

void bridge_gomp_taskwait(void) {
  gomp_taskwait_t real = real_taskwait;
  if (__builtin_expect(!real, 0))
    real = real_taskwait = (gomp_taskwait_t)GOMP_REAL_CHECKED(GOMP_taskwait);
  real();
}
