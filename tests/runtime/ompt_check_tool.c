/*
 * ompt_check_tool.c -- an OMPT tool for tests: it checks the rules a tool
 * relies on while the program runs, and prints counts at the end.
 *
 * Checked on every callback (a violation prints "check: ERROR ..." and makes
 * finalize exit with status 3):
 *  - thread_begin is the first callback on every thread, thread_end the last;
 *    get_thread_data() is the thread_begin data throughout;
 *  - scoped callbacks (implicit_task, work, masked, sync_region,
 *    sync_region_wait, explicit tasks between task_schedule switch and
 *    complete) nest properly per thread;
 *  - implicit_task begin: the parallel and task data passed are the ones that
 *    ompt_get_parallel_info(0) / ompt_get_task_info(0) return, and the index
 *    is the thread number get_task_info reports;
 *  - work/masked/sync/cancel: get_task_info(0)'s task data is the callback's;
 *  - get_state agrees with what the thread is doing (waiting in a barrier,
 *    taskwait or taskgroup during its wait, for a critical, lock or atomic
 *    between acquire and acquired, with the mutex's wait id);
 *  - parallel_begin/end pair on the encountering thread; the encountering
 *    task's frame passed is get_task_info(0)'s and has an enter_frame;
 *  - explicit tasks: task_create gives fresh data, the explicit flag and the
 *    encountering task's data and frame; a task is scheduled once, after its
 *    creation (and its dependences), and completes once, on the thread that
 *    began it, resuming the task it suspended; while it runs,
 *    get_task_info(0) is the task (explicit flag, an exit_frame) and
 *    get_task_info(1) the task it suspended (its scheduling parent, whose
 *    frames are next on the stack); dependences and task_dependence name
 *    created tasks;
 *  - a thread waits in a barrier inside the runtime (enter_frame set), or,
 *    in a region's end barrier, after its task's code returned (exit_frame
 *    and enter_frame NULL);
 *  - mutexes: acquired follows an acquire of the same wait id (tests may
 *    fail, and leave nothing open); released and nest_lock(end) only for
 *    mutexes the thread holds; nest_lock(begin) only by the owner;
 *    lock_destroy never of a held lock;
 *  - cancel flags name one construct and say activated or detected (not
 *    both); error messages have their length; flush gets the thread's data;
 *  - doacross dependences (source / sink items) are the running task's, all
 *    of one kind; they are counted apart from the dependences of tasks
 *    (doacross_source, doacross_sink, their items and the sum of their
 *    iteration values);
 *  - codeptr_ra points into the program's code, never into the OpenMP
 *    runtime or libpompt (which would mean a tail call or a wrong frame);
 *  - ompt_get_unique_id increases on every thread.
 * set_callback must answer what the table `expected` says.
 *
 * With OMPT_CHECK_SAMPLE_HZ=<rate> the tool also samples with SIGPROF
 * (setitimer(ITIMER_PROF)) and calls get_state, get_thread_data,
 * get_task_info (every level) and get_parallel_info from the signal handler,
 * checking that what they answer is consistent (known states, wait ids only
 * while waiting for a mutex, task data of this tool, thread numbers below
 * the team size, a bounded ancestor chain).  The handler touches no
 * thread-local storage of the tool.
 *
 * control_tool returns 100 * command + modifier, for the program to check.
 *
 * At finalize it prints one line "check: counts k=v ..." with a count per
 * callback kind for the test to compare.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <omp-tools.h>
#include <signal.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <unistd.h>

static ompt_get_parallel_info_t get_parallel_info;
static ompt_get_task_info_t get_task_info;
static ompt_get_state_t get_state;
static ompt_get_unique_id_t get_unique_id;
static ompt_get_thread_data_t get_thread_data;
static ompt_enumerate_states_t enumerate_states;
static atomic_int errors;

#define COUNTER_LIST(X)                                                        \
  X(thread_begin)                                                              \
  X(thread_initial)                                                            \
  X(thread_end)                                                                \
  X(parallel_begin)                                                            \
  X(parallel_end)                                                              \
  X(implicit_task_begin)                                                       \
  X(implicit_task_end)                                                         \
  X(initial_task_begin)                                                        \
  X(initial_task_end)                                                          \
  X(work_loop)                                                                 \
  X(work_loop_unstated)                                                        \
  X(work_loop_static)                                                          \
  X(work_loop_dynamic)                                                         \
  X(work_loop_guided)                                                          \
  X(work_loop_other)                                                           \
  X(work_sections)                                                             \
  X(work_single_executor)                                                      \
  X(work_single_other)                                                         \
  X(work_workshare)                                                            \
  X(work_taskloop)                                                             \
  X(work_scope)                                                                \
  X(dispatch_section)                                                          \
  X(dispatch_iteration)                                                        \
  X(dispatch_chunk)                                                            \
  X(masked)                                                                    \
  X(barrier_explicit)                                                          \
  X(barrier_implicit_workshare)                                                \
  X(barrier_implicit_parallel)                                                 \
  X(barrier_implementation)                                                    \
  X(taskwait)                                                                  \
  X(taskgroup)                                                                 \
  X(sync_wait)                                                                 \
  X(mutex_acquire)                                                             \
  X(mutex_acquired)                                                            \
  X(mutex_released)                                                            \
  X(acquire_critical)                                                          \
  X(acquire_ordered)                                                           \
  X(acquire_atomic)                                                            \
  X(acquire_lock)                                                              \
  X(acquire_test_lock)                                                         \
  X(acquire_nest_lock)                                                         \
  X(acquire_test_nest_lock)                                                    \
  X(acquired_test)                                                             \
  X(nest_lock_begin)                                                           \
  X(nest_lock_end)                                                             \
  X(lock_init)                                                                 \
  X(lock_destroy)                                                              \
  X(task_create)                                                               \
  X(task_create_undeferred)                                                    \
  X(task_create_final)                                                         \
  X(task_create_untied)                                                        \
  X(task_create_mergeable)                                                     \
  X(task_create_deps)                                                          \
  X(task_create_remote)                                                        \
  X(task_switch)                                                               \
  X(task_complete)                                                             \
  X(task_cancel)                                                               \
  X(task_detach)                                                               \
  X(task_early_fulfill)                                                        \
  X(task_late_fulfill)                                                         \
  X(dependences)                                                               \
  X(dependence_items)                                                          \
  X(task_dependence)                                                           \
  X(flush)                                                                     \
  X(cancel)                                                                    \
  X(control_tool)                                                              \
  X(error_warning)                                                             \
  X(error_fatal)                                                               \
  X(samples)                                                                   \
  X(samples_in_task)                                                           \
  X(chunk_iterations)                                                          \
  X(chunk_index_sum)                                                           \
  X(dispatch_taskloop_chunk)                                                   \
  X(taskloop_iterations)                                                       \
  X(taskloop_index_sum)                                                        \
  X(dispatch_distribute_chunk)                                                 \
  X(distribute_iterations)                                                     \
  X(distribute_index_sum)                                                      \
  X(task_create_taskwait)                                                      \
  X(taskwait_complete)                                                         \
  X(cancel_activated)                                                          \
  X(cancel_detected)                                                           \
  X(cancel_detected_parallel)                                                  \
  X(cancel_detected_sections)                                                  \
  X(cancel_detected_loop)                                                      \
  X(cancel_detected_taskgroup)                                                 \
  X(cancel_discarded)                                                          \
  X(cancel_discarded_taskgroup)                                                \
  X(cancel_discarded_parallel)                                                 \
  X(task_never_ended)                                                          \
  X(reduction)                                                                 \
  X(doacross_source)                                                           \
  X(doacross_sink)                                                             \
  X(doacross_items)                                                            \
  X(doacross_value_sum)

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

static void count(enum counter c) {
  atomic_fetch_add_explicit(&counts[c], 1, memory_order_relaxed);
}

/* Async-signal-safe report: one write. */
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

/* The frames of the thread's own chain of tasks, from get_task_info: they
 * lie on the thread's stack, so going up the levels each task's
 * enter_frame (where it entered the runtime) is not above its exit_frame
 * (the runtime frame that called its code), nor below the exit_frame of
 * the task one level down (which runs inside that runtime call).  They may
 * be equal: a task begun where its suspended task entered nothing has that
 * frame as the suspended task's enter_frame, and where no trampoline of
 * libpompt's runs a block, its task's exit_frame is the frame of the event
 * that began it.  The chain leaves the thread after a worker's implicit
 * task (its encountering task is the primary thread's).  NULL addresses
 * are not compared: frames set and cleared around a switch.
 * Async-signal-safe; NULL when it holds, else a description (*at: the
 * level). */
static atomic_int frame_kind; /* the first frame's flags; 0 before */

static int frame_flags_known(int flags) {
  int kinds_ok = flags == (ompt_frame_runtime | ompt_frame_cfa);
#if defined(__x86_64__)
  kinds_ok |= flags == (ompt_frame_runtime | ompt_frame_framepointer);
#endif
  if (!kinds_ok)
    return 0;
  int first = 0;
  return atomic_compare_exchange_strong(&frame_kind, &first, flags) ||
         first == flags;
}

static const char *frame_chain_broken(int *at) {
  uintptr_t below = 0; /* the exit_frame one level down */
  for (int level = 0; level < 256; level++) {
    *at = level;
    int flags = 0, num = -1;
    ompt_frame_t *fr = NULL;
    if (get_task_info(level, &flags, NULL, &fr, NULL, &num) != 2 || !fr)
      return NULL;
    uintptr_t exit = (uintptr_t)fr->exit_frame.ptr;
    uintptr_t enter = (uintptr_t)fr->enter_frame.ptr;
    /* What the addresses are: the runtime's frames, flagged as canonical
     * frame addresses (libpompt's by default, newer libomp's), or on
     * x86-64 as frame pointers (older libomp's, libpompt's with
     * POMPT_FRAME_FLAGS=framepointer): one kind in every frame of a run,
     * the kind of the first one flagged. */
    if (exit && !frame_flags_known(fr->exit_frame_flags))
      return "a frame's flags do not say what its address is";
    if (enter && !frame_flags_known(fr->enter_frame_flags))
      return "a frame's flags do not say what its address is";
    if (enter && exit && enter > exit)
      return "a task's enter_frame is above its exit_frame";
    if (enter && below && enter < below)
      return "a task's enter_frame is below the exit_frame one level down";
    if (exit && below && exit < below)
      return "a task's exit_frame is below the exit_frame one level down";
    if (exit)
      below = exit;
    if ((flags & ompt_task_initial) || ((flags & ompt_task_implicit) && num))
      return NULL;
  }
  return NULL;
}

/* ---- Per-thread state (callbacks only; never the signal handler) --------- */

enum scope {
  S_IMPLICIT,
  S_WORK,
  S_MASKED,
  S_SYNC,
  S_SYNC_WAIT,
  S_TASK
};
static const char *const scope_names[] = {
    "implicit_task", "work", "masked", "sync_region", "sync_region_wait",
    "explicit task"};
struct frame {
  enum scope scope;
  uint64_t key;
  ompt_data_t *resume; /* S_TASK: the task it suspended */
  const void *codeptr; /* S_SYNC, S_SYNC_WAIT: the begin's codeptr_ra */
};
#define STACK_MAX 1024
static __thread struct frame stack[STACK_MAX];
static __thread int depth;
static __thread int began, ended;
static __thread ompt_thread_t my_type;
static __thread ompt_data_t *my_thread_data;
static __thread uint64_t last_id;

/* Mutexes held by this thread, with their counts (nest locks). */
#define HELD_MAX 64
static __thread struct {
  ompt_wait_id_t id;
  int count;
} held[HELD_MAX];
static __thread int nheld;
/* The pending mutex_acquire. */
static __thread ompt_wait_id_t pending_wait;
static __thread int pending_kind;
/* One runtime call acquires a mutex at a native runtime: the acquisition
 * carries the acquire's codeptr_ra. */
static __thread const void *pending_codeptr;

static void on_thread(const char *what) {
  if (!began)
    error("%s before thread_begin on this thread", what);
  if (ended)
    error("%s after thread_end on this thread", what);
  if (get_thread_data() != my_thread_data)
    error("%s: get_thread_data() is not the thread_begin data", what);
}

static void push(enum scope s, uint64_t key, ompt_data_t *resume) {
  if (depth < STACK_MAX)
    stack[depth] = (struct frame){s, key, resume, NULL};
  depth++;
}

static struct frame *top(void) {
  return depth > 0 && depth <= STACK_MAX ? &stack[depth - 1] : NULL;
}

static void pop(enum scope s, uint64_t key) {
  if (depth == 0) {
    error("%s end with nothing open", scope_names[s]);
    return;
  }
  depth--;
  if (depth < STACK_MAX && (stack[depth].scope != s || stack[depth].key != key))
    error("%s end (key %lu) closes %s (key %lu)", scope_names[s],
          (unsigned long)key, scope_names[stack[depth].scope],
          (unsigned long)stack[depth].key);
}

/* A wait, and a sync region that ends with its wait (every kind but a
 * taskgroup, whose region spans its block), is one runtime call: its end
 * carries its begin's codeptr_ra, as at a native runtime.  Before pop. */
static void note_codeptr(const void *codeptr) {
  struct frame *f = top();
  if (f)
    f->codeptr = codeptr;
}

static void check_end_codeptr(const char *what, int kind,
                              const void *codeptr) {
  struct frame *f = top();
  if (f && f->codeptr != codeptr)
    error("%s end (kind %d): codeptr_ra %p, its begin's %p", what, kind,
          codeptr, f->codeptr);
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

/* The barrier that ends a parallel region: the primary thread's carries a
 * codeptr_ra in the program (its region's), a worker's NULL (the runtime
 * waits there after the region's function returned, from no call of the
 * program's), as at a native runtime.  Other sync regions: one in the
 * program. */
static void check_sync_codeptr(const char *what, ompt_sync_region_t kind,
                               const void *codeptr) {
  int num = -1;
  if (kind != ompt_sync_region_barrier_implicit_parallel ||
      !get_task_info(0, NULL, NULL, NULL, NULL, &num) || num == 0)
    check_codeptr(what, codeptr);
  else if (codeptr)
    error("%s of a worker's end barrier (thread %d) with codeptr_ra %p, "
          "not NULL",
          what, num, codeptr);
}

/* ---- Ids and tasks ---------------------------------------------------------
 * Data the tool owns are tagged ids: TAG in the top byte, a sequence number
 * below, from ompt_get_unique_id.  Explicit tasks also have a state here,
 * indexed by a sequence number of their own. */

#define TAG 0x5a00000000000000ull
#define TAG_MASK 0xff00000000000000ull
#define TASKS_MAX (1u << 20)
/* T_DETACHED: its block ended (task_schedule detach) before its event was
 * fulfilled; the late fulfilment completes it. */
enum { T_NONE, T_CREATED, T_RUNNING, T_DONE, T_TASKWAIT, T_DETACHED };
static _Atomic unsigned char task_state[TASKS_MAX];
static _Atomic unsigned char task_has_deps[TASKS_MAX];
static atomic_uint next_task;

static uint64_t new_id(void) {
  uint64_t id = get_unique_id();
  if (id == 0 || (id & TAG_MASK))
    error("ompt_get_unique_id returned %lu", (unsigned long)id);
  if (id <= last_id)
    error("ompt_get_unique_id went from %lu to %lu on one thread",
          (unsigned long)last_id, (unsigned long)id);
  last_id = id;
  return id;
}

/* Explicit task data: TAG | (task index << 32) | 1, index < TASKS_MAX. */
static unsigned task_index(const ompt_data_t *d) {
  if (!d || (d->value & TAG_MASK) != TAG || !(d->value & 1))
    return 0;
  unsigned idx = (unsigned)((d->value >> 32) & 0xffffff);
  return idx < TASKS_MAX ? idx : 0;
}

static uint64_t id_of(ompt_data_t *d) {
  if (!d)
    return 0;
  if (d->value == 0)
    d->value = TAG | (new_id() << 1);
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

static void check_state(const char *what, int want, ompt_wait_id_t want_id,
                        int check_id) {
  ompt_wait_id_t w = 0;
  int s = get_state(&w);
  if (s != want || (check_id && w != want_id))
    error("%s: state 0x%x wait id %lx, expected 0x%x wait id %lx", what, s,
          (unsigned long)w, want, (unsigned long)want_id);
}

static int working(int s) {
  return s == ompt_state_work_serial || s == ompt_state_work_parallel;
}

/* ---- Threads and regions --------------------------------------------------- */

static void on_thread_begin(ompt_thread_t type, ompt_data_t *thread) {
  count(C_thread_begin);
  if (began)
    error("second thread_begin on one thread");
  began = 1;
  my_type = type;
  if (type == ompt_thread_initial)
    count(C_thread_initial);
  if (thread->value)
    error("thread data not zero at thread_begin");
  my_thread_data = thread;
  thread->value = TAG | (new_id() << 1);
  if (get_thread_data() != thread)
    error("get_thread_data() is not the thread_begin data");
}

static void on_thread_end(ompt_data_t *thread) {
  count(C_thread_end);
  if (thread != my_thread_data)
    return; /* a thread the finalizing thread ends for the runtime */
  on_thread("thread_end");
  if (depth != 0)
    error("thread_end with %d scope(s) open, innermost %s", depth,
          top() ? scope_names[top()->scope] : "?");
  ended = 1;
}

/* The codeptr_ra of the regions this thread began and has not ended, the
 * innermost last: parallel_end carries its begin's (one runtime call
 * starts and ends a region at a native runtime). */
#define REGIONS_MAX 64
static __thread const void *region_codeptr[REGIONS_MAX];
static __thread int nregions;

static void on_parallel_begin(ompt_data_t *task, const ompt_frame_t *frame,
                              ompt_data_t *parallel, unsigned requested,
                              int flags, const void *codeptr) {
  on_thread("parallel_begin");
  count(C_parallel_begin);
  if (parallel->value)
    error("parallel data not zero at parallel_begin");
  id_of(parallel);
  if (requested < 1)
    error("requested parallelism %u", requested);
  check_codeptr("parallel_begin", codeptr);
  if (nregions < REGIONS_MAX)
    region_codeptr[nregions] = codeptr;
  nregions++;
  if (!(flags & (ompt_parallel_team | ompt_parallel_league)))
    error("parallel_begin flags 0x%x lack ompt_parallel_team", flags);
  if (!frame || !frame->enter_frame.ptr)
    error("parallel_begin: encountering task frame has no enter_frame");
  ompt_frame_t *f = NULL;
  if (get_task_info(0, NULL, NULL, &f, NULL, NULL) && f != frame)
    error("parallel_begin: frame %p but get_task_info(0) says %p",
          (const void *)frame, (void *)f);
  check_task("parallel_begin", task);
  check_state("parallel_begin", ompt_state_overhead, 0, 0);
}

static void on_parallel_end(ompt_data_t *parallel, ompt_data_t *task,
                            int flags, const void *codeptr) {
  on_thread("parallel_end");
  count(C_parallel_end);
  if (!parallel->value)
    error("parallel_end for a region never begun");
  check_task("parallel_end", task);
  check_codeptr("parallel_end", codeptr);
  if (nregions <= 0)
    error("parallel_end on a thread that began no region");
  else if (--nregions < REGIONS_MAX && region_codeptr[nregions] != codeptr)
    error("parallel_end: codeptr_ra %p, its parallel_begin's %p", codeptr,
          region_codeptr[nregions]);
  (void)flags;
}

static void on_implicit_task(ompt_scope_endpoint_t ep, ompt_data_t *parallel,
                             ompt_data_t *task, unsigned actual,
                             unsigned index, int flags) {
  on_thread("implicit_task");
  int initial = (flags & ompt_task_initial) != 0;
  if (ep == ompt_scope_begin) {
    count(initial ? C_initial_task_begin : C_implicit_task_begin);
    /* An initial thread runs an initial task before anything else (the
     * initial tasks of a league of teams come later, nested). */
    if (!initial && my_type == ompt_thread_initial && depth == 0)
      error("implicit_task begin: an implicit task outside any initial task "
            "on an initial thread");
    if (task->value)
      error("task data not zero at implicit_task begin");
    id_of(task);
    ompt_data_t *p = NULL, *t = NULL;
    ompt_frame_t *fr = NULL;
    int size = 0, num = -1, tflags = 0;
    if (!get_parallel_info(0, &p, &size))
      error("implicit_task begin: get_parallel_info(0) has no region");
    else if (p != parallel)
      error("implicit_task begin: parallel %p, get_parallel_info says %p",
            (void *)parallel, (void *)p);
    else if ((unsigned)size != actual)
      error("implicit_task begin: actual %u, team_size %d", actual, size);
    if (!get_task_info(0, &tflags, &t, &fr, NULL, &num) || t != task)
      error("implicit_task begin: get_task_info(0) is not this task");
    else if (!initial && (unsigned)num != index)
      error("implicit_task begin: index %u, thread_num %d", index, num);
    else if (!initial && (!fr || !fr->exit_frame.ptr))
      error("implicit_task begin: the task has no exit_frame");
    else if ((tflags & 0xff) != (flags & 0xff))
      error("implicit_task begin: flags 0x%x, get_task_info says 0x%x", flags,
            tflags);
    else if (!initial && !(tflags & ompt_task_undeferred))
      error("implicit_task begin: get_task_info's flags 0x%x lack "
            "ompt_task_undeferred (an implicit task is undeferred)",
            tflags);
    if (!initial && index >= actual)
      error("implicit_task begin: index %u >= actual %u", index, actual);
    /* The enclosing region is the encountering task's. */
    ompt_data_t *p1 = NULL, *enc_p = NULL;
    int s1 = 0;
    if (!initial && get_task_info(1, NULL, NULL, NULL, &enc_p, NULL) &&
        enc_p && (!get_parallel_info(1, &p1, &s1) || p1 != enc_p || s1 < 1))
      error("implicit_task begin: get_parallel_info(1) %p is not the "
            "encountering task's region %p",
            (void *)p1, (void *)enc_p);
    if (!initial)
      check_state("implicit_task begin", ompt_state_work_parallel, 0, 0);
    push(S_IMPLICIT, task->value, NULL);
  } else {
    count(initial ? C_initial_task_end : C_implicit_task_end);
    pop(S_IMPLICIT, task->value);
  }
}

/* ---- Worksharing, masked, sync regions --------------------------------------- */

static void on_work(ompt_work_t type, ompt_scope_endpoint_t ep,
                    ompt_data_t *parallel, ompt_data_t *task, uint64_t count_,
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
    case ompt_work_workshare:
      c = C_work_workshare;
      break;
    case ompt_work_taskloop:
      c = C_work_taskloop;
      break;
    case ompt_work_scope:
      c = C_work_scope;
      break;
    default:
      break;
    }
    count(c);
    /* work_loop counts every loop; these, the schedule it was given */
    switch (type) {
    case ompt_work_loop:
      count(C_work_loop_unstated);
      break;
    case ompt_work_loop_static:
      count(C_work_loop_static);
      break;
    case ompt_work_loop_dynamic:
      count(C_work_loop_dynamic);
      break;
    case ompt_work_loop_guided:
      count(C_work_loop_guided);
      break;
    case ompt_work_loop_other:
      count(C_work_loop_other);
      break;
    default:
      break;
    }
    check_task("work begin", task);
    push(S_WORK, (uint64_t)type, NULL);
  } else {
    pop(S_WORK, (uint64_t)type);
  }
  check_codeptr("work", codeptr);
  (void)parallel, (void)count_;
}

static void on_dispatch(ompt_data_t *parallel, ompt_data_t *task,
                        ompt_dispatch_t kind, ompt_data_t instance) {
  on_thread("dispatch");
  if (kind == ompt_dispatch_section)
    count(C_dispatch_section);
  else if (kind == ompt_dispatch_iteration)
    count(C_dispatch_iteration);
  else if (kind == ompt_dispatch_distribute_chunk) {
    /* As below: a league's chunks partition the logical iterations. */
    const ompt_dispatch_chunk_t *ch = instance.ptr;
    count(C_dispatch_distribute_chunk);
    if (!ch || ch->iterations == 0) {
      error("dispatch(distribute_chunk) without a chunk");
    } else {
      atomic_fetch_add(&counts[C_distribute_iterations], (long)ch->iterations);
      atomic_fetch_add(&counts[C_distribute_index_sum],
                       (long)(ch->iterations * ch->start +
                              ch->iterations * (ch->iterations - 1) / 2));
    }
  } else if (kind == ompt_dispatch_ws_loop_chunk ||
           kind == ompt_dispatch_taskloop_chunk) {
    /* The sums let a test check that a loop's chunks partition its
     * logical iterations 0 .. N-1: N iterations, indices summing to
     * N(N-1)/2. */
    int tl = kind == ompt_dispatch_taskloop_chunk;
    const ompt_dispatch_chunk_t *ch = instance.ptr;
    count(tl ? C_dispatch_taskloop_chunk : C_dispatch_chunk);
    if (!ch) {
      error("dispatch(%s) without a chunk", tl ? "taskloop_chunk"
                                               : "ws_loop_chunk");
    } else {
      if (ch->iterations == 0)
        error("dispatch: a chunk of no iterations");
      atomic_fetch_add(&counts[tl ? C_taskloop_iterations : C_chunk_iterations],
                       (long)ch->iterations);
      atomic_fetch_add(&counts[tl ? C_taskloop_index_sum : C_chunk_index_sum],
                       (long)(ch->iterations * ch->start +
                              ch->iterations * (ch->iterations - 1) / 2));
    }
    if (tl) {
      int flags = 0;
      if (!get_task_info(0, &flags, NULL, NULL, NULL, NULL) ||
          !(flags & ompt_task_explicit))
        error("dispatch(taskloop_chunk) outside an explicit task");
    }
  }
  check_task("dispatch", task);
  (void)parallel;
}

static void on_masked(ompt_scope_endpoint_t ep, ompt_data_t *parallel,
                      ompt_data_t *task, const void *codeptr) {
  on_thread("masked");
  if (ep == ompt_scope_begin) {
    count(C_masked);
    check_task("masked begin", task);
    push(S_MASKED, 0, NULL);
  } else {
    pop(S_MASKED, 0);
  }
  check_codeptr("masked", codeptr);
  (void)parallel;
}

static int wait_state_for(ompt_sync_region_t kind) {
  switch (kind) {
  case ompt_sync_region_barrier_explicit:
    return ompt_state_wait_barrier_explicit;
  case ompt_sync_region_barrier_implicit_workshare:
    return ompt_state_wait_barrier_implicit_workshare;
  case ompt_sync_region_barrier_implicit_parallel:
    return ompt_state_wait_barrier_implicit_parallel;
  case ompt_sync_region_barrier_implementation:
    return ompt_state_wait_barrier_implementation;
  case ompt_sync_region_taskwait:
    return ompt_state_wait_taskwait;
  case ompt_sync_region_taskgroup:
    return ompt_state_wait_taskgroup;
  default:
    return -1;
  }
}

static void on_sync_region(ompt_sync_region_t kind, ompt_scope_endpoint_t ep,
                           ompt_data_t *parallel, ompt_data_t *task,
                           const void *codeptr) {
  on_thread("sync_region");
  if (ep == ompt_scope_begin) {
    enum counter c;
    switch (kind) {
    case ompt_sync_region_barrier_explicit:
      c = C_barrier_explicit;
      break;
    case ompt_sync_region_barrier_implicit_workshare:
      c = C_barrier_implicit_workshare;
      break;
    case ompt_sync_region_barrier_implementation:
      c = C_barrier_implementation;
      break;
    case ompt_sync_region_taskwait:
      c = C_taskwait;
      break;
    case ompt_sync_region_taskgroup:
      c = C_taskgroup;
      break;
    default:
      c = C_barrier_implicit_parallel;
      break;
    }
    count(c);
    check_task("sync_region begin", task);
    /* 5.2 allows a NULL parallel_data only at the end of the barrier that
     * ends a parallel region (a worker that left a cancelled region). */
    if (!parallel)
      error("sync_region begin (kind %d) with a NULL parallel_data", kind);
    /* A taskgroup's region spans its block: its wait comes later. */
    if (kind != ompt_sync_region_taskgroup)
      check_state("sync_region begin", wait_state_for(kind), 0, 0);
    push(S_SYNC, (uint64_t)kind, NULL);
    note_codeptr(codeptr);
  } else {
    if (kind != ompt_sync_region_taskgroup)
      check_end_codeptr("sync_region", kind, codeptr);
    pop(S_SYNC, (uint64_t)kind);
    /* The end of a region's end barrier comes as the region ends: libpompt
     * passes no parallel_data there on any thread (libomp neither). */
    if (kind == ompt_sync_region_barrier_implicit_parallel && parallel)
      error("sync_region end of a region's end barrier with parallel_data "
            "%p (NULL expected on every thread)",
            (void *)parallel);
  }
  check_sync_codeptr("sync_region", kind, codeptr);
}

/* A reduction: a thread combining its partial results, begin and end on
 * that thread with nothing of the thread's in between, in the working
 * state for it, for the running task. */
static __thread int in_reduction;

static void on_reduction(ompt_sync_region_t kind, ompt_scope_endpoint_t ep,
                         ompt_data_t *parallel, ompt_data_t *task,
                         const void *codeptr) {
  on_thread("reduction");
  if (kind != ompt_sync_region_reduction)
    error("reduction callback of sync region kind %d", kind);
  ompt_data_t *t0 = NULL;
  if (!get_task_info(0, NULL, &t0, NULL, NULL, NULL) || t0 != task)
    error("reduction: task data %p but get_task_info(0) says %p",
          (void *)task, (void *)t0);
  if (!parallel)
    error("reduction with a NULL parallel_data");
  check_state("reduction", ompt_state_work_reduction, 0, 0);
  check_codeptr("reduction", codeptr);
  if (ep == ompt_scope_begin) {
    if (in_reduction)
      error("reduction begin inside a reduction");
    in_reduction = 1;
  } else {
    if (!in_reduction)
      error("reduction end without its begin");
    in_reduction = 0;
    count(C_reduction);
  }
}

static void on_sync_region_wait(ompt_sync_region_t kind,
                                ompt_scope_endpoint_t ep,
                                ompt_data_t *parallel, ompt_data_t *task,
                                const void *codeptr) {
  on_thread("sync_region_wait");
  if (ep == ompt_scope_begin) {
    count(C_sync_wait);
    if (!parallel)
      error("sync_region_wait begin (kind %d) with a NULL parallel_data",
            kind);
    check_state("sync_region_wait begin", wait_state_for(kind), 0, 0);
    ompt_frame_t *f = NULL;
    /* The end barrier of a parallel region may follow the return of the
     * task's code (a native runtime's, and libpompt's under its
     * trampoline): then no frame of the task is on the stack, and both
     * addresses are NULL.  Otherwise the task waits inside the runtime. */
    if (get_task_info(0, NULL, NULL, &f, NULL, NULL)) {
      int returned = kind == ompt_sync_region_barrier_implicit_parallel && f &&
                     !f->exit_frame.ptr;
      if (!f || (returned ? f->enter_frame.ptr != NULL : !f->enter_frame.ptr))
        error("sync_region_wait begin (kind %d): the waiting task has %s",
              kind,
              returned ? "no exit_frame but an enter_frame" : "no enter_frame");
    }
    int at = 0;
    const char *broken = frame_chain_broken(&at);
    if (broken)
      error("sync_region_wait begin (kind %d): %s (level %d)", kind, broken,
            at);
    push(S_SYNC_WAIT, (uint64_t)kind, NULL);
    note_codeptr(codeptr);
  } else {
    check_end_codeptr("sync_region_wait", kind, codeptr);
    pop(S_SYNC_WAIT, (uint64_t)kind);
  }
  check_sync_codeptr("sync_region_wait", kind, codeptr);
  (void)task;
}

/* ---- Mutexes ------------------------------------------------------------------ */

static int held_find(ompt_wait_id_t id) {
  for (int i = 0; i < nheld; i++)
    if (held[i].id == id)
      return i;
  return -1;
}

static int mutex_wait_state(ompt_mutex_t kind) {
  switch (kind) {
  case ompt_mutex_critical:
    return ompt_state_wait_critical;
  case ompt_mutex_atomic:
    return ompt_state_wait_atomic;
  case ompt_mutex_ordered:
    return ompt_state_wait_ordered;
  default:
    return ompt_state_wait_lock;
  }
}

static void on_mutex_acquire(ompt_mutex_t kind, unsigned hint, unsigned impl,
                             ompt_wait_id_t wait_id, const void *codeptr) {
  on_thread("mutex_acquire");
  count(C_mutex_acquire);
  static const enum counter by_kind[] = {
      [ompt_mutex_lock] = C_acquire_lock,
      [ompt_mutex_test_lock] = C_acquire_test_lock,
      [ompt_mutex_nest_lock] = C_acquire_nest_lock,
      [ompt_mutex_test_nest_lock] = C_acquire_test_nest_lock,
      [ompt_mutex_critical] = C_acquire_critical,
      [ompt_mutex_atomic] = C_acquire_atomic,
      [ompt_mutex_ordered] = C_acquire_ordered};
  if (kind >= ompt_mutex_lock && kind <= ompt_mutex_ordered)
    count(by_kind[kind]);
  else
    error("mutex_acquire of kind %d", kind);
  if (!wait_id)
    error("mutex_acquire (kind %d) with wait id 0", kind);
  if (kind == ompt_mutex_atomic) {
    /* An atomic instruction waits for no lock: the thread keeps working;
     * an atomic under a lock (libgomp's GOMP_atomic_start) waits for it. */
    ompt_wait_id_t w = 0;
    int s = get_state(&w);
    if (!working(s) && !(s == ompt_state_wait_atomic && w == wait_id))
      error("mutex_acquire (atomic): state 0x%x wait id %lx, expected a "
            "working state or wait_atomic with wait id %lx",
            s, (unsigned long)w, (unsigned long)wait_id);
  } else {
    check_state("mutex_acquire", mutex_wait_state(kind), wait_id, 1);
  }
  if (pending_wait && pending_kind != ompt_mutex_test_lock &&
      pending_kind != ompt_mutex_test_nest_lock)
    error("mutex_acquire (kind %d) while an acquire of %lx is pending", kind,
          (unsigned long)pending_wait);
  pending_wait = wait_id;
  pending_kind = kind;
  pending_codeptr = codeptr;
  if (impl != 1)
    error("mutex_acquire: impl %u is not the one enumerated", impl);
  check_codeptr("mutex_acquire", codeptr);
  (void)hint;
}

static void on_mutex_acquired(ompt_mutex_t kind, ompt_wait_id_t wait_id,
                              const void *codeptr) {
  on_thread("mutex_acquired");
  count(C_mutex_acquired);
  if (kind == ompt_mutex_test_lock || kind == ompt_mutex_test_nest_lock)
    count(C_acquired_test);
  if (pending_wait != wait_id)
    error("mutex_acquired (kind %d, %lx) without its mutex_acquire", kind,
          (unsigned long)wait_id);
  else if (codeptr != pending_codeptr)
    error("mutex_acquired (kind %d): codeptr_ra %p, its mutex_acquire's %p",
          kind, codeptr, pending_codeptr);
  pending_wait = 0;
  int i = held_find(wait_id);
  if (i >= 0)
    error("mutex_acquired (kind %d) of a mutex this thread holds", kind);
  else if (nheld < HELD_MAX)
    held[nheld++].id = wait_id, held[nheld - 1].count = 1;
  ompt_wait_id_t w;
  int s = get_state(&w);
  if (!working(s))
    error("mutex_acquired: state 0x%x", s);
  check_codeptr("mutex_acquired", codeptr);
}

static void on_mutex_released(ompt_mutex_t kind, ompt_wait_id_t wait_id,
                              const void *codeptr) {
  on_thread("mutex_released");
  count(C_mutex_released);
  int i = held_find(wait_id);
  if (i < 0)
    error("mutex_released (kind %d, %lx) of a mutex this thread does not "
          "hold",
          kind, (unsigned long)wait_id);
  else if (held[i].count != 1)
    error("mutex_released of a nest lock still held %d times", held[i].count);
  else
    held[i] = held[--nheld];
  check_codeptr("mutex_released", codeptr);
}

static void on_nest_lock(ompt_scope_endpoint_t ep, ompt_wait_id_t wait_id,
                         const void *codeptr) {
  on_thread("nest_lock");
  int i = held_find(wait_id);
  if (ep == ompt_scope_begin) {
    count(C_nest_lock_begin);
    if (pending_wait != wait_id)
      error("nest_lock begin without its mutex_acquire");
    pending_wait = 0;
    if (i < 0)
      error("nest_lock begin: the thread does not own the lock");
    else
      held[i].count++;
  } else {
    count(C_nest_lock_end);
    if (i < 0 || held[i].count < 2)
      error("nest_lock end: the lock is not held more than once");
    else
      held[i].count--;
  }
  check_codeptr("nest_lock", codeptr);
}

static void on_lock_init(ompt_mutex_t kind, unsigned hint, unsigned impl,
                         ompt_wait_id_t wait_id, const void *codeptr) {
  on_thread("lock_init");
  count(C_lock_init);
  if (kind != ompt_mutex_lock && kind != ompt_mutex_nest_lock)
    error("lock_init of kind %d", kind);
  if (!wait_id || impl != 1)
    error("lock_init: wait id %lx impl %u", (unsigned long)wait_id, impl);
  check_codeptr("lock_init", codeptr);
  (void)hint;
}

static void on_lock_destroy(ompt_mutex_t kind, ompt_wait_id_t wait_id,
                            const void *codeptr) {
  on_thread("lock_destroy");
  count(C_lock_destroy);
  if (held_find(wait_id) >= 0)
    error("lock_destroy of a lock this thread holds");
  check_codeptr("lock_destroy", codeptr);
  (void)kind;
}

/* ---- Explicit tasks ----------------------------------------------------------- */

static void on_task_create(ompt_data_t *encountering,
                           const ompt_frame_t *frame, ompt_data_t *task,
                           int flags, int has_dependences,
                           const void *codeptr) {
  on_thread("task_create");
  count(C_task_create);
  if (!task || task->value)
    error("task_create: new task data not fresh");
  /* The dependence task of a taskwait with depend clauses (OpenMP 5.2):
   * never scheduled, completed by task_schedule(ompt_taskwait_complete). */
  int taskwait = (flags & 0xff) == ompt_task_taskwait;
  if (taskwait) {
    count(C_task_create_taskwait);
    if (!has_dependences)
      error("task_create of a taskwait task without dependences");
  } else if ((flags & 0xff) != ompt_task_explicit)
    error("task_create: flags 0x%x are not those of an explicit task", flags);
  if (flags & ompt_task_undeferred)
    count(C_task_create_undeferred);
  if (flags & ompt_task_final)
    count(C_task_create_final);
  if (flags & ompt_task_untied)
    count(C_task_create_untied);
  if (flags & ompt_task_mergeable)
    count(C_task_create_mergeable);
  if (has_dependences)
    count(C_task_create_deps);
  ompt_data_t *cur = NULL;
  ompt_frame_t *f = NULL;
  if (!get_task_info(0, NULL, &cur, &f, NULL, NULL))
    error("task_create: get_task_info(0) has no task");
  if (cur == encountering) {
    if (f != frame)
      error("task_create: encountering frame %p, get_task_info(0) says %p",
            (const void *)frame, (void *)f);
    if (!frame || !frame->enter_frame.ptr)
      error("task_create: the encountering task has no enter_frame");
  } else {
    /* A task made on the thread that runs it (taskloop): its generating
     * task is elsewhere. */
    count(C_task_create_remote);
  }
  check_codeptr("task_create", codeptr);
  unsigned idx = atomic_fetch_add(&next_task, 1) + 1;
  if (idx >= TASKS_MAX)
    idx = 0;
  task->value = TAG | ((uint64_t)idx << 32) | 1;
  if (idx) {
    atomic_store(&task_has_deps[idx], (unsigned char)has_dependences);
    atomic_store(&task_state[idx], taskwait ? T_TASKWAIT : T_CREATED);
  }
}

/* The dependences of a doacross loop (OpenMP 5.2 ordered depend(source) /
 * depend(sink: vec)): for the running task, every item of one kind, the
 * iteration vector in the values; counted apart from the dependences of
 * tasks. */
static void on_doacross(ompt_data_t *task, const ompt_dependence_t *deps,
                        int ndeps) {
  check_task("dependences (doacross)", task);
  int type = deps[0].dependence_type;
  count(type == ompt_dependence_type_source ? C_doacross_source
                                            : C_doacross_sink);
  for (int i = 0; i < ndeps; i++) {
    if ((int)deps[i].dependence_type != type)
      error("dependences (doacross): item %d has type %d, item 0 %d", i,
            (int)deps[i].dependence_type, type);
    atomic_fetch_add(&counts[C_doacross_items], 1);
    atomic_fetch_add(&counts[C_doacross_value_sum],
                     (long)deps[i].variable.value);
  }
}

static void on_dependences(ompt_data_t *task, const ompt_dependence_t *deps,
                           int ndeps) {
  on_thread("dependences");
  if (ndeps > 0 && deps &&
      (deps[0].dependence_type == ompt_dependence_type_source ||
       deps[0].dependence_type == ompt_dependence_type_sink)) {
    on_doacross(task, deps, ndeps);
    return;
  }
  count(C_dependences);
  unsigned idx = task_index(task);
  unsigned char st = idx ? atomic_load(&task_state[idx]) : T_NONE;
  if (st != T_CREATED && st != T_TASKWAIT)
    error("dependences for a task that is not a created, unscheduled one");
  else if (!atomic_load(&task_has_deps[idx]))
    error("dependences for a task created without has_dependences");
  if (ndeps <= 0 || !deps)
    error("dependences: %d items", ndeps);
  for (int i = 0; i < ndeps && deps; i++) {
    atomic_fetch_add(&counts[C_dependence_items], 1);
    int t = deps[i].dependence_type;
    if (!((t >= ompt_dependence_type_in && t <= ompt_dependence_type_inoutset) ||
          t == ompt_dependence_type_out_all_memory ||
          t == ompt_dependence_type_inout_all_memory))
      error("dependences: item %d has type %d", i, t);
  }
}

static void on_task_dependence(ompt_data_t *src, ompt_data_t *sink) {
  on_thread("task_dependence");
  count(C_task_dependence);
  unsigned s = task_index(src), k = task_index(sink);
  if (!s || !k || s == k)
    error("task_dependence between %p and %p", (void *)src, (void *)sink);
  else if (atomic_load(&task_state[k]) != T_CREATED &&
           atomic_load(&task_state[k]) != T_TASKWAIT)
    error("task_dependence: the sink task already ran");
}

static void on_task_schedule(ompt_data_t *prior, ompt_task_status_t status,
                             ompt_data_t *next) {
  on_thread("task_schedule");
  if (status == ompt_task_switch) {
    count(C_task_switch);
    unsigned idx = task_index(next);
    unsigned char st = idx ? atomic_exchange(&task_state[idx], T_RUNNING) : 0;
    if (!idx || st != T_CREATED)
      error("task_schedule switch to a task that is not created and new "
            "(state %d)",
            st);
    /* The prior task: what this thread was running. */
    for (int i = depth - 1; i >= 0; i--)
      if (i < STACK_MAX &&
          (stack[i].scope == S_IMPLICIT || stack[i].scope == S_TASK)) {
        if (!prior || stack[i].key != prior->value)
          error("task_schedule switch: prior task %p is not the one this "
                "thread runs",
                (void *)prior);
        break;
      }
    ompt_data_t *t0 = NULL, *t1 = NULL;
    ompt_frame_t *fr = NULL;
    int flags = 0, num = -1;
    if (!get_task_info(0, &flags, &t0, &fr, NULL, &num) || t0 != next)
      error("task_schedule switch: get_task_info(0) is not the new task");
    else if (!(flags & ompt_task_explicit))
      error("task_schedule switch: get_task_info(0) flags 0x%x", flags);
    else if (!fr || !fr->exit_frame.ptr)
      error("task_schedule switch: the new task has no exit_frame");
    /* Its ancestor is the task it suspended on this thread (its scheduling
     * parent, whose frames are the next ones on this stack), which need not
     * be the task that created it. */
    if (prior && get_task_info(1, NULL, &t1, NULL, NULL, NULL) && t1 != prior)
      error("task_schedule switch: get_task_info(1) %p is not the prior task "
            "%p",
            (void *)t1, (void *)prior);
    ompt_data_t *pd0 = NULL, *pd = NULL;
    int size = 0;
    if (get_task_info(0, NULL, NULL, NULL, &pd0, NULL) &&
        get_parallel_info(0, &pd, &size) && (pd != pd0 || num >= size))
      error("task_schedule switch: parallel %p/%p, thread %d of %d",
            (void *)pd0, (void *)pd, num, size);
    int s = get_state(NULL);
    if (!working(s))
      error("task_schedule switch: state 0x%x in the new task", s);
    int at = 0;
    const char *broken = frame_chain_broken(&at);
    if (broken)
      error("task_schedule switch: %s (level %d)", broken, at);
    push(S_TASK, next->value, prior);
    return;
  }
  if (status == ompt_taskwait_complete) {
    count(C_taskwait_complete);
    unsigned idx = task_index(prior);
    unsigned char st = idx ? atomic_exchange(&task_state[idx], T_DONE) : 0;
    if (st != T_TASKWAIT)
      error("task_schedule(taskwait_complete) of a task that is not a "
            "taskwait's (state %d)",
            st);
    return;
  }
  /* A fulfilment (omp_fulfill_event, on any thread) switches no task: an
   * early one while the task has not ended its block, a late one completes
   * a task whose block ended detached. */
  if (status == ompt_task_early_fulfill || status == ompt_task_late_fulfill) {
    int late = status == ompt_task_late_fulfill;
    count(late ? C_task_late_fulfill : C_task_early_fulfill);
    unsigned idx = task_index(prior);
    unsigned char st = idx ? atomic_load(&task_state[idx]) : 0;
    if (late && idx && st == T_DETACHED)
      atomic_store(&task_state[idx], T_DONE);
    else if (!idx || (late ? 1 : st != T_CREATED && st != T_RUNNING))
      error("task_schedule(%s_fulfill) of a task in state %d",
            late ? "late" : "early", st);
    return;
  }
  if (status == ompt_task_complete)
    count(C_task_complete);
  else if (status == ompt_task_cancel)
    count(C_task_cancel);
  else if (status == ompt_task_detach)
    count(C_task_detach);
  else
    error("task_schedule status %d", status);
  unsigned idx = task_index(prior);
  unsigned char st =
      idx ? atomic_exchange(&task_state[idx],
                            status == ompt_task_detach ? T_DETACHED : T_DONE)
          : 0;
  if (!idx || st != T_RUNNING)
    error("task_schedule end of a task that is not running (state %d)", st);
  struct frame *f = top();
  if (!f || f->scope != S_TASK || f->key != prior->value) {
    error("task_schedule end of a task that is not this thread's innermost "
          "scope");
  } else {
    if (f->resume != next)
      error("task_schedule end: resumes %p, but the task suspended %p",
            (void *)next, (void *)f->resume);
    depth--;
  }
  ompt_data_t *t0 = NULL;
  if (next && get_task_info(0, NULL, &t0, NULL, NULL, NULL) && t0 != next)
    error("task_schedule end: get_task_info(0) is not the resumed task");
}

/* ---- flush, cancel, control_tool, error ------------------------------------------ */

static void on_flush(ompt_data_t *thread, const void *codeptr) {
  on_thread("flush");
  count(C_flush);
  if (thread != my_thread_data)
    error("flush: thread data is not this thread's");
  check_codeptr("flush", codeptr);
}

static void on_cancel(ompt_data_t *task, int flags, const void *codeptr) {
  on_thread("cancel");
  count(C_cancel);
  int construct = flags & (ompt_cancel_parallel | ompt_cancel_sections |
                           ompt_cancel_loop | ompt_cancel_taskgroup);
  if (!construct || (construct & (construct - 1)))
    error("cancel: flags 0x%x name no single construct", flags);
  if (!(flags & (ompt_cancel_activated | ompt_cancel_detected |
                 ompt_cancel_discarded_task)))
    error("cancel: flags 0x%x say neither activated nor detected", flags);
  if (flags & ompt_cancel_discarded_task) {
    /* A task created and never begun, which ends with this: any thread
     * may report it, with no code address (5.2 allows NULL). */
    count(C_cancel_discarded);
    count(construct == ompt_cancel_taskgroup ? C_cancel_discarded_taskgroup
                                             : C_cancel_discarded_parallel);
    if (construct != ompt_cancel_taskgroup && construct != ompt_cancel_parallel)
      error("cancel: a task discarded by cancelling construct 0x%x", construct);
    if (flags & (ompt_cancel_activated | ompt_cancel_detected))
      error("cancel: flags 0x%x say discarded and more", flags);
    unsigned idx = task_index(task);
    unsigned char st = idx ? atomic_exchange(&task_state[idx], T_DONE) : 0;
    if (!idx || st != T_CREATED)
      error("cancel: discarded task %p was not created and waiting (state "
            "%d)",
            (void *)task, st);
    return;
  }
  check_task("cancel", task);
  check_codeptr("cancel", codeptr);
  if ((flags & ompt_cancel_activated) && (flags & ompt_cancel_detected))
    error("cancel: flags 0x%x say both activated and detected", flags);
  if (flags & ompt_cancel_activated)
    count(C_cancel_activated);
  if (flags & ompt_cancel_detected) {
    count(C_cancel_detected);
    count(construct == ompt_cancel_parallel   ? C_cancel_detected_parallel
          : construct == ompt_cancel_sections ? C_cancel_detected_sections
          : construct == ompt_cancel_loop     ? C_cancel_detected_loop
                                              : C_cancel_detected_taskgroup);
  }
}

static int on_control_tool(uint64_t command, uint64_t modifier, void *arg,
                           const void *codeptr) {
  on_thread("control_tool");
  count(C_control_tool);
  check_codeptr("control_tool", codeptr);
  (void)arg;
  return (int)(100 * command + modifier);
}

static void on_error(ompt_severity_t severity, const char *message,
                     size_t length, const void *codeptr) {
  on_thread("error");
  if (severity == ompt_warning)
    count(C_error_warning);
  else if (severity == ompt_fatal)
    count(C_error_fatal);
  else
    error("error: severity %d", severity);
  if (message ? strlen(message) != length : length != 0)
    error("error: message length %zu", length);
  check_codeptr("error", codeptr);
}

/* ---- Sampling --------------------------------------------------------------------- */

static int known_state[0x200];
static atomic_int sampling;

static void sample_error(const char *msg) {
  (void)!write(2, msg, strlen(msg));
  atomic_fetch_add(&errors, 1);
}

static void on_sigprof(int sig) {
  (void)sig;
  if (!atomic_load_explicit(&sampling, memory_order_relaxed))
    return;
  int saved = errno;
  atomic_fetch_add_explicit(&counts[C_samples], 1, memory_order_relaxed);
  ompt_wait_id_t w = 1;
  int s = get_state(&w);
  if (s == ompt_state_undefined) { /* not discovered yet, or ended */
    errno = saved;
    return;
  }
  if (s < 0 || s >= 0x200 || !known_state[s])
    sample_error("check: ERROR sample: unknown state\n");
  int mutex_wait = s >= ompt_state_wait_mutex && s <= ompt_state_wait_ordered;
  if (mutex_wait && w == 0)
    sample_error("check: ERROR sample: mutex wait without a wait id\n");
  if (!mutex_wait && w != 0)
    sample_error("check: ERROR sample: a wait id outside a mutex wait\n");
  ompt_data_t *td = get_thread_data();
  if (!td)
    sample_error("check: ERROR sample: no thread data\n");
  else if (td->value && (td->value & TAG_MASK) != TAG)
    sample_error("check: ERROR sample: thread data not the tool's\n");
  int level = 0;
  int flags0 = 0, num0 = -1;
  ompt_data_t *pd0 = NULL;
  for (;; level++) {
    int flags = 0, num = -1;
    ompt_data_t *t = NULL, *pd = NULL;
    ompt_frame_t *fr = NULL;
    if (get_task_info(level, &flags, &t, &fr, &pd, &num) != 2)
      break;
    if (level > 256) {
      sample_error("check: ERROR sample: ancestor chain longer than 256\n");
      break;
    }
    int type = flags & (ompt_task_initial | ompt_task_implicit |
                        ompt_task_explicit | ompt_task_target);
    if (!t || !fr || !type || (type & (type - 1)))
      sample_error("check: ERROR sample: task info inconsistent\n");
    else if (t->value && (t->value & TAG_MASK) != TAG)
      sample_error("check: ERROR sample: task data not the tool's\n");
    if (num < 0)
      sample_error("check: ERROR sample: negative thread number\n");
    if (level == 0) {
      flags0 = flags, num0 = num, pd0 = pd;
      if (flags & ompt_task_explicit)
        atomic_fetch_add_explicit(&counts[C_samples_in_task], 1,
                                  memory_order_relaxed);
    }
  }
  int at = 0;
  const char *broken = frame_chain_broken(&at);
  if (broken) { /* one error, written in pieces (no formatting here) */
    static const char head[] = "check: ERROR sample: ";
    (void)!write(2, head, sizeof head - 1);
    (void)!write(2, broken, strlen(broken));
    sample_error("\n");
  }
  ompt_data_t *pd = NULL;
  int size = 0;
  if (get_parallel_info(0, &pd, &size) == 2) {
    if (size < 1)
      sample_error("check: ERROR sample: team size below 1\n");
    if (level > 0 && !(flags0 & ompt_task_initial) && num0 >= size)
      sample_error("check: ERROR sample: thread number >= team size\n");
    if (level > 0 && pd0 && pd0 != pd)
      sample_error("check: ERROR sample: parallel data of task and region "
                   "differ\n");
    if (pd && pd->value && (pd->value & TAG_MASK) != TAG)
      sample_error("check: ERROR sample: parallel data not the tool's\n");
  }
  for (int l = 1; l < 64; l++)
    if (get_parallel_info(l, &pd, &size) != 2)
      break;
  errno = saved;
}

static void start_sampling(void) {
  const char *hz = getenv("OMPT_CHECK_SAMPLE_HZ");
  if (!hz || atoi(hz) <= 0)
    return;
  int next = 0;
  const char *name;
  for (int s = ompt_state_undefined;
       enumerate_states(s, &next, &name) && next >= 0 && next < 0x200;
       s = next)
    known_state[next] = 1;
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = on_sigprof;
  sa.sa_flags = SA_RESTART;
  sigemptyset(&sa.sa_mask);
  sigaction(SIGPROF, &sa, NULL);
  long us = 1000000L / atoi(hz);
  if (us < 1)
    us = 1;
  struct itimerval it = {{0, us}, {0, us}};
  atomic_store(&sampling, 1);
  setitimer(ITIMER_PROF, &it, NULL);
}

static void stop_sampling(void) {
  if (!atomic_load(&sampling))
    return;
  struct itimerval it = {{0, 0}, {0, 0}};
  setitimer(ITIMER_PROF, &it, NULL);
  atomic_store(&sampling, 0);
}

/* ---- Registration ----------------------------------------------------------------- */

static int initialize(ompt_function_lookup_t lookup, int device,
                      ompt_data_t *data) {
  (void)device, (void)data;
  ompt_set_callback_t set = (ompt_set_callback_t)lookup("ompt_set_callback");
  get_parallel_info = (ompt_get_parallel_info_t)lookup("ompt_get_parallel_info");
  get_task_info = (ompt_get_task_info_t)lookup("ompt_get_task_info");
  get_state = (ompt_get_state_t)lookup("ompt_get_state");
  get_unique_id = (ompt_get_unique_id_t)lookup("ompt_get_unique_id");
  get_thread_data = (ompt_get_thread_data_t)lookup("ompt_get_thread_data");
  enumerate_states = (ompt_enumerate_states_t)lookup("ompt_enumerate_states");
  if (!set || !get_parallel_info || !get_task_info || !get_state ||
      !get_unique_id || !get_thread_data || !enumerate_states) {
    error("lookup failed for a required entry point");
    return 0;
  }
  /* OMPT_CHECK_EXPECT_SET="name=code ..." overrides an expected answer
   * (code: the ompt_set_result_t value), for runs with POMP_* groups off. */
  const char *over = getenv("OMPT_CHECK_EXPECT_SET");
#define REG(event, fn, want)                                                   \
  do {                                                                         \
    int w_ = (want);                                                           \
    const char *o_ = over ? strstr(over, #event "=") : NULL;                   \
    if (o_ && (o_ == over || o_[-1] == ' '))                                   \
      w_ = atoi(o_ + sizeof #event);                                           \
    int r_ = set(ompt_callback_##event, (ompt_callback_t)fn);                  \
    if (r_ != w_)                                                              \
      error("set_callback(" #event ") answered %d, expected %d", r_, w_);      \
  } while (0)
  REG(thread_begin, on_thread_begin, ompt_set_always);
  REG(thread_end, on_thread_end, ompt_set_always);
  REG(parallel_begin, on_parallel_begin, ompt_set_always);
  REG(parallel_end, on_parallel_end, ompt_set_always);
  REG(implicit_task, on_implicit_task, ompt_set_always);
  REG(work, on_work, ompt_set_always);
  REG(dispatch, on_dispatch, ompt_set_sometimes);
  REG(masked, on_masked, ompt_set_always);
  REG(sync_region, on_sync_region, ompt_set_sometimes);
  REG(sync_region_wait, on_sync_region_wait, ompt_set_sometimes);
  REG(mutex_acquire, on_mutex_acquire, ompt_set_always);
  REG(mutex_acquired, on_mutex_acquired, ompt_set_always);
  REG(mutex_released, on_mutex_released, ompt_set_always);
  REG(nest_lock, on_nest_lock, ompt_set_always);
  REG(lock_init, on_lock_init, ompt_set_always);
  REG(lock_destroy, on_lock_destroy, ompt_set_always);
  REG(task_create, on_task_create, ompt_set_sometimes);
  REG(task_schedule, on_task_schedule, ompt_set_sometimes);
  REG(dependences, on_dependences, ompt_set_sometimes);
  REG(task_dependence, on_task_dependence, ompt_set_sometimes);
  REG(flush, on_flush, ompt_set_always);
  REG(cancel, on_cancel, ompt_set_sometimes);
  REG(control_tool, on_control_tool, ompt_set_always);
  REG(error, on_error, ompt_set_always);
  REG(reduction, on_reduction, ompt_set_sometimes);
#undef REG
  start_sampling();
  return 1;
}

static void finalize(ompt_data_t *data) {
  (void)data;
  stop_sampling();
  if (atomic_load(&counts[C_thread_begin]) != atomic_load(&counts[C_thread_end]))
    error("%ld thread_begin but %ld thread_end",
          atomic_load(&counts[C_thread_begin]),
          atomic_load(&counts[C_thread_end]));
  unsigned n_tasks = atomic_load(&next_task);
  for (unsigned i = 1; i <= n_tasks && i < TASKS_MAX; i++) {
    unsigned char st = atomic_load(&task_state[i]);
    if (st == T_RUNNING)
      error("task %u still running at finalize", i);
    if (st == T_CREATED || st == T_DETACHED) /* neither begun nor reported
                                               discarded, or never fulfilled */
      count(C_task_never_ended);
  }
  char line[4096];
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
