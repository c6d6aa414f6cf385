/*
 * ompt_check_tool.c -- an OMPT tool for tests: it checks the rules a tool
 * relies on while the program runs, and prints counts at the end.
 *
 * Checked on every callback (a violation prints "check: ERROR ..." and makes
 * finalize exit with status 3):
 *  - thread_begin is the first callback on every thread, thread_end the last;
 *  - scoped callbacks (implicit_task, work, masked, sync_region,
 *    sync_region_wait, mutex acquire/release) nest properly per thread;
 *  - implicit_task begin: the parallel and task data passed are the ones that
 *    ompt_get_parallel_info(0) / ompt_get_task_info(0) return, and the index
 *    is the thread number get_task_info reports;
 *  - work/masked/sync begin: get_task_info(0)'s task data is the callback's;
 *  - get_state agrees with what the thread is doing (waiting in a barrier
 *    during a barrier, waiting for a critical between acquire and acquired);
 *  - parallel_begin/end pair on the encountering thread;
 *  - codeptr_ra points into the program's code, never into the OpenMP
 *    runtime or libpompt (which would mean a tail call or a wrong frame);
 * At finalize it prints one line "check: counts k=v ..." with a count per
 * callback kind (work and sync split by type) for the test to compare.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <omp-tools.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static ompt_get_parallel_info_t get_parallel_info;
static ompt_get_task_info_t get_task_info;
static ompt_get_state_t get_state;
static ompt_get_unique_id_t get_unique_id;
static ompt_get_thread_data_t get_thread_data;
static atomic_int errors;

#define COUNTER_LIST(X)                                                        \
  X(thread_begin)                                                              \
  X(thread_end)                                                                \
  X(parallel_begin)                                                            \
  X(parallel_end)                                                              \
  X(implicit_task_begin)                                                       \
  X(implicit_task_end)                                                         \
  X(initial_task_begin)                                                        \
  X(initial_task_end)                                                          \
  X(work_loop)                                                                 \
  X(work_sections)                                                             \
  X(work_single_executor)                                                      \
  X(work_single_other)                                                         \
  X(dispatch_section)                                                          \
  X(masked)                                                                    \
  X(barrier_explicit)                                                          \
  X(barrier_implicit_workshare)                                                \
  X(barrier_implicit_parallel)                                                 \
  X(sync_wait)                                                                 \
  X(mutex_acquire)                                                             \
  X(mutex_acquired)                                                            \
  X(mutex_released)

enum counter {
#define X(n) C_##n,
  COUNTER_LIST(X)
#undef X
      C_COUNT
};
static const char *const counter_names[] = {
#define X(n) #n,
    COUNTER_LIST(X)
#undef X
};
static atomic_long counts[C_COUNT];

static void error(const char *fmt, ...) {
  char buf[512];
  va_list ap;
  va_start(ap, fmt);
  int n = snprintf(buf, sizeof buf, "check: ERROR ");
  n += vsnprintf(buf + n, sizeof buf - (size_t)n, fmt, ap);
  va_end(ap);
  if (n > (int)sizeof buf - 2)
    n = (int)sizeof buf - 2;
  buf[n++] = '\n';
  (void)!write(2, buf, (size_t)n);
  atomic_fetch_add(&errors, 1);
}

/* Per-thread scope stack. */
enum scope { S_IMPLICIT, S_WORK, S_MASKED, S_SYNC, S_SYNC_WAIT, S_MUTEX };
static const char *const scope_names[] = {"implicit_task", "work", "masked",
                                          "sync_region", "sync_region_wait",
                                          "mutex"};
struct frame {
  enum scope scope;
  uint64_t key;
};
static __thread struct frame stack[256];
static __thread int depth;
static __thread int began, ended;

static void on_thread(const char *what) {
  if (!began)
    error("%s before thread_begin on this thread", what);
  if (ended)
    error("%s after thread_end on this thread", what);
}

static void push(enum scope s, uint64_t key) {
  if (depth < 256)
    stack[depth] = (struct frame){s, key};
  depth++;
}

static void pop(enum scope s, uint64_t key) {
  if (depth == 0) {
    error("%s end with nothing open", scope_names[s]);
    return;
  }
  depth--;
  if (depth < 256 && (stack[depth].scope != s || stack[depth].key != key))
    error("%s end (key %lu) closes %s (key %lu)", scope_names[s],
          (unsigned long)key, scope_names[stack[depth].scope],
          (unsigned long)stack[depth].key);
}

static void check_codeptr(const char *what, const void *codeptr) {
  Dl_info info;
  if (!codeptr) {
    error("%s without codeptr_ra", what);
    return;
  }
  if (!dladdr(codeptr, &info) || !info.dli_fname) {
    error("%s: codeptr_ra %p is in no loaded object", what, codeptr);
    return;
  }
  if (strstr(info.dli_fname, "libgomp") || strstr(info.dli_fname, "libpompt"))
    error("%s: codeptr_ra %p is inside %s, not the program", what, codeptr,
          info.dli_fname);
}

static uint64_t id_of(ompt_data_t *d) {
  if (!d)
    return 0;
  if (d->value == 0)
    d->value = get_unique_id();
  return d->value;
}

static void check_task(const char *what, ompt_data_t *task) {
  ompt_data_t *t = NULL;
  int flags = 0, num = -1;
  if (!get_task_info(0, &flags, &t, NULL, NULL, &num))
    error("%s: get_task_info(0) has no task", what);
  else if (t != task)
    error("%s: task data %p but get_task_info(0) says %p", what, (void *)task,
          (void *)t);
}

static void on_thread_begin(ompt_thread_t type, ompt_data_t *thread) {
  atomic_fetch_add(&counts[C_thread_begin], 1);
  if (began)
    error("second thread_begin on one thread");
  began = 1;
  if (thread->value)
    error("thread data not zero at thread_begin");
  id_of(thread);
  if (get_thread_data() != thread)
    error("get_thread_data() is not the thread_begin data");
  (void)type;
}

static void on_thread_end(ompt_data_t *thread) {
  atomic_fetch_add(&counts[C_thread_end], 1);
  (void)thread;
}

static void on_parallel_begin(ompt_data_t *task, const ompt_frame_t *frame,
                              ompt_data_t *parallel, unsigned requested,
                              int flags, const void *codeptr) {
  on_thread("parallel_begin");
  atomic_fetch_add(&counts[C_parallel_begin], 1);
  if (parallel->value)
    error("parallel data not zero at parallel_begin");
  id_of(parallel);
  if (requested < 1)
    error("requested parallelism %u", requested);
  check_codeptr("parallel_begin", codeptr);
  if (!(flags & ompt_parallel_team))
    error("parallel_begin flags 0x%x lack ompt_parallel_team", flags);
  if (!frame || !frame->enter_frame.ptr)
    error("parallel_begin: encountering task frame has no enter_frame");
  check_task("parallel_begin", task);
}

static void on_parallel_end(ompt_data_t *parallel, ompt_data_t *task,
                            int flags, const void *codeptr) {
  on_thread("parallel_end");
  atomic_fetch_add(&counts[C_parallel_end], 1);
  if (!parallel->value)
    error("parallel_end for a region never begun");
  check_task("parallel_end", task);
  check_codeptr("parallel_end", codeptr);
  (void)flags;
}

static void on_implicit_task(ompt_scope_endpoint_t ep, ompt_data_t *parallel,
                             ompt_data_t *task, unsigned actual,
                             unsigned index, int flags) {
  on_thread("implicit_task");
  int initial = (flags & ompt_task_initial) != 0;
  if (ep == ompt_scope_begin) {
    atomic_fetch_add(&counts[initial ? C_initial_task_begin
                                     : C_implicit_task_begin],
                     1);
    if (task->value)
      error("task data not zero at implicit_task begin");
    id_of(task);
    ompt_data_t *p = NULL, *t = NULL;
    int size = 0, num = -1, tflags = 0;
    if (!get_parallel_info(0, &p, &size))
      error("implicit_task begin: get_parallel_info(0) has no region");
    else if (p != parallel)
      error("implicit_task begin: parallel %p, get_parallel_info says %p",
            (void *)parallel, (void *)p);
    else if ((unsigned)size != actual)
      error("implicit_task begin: actual %u, team_size %d", actual, size);
    if (!get_task_info(0, &tflags, &t, NULL, NULL, &num) || t != task)
      error("implicit_task begin: get_task_info(0) is not this task");
    else if (!initial && (unsigned)num != index)
      error("implicit_task begin: index %u, thread_num %d", index, num);
    if (!initial && index >= actual)
      error("implicit_task begin: index %u >= actual %u", index, actual);
    push(S_IMPLICIT, task->value);
  } else {
    atomic_fetch_add(&counts[initial ? C_initial_task_end
                                     : C_implicit_task_end],
                     1);
    pop(S_IMPLICIT, task->value);
  }
}

static void on_work(ompt_work_t type, ompt_scope_endpoint_t ep,
                    ompt_data_t *parallel, ompt_data_t *task, uint64_t count,
                    const void *codeptr) {
  on_thread("work");
  if (ep == ompt_scope_begin) {
    enum counter c = C_work_loop;
    switch (type) {
    case ompt_work_sections:
      c = C_work_sections;
      break;
    case ompt_work_single_executor:
      c = C_work_single_executor;
      break;
    case ompt_work_single_other:
      c = C_work_single_other;
      break;
    default:
      break;
    }
    atomic_fetch_add(&counts[c], 1);
    check_task("work begin", task);
    push(S_WORK, (uint64_t)type);
  } else {
    pop(S_WORK, (uint64_t)type);
  }
  check_codeptr("work", codeptr);
  (void)parallel, (void)count;
}

static void on_dispatch(ompt_data_t *parallel, ompt_data_t *task,
                        ompt_dispatch_t kind, ompt_data_t instance) {
  on_thread("dispatch");
  if (kind == ompt_dispatch_section)
    atomic_fetch_add(&counts[C_dispatch_section], 1);
  (void)parallel, (void)task, (void)instance;
}

static void on_masked(ompt_scope_endpoint_t ep, ompt_data_t *parallel,
                      ompt_data_t *task, const void *codeptr) {
  on_thread("masked");
  if (ep == ompt_scope_begin) {
    atomic_fetch_add(&counts[C_masked], 1);
    check_task("masked begin", task);
    push(S_MASKED, 0);
  } else {
    pop(S_MASKED, 0);
  }
  check_codeptr("masked", codeptr);
  (void)parallel;
}

static int barrier_state_for(ompt_sync_region_t kind) {
  switch (kind) {
  case ompt_sync_region_barrier_explicit:
    return ompt_state_wait_barrier_explicit;
  case ompt_sync_region_barrier_implicit_workshare:
    return ompt_state_wait_barrier_implicit_workshare;
  case ompt_sync_region_barrier_implicit_parallel:
    return ompt_state_wait_barrier_implicit_parallel;
  default:
    return -1;
  }
}

static void on_sync_region(ompt_sync_region_t kind, ompt_scope_endpoint_t ep,
                           ompt_data_t *parallel, ompt_data_t *task,
                           const void *codeptr) {
  on_thread("sync_region");
  if (ep == ompt_scope_begin) {
    enum counter c = kind == ompt_sync_region_barrier_explicit
                         ? C_barrier_explicit
                     : kind == ompt_sync_region_barrier_implicit_workshare
                         ? C_barrier_implicit_workshare
                         : C_barrier_implicit_parallel;
    atomic_fetch_add(&counts[c], 1);
    check_task("sync_region begin", task);
    int want = barrier_state_for(kind);
    ompt_wait_id_t w;
    if (want >= 0 && get_state(&w) != want)
      error("sync_region begin kind %d: state 0x%x, expected 0x%x", kind,
            get_state(&w), want);
    push(S_SYNC, (uint64_t)kind);
  } else {
    pop(S_SYNC, (uint64_t)kind);
  }
  check_codeptr("sync_region", codeptr);
  (void)parallel;
}

static void on_sync_region_wait(ompt_sync_region_t kind,
                                ompt_scope_endpoint_t ep,
                                ompt_data_t *parallel, ompt_data_t *task,
                                const void *codeptr) {
  on_thread("sync_region_wait");
  if (ep == ompt_scope_begin) {
    atomic_fetch_add(&counts[C_sync_wait], 1);
    push(S_SYNC_WAIT, (uint64_t)kind);
  } else {
    pop(S_SYNC_WAIT, (uint64_t)kind);
  }
  (void)parallel, (void)task, (void)codeptr;
}

static void on_mutex_acquire(ompt_mutex_t kind, unsigned hint, unsigned impl,
                             ompt_wait_id_t wait_id, const void *codeptr) {
  on_thread("mutex_acquire");
  atomic_fetch_add(&counts[C_mutex_acquire], 1);
  ompt_wait_id_t w = 0;
  int s = get_state(&w);
  if (kind == ompt_mutex_critical &&
      (s != ompt_state_wait_critical || w != wait_id))
    error("mutex_acquire: state 0x%x wait id %lx, expected wait_critical %lx",
          s, (unsigned long)w, (unsigned long)wait_id);
  push(S_MUTEX, wait_id);
  check_codeptr("mutex_acquire", codeptr);
  (void)hint, (void)impl;
}

static void on_mutex_acquired(ompt_mutex_t kind, ompt_wait_id_t wait_id,
                              const void *codeptr) {
  on_thread("mutex_acquired");
  atomic_fetch_add(&counts[C_mutex_acquired], 1);
  if (depth == 0 || stack[depth - 1].scope != S_MUTEX ||
      stack[depth - 1].key != wait_id)
    error("mutex_acquired without mutex_acquire");
  (void)kind, (void)codeptr;
}

static void on_mutex_released(ompt_mutex_t kind, ompt_wait_id_t wait_id,
                              const void *codeptr) {
  on_thread("mutex_released");
  atomic_fetch_add(&counts[C_mutex_released], 1);
  pop(S_MUTEX, wait_id);
  check_codeptr("mutex_released", codeptr);
  (void)kind;
}

static int initialize(ompt_function_lookup_t lookup, int device,
                      ompt_data_t *data) {
  (void)device, (void)data;
  ompt_set_callback_t set = (ompt_set_callback_t)lookup("ompt_set_callback");
  get_parallel_info = (ompt_get_parallel_info_t)lookup("ompt_get_parallel_info");
  get_task_info = (ompt_get_task_info_t)lookup("ompt_get_task_info");
  get_state = (ompt_get_state_t)lookup("ompt_get_state");
  get_unique_id = (ompt_get_unique_id_t)lookup("ompt_get_unique_id");
  get_thread_data = (ompt_get_thread_data_t)lookup("ompt_get_thread_data");
  if (!set || !get_parallel_info || !get_task_info || !get_state ||
      !get_unique_id || !get_thread_data) {
    error("lookup failed for a required entry point");
    return 0;
  }
#define REG(event, fn)                                                         \
  if (set(ompt_callback_##event, (ompt_callback_t)fn) != ompt_set_always)     \
    error("set_callback(" #event ") is not ompt_set_always");
  REG(thread_begin, on_thread_begin)
  REG(thread_end, on_thread_end)
  REG(parallel_begin, on_parallel_begin)
  REG(parallel_end, on_parallel_end)
  REG(implicit_task, on_implicit_task)
  REG(work, on_work)
  REG(dispatch, on_dispatch)
  REG(masked, on_masked)
  REG(sync_region, on_sync_region)
  REG(sync_region_wait, on_sync_region_wait)
  REG(mutex_acquire, on_mutex_acquire)
  REG(mutex_acquired, on_mutex_acquired)
  REG(mutex_released, on_mutex_released)
#undef REG
  return 1;
}

static void finalize(ompt_data_t *data) {
  (void)data;
  if (atomic_load(&counts[C_thread_begin]) != atomic_load(&counts[C_thread_end]))
    error("%ld thread_begin but %ld thread_end",
          atomic_load(&counts[C_thread_begin]),
          atomic_load(&counts[C_thread_end]));
  char line[2048];
  int n = snprintf(line, sizeof line, "check: counts");
  for (int i = 0; i < C_COUNT; i++)
    n += snprintf(line + n, sizeof line - (size_t)n, " %s=%ld",
                  counter_names[i], atomic_load(&counts[i]));
  n += snprintf(line + n, sizeof line - (size_t)n, "\n");
  (void)!write(2, line, (size_t)n);
  if (atomic_load(&errors)) {
    fprintf(stderr, "check: %d error(s)\n", atomic_load(&errors));
    _exit(3);
  }
  (void)!write(2, "check: ok\n", 10);
}

ompt_start_tool_result_t *ompt_start_tool(unsigned omp_version,
                                          const char *runtime_version) {
  static ompt_start_tool_result_t result = {initialize, finalize, {0}};
  (void)omp_version, (void)runtime_version;
  return &result;
}
