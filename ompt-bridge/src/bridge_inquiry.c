/*
 * bridge_inquiry.c -- the entry points a tool finds through lookup, and the
 * callback table they fill.
 *
 * Inquiry functions may be called from a signal handler interrupting the
 * thread they ask about (sampling profilers do), so they only read the
 * calling thread's own record, never allocate, never lock, and return "no
 * answer" for a thread that has not been discovered yet.
 */
#define _GNU_SOURCE
#include <sched.h>
#include <string.h>
#include <unistd.h>

#include "bridge.h"
#include "bridge_internal.h"

_Atomic(ompt_callback_t) bridge_callbacks[BRIDGE_CALLBACK_SLOTS];

static const ompt_set_result_t set_results[BRIDGE_CALLBACK_SLOTS] = {
#define X(name, result) [ompt_callback_##name] = result,
    BRIDGE_CALLBACK_LIST(X)
#undef X
};

static ompt_set_result_t set_callback(ompt_callbacks_t which,
                                      ompt_callback_t cb) {
  if ((int)which <= 0 || which >= BRIDGE_CALLBACK_SLOTS ||
      set_results[which] == ompt_set_error)
    return ompt_set_error;
  /* A callback that will never be invoked is not kept either. */
  if (set_results[which] > ompt_set_never)
    atomic_store_explicit(&bridge_callbacks[which], cb, memory_order_release);
  return set_results[which];
}

static int get_callback(ompt_callbacks_t which, ompt_callback_t *cb) {
  if ((int)which <= 0 || which >= BRIDGE_CALLBACK_SLOTS || !cb)
    return 0;
  ompt_callback_t f = bridge_cb(which);
  if (!f)
    return 0;
  *cb = f;
  return 1;
}

static int get_state(ompt_wait_id_t *wait_id) {
  bridge_thread_t *t = bridge_thread_peek();
  if (!t)
    return ompt_state_undefined;
  int s = t->state;
  atomic_signal_fence(memory_order_seq_cst);
  if (wait_id)
    *wait_id = t->wait_id;
  return s;
}

static ompt_data_t *get_thread_data(void) {
  bridge_thread_t *t = bridge_thread_peek();
  return t ? &t->thread_data : NULL;
}

/* The task at ancestor_level, following parents across threads. */
static bridge_task_t *task_at(int level) {
  bridge_thread_t *t = bridge_thread_peek();
  if (!t || level < 0)
    return NULL;
  int depth = t->depth;
  atomic_signal_fence(memory_order_seq_cst);
  if (depth <= 0)
    return NULL;
  bridge_task_t *task = &t->tasks[depth - 1];
  while (task && level-- > 0)
    task = task->parent;
  return task;
}

static int get_parallel_info(int level, ompt_data_t **parallel_data,
                             int *team_size) {
  /* Parallel regions are counted over the implicit tasks' chain: each
   * implicit task belongs to exactly one region. */
  bridge_task_t *task = task_at(level);
  if (!task || !task->parallel_data)
    return 0;
  if (parallel_data)
    *parallel_data = task->parallel_data;
  if (team_size)
    *team_size = task->team_size;
  return 2;
}

static int get_task_info(int level, int *flags, ompt_data_t **task_data,
                         ompt_frame_t **task_frame, ompt_data_t **parallel_data,
                         int *thread_num) {
  bridge_task_t *task = task_at(level);
  if (!task)
    return 0;
  if (flags)
    *flags = task->flags;
  if (task_data)
    *task_data = &task->task_data;
  if (task_frame)
    *task_frame = &task->frame;
  if (parallel_data)
    *parallel_data = task->parallel_data;
  if (thread_num)
    *thread_num = task->thread_num;
  return 2;
}

static int get_task_memory(void **addr, size_t *size, int block) {
  (void)block;
  if (addr)
    *addr = NULL;
  if (size)
    *size = 0;
  return 0;
}

static _Atomic uint64_t next_id = 1;

uint64_t bridge_unique_id(void) {
  return atomic_fetch_add_explicit(&next_id, 1, memory_order_relaxed);
}

static uint64_t get_unique_id(void) {
  return bridge_unique_id();
}

static int get_num_procs(void) {
  long n = sysconf(_SC_NPROCESSORS_ONLN);
  return n > 0 ? (int)n : 1;
}

static int get_num_places(void) {
  return 0;
}

static int get_place_proc_ids(int place_num, int ids_size, int *ids) {
  (void)place_num, (void)ids_size, (void)ids;
  return 0;
}

static int get_place_num(void) {
  return -1;
}

static int get_partition_place_nums(int place_nums_size, int *place_nums) {
  (void)place_nums_size, (void)place_nums;
  return 0;
}

static int get_proc_id(void) {
  return sched_getcpu();
}

/* States in the order enumerate_states walks them. */
#define BRIDGE_STATE_LIST(X)                                                   \
  X(ompt_state_work_serial)                                                    \
  X(ompt_state_work_parallel)                                                  \
  X(ompt_state_work_reduction)                                                 \
  X(ompt_state_wait_barrier_implicit_parallel)                                 \
  X(ompt_state_wait_barrier_implicit_workshare)                                \
  X(ompt_state_wait_barrier_explicit)                                          \
  X(ompt_state_wait_barrier_implementation)                                    \
  X(ompt_state_wait_barrier_teams)                                             \
  X(ompt_state_wait_taskwait)                                                  \
  X(ompt_state_wait_taskgroup)                                                 \
  X(ompt_state_wait_mutex)                                                     \
  X(ompt_state_wait_lock)                                                      \
  X(ompt_state_wait_critical)                                                  \
  X(ompt_state_wait_atomic)                                                    \
  X(ompt_state_wait_ordered)                                                   \
  X(ompt_state_wait_target)                                                    \
  X(ompt_state_wait_target_map)                                                \
  X(ompt_state_wait_target_update)                                             \
  X(ompt_state_idle)                                                           \
  X(ompt_state_overhead)

static const struct {
  int value;
  const char *name;
} states[] = {
#define X(s) {s, #s},
    BRIDGE_STATE_LIST(X)
#undef X
};

static int enumerate_states(int current, int *next, const char **name) {
  const size_t n = sizeof states / sizeof states[0];
  size_t i = 0;
  /* Passing ompt_state_undefined starts the walk. */
  if (current != ompt_state_undefined) {
    while (i < n && states[i].value != current)
      i++;
    if (i++ == n)
      return 0;
  }
  if (i >= n || !next)
    return 0;
  *next = states[i].value;
  if (name)
    *name = states[i].name;
  return 1;
}

static int enumerate_mutex_impls(int current, int *next, const char **name) {
  /* One implementation: whatever the OpenMP runtime uses. */
  if (current != ompt_mutex_impl_none || !next)
    return 0;
  *next = 1;
  if (name)
    *name = "openmp-runtime";
  return 1;
}

static void finalize_tool(void) {
  bridge_finalize();
}

extern int omp_get_num_devices(void) __attribute__((weak));

static int get_num_devices(void) {
  return omp_get_num_devices ? omp_get_num_devices() : 0;
}

static int get_target_info(uint64_t *device_num, ompt_id_t *target_id,
                           ompt_id_t *host_op_id) {
  (void)device_num, (void)target_id, (void)host_op_id;
  return 0;
}

#define BRIDGE_ENTRY_LIST(X)                                                   \
  X(ompt_set_callback, set_callback)                                           \
  X(ompt_get_callback, get_callback)                                           \
  X(ompt_get_state, get_state)                                                 \
  X(ompt_get_parallel_info, get_parallel_info)                                 \
  X(ompt_get_task_info, get_task_info)                                         \
  X(ompt_get_task_memory, get_task_memory)                                     \
  X(ompt_get_thread_data, get_thread_data)                                     \
  X(ompt_get_unique_id, get_unique_id)                                         \
  X(ompt_finalize_tool, finalize_tool)                                         \
  X(ompt_get_num_procs, get_num_procs)                                         \
  X(ompt_get_num_places, get_num_places)                                       \
  X(ompt_get_place_proc_ids, get_place_proc_ids)                               \
  X(ompt_get_place_num, get_place_num)                                         \
  X(ompt_get_partition_place_nums, get_partition_place_nums)                   \
  X(ompt_get_proc_id, get_proc_id)                                             \
  X(ompt_enumerate_states, enumerate_states)                                   \
  X(ompt_enumerate_mutex_impls, enumerate_mutex_impls)                         \
  X(ompt_get_target_info, get_target_info)                                     \
  X(ompt_get_num_devices, get_num_devices)

ompt_interface_fn_t bridge_lookup(const char *name) {
  if (!name)
    return NULL;
#define X(entry, fn)                                                           \
  {                                                                            \
    entry##_t checked = fn; /* the signature must match the header's */       \
    if (!strcmp(name, #entry))                                                 \
      return (ompt_interface_fn_t)checked;                                     \
  }
  BRIDGE_ENTRY_LIST(X)
#undef X
  return NULL;
}
