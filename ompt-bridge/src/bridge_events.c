/*
 * bridge_events.c -- POMP-level events turned into OMPT callbacks, with the
 * thread's state, task stack and frames kept up to date on the way.
 *
 * Every function runs on the thread the event happened on and touches only
 * that thread's record, plus (for parallel regions) the team record that the
 * primary thread owns and the workers only read.
 */
#include <string.h>

#include "bridge.h"
#include "bridge_internal.h"

extern int omp_get_thread_num(void) __attribute__((weak));
extern int omp_get_num_threads(void) __attribute__((weak));

static inline ompt_state_t working_state(const bridge_task_t *task) {
  return task && !(task->flags & ompt_task_initial) ? ompt_state_work_parallel
                                                    : ompt_state_work_serial;
}

/* The thread's record with any pending barrier end delivered first, so that
 * callbacks reach the tool in the order the events happened. */
static inline bridge_thread_t *enter_event(void) {
  bridge_thread_t *t = bridge_thread_self();
  if (t && t->pending_join)
    bridge_thread_flush(t);
  return t;
}

static inline ompt_data_t *task_data_of(bridge_task_t *task) {
  return task ? &task->task_data : NULL;
}

static inline ompt_data_t *parallel_data_of(bridge_task_t *task) {
  return task ? task->parallel_data : NULL;
}

void bridge_parallel_enter(POMP_Team_t *storage, int requested, int if_false,
                           const void *codeptr, void *enter_frame) {
  bridge_thread_t *t = enter_event();
  if (!t)
    return;
  bridge_team_t *team = (bridge_team_t *)storage;
  memset(team, 0, sizeof *team);
  bridge_task_t *enc = bridge_current_task(t);
  team->encountering = enc;
  team->codeptr = codeptr;
  team->requested = if_false ? 1 : requested;
  team->flags = ompt_parallel_invoker_runtime | ompt_parallel_team;
  if (enc) {
    enc->frame.enter_frame.ptr = enter_frame;
    enc->frame.enter_frame_flags = ompt_frame_runtime | ompt_frame_framepointer;
  }
  bridge_set_state(t, ompt_state_overhead, 0);
  ompt_callback_parallel_begin_t cb = BRIDGE_CB(parallel_begin);
  if (cb)
    cb(task_data_of(enc), enc ? &enc->frame : NULL, &team->parallel_data,
       (unsigned)team->requested, team->flags, codeptr);
}

void bridge_parallel_begin(POMP_Team_t *storage, void *exit_frame) {
  bridge_thread_t *t = enter_event();
  if (!t)
    return;
  bridge_team_t *team = (bridge_team_t *)storage;
  int num = omp_get_thread_num ? omp_get_thread_num() : 0;
  int size = omp_get_num_threads ? omp_get_num_threads() : 1;
  if (num == 0)
    team->size = size;
  if (t->depth >= BRIDGE_MAX_DEPTH) {
    /* Deeper nesting than the record holds: keep counting so that the ends
     * pair up, but deliver nothing for these levels. */
    t->overflow++;
    return;
  }
  bridge_task_t *task = &t->tasks[t->depth];
  memset(task, 0, sizeof *task);
  task->frame.exit_frame.ptr = exit_frame;
  task->frame.exit_frame_flags = ompt_frame_runtime | ompt_frame_framepointer;
  task->team = team;
  task->parallel_data = &team->parallel_data;
  task->parent = team->encountering;
  task->flags = ompt_task_implicit;
  task->thread_num = num;
  task->team_size = size;
  atomic_signal_fence(memory_order_seq_cst);
  t->depth++;
  bridge_set_state(t, ompt_state_work_parallel, 0);
  ompt_callback_implicit_task_t cb = BRIDGE_CB(implicit_task);
  if (cb)
    cb(ompt_scope_begin, &team->parallel_data, &task->task_data,
       (unsigned)size, (unsigned)num, ompt_task_implicit);
}

void bridge_parallel_end(POMP_Team_t *storage, const void *codeptr) {
  bridge_thread_t *t = enter_event();
  if (!t)
    return;
  if (t->overflow > 0) {
    t->overflow--;
    return;
  }
  bridge_team_t *team = (bridge_team_t *)storage;
  bridge_task_t *task = bridge_current_task(t);
  if (!task || task->team != team)
    return; /* unmatched end: nothing sensible to report */
  bridge_set_state(t, ompt_state_wait_barrier_implicit_parallel, 0);
  ompt_callback_sync_region_t scb = BRIDGE_CB(sync_region);
  if (scb)
    scb(ompt_sync_region_barrier_implicit_parallel, ompt_scope_begin,
        &team->parallel_data, &task->task_data, codeptr);
  ompt_callback_sync_region_t wcb =
      BRIDGE_CB_AS(sync_region_wait, ompt_callback_sync_region_t);
  if (wcb)
    wcb(ompt_sync_region_barrier_implicit_parallel, ompt_scope_begin,
        &team->parallel_data, &task->task_data, codeptr);
  /* A worker must not look at the team again: once every thread has reached
   * the barrier, the primary thread leaves and the team's storage goes. */
  if (task->thread_num != 0) {
    task->team = NULL;
    task->parent = NULL;
    atomic_signal_fence(memory_order_seq_cst);
    task->parallel_data = NULL;
  }
  t->pending_join = 1;
  t->pending_codeptr = codeptr;
}

void bridge_parallel_exit(POMP_Team_t *storage, const void *codeptr) {
  bridge_thread_t *t = enter_event(); /* delivers the primary's join */
  if (!t)
    return;
  bridge_team_t *team = (bridge_team_t *)storage;
  bridge_task_t *enc = team->encountering;
  if (enc) {
    enc->frame.enter_frame.ptr = NULL;
    enc->frame.enter_frame_flags = 0;
  }
  bridge_set_state(t, working_state(bridge_current_task(t)), 0);
  ompt_callback_parallel_end_t cb = BRIDGE_CB(parallel_end);
  if (cb)
    cb(&team->parallel_data, task_data_of(enc), team->flags, codeptr);
}

void bridge_work(ompt_work_t type, ompt_scope_endpoint_t endpoint,
                 uint64_t count, const void *codeptr) {
  bridge_thread_t *t = enter_event();
  if (!t)
    return;
  ompt_callback_work_t cb = BRIDGE_CB(work);
  if (cb) {
    bridge_task_t *task = bridge_current_task(t);
    cb(type, endpoint, parallel_data_of(task), task_data_of(task), count,
       codeptr);
  }
}

void bridge_dispatch(ompt_dispatch_t kind, ompt_data_t instance) {
  bridge_thread_t *t = enter_event();
  if (!t)
    return;
  ompt_callback_dispatch_t cb = BRIDGE_CB(dispatch);
  if (cb) {
    bridge_task_t *task = bridge_current_task(t);
    cb(parallel_data_of(task), task_data_of(task), kind, instance);
  }
}

void bridge_single_begin(const void *codeptr) {
  bridge_thread_t *t = enter_event();
  bridge_task_t *task = t ? bridge_current_task(t) : NULL;
  if (task)
    task->single_executor = 1;
  bridge_work(ompt_work_single_executor, ompt_scope_begin, 1, codeptr);
}

void bridge_single_end(const void *codeptr) {
  bridge_work(ompt_work_single_executor, ompt_scope_end, 1, codeptr);
}

void bridge_single_exit(const void *codeptr) {
  bridge_thread_t *t = enter_event();
  bridge_task_t *task = t ? bridge_current_task(t) : NULL;
  if (!task)
    return;
  if (task->single_executor) {
    task->single_executor = 0;
    return;
  }
  /* This thread did not execute the block; it learns so only when it leaves
   * the construct. */
  bridge_work(ompt_work_single_other, ompt_scope_begin, 1, codeptr);
  bridge_work(ompt_work_single_other, ompt_scope_end, 1, codeptr);
}

void bridge_masked(ompt_scope_endpoint_t endpoint, const void *codeptr) {
  bridge_thread_t *t = enter_event();
  if (!t)
    return;
  ompt_callback_masked_t cb = BRIDGE_CB(masked);
  if (cb) {
    bridge_task_t *task = bridge_current_task(t);
    cb(endpoint, parallel_data_of(task), task_data_of(task), codeptr);
  }
}

static ompt_state_t barrier_state(ompt_sync_region_t kind) {
  switch (kind) {
  case ompt_sync_region_barrier_implicit_parallel:
    return ompt_state_wait_barrier_implicit_parallel;
  case ompt_sync_region_barrier_implicit_workshare:
    return ompt_state_wait_barrier_implicit_workshare;
  case ompt_sync_region_barrier_explicit:
    return ompt_state_wait_barrier_explicit;
  case ompt_sync_region_taskwait:
    return ompt_state_wait_taskwait;
  case ompt_sync_region_taskgroup:
    return ompt_state_wait_taskgroup;
  default:
    return ompt_state_wait_barrier_implementation;
  }
}

void bridge_sync_enter(ompt_sync_region_t kind, const void *codeptr) {
  bridge_thread_t *t = enter_event();
  if (!t)
    return;
  bridge_task_t *task = bridge_current_task(t);
  bridge_set_state(t, barrier_state(kind), 0);
  ompt_callback_sync_region_t scb = BRIDGE_CB(sync_region);
  if (scb)
    scb(kind, ompt_scope_begin, parallel_data_of(task), task_data_of(task),
        codeptr);
  ompt_callback_sync_region_t wcb =
      BRIDGE_CB_AS(sync_region_wait, ompt_callback_sync_region_t);
  if (wcb)
    wcb(kind, ompt_scope_begin, parallel_data_of(task), task_data_of(task),
        codeptr);
}

void bridge_sync_exit(ompt_sync_region_t kind, const void *codeptr) {
  bridge_thread_t *t = enter_event();
  if (!t)
    return;
  bridge_task_t *task = bridge_current_task(t);
  ompt_callback_sync_region_t wcb =
      BRIDGE_CB_AS(sync_region_wait, ompt_callback_sync_region_t);
  if (wcb)
    wcb(kind, ompt_scope_end, parallel_data_of(task), task_data_of(task),
        codeptr);
  ompt_callback_sync_region_t scb = BRIDGE_CB(sync_region);
  if (scb)
    scb(kind, ompt_scope_end, parallel_data_of(task), task_data_of(task),
        codeptr);
  bridge_set_state(t, working_state(task), 0);
}

static ompt_state_t mutex_state(ompt_mutex_t kind) {
  switch (kind) {
  case ompt_mutex_critical:
    return ompt_state_wait_critical;
  case ompt_mutex_atomic:
    return ompt_state_wait_atomic;
  case ompt_mutex_ordered:
    return ompt_state_wait_ordered;
  case ompt_mutex_lock:
  case ompt_mutex_nest_lock:
  case ompt_mutex_test_lock:
  case ompt_mutex_test_nest_lock:
    return ompt_state_wait_lock;
  default:
    return ompt_state_wait_mutex;
  }
}

void bridge_mutex_acquire(ompt_mutex_t kind, unsigned hint,
                          ompt_wait_id_t wait_id, const void *codeptr) {
  bridge_thread_t *t = enter_event();
  if (!t)
    return;
  bridge_set_state(t, mutex_state(kind), wait_id);
  ompt_callback_mutex_acquire_t cb = BRIDGE_CB(mutex_acquire);
  if (cb)
    cb(kind, hint, 1 /* the runtime's own implementation */, wait_id,
       codeptr);
}

void bridge_mutex_acquired(ompt_mutex_t kind, ompt_wait_id_t wait_id,
                           const void *codeptr) {
  bridge_thread_t *t = enter_event();
  if (!t)
    return;
  bridge_set_state(t, working_state(bridge_current_task(t)), 0);
  ompt_callback_mutex_t cb =
      BRIDGE_CB_AS(mutex_acquired, ompt_callback_mutex_t);
  if (cb)
    cb(kind, wait_id, codeptr);
}

void bridge_mutex_released(ompt_mutex_t kind, ompt_wait_id_t wait_id,
                           const void *codeptr) {
  bridge_thread_t *t = enter_event();
  if (!t)
    return;
  ompt_callback_mutex_t cb =
      BRIDGE_CB_AS(mutex_released, ompt_callback_mutex_t);
  if (cb)
    cb(kind, wait_id, codeptr);
}
