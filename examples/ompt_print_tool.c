/*
 * ompt_print_tool.c - an example OMPT tool that prints every callback.
 *
 * It is written for tool authors: it shows how a tool is found by an OpenMP
 * runtime (ompt_start_tool), how it looks up the runtime's entry points and
 * registers callbacks (initialize), how it keeps its own data in the
 * ompt_data_t objects the runtime hands out, and how it uses the inquiry
 * entry points from inside a callback.  It relies on nothing but
 * <omp-tools.h>, so it runs on any OMPT runtime: libpompt for programs built
 * with GCC and pomp-cc, or LLVM's libomp.
 *
 * Activate it like any OMPT tool:
 *   OMP_TOOL_LIBRARIES=/path/to/libompt_print_tool.so ./program
 * Output goes to stderr; OMPT_PRINT_FILE=path appends it to a file instead.
 *
 * Every line starts with "ompt: ".  A callback line is
 *   ompt: t=<thread id> <callback> [<endpoint>] <name>=<value> ...
 * where ids are unique ids this tool stores in the ompt_data_t objects (0 for
 * a NULL object or one the tool has not seen begin).  Each line is written
 * with a single write(2), so lines of different threads never interleave.
 */
#define _POSIX_C_SOURCE 200809L /* O_CLOEXEC, write */

#include <omp-tools.h>

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The callbacks this tool knows, by their ompt_callbacks_t value. */
#define MAX_EVENT 64

/* ------------------------------------------------------------------------
 * Entry points, looked up once in initialize.
 * --------------------------------------------------------------------- */

static ompt_set_callback_t set_callback;
static ompt_get_unique_id_t get_unique_id;
static ompt_get_thread_data_t get_thread_data;
static ompt_get_parallel_info_t get_parallel_info;
static ompt_get_task_info_t get_task_info;
static ompt_get_state_t get_state;

/* ------------------------------------------------------------------------
 * Output: one line per write(2).
 * --------------------------------------------------------------------- */

static int out_fd = 2;

/* Event counters for the summary, indexed by ompt_callbacks_t. */
static atomic_ulong counts[MAX_EVENT];
/* Which callbacks were registered (set_callback did not fail). */
static int registered[MAX_EVENT];

#define LINE_MAX_LEN 2048

typedef struct line {
  char buf[LINE_MAX_LEN];
  size_t len;
} line_t;

static void line_add(line_t *l, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static void line_add(line_t *l, const char *fmt, ...) {
  /* Keep one byte for the final newline. */
  size_t room = sizeof l->buf - 1 - l->len;
  if (room <= 1)
    return;
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(l->buf + l->len, room, fmt, ap);
  va_end(ap);
  if (n < 0)
    return;
  l->len += (size_t)n < room ? (size_t)n : room - 1;
}

static void line_emit(line_t *l) {
  l->buf[l->len++] = '\n';
  const char *p = l->buf;
  size_t left = l->len;
  while (left > 0) {
    ssize_t n = write(out_fd, p, left);
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0)
      break;
    p += n;
    left -= (size_t)n;
  }
}

/* ------------------------------------------------------------------------
 * Ids kept in ompt_data_t.
 * --------------------------------------------------------------------- */

/* The id of a data object.  With assign set (begin callbacks) a fresh
   unique id is stored the first time the object is seen; a compare-and-swap
   keeps that safe should two threads see a new object at once. */
static uint64_t data_id(ompt_data_t *d, int assign) {
  if (d == NULL)
    return 0;
  uint64_t v = __atomic_load_n(&d->value, __ATOMIC_RELAXED);
  if (v != 0 || !assign)
    return v;
  uint64_t fresh = get_unique_id();
  uint64_t expected = 0;
  if (__atomic_compare_exchange_n(&d->value, &expected, fresh, 0,
                                  __ATOMIC_RELAXED, __ATOMIC_RELAXED))
    return fresh;
  return expected;
}

static uint64_t thread_id(void) {
  return data_id(get_thread_data(), 0);
}

/* Starts a callback line "ompt: t=<id> <name>" and counts the event. */
static void line_start(line_t *l, ompt_callbacks_t event, const char *name) {
  if ((unsigned)event < MAX_EVENT)
    atomic_fetch_add_explicit(&counts[event], 1, memory_order_relaxed);
  l->len = 0;
  line_add(l, "ompt: t=%lu %s", (unsigned long)thread_id(), name);
}

/* ------------------------------------------------------------------------
 * Symbolic names.  Numeric cases keep the tool compiling against any
 * omp-tools.h: OpenMP 5.2 added values that older headers do not name.
 * --------------------------------------------------------------------- */

static const char *endpoint_name(int e) {
  switch (e) {
  case 1:
    return "begin";
  case 2:
    return "end";
  case 3:
    return "beginend";
  default:
    return "endpoint?";
  }
}

static const char *thread_type_name(int t) {
  switch (t) {
  case 1:
    return "initial";
  case 2:
    return "worker";
  case 3:
    return "other";
  case 4:
    return "unknown";
  default:
    return "type?";
  }
}

static const char *work_name(int w) {
  switch (w) {
  case 1:
    return "loop";
  case 2:
    return "sections";
  case 3:
    return "single_executor";
  case 4:
    return "single_other";
  case 5:
    return "workshare";
  case 6:
    return "distribute";
  case 7:
    return "taskloop";
  case 8:
    return "scope";
  case 10:
    return "loop_static";
  case 11:
    return "loop_dynamic";
  case 12:
    return "loop_guided";
  case 13:
    return "loop_other";
  default:
    return "work?";
  }
}

static const char *sync_name(int k) {
  switch (k) {
  case 1:
    return "barrier";
  case 2:
    return "barrier_implicit";
  case 3:
    return "barrier_explicit";
  case 4:
    return "barrier_implementation";
  case 5:
    return "taskwait";
  case 6:
    return "taskgroup";
  case 7:
    return "reduction";
  case 8:
    return "barrier_implicit_workshare";
  case 9:
    return "barrier_implicit_parallel";
  case 10:
    return "barrier_teams";
  default:
    return "sync?";
  }
}

static const char *mutex_name(int k) {
  switch (k) {
  case 1:
    return "lock";
  case 2:
    return "test_lock";
  case 3:
    return "nest_lock";
  case 4:
    return "test_nest_lock";
  case 5:
    return "critical";
  case 6:
    return "atomic";
  case 7:
    return "ordered";
  default:
    return "mutex?";
  }
}

static const char *task_status_name(int s) {
  switch (s) {
  case 1:
    return "complete";
  case 2:
    return "yield";
  case 3:
    return "cancel";
  case 4:
    return "detach";
  case 5:
    return "early_fulfill";
  case 6:
    return "late_fulfill";
  case 7:
    return "switch";
  case 8:
    return "taskwait_complete";
  default:
    return "status?";
  }
}

static const char *dispatch_name(int k) {
  switch (k) {
  case 1:
    return "iteration";
  case 2:
    return "section";
  case 3:
    return "ws_loop_chunk";
  case 4:
    return "taskloop_chunk";
  case 5:
    return "distribute_chunk";
  default:
    return "dispatch?";
  }
}

static const char *dependence_name(int k) {
  switch (k) {
  case 1:
    return "in";
  case 2:
    return "out";
  case 3:
    return "inout";
  case 4:
    return "mutexinoutset";
  case 5:
    return "source";
  case 6:
    return "sink";
  case 7:
    return "inoutset";
  default:
    return "dep?";
  }
}

static const char *state_name(int s) {
  switch (s) {
  case 0x000:
    return "work_serial";
  case 0x001:
    return "work_parallel";
  case 0x002:
    return "work_reduction";
  case 0x010:
    return "wait_barrier";
  case 0x011:
    return "wait_barrier_implicit_parallel";
  case 0x012:
    return "wait_barrier_implicit_workshare";
  case 0x013:
    return "wait_barrier_implicit";
  case 0x014:
    return "wait_barrier_explicit";
  case 0x015:
    return "wait_barrier_implementation";
  case 0x016:
    return "wait_barrier_teams";
  case 0x020:
    return "wait_taskwait";
  case 0x021:
    return "wait_taskgroup";
  case 0x040:
    return "wait_mutex";
  case 0x041:
    return "wait_lock";
  case 0x042:
    return "wait_critical";
  case 0x043:
    return "wait_atomic";
  case 0x044:
    return "wait_ordered";
  case 0x080:
    return "wait_target";
  case 0x081:
    return "wait_target_map";
  case 0x082:
    return "wait_target_update";
  case 0x100:
    return "idle";
  case 0x101:
    return "overhead";
  case 0x102:
    return "undefined";
  default:
    return "state?";
  }
}

static const char *set_result_name(int r) {
  switch (r) {
  case 0:
    return "error";
  case 1:
    return "never";
  case 2:
    return "impossible";
  case 3:
    return "sometimes";
  case 4:
    return "sometimes_paired";
  case 5:
    return "always";
  default:
    return "result?";
  }
}

struct flag_name {
  unsigned bit;
  const char *name;
};

static const struct flag_name task_flags[] = {{0x00000001u, "initial"},
                                              {0x00000002u, "implicit"},
                                              {0x00000004u, "explicit"},
                                              {0x00000008u, "target"},
                                              {0x00000010u, "taskwait"},
                                              {0x02000000u, "importing"},
                                              {0x04000000u, "exporting"},
                                              {0x08000000u, "undeferred"},
                                              {0x10000000u, "untied"},
                                              {0x20000000u, "final"},
                                              {0x40000000u, "mergeable"},
                                              {0x80000000u, "merged"},
                                              {0, NULL}};

static const struct flag_name cancel_flags[] = {
    {0x01u, "parallel"},       {0x02u, "sections"},
    {0x04u, "loop"},           {0x08u, "taskgroup"},
    {0x10u, "activated"},      {0x20u, "detected"},
    {0x40u, "discarded_task"}, {0, NULL}};

/* Appends " <key>=a|b|0x..." (or "=0" for no bits). */
static void line_add_flags(line_t *l, const char *key, int flags,
                           const struct flag_name *names) {
  unsigned left = (unsigned)flags;
  line_add(l, " %s=", key);
  if (left == 0) {
    line_add(l, "0");
    return;
  }
  int first = 1;
  for (const struct flag_name *f = names; f->name != NULL; f++) {
    if (left & f->bit) {
      line_add(l, "%s%s", first ? "" : "|", f->name);
      left &= ~f->bit;
      first = 0;
    }
  }
  if (left != 0)
    line_add(l, "%s0x%x", first ? "" : "|", left);
}

static void line_add_ptr(line_t *l, const char *key, const void *p) {
  line_add(l, " %s=0x%lx", key, (unsigned long)(uintptr_t)p);
}

static void line_add_frame(line_t *l, const ompt_frame_t *f) {
  if (f == NULL) {
    line_add(l, " frame=null");
    return;
  }
  line_add(l,
           " frame.exit=0x%lx frame.enter=0x%lx"
           " frame.exit_flags=0x%x frame.enter_flags=0x%x",
           (unsigned long)(uintptr_t)f->exit_frame.ptr,
           (unsigned long)(uintptr_t)f->enter_frame.ptr,
           (unsigned)f->exit_frame_flags, (unsigned)f->enter_frame_flags);
}

/* Appends what the inquiry entry points say about the calling thread:
   " inq: parallel=P team_size=N task=T thread_num=I state=S" followed by
   the other values they return. */
static void line_add_inquiry(line_t *l) {
  ompt_data_t *pdata = NULL;
  int team_size = -1;
  int prc = get_parallel_info(0, &pdata, &team_size);

  int tflags = 0;
  ompt_data_t *tdata = NULL;
  ompt_frame_t *frame = NULL;
  ompt_data_t *pdata2 = NULL;
  int thread_num = -1;
  int trc = get_task_info(0, &tflags, &tdata, &frame, &pdata2, &thread_num);

  ompt_wait_id_t wait_id = 0;
  int state = get_state(&wait_id);

  line_add(l,
           " inq: parallel=%lu team_size=%d task=%lu thread_num=%d"
           " state=%s",
           (unsigned long)(prc ? data_id(pdata, 0) : 0), team_size,
           (unsigned long)(trc ? data_id(tdata, 0) : 0), thread_num,
           state_name(state));
  line_add_flags(l, "task_flags", trc ? tflags : 0, task_flags);
  line_add(l, " task_parallel=%lu wait_id=0x%lx rc=%d,%d",
           (unsigned long)(trc ? data_id(pdata2, 0) : 0),
           (unsigned long)wait_id, prc, trc);
}

/* ------------------------------------------------------------------------
 * Callbacks.
 * --------------------------------------------------------------------- */

static void on_thread_begin(ompt_thread_t thread_type,
                            ompt_data_t *thread_data) {
  uint64_t id = data_id(thread_data, 1);
  line_t l;
  line_start(&l, ompt_callback_thread_begin, "thread_begin");
  line_add(&l, " type=%s thread=%lu", thread_type_name(thread_type),
           (unsigned long)id);
  line_emit(&l);
}

static void on_thread_end(ompt_data_t *thread_data) {
  line_t l;
  line_start(&l, ompt_callback_thread_end, "thread_end");
  line_add(&l, " thread=%lu", (unsigned long)data_id(thread_data, 0));
  line_emit(&l);
}

static void on_parallel_begin(ompt_data_t *encountering_task_data,
                              const ompt_frame_t *encountering_task_frame,
                              ompt_data_t *parallel_data,
                              unsigned int requested_parallelism, int flags,
                              const void *codeptr_ra) {
  uint64_t task = data_id(encountering_task_data, 1);
  uint64_t par = data_id(parallel_data, 1);
  line_t l;
  line_start(&l, ompt_callback_parallel_begin, "parallel_begin");
  line_add(&l, " parallel=%lu encountering_task=%lu requested=%u flags=0x%x",
           (unsigned long)par, (unsigned long)task, requested_parallelism,
           (unsigned)flags);
  line_add_ptr(&l, "codeptr", codeptr_ra);
  line_add_frame(&l, encountering_task_frame);
  line_emit(&l);
}

static void on_parallel_end(ompt_data_t *parallel_data,
                            ompt_data_t *encountering_task_data, int flags,
                            const void *codeptr_ra) {
  line_t l;
  line_start(&l, ompt_callback_parallel_end, "parallel_end");
  line_add(&l, " parallel=%lu encountering_task=%lu flags=0x%x",
           (unsigned long)data_id(parallel_data, 0),
           (unsigned long)data_id(encountering_task_data, 0), (unsigned)flags);
  line_add_ptr(&l, "codeptr", codeptr_ra);
  line_emit(&l);
}

static void on_implicit_task(ompt_scope_endpoint_t endpoint,
                             ompt_data_t *parallel_data, ompt_data_t *task_data,
                             unsigned int actual_parallelism,
                             unsigned int index, int flags) {
  int begin = endpoint == ompt_scope_begin;
  uint64_t par = data_id(parallel_data, begin);
  uint64_t task = data_id(task_data, begin);
  line_t l;
  line_start(&l, ompt_callback_implicit_task, "implicit_task");
  line_add(&l, " %s parallel=%lu task=%lu actual=%u index=%u",
           endpoint_name(endpoint), (unsigned long)par, (unsigned long)task,
           actual_parallelism, index);
  line_add_flags(&l, "flags", flags, task_flags);
  if (begin)
    line_add_inquiry(&l);
  line_emit(&l);
}

static void on_work(ompt_work_t work_type, ompt_scope_endpoint_t endpoint,
                    ompt_data_t *parallel_data, ompt_data_t *task_data,
                    uint64_t count, const void *codeptr_ra) {
  int begin = endpoint == ompt_scope_begin;
  line_t l;
  line_start(&l, ompt_callback_work, "work");
  line_add(&l, " %s wstype=%s parallel=%lu task=%lu count=%lu",
           endpoint_name(endpoint), work_name(work_type),
           (unsigned long)data_id(parallel_data, begin),
           (unsigned long)data_id(task_data, begin), (unsigned long)count);
  line_add_ptr(&l, "codeptr", codeptr_ra);
  if (begin)
    line_add_inquiry(&l);
  line_emit(&l);
}

/* The chunk a 5.2 runtime describes for the *_chunk dispatch kinds. */
struct dispatch_chunk {
  uint64_t start;
  uint64_t iterations;
};

static void on_dispatch(ompt_data_t *parallel_data, ompt_data_t *task_data,
                        ompt_dispatch_t kind, ompt_data_t instance) {
  line_t l;
  line_start(&l, ompt_callback_dispatch, "dispatch");
  line_add(&l, " kind=%s parallel=%lu task=%lu", dispatch_name(kind),
           (unsigned long)data_id(parallel_data, 0),
           (unsigned long)data_id(task_data, 0));
  switch ((int)kind) {
  case 1: /* iteration: the logical iteration number */
    line_add(&l, " instance=%lu", (unsigned long)instance.value);
    break;
  case 3: /* ws_loop_chunk */
  case 4: /* taskloop_chunk */
  case 5: /* distribute_chunk */
    if (instance.ptr != NULL) {
      const struct dispatch_chunk *c = instance.ptr;
      line_add(&l, " start=%lu iterations=%lu", (unsigned long)c->start,
               (unsigned long)c->iterations);
    } else {
      line_add(&l, " instance=0x0");
    }
    break;
  default: /* section: the code address of the section */
    line_add_ptr(&l, "instance", instance.ptr);
    break;
  }
  line_emit(&l);
}

static void on_masked(ompt_scope_endpoint_t endpoint,
                      ompt_data_t *parallel_data, ompt_data_t *task_data,
                      const void *codeptr_ra) {
  int begin = endpoint == ompt_scope_begin;
  line_t l;
  line_start(&l, ompt_callback_masked, "masked");
  line_add(&l, " %s parallel=%lu task=%lu", endpoint_name(endpoint),
           (unsigned long)data_id(parallel_data, begin),
           (unsigned long)data_id(task_data, begin));
  line_add_ptr(&l, "codeptr", codeptr_ra);
  if (begin)
    line_add_inquiry(&l);
  line_emit(&l);
}

static void sync_common(ompt_callbacks_t event, const char *name,
                        ompt_sync_region_t kind, ompt_scope_endpoint_t endpoint,
                        ompt_data_t *parallel_data, ompt_data_t *task_data,
                        const void *codeptr_ra, int inquire) {
  int begin = endpoint == ompt_scope_begin;
  line_t l;
  line_start(&l, event, name);
  line_add(&l, " %s kind=%s parallel=%lu task=%lu", endpoint_name(endpoint),
           sync_name(kind), (unsigned long)data_id(parallel_data, begin),
           (unsigned long)data_id(task_data, begin));
  line_add_ptr(&l, "codeptr", codeptr_ra);
  if (begin && inquire)
    line_add_inquiry(&l);
  line_emit(&l);
}

static void on_sync_region(ompt_sync_region_t kind,
                           ompt_scope_endpoint_t endpoint,
                           ompt_data_t *parallel_data, ompt_data_t *task_data,
                           const void *codeptr_ra) {
  sync_common(ompt_callback_sync_region, "sync_region", kind, endpoint,
              parallel_data, task_data, codeptr_ra, 1);
}

static void on_sync_region_wait(ompt_sync_region_t kind,
                                ompt_scope_endpoint_t endpoint,
                                ompt_data_t *parallel_data,
                                ompt_data_t *task_data,
                                const void *codeptr_ra) {
  sync_common(ompt_callback_sync_region_wait, "sync_region_wait", kind,
              endpoint, parallel_data, task_data, codeptr_ra, 0);
}

static void on_reduction(ompt_sync_region_t kind,
                         ompt_scope_endpoint_t endpoint,
                         ompt_data_t *parallel_data, ompt_data_t *task_data,
                         const void *codeptr_ra) {
  sync_common(ompt_callback_reduction, "reduction", kind, endpoint,
              parallel_data, task_data, codeptr_ra, 0);
}

static void mutex_acquire_common(ompt_callbacks_t event, const char *name,
                                 ompt_mutex_t kind, unsigned int hint,
                                 unsigned int impl, ompt_wait_id_t wait_id,
                                 const void *codeptr_ra) {
  line_t l;
  line_start(&l, event, name);
  line_add(&l, " kind=%s hint=%u impl=%u wait_id=0x%lx", mutex_name(kind), hint,
           impl, (unsigned long)wait_id);
  line_add_ptr(&l, "codeptr", codeptr_ra);
  line_emit(&l);
}

static void on_mutex_acquire(ompt_mutex_t kind, unsigned int hint,
                             unsigned int impl, ompt_wait_id_t wait_id,
                             const void *codeptr_ra) {
  mutex_acquire_common(ompt_callback_mutex_acquire, "mutex_acquire", kind, hint,
                       impl, wait_id, codeptr_ra);
}

static void on_lock_init(ompt_mutex_t kind, unsigned int hint,
                         unsigned int impl, ompt_wait_id_t wait_id,
                         const void *codeptr_ra) {
  mutex_acquire_common(ompt_callback_lock_init, "lock_init", kind, hint, impl,
                       wait_id, codeptr_ra);
}

static void mutex_common(ompt_callbacks_t event, const char *name,
                         ompt_mutex_t kind, ompt_wait_id_t wait_id,
                         const void *codeptr_ra) {
  line_t l;
  line_start(&l, event, name);
  line_add(&l, " kind=%s wait_id=0x%lx", mutex_name(kind),
           (unsigned long)wait_id);
  line_add_ptr(&l, "codeptr", codeptr_ra);
  line_emit(&l);
}

static void on_mutex_acquired(ompt_mutex_t kind, ompt_wait_id_t wait_id,
                              const void *codeptr_ra) {
  mutex_common(ompt_callback_mutex_acquired, "mutex_acquired", kind, wait_id,
               codeptr_ra);
}

static void on_mutex_released(ompt_mutex_t kind, ompt_wait_id_t wait_id,
                              const void *codeptr_ra) {
  mutex_common(ompt_callback_mutex_released, "mutex_released", kind, wait_id,
               codeptr_ra);
}

static void on_lock_destroy(ompt_mutex_t kind, ompt_wait_id_t wait_id,
                            const void *codeptr_ra) {
  mutex_common(ompt_callback_lock_destroy, "lock_destroy", kind, wait_id,
               codeptr_ra);
}

static void on_nest_lock(ompt_scope_endpoint_t endpoint, ompt_wait_id_t wait_id,
                         const void *codeptr_ra) {
  line_t l;
  line_start(&l, ompt_callback_nest_lock, "nest_lock");
  line_add(&l, " %s wait_id=0x%lx", endpoint_name(endpoint),
           (unsigned long)wait_id);
  line_add_ptr(&l, "codeptr", codeptr_ra);
  line_emit(&l);
}

static void on_task_create(ompt_data_t *encountering_task_data,
                           const ompt_frame_t *encountering_task_frame,
                           ompt_data_t *new_task_data, int flags,
                           int has_dependences, const void *codeptr_ra) {
  uint64_t enc = data_id(encountering_task_data, 1);
  uint64_t task = data_id(new_task_data, 1);
  line_t l;
  line_start(&l, ompt_callback_task_create, "task_create");
  line_add(&l, " encountering_task=%lu new_task=%lu", (unsigned long)enc,
           (unsigned long)task);
  line_add_flags(&l, "flags", flags, task_flags);
  line_add(&l, " has_dependences=%d", has_dependences);
  line_add_ptr(&l, "codeptr", codeptr_ra);
  line_add_frame(&l, encountering_task_frame);
  line_emit(&l);
}

static void on_task_schedule(ompt_data_t *prior_task_data,
                             ompt_task_status_t prior_task_status,
                             ompt_data_t *next_task_data) {
  uint64_t prior = data_id(prior_task_data, 0);
  uint64_t next = data_id(next_task_data, 1);
  line_t l;
  line_start(&l, ompt_callback_task_schedule, "task_schedule");
  line_add(&l, " prior_task=%lu status=%s next_task=%lu", (unsigned long)prior,
           task_status_name(prior_task_status), (unsigned long)next);
  line_emit(&l);
}

static void on_dependences(ompt_data_t *task_data,
                           const ompt_dependence_t *deps, int ndeps) {
  line_t l;
  line_start(&l, ompt_callback_dependences, "dependences");
  line_add(&l, " task=%lu ndeps=%d deps=", (unsigned long)data_id(task_data, 0),
           ndeps);
  for (int i = 0; i < ndeps && deps != NULL; i++)
    line_add(&l, "%s%s:0x%lx", i ? "," : "",
             dependence_name(deps[i].dependence_type),
             (unsigned long)deps[i].variable.value);
  line_emit(&l);
}

static void on_task_dependence(ompt_data_t *src_task_data,
                               ompt_data_t *sink_task_data) {
  line_t l;
  line_start(&l, ompt_callback_task_dependence, "task_dependence");
  line_add(&l, " src_task=%lu sink_task=%lu",
           (unsigned long)data_id(src_task_data, 0),
           (unsigned long)data_id(sink_task_data, 0));
  line_emit(&l);
}

static void on_flush(ompt_data_t *thread_data, const void *codeptr_ra) {
  line_t l;
  line_start(&l, ompt_callback_flush, "flush");
  line_add(&l, " thread=%lu", (unsigned long)data_id(thread_data, 0));
  line_add_ptr(&l, "codeptr", codeptr_ra);
  line_emit(&l);
}

static void on_cancel(ompt_data_t *task_data, int flags,
                      const void *codeptr_ra) {
  line_t l;
  line_start(&l, ompt_callback_cancel, "cancel");
  line_add(&l, " task=%lu", (unsigned long)data_id(task_data, 0));
  line_add_flags(&l, "flags", flags, cancel_flags);
  line_add_ptr(&l, "codeptr", codeptr_ra);
  line_emit(&l);
}

static int on_control_tool(uint64_t command, uint64_t modifier, void *arg,
                           const void *codeptr_ra) {
  line_t l;
  line_start(&l, ompt_callback_control_tool, "control_tool");
  line_add(&l, " command=%lu modifier=%lu", (unsigned long)command,
           (unsigned long)modifier);
  line_add_ptr(&l, "arg", arg);
  line_add_ptr(&l, "codeptr", codeptr_ra);
  line_emit(&l);
  return 0; /* what omp_control_tool returns to the program */
}

static void on_error(ompt_severity_t severity, const char *message,
                     size_t length, const void *codeptr_ra) {
  line_t l;
  line_start(&l, ompt_callback_error, "error");
  line_add(&l, " severity=%s length=%lu",
           severity == 1   ? "warning"
           : severity == 2 ? "fatal"
                           : "severity?",
           (unsigned long)length);
  line_add_ptr(&l, "codeptr", codeptr_ra);
  /* The message goes last and on one line: other bytes than printable
     ASCII become '?'; a long message is cut. */
  char text[512];
  size_t n = 0;
  for (; message != NULL && n < length && n < sizeof text - 1; n++) {
    unsigned char c = (unsigned char)message[n];
    text[n] = (c >= 0x20 && c < 0x7f) ? (char)c : '?';
  }
  text[n] = '\0';
  line_add(&l, " message=\"%s\"", text);
  line_emit(&l);
}

/* ------------------------------------------------------------------------
 * Registration, initialize, finalize, ompt_start_tool.
 * --------------------------------------------------------------------- */

static const char *event_name(int event) {
  switch (event) {
  case 1:
    return "thread_begin";
  case 2:
    return "thread_end";
  case 3:
    return "parallel_begin";
  case 4:
    return "parallel_end";
  case 5:
    return "task_create";
  case 6:
    return "task_schedule";
  case 7:
    return "implicit_task";
  case 11:
    return "control_tool";
  case 16:
    return "sync_region_wait";
  case 17:
    return "mutex_released";
  case 18:
    return "dependences";
  case 19:
    return "task_dependence";
  case 20:
    return "work";
  case 21:
    return "masked";
  case 23:
    return "sync_region";
  case 24:
    return "lock_init";
  case 25:
    return "lock_destroy";
  case 26:
    return "mutex_acquire";
  case 27:
    return "mutex_acquired";
  case 28:
    return "nest_lock";
  case 29:
    return "flush";
  case 30:
    return "cancel";
  case 31:
    return "reduction";
  case 32:
    return "dispatch";
  case 37:
    return "error";
  default:
    return "event?";
  }
}

static void register_one(ompt_callbacks_t event, ompt_callback_t fn) {
  ompt_set_result_t r = set_callback(event, fn);
  if ((unsigned)event < MAX_EVENT)
    registered[event] = r != ompt_set_error && r != ompt_set_never;
  line_t l;
  l.len = 0;
  line_add(&l, "ompt: set_callback %s = %s", event_name(event),
           set_result_name(r));
  line_emit(&l);
}

#define REGISTER(event, fn) register_one(event, (ompt_callback_t)(fn))

/* Looks up an entry point; missing ones are reported. */
static ompt_interface_fn_t lookup_one(ompt_function_lookup_t lookup,
                                      const char *name, int *missing) {
  ompt_interface_fn_t fn = lookup(name);
  if (fn == NULL) {
    line_t l;
    l.len = 0;
    line_add(&l, "ompt: lookup %s = missing", name);
    line_emit(&l);
    *missing = 1;
  }
  return fn;
}

static int tool_initialize(ompt_function_lookup_t lookup,
                           int initial_device_num, ompt_data_t *tool_data) {
  (void)tool_data;
  int missing = 0;
  set_callback =
      (ompt_set_callback_t)lookup_one(lookup, "ompt_set_callback", &missing);
  get_unique_id =
      (ompt_get_unique_id_t)lookup_one(lookup, "ompt_get_unique_id", &missing);
  get_thread_data = (ompt_get_thread_data_t)lookup_one(
      lookup, "ompt_get_thread_data", &missing);
  get_parallel_info = (ompt_get_parallel_info_t)lookup_one(
      lookup, "ompt_get_parallel_info", &missing);
  get_task_info =
      (ompt_get_task_info_t)lookup_one(lookup, "ompt_get_task_info", &missing);
  get_state = (ompt_get_state_t)lookup_one(lookup, "ompt_get_state", &missing);

  line_t l;
  l.len = 0;
  line_add(&l, "ompt: initialize initial_device=%d", initial_device_num);
  line_emit(&l);
  if (missing) {
    l.len = 0;
    line_add(&l, "ompt: initialize failed: entry points missing");
    line_emit(&l);
    return 0; /* a zero return deactivates the tool */
  }

  REGISTER(ompt_callback_thread_begin, on_thread_begin);
  REGISTER(ompt_callback_thread_end, on_thread_end);
  REGISTER(ompt_callback_parallel_begin, on_parallel_begin);
  REGISTER(ompt_callback_parallel_end, on_parallel_end);
  REGISTER(ompt_callback_implicit_task, on_implicit_task);
  REGISTER(ompt_callback_work, on_work);
  REGISTER(ompt_callback_dispatch, on_dispatch);
  REGISTER(ompt_callback_masked, on_masked);
  REGISTER(ompt_callback_sync_region, on_sync_region);
  REGISTER(ompt_callback_sync_region_wait, on_sync_region_wait);
  REGISTER(ompt_callback_reduction, on_reduction);
  REGISTER(ompt_callback_mutex_acquire, on_mutex_acquire);
  REGISTER(ompt_callback_mutex_acquired, on_mutex_acquired);
  REGISTER(ompt_callback_mutex_released, on_mutex_released);
  REGISTER(ompt_callback_task_create, on_task_create);
  REGISTER(ompt_callback_task_schedule, on_task_schedule);
  REGISTER(ompt_callback_dependences, on_dependences);
  REGISTER(ompt_callback_task_dependence, on_task_dependence);
  REGISTER(ompt_callback_lock_init, on_lock_init);
  REGISTER(ompt_callback_lock_destroy, on_lock_destroy);
  REGISTER(ompt_callback_nest_lock, on_nest_lock);
  REGISTER(ompt_callback_flush, on_flush);
  REGISTER(ompt_callback_cancel, on_cancel);
  REGISTER(ompt_callback_control_tool, on_control_tool);
  REGISTER(ompt_callback_error, on_error);
  return 1; /* non-zero keeps the tool active */
}

static void tool_finalize(ompt_data_t *tool_data) {
  (void)tool_data;
  line_t l;
  l.len = 0;
  line_add(&l, "ompt: summary");
  for (int e = 0; e < MAX_EVENT; e++) {
    if (registered[e])
      line_add(&l, " %s=%lu", event_name(e),
               atomic_load_explicit(&counts[e], memory_order_relaxed));
  }
  line_emit(&l);
  l.len = 0;
  line_add(&l, "ompt: finalize");
  line_emit(&l);
  /* The output file stays open: a runtime may still deliver callbacks
     (thread_end of other threads) after finalize; the exit closes it. */
}

ompt_start_tool_result_t *ompt_start_tool(unsigned int omp_version,
                                          const char *runtime_version) {
  static ompt_start_tool_result_t result = {
      .initialize = tool_initialize,
      .finalize = tool_finalize,
      .tool_data = {0},
  };

  const char *path = getenv("OMPT_PRINT_FILE");
  if (path != NULL && path[0] != '\0') {
    int fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
    if (fd >= 0) {
      out_fd = fd;
    } else {
      line_t l;
      l.len = 0;
      line_add(&l, "ompt: cannot open OMPT_PRINT_FILE %s, using stderr", path);
      line_emit(&l);
    }
  }

  line_t l;
  l.len = 0;
  line_add(&l, "ompt: start_tool omp_version=%u runtime=%s", omp_version,
           runtime_version != NULL ? runtime_version : "(null)");
  line_emit(&l);
  return &result;
}
