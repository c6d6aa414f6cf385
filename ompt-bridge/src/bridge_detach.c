/*
 * bridge_detach.c -- tasks with a detach clause (OpenMP 5.2, 12.5.2): such
 * a task completes when its structured block has ended and its event has
 * been fulfilled (omp_fulfill_event), in either order.  OMPT tells a tool
 * with task_schedule:
 *  - fulfilled while the block runs (or before it began): early_fulfill at
 *    the fulfilment, then complete when the block ends;
 *  - fulfilled after the block ended: detach when the block ends, then
 *    late_fulfill at the fulfilment, which is the task's completion.
 * (libomp delivers the same, next_task_data NULL for both fulfilments.)
 *
 * libgomp's event handle is the address of its task record; libpompt
 * learns it where libgomp hands it out (bridge_gomp.c: it writes it before
 * the task's data is copied) and sees the fulfilment in the wrapper of
 * omp_fulfill_event (POMP_Api_omp_fulfill_event, before the runtime's
 * routine, so that the completion is reported before libgomp releases the
 * task's dependences).  One entry per detachable task that has not
 * completed, in a list under one mutex: detach is rare, and the callbacks
 * about one task must not overtake each other (libomp, too, delivers them
 * under the event's lock).  An entry holds a reference on the task's
 * record only from the end of its block (the record must outlive the
 * block for late_fulfill); before, the task's own reference keeps it, and
 * its generation tells an entry whose task ended some other way.
 */
#include <pthread.h>
#include <stdlib.h>

#include "bridge.h"
#include "bridge_internal.h"
#include "bridge_runtime.h"

enum detach_state {
  D_PENDING,          /* created or running, not fulfilled */
  D_FULFILLED,        /* early_fulfill delivered; complete comes at its end */
  D_ENDING,           /* its Task_end is delivering detach */
  D_ENDING_FULFILLED, /* fulfilled meanwhile: late_fulfill from Task_end */
  D_DETACHED /* block ended, detach delivered: waits for its fulfilment */
};

typedef struct detach_entry {
  const void *event;
  bridge_task_t *rec;
  unsigned gen;
  int state;
  int holds_ref;
  struct detach_entry *next;
} detach_entry_t;

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static detach_entry_t *entries;

static unsigned gen_of(const bridge_task_t *rec) {
  return atomic_load_explicit(&rec->gen, memory_order_relaxed);
}

static detach_entry_t **find_event(const void *event) {
  detach_entry_t **p = &entries;
  while (*p && (*p)->event != event)
    p = &(*p)->next;
  return p;
}

static detach_entry_t **find_task(const bridge_task_t *rec, unsigned gen) {
  detach_entry_t **p = &entries;
  while (*p && ((*p)->rec != rec || (*p)->gen != gen))
    p = &(*p)->next;
  return p;
}

/* Unlinks *p; returns the record whose reference the caller must drop
 * (after the lock is released), or NULL. */
static bridge_task_t *unlink_entry(detach_entry_t **p) {
  detach_entry_t *e = *p;
  *p = e->next;
  bridge_task_t *rec = e->holds_ref ? e->rec : NULL;
  free(e);
  return rec;
}

/* task_schedule(task, early_fulfill / late_fulfill, NULL). */
static void deliver(const detach_entry_t *e, ompt_task_status_t status) {
  bridge_task_t *rec = e->rec;
  ompt_callback_task_schedule_t cb;
  if (status == ompt_task_late_fulfill)
    /* The completion: delivered when its begin was (task_finish's rule). */
    cb =
        rec->switch_sent ? BRIDGE_GROUP(BRIDGE_B_TASK_BE, task_schedule) : NULL;
  else
    cb = rec->announced ? BRIDGE_ACTIVE(BRIDGE_B_TASK_BE, task_schedule) : NULL;
  if (cb)
    cb(&rec->task_data, status, NULL);
}

void bridge_detach_register(bridge_task_t *rec, unsigned gen,
                            const void *event) {
  if (!rec || !event)
    return;
  bridge_task_t *drop = NULL;
  pthread_mutex_lock(&lock);
  detach_entry_t **p = find_event(event);
  if (*p && (*p)->rec == rec && (*p)->gen == gen) {
    pthread_mutex_unlock(&lock);
    return; /* registered already */
  }
  /* Only a task that has not begun: its own reference keeps its record
   * until its Task_end, which must find the entry. */
  if (gen_of(rec) != gen ||
      __atomic_load_n(&rec->status, __ATOMIC_ACQUIRE) != BRIDGE_TASK_CREATED) {
    pthread_mutex_unlock(&lock);
    return; /* begun, so registered by the task itself; or gone */
  }
  if (*p) /* a completed task's handle, reused by libgomp */
    drop = unlink_entry(p);
  detach_entry_t *e = calloc(1, sizeof *e);
  if (e) {
    e->event = event;
    e->rec = rec;
    e->gen = gen;
    e->state = D_PENDING;
    e->next = entries;
    entries = e;
  }
  pthread_mutex_unlock(&lock);
  bridge_task_unref(drop);
}

void bridge_detach_fulfill(const void *event) {
  if (!bridge_thread_self()) /* thread_begin before anything on a thread */
    return;
  bridge_task_t *drop = NULL;
  pthread_mutex_lock(&lock);
  detach_entry_t **p = find_event(event);
  detach_entry_t *e = *p;
  if (e && !e->holds_ref && gen_of(e->rec) != e->gen) {
    drop = unlink_entry(p); /* its task ended without its Task_end */
    e = NULL;
  }
  if (e) {
    switch (e->state) {
    case D_PENDING:
      deliver(e, ompt_task_early_fulfill);
      e->state = D_FULFILLED;
      break;
    case D_ENDING:
      e->state = D_ENDING_FULFILLED;
      break;
    case D_DETACHED:
      deliver(e, ompt_task_late_fulfill);
      drop = unlink_entry(p);
      break;
    default: /* fulfilled twice: not a valid program */
      break;
    }
  }
  pthread_mutex_unlock(&lock);
  bridge_task_unref(drop);
}

int bridge_detach_body_end(bridge_task_t *rec, unsigned gen) {
  pthread_mutex_lock(&lock);
  detach_entry_t **p = find_task(rec, gen);
  detach_entry_t *e = *p;
  int status;
  if (!e) {
    /* Never registered: libgomp's entry is not interposed (a static link),
     * so the fulfilment cannot be matched and the task stays detached; or
     * no OpenMP runtime, which ignored the clause: the block was all. */
    status = bridge_have_gomp_task() ? ompt_task_detach : ompt_task_complete;
  } else if (e->state == D_FULFILLED) {
    unlink_entry(p);
    status = ompt_task_complete;
  } else {
    /* The record must outlive the block; the task still holds its own
     * reference here, so one can be added. */
    atomic_fetch_add_explicit(&rec->refs, 1, memory_order_relaxed);
    e->holds_ref = 1;
    e->state = D_ENDING;
    status = ompt_task_detach;
  }
  pthread_mutex_unlock(&lock);
  return status;
}

void bridge_detach_body_ended(bridge_task_t *rec, unsigned gen) {
  bridge_task_t *drop = NULL;
  pthread_mutex_lock(&lock);
  detach_entry_t **p = find_task(rec, gen);
  detach_entry_t *e = *p;
  if (e && e->state == D_ENDING) {
    e->state = D_DETACHED;
  } else if (e && e->state == D_ENDING_FULFILLED) {
    deliver(e, ompt_task_late_fulfill);
    drop = unlink_entry(p);
  }
  pthread_mutex_unlock(&lock);
  bridge_task_unref(drop);
}
