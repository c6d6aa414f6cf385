/*
 * hand_critical_wait.c -- the state of a thread that waits for a critical
 * region's lock after pomp.h's inline acquire (POMPT_Critical_wait), asked
 * the way a sampling tool asks it: ompt_get_state from a signal handler on
 * the waiting thread.  It must say ompt_state_wait_critical with the wait
 * id the acquire gave, and a working state once the thread holds the lock.
 *
 * Two threads: the first holds the construct's lock and signals the second,
 * which waits for it, every millisecond until its handler has seen the
 * waiting state (or 5 s have passed).  Each thread runs the construct once
 * before, so that the timed one goes inline.  Prints PASS or the first
 * violation.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <time.h>
#include <omp.h>
#include <omp-tools.h>

#include "hand.h"
#include "own_tool.h"

static int failures;
static void fail(const char *what) {
  printf("FAIL: %s\n", what);
  failures++;
}

static _Atomic uint64_t acquire_wait_id; /* the waiter's acquire */
static _Atomic int waiter_inline;        /* it was in the lane's state */

static void on_acquire(ompt_mutex_t kind, unsigned hint, unsigned impl,
                       ompt_wait_id_t w, const void *codeptr) {
  (void)kind, (void)hint, (void)impl, (void)codeptr;
  if (omp_get_thread_num() == 1) {
    atomic_store(&acquire_wait_id, w);
    atomic_store(&waiter_inline, POMPT_lane_v2.wait_state != 0);
  }
}
static void on_acquired(ompt_mutex_t kind, ompt_wait_id_t w,
                        const void *codeptr) {
  (void)kind, (void)w, (void)codeptr;
  ompt_wait_id_t sw;
  int s = get_state(&sw);
  if (s != ompt_state_work_parallel)
    fail("mutex_acquired not in work_parallel");
}
static void register_callbacks(void) {
  set_callback(ompt_callback_mutex_acquire, (ompt_callback_t)on_acquire);
  set_callback(ompt_callback_mutex_acquired, (ompt_callback_t)on_acquired);
}

/* What the waiter's handler saw last. */
static volatile sig_atomic_t seen_state = -1;
static _Atomic uint64_t seen_wait_id;
static void on_signal(int sig) {
  (void)sig;
  ompt_wait_id_t w = 0;
  int s = get_state(&w);
  atomic_store(&seen_wait_id, w);
  seen_state = s;
}

static POMPT_Desc_t d = {0, CTC("type=critical*file=wait.c*lines=1,2*name=w"),
                         0};
static POMPT_Desc_t d_warm = {
    0, CTC("type=critical*file=wait.c*lines=3,4*name=warm"), 0};
static void construct(void (*inside)(void)) {
  POMPT_Critical_wait(&d);
#pragma omp critical(w)
  {
    POMPT_Critical_held(&d);
    if (inside)
      inside();
    POMPT_Critical_release(&d);
    NO_TAIL;
  }
}

/* Another lock's construct, until the thread's lane is open (after a
 * barrier it waits for libpompt's next event). */
static void warm(void) {
  for (int i = 0; i < 4 && !(POMPT_lane_v2.usable & POMPT_LANE_READY); i++) {
    POMPT_Critical_wait(&d_warm);
#pragma omp critical(warm)
    {
      POMPT_Critical_held(&d_warm);
      POMPT_Critical_release(&d_warm);
      NO_TAIL;
    }
  }
}

static pthread_t waiter;
static atomic_int waiter_known;

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* The holder, inside the region: signal the waiter until its handler has
 * seen it wait. */
static void hold(void) {
  while (!atomic_load(&waiter_known))
    ;
  double end = now() + 5.0;
  while (seen_state != ompt_state_wait_critical && now() < end) {
    pthread_kill(waiter, SIGUSR1);
    struct timespec ms = {0, 1000000};
    nanosleep(&ms, NULL);
  }
}

int main(void) {
  /* The tool starts at the first event; these events are written by hand
   * and expect it started before the first, as "#pragma pomp inst init"
   * asks for. */
  POMP_Init();
  if (!set_callback || !get_state) {
    printf("FAIL: the program's tool was not started\n");
    return 1;
  }
  struct sigaction sa = {0};
  sa.sa_handler = on_signal;
  sa.sa_flags = SA_RESTART;
  sigaction(SIGUSR1, &sa, NULL);
  static POMP_Handle_t h_par;
  PARALLEL_ENTER(h_par, CTC("type=parallel*file=wait.c*lines=5,20"))
#pragma omp parallel num_threads(2)
  {
    PARALLEL_BEGIN(h_par)
    construct(NULL); /* the first goes to libpompt, which opens the way */
#pragma omp barrier
    if (omp_get_thread_num() == 0) {
      construct(hold);
    } else {
      warm();
      /* Once the holder is inside (it waits for this). */
      waiter = pthread_self();
      atomic_store(&waiter_known, 1);
      struct timespec ms = {0, 20000000};
      nanosleep(&ms, NULL);
      construct(NULL);
    }
    PARALLEL_END(h_par)
  }
  PARALLEL_EXIT(h_par)
  if (!atomic_load(&waiter_inline))
    fail("the waiting thread's acquire did not go inline");
  if (seen_state != ompt_state_wait_critical)
    fail("the waiting thread's state was not wait_critical");
  else if (atomic_load(&seen_wait_id) != atomic_load(&acquire_wait_id) ||
           !atomic_load(&seen_wait_id))
    fail("the waiting thread's wait id is not its acquire's");
  if (!failures)
    printf("PASS\n");
  return failures != 0;
}
