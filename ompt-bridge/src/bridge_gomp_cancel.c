/*
 * bridge_gomp_cancel.c -- cancellation detected: libgomp's entries at which
 * a thread finds the construct it is in cancelled, interposed so that the
 * thread reports ompt_callback_cancel(ompt_cancel_detected | construct)
 * before it leaves for the construct's end.
 *
 * A thread that detects a cancellation jumps past every POMP event that
 * would follow (the construct's exit, its barrier's, the region's end), so
 * only the runtime entry that told it can report it.  GCC asks libgomp at
 *  - `cancellation point X`: GOMP_cancellation_point(which);
 *  - `cancel X if(false)`, which OpenMP makes a cancellation point:
 *    GOMP_cancel(which, false) (with a true condition the thread activates
 *    the cancellation itself, which the POMP cancel event reports);
 *  - the barriers of a cancellable region: GOMP_loop_end_cancel and
 *    GOMP_sections_end_cancel (the implicit barrier of a worksharing
 *    construct that a cancel binds to) and GOMP_barrier_cancel (a barrier
 *    directive, or one exposed by pomp-instr; bridge_gomp_sync.c, which
 *    interposes it for its barrier callbacks, reports it there).
 * Each returns true when the thread is to leave.  The construct reported
 * is the cancellation point's (`which`: GCC's GOMP_CANCEL_* bits); a
 * barrier tells only of the parallel region, the one thing that cancels it
 * (a cancelled loop or sections completes at its barrier, which then
 * returns false).  No other libgomp entry reports a cancellation to its
 * caller: taskgroup and taskwait ends return nothing, and the tasks of a
 * cancelled taskgroup that had not started are dropped inside libgomp
 * without a trace (no ompt_cancel_discarded_task).
 *
 * The callback is delivered through bridge_cancel, as the POMP cancel
 * event's is: on the detecting thread, for the task it runs (the event's
 * frame lies below that task's, so nothing is taken for cancelled), when
 * the tool registered ompt_callback_cancel and the Sync group is on (not
 * after POMP_Off, nor with POMP_SYNC=none), with codeptr_ra the return
 * address into the program's code.  The construct's scopes that the jump
 * leaves open are closed at the thread's next event, as for the thread
 * that activated the cancellation.
 *
 * With no tool (or no cancel callback) an entry costs a load and a branch
 * before a tail call of libgomp's.  The static library defines the entries
 * as __wrap_GOMP_<x>, which pomp-link links with --wrap
 * (bridge_gomp_entry.h).
 */
#define _GNU_SOURCE
#include <stdbool.h>

#include "bridge.h"
#include "bridge_gomp_entry.h"
#include "bridge_internal.h"

/* GCC's `which` bits (libgomp's gomp-constants.h). */
enum {
  GOMP_CANCEL_PARALLEL = 1,
  GOMP_CANCEL_LOOP = 2,
  GOMP_CANCEL_SECTIONS = 4,
  GOMP_CANCEL_TASKGROUP = 8
};

typedef bool (*gomp_cancellation_point_t)(int);
typedef bool (*gomp_cancel_t)(int, bool);
typedef bool (*gomp_end_cancel_t)(void);

GOMP_REAL_VAR(gomp_cancellation_point_t, real_cancellation_point,
              GOMP_cancellation_point)
GOMP_REAL_VAR(gomp_cancel_t, real_cancel, GOMP_cancel)
GOMP_REAL_VAR(gomp_end_cancel_t, real_loop_end_cancel, GOMP_loop_end_cancel)
GOMP_REAL_VAR(gomp_end_cancel_t, real_sections_end_cancel,
              GOMP_sections_end_cancel)

/* What an entry returns: a thread that found its construct cancelled
 * leaves for its end, past the events it skips, so the inline events of
 * pomp.h wait until libpompt has ended what it left (bridge_lane.c). */
static inline bool leaving(bool cancelled, int which) {
  if (__builtin_expect(cancelled, 0)) {
    bridge_lane_hold();
    /* A task leaves its block at once: it ends as cancelled when its
     * function returns (a task handed over by its construct has no end
     * event to miss). */
    if (which & GOMP_CANCEL_TASKGROUP)
      bridge_task_left_cancelled();
  }
  return cancelled;
}

/* Whether a detection would reach the tool now: one load. */
static inline bool wanted(void) {
  return bridge_wants(BRIDGE_B_SYNC_EE, ompt_callback_cancel);
}

/* The OMPT construct flag of a cancellation point's `which`. */
static int construct_of(int which) {
  if (which & GOMP_CANCEL_TASKGROUP)
    return ompt_cancel_taskgroup;
  if (which & GOMP_CANCEL_LOOP)
    return ompt_cancel_loop;
  if (which & GOMP_CANCEL_SECTIONS)
    return ompt_cancel_sections;
  return ompt_cancel_parallel;
}

static void detected(bool cancelled, int construct, const void *codeptr,
                     void *frame) {
  if (cancelled)
    bridge_cancel(construct | ompt_cancel_detected, codeptr, frame);
}

static __attribute__((noinline)) bool
cancellation_point_slow(int which, const void *codeptr, void *frame) {
  GOMP_REAL_ENSURE(real_cancellation_point, GOMP_cancellation_point);
  bool cancelled = real_cancellation_point(which);
  detected(cancelled, construct_of(which), codeptr, frame);
  return cancelled;
}

GOMP_EXPORT bool GOMP_ENTRY(GOMP_cancellation_point)(int which) {
  gomp_cancellation_point_t real = real_cancellation_point;
  return leaving(__builtin_expect(!real || wanted(), 0)
                     ? cancellation_point_slow(
                           which, __builtin_return_address(0), BRIDGE_FRAME())
                     : real(which),
                 which);
}

static __attribute__((noinline)) bool
cancel_slow(int which, bool do_cancel, const void *codeptr, void *frame) {
  GOMP_REAL_ENSURE(real_cancel, GOMP_cancel);
  bool cancelled = real_cancel(which, do_cancel);
  /* Activated (do_cancel): reported by the POMP cancel event before. */
  detected(cancelled && !do_cancel, construct_of(which), codeptr, frame);
  return cancelled;
}

GOMP_EXPORT bool GOMP_ENTRY(GOMP_cancel)(int which, bool do_cancel) {
  gomp_cancel_t real = real_cancel;
  return leaving(__builtin_expect(!real || (!do_cancel && wanted()), 0)
                     ? cancel_slow(which, do_cancel,
                                   __builtin_return_address(0), BRIDGE_FRAME())
                     : real(which, do_cancel),
                 which);
}

/* GOMP_loop_end_cancel, GOMP_sections_end_cancel: a worksharing
 * construct's barrier, which returns true only when the region is
 * cancelled; the barrier itself is reported as GOMP_loop_end's
 * (bridge_gomp_sync.c). */
#define END_CANCEL(name, real_var)                                             \
  static __attribute__((noinline)) bool name##_slow(const void *codeptr,       \
                                                    void *frame) {             \
    GOMP_REAL_ENSURE(real_var, name);                                          \
    bridge_gomp_work_close(codeptr, frame);                                    \
    int reported = bridge_gomp_ws_barrier_begin(codeptr, frame);               \
    bool cancelled = real_var();                                               \
    if (reported)                                                              \
      bridge_gomp_ws_barrier_end(codeptr, frame);                              \
    detected(cancelled, ompt_cancel_parallel, codeptr, frame);                 \
    return cancelled;                                                          \
  }                                                                            \
  GOMP_EXPORT bool GOMP_ENTRY(name)(void) {                                    \
    gomp_end_cancel_t real = real_var;                                         \
    return leaving(                                                            \
        __builtin_expect(!real || bridge_active, 0)                            \
            ? name##_slow(gomp_codeptr(__builtin_return_address(0)),           \
                          BRIDGE_FRAME())                                      \
            : real(),                                                          \
        0);                                                                    \
  }

END_CANCEL(GOMP_loop_end_cancel, real_loop_end_cancel)
END_CANCEL(GOMP_sections_end_cancel, real_sections_end_cancel)
