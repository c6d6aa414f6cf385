/*
 * hand_compact_task.c -- the compact task events (POMPT_Task_*, pomp.h)
 * against the seed's POMP_Task_* routines, and POMPT_active.
 *
 * The program is its own tool (own_tool.h) and records every
 * task_create, task_schedule and dependences callback, naming tasks by the
 * number its task_create gave them.  The same tasks (a plain one, one with
 * two depend items, an undeferred one, one whose block is left without its
 * end event) are run once with the seed's routines and once the way
 * pomp-instr writes the compact ones (instance guards included), in the
 * initial task and in a parallel region of one thread: the two records must
 * be the same callbacks with the same arguments.  Also checked: POMPT_active
 * is set with a tool, a missing descriptor or instance is an error that
 * delivers nothing.
 *
 * Then the same tasks once more, twice, the way pomp-instr writes a task
 * construct without depend or detach clauses in GCC's unit for x86-64
 * (POMPT_Task_hand: libpompt's GOMP_task takes the task whole; the block
 * has no event).  Both records must again be the seed's (the third task
 * leaves its block by activating a cancellation of its taskgroup, and must
 * end as cancelled), the first run must make each construct's region, and
 * each construct's tasks must have the same codeptr_ra both times.
 *
 * With the argument "notool" (run with OMP_TOOL=disabled): POMPT_active is
 * 0, so the guarded calls are skipped, and an unguarded call does nothing
 * and succeeds; the tasks still run.  Prints PASS or the first violation.
 */
#include <stdio.h>
#include <string.h>
#include <omp-tools.h>

#include "hand.h"
#include "own_tool.h"

static int failures;

struct rec {
  int cb;
  int a, b, c; /* the callback's arguments, tasks by their numbers */
};
#define MAX_RECS 128
static struct rec recs[MAX_RECS];
static int nrecs;
/* task_create's codeptr_ra, by creation. */
static const void *create_codeptr[MAX_RECS];
static int ncreates;
static uint64_t next_task = 1;

static void add(int cb, int a, int b, int c) {
  if (nrecs < MAX_RECS)
    recs[nrecs] = (struct rec){cb, a, b, c};
  nrecs++;
}

static void fail(const char *what) {
  printf("FAIL: %s\n", what);
  failures++;
}

static int num(ompt_data_t *d) { return d ? (int)d->value : -1; }

static void on_create(ompt_data_t *enc, const ompt_frame_t *frame,
                      ompt_data_t *task, int flags, int has_dependences,
                      const void *codeptr) {
  (void)enc, (void)frame;
  task->value = next_task++;
  if (!codeptr)
    fail("task_create without codeptr_ra");
  if (ncreates < MAX_RECS)
    create_codeptr[ncreates] = codeptr;
  ncreates++;
  add(ompt_callback_task_create, flags, has_dependences, 0);
}
static void on_schedule(ompt_data_t *prior, ompt_task_status_t status,
                        ompt_data_t *next) {
  add(ompt_callback_task_schedule, num(prior), (int)status, num(next));
}
static void on_deps(ompt_data_t *task, const ompt_dependence_t *deps,
                    int ndeps) {
  int types = 0;
  for (int i = 0; i < ndeps; i++)
    types = types * 10 + (int)deps[i].dependence_type;
  add(ompt_callback_dependences, num(task), ndeps, types);
}
static void register_callbacks(void) {
  set_callback(ompt_callback_task_create, (ompt_callback_t)on_create);
  set_callback(ompt_callback_task_schedule, (ompt_callback_t)on_schedule);
  set_callback(ompt_callback_dependences, (ompt_callback_t)on_deps);
}

static const char ctc_plain[] = CTC("type=task*file=ct.c*lines=1,2");
static const char ctc_deps[] = CTC("type=task*file=ct.c*lines=3,4*hasDepend=1");
static const char ctc_undef[] = CTC("type=task*file=ct.c*lines=5,6*hasIf=1");
static const char ctc_left[] = CTC("type=task*file=ct.c*lines=7,8");
static const char ctc_wait[] = CTC("type=taskwait*file=ct.c*lines=9,9");
static const char ctc_par[] = CTC("type=parallel*file=ct.c*lines=10,20");

static int ran;
static int a_var, b_var;

/* The seed's routines, as pomp-instr wrote them before the compact tasks. */
static void seed_tasks(void) {
  static POMP_Handle_t h_plain, h_deps, h_undef, h_left, h_wait;
  TASK_CREATE(h_plain, ctc_plain, 0)
#pragma omp task firstprivate(pompt_task)
  TASK_BEGIN(h_plain) ran++;
  TASK_END(h_plain)
  TASK_DONE(h_plain)
  {
    POMP_Dependence_t deps[2] = {{&a_var, 2}, {&b_var, 1}};
    TASK_CREATE(h_deps, ctc_deps, POMP_TASK_HAS_DEPEND)
    TASK_DEPS(h_deps, deps, 2)
#pragma omp task depend(out : a_var) depend(in : b_var) firstprivate(pompt_task)
    TASK_BEGIN(h_deps) ran++;
    TASK_END(h_deps)
    TASK_DONE(h_deps)
  }
  TASK_CREATE(h_undef, ctc_undef, POMP_TASK_UNDEFERRED)
#pragma omp task if (0) firstprivate(pompt_task)
  TASK_BEGIN(h_undef) ran++;
  TASK_END(h_undef)
  TASK_DONE(h_undef)
  /* Left without its end event (as by a jump out of the block). */
  TASK_CREATE(h_left, ctc_left, 0)
#pragma omp task firstprivate(pompt_task)
  {
    POMP_Task_begin(h_left, T, &pompt_task);
    ran++;
  }
  TASK_DONE(h_left)
  TASKWAIT(h_wait, ctc_wait)
}

/* The same tasks as pomp-instr writes them now (pomp.h, POMPT_Task_t):
 * the instance w created if a tool may listen, passed by firstprivate,
 * every event guarded by it. */
#define CT_CREATE(w, d, flags)                                                 \
  POMPT_Task_t w = 0;                                                          \
  if (POMPT_on())                                                              \
    w = POMPT_Task_create_begin(&(d), (flags));
#define CT_BEGIN(w)                                                            \
  if (w)                                                                       \
    POMPT_Task_begin(w);
#define CT_END(w)                                                              \
  if (w)                                                                       \
    POMPT_Task_end(w);                                                         \
  NO_TAIL;
#define CT_DONE(w)                                                             \
  if (w)                                                                       \
    POMPT_Task_create_end();                                                   \
  NO_TAIL;

/* The task with dependences: written the same way in both families (its
 * dependences take the instance). */
static void deps_task(void) {
  static POMPT_Desc_t d_deps = {0, ctc_deps, 0};
  POMP_Dependence_t deps[2] = {{&a_var, 2}, {&b_var, 1}};
  CT_CREATE(w, d_deps, POMP_TASK_HAS_DEPEND)
  if (w)
    POMPT_Task_dependences(w, deps, 2);
#pragma omp task depend(out : a_var) depend(in : b_var) firstprivate(w)
  {
    CT_BEGIN(w)
    ran++;
    CT_END(w)
  }
  CT_DONE(w)
}

static void compact_tasks(void) {
  static POMPT_Desc_t d_plain = {0, ctc_plain, 0}, d_undef = {0, ctc_undef, 0},
                      d_left = {0, ctc_left, 0};
  static POMP_Handle_t h_wait;
  {
    CT_CREATE(w, d_plain, 0)
#pragma omp task firstprivate(w)
    {
      CT_BEGIN(w)
      ran++;
      CT_END(w)
    }
    CT_DONE(w)
  }
  deps_task();
  {
    CT_CREATE(w, d_undef, POMP_TASK_UNDEFERRED)
#pragma omp task if (0) firstprivate(w)
    {
      CT_BEGIN(w)
      ran++;
      CT_END(w)
    }
    CT_DONE(w)
  }
  {
    /* Left without its end event (as by a jump out of the block). */
    CT_CREATE(w, d_left, 0)
#pragma omp task firstprivate(w)
    {
      CT_BEGIN(w)
      ran++;
    }
    CT_DONE(w)
  }
  TASKWAIT(h_wait, ctc_wait)
}

/* As pomp-instr writes a task construct without depend or detach clauses
 * in GCC's unit for x86-64 (pomp.h: "Tasks handed to libpompt's
 * GOMP_task"): the block as written.  The third task leaves its block by
 * activating a cancellation of its taskgroup (it runs with
 * OMP_CANCELLATION=true; there is no taskgroup, so no other task is
 * affected), and must end as cancelled. */
#define HT_CREATE(d, flags)                                                    \
  if (POMPT_on())                                                              \
    POMPT_Task_hand(&(d), (flags));

static POMPT_Desc_t hd_plain = {0, ctc_plain, 0}, hd_undef = {0, ctc_undef, 0},
                    hd_left = {0, ctc_left, 0};

static void handed_tasks(void) {
  static POMP_Handle_t h_wait;
  {
    HT_CREATE(hd_plain, 0)
#pragma omp task
    { ran++; }
  }
  deps_task();
  {
    HT_CREATE(hd_undef, POMP_TASK_UNDEFERRED)
#pragma omp task if (0)
    { ran++; }
  }
  {
    HT_CREATE(hd_left, 0)
#pragma omp task
    {
      ran++;
#pragma omp cancel taskgroup
      ran += 1000; /* reached only without cancellation */
    }
  }
  TASKWAIT(h_wait, ctc_wait)
}

/* Both in the initial task and in a region of one thread. */
static void run(void (*tasks)(void)) {
  static POMP_Handle_t h_par;
  tasks();
  PARALLEL_ENTER(h_par, ctc_par)
#pragma omp parallel num_threads(1)
  {
    PARALLEL_BEGIN(h_par)
    tasks();
    PARALLEL_END(h_par)
  }
  PARALLEL_EXIT(h_par)
}

static int notool(void) {
  static POMPT_Desc_t d = {0, ctc_plain, 0};
  if (POMPT_active || POMPT_on())
    fail("POMPT_active is set without a tool");
  if (POMPT_Task_create_begin(&d, 0) != 0 || d.handle)
    fail("a compact task event did something without a tool");
  if (POMPT_Task_begin(1) != POMP_SUCCESS ||
      POMPT_Task_end(1) != POMP_SUCCESS ||
      POMPT_Task_create_end() != POMP_SUCCESS)
    fail("a compact task event failed without a tool");
  ran = 0;
  run(compact_tasks);
  run(handed_tasks);
  run(handed_tasks);
  if (ran != 24)
    fail("the tasks did not all run");
  if (hd_plain.lane || hd_undef.lane || hd_left.lane)
    fail("a construct was seen by libpompt without a tool");
  if (nrecs != 0)
    fail("a callback without a tool");
  if (!failures)
    printf("PASS\n");
  return failures != 0;
}

static int nseed;
static struct rec seed[MAX_RECS];
static uint64_t seed_tasks_made;
static void same_as_seed(const char *what, int runs);

int main(int argc, char **argv) {
  if (argc > 1 && !strcmp(argv[1], "notool"))
    return notool();
  /* The tool starts at the first event; these events are written by hand
   * and expect it started before the first, as "#pragma pomp inst init"
   * asks for. */
  POMP_Init();
  if (!set_callback) {
    printf("FAIL: the program's tool was not started\n");
    return 1;
  }
  if (!POMPT_active || !POMPT_on())
    fail("POMPT_active is 0 with a tool active");
  if (POMPT_Task_create_begin(NULL, 0) != 0)
    fail("task creation without a descriptor made an instance");
  if (POMPT_Task_begin(0) != POMP_ERR_ARG || POMPT_Task_end(0) != POMP_ERR_ARG)
    fail("task begin or end without an instance");
  if (nrecs != 0)
    fail("a callback for an event that returned an error");
  run(seed_tasks);
  nseed = nrecs;
  memcpy(seed, recs, sizeof seed);
  seed_tasks_made = next_task - 1;
  nrecs = 0;
  run(compact_tasks);
  if (ran != 16)
    fail("the tasks did not all run");
  same_as_seed("compact", 1);
  /* Handed over, twice: the first run makes the constructs' regions. */
  for (int k = 0; k < 2; k++) {
    int c0 = ncreates;
    nrecs = 0;
    run(handed_tasks);
    if (ran != 24 + 8 * k)
      fail("the handed tasks did not all run");
    same_as_seed(k ? "handed (second run)" : "handed (first run)", 2 + k);
    if (k == 0 && (hd_plain.lane != POMPT_LANE_TASK_SEEN ||
                   hd_undef.lane != POMPT_LANE_TASK_SEEN ||
                   hd_left.lane != POMPT_LANE_TASK_SEEN || !hd_plain.handle ||
                   !hd_undef.handle || !hd_left.handle))
      fail("a construct's region is not made at its first task");
    if (k == 1)
      for (int i = 0; i < 8 && c0 + i < MAX_RECS; i++)
        if (create_codeptr[c0 + i] != create_codeptr[c0 - 8 + i])
          fail("a handed task's codeptr_ra differs between runs");
  }
  if (!failures)
    printf("PASS\n");
  return failures != 0;
}

/* The run just recorded against the seed's: the same callbacks, with task
 * numbers shifted by the tasks made before (runs - 1 runs of the seed's
 * count); eight tasks, the two left without their end cancelled. */
static void same_as_seed(const char *what, int runs) {
  char msg[160];
  if (nseed == 0 || nseed > MAX_RECS) {
    fail("no record, or too many, of the seed's tasks");
  } else if (nrecs != nseed) {
    snprintf(msg, sizeof msg, "a different number of callbacks for the %s tasks",
             what);
    fail(msg);
  } else {
    /* Task numbers of a later run are shifted by the earlier runs' count. */
    int off = (int)seed_tasks_made * runs;
    for (int i = 0; i < nseed; i++) {
      struct rec s = seed[i], c = recs[i];
      if (c.cb == ompt_callback_task_schedule) {
        if (c.a > off)
          c.a -= off;
        if (c.c > off)
          c.c -= off;
      } else if (c.cb == ompt_callback_dependences && c.a > off) {
        c.a -= off;
      }
      if (s.cb != c.cb || s.a != c.a || s.b != c.b || s.c != c.c) {
        printf("record %d: seed cb %d (%d %d %d), %s cb %d (%d %d %d)\n", i,
               s.cb, s.a, s.b, s.c, what, recs[i].cb, recs[i].a, recs[i].b,
               recs[i].c);
        snprintf(msg, sizeof msg,
                 "the %s tasks' callbacks differ from the seed's", what);
        fail(msg);
        break;
      }
    }
  }
  int creates = 0, completes = 0, cancels = 0;
  for (int i = 0; i < nrecs && i < MAX_RECS; i++) {
    creates += recs[i].cb == ompt_callback_task_create;
    completes += recs[i].cb == ompt_callback_task_schedule &&
                 recs[i].b == ompt_task_complete;
    cancels += recs[i].cb == ompt_callback_task_schedule &&
               recs[i].b == ompt_task_cancel;
  }
  /* Eight tasks; the two left without their end end as cancelled. */
  if (creates != 8 || completes != 6 || cancels != 2) {
    snprintf(msg, sizeof msg,
             "%s: not eight tasks created, six completed and two cancelled",
             what);
    fail(msg);
  }
}
