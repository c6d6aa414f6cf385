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
 *  - a parallel region's team storage is the one its enter event set up.
 * Problems are printed to stderr (the test fails on any stderr output).
 */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pomp.h"

struct pomp_region {
  char type[32];
};

enum ev {
  EV_PARALLEL,
  EV_PAR_BODY,
  EV_LOOP,
  EV_SECTIONS,
  EV_SECTION,
  EV_SINGLE,
  EV_SINGLE_BODY,
  EV_MASTER,
  EV_CRITICAL,
  EV_CRITICAL_BODY,
  EV_BARRIER,
  EV_IBARRIER
};

static const char *const ev_name[] = {
    "parallel", "parallel body", "loop",        "sections",
    "section",  "single",        "single body", "master",
    "critical", "critical body", "barrier",     "implicit barrier"};

#define MAX_DEPTH 64
static _Thread_local struct {
  POMP_Handle_t h;
  enum ev e;
} stack[MAX_DEPTH];
static _Thread_local int depth;

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static long open_events, problems;

static void problem(const char *fmt, const char *a, const char *b) {
  pthread_mutex_lock(&lock);
  if (problems++ < 20) {
    fputs("pomp_stub: ", stderr);
    fprintf(stderr, fmt, a, b);
    fputc('\n', stderr);
  }
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
    if (r && t)
      sscanf(t + 6, "%31[^*]", r->type);
    *h = r;
  }
  pthread_mutex_unlock(&lock);
  return *h;
}

static void check_tid(int32_t tid) {
  if (tid != POMP_THREAD_SELF)
    problem("thread id is not POMP_THREAD_SELF%s%s", "", "");
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
static void check_team(POMP_Handle_t h, POMP_Team_t *team) {
  if (!team || team->pomp_opaque[0] != (TEAM_MAGIC ^ (uint64_t)(uintptr_t)h))
    problem("team storage does not come from the region's enter event%s%s", "",
            "");
}

int32_t POMP_Get_handle(POMP_Handle_t *handle, const char ctc[]) {
  init_handle(handle, ctc);
  return POMP_SUCCESS;
}

int32_t POMP_Parallel_enter_team(POMP_Handle_t *handle, int32_t thread_id,
                                 int32_t num_threads, int32_t if_expr_result,
                                 POMP_Team_t *team, const char ctc[]) {
  POMP_Handle_t h = init_handle(handle, ctc);
  if (if_expr_result < -1 || if_expr_result > 1 || num_threads < -1)
    problem("bad parallel run-time context%s%s", "", "");
  if (team)
    team->pomp_opaque[0] = TEAM_MAGIC ^ (uint64_t)(uintptr_t)h;
  open_ev(h, EV_PARALLEL, thread_id);
  return POMP_SUCCESS;
}
int32_t POMP_Parallel_begin_team(POMP_Handle_t h, int32_t thread_id,
                                 POMP_Team_t *team) {
  check_team(h, team);
  open_ev(h, EV_PAR_BODY, thread_id);
  return POMP_SUCCESS;
}
int32_t POMP_Parallel_end_team(POMP_Handle_t h, int32_t thread_id,
                               POMP_Team_t *team) {
  check_team(h, team);
  close_ev(h, EV_PAR_BODY, thread_id);
  return POMP_SUCCESS;
}
int32_t POMP_Parallel_exit_team(POMP_Handle_t h, int32_t thread_id,
                                POMP_Team_t *team) {
  check_team(h, team);
  close_ev(h, EV_PARALLEL, thread_id);
  return POMP_SUCCESS;
}

int32_t POMP_Loop_enter(POMP_Handle_t *handle, int32_t thread_id,
                        int64_t chunk_size, int64_t init_iter,
                        int64_t final_iter, int64_t incr, const char ctc[]) {
  (void)chunk_size;
  (void)init_iter;
  (void)final_iter;
  (void)incr;
  open_ev(init_handle(handle, ctc), EV_LOOP, thread_id);
  return POMP_SUCCESS;
}
int32_t POMP_Loop_exit(POMP_Handle_t h, int32_t thread_id) {
  close_ev(h, EV_LOOP, thread_id);
  return POMP_SUCCESS;
}

int32_t POMP_Sections_enter(POMP_Handle_t *handle, int32_t thread_id,
                            const char ctc[]) {
  open_ev(init_handle(handle, ctc), EV_SECTIONS, thread_id);
  return POMP_SUCCESS;
}
int32_t POMP_Section_begin(POMP_Handle_t h, int32_t section_num,
                           int32_t thread_id) {
  if (section_num < 1)
    problem("bad section number%s%s", "", "");
  open_ev(h, EV_SECTION, thread_id);
  return POMP_SUCCESS;
}
int32_t POMP_Section_end(POMP_Handle_t h, int32_t thread_id) {
  close_ev(h, EV_SECTION, thread_id);
  return POMP_SUCCESS;
}
int32_t POMP_Sections_exit(POMP_Handle_t h, int32_t thread_id) {
  close_ev(h, EV_SECTIONS, thread_id);
  return POMP_SUCCESS;
}

int32_t POMP_Single_enter(POMP_Handle_t *handle, int32_t thread_id,
                          const char ctc[]) {
  open_ev(init_handle(handle, ctc), EV_SINGLE, thread_id);
  return POMP_SUCCESS;
}
int32_t POMP_Single_begin(POMP_Handle_t h, int32_t thread_id) {
  open_ev(h, EV_SINGLE_BODY, thread_id);
  return POMP_SUCCESS;
}
int32_t POMP_Single_end(POMP_Handle_t h, int32_t thread_id) {
  close_ev(h, EV_SINGLE_BODY, thread_id);
  return POMP_SUCCESS;
}
int32_t POMP_Single_exit(POMP_Handle_t h, int32_t thread_id) {
  close_ev(h, EV_SINGLE, thread_id);
  return POMP_SUCCESS;
}

int32_t POMP_Master_begin(POMP_Handle_t *handle, int32_t thread_id,
                          const char ctc[]) {
  open_ev(init_handle(handle, ctc), EV_MASTER, thread_id);
  return POMP_SUCCESS;
}
int32_t POMP_Master_end(POMP_Handle_t h, int32_t thread_id) {
  close_ev(h, EV_MASTER, thread_id);
  return POMP_SUCCESS;
}

int32_t POMP_Critical_enter(POMP_Handle_t *handle, int32_t thread_id,
                            const char ctc[]) {
  open_ev(init_handle(handle, ctc), EV_CRITICAL, thread_id);
  return POMP_SUCCESS;
}
int32_t POMP_Critical_begin(POMP_Handle_t h, int32_t thread_id) {
  open_ev(h, EV_CRITICAL_BODY, thread_id);
  return POMP_SUCCESS;
}
int32_t POMP_Critical_end(POMP_Handle_t h, int32_t thread_id) {
  close_ev(h, EV_CRITICAL_BODY, thread_id);
  return POMP_SUCCESS;
}
int32_t POMP_Critical_exit(POMP_Handle_t h, int32_t thread_id) {
  close_ev(h, EV_CRITICAL, thread_id);
  return POMP_SUCCESS;
}

int32_t POMP_Barrier_enter(POMP_Handle_t *handle, int32_t thread_id,
                           const char ctc[]) {
  open_ev(init_handle(handle, ctc), EV_BARRIER, thread_id);
  return POMP_SUCCESS;
}
int32_t POMP_Barrier_exit(POMP_Handle_t h, int32_t thread_id) {
  close_ev(h, EV_BARRIER, thread_id);
  return POMP_SUCCESS;
}

int32_t POMP_Implicit_barrier_enter(POMP_Handle_t *handle, int32_t thread_id,
                                    const char ctc[]) {
  open_ev(init_handle(handle, ctc), EV_IBARRIER, thread_id);
  return POMP_SUCCESS;
}
int32_t POMP_Implicit_barrier_exit(POMP_Handle_t h, int32_t thread_id) {
  close_ev(h, EV_IBARRIER, thread_id);
  return POMP_SUCCESS;
}

__attribute__((destructor)) static void check_balance(void) {
  long n = __atomic_load_n(&open_events, __ATOMIC_RELAXED);
  if (n != 0) {
    char num[32];
    snprintf(num, sizeof num, "%ld", n);
    problem("%s event(s) still open at exit%s", num, "");
  }
}
