/*
 * bridge_inquiry.c -- the entry points a tool finds through lookup, and the
 * callback tables they fill.
 *
 * Inquiry functions may be called from a signal handler interrupting the
 * thread they ask about (sampling profilers do), so they only read the
 * calling thread's own record and the task records its running task
 * retains, never allocate, never lock, and return "no answer" for a thread
 * that has not been discovered yet.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bridge.h"
#include "bridge_internal.h"
#include "bridge_omp.h"

/* ---- Callback tables ------------------------------------------------------
 */

_Atomic(ompt_callback_t) bridge_registered[BRIDGE_CALLBACK_SLOTS];
_Atomic(ompt_callback_t) bridge_active_cb[BRIDGE_BUCKETS]
                                         [BRIDGE_CALLBACK_SLOTS];
_Atomic(ompt_callback_t) bridge_group_cb[BRIDGE_BUCKETS][BRIDGE_CALLBACK_SLOTS];

#define BUCKET(b) (1u << BRIDGE_B_##b)
#define ALWAYS_ON (BUCKET(ALWAYS) | BUCKET(OTHER))

static atomic_uint buckets_enabled = ~0u;
static pthread_mutex_t tables_lock = PTHREAD_MUTEX_INITIALIZER;

/* POMPT_WORK_LOOP=generic: a loop's work callbacks say ompt_work_loop,
 * the one loop type of OpenMP 5.0 and 5.1, instead of 5.2's type per
 * schedule, which tools written against those versions do not know
 * (Caliper and APEX record such a loop as of an unknown type). */
static int work_loop_generic;
static _Atomic(ompt_callback_work_t) work_next;

static void work_generic(ompt_work_t type, ompt_scope_endpoint_t endpoint,
                         ompt_data_t *parallel_data, ompt_data_t *task_data,
                         uint64_t count, const void *codeptr_ra) {
  ompt_callback_work_t next =
      atomic_load_explicit(&work_next, memory_order_relaxed);
  if (type == ompt_work_loop_static || type == ompt_work_loop_dynamic ||
      type == ompt_work_loop_guided || type == ompt_work_loop_other)
    type = ompt_work_loop;
  if (next)
    next(type, endpoint, parallel_data, task_data, count, codeptr_ra);
}

void bridge_work_loop_setup(void) {
  work_loop_generic =
      bridge_env_choice("POMPT_WORK_LOOP", "schedule", "generic", 0);
  if (work_loop_generic)
    bridge_log("loops are reported as ompt_work_loop, whatever their "
               "schedule (POMPT_WORK_LOOP=generic)");
}

void bridge_tables_update(void) {
  pthread_mutex_lock(&tables_lock);
  unsigned enabled = atomic_load(&buckets_enabled) | ALWAYS_ON;
  int on = bridge_enabled;
  /* What a slot delivers through: the tool's callback, or the counting
   * wrapper while PAPI reads the counters (bridge_sde.c); for work, then
   * through work_generic where loops are to have the one type. */
  ompt_callback_t deliver[BRIDGE_CALLBACK_SLOTS];
  for (int i = 0; i < BRIDGE_CALLBACK_SLOTS; i++)
    deliver[i] = bridge_sde_callback(i, atomic_load(&bridge_registered[i]));
  if (work_loop_generic && deliver[ompt_callback_work]) {
    atomic_store_explicit(&work_next,
                          (ompt_callback_work_t)deliver[ompt_callback_work],
                          memory_order_relaxed);
    deliver[ompt_callback_work] = (ompt_callback_t)work_generic;
  }
  for (int b = 0; b < BRIDGE_BUCKETS; b++)
    for (int i = 0; i < BRIDGE_CALLBACK_SLOTS; i++) {
      ompt_callback_t cb = (enabled & (1u << b)) ? deliver[i] : NULL;
      atomic_store_explicit(&bridge_group_cb[b][i], cb, memory_order_relaxed);
      atomic_store_explicit(&bridge_active_cb[b][i],
                            on || b == BRIDGE_B_ALWAYS ? cb : NULL,
                            memory_order_relaxed);
    }
  bridge_lane_tables();
  pthread_mutex_unlock(&tables_lock);
}

void bridge_set_buckets(uint32_t mask) {
  atomic_store(&buckets_enabled, mask | ALWAYS_ON);
  bridge_tables_update();
}

/* What set_callback answers when every bucket is enabled: the honest
 * answer for what POMP events observe (bridge_callbacks.h). */
static const ompt_set_result_t set_results[BRIDGE_CALLBACK_SLOTS] = {
#define X(name, result) [ompt_callback_##name] = result,
    BRIDGE_CALLBACK_LIST(X)
#undef X
};

/* The buckets each callback is delivered from (callbacks not listed: the
 * events of no POMP group). */
static const unsigned callback_buckets[BRIDGE_CALLBACK_SLOTS] = {
    [ompt_callback_thread_begin] = BUCKET(ALWAYS),
    [ompt_callback_thread_end] = BUCKET(ALWAYS),
    [ompt_callback_control_tool] = BUCKET(ALWAYS),
    [ompt_callback_parallel_begin] = BUCKET(PARALLEL_EE),
    [ompt_callback_parallel_end] = BUCKET(PARALLEL_EE),
    /* the initial task's, and those of parallel regions */
    [ompt_callback_implicit_task] = BUCKET(ALWAYS) | BUCKET(PARALLEL_BE),
    [ompt_callback_work] =
        BUCKET(LOOP_EE) | BUCKET(WORKSHARE_EE) | BUCKET(TASK_EE),
    [ompt_callback_dispatch] = BUCKET(LOOP_CHUNKS) | BUCKET(LOOP_ITER_EVENT) |
                               BUCKET(LOOP_ITER_BE) | BUCKET(WORKSHARE_BE),
    [ompt_callback_sync_region] =
        BUCKET(PARALLEL_BE) | BUCKET(SYNC_EE) | BUCKET(TASK_EE),
    [ompt_callback_sync_region_wait] =
        BUCKET(PARALLEL_BE) | BUCKET(SYNC_EE) | BUCKET(TASK_EE),
    [ompt_callback_masked] = BUCKET(SYNC_BE),
    [ompt_callback_mutex_acquire] = BUCKET(SYNC_EE) | BUCKET(RUNTIME_EE),
    [ompt_callback_mutex_acquired] = BUCKET(SYNC_EE) | BUCKET(RUNTIME_EVENT),
    [ompt_callback_mutex_released] = BUCKET(SYNC_EE) | BUCKET(RUNTIME_EVENT),
    [ompt_callback_flush] = BUCKET(SYNC_EE),
    [ompt_callback_cancel] = BUCKET(SYNC_EE),
    [ompt_callback_reduction] = BUCKET(SYNC_EE),
    [ompt_callback_task_create] = BUCKET(TASK_EE),
    [ompt_callback_dependences] = BUCKET(TASK_EE),
    [ompt_callback_task_dependence] = BUCKET(TASK_EE),
    [ompt_callback_task_schedule] = BUCKET(TASK_BE),
    [ompt_callback_lock_init] = BUCKET(RUNTIME_EVENT),
    [ompt_callback_lock_destroy] = BUCKET(RUNTIME_EVENT),
    [ompt_callback_nest_lock] = BUCKET(RUNTIME_EVENT),
};

/* POMPT_SET_RESULT=always: ompt_set_always in place of every
 * ompt_set_sometimes, for tools that refuse to run with less (OpDiLib
 * exits).  What is delivered does not change; the user asked for the
 * answer, knowing what it hides (doc/ompt-mapping.md, set_callback). */
static int claim_always;

void bridge_set_results_setup(void) {
  claim_always = bridge_env_choice("POMPT_SET_RESULT", "honest", "always", 0);
  if (claim_always)
    bridge_log("set_callback answers ompt_set_always for callbacks delivered "
               "only sometimes (POMPT_SET_RESULT=always)");
}

/* The answer, given the groups the POMP_* variables left enabled: a
 * callback whose every bucket is off is never invoked, one with some off
 * only sometimes. */
static ompt_set_result_t set_result_honest(ompt_callbacks_t which) {
  ompt_set_result_t r = set_results[which];
  if (r <= ompt_set_never)
    return r;
  unsigned mask =
      callback_buckets[which] ? callback_buckets[which] : BUCKET(OTHER);
  unsigned on = mask & (atomic_load(&buckets_enabled) | ALWAYS_ON);
  if (!on)
    return ompt_set_never;
  if (on != mask && r == ompt_set_always)
    return ompt_set_sometimes;
  /* Atomic instructions without them (bridge_atomic.c). */
  if (!bridge_atomic_instructions_seen && r == ompt_set_always &&
      (which == ompt_callback_mutex_acquire ||
       which == ompt_callback_mutex_acquired ||
       which == ompt_callback_mutex_released))
    return ompt_set_sometimes;
  return r;
}

/* What set_callback answers (POMPT_SET_RESULT above). */
static ompt_set_result_t set_result(ompt_callbacks_t which) {
  ompt_set_result_t r = set_result_honest(which);
  return claim_always && r == ompt_set_sometimes ? ompt_set_always : r;
}

static ompt_set_result_t set_callback(ompt_callbacks_t which,
                                      ompt_callback_t cb) {
  if ((int)which <= 0 || which >= BRIDGE_CALLBACK_SLOTS ||
      set_results[which] == ompt_set_error)
    return ompt_set_error;
  ompt_set_result_t r = set_result(which);
  /* A callback that will never be invoked is not kept either. */
  atomic_store_explicit(&bridge_registered[which],
                        r > ompt_set_never ? cb : (ompt_callback_t)0,
                        memory_order_release);
  bridge_tables_update();
  return r;
}

static int get_callback(ompt_callbacks_t which, ompt_callback_t *cb) {
  if ((int)which <= 0 || which >= BRIDGE_CALLBACK_SLOTS || !cb)
    return 0;
  ompt_callback_t f =
      atomic_load_explicit(&bridge_registered[which], memory_order_acquire);
  if (!f)
    return 0;
  *cb = f;
  return 1;
}

/* ---- Thread and task inquiry -----------------------------------------------
 */

static int get_state(ompt_wait_id_t *wait_id) {
  bridge_thread_t *t = bridge_thread_peek();
  if (!t) {
    if (wait_id)
      *wait_id = 0;
    return ompt_state_undefined;
  }
  /* Waiting for a critical region's lock after an inline acquire (pomp.h,
   * POMPT_Critical_wait writes the wait id first). */
  int waiting =
      (int)__atomic_load_n(&POMPT_lane_v2.wait_state, __ATOMIC_RELAXED);
  if (waiting) {
    atomic_signal_fence(memory_order_seq_cst);
    if (wait_id)
      *wait_id = __atomic_load_n(&POMPT_lane_v2.wait_id, __ATOMIC_RELAXED);
    return waiting;
  }
  return bridge_get_state(t, wait_id);
}

static ompt_data_t *get_thread_data(void) {
  bridge_thread_t *t = bridge_thread_peek();
  return t ? &t->thread_data : NULL;
}

static bridge_task_t *current_task(void) {
  bridge_thread_t *t = bridge_thread_peek();
  if (!t)
    return NULL;
  bridge_task_t *task = t->cur;
  atomic_signal_fence(memory_order_seq_cst);
  return task;
}

/* The task at ancestor_level.  The ancestor of an explicit task is the task
 * it suspended on this thread when it began (its scheduling parent), whose
 * frames are the next ones on this thread's stack, as a tool that
 * attributes a sample to a call stack needs them (and as libomp answers):
 * a task may run on another thread than its generating task, or in a
 * barrier of a task that did not generate it.  The ancestor of an
 * implicit task is its region's encountering task, across threads.  Every
 * record on that chain is suspended on this thread, or retained by the one
 * below it, or outlives it by construction: an implicit task, whose region
 * ends after every task it generated, or the encountering task of a region
 * still running.  A worker's implicit task past its region's end names its
 * encountering task only while that record still holds the task
 * (parent_of); records are never returned to the system. */
/* No chain is longer than this; a bound keeps inquiry finite whatever. */
#define CHAIN_MAX 65536

static bridge_task_t *parent_of(bridge_task_t *task) {
  bridge_task_t *parent = task->parent;
  /* A worker past its region's end (no team): its encountering task, the
   * record, while it still holds that task. */
  if (parent && (task->flags & ompt_task_implicit) && !task->team &&
      (bridge_task_gen(parent) != task->parent_gen ||
       __atomic_load_n(&parent->status, __ATOMIC_RELAXED) == BRIDGE_TASK_FREE))
    return NULL;
  return parent;
}

static bridge_task_t *ancestor(bridge_task_t *task) {
  if ((task->flags & ompt_task_explicit) && task->below)
    return task->below;
  return parent_of(task);
}

static bridge_task_t *task_at(int level) {
  if (level < 0 || level > CHAIN_MAX)
    return NULL;
  bridge_task_t *task = current_task();
  while (task && level-- > 0)
    task = ancestor(task);
  return task;
}

static int get_parallel_info(int level, ompt_data_t **parallel_data,
                             int *team_size) {
  if (level < 0 || level > CHAIN_MAX)
    return 0;
  /* The region of a task is the one its implicit (or initial) task belongs
   * to; the next region out is that of the implicit task's encountering
   * task. */
  bridge_task_t *task = current_task();
  int steps = 0;
  for (int i = 0; task && i < level; i++) {
    while (task && !(task->flags & (ompt_task_implicit | ompt_task_initial)))
      task = ++steps < CHAIN_MAX ? task->parent : NULL;
    if (!task || (task->flags & ompt_task_initial))
      return 0; /* the initial region is the outermost */
    task = parent_of(task);
  }
  if (!task)
    return 0;
  ompt_data_t *pd = task->parallel_data;
  if (!pd)
    return 0;
  if (parallel_data)
    *parallel_data = pd;
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
  if (flags) {
    /* An implicit task is undeferred: its encountering task waits for the
     * region to end (the flags libomp answers as well). */
    *flags = task->flags & ompt_task_implicit
                 ? task->flags | ompt_task_undeferred
                 : task->flags;
  }
  if (task_data)
    *task_data = &task->task_data;
  if (task_frame)
    *task_frame = &task->frame;
  if (parallel_data) {
    /* An implicit task whose region's storage is gone (a worker that left a
     * cancelled region, its end barrier delivered late) still belongs to
     * that region: answer the copy its barrier callbacks were given, never
     * NULL, which tools dereference. */
    ompt_data_t *pd = task->parallel_data;
    if (!pd && (task->flags & ompt_task_implicit))
      pd = &task->parallel_data_seen;
    *parallel_data = pd;
  }
  if (thread_num)
    *thread_num = task->thread_num;
  return 2;
}

/* The data environment of the running task, as far as libpompt sees it:
 * for an explicit task that its trampoline runs (a task or a taskloop's
 * task with libgomp's entries interposed), the block libgomp runs it with,
 * which holds its firstprivate copies and the addresses of its shared
 * variables; one block, so the answer is 0 (no further block).  Its
 * private variables live in the outlined function's frame, on the stack.
 * An implicit or initial task has no block: size 0. */
static int get_task_memory(void **addr, size_t *size, int block) {
  bridge_task_t *task = current_task();
  void *mem = NULL;
  size_t n = 0;
  if (block == 0 && task && (task->flags & ompt_task_explicit)) {
    mem = task->mem;
    n = mem ? task->mem_size : 0;
  }
  if (addr)
    *addr = mem;
  if (size)
    *size = n;
  return 0;
}

/* Unique ids: each thread numbers its own, under a prefix of its own in
 * the top 16 bits (threads 1 to 65535), so that tools calling
 * ompt_get_unique_id in every callback (as many do) share no cache line;
 * the shared counter, under prefix 0, serves the threads beyond.  An
 * atomic add on the thread's counter is one instruction, which a signal
 * handler on the same thread cannot split: the entry point stays
 * async-signal-safe.  The ids of a thread's first calls read as decimal
 * numbers in hex, as libomp's (the same scheme) do. */
#define ID_THREAD_SHIFT 48
#define ID_THREADS ((uint64_t)1 << (64 - ID_THREAD_SHIFT))
static _Atomic uint64_t next_id = 1;
static _Atomic uint64_t next_id_thread = 1;
static __thread _Atomic uint64_t thread_id_next
    __attribute__((tls_model("initial-exec")));

static __attribute__((noinline)) uint64_t unique_id_first(void) {
  uint64_t t =
      atomic_fetch_add_explicit(&next_id_thread, 1, memory_order_relaxed);
  if (t >= ID_THREADS) /* prefixes used up: the shared counter */
    return atomic_fetch_add_explicit(&next_id, 1, memory_order_relaxed);
  uint64_t base = t << ID_THREAD_SHIFT;
  /* Set unless a signal handler's call on this thread came first (its
   * prefix then stays, this one goes unused). */
  uint64_t none = 0;
  atomic_compare_exchange_strong(&thread_id_next, &none, base + 1);
  return atomic_fetch_add_explicit(&thread_id_next, 1, memory_order_relaxed);
}

uint64_t bridge_unique_id(void) {
  uint64_t v = atomic_load_explicit(&thread_id_next, memory_order_relaxed);
  if (__builtin_expect(v == 0, 0))
    return unique_id_first();
  return atomic_fetch_add_explicit(&thread_id_next, 1, memory_order_relaxed);
}

static uint64_t get_unique_id(void) {
  return bridge_unique_id();
}

/* ---- Processors and places --------------------------------------------------
 * Asked of the OpenMP runtime where it knows (libgomp, the stubs), through
 * weak references; those routines only read the runtime's place tables. */

static atomic_int num_procs;

static int get_num_procs(void) {
  int n = atomic_load_explicit(&num_procs, memory_order_relaxed);
  if (n > 0)
    return n;
  n = omp_get_num_procs ? omp_get_num_procs() : 0;
  if (n <= 0) {
    long s = sysconf(_SC_NPROCESSORS_ONLN);
    n = s > 0 ? (int)s : 1;
  }
  atomic_store_explicit(&num_procs, n, memory_order_relaxed);
  return n;
}

/* Called at activation, so that inquiry never has to ask the system. */
void bridge_inquiry_init(void) {
  (void)get_num_procs();
}

static int get_num_places(void) {
  int n = omp_get_num_places ? omp_get_num_places() : 0;
  return n > 0 ? n : 0;
}

static int get_place_proc_ids(int place_num, int ids_size, int *ids) {
  if (place_num < 0 || place_num >= get_num_places() ||
      !omp_get_place_num_procs)
    return 0;
  int n = omp_get_place_num_procs(place_num);
  if (n > 0 && ids && ids_size >= n && omp_get_place_proc_ids)
    omp_get_place_proc_ids(place_num, ids);
  return n > 0 ? n : 0;
}

static int get_place_num(void) {
  if (get_num_places() == 0 || !omp_get_place_num)
    return -1;
  return omp_get_place_num();
}

static int get_partition_place_nums(int place_nums_size, int *place_nums) {
  if (get_num_places() == 0 || !omp_get_partition_num_places)
    return 0;
  int n = omp_get_partition_num_places();
  if (n > 0 && place_nums && place_nums_size >= n &&
      omp_get_partition_place_nums)
    omp_get_partition_place_nums(place_nums);
  return n > 0 ? n : 0;
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

#include "bridge_target.h"

/* Offload devices the OpenMP runtime reports (doc/target.md). */
static int get_num_devices(void) {
  return bridge_num_devices();
}

/* The target construct the calling thread is executing (bridge_target.c);
 * async-signal-safe. */
static int get_target_info(uint64_t *device_num, ompt_id_t *target_id,
                           ompt_id_t *host_op_id) {
  return bridge_target_info(device_num, target_id, host_op_id);
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

#define BRIDGE_EXTRA_ENTRIES 4
static struct {
  const char *name;
  ompt_interface_fn_t fn;
} extra_entries[BRIDGE_EXTRA_ENTRIES];

void bridge_register_entry(const char *name, ompt_interface_fn_t fn) {
  for (int i = 0; i < BRIDGE_EXTRA_ENTRIES; i++)
    if (!extra_entries[i].name) {
      extra_entries[i].name = name;
      extra_entries[i].fn = fn;
      return;
    }
}

ompt_interface_fn_t bridge_lookup(const char *name) {
  if (!name)
    return NULL;
  for (int i = 0; i < BRIDGE_EXTRA_ENTRIES && extra_entries[i].name; i++)
    if (!strcmp(name, extra_entries[i].name))
      return extra_entries[i].fn;
#define X(entry, fn)                                                           \
  {                                                                            \
    entry##_t checked = fn; /* the signature must match the header's */        \
    if (!strcmp(name, #entry))                                                 \
      return (ompt_interface_fn_t)checked;                                     \
  }
  BRIDGE_ENTRY_LIST(X)
#undef X
  return NULL;
}
