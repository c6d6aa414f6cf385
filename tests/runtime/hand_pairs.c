/*
 * hand_pairs.c -- begin/end pairs of masked and work regions whose begin
 * was not delivered.  libpompt records such a pair only when its begin
 * reaches the tool (doc/performance.md, "Cost of an event with no
 * callback"); its end must then reach the tool exactly when its begin did,
 * also when a callback is registered, or monitoring switched on, between
 * the two, and when an inner pair is left open by a task that ends.
 *
 * The program is its own tool (own_tool.h), so that it can
 * register and unregister callbacks between the events.  Every masked and
 * work callback is checked against a stack of the open begins: an end must
 * close the innermost begin, of the same kind; at exit nothing is open and
 * the counts are the expected ones.  Prints PASS or the first violation.
 * Sections 5, 6 and 7 hold the inline master, atomic and critical events
 * of pomp.h (the lane, ompt-bridge/src/bridge_lane.c) to the same rules.
 */
#include <stdio.h>
#include <stdlib.h>
#include <omp-tools.h>

#include "hand.h"
#include "own_tool.h"

static int depth, begins, ends, failures;
static int open_kind[64]; /* -1: masked, else the ompt_work_t */

static void fail(const char *what) {
  printf("FAIL: %s (depth %d, begins %d, ends %d)\n", what, depth, begins,
         ends);
  failures++;
}

static void scope(int kind, ompt_scope_endpoint_t endpoint) {
  if (endpoint == ompt_scope_begin) {
    begins++;
    if (depth < 64)
      open_kind[depth] = kind;
    depth++;
    return;
  }
  ends++;
  if (depth == 0)
    fail("an end without a begin");
  else if (open_kind[--depth] != kind)
    fail("an end of another kind than the innermost begin");
}

static void on_masked(ompt_scope_endpoint_t endpoint, ompt_data_t *parallel,
                      ompt_data_t *task, const void *codeptr) {
  (void)parallel, (void)task, (void)codeptr;
  scope(-1, endpoint);
}

static void on_work(ompt_work_t type, ompt_scope_endpoint_t endpoint,
                    ompt_data_t *parallel, ompt_data_t *task, uint64_t count,
                    const void *codeptr) {
  (void)parallel, (void)task, (void)count, (void)codeptr;
  scope((int)type, endpoint);
}

/* Atomic and critical constructs' mutex events (sections 6, 7): counted, a
 * release only for an acquisition, every wait id remembered; of the kind
 * the section expects, and a critical region's acquire in the thread's
 * waiting state. */
static int acquires, acquireds, releases, held;
static uint64_t last_wait_id;
static int wait_ids_differ;
static ompt_mutex_t mutex_kind = ompt_mutex_atomic;
static int inline_acquires; /* the lane's waiting state set: pomp.h's */

static void note_wait_id(ompt_wait_id_t w) {
  if (last_wait_id && w != last_wait_id)
    wait_ids_differ = 1;
  last_wait_id = w;
}

static void on_acquire(ompt_mutex_t kind, unsigned hint, unsigned impl,
                       ompt_wait_id_t w, const void *codeptr) {
  (void)hint, (void)impl, (void)codeptr;
  if (kind != mutex_kind)
    fail("mutex_acquire of another kind");
  if (kind == ompt_mutex_critical) {
    ompt_wait_id_t sw = 0;
    if (get_state(&sw) != ompt_state_wait_critical || sw != w)
      fail("a critical region's acquire not in wait_critical for its lock");
    inline_acquires += POMPT_lane_v2.wait_state != 0;
  }
  acquires++;
  note_wait_id(w);
}

static void on_acquired(ompt_mutex_t kind, ompt_wait_id_t w,
                        const void *codeptr) {
  (void)codeptr;
  if (kind != mutex_kind)
    fail("mutex_acquired of another kind");
  ompt_wait_id_t sw = 1;
  int st = get_state(&sw);
  if (st != ompt_state_work_serial && st != ompt_state_work_parallel)
    fail("mutex_acquired not in a working state");
  acquireds++;
  held++;
  note_wait_id(w);
}

static void on_released(ompt_mutex_t kind, ompt_wait_id_t w,
                        const void *codeptr) {
  (void)kind, (void)codeptr;
  releases++;
  if (held-- == 0)
    fail("a release without an acquisition");
  note_wait_id(w);
}

static void mutex_on(ompt_callbacks_t which, int on) {
  ompt_callback_t cb = which == ompt_callback_mutex_acquire
                           ? (ompt_callback_t)on_acquire
                       : which == ompt_callback_mutex_acquired
                           ? (ompt_callback_t)on_acquired
                           : (ompt_callback_t)on_released;
  set_callback(which, on ? cb : (ompt_callback_t)0);
}

static void expect_mutex(int a, int ad, int r, const char *what) {
  if (acquires != a || acquireds != ad || releases != r || held != 0) {
    printf("FAIL: %s: acquire %d acquired %d released %d held %d, expected "
           "%d %d %d 0\n",
           what, acquires, acquireds, releases, held, a, ad, r);
    failures++;
  }
}

static void masked_on(int on) {
  set_callback(ompt_callback_masked,
               on ? (ompt_callback_t)on_masked : (ompt_callback_t)0);
}

static void register_callbacks(void) {
  set_callback(ompt_callback_work, (ompt_callback_t)on_work);
}


static POMP_Handle_t h_outer, h_inner, h_loop, h_sections, h_task;
/* The codeptr_ra the inline events are given (pomp-instr passes a label's
 * address in the construct's code): here one code address for all. */
static POMPT_Desc_t d_outer = {0, CTC("type=master*file=pairs.c*lines=11,19"), 0};
static POMPT_Desc_t d_inner = {0, CTC("type=master*file=pairs.c*lines=12,18"), 0};
static const char ctc_outer[] = CTC("type=master*file=pairs.c*lines=1,9");
static const char ctc_inner[] = CTC("type=master*file=pairs.c*lines=2,8");
static const char ctc_loop[] = CTC("type=for*file=pairs.c*lines=3,4");
static const char ctc_sections[] = CTC("type=sections*file=pairs.c*lines=5,7");
static const char ctc_task[] = CTC("type=task*file=pairs.c*lines=6,7");

static void expect(int b, int e, const char *what) {
  if (begins != b || ends != e || depth != 0) {
    printf("FAIL: %s: begins %d ends %d depth %d, expected %d %d 0\n", what,
           begins, ends, depth, b, e);
    failures++;
  }
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
  /* 1. Registered between begin and end: neither is delivered. */
  POMP_Master_begin(&h_outer, T, ctc_outer);
  masked_on(1);
  POMP_Master_end(h_outer, T);
  expect(0, 0, "masked registered between begin and end");
  /* ... and a pair after that is. */
  POMP_Master_begin(&h_outer, T, ctc_outer);
  POMP_Master_end(h_outer, T);
  expect(1, 1, "masked pair");

  /* 2. An inner pair whose begin was not delivered, inside one that was:
   * the inner end must neither be delivered nor close the outer pair. */
  POMP_Master_begin(&h_outer, T, ctc_outer);
  masked_on(0);
  POMP_Master_begin(&h_inner, T, ctc_inner);
  masked_on(1);
  POMP_Master_end(h_inner, T);
  POMP_Master_end(h_outer, T);
  expect(2, 2, "nested masked, inner begin not delivered");

  /* 3. Monitoring off at a begin, on at its end (work). */
  POMP_Off();
  POMP_Loop_enter(&h_loop, T, -1, 0, 9, 1, ctc_loop);
  POMP_On();
  POMP_Loop_exit(h_loop, T);
  expect(2, 2, "loop begun while monitoring was off");
  POMP_Sections_enter(&h_sections, T, ctc_sections);
  POMP_Off();
  POMP_Loop_enter(&h_loop, T, -1, 0, 9, 1, ctc_loop);
  POMP_On();
  POMP_Loop_exit(h_loop, T);
  POMP_Sections_exit(h_sections, T);
  expect(3, 3, "sections around a loop begun while monitoring was off");

  /* 4. A task that ends with a masked region left open (a cancelled task
   * does): the open region ends with the task, and the enclosing pair is
   * still matched, whether the inner begin was delivered or not. */
  for (int delivered = 1; delivered >= 0; delivered--) {
    int b = begins, e = ends;
    POMP_Master_begin(&h_outer, T, ctc_outer);
    TASK_CREATE(h_task, ctc_task, POMP_TASK_UNDEFERRED)
    TASK_BEGIN(h_task)
    masked_on(delivered);
    POMP_Master_begin(&h_inner, T, ctc_inner);
    masked_on(1);
    TASK_END(h_task)
    TASK_DONE(h_task)
    POMP_Master_end(h_outer, T);
    expect(b + 1 + delivered, e + 1 + delivered,
           delivered ? "task left a delivered masked region open"
                     : "task left an undelivered masked region open");
  }
  /* 5. The inline master events (pomp.h, POMPT_Master_enter/_leave): the
   * same rules whether an event is delivered from the instrumented code
   * (the lane) or by libpompt, and for a region begun one way and ended
   * the other. */
  masked_on(1);
  int b = begins, e = ends;
  POMPT_Master_enter(&d_outer); /* libpompt, which opens the lane */
  POMPT_Master_leave(&d_outer);
  expect(b + 1, e + 1, "inline masked pair");
  /* white box: the pairs below go inline */
  if (POMPT_lane_v2.usable != (POMPT_LANE_READY | POMPT_LANE_OUTERMOST))
    fail("the lane is still closed after a master region");
  POMPT_Master_enter(&d_outer);
  POMPT_Master_enter(&d_inner);
  POMPT_Master_leave(&d_inner);
  POMPT_Master_leave(&d_outer);
  expect(b + 3, e + 3, "nested inline masked pairs");
  /* Registered between begin and end: neither. */
  masked_on(0);
  POMPT_Master_enter(&d_outer);
  masked_on(1);
  POMPT_Master_leave(&d_outer);
  expect(b + 3, e + 3, "inline masked registered between begin and end");
  /* Monitoring switched off inside: the end of a delivered begin still
   * comes; switched on inside: neither. */
  POMPT_Master_enter(&d_outer);
  POMP_Off();
  POMPT_Master_leave(&d_outer);
  POMPT_Master_enter(&d_inner);
  POMP_On();
  POMPT_Master_leave(&d_inner);
  expect(b + 4, e + 4, "inline masked with monitoring switched inside");
  /* Inside another construct's pair libpompt takes the event (the lane is
   * closed while the task has a construct open), and an inline begin
   * inside a master region libpompt handled. */
  POMP_Loop_enter(&h_loop, T, -1, 0, 9, 1, ctc_loop);
  if (POMPT_lane_v2.usable != POMPT_LANE_READY)
    fail("the lane is open for master regions inside a loop");
  POMPT_Master_enter(&d_outer);
  POMPT_Master_leave(&d_outer);
  POMP_Loop_exit(h_loop, T);
  POMP_Master_begin(&h_outer, T, ctc_outer);
  POMPT_Master_enter(&d_inner);
  POMPT_Master_leave(&d_inner);
  POMP_Master_end(h_outer, T);
  expect(b + 8, e + 8, "inline masked inside other pairs");
  /* A task that ends with an inline master region open: its end is
   * delivered with the task's, inside the enclosing pair (begun inline
   * too). */
  POMPT_Master_enter(&d_outer);
  TASK_CREATE(h_task, ctc_task, POMP_TASK_UNDEFERRED)
  TASK_BEGIN(h_task)
  POMPT_Master_enter(&d_inner);
  TASK_END(h_task)
  TASK_DONE(h_task)
  POMPT_Master_leave(&d_outer);
  expect(b + 10, e + 10, "task left an inline masked region open");
  /* A task created while monitoring was off was never announced: nothing
   * inside it is delivered, inline or not. */
  POMP_Off();
  TASK_CREATE(h_task, ctc_task, POMP_TASK_UNDEFERRED)
  TASK_BEGIN(h_task)
  POMP_On();
  POMPT_Master_enter(&d_inner);
  POMPT_Master_leave(&d_inner);
  POMPT_Master_enter(&d_inner);
  POMPT_Master_leave(&d_inner);
  TASK_END(h_task)
  TASK_DONE(h_task)
  expect(b + 10, e + 10, "inline masked in a task never announced");

  /* 6. Atomic constructs through the inline events: the first execution
   * goes to libpompt, which finds an atomic instruction and says so in the
   * descriptor; later ones are delivered inline.  Either way a release
   * exactly when the acquisition was delivered, and the thread's own wait
   * id. */
  mutex_on(ompt_callback_mutex_acquire, 1);
  mutex_on(ompt_callback_mutex_acquired, 1);
  mutex_on(ompt_callback_mutex_released, 1);
  static POMPT_Desc_t d_atomic = {0, CTC("type=atomic*file=pairs.c*lines=30,30"),
                                  0};
  static int x;
  for (int i = 0; i < 3; i++) {
    POMPT_Atomic_begin(&d_atomic);
    __atomic_fetch_add(&x, 1, __ATOMIC_RELAXED);
    POMPT_Atomic_end(&d_atomic);
  }
  expect_mutex(3, 3, 3, "atomic instructions");
  if (d_atomic.lane != POMPT_LANE_ATOMIC_INSTRUCTION)
    fail("the descriptor does not say: atomic instruction");
  if (wait_ids_differ || last_wait_id != (uint64_t)(uintptr_t)&POMPT_lane_v2)
    fail("an atomic instruction's wait id is not the thread's own");
  /* Monitoring switched off inside: the release of the delivered
   * acquisition still comes; switched on inside: nothing. */
  POMPT_Atomic_begin(&d_atomic);
  POMP_Off();
  POMPT_Atomic_end(&d_atomic);
  POMPT_Atomic_begin(&d_atomic);
  POMP_On();
  POMPT_Atomic_end(&d_atomic);
  expect_mutex(4, 4, 4, "atomic with monitoring switched inside");
  /* mutex_acquire registered between enter and exit: the acquisition
   * (mutex_acquired) and its release, as libpompt delivers them. */
  mutex_on(ompt_callback_mutex_acquire, 0);
  POMPT_Atomic_begin(&d_atomic);
  mutex_on(ompt_callback_mutex_acquire, 1);
  POMPT_Atomic_end(&d_atomic);
  expect_mutex(4, 5, 5, "atomic with mutex_acquire registered inside");
  /* In a task never announced: nothing. */
  POMP_Off();
  TASK_CREATE(h_task, ctc_task, POMP_TASK_UNDEFERRED)
  TASK_BEGIN(h_task)
  POMP_On();
  POMPT_Atomic_begin(&d_atomic);
  POMPT_Atomic_end(&d_atomic);
  TASK_END(h_task)
  TASK_DONE(h_task)
  expect_mutex(4, 5, 5, "atomic in a task never announced");

  /* 7. Critical constructs through the inline events: the first execution
   * goes to libpompt, which makes the region and says so in the
   * descriptor; later ones are delivered inline, in the waiting state
   * while acquiring (on_acquire checks).  Either way the wait id of the
   * construct's name, and a release exactly when the acquisition was
   * delivered. */
  mutex_kind = ompt_mutex_critical;
  acquires = acquireds = releases = held = 0;
  static POMPT_Desc_t d_ca = {0, CTC("type=critical*file=pairs.c*lines=40,41*name=a"), 0};
  static POMPT_Desc_t d_ca2 = {0, CTC("type=critical*file=pairs.c*lines=42,43*name=a"), 0};
  static POMPT_Desc_t d_cb = {0, CTC("type=critical*file=pairs.c*lines=44,47*name=b"), 0};
  uint64_t id_a = 0, id_b = 0;
  for (int i = 0; i < 3; i++) {
    last_wait_id = 0, wait_ids_differ = 0;
    POMPT_Critical_wait(&d_ca);
    POMPT_Critical_held(&d_ca);
    POMPT_Critical_release(&d_ca);
    POMPT_Critical_wait(&d_ca2);
    POMPT_Critical_held(&d_ca2);
    POMPT_Critical_release(&d_ca2);
    if (wait_ids_differ || (id_a && last_wait_id != id_a))
      fail("two critical constructs of one name have different wait ids");
    id_a = last_wait_id;
    last_wait_id = 0, wait_ids_differ = 0;
    /* Nested: b around a. */
    POMPT_Critical_wait(&d_cb);
    POMPT_Critical_held(&d_cb);
    uint64_t b_now = last_wait_id;
    POMPT_Critical_wait(&d_ca);
    POMPT_Critical_held(&d_ca);
    POMPT_Critical_release(&d_ca);
    POMPT_Critical_release(&d_cb);
    if (b_now == id_a || (id_b && b_now != id_b))
      fail("critical b's wait id is a's, or changes");
    id_b = b_now;
  }
  expect_mutex(12, 12, 12, "critical regions");
  if (inline_acquires != 9) /* all but each construct's first */
    fail("not every later critical region's acquire was delivered inline");
  if (d_ca.lane != POMPT_LANE_CRITICAL_SEEN ||
      d_cb.lane != POMPT_LANE_CRITICAL_SEEN)
    fail("the descriptor does not say: region made");
  if (POMPT_lane_v2.held_depth || POMPT_lane_v2.wait_state)
    fail("the lane holds a critical region after its release");
  /* Monitoring switched off while waiting: no acquisition, no release;
   * switched off inside: the release of the delivered acquisition still
   * comes; switched on inside: nothing. */
  POMPT_Critical_wait(&d_ca);
  POMP_Off();
  POMPT_Critical_held(&d_ca);
  POMPT_Critical_release(&d_ca);
  POMP_On();
  expect_mutex(13, 12, 12, "critical with monitoring switched off waiting");
  POMPT_Critical_wait(&d_ca);
  POMPT_Critical_held(&d_ca);
  POMP_Off();
  POMPT_Critical_release(&d_ca);
  POMPT_Critical_wait(&d_ca);
  POMPT_Critical_held(&d_ca);
  POMP_On();
  POMPT_Critical_release(&d_ca);
  expect_mutex(14, 13, 13, "critical with monitoring switched inside");
  /* mutex_acquire registered between the acquire and the release: the
   * acquisition and its release, as libpompt delivers them. */
  mutex_on(ompt_callback_mutex_acquire, 0);
  POMPT_Critical_wait(&d_ca);
  mutex_on(ompt_callback_mutex_acquire, 1);
  POMPT_Critical_held(&d_ca);
  POMPT_Critical_release(&d_ca);
  expect_mutex(14, 14, 14, "critical with mutex_acquire registered inside");
  /* In a task never announced: nothing. */
  POMP_Off();
  TASK_CREATE(h_task, ctc_task, POMP_TASK_UNDEFERRED)
  TASK_BEGIN(h_task)
  POMP_On();
  POMPT_Critical_wait(&d_cb);
  POMPT_Critical_held(&d_cb);
  POMPT_Critical_release(&d_cb);
  TASK_END(h_task)
  TASK_DONE(h_task)
  expect_mutex(14, 14, 14, "critical in a task never announced");
  if (POMPT_lane_v2.held_depth || POMPT_lane_v2.wait_state)
    fail("the lane holds a critical region at the end");

  if (failures)
    return 1;
  printf("PASS: %d begins, %d ends\n", begins, ends);
  return 0;
}
