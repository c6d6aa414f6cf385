/*
 * diff_tool.c -- the OMPT tool of the differential tests: the same program
 * runs under it once on LLVM's libomp (native OMPT) and once built with
 * pomp-cc gcc on libpompt, and diff_run.py compares what it saw.
 *
 * It uses nothing but <omp-tools.h> and behaves the same on any runtime.
 * Counts are normalised where OpenMP 5.2 lets runtimes differ (doc/compat.md):
 * every loop work type counts as "work_loop"; the deprecated
 * barrier_implicit kind and barrier_implicit_workshare / _parallel count as
 * "barrier_implicit"; implicit-task callbacks are split by the
 * ompt_task_initial flag.
 *
 * Ordering invariants checked while the program runs (a violation prints
 * "diff: ERROR ..." and makes the tool report failure at finalize):
 *  - thread_begin is a thread's first callback, thread_end its last;
 *  - scoped callbacks (implicit_task, work, masked, sync_region,
 *    sync_region_wait, reduction, mutex acquire -> acquired -> released)
 *    nest properly on each thread, ends matching begins in kind;
 *  - sync_region_wait lies inside a sync_region of the same kind;
 *  - parallel_begin and parallel_end pair on the encountering thread, and
 *    the parallel region's parallel_data is the one given at parallel_begin;
 *  - each implicit task of a region names the region's parallel data, an
 *    index below the team size and the same team size as its team mates;
 *    by parallel_end exactly team-size implicit tasks have begun;
 *  - masked regions run on the thread of index 0;
 *  - single_executor: one per single construct and team (by counts);
 *  - explicit tasks: task_schedule switches to a task that was created,
 *    and each created task completes once; while a switch is delivered,
 *    ompt_get_task_info(0) is the new task (which ancestor level 1 is
 *    differs: libomp 14 answers the generating task for some tasks and the
 *    suspended one for others; libpompt the suspended one, whose frames are
 *    the next on the thread's stack, doc/ompt-mapping.md);
 *  - in the end barrier of a parallel region (barrier_implicit_parallel)
 *    a thread waits with no frame of its implicit task: exit_frame and
 *    enter_frame are NULL once its code has returned (libomp 14 gives that
 *    barrier the deprecated barrier_implicit kind, as its worksharing
 *    barriers, so only libpompt's run is checked).
 *
 * At finalize: "diff: counts k=v ..." and "diff: ok" (or "diff: FAILED").
 */
#include <omp-tools.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define COUNTERS(X)                                                            \
  X(thread_begin_initial)                                                      \
  X(thread_begin_worker)                                                       \
  X(thread_end)                                                                \
  X(parallel_begin)                                                            \
  X(parallel_end)                                                              \
  X(parallel_serialized)                                                       \
  X(implicit_task_begin)                                                       \
  X(implicit_task_end)                                                         \
  X(initial_task_begin)                                                        \
  X(initial_task_end)                                                          \
  X(work_loop)                                                                 \
  X(work_sections)                                                             \
  X(work_single_executor)                                                      \
  X(work_single_other)                                                         \
  X(work_workshare)                                                            \
  X(work_other)                                                                \
  X(dispatch_iteration)                                                        \
  X(dispatch_chunk)                                                            \
  X(dispatch_section)                                                          \
  X(masked)                                                                    \
  X(barrier_explicit)                                                          \
  X(barrier_implicit)                                                          \
  X(barrier_implicit_serialized)                                               \
  X(barrier_implementation)                                                    \
  X(barrier_teams)                                                             \
  X(taskwait)                                                                  \
  X(taskgroup)                                                                 \
  X(sync_wait)                                                                 \
  X(sync_wait_serialized)                                                      \
  X(sync_wait_implementation)                                                  \
  X(reduction)                                                                 \
  X(mutex_acquire_critical)                                                    \
  X(mutex_acquire_lock)                                                        \
  X(mutex_acquire_nest_lock)                                                   \
  X(mutex_acquire_test_lock)                                                   \
  X(mutex_acquire_test_nest_lock)                                              \
  X(mutex_acquire_atomic)                                                      \
  X(mutex_acquire_ordered)                                                     \
  X(mutex_acquired_critical)                                                   \
  X(mutex_acquired_lock)                                                       \
  X(mutex_acquired_nest_lock)                                                  \
  X(mutex_acquired_atomic)                                                     \
  X(mutex_acquired_ordered)                                                    \
  X(mutex_released_critical)                                                   \
  X(mutex_released_lock)                                                       \
  X(mutex_released_nest_lock)                                                  \
  X(mutex_released_atomic)                                                     \
  X(mutex_released_ordered)                                                    \
  X(nest_lock)                                                                 \
  X(lock_init)                                                                 \
  X(lock_destroy)                                                              \
  X(task_create)                                                               \
  X(task_create_undeferred)                                                    \
  X(task_complete)                                                             \
  X(task_schedule)                                                             \
  X(dependences)                                                               \
  X(task_dependence)                                                           \
  X(flush)                                                                     \
  X(cancel)                                                                    \
  X(dispatch_taskloop_chunk)                                                   \
  X(task_create_taskwait)                                                      \
  X(taskwait_complete)                                                         \
  X(work_sections_count)                                                       \
  X(task_detach)                                                               \
  X(task_fulfilled)

enum counter {
#define X(n) C_##n,
  COUNTERS(X)
#undef X
      C_COUNT
};
static const char *const counter_names[] = {
#define X(n) #n,
    COUNTERS(X)
#undef X
};
static atomic_long counts[C_COUNT];
static atomic_int errors;
static ompt_get_unique_id_t get_unique_id;
static ompt_get_task_info_t get_task_info;

static void count(enum counter c) {
  atomic_fetch_add_explicit(&counts[c], 1, memory_order_relaxed);
}

static void error(const char *fmt, ...) {
  char buf[400];
  va_list ap;
  va_start(ap, fmt);
  int n = snprintf(buf, sizeof buf, "diff: ERROR ");
  n += vsnprintf(buf + n, sizeof buf - (size_t)n, fmt, ap);
  va_end(ap);
  if (n > (int)sizeof buf - 2)
    n = (int)sizeof buf - 2;
  buf[n++] = '\n';
  (void)!write(2, buf, (size_t)n);
  /* Report the first few violations only; count them all. */
  atomic_fetch_add(&errors, 1);
}

/* ---- Per-thread scope stack ------------------------------------------- */

enum scope { S_IMPLICIT, S_WORK, S_MASKED, S_SYNC, S_WAIT, S_REDUCTION,
             S_MUTEX_WAIT, S_MUTEX_HELD };
static const char *const scope_names[] = {
    "implicit_task", "work", "masked", "sync_region", "sync_region_wait",
    "reduction", "mutex_acquire", "mutex held"};

struct frame {
  enum scope scope;
  uint64_t key;
  unsigned index; /* implicit tasks: the thread's index in the team */
  unsigned size;  /* implicit tasks: the team size */
};
#define MAX_DEPTH 512
static __thread struct frame stack[MAX_DEPTH];
static __thread int depth;
static __thread int began, ended;

static void live(const char *what) {
  if (!began)
    error("%s before thread_begin on this thread", what);
  if (ended)
    error("%s after thread_end on this thread", what);
}

static void push_task(enum scope s, uint64_t key, unsigned index,
                      unsigned size) {
  if (depth < MAX_DEPTH)
    stack[depth] = (struct frame){s, key, index, size};
  depth++;
}

static void push(enum scope s, uint64_t key, unsigned index) {
  push_task(s, key, index, 0);
}

static void pop(enum scope s, uint64_t key) {
  if (depth == 0) {
    error("%s end (key %lu) with nothing open", scope_names[s],
          (unsigned long)key);
    return;
  }
  depth--;
  if (depth < MAX_DEPTH && (stack[depth].scope != s || stack[depth].key != key))
    error("%s end (key %lu) closes %s (key %lu)", scope_names[s],
          (unsigned long)key, scope_names[stack[depth].scope],
          (unsigned long)stack[depth].key);
}

static const struct frame *top(void) {
  return depth > 0 && depth <= MAX_DEPTH ? &stack[depth - 1] : NULL;
}

/* The innermost implicit task on this thread, or NULL. */
static const struct frame *current_implicit(void) {
  for (int i = (depth < MAX_DEPTH ? depth : MAX_DEPTH) - 1; i >= 0; i--)
    if (stack[i].scope == S_IMPLICIT)
      return &stack[i];
  return NULL;
}

static int current_index(void) {
  const struct frame *f = current_implicit();
  return f ? (int)f->index : -1;
}

/* An implicit barrier of a team of one (an if(false) or inactive nested
 * region): counted apart, as runtimes differ in reporting it. */
static int in_team_of_one(void) {
  const struct frame *f = current_implicit();
  return f && f->size == 1;
}

/* ---- Parallel regions --------------------------------------------------- */

struct region {
  uint64_t id;
  unsigned requested;
  atomic_uint begun;
  atomic_uint team_size; /* 0 until the first implicit task */
  struct region *next;
};
static pthread_mutex_t regions_lock = PTHREAD_MUTEX_INITIALIZER;
static struct region *regions; /* freed at finalize */

/* parallel_begin/end pairing per encountering thread. */
static __thread uint64_t open_parallel[MAX_DEPTH];
static __thread int open_parallel_depth;

static void on_thread_begin(ompt_thread_t type, ompt_data_t *thread) {
  if (began)
    error("second thread_begin on one thread");
  began = 1;
  count(type == ompt_thread_initial ? C_thread_begin_initial
                                    : C_thread_begin_worker);
  thread->value = get_unique_id();
}

static void on_thread_end(ompt_data_t *thread) {
  live("thread_end");
  ended = 1;
  count(C_thread_end);
  (void)thread;
}

static void on_parallel_begin(ompt_data_t *task, const ompt_frame_t *frame,
                              ompt_data_t *parallel, unsigned requested,
                              int flags, const void *codeptr) {
  live("parallel_begin");
  count(C_parallel_begin);
  struct region *r = calloc(1, sizeof *r);
  if (!r) {
    error("out of memory");
    return;
  }
  r->id = get_unique_id();
  r->requested = requested;
  pthread_mutex_lock(&regions_lock);
  r->next = regions;
  regions = r;
  pthread_mutex_unlock(&regions_lock);
  if (parallel->ptr)
    error("parallel_begin: parallel data not zeroed");
  parallel->ptr = r;
  if (open_parallel_depth < MAX_DEPTH)
    open_parallel[open_parallel_depth] = r->id;
  open_parallel_depth++;
  if (requested == 0)
    error("parallel_begin: requested parallelism 0");
  (void)task, (void)frame, (void)flags, (void)codeptr;
}

static void on_parallel_end(ompt_data_t *parallel, ompt_data_t *task,
                            int flags, const void *codeptr) {
  live("parallel_end");
  count(C_parallel_end);
  struct region *r = parallel ? parallel->ptr : NULL;
  if (!r) {
    error("parallel_end: parallel data not the one of parallel_begin");
    return;
  }
  open_parallel_depth--;
  if (open_parallel_depth < 0 ||
      (open_parallel_depth < MAX_DEPTH &&
       open_parallel[open_parallel_depth] != r->id))
    error("parallel_end of region %lu does not close this thread's innermost "
          "parallel_begin",
          (unsigned long)r->id);
  unsigned size = atomic_load(&r->team_size);
  unsigned begun = atomic_load(&r->begun);
  if (begun != size)
    error("parallel_end: %u implicit tasks began in a team of %u", begun,
          size);
  if (size == 1)
    count(C_parallel_serialized);
  (void)task, (void)flags, (void)codeptr;
}

static void on_implicit_task(ompt_scope_endpoint_t ep, ompt_data_t *parallel,
                             ompt_data_t *task, unsigned actual,
                             unsigned index, int flags) {
  live("implicit_task");
  int initial = (flags & ompt_task_initial) != 0;
  if (ep == ompt_scope_begin) {
    count(initial ? C_initial_task_begin : C_implicit_task_begin);
    task->value = get_unique_id();
    if (!initial) {
      struct region *r = parallel ? parallel->ptr : NULL;
      if (!r) {
        error("implicit_task begin: parallel data of no parallel_begin");
      } else {
        unsigned expected = 0;
        if (!atomic_compare_exchange_strong(&r->team_size, &expected,
                                            actual) &&
            expected != actual)
          error("implicit_task begin: team size %u, a team mate said %u",
                actual, expected);
        atomic_fetch_add(&r->begun, 1);
        if (actual > r->requested)
          error("implicit_task begin: team of %u, only %u requested", actual,
                r->requested);
      }
      if (index >= actual)
        error("implicit_task begin: index %u in a team of %u", index, actual);
    }
    /* An initial task's index is 1 (a league's: its team number), but its
     * thread is thread 0 of the team it makes up alone, where a masked
     * construct runs. */
    push_task(S_IMPLICIT, task->value, initial ? 0 : index,
              initial ? 1 : actual);
  } else {
    count(initial ? C_initial_task_end : C_implicit_task_end);
    pop(S_IMPLICIT, task->value);
  }
}

static enum counter work_counter(ompt_work_t type) {
  switch (type) {
  case ompt_work_loop:
  case ompt_work_loop_static:
  case ompt_work_loop_dynamic:
  case ompt_work_loop_guided:
  case ompt_work_loop_other:
    return C_work_loop;
  case ompt_work_sections:
    return C_work_sections;
  case ompt_work_single_executor:
    return C_work_single_executor;
  case ompt_work_single_other:
    return C_work_single_other;
  case ompt_work_workshare:
    return C_work_workshare;
  default:
    return C_work_other;
  }
}

static void on_work(ompt_work_t type, ompt_scope_endpoint_t ep,
                    ompt_data_t *parallel, ompt_data_t *task, uint64_t n,
                    const void *codeptr) {
  live("work");
  enum counter c = work_counter(type);
  if (ep == ompt_scope_begin) {
    count(c);
    /* OpenMP 5.2: count is the number of sections */
    if (c == C_work_sections)
      atomic_fetch_add_explicit(&counts[C_work_sections_count], (long)n,
                                memory_order_relaxed);
    push(S_WORK, (uint64_t)c, 0);
  } else {
    pop(S_WORK, (uint64_t)c);
  }
  (void)parallel, (void)task, (void)n, (void)codeptr;
}

static void on_dispatch(ompt_data_t *parallel, ompt_data_t *task,
                        ompt_dispatch_t kind, ompt_data_t instance) {
  live("dispatch");
  const struct frame *f = top();
  /* A taskloop's chunk is dispatched in the task that runs it. */
  if (kind == ompt_dispatch_taskloop_chunk) {
    count(C_dispatch_taskloop_chunk);
    return;
  }
  if (!f || f->scope != S_WORK)
    error("dispatch outside a worksharing region");
  switch (kind) {
  case ompt_dispatch_iteration:
    count(C_dispatch_iteration);
    break;
  case ompt_dispatch_section:
    count(C_dispatch_section);
    break;
  default:
    count(C_dispatch_chunk);
    break;
  }
  (void)parallel, (void)task, (void)instance;
}

static void on_masked(ompt_scope_endpoint_t ep, ompt_data_t *parallel,
                      ompt_data_t *task, const void *codeptr) {
  live("masked");
  if (ep == ompt_scope_begin) {
    count(C_masked);
    if (current_index() != 0)
      error("masked region on the thread of index %d", current_index());
    push(S_MASKED, 0, 0);
  } else {
    pop(S_MASKED, 0);
  }
  (void)parallel, (void)task, (void)codeptr;
}

static enum counter sync_counter(ompt_sync_region_t kind) {
  switch (kind) {
  case ompt_sync_region_barrier_explicit:
    return C_barrier_explicit;
  case ompt_sync_region_barrier_implicit:
  case ompt_sync_region_barrier_implicit_workshare:
  case ompt_sync_region_barrier_implicit_parallel:
    return C_barrier_implicit;
  case ompt_sync_region_barrier_teams:
    return C_barrier_teams;
  case ompt_sync_region_taskwait:
    return C_taskwait;
  case ompt_sync_region_taskgroup:
    return C_taskgroup;
  case ompt_sync_region_reduction:
    return C_reduction;
  default:
    return C_barrier_implementation;
  }
}

static void on_sync_region(ompt_sync_region_t kind, ompt_scope_endpoint_t ep,
                           ompt_data_t *parallel, ompt_data_t *task,
                           const void *codeptr) {
  live("sync_region");
  enum counter c = sync_counter(kind);
  if (ep == ompt_scope_begin) {
    count(c == C_barrier_implicit && in_team_of_one()
              ? C_barrier_implicit_serialized
              : c);
    push(S_SYNC, (uint64_t)c, 0);
  } else {
    pop(S_SYNC, (uint64_t)c);
  }
  (void)parallel, (void)task, (void)codeptr;
}

static void on_sync_region_wait(ompt_sync_region_t kind,
                                ompt_scope_endpoint_t ep,
                                ompt_data_t *parallel, ompt_data_t *task,
                                const void *codeptr) {
  live("sync_region_wait");
  enum counter c = sync_counter(kind);
  if (ep == ompt_scope_begin) {
    count(c == C_barrier_implementation ? C_sync_wait_implementation
          : c == C_barrier_implicit && in_team_of_one()
              ? C_sync_wait_serialized
              : C_sync_wait);
    const struct frame *f = top();
    if (!f || f->scope != S_SYNC || f->key != (uint64_t)c)
      error("sync_region_wait (%s) outside a sync_region of its kind",
            counter_names[c]);
    int flags = 0;
    ompt_frame_t *fr = NULL;
    if (kind == ompt_sync_region_barrier_implicit_parallel && get_task_info &&
        get_task_info(0, &flags, NULL, &fr, NULL, NULL) == 2 &&
        (flags & ompt_task_implicit) && fr &&
        (fr->exit_frame.ptr || fr->enter_frame.ptr))
      error("sync_region_wait (barrier_implicit_parallel): the implicit task "
            "has frames %p / %p",
            fr->exit_frame.ptr, fr->enter_frame.ptr);
    push(S_WAIT, (uint64_t)c, 0);
  } else {
    pop(S_WAIT, (uint64_t)c);
  }
  (void)parallel, (void)task, (void)codeptr;
}

static void on_reduction(ompt_sync_region_t kind, ompt_scope_endpoint_t ep,
                         ompt_data_t *parallel, ompt_data_t *task,
                         const void *codeptr) {
  live("reduction");
  if (ep == ompt_scope_begin) {
    count(C_reduction);
    push(S_REDUCTION, (uint64_t)kind, 0);
  } else {
    pop(S_REDUCTION, (uint64_t)kind);
  }
  (void)parallel, (void)task, (void)codeptr;
}

/* acquired / released counters by kind: test locks count as their lock. */
static enum counter mutex_counter(ompt_mutex_t kind, int released) {
  switch (kind) {
  case ompt_mutex_critical:
    return released ? C_mutex_released_critical : C_mutex_acquired_critical;
  case ompt_mutex_lock:
  case ompt_mutex_test_lock:
    return released ? C_mutex_released_lock : C_mutex_acquired_lock;
  case ompt_mutex_nest_lock:
  case ompt_mutex_test_nest_lock:
    return released ? C_mutex_released_nest_lock : C_mutex_acquired_nest_lock;
  case ompt_mutex_atomic:
    return released ? C_mutex_released_atomic : C_mutex_acquired_atomic;
  default:
    return released ? C_mutex_released_ordered : C_mutex_acquired_ordered;
  }
}

static void on_mutex_acquire(ompt_mutex_t kind, unsigned hint, unsigned impl,
                             ompt_wait_id_t wait_id, const void *codeptr) {
  live("mutex_acquire");
  switch (kind) {
  case ompt_mutex_critical:
    count(C_mutex_acquire_critical);
    break;
  case ompt_mutex_lock:
    count(C_mutex_acquire_lock);
    break;
  case ompt_mutex_nest_lock:
    count(C_mutex_acquire_nest_lock);
    break;
  case ompt_mutex_test_lock:
  case ompt_mutex_test_nest_lock:
    /* A failed test is followed by nothing: no scope to keep. */
    count(kind == ompt_mutex_test_lock ? C_mutex_acquire_test_lock
                                       : C_mutex_acquire_test_nest_lock);
    return;
  case ompt_mutex_atomic:
    count(C_mutex_acquire_atomic);
    break;
  case ompt_mutex_ordered:
    count(C_mutex_acquire_ordered);
    break;
  default:
    break;
  }
  push(S_MUTEX_WAIT, wait_id, 0);
  (void)hint, (void)impl, (void)codeptr;
}

static void on_mutex_acquired(ompt_mutex_t kind, ompt_wait_id_t wait_id,
                              const void *codeptr) {
  live("mutex_acquired");
  count(mutex_counter(kind, 0));
  if (kind == ompt_mutex_test_lock || kind == ompt_mutex_test_nest_lock)
    return;
  const struct frame *f = top();
  if (!f || f->scope != S_MUTEX_WAIT || f->key != wait_id)
    error("mutex_acquired (kind %d) without its mutex_acquire", (int)kind);
  else
    pop(S_MUTEX_WAIT, wait_id);
  /* Held mutexes need not nest (locks), so they are not kept on the
   * stack: a count per thread is enough for the invariant. */
  (void)codeptr;
}

static __thread long held;

static void on_mutex_acquired_held(ompt_mutex_t kind, ompt_wait_id_t wait_id,
                                   const void *codeptr) {
  on_mutex_acquired(kind, wait_id, codeptr);
  held++;
}

static void on_mutex_released(ompt_mutex_t kind, ompt_wait_id_t wait_id,
                              const void *codeptr) {
  live("mutex_released");
  count(mutex_counter(kind, 1));
  /* A nest lock is released once per acquisition; a lock may be released by
   * the thread that set it only. */
  if (--held < 0) {
    error("mutex_released (kind %d) with no mutex held on this thread",
          (int)kind);
    held = 0;
  }
  (void)wait_id, (void)codeptr;
}

static void on_nest_lock(ompt_scope_endpoint_t ep, ompt_wait_id_t wait_id,
                         const void *codeptr) {
  live("nest_lock");
  count(C_nest_lock);
  const struct frame *f = top();
  /* The owner re-acquiring: mutex_acquire, then nest_lock(begin). */
  if (ep == ompt_scope_begin && f && f->scope == S_MUTEX_WAIT &&
      f->key == wait_id)
    pop(S_MUTEX_WAIT, wait_id);
  if (ep == ompt_scope_begin)
    held++;
  else if (--held < 0)
    error("nest_lock end with no mutex held");
  (void)wait_id, (void)codeptr;
}

static void on_lock_init(ompt_mutex_t kind, unsigned hint, unsigned impl,
                         ompt_wait_id_t wait_id, const void *codeptr) {
  live("lock_init");
  count(C_lock_init);
  (void)kind, (void)hint, (void)impl, (void)wait_id, (void)codeptr;
}

static void on_lock_destroy(ompt_mutex_t kind, ompt_wait_id_t wait_id,
                            const void *codeptr) {
  live("lock_destroy");
  count(C_lock_destroy);
  (void)kind, (void)wait_id, (void)codeptr;
}

/* ---- Explicit tasks ----------------------------------------------------- */

/* An explicit task's data: its state, tagged (implicit tasks hold ids). */
#define TASK_TAG (UINT64_C(1) << 63)
#define TASK_CREATED (TASK_TAG | 1)
#define TASK_STARTED (TASK_TAG | 2)
#define TASK_DONE (TASK_TAG | 3)
#define TASK_DETACHED (TASK_TAG | 4) /* block ended; completes when fulfilled */
#define TASK_FULFILLED (UINT64_C(1) << 62) /* flag: its event was fulfilled */

static void on_task_create(ompt_data_t *parent, const ompt_frame_t *frame,
                           ompt_data_t *task, int flags, int has_deps,
                           const void *codeptr) {
  live("task_create");
  if (flags & ompt_task_initial) /* libomp's report of the initial task */
    return;
  count(C_task_create);
  if (flags & ompt_task_undeferred)
    count(C_task_create_undeferred);
  /* The task of taskwait depend(...): its data is left alone (libomp 14
   * keeps it in per-thread storage that it asserts to be empty at the next
   * such taskwait, and does not always clear). */
  if (flags & ompt_task_taskwait) {
    count(C_task_create_taskwait);
    return;
  }
  task->value = TASK_CREATED;
  (void)parent, (void)frame, (void)has_deps, (void)codeptr;
}

static void on_task_schedule(ompt_data_t *prior, ompt_task_status_t status,
                             ompt_data_t *next) {
  live("task_schedule");
  count(C_task_schedule);
  if (status == ompt_taskwait_complete) {
    if (!prior)
      error("task_schedule: taskwait_complete of no task");
    count(C_taskwait_complete);
    return;
  }
  /* detach clause: early_fulfill before the block ends (then complete),
   * or detach when it ends, then late_fulfill (the completion) */
  uint64_t fulfilled = prior ? prior->value & TASK_FULFILLED : 0;
  uint64_t state = prior ? prior->value & ~TASK_FULFILLED : 0;
  if (status == ompt_task_early_fulfill || status == ompt_task_late_fulfill) {
    count(C_task_fulfilled);
    if (fulfilled)
      error("task_schedule: a task's event fulfilled twice");
    else if (prior)
      prior->value |= TASK_FULFILLED;
    if (status == ompt_task_early_fulfill &&
        state != TASK_CREATED && state != TASK_STARTED)
      error("task_schedule: early_fulfill of a task whose block ended");
    if (status == ompt_task_late_fulfill && state != TASK_DETACHED)
      error("task_schedule: late_fulfill of a task not detached");
  }
  if (status == ompt_task_detach) {
    count(C_task_detach);
    if (state != TASK_STARTED || fulfilled)
      error("task_schedule: detach of a task not running or fulfilled");
    else
      prior->value = TASK_DETACHED;
  }
  if (status == ompt_task_complete || status == ompt_task_cancel ||
      status == ompt_task_late_fulfill) {
    if (prior && state == TASK_DONE)
      error("task_schedule: a task completed twice");
    if (prior && (state == TASK_STARTED || state == TASK_CREATED ||
                  state == TASK_DETACHED)) {
      prior->value = TASK_DONE;
      count(C_task_complete);
    }
  }
  uint64_t next_state = next ? next->value & ~TASK_FULFILLED : 0;
  if (next_state == TASK_DONE || next_state == TASK_DETACHED)
    error("task_schedule: switch to a completed task");
  ompt_data_t *t0 = NULL;
  if (status == ompt_task_switch && get_task_info &&
      (get_task_info(0, NULL, &t0, NULL, NULL, NULL) != 2 || t0 != next))
    error("task_schedule: get_task_info(0) %p is not the new task %p",
          (void *)t0, (void *)next);
  if (next_state == TASK_CREATED)
    next->value = TASK_STARTED | (next->value & TASK_FULFILLED);
}

static void on_dependences(ompt_data_t *task, const ompt_dependence_t *deps,
                           int ndeps) {
  live("dependences");
  count(C_dependences);
  if (ndeps > 0 && !deps)
    error("dependences: %d dependences, no array", ndeps);
  (void)task;
}

static void on_task_dependence(ompt_data_t *src, ompt_data_t *sink) {
  live("task_dependence");
  count(C_task_dependence);
  (void)src, (void)sink;
}

static void on_flush(ompt_data_t *thread, const void *codeptr) {
  live("flush");
  count(C_flush);
  (void)thread, (void)codeptr;
}

static void on_cancel(ompt_data_t *task, int flags, const void *codeptr) {
  live("cancel");
  count(C_cancel);
  (void)task, (void)flags, (void)codeptr;
}

/* ---- Activation --------------------------------------------------------- */

static int initialize(ompt_function_lookup_t lookup, int device,
                      ompt_data_t *data) {
  (void)device, (void)data;
  ompt_set_callback_t set = (ompt_set_callback_t)lookup("ompt_set_callback");
  get_unique_id = (ompt_get_unique_id_t)lookup("ompt_get_unique_id");
  get_task_info = (ompt_get_task_info_t)lookup("ompt_get_task_info");
  if (!set || !get_unique_id) {
    error("lookup of ompt_set_callback / ompt_get_unique_id failed");
    return 0;
  }
  /* What the runtime accepts is printed: it is part of the comparison. */
  char accepted[1024];
  int n = 0;
  accepted[0] = '\0';
#define REG(event, fn)                                                         \
  do {                                                                         \
    int r_ = set(ompt_callback_##event, (ompt_callback_t)(fn));                \
    if (n < (int)sizeof accepted - 40)                                         \
      n += snprintf(accepted + n, sizeof accepted - (size_t)n, " %s=%d",       \
                    #event, r_);                                               \
  } while (0)
  REG(thread_begin, on_thread_begin);
  REG(thread_end, on_thread_end);
  REG(parallel_begin, on_parallel_begin);
  REG(parallel_end, on_parallel_end);
  REG(implicit_task, on_implicit_task);
  REG(work, on_work);
  REG(dispatch, on_dispatch);
  REG(masked, on_masked);
  REG(sync_region, on_sync_region);
  REG(sync_region_wait, on_sync_region_wait);
  REG(reduction, on_reduction);
  REG(mutex_acquire, on_mutex_acquire);
  REG(mutex_acquired, on_mutex_acquired_held);
  REG(mutex_released, on_mutex_released);
  REG(nest_lock, on_nest_lock);
  REG(lock_init, on_lock_init);
  REG(lock_destroy, on_lock_destroy);
  REG(task_create, on_task_create);
  REG(task_schedule, on_task_schedule);
  REG(dependences, on_dependences);
  REG(task_dependence, on_task_dependence);
  REG(flush, on_flush);
  REG(cancel, on_cancel);
#undef REG
  fprintf(stderr, "diff: set_callback%s\n", accepted);
  return 1;
}

static void finalize(ompt_data_t *data) {
  (void)data;
  char buf[2048];
  int n = snprintf(buf, sizeof buf, "diff: counts");
  for (int i = 0; i < C_COUNT; i++)
    n += snprintf(buf + n, sizeof buf - (size_t)n, " %s=%ld",
                  counter_names[i], atomic_load(&counts[i]));
  fprintf(stderr, "%s\n", buf);
  int e = atomic_load(&errors);
  if (e)
    fprintf(stderr, "diff: FAILED (%d errors)\n", e);
  else
    fprintf(stderr, "diff: ok\n");
  pthread_mutex_lock(&regions_lock);
  while (regions) {
    struct region *r = regions;
    regions = r->next;
    free(r);
  }
  pthread_mutex_unlock(&regions_lock);
}

ompt_start_tool_result_t *ompt_start_tool(unsigned int version,
                                          const char *runtime) {
  static ompt_start_tool_result_t result = {initialize, finalize, {0}};
  (void)version, (void)runtime;
  return &result;
}
