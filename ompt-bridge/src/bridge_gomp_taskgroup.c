/*
 * bridge_gomp_taskgroup.c -- libgomp's taskgroup entries, GOMP_taskgroup_start
 * and GOMP_taskgroup_end, interposed for the taskgroups that no POMP event
 * reports and for the end of a task reduction's wait.
 *
 * An instrumented taskgroup construct reports itself: its enter event,
 * just before GCC's call of the start entry, opens the region's scope, and
 * its end and exit events surround GCC's call of the end entry.  The start
 * entry marks that scope as started.  A start entry that finds no
 * unstarted taskgroup scope of the running task belongs to code no POMP
 * event surrounds (a library built with plain gcc, a Fortran unit, a
 * noinstrument range, --disable=task): its region is reported from the
 * entries, as an instrumented one is, sync_region(taskgroup) from the
 * start, sync_region_wait around libgomp's wait in the end entry and the
 * region's end after it.  The marks live in the scope (its seq field,
 * BRIDGE_TG_*), which belongs to the task that opened it, so a task that
 * runs on the thread while another waits cannot take the other's.
 *
 * With no tool the cost is a load and a branch before libgomp's entry.
 * Definitions are weak; the static library defines them as
 * __wrap_GOMP_<x>, linked with --wrap (bridge_gomp_entry.h).
 */
#define _GNU_SOURCE

#include "bridge.h"
#include "bridge_gomp_entry.h"
#include "bridge_internal.h"

typedef void (*gomp_taskgroup_t)(void);
GOMP_REAL_VAR(gomp_taskgroup_t, real_start, GOMP_taskgroup_start)
GOMP_REAL_VAR(gomp_taskgroup_t, real_end, GOMP_taskgroup_end)

static __attribute__((noinline)) void start_slow(const void *codeptr,
                                                 void *frame) {
  GOMP_REAL_ENSURE(real_start, GOMP_taskgroup_start);
  bridge_thread_t *t = bridge_thread_peek();
  if (t && t->cur) {
    bridge_scope_t *tg = bridge_innermost_taskgroup(t);
    if (tg && !(tg->seq & BRIDGE_TG_STARTED)) {
      tg->seq |= BRIDGE_TG_STARTED; /* an instrumented construct's */
    } else {
      bridge_taskgroup_enter(codeptr, frame);
      tg = bridge_innermost_taskgroup(t);
      if (tg && !(tg->seq & BRIDGE_TG_STARTED)) /* not if none was opened */
        tg->seq |= BRIDGE_TG_STARTED | BRIDGE_TG_OPAQUE;
    }
  }
  real_start();
}

GOMP_VOID_ENTRY(GOMP_taskgroup_start, real_start, start_slow)

static __attribute__((noinline)) void end_slow(const void *codeptr,
                                               void *frame) {
  GOMP_REAL_ENSURE(real_end, GOMP_taskgroup_end);
  bridge_thread_t *t = bridge_thread_peek();
  bridge_scope_t *tg = t && t->cur ? bridge_innermost_taskgroup(t) : NULL;
  int opaque = tg && (tg->seq & BRIDGE_TG_OPAQUE);
  if (opaque)
    bridge_taskgroup_end(codeptr, frame);
  real_end();
  /* Found again: tasks run during the wait may have grown the stack. */
  tg = t && t->cur ? bridge_innermost_taskgroup(t) : NULL;
  if (!tg)
    return;
  if (opaque) /* a task reduction's combining is not reported there */
    bridge_taskgroup_exit(codeptr, frame);
  else
    bridge_taskgroup_reduction_waited(t, tg, codeptr);
}

GOMP_VOID_ENTRY(GOMP_taskgroup_end, real_end, end_slow)
