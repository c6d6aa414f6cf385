/*
 * bridge_lane.c -- the lane: what the inline events of pomp.h read
 * (POMPT_Master_enter / _leave, POMPT_Atomic_begin / _end,
 * POMPT_Critical_wait / _held / _release; POMPT_Task_hand leaves a task
 * construct there for GOMP_task), kept true by libpompt.
 *
 * An inline event calls the tool's callbacks itself when the lane allows
 * and otherwise comes to libpompt (bridge_lane_masked_begin/_end, from
 * POMPT_Master_begin_at/_end_at; POMPT_Atomic_enter_at/_exit_at).  The
 * lane's bit stack says, for each master region open on the thread,
 * whether its begin was delivered inline (1) or handled by libpompt as any
 * other pair (0; bridge_events.c numbers those as before), so that each
 * end goes the way its begin went; its atomic field does the same for the
 * thread's atomic construct.  An atomic construct goes inline only once
 * libpompt has found it to be an atomic instruction (the descriptor's lane
 * byte, bridge_atomic.c): one under libgomp's lock must be seen calling
 * GOMP_atomic_start.
 *
 * Why READY and OUTERMOST are exactly what bridge_lane_refresh computes:
 *  - the thread's running task, announced, gives the callback's arguments
 *    and the delivery rule of the other events (a begin only for a task
 *    the tool was told of);
 *  - a pending barrier end must reach the tool before anything else the
 *    thread does, and only libpompt delivers it;
 *  - a cancellation may leave tasks and constructs without their ends,
 *    which libpompt notices from the next event's frame: the lane is held
 *    closed from the cancellation until an event has done that;
 *  - with none of the task's constructs open (no scope above its base), a
 *    master region begun inline is the task's outermost open construct, so
 *    the ends that a cancellation skipped are delivered in nesting order:
 *    the task's scopes first, then its inline master regions
 *    (bridge_lane_unwind).
 */
#include "bridge.h"
#include "bridge_internal.h"

__attribute__((visibility("default"))) __thread POMPT_Lane_t POMPT_lane_v2
    __attribute__((tls_model("initial-exec")));
__attribute__((visibility("default")))
POMPT_Masked_cb_t POMPT_lane_masked_v1[2];
__attribute__((visibility("default"))) POMPT_Lane_atomic_t POMPT_lane_atomic_v1;

void bridge_lane_tables(void) {
  /* Filled only while a tool is active: before its initialize returned,
   * and from the start of finalisation, every event goes through the
   * library, which knows. */
  POMPT_Masked_cb_t begin = NULL, end = NULL;
  POMPT_Lane_atomic_t atomic = {NULL, NULL, NULL};
  if (bridge_active) {
    begin = (POMPT_Masked_cb_t)BRIDGE_ACTIVE(BRIDGE_B_SYNC_BE, masked);
    end = (POMPT_Masked_cb_t)BRIDGE_GROUP(BRIDGE_B_SYNC_BE, masked);
    atomic.acquire = BRIDGE_ACTIVE_AS(BRIDGE_B_SYNC_EE, mutex_acquire,
                                      POMPT_Mutex_acquire_cb_t);
    atomic.acquired =
        BRIDGE_ACTIVE_AS(BRIDGE_B_SYNC_EE, mutex_acquired, POMPT_Mutex_cb_t);
    atomic.released =
        BRIDGE_GROUP_AS(BRIDGE_B_SYNC_EE, mutex_released, POMPT_Mutex_cb_t);
  }
  __atomic_store_n(&POMPT_lane_masked_v1[0], begin, __ATOMIC_RELAXED);
  __atomic_store_n(&POMPT_lane_masked_v1[1], end, __ATOMIC_RELAXED);
  __atomic_store_n(&POMPT_lane_atomic_v1.acquire, atomic.acquire,
                   __ATOMIC_RELAXED);
  __atomic_store_n(&POMPT_lane_atomic_v1.acquired, atomic.acquired,
                   __ATOMIC_RELAXED);
  __atomic_store_n(&POMPT_lane_atomic_v1.released, atomic.released,
                   __ATOMIC_RELAXED);
}

void bridge_lane_settle(void) {
  bridge_thread_t *t = bridge_self;
  if (t)
    bridge_lane_refresh(t);
}

void bridge_lane_hold(void) {
  POMPT_lane_v2.usable = 0;
  bridge_thread_t *t = bridge_self;
  if (t)
    t->lane_hold = 1;
}

/* An end without a begin of this family (depth 0), or deeper than the
 * bits: 0, the library's. */
int bridge_lane_pop(void) {
  return (int)POMPT_Lane_pop_(&POMPT_lane_v2.open, &POMPT_lane_v2.depth);
}

void bridge_lane_push(void) {
  POMPT_Lane_push_(&POMPT_lane_v2.open, &POMPT_lane_v2.depth, 0);
}

void bridge_lane_unwind(bridge_task_t *task) {
  ompt_callback_masked_t cb = BRIDGE_GROUP(BRIDGE_B_SYNC_BE, masked);
  while (POMPT_lane_v2.depth > task->lane_base)
    if (bridge_lane_pop() && cb)
      cb(ompt_scope_end, task->parallel_data, &task->task_data, NULL);
}
