/*
 * bridge_gomp_ordered.c -- ordered regions of code pomp-cc did not
 * compile, reported from libgomp's entries GOMP_ordered_start and
 * GOMP_ordered_end: mutex_acquire, mutex_acquired and
 * mutex_released(ompt_mutex_ordered) around them, as at a native runtime.
 *
 * An instrumented ordered construct reports itself: its enter event, just
 * before GCC's call of the start entry, has put the thread in
 * wait_ordered.  A start entry reached in any other state belongs to code
 * no POMP event surrounds (a library built with plain gcc, a Fortran unit,
 * a noinstrument range, --disable=sync).  The wait id is the start call's
 * return address: the same on every thread for one construct, which is
 * what orders its iterations for a tool (LLVM's Archer).  Every start
 * entry pushes on the thread's stack whether its region was reported and
 * its wait id, every end pops it (the calls pair up on a thread, ordered
 * regions of nested loops nesting); 8 levels are kept, deeper ones are not
 * reported.
 *
 * With no tool the cost is a load and a branch before libgomp's entry.
 * Definitions are weak; the static library defines them as
 * __wrap_GOMP_<x>, linked with --wrap (bridge_gomp_entry.h).
 */
#define _GNU_SOURCE
#include <stdint.h>

#include "bridge.h"
#include "bridge_gomp_entry.h"
#include "bridge_internal.h"

typedef void (*gomp_ordered_t)(void);
GOMP_REAL_VAR(gomp_ordered_t, real_start, GOMP_ordered_start)
GOMP_REAL_VAR(gomp_ordered_t, real_end, GOMP_ordered_end)

/* The thread's open ordered regions entered with a tool active: the wait
 * id of each reported one, 0 for the others. */
#define ORDERED_MAX 8
static __thread ompt_wait_id_t open_ids[ORDERED_MAX]
    __attribute__((tls_model("initial-exec")));
static __thread unsigned open_depth __attribute__((tls_model("initial-exec")));

/* Whether a start entry's region is to be reported: a tool wants the
 * mutex callbacks and no instrumented construct's acquire came first. */
static int reporting(void) {
  if (!bridge_wants_mutex(BRIDGE_B_SYNC_EE))
    return 0;
  bridge_thread_t *t = bridge_thread_peek();
  return t && open_depth < ORDERED_MAX &&
         bridge_get_state(t, NULL) != ompt_state_wait_ordered;
}

static __attribute__((noinline)) void start_slow(const void *codeptr,
                                                 void *frame) {
  GOMP_REAL_ENSURE(real_start, GOMP_ordered_start);
  ompt_wait_id_t wait_id = 0;
  if (reporting()) {
    wait_id = (ompt_wait_id_t)(uintptr_t)codeptr;
    bridge_mutex_acquire(BRIDGE_B_SYNC_EE, ompt_mutex_ordered, 0, wait_id,
                         codeptr, frame);
  }
  real_start();
  if (wait_id)
    bridge_mutex_acquired(BRIDGE_B_SYNC_EE, ompt_mutex_ordered, wait_id, 1,
                          codeptr, frame);
  if (open_depth < ORDERED_MAX)
    open_ids[open_depth] = wait_id;
  open_depth++;
}

GOMP_VOID_ENTRY(GOMP_ordered_start, real_start, start_slow)

static __attribute__((noinline)) void end_slow(const void *codeptr,
                                               void *frame) {
  GOMP_REAL_ENSURE(real_end, GOMP_ordered_end);
  if (open_depth) { /* else its start came before the tool */
    open_depth--;
    ompt_wait_id_t wait_id =
        open_depth < ORDERED_MAX ? open_ids[open_depth] : 0;
    if (wait_id)
      bridge_mutex_release_held(BRIDGE_B_SYNC_EE, ompt_mutex_ordered, wait_id,
                                codeptr, frame);
  }
  real_end();
}

GOMP_VOID_ENTRY(GOMP_ordered_end, real_end, end_slow)
