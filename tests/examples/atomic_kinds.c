/*
 * atomic_kinds.c -- the wait ids of atomic constructs, seen by a tool linked
 * into the program.  An atomic GCC compiles to an instruction holds no lock:
 * each thread's events carry a wait id of that thread's own, the same for
 * every such construct it executes.  An atomic GCC brackets with
 * GOMP_atomic_start/_end (long double) holds libgomp's one lock: every
 * thread's events carry that lock's wait id, for every such construct.
 * Under POMPT_ATOMIC=locked only the latter have events.
 *
 *   atomic_kinds R     (R repetitions per thread of each construct)
 *
 * Prints one line per kind, "atomic-kinds: KIND events=E ids=D
 * per_thread=P", and the set_callback answer for mutex_acquired.
 */
#include <omp-tools.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

#include "own_tool.h"

#define MAX_EVENTS 4096

struct event {
  int thread;
  ompt_wait_id_t acquire, acquired, released;
};
static struct event events[2][MAX_EVENTS];
static int nevents[2];
static int phase; /* written between regions only */
static int next_thread;
static const char *answer = "?";

static __thread ompt_wait_id_t acquire_id;
static __thread int my_thread = -1;
static __thread struct event *open_event;

static void on_acquire(ompt_mutex_t kind, unsigned hint, unsigned impl,
                       ompt_wait_id_t wait_id, const void *codeptr) {
  (void)hint, (void)impl, (void)codeptr;
  if (kind == ompt_mutex_atomic)
    acquire_id = wait_id;
}

static void on_acquired(ompt_mutex_t kind, ompt_wait_id_t wait_id,
                        const void *codeptr) {
  (void)codeptr;
  if (kind != ompt_mutex_atomic)
    return;
  if (my_thread < 0)
    my_thread = __atomic_fetch_add(&next_thread, 1, __ATOMIC_RELAXED);
  int i = __atomic_fetch_add(&nevents[phase], 1, __ATOMIC_RELAXED);
  if (i >= MAX_EVENTS)
    return;
  struct event *e = &events[phase][i];
  e->thread = my_thread;
  e->acquire = acquire_id;
  e->acquired = wait_id;
  open_event = e;
}

static void on_released(ompt_mutex_t kind, ompt_wait_id_t wait_id,
                        const void *codeptr) {
  (void)codeptr;
  if (kind == ompt_mutex_atomic && open_event)
    open_event->released = wait_id, open_event = NULL;
}

static void register_callbacks(void) {
  set_callback(ompt_callback_mutex_acquire, (ompt_callback_t)on_acquire);
  int r = set_callback(ompt_callback_mutex_acquired,
                       (ompt_callback_t)on_acquired);
  set_callback(ompt_callback_mutex_released, (ompt_callback_t)on_released);
  answer = r == ompt_set_always      ? "always"
           : r == ompt_set_sometimes ? "sometimes"
                                     : "other";
}

/* Events of one kind: how many, how many distinct wait ids, and whether
 * each thread used one id throughout (its three events agreeing). */
static void report(const char *kind, int ph) {
  int n = nevents[ph] < MAX_EVENTS ? nevents[ph] : MAX_EVENTS;
  int distinct = 0, per_thread = 1;
  ompt_wait_id_t seen[64];
  ompt_wait_id_t first_of[64] = {0};
  for (int i = 0; i < n; i++) {
    struct event *e = &events[ph][i];
    if (e->acquire != e->acquired || e->released != e->acquired)
      per_thread = 0;
    if (e->thread < 64) {
      if (!first_of[e->thread])
        first_of[e->thread] = e->acquired;
      else if (first_of[e->thread] != e->acquired)
        per_thread = 0;
    }
    int known = 0;
    for (int k = 0; k < distinct; k++)
      known |= seen[k] == e->acquired;
    if (!known && distinct < 64)
      seen[distinct++] = e->acquired;
  }
  printf("atomic-kinds: %s events=%d ids=%d per_thread=%d\n", kind, n,
         distinct, per_thread);
}

int main(int argc, char **argv) {
  int reps = argc > 1 ? atoi(argv[1]) : 10;
  long count = 0;
  long double wide = 0.0L;
  phase = 0;
#pragma omp parallel num_threads(2)
  for (int r = 0; r < reps; r++) {
#pragma omp atomic
    count += 1;
#pragma omp atomic
    count += 2;
  }
  phase = 1;
#pragma omp parallel num_threads(2)
  for (int r = 0; r < reps; r++) {
#pragma omp atomic
    wide += 1.0L;
#pragma omp atomic
    wide += 2.0L;
  }
  report("instruction", 0);
  report("locked", 1);
  int shared = 0;
  for (int i = 0; i < nevents[0] && i < MAX_EVENTS; i++)
    shared |= nevents[1] && events[0][i].acquired == events[1][0].acquired;
  printf("atomic-kinds: mutex_acquired %s, ids shared across kinds %d, "
         "sums %ld %.0Lf\n",
         answer, shared, count, wide);
  return 0;
}
