/*
 * pomp_stub.c -- a checking POMP library for the golden "run" tests.
 *
 * It implements the events pomp-instr emits and verifies, without any
 * OpenMP knowledge, what the instrumented code promises:
 *  - every first event of a construct gets a handle pointer and a CTC string
 *    that is well formed (length prefix, "**" terminator, type/file/lines);
 *  - thread ids are POMP_THREAD_SELF;
 *  - on every thread, events nest: each enter/begin is closed by the
 *    matching exit/end of the same construct, innermost first;
 *  - a parallel region's team storage is the one its enter event set up;
 *  - every explicit task that is created begins and ends exactly once, with
 *    the task storage its creation filled in (carried in by firstprivate,
 *    or, for a construct that hands its tasks over, by the GOMP_task here,
 *    as libpompt's does);
 *  - dependences have a type of ompt_dependence_type_t;
 *  - the POMP_Api_omp_* wrappers call the OpenMP routine and return its
 *    result;
 *  - target constructs pass well-formed map lists, and every nowait one is
 *    completed exactly once by its completion task, with copies of the
 *    instance and of the map list.
 * The compact POMPT_* events (pomp.h) go through the same checks as the
 * routines they stand for (end of this file).
 * Problems are printed to stderr (the test fails on any stderr output).
 *
 * With POMP_STUB_LOG=<file> every event is appended to the file as one
 * line "<event> <type>@<line>" (the construct's CTC type and first line),
 * which the run tests compare with the case's expected event order.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <omp.h>
#include <stdbool.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pomp.h"
/* the loop entries libpompt wraps (internal header, shared on purpose) */
#include "../../ompt-bridge/src/gomp_loop_entries.h"

struct pomp_region {
  char type[32];
  char name[64];
  int line;
};

enum ev {
  EV_PARALLEL,
  EV_PAR_BODY,
  EV_LOOP,
  EV_ITER,
  EV_SECTIONS,
  EV_SECTION,
  EV_SINGLE,
  EV_SINGLE_BODY,
  EV_MASTER,
  EV_MASKED,
  EV_CRITICAL,
  EV_CRITICAL_BODY,
  EV_BARRIER,
  EV_IBARRIER,
  EV_ORDERED,
  EV_ORDERED_BODY,
  EV_ATOMIC,
  EV_TASK_CREATE,
  EV_TASK,
  EV_TASKWAIT,
  EV_TASKGROUP,
  EV_TASKGROUP_BODY,
  EV_TASKYIELD,
  EV_TASKLOOP,
  EV_SCOPE,
  EV_USER,
  EV_TARGET,
  EV_TARGET_DATA,
  EV_TARGET_DATA_BODY,
  EV_TEAMS,
  EV_TEAMS_BODY,
  EV_DISTRIBUTE,
  EV_DISTRIBUTE_PARALLEL
};

static const char *const ev_name[] = {
    "parallel",      "parallel body", "loop",          "iteration",
    "sections",      "section",       "single",        "single body",
    "master",        "masked",        "critical",      "critical body",
    "barrier",       "implicit barrier", "ordered",    "ordered body",
    "atomic",        "task creation", "task",          "taskwait",
    "taskgroup",     "taskgroup body", "taskyield",    "taskloop",
    "scope",         "user region",   "target",        "target data",
    "target data body", "teams",      "teams body",    "distribute",
    "distribute parallel"};

#define MAX_DEPTH 128
static _Thread_local struct {
  POMP_Handle_t h;
  enum ev e;
} stack[MAX_DEPTH];
static _Thread_local int depth;

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static long open_events, problems;
static long tasks_created, tasks_begun, tasks_ended;
static FILE *log_file;

static void problem(const char *fmt, const char *a, const char *b) {
  pthread_mutex_lock(&lock);
  if (problems++ < 20) {
    fputs("pomp_stub: ", stderr);
    fprintf(stderr, fmt, a, b);
    fputc('\n', stderr);
  }
  pthread_mutex_unlock(&lock);
}

__attribute__((constructor)) static void open_log(void) {
  const char *path = getenv("POMP_STUB_LOG");
  if (path && *path) {
    log_file = fopen(path, "w");
    if (!log_file)
      problem("cannot open the log '%s'%s", path, "");
  }
}

static void log_event(const char *event, POMP_Handle_t h) {
  if (!log_file)
    return;
  pthread_mutex_lock(&lock);
  if (h)
    fprintf(log_file, "%s %s@%d\n", event, h->type, h->line);
  else
    fprintf(log_file, "%s ?\n", event);
  pthread_mutex_unlock(&lock);
}

static int ctc_ok(const char *ctc) {
  if (!ctc)
    return 0;
  char *end;
  long n = strtol(ctc, &end, 10);
  if (end == ctc || *end != '*')
    return 0;
  size_t len = strlen(end);
  if (len < 2 || (long)len != n || strcmp(end + len - 2, "**") != 0)
    return 0;
  return strstr(end, "*type=") == end && strstr(end, "*file=") &&
         strstr(end, "*lines=");
}

static POMP_Handle_t init_handle(POMP_Handle_t *h, const char *ctc) {
  if (!h) {
    problem("%s%s", "first event without a handle pointer", "");
    return NULL;
  }
  pthread_mutex_lock(&lock);
  if (!*h) {
    if (!ctc_ok(ctc)) {
      pthread_mutex_unlock(&lock);
      problem("malformed CTC string '%s'%s", ctc ? ctc : "(null)", "");
      pthread_mutex_lock(&lock);
    }
    struct pomp_region *r = calloc(1, sizeof *r);
    const char *t = ctc ? strstr(ctc, "*type=") : NULL;
    const char *l = ctc ? strstr(ctc, "*lines=") : NULL;
    const char *nm = ctc ? strstr(ctc, "*name=") : NULL;
    if (r && t)
      sscanf(t + 6, "%31[^*]", r->type);
    if (r && l)
      r->line = atoi(l + 7);
    if (r && nm)
      sscanf(nm + 6, "%63[^*]", r->name);
    *h = r;
  }
  pthread_mutex_unlock(&lock);
  return *h;
}

static void check_tid(int32_t tid) {
  if (tid != POMP_THREAD_SELF)
    problem("thread id is not POMP_THREAD_SELF%s%s", "", "");
}

static void check_type(POMP_Handle_t h, const char *event, const char *types) {
  /* types: '|'-separated CTC types the event may come with */
  if (!h)
    return;
  size_t n = strlen(h->type);
  for (const char *p = types; *p;) {
    const char *e = strchr(p, '|');
    size_t len = e ? (size_t)(e - p) : strlen(p);
    if (len == n && strncmp(p, h->type, n) == 0)
      return;
    if (!e)
      break;
    p = e + 1;
  }
  problem("'%s' with a handle of type '%s'", event, h->type);
}

static void open_ev(POMP_Handle_t h, enum ev e, int32_t tid) {
  check_tid(tid);
  if (depth >= MAX_DEPTH) {
    problem("events nested too deeply%s%s", "", "");
    return;
  }
  stack[depth].h = h;
  stack[depth].e = e;
  depth++;
  __atomic_add_fetch(&open_events, 1, __ATOMIC_RELAXED);
}

static void close_ev(POMP_Handle_t h, enum ev e, int32_t tid) {
  check_tid(tid);
  if (depth == 0) {
    problem("'%s' ends, but nothing is open%s", ev_name[e], "");
    return;
  }
  depth--;
  if (stack[depth].h != h || stack[depth].e != e)
    problem("'%s' ends while '%s' is innermost", ev_name[e],
            ev_name[stack[depth].e]);
  __atomic_sub_fetch(&open_events, 1, __ATOMIC_RELAXED);
}

#define TEAM_MAGIC UINT64_C(0x706f6d7074656d21)
#define TASK_MAGIC UINT64_C(0x706f6d707461736b)
static void check_team(POMP_Handle_t h, POMP_Team_t *team) {
  if (!team || team->pomp_opaque[0] != (TEAM_MAGIC ^ (uint64_t)(uintptr_t)h))
    problem("team storage does not come from the region's enter event%s%s", "",
            "");
}

/* Each task: bit 0 of a state byte = begun, bit 1 = ended. */
#define MAX_TASKS (1 << 20)
static unsigned char task_state[MAX_TASKS];

static uint64_t check_task(POMP_Handle_t h, POMP_Task_t *task) {
  if (!task || task->pomp_opaque[0] != (TASK_MAGIC ^ (uint64_t)(uintptr_t)h)) {
    problem("task storage does not come from the task's creation%s%s", "", "");
    return 0;
  }
  return task->pomp_opaque[1];
}

/* ---- Control --------------------------------------------------------------- */

int32_t POMP_Init(void) {
  log_event("init", NULL);
  return POMP_SUCCESS;
}
int32_t POMP_Finalize(void) {
  log_event("finalize", NULL);
  return POMP_SUCCESS;
}
int32_t POMP_On(void) {
  log_event("on", NULL);
  return POMP_SUCCESS;
}
int32_t POMP_Off(void) {
  log_event("off", NULL);
  return POMP_SUCCESS;
}

int32_t POMP_Get_handle(POMP_Handle_t *handle, const char ctc[]) {
  init_handle(handle, ctc);
  return POMP_SUCCESS;
}

/* ---- Parallel ---------------------------------------------------------- */

#define PAR_TYPES                                                              \
  "parallel|parallelfor|parallelforsimd|parallelsections|parallelloop|"        \
  "parallelmaster|parallelmasked|parallelmastertaskloop|"                      \
  "parallelmastertaskloopsimd|parallelmaskedtaskloop|"                         \
  "parallelmaskedtaskloopsimd"

int32_t POMP_Parallel_enter_team(POMP_Handle_t *handle, int32_t thread_id,
                                 int32_t num_threads, int32_t if_expr_result,
                                 POMP_Team_t *team, const char ctc[]) {
  POMP_Handle_t h = init_handle(handle, ctc);
  check_type(h, "parallel enter", PAR_TYPES);
  if (if_expr_result < -1 || if_expr_result > 1 || num_threads < -1)
    problem("bad parallel run-time context%s%s", "", "");
  if (team)
    team->pomp_opaque[0] = TEAM_MAGIC ^ (uint64_t)(uintptr_t)h;
  log_event("parallel_enter", h);
  open_ev(h, EV_PARALLEL, thread_id);
  return POMP_SUCCESS;
}
int32_t POMP_Parallel_begin_team(POMP_Handle_t h, int32_t thread_id,
                                 POMP_Team_t *team) {
  check_team(h, team);
  log_event("parallel_begin", h);
  open_ev(h, EV_PAR_BODY, thread_id);
  return POMP_SUCCESS;
}
int32_t POMP_Parallel_end_team(POMP_Handle_t h, int32_t thread_id,
                               POMP_Team_t *team) {
  check_team(h, team);
  log_event("parallel_end", h);
  close_ev(h, EV_PAR_BODY, thread_id);
  return POMP_SUCCESS;
}
int32_t POMP_Parallel_exit_team(POMP_Handle_t h, int32_t thread_id,
                                POMP_Team_t *team) {
  check_team(h, team);
  log_event("parallel_exit", h);
  close_ev(h, EV_PARALLEL, thread_id);
  return POMP_SUCCESS;
}

/* ---- Worksharing --------------------------------------------------------- */

int32_t POMP_Loop_enter(POMP_Handle_t *handle, int32_t thread_id,
                        int64_t chunk_size, int64_t init_iter,
                        int64_t final_iter, int64_t incr, const char ctc[]) {
  (void)chunk_size;
  (void)init_iter;
  (void)final_iter;
  (void)incr;
  POMP_Handle_t h = init_handle(handle, ctc);
  check_type(h, "loop enter",
             "for|forsimd|loop|parallelfor|parallelforsimd|parallelloop");
  log_event("loop_enter", h);
  open_ev(h, EV_LOOP, thread_id);
  return POMP_SUCCESS;
}
int32_t POMP_Loop_exit(POMP_Handle_t h, int32_t thread_id) {
  log_event("loop_exit", h);
  close_ev(h, EV_LOOP, thread_id);
  return POMP_SUCCESS;
}
int32_t POMP_Loop_iter_begin(POMP_Handle_t h, int32_t thread_id,
                             int64_t iter) {
  (void)iter;
  open_ev(h, EV_ITER, thread_id);
  return POMP_SUCCESS;
}
int32_t POMP_Loop_iter_end(POMP_Handle_t h, int32_t thread_id) {
  close_ev(h, EV_ITER, thread_id);
  return POMP_SUCCESS;
}

/* --loop-level=chunks: the chunk state must be the one the enter event
 * set up, and its counter valid for the body's check. */
#define CHUNKS_MAGIC UINT64_C(0x706f6d706368756b)
int32_t POMP_Loop_chunks_enter(POMP_Handle_t *handle, int32_t thread_id,
                               POMP_Chunks_t *chunks, int32_t schedule,
                               int64_t chunk_size, int64_t init_iter,
                               int64_t final_iter, int64_t incr,
                               const char ctc[]) {
  (void)chunk_size, (void)init_iter, (void)final_iter, (void)incr;
  POMP_Handle_t h = init_handle(handle, ctc);
  check_type(h, "loop chunks enter", "for|forsimd|parallelfor|parallelforsimd");
  if (schedule < POMP_CHUNKS_NONE || schedule > POMP_CHUNKS_RUNTIME)
    problem("loop chunks enter: unknown schedule%s%s", "", "");
  if (!chunks) {
    problem("loop chunks enter without chunk storage%s%s", "", "");
  } else {
    chunks->pomp_left = schedule == POMP_CHUNKS_STATIC && chunk_size > 0
                            ? 0
                            : INT64_MAX;
    chunks->pomp_opaque[0] = CHUNKS_MAGIC ^ (uint64_t)(uintptr_t)h;
  }
  log_event("loop_enter", h);
  open_ev(h, EV_LOOP, thread_id);
  return POMP_SUCCESS;
}
int32_t POMP_Loop_chunk_next(POMP_Handle_t h, int32_t thread_id,
                             POMP_Chunks_t *chunks) {
  check_tid(thread_id);
  if (!chunks || chunks->pomp_opaque[0] != (CHUNKS_MAGIC ^ (uint64_t)(uintptr_t)h))
    problem("chunk storage does not come from the loop's enter event%s%s", "",
            "");
  else
    chunks->pomp_left = 2; /* a chunk of three iterations, for the check */
  log_event("loop_chunk_next", h);
  return POMP_SUCCESS;
}
int32_t POMP_Loop_chunks_exit(POMP_Handle_t h, int32_t thread_id,
                              POMP_Chunks_t *chunks) {
  if (!chunks || chunks->pomp_opaque[0] != (CHUNKS_MAGIC ^ (uint64_t)(uintptr_t)h))
    problem("chunk storage does not come from the loop's enter event%s%s", "",
            "");
  log_event("loop_exit", h);
  close_ev(h, EV_LOOP, thread_id);
  return POMP_SUCCESS;
}

int32_t POMP_Sections_enter(POMP_Handle_t *handle, int32_t thread_id,
                            const char ctc[]) {
  POMP_Handle_t h = init_handle(handle, ctc);
  log_event("sections_enter", h);
  open_ev(h, EV_SECTIONS, thread_id);
  return POMP_SUCCESS;
}
int32_t POMP_Section_begin(POMP_Handle_t h, int32_t section_num,
                           int32_t thread_id) {
  if (section_num < 1)
    problem("bad section number%s%s", "", "");
  log_event("section_begin", h);
  open_ev(h, EV_SECTION, thread_id);
  return POMP_SUCCESS;
}
int32_t POMP_Section_end(POMP_Handle_t h, int32_t thread_id) {
  log_event("section_end", h);
  close_ev(h, EV_SECTION, thread_id);
  return POMP_SUCCESS;
}
int32_t POMP_Sections_exit(POMP_Handle_t h, int32_t thread_id) {
  log_event("sections_exit", h);
  close_ev(h, EV_SECTIONS, thread_id);
  return POMP_SUCCESS;
}

int32_t POMP_Single_enter(POMP_Handle_t *handle, int32_t thread_id,
                          const char ctc[]) {
  POMP_Handle_t h = init_handle(handle, ctc);
  log_event("single_enter", h);
  open_ev(h, EV_SINGLE, thread_id);
  return POMP_SUCCESS;
}
int32_t POMP_Single_begin(POMP_Handle_t h, int32_t thread_id) {
  log_event("single_begin", h);
  open_ev(h, EV_SINGLE_BODY, thread_id);
  return POMP_SUCCESS;
}
int32_t POMP_Single_end(POMP_Handle_t h, int32_t thread_id) {
  log_event("single_end", h);
  close_ev(h, EV_SINGLE_BODY, thread_id);
  return POMP_SUCCESS;
}
int32_t POMP_Single_exit(POMP_Handle_t h, int32_t thread_id) {
  log_event("single_exit", h);
  close_ev(h, EV_SINGLE, thread_id);
  return POMP_SUCCESS;
}

int32_t POMP_Scope_enter(POMP_Handle_t *handle, int32_t thread_id,
                         const char ctc[]) {
  POMP_Handle_t h = init_handle(handle, ctc);
  check_type(h, "scope enter", "scope");
  log_event("scope_enter", h);
  open_ev(h, EV_SCOPE, thread_id);
  return POMP_SUCCESS;
}
int32_t POMP_Scope_exit(POMP_Handle_t h, int32_t thread_id) {
  log_event("scope_exit", h);
  close_ev(h, EV_SCOPE, thread_id);
  return POMP_SUCCESS;
}

/* ---- Synchronisation ----------------------------------------------------- */

int32_t POMP_Master_begin(POMP_Handle_t *handle, int32_t thread_id,
                          const char ctc[]) {
  POMP_Handle_t h = init_handle(handle, ctc);
  if (omp_get_thread_num() != 0)
    problem("master block run by thread %s%s", "other than 0", "");
  log_event("master_begin", h);
  open_ev(h, EV_MASTER, thread_id);
  return POMP_SUCCESS;
}
int32_t POMP_Master_end(POMP_Handle_t h, int32_t thread_id) {
  log_event("master_end", h);
  close_ev(h, EV_MASTER, thread_id);
  return POMP_SUCCESS;
}

int32_t POMP_Masked_begin(POMP_Handle_t *handle, int32_t thread_id,
                          int32_t filter, const char ctc[]) {
  POMP_Handle_t h = init_handle(handle, ctc);
  if (omp_get_thread_num() != filter)
    problem("masked block run by a thread %s%s", "the filter does not name",
            "");
  log_event("masked_begin", h);
  open_ev(h, EV_MASKED, thread_id);
  return POMP_SUCCESS;
}
int32_t POMP_Masked_end(POMP_Handle_t h, int32_t thread_id) {
  log_event("masked_end", h);
  close_ev(h, EV_MASKED, thread_id);
  return POMP_SUCCESS;
}

int32_t POMP_Critical_enter(POMP_Handle_t *handle, int32_t thread_id,
                            const char ctc[]) {
  POMP_Handle_t h = init_handle(handle, ctc);
  log_event("critical_enter", h);
  open_ev(h, EV_CRITICAL, thread_id);
  return POMP_SUCCESS;
}
int32_t POMP_Critical_begin(POMP_Handle_t h, int32_t thread_id) {
  log_event("critical_begin", h);
  open_ev(h, EV_CRITICAL_BODY, thread_id);
  return POMP_SUCCESS;
}
int32_t POMP_Critical_end(POMP_Handle_t h, int32_t thread_id) {
  log_event("critical_end", h);
  close_ev(h, EV_CRITICAL_BODY, thread_id);
  return POMP_SUCCESS;
}
int32_t POMP_Critical_exit(POMP_Handle_t h, int32_t thread_id) {
  log_event("critical_exit", h);
  close_ev(h, EV_CRITICAL, thread_id);
  return POMP_SUCCESS;
}

int32_t POMP_Barrier_enter(POMP_Handle_t *handle, int32_t thread_id,
                           const char ctc[]) {
  POMP_Handle_t h = init_handle(handle, ctc);
  log_event("barrier_enter", h);
  open_ev(h, EV_BARRIER, thread_id);
  return POMP_SUCCESS;
}
int32_t POMP_Barrier_exit(POMP_Handle_t h, int32_t thread_id) {
  log_event("barrier_exit", h);
  close_ev(h, EV_BARRIER, thread_id);
  return POMP_SUCCESS;
}

int32_t POMP_Implicit_barrier_enter(POMP_Handle_t *handle, int32_t thread_id,
                                    const char ctc[]) {
  POMP_Handle_t h = init_handle(handle, ctc);
  log_event("ibarrier_enter", h);
  open_ev(h, EV_IBARRIER, thread_id);
  return POMP_SUCCESS;
}
int32_t POMP_Implicit_barrier_exit(POMP_Handle_t h, int32_t thread_id) {
  log_event("ibarrier_exit", h);
  close_ev(h, EV_IBARRIER, thread_id);
  return POMP_SUCCESS;
}

int32_t POMP_Ordered_enter(POMP_Handle_t *handle, int32_t thread_id,
                           const char ctc[]) {
  POMP_Handle_t h = init_handle(handle, ctc);
  log_event("ordered_enter", h);
  open_ev(h, EV_ORDERED, thread_id);
  return POMP_SUCCESS;
}
int32_t POMP_Ordered_begin(POMP_Handle_t h, int32_t thread_id) {
  log_event("ordered_begin", h);
  open_ev(h, EV_ORDERED_BODY, thread_id);
  return POMP_SUCCESS;
}
int32_t POMP_Ordered_end(POMP_Handle_t h, int32_t thread_id) {
  log_event("ordered_end", h);
  close_ev(h, EV_ORDERED_BODY, thread_id);
  return POMP_SUCCESS;
}
int32_t POMP_Ordered_exit(POMP_Handle_t h, int32_t thread_id) {
  log_event("ordered_exit", h);
  close_ev(h, EV_ORDERED, thread_id);
  return POMP_SUCCESS;
}

int32_t POMP_Atomic_enter(POMP_Handle_t *handle, int32_t thread_id,
                          const char ctc[]) {
  POMP_Handle_t h = init_handle(handle, ctc);
  check_type(h, "atomic enter", "atomic");
  log_event("atomic_enter", h);
  open_ev(h, EV_ATOMIC, thread_id);
  return POMP_SUCCESS;
}
int32_t POMP_Atomic_exit(POMP_Handle_t h, int32_t thread_id) {
  log_event("atomic_exit", h);
  close_ev(h, EV_ATOMIC, thread_id);
  return POMP_SUCCESS;
}

int32_t POMP_Flush_event(POMP_Handle_t *handle, int32_t thread_id,
                         const char ctc[]) {
  POMP_Handle_t h = init_handle(handle, ctc);
  check_tid(thread_id);
  check_type(h, "flush", "flush");
  log_event("flush", h);
  return POMP_SUCCESS;
}

int32_t POMP_Cancel_event(POMP_Handle_t *handle, int32_t thread_id,
                          int32_t activated, const char ctc[]) {
  POMP_Handle_t h = init_handle(handle, ctc);
  check_tid(thread_id);
  check_type(h, "cancel", "cancel");
  if (activated != 0 && activated != 1)
    problem("cancel: activated is neither 0 nor 1%s%s", "", "");
  log_event(activated ? "cancel" : "cancel_inactive", h);
  return POMP_SUCCESS;
}
int32_t POMP_Cancellation_point_event(POMP_Handle_t *handle,
                                      int32_t thread_id, const char ctc[]) {
  POMP_Handle_t h = init_handle(handle, ctc);
  check_tid(thread_id);
  check_type(h, "cancellation point", "cancellationpoint");
  log_event("cancellation_point", h);
  return POMP_SUCCESS;
}
int32_t POMP_Error_event(POMP_Handle_t *handle, int32_t thread_id,
                         int32_t severity, const char *message,
                         const char ctc[]) {
  POMP_Handle_t h = init_handle(handle, ctc);
  check_tid(thread_id);
  check_type(h, "error", "error");
  if (severity != 1 && severity != 2)
    problem("error: bad severity%s%s", "", "");
  (void)message;
  log_event(severity == 1 ? "error_warning" : "error_fatal", h);
  return POMP_SUCCESS;
}

/* ---- Tasks ------------------------------------------------------------------ */

#define TASK_TYPES                                                             \
  "task"

int32_t POMP_Task_create_begin(POMP_Handle_t *handle, int32_t thread_id,
                               POMP_Task_t *task, int32_t task_flags,
                               const char ctc[]) {
  POMP_Handle_t h = init_handle(handle, ctc);
  check_type(h, "task creation", TASK_TYPES);
  if (task_flags & ~0x7f)
    problem("task creation: unknown task flags%s%s", "", "");
  long id = __atomic_add_fetch(&tasks_created, 1, __ATOMIC_RELAXED);
  if (!task) {
    problem("task creation without task storage%s%s", "", "");
  } else {
    task->pomp_opaque[0] = TASK_MAGIC ^ (uint64_t)(uintptr_t)h;
    task->pomp_opaque[1] = (uint64_t)id;
  }
  log_event("task_create_begin", h);
  open_ev(h, EV_TASK_CREATE, thread_id);
  return POMP_SUCCESS;
}
int32_t POMP_Task_dependences(POMP_Handle_t h, int32_t thread_id,
                              POMP_Task_t *task,
                              const POMP_Dependence_t deps[], int32_t ndeps) {
  check_tid(thread_id);
  check_task(h, task);
  if (!deps || ndeps < 1)
    problem("task dependences: empty list%s%s", "", "");
  for (int32_t i = 0; deps && i < ndeps; i++)
    if (deps[i].type < 1 || deps[i].type > 7)
      problem("task dependences: bad dependence type%s%s", "", "");
  log_event("task_dependences", h);
  return POMP_SUCCESS;
}
int32_t POMP_Task_create_end(POMP_Handle_t h, int32_t thread_id,
                             POMP_Task_t *task) {
  check_task(h, task);
  log_event("task_create_end", h);
  close_ev(h, EV_TASK_CREATE, thread_id);
  return POMP_SUCCESS;
}
int32_t POMP_Task_begin(POMP_Handle_t h, int32_t thread_id,
                        POMP_Task_t *task) {
  uint64_t id = check_task(h, task);
  if (id > 0 && id < MAX_TASKS &&
      (__atomic_fetch_or(&task_state[id], 1, __ATOMIC_RELAXED) & 1))
    problem("a task begins twice%s%s", "", "");
  __atomic_add_fetch(&tasks_begun, 1, __ATOMIC_RELAXED);
  log_event("task_begin", h);
  open_ev(h, EV_TASK, thread_id);
  return POMP_SUCCESS;
}
int32_t POMP_Task_end(POMP_Handle_t h, int32_t thread_id, POMP_Task_t *task) {
  uint64_t id = check_task(h, task);
  if (id > 0 && id < MAX_TASKS &&
      (__atomic_fetch_or(&task_state[id], 2, __ATOMIC_RELAXED) & 2))
    problem("a task ends twice%s%s", "", "");
  __atomic_add_fetch(&tasks_ended, 1, __ATOMIC_RELAXED);
  log_event("task_end", h);
  close_ev(h, EV_TASK, thread_id);
  return POMP_SUCCESS;
}

int32_t POMP_Taskwait_enter(POMP_Handle_t *handle, int32_t thread_id,
                            const char ctc[]) {
  POMP_Handle_t h = init_handle(handle, ctc);
  check_type(h, "taskwait", "taskwait");
  log_event("taskwait_enter", h);
  open_ev(h, EV_TASKWAIT, thread_id);
  return POMP_SUCCESS;
}
int32_t POMP_Taskwait_exit(POMP_Handle_t h, int32_t thread_id) {
  log_event("taskwait_exit", h);
  close_ev(h, EV_TASKWAIT, thread_id);
  return POMP_SUCCESS;
}
int32_t POMP_Taskwait_depend_enter(POMP_Handle_t *handle, int32_t thread_id,
                                   POMP_Task_t *task,
                                   const POMP_Dependence_t deps[],
                                   int32_t ndeps, int32_t nowait,
                                   const char ctc[]) {
  POMP_Handle_t h = init_handle(handle, ctc);
  check_type(h, "taskwait depend", "taskwait");
  if (!task || ndeps < 0 || (ndeps > 0 && !deps) || nowait < 0 || nowait > 1)
    problem("taskwait depend: bad arguments%s%s", "", "");
  for (int32_t i = 0; deps && i < ndeps; i++)
    if (deps[i].type < 1 || deps[i].type > 7)
      problem("taskwait depend: bad dependence type%s%s", "", "");
  if (task)
    task->pomp_opaque[0] = TASK_MAGIC ^ (uint64_t)(uintptr_t)h;
  log_event("taskwait_depend_enter", h);
  open_ev(h, EV_TASKWAIT, thread_id);
  return POMP_SUCCESS;
}
int32_t POMP_Taskwait_depend_exit(POMP_Handle_t h, int32_t thread_id,
                                  POMP_Task_t *task) {
  if (!task || task->pomp_opaque[0] != (TASK_MAGIC ^ (uint64_t)(uintptr_t)h))
    problem("taskwait depend: storage not from its enter event%s%s", "", "");
  log_event("taskwait_depend_exit", h);
  close_ev(h, EV_TASKWAIT, thread_id);
  return POMP_SUCCESS;
}
int32_t POMP_Taskgroup_enter(POMP_Handle_t *handle, int32_t thread_id,
                             const char ctc[]) {
  POMP_Handle_t h = init_handle(handle, ctc);
  check_type(h, "taskgroup", "taskgroup");
  log_event("taskgroup_enter", h);
  open_ev(h, EV_TASKGROUP, thread_id);
  return POMP_SUCCESS;
}
int32_t POMP_Taskgroup_begin(POMP_Handle_t h, int32_t thread_id) {
  log_event("taskgroup_begin", h);
  open_ev(h, EV_TASKGROUP_BODY, thread_id);
  return POMP_SUCCESS;
}
int32_t POMP_Taskgroup_end(POMP_Handle_t h, int32_t thread_id) {
  log_event("taskgroup_end", h);
  close_ev(h, EV_TASKGROUP_BODY, thread_id);
  return POMP_SUCCESS;
}
int32_t POMP_Taskgroup_exit(POMP_Handle_t h, int32_t thread_id) {
  log_event("taskgroup_exit", h);
  close_ev(h, EV_TASKGROUP, thread_id);
  return POMP_SUCCESS;
}
int32_t POMP_Taskyield_enter(POMP_Handle_t *handle, int32_t thread_id,
                             const char ctc[]) {
  POMP_Handle_t h = init_handle(handle, ctc);
  log_event("taskyield_enter", h);
  open_ev(h, EV_TASKYIELD, thread_id);
  return POMP_SUCCESS;
}
int32_t POMP_Taskyield_exit(POMP_Handle_t h, int32_t thread_id) {
  log_event("taskyield_exit", h);
  close_ev(h, EV_TASKYIELD, thread_id);
  return POMP_SUCCESS;
}
int32_t POMP_Taskloop_enter(POMP_Handle_t *handle, int32_t thread_id,
                            int64_t init_iter, int64_t final_iter,
                            int64_t incr, const char ctc[]) {
  (void)init_iter;
  (void)final_iter;
  (void)incr;
  POMP_Handle_t h = init_handle(handle, ctc);
  check_type(h, "taskloop",
             "taskloop|taskloopsimd|mastertaskloop|mastertaskloopsimd|"
             "maskedtaskloop|maskedtaskloopsimd|parallelmastertaskloop|"
             "parallelmastertaskloopsimd|parallelmaskedtaskloop|"
             "parallelmaskedtaskloopsimd");
  log_event("taskloop_enter", h);
  open_ev(h, EV_TASKLOOP, thread_id);
  return POMP_SUCCESS;
}
int32_t POMP_Taskloop_exit(POMP_Handle_t h, int32_t thread_id) {
  log_event("taskloop_exit", h);
  close_ev(h, EV_TASKLOOP, thread_id);
  return POMP_SUCCESS;
}

/* ---- User regions ------------------------------------------------------- */

int32_t POMP_User_region_begin(POMP_Handle_t *handle, int32_t thread_id,
                               const char ctc[]) {
  POMP_Handle_t h = init_handle(handle, ctc);
  check_type(h, "user region", "region");
  if (h && !h->name[0])
    problem("user region without a name%s%s", "", "");
  log_event("user_begin", h);
  open_ev(h, EV_USER, thread_id);
  return POMP_SUCCESS;
}
int32_t POMP_User_region_end(POMP_Handle_t h, int32_t thread_id) {
  log_event("user_end", h);
  close_ev(h, EV_USER, thread_id);
  return POMP_SUCCESS;
}
int32_t POMP_User_event(POMP_Handle_t *handle, int32_t thread_id,
                        const char ctc[]) {
  POMP_Handle_t h = init_handle(handle, ctc);
  check_tid(thread_id);
  check_type(h, "user event", "region");
  log_event("user_event", h);
  return POMP_SUCCESS;
}

/* ---- OpenMP API wrappers -------------------------------------------------- */

static void api(POMP_Handle_t *handle, const char ctc[], const char *name) {
  POMP_Handle_t h = init_handle(handle, ctc);
  check_type(h, name, "runtime");
  if (h && strcmp(h->name, name) != 0)
    problem("wrapper %s called with the CTC of '%s'", name, h->name);
  log_event(name, h);
}

/* libgomp (GCC 12) declares the _with_hint routines but does not define
 * them, and has no omp_control_tool: weak references, with the fallbacks
 * the OpenMP specification allows (a hint may be ignored; no tool). */
int omp_control_tool(int command, int modifier, void *arg);
#pragma weak omp_init_lock_with_hint
#pragma weak omp_init_nest_lock_with_hint
#pragma weak omp_control_tool

#define WRAP_V(name, ...)                                                      \
  api(handle, ctc, #name);                                                     \
  name(__VA_ARGS__)
#define WRAP_R(name, ...)                                                      \
  api(handle, ctc, #name);                                                     \
  return name(__VA_ARGS__)

void POMP_Api_omp_init_lock(POMP_Handle_t *handle, const char ctc[],
                            void *lock) {
  WRAP_V(omp_init_lock, lock);
}
void POMP_Api_omp_init_lock_with_hint(POMP_Handle_t *handle, const char ctc[],
                                      void *lock, int hint) {
  api(handle, ctc, "omp_init_lock_with_hint");
  if (omp_init_lock_with_hint)
    omp_init_lock_with_hint(lock, (omp_sync_hint_t)hint);
  else
    omp_init_lock(lock);
}
void POMP_Api_omp_destroy_lock(POMP_Handle_t *handle, const char ctc[],
                               void *lock) {
  WRAP_V(omp_destroy_lock, lock);
}
void POMP_Api_omp_set_lock(POMP_Handle_t *handle, const char ctc[],
                           void *lock) {
  WRAP_V(omp_set_lock, lock);
}
void POMP_Api_omp_unset_lock(POMP_Handle_t *handle, const char ctc[],
                             void *lock) {
  WRAP_V(omp_unset_lock, lock);
}
int POMP_Api_omp_test_lock(POMP_Handle_t *handle, const char ctc[],
                           void *lock) {
  WRAP_R(omp_test_lock, lock);
}
void POMP_Api_omp_init_nest_lock(POMP_Handle_t *handle, const char ctc[],
                                 void *lock) {
  WRAP_V(omp_init_nest_lock, lock);
}
void POMP_Api_omp_init_nest_lock_with_hint(POMP_Handle_t *handle,
                                           const char ctc[], void *lock,
                                           int hint) {
  api(handle, ctc, "omp_init_nest_lock_with_hint");
  if (omp_init_nest_lock_with_hint)
    omp_init_nest_lock_with_hint(lock, (omp_sync_hint_t)hint);
  else
    omp_init_nest_lock(lock);
}
void POMP_Api_omp_destroy_nest_lock(POMP_Handle_t *handle, const char ctc[],
                                    void *lock) {
  WRAP_V(omp_destroy_nest_lock, lock);
}
void POMP_Api_omp_set_nest_lock(POMP_Handle_t *handle, const char ctc[],
                                void *lock) {
  WRAP_V(omp_set_nest_lock, lock);
}
void POMP_Api_omp_unset_nest_lock(POMP_Handle_t *handle, const char ctc[],
                                  void *lock) {
  WRAP_V(omp_unset_nest_lock, lock);
}
int POMP_Api_omp_test_nest_lock(POMP_Handle_t *handle, const char ctc[],
                                void *lock) {
  WRAP_R(omp_test_nest_lock, lock);
}
void POMP_Api_omp_set_num_threads(POMP_Handle_t *handle, const char ctc[],
                                  int num_threads) {
  WRAP_V(omp_set_num_threads, num_threads);
}
int POMP_Api_omp_get_num_threads(POMP_Handle_t *handle, const char ctc[]) {
  WRAP_R(omp_get_num_threads, );
}
int POMP_Api_omp_get_max_threads(POMP_Handle_t *handle, const char ctc[]) {
  WRAP_R(omp_get_max_threads, );
}
int POMP_Api_omp_get_thread_num(POMP_Handle_t *handle, const char ctc[]) {
  WRAP_R(omp_get_thread_num, );
}
int POMP_Api_omp_get_num_procs(POMP_Handle_t *handle, const char ctc[]) {
  WRAP_R(omp_get_num_procs, );
}
int POMP_Api_omp_in_parallel(POMP_Handle_t *handle, const char ctc[]) {
  WRAP_R(omp_in_parallel, );
}
void POMP_Api_omp_set_dynamic(POMP_Handle_t *handle, const char ctc[],
                              int dynamic) {
  WRAP_V(omp_set_dynamic, dynamic);
}
int POMP_Api_omp_get_dynamic(POMP_Handle_t *handle, const char ctc[]) {
  WRAP_R(omp_get_dynamic, );
}
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
void POMP_Api_omp_set_nested(POMP_Handle_t *handle, const char ctc[],
                             int nested) {
  WRAP_V(omp_set_nested, nested);
}
int POMP_Api_omp_get_nested(POMP_Handle_t *handle, const char ctc[]) {
  WRAP_R(omp_get_nested, );
}
#pragma GCC diagnostic pop
int POMP_Api_omp_control_tool(POMP_Handle_t *handle, const char ctc[],
                              int command, int modifier, void *arg) {
  api(handle, ctc, "omp_control_tool");
  if (!omp_control_tool)
    return -2; /* omp_control_tool_notool */
  return omp_control_tool(command, modifier, arg);
}

void POMP_Api_omp_fulfill_event(POMP_Handle_t *handle, const char ctc[],
                                uintptr_t event) {
  WRAP_V(omp_fulfill_event, (omp_event_handle_t)event);
}

/* ---- Target constructs, teams, distribute ------------------------------ */

#define TARGET_MAGIC UINT64_C(0x706f6d7074746774)
static long targets_nowait, targets_completed;

static void check_maps(const POMP_Map_t maps[], int32_t nmaps) {
  if (nmaps < 0 || (nmaps > 0 && !maps)) {
    problem("target: bad map list%s%s", "", "");
    return;
  }
  for (int32_t i = 0; i < nmaps; i++) {
    if (!maps[i].addr && maps[i].size)
      problem("target: a map item without an address%s%s", "", "");
    if ((maps[i].flags & ~0x1ffu) || !(maps[i].flags & 0x1f) ||
        maps[i].pomp_reserved)
      problem("target: bad map flags%s%s", "", "");
  }
}

static int32_t target_enter(POMP_Handle_t *handle, int32_t thread_id,
                            POMP_Target_t *target, int32_t device_num,
                            int32_t target_flags, const POMP_Map_t maps[],
                            int32_t nmaps, const char ctc[], enum ev e,
                            const char *types, const char *event) {
  POMP_Handle_t h = init_handle(handle, ctc);
  check_type(h, event, types);
  check_maps(maps, nmaps);
  if (target_flags & ~0x7)
    problem("%s: unknown target flags%s", event, "");
  if (device_num < -1 && device_num != (-2147483647 - 1))
    problem("%s: bad device number%s", event, "");
  if (!target) {
    problem("%s: no instance storage%s", event, "");
  } else {
    target->pomp_dep = malloc(1);
    target->pomp_opaque[0] = TARGET_MAGIC ^ (uint64_t)(uintptr_t)h;
    target->pomp_opaque[1] = (uint64_t)nmaps;
    target->pomp_opaque[2] = (uint64_t)(uintptr_t)maps;
  }
  if (target_flags & 0x1)
    __atomic_add_fetch(&targets_nowait, 1, __ATOMIC_RELAXED);
  log_event(event, h);
  open_ev(h, e, thread_id);
  return POMP_SUCCESS;
}

static void check_target(POMP_Handle_t h, POMP_Target_t *target) {
  if (!target || target->pomp_opaque[0] != (TARGET_MAGIC ^ (uint64_t)(uintptr_t)h))
    problem("target instance does not come from its enter event%s%s", "", "");
}

static int32_t target_exit(POMP_Handle_t h, int32_t thread_id,
                           POMP_Target_t *target, enum ev e,
                           const char *event) {
  check_target(h, target);
  log_event(event, h);
  close_ev(h, e, thread_id);
  return POMP_SUCCESS;
}

int32_t POMP_Target_enter(POMP_Handle_t *handle, int32_t thread_id,
                          POMP_Target_t *target, int32_t device_num,
                          int32_t target_flags, const POMP_Map_t maps[],
                          int32_t nmaps, const char ctc[]) {
  return target_enter(handle, thread_id, target, device_num, target_flags,
                      maps, nmaps, ctc, EV_TARGET, "target", "target_enter");
}
int32_t POMP_Target_exit(POMP_Handle_t handle, int32_t thread_id,
                         POMP_Target_t *target) {
  return target_exit(handle, thread_id, target, EV_TARGET, "target_exit");
}
int32_t POMP_Target_data_enter(POMP_Handle_t *handle, int32_t thread_id,
                               POMP_Target_t *target, int32_t device_num,
                               int32_t target_flags, const POMP_Map_t maps[],
                               int32_t nmaps, const char ctc[]) {
  return target_enter(handle, thread_id, target, device_num, target_flags,
                      maps, nmaps, ctc, EV_TARGET_DATA, "targetdata",
                      "target_data_enter");
}
int32_t POMP_Target_data_begin(POMP_Handle_t handle, int32_t thread_id,
                               POMP_Target_t *target) {
  check_target(handle, target);
  log_event("target_data_begin", handle);
  open_ev(handle, EV_TARGET_DATA_BODY, thread_id);
  return POMP_SUCCESS;
}
int32_t POMP_Target_data_end(POMP_Handle_t handle, int32_t thread_id,
                             POMP_Target_t *target) {
  check_target(handle, target);
  log_event("target_data_end", handle);
  close_ev(handle, EV_TARGET_DATA_BODY, thread_id);
  return POMP_SUCCESS;
}
int32_t POMP_Target_data_exit(POMP_Handle_t handle, int32_t thread_id,
                              POMP_Target_t *target) {
  return target_exit(handle, thread_id, target, EV_TARGET_DATA,
                     "target_data_exit");
}
int32_t POMP_Target_enter_data_enter(POMP_Handle_t *handle, int32_t thread_id,
                                     POMP_Target_t *target,
                                     int32_t device_num, int32_t target_flags,
                                     const POMP_Map_t maps[], int32_t nmaps,
                                     const char ctc[]) {
  return target_enter(handle, thread_id, target, device_num, target_flags,
                      maps, nmaps, ctc, EV_TARGET, "targetenterdata",
                      "target_enter_data_enter");
}
int32_t POMP_Target_enter_data_exit(POMP_Handle_t handle, int32_t thread_id,
                                    POMP_Target_t *target) {
  return target_exit(handle, thread_id, target, EV_TARGET,
                     "target_enter_data_exit");
}
int32_t POMP_Target_exit_data_enter(POMP_Handle_t *handle, int32_t thread_id,
                                    POMP_Target_t *target, int32_t device_num,
                                    int32_t target_flags,
                                    const POMP_Map_t maps[], int32_t nmaps,
                                    const char ctc[]) {
  return target_enter(handle, thread_id, target, device_num, target_flags,
                      maps, nmaps, ctc, EV_TARGET, "targetexitdata",
                      "target_exit_data_enter");
}
int32_t POMP_Target_exit_data_exit(POMP_Handle_t handle, int32_t thread_id,
                                   POMP_Target_t *target) {
  return target_exit(handle, thread_id, target, EV_TARGET,
                     "target_exit_data_exit");
}
int32_t POMP_Target_update_enter(POMP_Handle_t *handle, int32_t thread_id,
                                 POMP_Target_t *target, int32_t device_num,
                                 int32_t target_flags, const POMP_Map_t maps[],
                                 int32_t nmaps, const char ctc[]) {
  return target_enter(handle, thread_id, target, device_num, target_flags,
                      maps, nmaps, ctc, EV_TARGET, "targetupdate",
                      "target_update_enter");
}
int32_t POMP_Target_update_exit(POMP_Handle_t handle, int32_t thread_id,
                                POMP_Target_t *target) {
  return target_exit(handle, thread_id, target, EV_TARGET,
                     "target_update_exit");
}
int32_t POMP_Target_complete(POMP_Handle_t handle, int32_t thread_id,
                             POMP_Target_t *target, const POMP_Map_t maps[],
                             int32_t nmaps) {
  check_tid(thread_id);
  check_target(handle, target);
  check_maps(maps, nmaps);
  if (target && target->pomp_opaque[1] != (uint64_t)nmaps)
    problem("target completion: the map list changed%s%s", "", "");
  __atomic_add_fetch(&targets_completed, 1, __ATOMIC_RELAXED);
  log_event("target_complete", handle);
  return POMP_SUCCESS;
}

int32_t POMP_Teams_enter(POMP_Handle_t *handle, int32_t thread_id,
                         int32_t num_teams, int32_t thread_limit,
                         POMP_Team_t *team, const char ctc[]) {
  POMP_Handle_t h = init_handle(handle, ctc);
  if (num_teams < -1 || thread_limit < -1)
    problem("bad teams run-time context%s%s", "", "");
  if (team)
    team->pomp_opaque[0] = TEAM_MAGIC ^ (uint64_t)(uintptr_t)h;
  log_event("teams_enter", h);
  open_ev(h, EV_TEAMS, thread_id);
  return POMP_SUCCESS;
}
int32_t POMP_Teams_begin(POMP_Handle_t h, int32_t thread_id,
                         POMP_Team_t *team) {
  check_team(h, team);
  log_event("teams_begin", h);
  open_ev(h, EV_TEAMS_BODY, thread_id);
  return POMP_SUCCESS;
}
int32_t POMP_Teams_end(POMP_Handle_t h, int32_t thread_id, POMP_Team_t *team) {
  check_team(h, team);
  log_event("teams_end", h);
  close_ev(h, EV_TEAMS_BODY, thread_id);
  return POMP_SUCCESS;
}
int32_t POMP_Teams_exit(POMP_Handle_t h, int32_t thread_id,
                        POMP_Team_t *team) {
  check_team(h, team);
  log_event("teams_exit", h);
  close_ev(h, EV_TEAMS, thread_id);
  return POMP_SUCCESS;
}
int32_t POMP_Distribute_enter(POMP_Handle_t *handle, int32_t thread_id,
                              int64_t chunk_size, int64_t init_iter,
                              int64_t final_iter, int64_t incr,
                              const char ctc[]) {
  (void)chunk_size;
  (void)init_iter;
  (void)final_iter;
  (void)incr;
  POMP_Handle_t h = init_handle(handle, ctc);
  log_event("distribute_enter", h);
  open_ev(h, EV_DISTRIBUTE, thread_id);
  return POMP_SUCCESS;
}
int32_t POMP_Distribute_exit(POMP_Handle_t h, int32_t thread_id) {
  log_event("distribute_exit", h);
  close_ev(h, EV_DISTRIBUTE, thread_id);
  return POMP_SUCCESS;
}
/* --loop-level=chunks: as Distribute_enter / _exit, with the chunk state
 * checked as for a loop's chunks. */
int32_t POMP_Distribute_chunks_enter(POMP_Handle_t *handle, int32_t thread_id,
                                     POMP_Chunks_t *chunks, int32_t schedule,
                                     int64_t chunk_size, int64_t init_iter,
                                     int64_t final_iter, int64_t incr,
                                     const char ctc[]) {
  (void)init_iter, (void)final_iter, (void)incr;
  POMP_Handle_t h = init_handle(handle, ctc);
  check_type(h, "distribute chunks enter",
             "distribute|distributesimd|distributeparallelfor|"
             "distributeparallelforsimd|teamsdistribute|teamsdistributesimd|"
             "teamsdistributeparallelfor|teamsdistributeparallelforsimd");
  if (schedule < POMP_CHUNKS_NONE || schedule > POMP_CHUNKS_REGIONS ||
      schedule == POMP_CHUNKS_RUNTIME)
    problem("distribute chunks enter: unknown schedule%s%s", "", "");
  if (!chunks) {
    problem("distribute chunks enter without chunk storage%s%s", "", "");
  } else {
    chunks->pomp_left = schedule == POMP_CHUNKS_STATIC && chunk_size > 0
                            ? 0
                            : INT64_MAX;
    chunks->pomp_opaque[0] = CHUNKS_MAGIC ^ (uint64_t)(uintptr_t)h;
  }
  log_event("distribute_enter", h);
  open_ev(h, EV_DISTRIBUTE, thread_id);
  return POMP_SUCCESS;
}
int32_t POMP_Distribute_chunk_next(POMP_Handle_t h, int32_t thread_id,
                                   POMP_Chunks_t *chunks) {
  check_tid(thread_id);
  if (!chunks ||
      chunks->pomp_opaque[0] != (CHUNKS_MAGIC ^ (uint64_t)(uintptr_t)h))
    problem("chunk storage does not come from the distribute's enter "
            "event%s%s",
            "", "");
  else
    chunks->pomp_left = 2; /* a chunk of three iterations, for the check */
  log_event("distribute_chunk_next", h);
  return POMP_SUCCESS;
}
int32_t POMP_Distribute_chunks_exit(POMP_Handle_t h, int32_t thread_id,
                                    POMP_Chunks_t *chunks) {
  if (!chunks ||
      chunks->pomp_opaque[0] != (CHUNKS_MAGIC ^ (uint64_t)(uintptr_t)h))
    problem("chunk storage does not come from the distribute's enter "
            "event%s%s",
            "", "");
  log_event("distribute_exit", h);
  close_ev(h, EV_DISTRIBUTE, thread_id);
  return POMP_SUCCESS;
}
int32_t POMP_Distribute_parallel_enter(POMP_Handle_t h, int32_t thread_id) {
  check_type(h, "distribute parallel enter",
             "distributeparallelfor|distributeparallelforsimd|"
             "teamsdistributeparallelfor|teamsdistributeparallelforsimd");
  log_event("distribute_parallel_enter", h);
  open_ev(h, EV_DISTRIBUTE_PARALLEL, thread_id);
  return POMP_SUCCESS;
}
int32_t POMP_Distribute_parallel_exit(POMP_Handle_t h, int32_t thread_id) {
  log_event("distribute_parallel_exit", h);
  close_ev(h, EV_DISTRIBUTE_PARALLEL, thread_id);
  return POMP_SUCCESS;
}

/* --loop-level=chunks aliases the unit's calls of libgomp's loop entries to
 * libpompt's pompt_GOMP_loop_*: here they only pass the call on. */
typedef unsigned long long stub_ull;
typedef uintptr_t stub_uptr;
#define STUB_PASS(name, params, args)                                          \
  extern bool name params;                                                     \
  bool pompt_##name params;                                                    \
  bool pompt_##name params { return name args; }
#define START_LC(n)                                                            \
  STUB_PASS(n, (long s, long e, long i, long c, long *is, long *ie),           \
            (s, e, i, c, is, ie))
#define START_LR(n)                                                            \
  STUB_PASS(n, (long s, long e, long i, long *is, long *ie), (s, e, i, is, ie))
#define START_L5(n)                                                            \
  STUB_PASS(n,                                                                 \
            (long s, long e, long i, long sc, long c, long *is, long *ie,      \
             stub_uptr *r, void **m),                                          \
            (s, e, i, sc, c, is, ie, r, m))
#define START_LDC(n)                                                           \
  STUB_PASS(n, (unsigned nc, long *cs, long c, long *is, long *ie),            \
            (nc, cs, c, is, ie))
#define START_LDR(n)                                                           \
  STUB_PASS(n, (unsigned nc, long *cs, long *is, long *ie), (nc, cs, is, ie))
#define START_LD5(n)                                                           \
  STUB_PASS(n,                                                                 \
            (unsigned nc, long *cs, long sc, long c, long *is, long *ie,       \
             stub_uptr *r, void **m),                                          \
            (nc, cs, sc, c, is, ie, r, m))
#define NEXT_L(n) STUB_PASS(n, (long *is, long *ie), (is, ie))
#define START_UC(n)                                                            \
  STUB_PASS(n,                                                                 \
            (bool up, stub_ull s, stub_ull e, stub_ull i, stub_ull c,          \
             stub_ull *is, stub_ull *ie),                                      \
            (up, s, e, i, c, is, ie))
#define START_UR(n)                                                            \
  STUB_PASS(n,                                                                 \
            (bool up, stub_ull s, stub_ull e, stub_ull i, stub_ull *is,        \
             stub_ull *ie),                                                    \
            (up, s, e, i, is, ie))
#define START_U5(n)                                                            \
  STUB_PASS(n,                                                                 \
            (bool up, stub_ull s, stub_ull e, stub_ull i, long sc, stub_ull c, \
             stub_ull *is, stub_ull *ie, stub_uptr *r, void **m),              \
            (up, s, e, i, sc, c, is, ie, r, m))
#define START_UDC(n)                                                           \
  STUB_PASS(n,                                                                 \
            (unsigned nc, stub_ull *cs, stub_ull c, stub_ull *is,              \
             stub_ull *ie),                                                    \
            (nc, cs, c, is, ie))
#define START_UDR(n)                                                           \
  STUB_PASS(n, (unsigned nc, stub_ull *cs, stub_ull *is, stub_ull *ie),        \
            (nc, cs, is, ie))
#define START_UD5(n)                                                           \
  STUB_PASS(n,                                                                 \
            (unsigned nc, stub_ull *cs, long sc, stub_ull c, stub_ull *is,     \
             stub_ull *ie, stub_uptr *r, void **m),                            \
            (nc, cs, sc, c, is, ie, r, m))
#define NEXT_U(n) STUB_PASS(n, (stub_ull * is, stub_ull * ie), (is, ie))
#define LOOP_ENTRY(family, name) family(GOMP_loop_##name)
GOMP_LOOP_ENTRIES(LOOP_ENTRY)

__attribute__((destructor)) static void check_balance(void) {
  long n = __atomic_load_n(&open_events, __ATOMIC_RELAXED);
  char num[32];
  if (n != 0) {
    snprintf(num, sizeof num, "%ld", n);
    problem("%s event(s) still open at exit%s", num, "");
  }
  long c = __atomic_load_n(&tasks_created, __ATOMIC_RELAXED);
  long b = __atomic_load_n(&tasks_begun, __ATOMIC_RELAXED);
  long e = __atomic_load_n(&tasks_ended, __ATOMIC_RELAXED);
  if (c != b || b != e) {
    char more[64];
    snprintf(num, sizeof num, "%ld created", c);
    snprintf(more, sizeof more, ", %ld begun, %ld ended", b, e);
    problem("tasks: %s%s", num, more);
  }
  long tn = __atomic_load_n(&targets_nowait, __ATOMIC_RELAXED);
  long tc = __atomic_load_n(&targets_completed, __ATOMIC_RELAXED);
  if (tn != tc) {
    char more[64];
    snprintf(num, sizeof num, "%ld nowait", tn);
    snprintf(more, sizeof more, ", %ld completed", tc);
    problem("target constructs: %s%s", num, more);
  }
  if (log_file)
    fclose(log_file);
}

/* ---- Compact family (POMPT_*) ---------------------------------------------
 * The same checks and log lines as the routines above, which each one
 * stands for (a merged routine for two, in their order): the log must not
 * tell the two families apart. */

static POMP_Handle_t *desc_handle(POMPT_Desc_t *d) {
  if (!d)
    problem("compact event without a descriptor%s%s", "", "");
  return d ? &d->handle : NULL;
}
static const char *desc_ctc(POMPT_Desc_t *d) { return d ? d->ctc : NULL; }
static POMP_Handle_t desc_h(POMPT_Desc_t *d) { return d ? d->handle : NULL; }
static POMP_Handle_t team_h(POMPT_Team_t *t) {
  if (!t || !t->desc) {
    problem("team storage without the descriptor of its enter event%s%s", "",
            "");
    return NULL;
  }
  return t->desc->handle;
}
static POMP_Team_t *team_of(POMPT_Team_t *t) { return t ? &t->team : NULL; }

int32_t POMPT_Parallel_enter(POMPT_Desc_t *d, int32_t num_threads,
                             int32_t if_expr_result, POMPT_Team_t *team) {
  if (team)
    team->desc = d;
  return POMP_Parallel_enter_team(desc_handle(d), POMP_THREAD_SELF,
                                  num_threads, if_expr_result, team_of(team),
                                  desc_ctc(d));
}
int32_t POMPT_Parallel_fork(POMPT_Desc_t *d, POMPT_Team_t *team) {
  return POMPT_Parallel_enter(d, -1, -1, team);
}
int32_t POMPT_Parallel_begin(POMPT_Team_t *team) {
  return POMP_Parallel_begin_team(team_h(team), POMP_THREAD_SELF,
                                  team_of(team));
}
int32_t POMPT_Parallel_end(POMPT_Team_t *team) {
  return POMP_Parallel_end_team(team_h(team), POMP_THREAD_SELF, team_of(team));
}
int32_t POMPT_Parallel_exit(POMPT_Team_t *team) {
  return POMP_Parallel_exit_team(team_h(team), POMP_THREAD_SELF,
                                 team_of(team));
}
int32_t POMPT_Parallel_begin_loop_enter(POMPT_Team_t *team, int64_t init_iter,
                                        int64_t final_iter, int64_t incr) {
  POMPT_Parallel_begin(team);
  POMPT_Desc_t *d = team ? team->desc : NULL;
  return POMP_Loop_enter(desc_handle(d), POMP_THREAD_SELF, -1, init_iter,
                         final_iter, incr, desc_ctc(d));
}
int32_t POMPT_Loop_exit_parallel_end(POMPT_Team_t *team) {
  POMP_Loop_exit(team_h(team), POMP_THREAD_SELF);
  return POMPT_Parallel_end(team);
}
int32_t POMPT_Parallel_begin_sections_enter(POMPT_Team_t *team) {
  POMPT_Parallel_begin(team);
  POMPT_Desc_t *d = team ? team->desc : NULL;
  return POMP_Sections_enter(desc_handle(d), POMP_THREAD_SELF, desc_ctc(d));
}
int32_t POMPT_Sections_exit_parallel_end(POMPT_Team_t *team) {
  POMP_Sections_exit(team_h(team), POMP_THREAD_SELF);
  return POMPT_Parallel_end(team);
}

int32_t POMPT_Loop_enter(POMPT_Desc_t *d, int64_t init_iter, int64_t final_iter,
                         int64_t incr) {
  return POMP_Loop_enter(desc_handle(d), POMP_THREAD_SELF, -1, init_iter,
                         final_iter, incr, desc_ctc(d));
}
int32_t POMPT_Loop_exit(POMPT_Desc_t *d) {
  return POMP_Loop_exit(desc_h(d), POMP_THREAD_SELF);
}
int32_t POMPT_Loop_exit_barrier(POMPT_Desc_t *d) {
  POMPT_Loop_exit(d);
  return POMP_Implicit_barrier_enter(desc_handle(d), POMP_THREAD_SELF,
                                     desc_ctc(d));
}
int32_t POMPT_Sections_enter(POMPT_Desc_t *d) {
  return POMP_Sections_enter(desc_handle(d), POMP_THREAD_SELF, desc_ctc(d));
}
int32_t POMPT_Section_begin(POMPT_Desc_t *d, int32_t section_num) {
  return POMP_Section_begin(desc_h(d), section_num, POMP_THREAD_SELF);
}
int32_t POMPT_Section_end(POMPT_Desc_t *d) {
  return POMP_Section_end(desc_h(d), POMP_THREAD_SELF);
}
int32_t POMPT_Sections_exit(POMPT_Desc_t *d) {
  return POMP_Sections_exit(desc_h(d), POMP_THREAD_SELF);
}
int32_t POMPT_Sections_exit_barrier(POMPT_Desc_t *d) {
  POMPT_Sections_exit(d);
  return POMP_Implicit_barrier_enter(desc_handle(d), POMP_THREAD_SELF,
                                     desc_ctc(d));
}
int32_t POMPT_Single_enter(POMPT_Desc_t *d) {
  return POMP_Single_enter(desc_handle(d), POMP_THREAD_SELF, desc_ctc(d));
}
int32_t POMPT_Single_begin(POMPT_Desc_t *d) {
  return POMP_Single_begin(desc_h(d), POMP_THREAD_SELF);
}
int32_t POMPT_Single_end(POMPT_Desc_t *d) {
  return POMP_Single_end(desc_h(d), POMP_THREAD_SELF);
}
int32_t POMPT_Single_exit(POMPT_Desc_t *d) {
  return POMP_Single_exit(desc_h(d), POMP_THREAD_SELF);
}
int32_t POMPT_Single_exit_barrier(POMPT_Desc_t *d) {
  POMPT_Single_exit(d);
  return POMP_Implicit_barrier_enter(desc_handle(d), POMP_THREAD_SELF,
                                     desc_ctc(d));
}
int32_t POMPT_Implicit_barrier_exit(POMPT_Desc_t *d) {
  return POMP_Implicit_barrier_exit(desc_h(d), POMP_THREAD_SELF);
}
/* The events that wait themselves: the events they stand for around
 * libgomp's entry, which they call. */
void GOMP_barrier(void);
void GOMP_taskwait(void);
void POMPT_Loop_exit_wait(POMPT_Desc_t *d) {
  POMPT_Loop_exit_barrier(d);
  GOMP_barrier();
  POMPT_Implicit_barrier_exit(d);
}
void POMPT_Sections_exit_wait(POMPT_Desc_t *d) {
  POMPT_Sections_exit_barrier(d);
  GOMP_barrier();
  POMPT_Implicit_barrier_exit(d);
}
void POMPT_Single_exit_wait(POMPT_Desc_t *d) {
  POMPT_Single_exit_barrier(d);
  GOMP_barrier();
  POMPT_Implicit_barrier_exit(d);
}
int32_t POMPT_Master_begin(POMPT_Desc_t *d) {
  return POMP_Master_begin(desc_handle(d), POMP_THREAD_SELF, desc_ctc(d));
}
int32_t POMPT_Master_end(POMPT_Desc_t *d) {
  return POMP_Master_end(desc_h(d), POMP_THREAD_SELF);
}
/* The inline master, atomic and critical events (pomp.h): this library
 * never opens the lane, so every event comes through these. */
__thread POMPT_Lane_t POMPT_lane_v2;
POMPT_Masked_cb_t POMPT_lane_masked_v1[2];
int32_t POMPT_Master_begin_at(POMPT_Desc_t *d, const void *codeptr) {
  (void)codeptr;
  return POMPT_Master_begin(d);
}
int32_t POMPT_Master_end_at(POMPT_Desc_t *d, const void *codeptr) {
  (void)codeptr;
  return POMPT_Master_end(d);
}
POMPT_Lane_atomic_t POMPT_lane_atomic_v1;
int32_t POMPT_Atomic_enter_at(POMPT_Desc_t *d, const void *codeptr) {
  (void)codeptr;
  return POMPT_Atomic_enter(d);
}
int32_t POMPT_Atomic_exit_at(POMPT_Desc_t *d, const void *codeptr) {
  (void)codeptr;
  return POMPT_Atomic_exit(d);
}
int32_t POMPT_Critical_enter(POMPT_Desc_t *d) {
  return POMP_Critical_enter(desc_handle(d), POMP_THREAD_SELF, desc_ctc(d));
}
int32_t POMPT_Critical_begin(POMPT_Desc_t *d) {
  return POMP_Critical_begin(desc_h(d), POMP_THREAD_SELF);
}
int32_t POMPT_Critical_end(POMPT_Desc_t *d) {
  return POMP_Critical_end(desc_h(d), POMP_THREAD_SELF);
}
int32_t POMPT_Critical_exit(POMPT_Desc_t *d) {
  return POMP_Critical_exit(desc_h(d), POMP_THREAD_SELF);
}
/* The inline critical events (pomp.h) come here too: acquire, acquired and
 * released.  The family has no exit event: its release is the construct's
 * last, so it ends the construct here too (POMP's end and exit). */
int32_t POMPT_Critical_enter_at(POMPT_Desc_t *d, const void *codeptr) {
  (void)codeptr;
  return POMPT_Critical_enter(d);
}
int32_t POMPT_Critical_begin_at(POMPT_Desc_t *d, const void *codeptr) {
  (void)codeptr;
  return POMPT_Critical_begin(d);
}
int32_t POMPT_Critical_end_at(POMPT_Desc_t *d, const void *codeptr) {
  (void)codeptr;
  int32_t status = POMPT_Critical_end(d);
  return status != POMP_SUCCESS ? status : POMPT_Critical_exit(d);
}
int32_t POMPT_Barrier_enter(POMPT_Desc_t *d) {
  return POMP_Barrier_enter(desc_handle(d), POMP_THREAD_SELF, desc_ctc(d));
}
int32_t POMPT_Barrier_exit(POMPT_Desc_t *d) {
  return POMP_Barrier_exit(desc_h(d), POMP_THREAD_SELF);
}
void POMPT_Barrier(POMPT_Desc_t *d) {
  POMPT_Barrier_enter(d);
  GOMP_barrier();
  POMPT_Barrier_exit(d);
}
void POMPT_Taskwait(POMPT_Desc_t *d) {
  POMP_Taskwait_enter(desc_handle(d), POMP_THREAD_SELF, desc_ctc(d));
  GOMP_taskwait();
  POMP_Taskwait_exit(desc_h(d), POMP_THREAD_SELF);
}
int32_t POMPT_Atomic_enter(POMPT_Desc_t *d) {
  return POMP_Atomic_enter(desc_handle(d), POMP_THREAD_SELF, desc_ctc(d));
}
int32_t POMPT_Atomic_exit(POMPT_Desc_t *d) {
  return POMP_Atomic_exit(desc_h(d), POMP_THREAD_SELF);
}

/* Compact tasks: the one-word instance is the address of a record holding
 * the seed-style storage and the construct's handle, so that the same
 * checks apply; create_end names no construct and closes the creation
 * innermost on the thread (what the nesting check then verifies). */
int POMPT_active = 1;

struct compact_task {
  POMP_Task_t task;
  POMP_Handle_t h;
};

POMPT_Task_t POMPT_Task_create_begin(POMPT_Desc_t *d, int32_t task_flags) {
  struct compact_task *c = calloc(1, sizeof *c);
  if (!c) {
    problem("task creation: out of memory%s%s", "", "");
    return 0;
  }
  POMP_Task_create_begin(desc_handle(d), POMP_THREAD_SELF, &c->task,
                         task_flags, desc_ctc(d));
  c->h = desc_h(d);
  return (POMPT_Task_t)(uintptr_t)c;
}
int32_t POMPT_Task_dependences(POMPT_Task_t task,
                               const POMP_Dependence_t deps[], int32_t ndeps) {
  struct compact_task *c = (struct compact_task *)task;
  if (!c) {
    problem("task dependences without an instance%s%s", "", "");
    return POMP_ERR_ARG;
  }
  return POMP_Task_dependences(c->h, POMP_THREAD_SELF, &c->task, deps, ndeps);
}
int32_t POMPT_Task_create_end(void) {
  if (depth == 0 || stack[depth - 1].e != EV_TASK_CREATE) {
    problem("task creation ends, but none is innermost%s%s", "", "");
    return POMP_ERR_STATE;
  }
  POMP_Handle_t h = stack[depth - 1].h;
  log_event("task_create_end", h);
  close_ev(h, EV_TASK_CREATE, POMP_THREAD_SELF);
  return POMP_SUCCESS;
}
int32_t POMPT_Task_begin(POMPT_Task_t task) {
  struct compact_task *c = (struct compact_task *)task;
  if (!c) {
    problem("task begins without an instance%s%s", "", "");
    return POMP_ERR_ARG;
  }
  return POMP_Task_begin(c->h, POMP_THREAD_SELF, &c->task);
}
int32_t POMPT_Task_end(POMPT_Task_t task) {
  struct compact_task *c = (struct compact_task *)task;
  if (!c) {
    problem("task ends without an instance%s%s", "", "");
    return POMP_ERR_ARG;
  }
  int32_t status = POMP_Task_end(c->h, POMP_THREAD_SELF, &c->task);
  free(c); /* nothing names it after its end */
  return status;
}

/* Tasks handed over (pomp.h, POMPT_Task_hand): the construct left its
 * descriptor in the lane, and GOMP_task (this one comes before libgomp's)
 * does what libpompt's does: the creation events around libgomp's
 * GOMP_task, and a trampoline that begins and ends the task around its
 * function, on a block that carries the instance before the program's. */
struct handed_block {
  void (*fn)(void *);
  POMPT_Task_t task;
  long off; /* where the program's block starts */
  void (*cpyfn)(void *, void *);
  void *data;
  long size;
};

static void handed_copy(void *dst, void *src) {
  struct handed_block *s = src;
  memcpy(dst, s, sizeof *s);
  if (s->cpyfn)
    s->cpyfn((char *)dst + s->off, s->data);
  else if (s->size > 0)
    memcpy((char *)dst + s->off, s->data, (size_t)s->size);
}

static void handed_run(void *arg) {
  struct handed_block *b = arg;
  POMPT_Task_begin(b->task);
  b->fn((char *)arg + b->off);
  POMPT_Task_end(b->task);
}

typedef void (*gomp_task_t)(void (*)(void *), void *,
                            void (*)(void *, void *), long, long, bool,
                            unsigned, void **, int, void *);

void GOMP_task(void (*fn)(void *), void *data, void (*cpyfn)(void *, void *),
               long arg_size, long arg_align, bool if_clause, unsigned flags,
               void **depend, int priority, void *detach) {
  static gomp_task_t real;
  if (!real)
    *(void **)&real = dlsym(RTLD_NEXT, "GOMP_task");
  if (!real) {
    problem("libgomp's GOMP_task not found%s%s", "", "");
    abort();
  }
  POMPT_Desc_t *d = POMPT_lane_v2.task;
  if (!d) {
    real(fn, data, cpyfn, arg_size, arg_align, if_clause, flags, depend,
         priority, detach);
    return;
  }
  POMPT_lane_v2.task = NULL;
  POMPT_Task_t task = POMPT_Task_create_begin(d, POMPT_lane_v2.task_flags);
  long al = arg_align > (long)_Alignof(struct handed_block)
                ? arg_align
                : (long)_Alignof(struct handed_block);
  long off = ((long)sizeof(struct handed_block) + al - 1) / al * al;
  struct handed_block src = {fn, task, off, cpyfn, data, arg_size};
  real(handed_run, &src, handed_copy, off + arg_size, al, if_clause, flags,
       depend, priority, detach);
  POMPT_Task_create_end();
}
