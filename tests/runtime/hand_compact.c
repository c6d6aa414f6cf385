/*
 * hand_compact.c -- the compact event family (POMPT_*, pomp.h) against the
 * seed's routines it stands for.
 *
 * The program is its own tool (own_tool.h) and records every
 * work, sync_region, masked and mutex callback.  The same constructs are
 * run once with the seed's routines and once with the compact ones (merged
 * routines included), on fresh handles: the two records must be the same
 * callbacks with the same arguments, except codeptr_ra, which must be the
 * call site (a merged routine's two callbacks share one).  Also checked:
 * lazy initialisation of a descriptor's handle from its CTC string, and the
 * error statuses for a missing descriptor or team storage and for a later
 * event whose construct never had a first event.  Prints PASS or the first
 * violation.
 */
#include <stdio.h>
#include <string.h>
#include <omp-tools.h>

#include "hand.h"
#include "own_tool.h"

static int failures;

struct rec {
  int cb;       /* the ompt_callbacks_t */
  int kind;     /* work type, sync region kind, mutex kind, or 0 */
  int endpoint; /* ompt_scope_endpoint_t, or 0 */
  uint64_t value;
  const void *codeptr;
};
#define MAX_RECS 64
static struct rec recs[MAX_RECS];
static int nrecs;

static void add(int cb, int kind, int endpoint, uint64_t value,
                const void *codeptr) {
  if (nrecs < MAX_RECS)
    recs[nrecs] = (struct rec){cb, kind, endpoint, value, codeptr};
  nrecs++;
}

static void fail(const char *what) {
  printf("FAIL: %s\n", what);
  failures++;
}

static void on_work(ompt_work_t type, ompt_scope_endpoint_t endpoint,
                    ompt_data_t *parallel, ompt_data_t *task, uint64_t count,
                    const void *codeptr) {
  (void)parallel, (void)task;
  add(ompt_callback_work, (int)type, (int)endpoint,
      endpoint == ompt_scope_begin ? count : 0, codeptr);
}

static void on_sync(ompt_sync_region_t kind, ompt_scope_endpoint_t endpoint,
                    ompt_data_t *parallel, ompt_data_t *task,
                    const void *codeptr) {
  (void)parallel, (void)task;
  add(ompt_callback_sync_region, (int)kind, (int)endpoint, 0, codeptr);
}

static void on_masked(ompt_scope_endpoint_t endpoint, ompt_data_t *parallel,
                      ompt_data_t *task, const void *codeptr) {
  (void)parallel, (void)task;
  add(ompt_callback_masked, 0, (int)endpoint, 0, codeptr);
}

static void on_acquire(ompt_mutex_t kind, unsigned hint, unsigned impl,
                       ompt_wait_id_t wait_id, const void *codeptr) {
  (void)hint, (void)impl, (void)wait_id;
  add(ompt_callback_mutex_acquire, (int)kind, 0, 0, codeptr);
}

static void on_acquired(ompt_mutex_t kind, ompt_wait_id_t wait_id,
                        const void *codeptr) {
  (void)wait_id;
  add(ompt_callback_mutex_acquired, (int)kind, 0, 0, codeptr);
}

static void on_released(ompt_mutex_t kind, ompt_wait_id_t wait_id,
                        const void *codeptr) {
  (void)wait_id;
  add(ompt_callback_mutex_released, (int)kind, 0, 0, codeptr);
}

static void register_callbacks(void) {
  set_callback(ompt_callback_work, (ompt_callback_t)on_work);
  set_callback(ompt_callback_sync_region, (ompt_callback_t)on_sync);
  set_callback(ompt_callback_masked, (ompt_callback_t)on_masked);
  set_callback(ompt_callback_mutex_acquire, (ompt_callback_t)on_acquire);
  set_callback(ompt_callback_mutex_acquired, (ompt_callback_t)on_acquired);
  set_callback(ompt_callback_mutex_released, (ompt_callback_t)on_released);
}


static const char ctc_loop[] = CTC("type=for*file=compact.c*lines=1,3");
static const char ctc_sections[] =
    CTC("type=sections*file=compact.c*lines=4,6*numSections=2");
static const char ctc_single[] = CTC("type=single*file=compact.c*lines=7,8");
static const char ctc_master[] = CTC("type=master*file=compact.c*lines=9,9");
static const char ctc_critical[] =
    CTC("type=critical*file=compact.c*lines=10,11*name=c");
static const char ctc_barrier[] = CTC("type=barrier*file=compact.c*lines=12");
static const char ctc_atomic[] = CTC("type=atomic*file=compact.c*lines=13,14");

/* The seed's routines, as pomp-instr wrote them before the compact family. */
static void seed_run(void) {
  static POMP_Handle_t h_loop, h_sections, h_single, h_master, h_critical,
      h_barrier, h_atomic;
  POMP_Loop_enter(&h_loop, T, -1, 0, 9, 1, ctc_loop);
  POMP_Loop_exit(h_loop, T);
  POMP_Implicit_barrier_enter(&h_loop, T, ctc_loop);
  POMP_Implicit_barrier_exit(h_loop, T);
  POMP_Sections_enter(&h_sections, T, ctc_sections);
  POMP_Section_begin(h_sections, 1, T);
  POMP_Section_end(h_sections, T);
  POMP_Sections_exit(h_sections, T);
  POMP_Implicit_barrier_enter(&h_sections, T, ctc_sections);
  POMP_Implicit_barrier_exit(h_sections, T);
  POMP_Single_enter(&h_single, T, ctc_single);
  POMP_Single_begin(h_single, T);
  POMP_Single_end(h_single, T);
  POMP_Single_exit(h_single, T);
  POMP_Implicit_barrier_enter(&h_single, T, ctc_single);
  POMP_Implicit_barrier_exit(h_single, T);
  POMP_Master_begin(&h_master, T, ctc_master);
  POMP_Master_end(h_master, T);
  POMP_Critical_enter(&h_critical, T, ctc_critical);
  POMP_Critical_begin(h_critical, T);
  POMP_Critical_end(h_critical, T);
  POMP_Critical_exit(h_critical, T);
  POMP_Barrier_enter(&h_barrier, T, ctc_barrier);
  POMP_Barrier_exit(h_barrier, T);
  POMP_Atomic_enter(&h_atomic, T, ctc_atomic);
  POMP_Atomic_exit(h_atomic, T);
  NO_TAIL;
}

/* The same constructs with the compact family, on fresh descriptors. */
static void compact_run(void) {
  static POMPT_Desc_t d_loop = {0, ctc_loop, 0}, d_sections = {0, ctc_sections, 0},
                      d_single = {0, ctc_single, 0}, d_master = {0, ctc_master, 0},
                      d_critical = {0, ctc_critical, 0},
                      d_barrier = {0, ctc_barrier, 0},
                      d_atomic = {0, ctc_atomic, 0};
  POMPT_Loop_enter(&d_loop, 0, 9, 1);
  if (!d_loop.handle)
    fail("the first compact event left the handle zero");
  POMPT_Loop_exit_barrier(&d_loop);
  POMPT_Implicit_barrier_exit(&d_loop);
  POMPT_Sections_enter(&d_sections);
  POMPT_Section_begin(&d_sections, 1);
  POMPT_Section_end(&d_sections);
  POMPT_Sections_exit_barrier(&d_sections);
  POMPT_Implicit_barrier_exit(&d_sections);
  POMPT_Single_enter(&d_single);
  POMPT_Single_begin(&d_single);
  POMPT_Single_end(&d_single);
  POMPT_Single_exit_barrier(&d_single);
  POMPT_Implicit_barrier_exit(&d_single);
  POMPT_Master_begin(&d_master);
  POMPT_Master_end(&d_master);
  POMPT_Critical_enter(&d_critical);
  POMPT_Critical_begin(&d_critical);
  POMPT_Critical_end(&d_critical);
  POMPT_Critical_exit(&d_critical);
  POMPT_Barrier_enter(&d_barrier);
  POMPT_Barrier_exit(&d_barrier);
  POMPT_Atomic_enter(&d_atomic);
  POMPT_Atomic_exit(&d_atomic);
  NO_TAIL;
}

static int same_but_codeptr(const struct rec *a, const struct rec *b) {
  return a->cb == b->cb && a->kind == b->kind && a->endpoint == b->endpoint &&
         a->value == b->value;
}

int main(void) {
  /* The tool starts at the first event; these events are written by hand
   * and expect it started before the first, as "#pragma pomp inst init"
   * asks for. */
  POMP_Init();
  if (!set_callback) {
    printf("FAIL: the program's tool was not started\n");
    return 1;
  }

  /* Errors: nothing is delivered for them. */
  POMPT_Team_t team;
  POMPT_Desc_t never = {0, ctc_loop, 0};
  if (POMPT_Loop_enter(NULL, 0, 9, 1) != POMP_ERR_HANDLE)
    fail("first event without a descriptor");
  if (POMPT_Loop_exit(&never) != POMP_ERR_HANDLE)
    fail("later event of a construct that had no first event");
  if (POMPT_Parallel_fork(&never, NULL) != POMP_ERR_ARG)
    fail("parallel enter without team storage");
  team.desc = NULL;
  if (POMPT_Parallel_begin(&team) != POMP_ERR_HANDLE ||
      POMPT_Parallel_exit(NULL) != POMP_ERR_ARG)
    fail("parallel events without an entered team");
  if (nrecs != 0)
    fail("a callback for an event that returned an error");

  seed_run();
  int nseed = nrecs;
  struct rec seed[MAX_RECS];
  memcpy(seed, recs, sizeof seed);
  nrecs = 0;
  compact_run();
  if (nseed > MAX_RECS || nseed < 21)
    fail("the seed's run delivered too few or too many callbacks");
  if (nrecs != nseed) {
    printf("FAIL: %d callbacks from the compact family, %d from the seed's\n",
           nrecs, nseed);
    return 1;
  }
  for (int i = 0; i < nrecs; i++) {
    if (!same_but_codeptr(&seed[i], &recs[i])) {
      printf("FAIL: callback %d: %d/%d/%d/%llu (compact) against %d/%d/%d/"
             "%llu (seed)\n",
             i, recs[i].cb, recs[i].kind, recs[i].endpoint,
             (unsigned long long)recs[i].value, seed[i].cb, seed[i].kind,
             seed[i].endpoint, (unsigned long long)seed[i].value);
      failures++;
    }
    if (!recs[i].codeptr)
      fail("a compact event without codeptr_ra");
  }
  /* The loop: work begin, work end and the barrier's begin (one merged
   * call: one call site), the barrier's end (another call). */
  if (recs[0].cb != ompt_callback_work || recs[0].value != 10)
    fail("the loop's work callback does not count its 10 iterations");
  if (recs[1].codeptr == recs[0].codeptr)
    fail("loop exit with the call site of loop enter");
  for (int i = 1; i + 1 < nrecs && recs[i].cb == ompt_callback_work; i++)
    if (recs[i + 1].cb == ompt_callback_sync_region &&
        recs[i + 1].endpoint == ompt_scope_begin &&
        recs[i + 1].codeptr != recs[i].codeptr)
      fail("the merged loop exit and barrier enter have two call sites");
  if (failures)
    return 1;
  printf("PASS: %d callbacks alike\n", nrecs);
  return 0;
}
