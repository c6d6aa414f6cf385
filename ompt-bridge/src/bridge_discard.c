/*
 * bridge_discard.c -- tasks that libgomp discards: with cancellation on,
 * a task whose taskgroup or region was cancelled before it started is
 * dropped (at its creation, or when a thread would have run it) without a
 * call anything could interpose.  OpenMP 5.2 reports each such task with
 * cancel(its task_data, construct | ompt_cancel_discarded_task), and its
 * record, which task_create published, must be released.
 *
 * Only tasks libgomp can discard are tracked: with cancellation on (an ICV
 * fixed at start-up) and no copy function of the program's (libgomp runs
 * every task that has one; bridge_gomp.c hands such tasks over without
 * one of libpompt's).  Each goes, with a reference, on a list of its
 * region's (the team record, which outlives every task of the region),
 * pushed by any thread without a lock.  A task still not begun is known to
 * be discarded where every task that could still run it is over:
 *  - at the end of its taskgroup, after the wait: every task of the
 *    taskgroup (its descendants too) has completed or was discarded;
 *  - at the end of its region, on the primary thread, after the join.
 * The thread that ends the taskgroup (or region) delivers the callbacks,
 * with codeptr_ra NULL, as libomp does.  The lists are swept there, and
 * every 256 tasks a thread tracks (the records of completed tasks go back
 * to their pools).  A sweep takes the whole list and pushes back what it
 * keeps, so a taskgroup ending while another thread sweeps may find its
 * discarded tasks out of the list: they are then reported at the region's
 * end, still before parallel_end.
 *
 * Without cancellation nothing here runs (one load in GOMP_task's observed
 * path, a compare at the ends of taskgroups and regions).  The tasks of a
 * taskloop are libgomp's to make; bridge_taskloop.c knows which it never
 * ran after the taskloop's own taskgroup and reports them through
 * bridge_task_retire; those of a nogroup taskloop, which belong to the
 * enclosing taskgroup, are tracked here as GOMP_task's are.
 */
#include <stdatomic.h>

#include "bridge.h"
#include "bridge_internal.h"
#include "bridge_lifo.h"
#include "bridge_omp.h"

/* Tracked tasks a thread pushes between two sweeps of its own. */
#define DISCARD_SWEEP_EVERY 256

static atomic_int cancellation_on = -1;

/* Apart, so that the test inlines into GOMP_task's path. */
static __attribute__((noinline, cold)) int cancellation_first(void) {
  int v = omp_get_cancellation && omp_get_cancellation();
  atomic_store_explicit(&cancellation_on, v, memory_order_relaxed);
  return v;
}

int bridge_cancellation_on(void) {
  int v = atomic_load_explicit(&cancellation_on, memory_order_relaxed);
  return __builtin_expect(v >= 0, 1) ? v : cancellation_first();
}

uint64_t bridge_discard_taskgroup_id(void) {
  return bridge_cancellation_on() ? bridge_unique_id() : 0;
}

/* The region whose tasks the running task creates: its implicit task's
 * team, or the region a tracked explicit task was made in (a worker
 * running tasks in the region's end barrier has let go of its team, but
 * the region cannot end while a task of it runs). */
bridge_team_t *bridge_discard_region(const bridge_thread_t *t) {
  for (const bridge_task_t *k = t->cur; k; k = k->below) {
    if (k->flags & ompt_task_implicit)
      return k->team;
    if (k->discardable)
      return k->discard_team;
    if (k->flags & ompt_task_initial)
      return NULL;
  }
  return NULL;
}

/* The innermost taskgroup of the running task, or the one it belongs to. */
static uint64_t taskgroup_of(bridge_thread_t *t) {
  const bridge_scope_t *tg = bridge_innermost_taskgroup(t);
  if (tg)
    return tg->arg;
  const bridge_task_t *cur = t->cur;
  return cur && (cur->flags & ompt_task_explicit) ? cur->taskgroup : 0;
}

/* Push the chain first..last onto the region's list. */
static void push_chain(bridge_team_t *team, bridge_task_t *first,
                       bridge_task_t *last) {
  BRIDGE_LIFO_PUSH(&team->discardable, first, last, next_discardable);
}

void bridge_task_discarded(bridge_thread_t *t, const bridge_team_t *team,
                           bridge_task_t *rec, int in_taskgroup) {
  int construct =
      in_taskgroup && !(team && atomic_load_explicit(&team->cancelled,
                                                     memory_order_relaxed))
          ? ompt_cancel_taskgroup
          : ompt_cancel_parallel;
  if (rec->announced) {
    ompt_callback_cancel_t cb = BRIDGE_ACTIVE(BRIDGE_B_SYNC_EE, cancel);
    if (cb)
      cb(&rec->task_data, construct | ompt_cancel_discarded_task, NULL);
  }
  bridge_deps_release(t, rec);
  __atomic_store_n(&rec->status, BRIDGE_TASK_DONE, __ATOMIC_RELEASE);
  bridge_task_unref(rec); /* the task's own reference */
}

/* Take the region's list; report and release the tasks not begun that
 * belong to taskgroup (all: every one), drop the completed ones, push the
 * rest back. */
static void sweep(bridge_thread_t *t, bridge_team_t *team, uint64_t taskgroup,
                  int all) {
  bridge_task_t *rec = BRIDGE_LIFO_TAKE(&team->discardable);
  bridge_task_t *keep = NULL, *keep_last = NULL;
  while (rec) {
    bridge_task_t *next = rec->next_discardable;
    int status = __atomic_load_n(&rec->status, __ATOMIC_ACQUIRE);
    if (status == BRIDGE_TASK_CREATED &&
        (all || (taskgroup && rec->taskgroup == taskgroup))) {
      struct taskloop *tl = rec->discard_taskloop;
      bridge_task_discarded(t, team, rec, rec->taskgroup != 0);
      bridge_task_unref(rec); /* the list's */
      if (tl)
        bridge_taskloop_discarded(tl);
    } else if (!all && (status == BRIDGE_TASK_CREATED ||
                        status == BRIDGE_TASK_RUNNING)) {
      rec->next_discardable = keep;
      keep = rec;
      if (!keep_last)
        keep_last = rec;
    } else {
      bridge_task_unref(rec); /* the list's */
    }
    rec = next;
  }
  if (keep)
    push_chain(team, keep, keep_last);
}

void bridge_discard_track(bridge_thread_t *t, bridge_task_t *rec,
                          struct taskloop *owner) {
  static __thread unsigned pushed;
  bridge_team_t *team = bridge_discard_region(t);
  if (!team)
    return; /* outside a region libgomp runs every task at once */
  rec->taskgroup = taskgroup_of(t);
  rec->discard_team = team;
  rec->discard_taskloop = owner;
  rec->discardable = 1;
  /* Not yet visible to another thread: the creator's reference suffices. */
  atomic_fetch_add_explicit(&rec->refs, 1, memory_order_relaxed);
  push_chain(team, rec, rec);
  if (++pushed % DISCARD_SWEEP_EVERY == 0)
    sweep(t, team, 0, 0);
}

void bridge_discard_taskgroup_end(bridge_thread_t *t, uint64_t taskgroup) {
  bridge_team_t *team = bridge_discard_region(t);
  if (team && atomic_load_explicit(&team->discardable, memory_order_relaxed))
    sweep(t, team, taskgroup, 0);
}

void bridge_discard_region_end(bridge_thread_t *t, bridge_team_t *team) {
  sweep(t, team, 0, 1);
}

void bridge_discard_cancel_parallel(bridge_thread_t *t) {
  bridge_team_t *team = bridge_discard_region(t);
  if (team)
    atomic_store_explicit(&team->cancelled, 1, memory_order_relaxed);
}
