/*
 * bridge_internal.h -- the OMPT model kept by the bridge: threads, teams,
 * tasks; shared by the bridge's own files only.
 *
 * Concurrency: every bridge_thread_t is written only by its own thread.
 * Inquiry entry points may run in a signal handler on that same thread, so
 * every update that an inquiry can observe is ordered with a signal fence:
 * a task record is filled before the depth that publishes it is raised, and
 * the depth is lowered before the record is reused.  Other threads read a
 * thread's records only through a team's encountering-task pointer, which
 * stays valid while the team exists (the primary thread waits in the join).
 */
#ifndef POMPT_BRIDGE_INTERNAL_H
#define POMPT_BRIDGE_INTERNAL_H

#include <stdatomic.h>
#include <stdint.h>
#include <omp-tools.h>

#include "bridge_callbacks.h"
#include "pomp.h"

#define BRIDGE_MAX_DEPTH 64

struct bridge_team;

typedef struct bridge_task {
  ompt_data_t task_data;
  ompt_frame_t frame;
  /* Parallel region the task belongs to; NULL once the thread has left it
   * (the team's storage may be gone then). */
  struct bridge_team *team;
  ompt_data_t *parallel_data;
  struct bridge_task *parent; /* encountering task, maybe another thread's */
  int flags;                  /* ompt_task_flag_t */
  int thread_num;
  int team_size;
  int single_executor; /* set between Single_begin and Single_exit */
} bridge_task_t;

/* Lives inside POMP_Team_t, on the encountering thread's stack. */
typedef struct bridge_team {
  ompt_data_t parallel_data;
  bridge_task_t *encountering;
  const void *codeptr;
  int requested;
  int flags;
  int size;
} bridge_team_t;

_Static_assert(sizeof(bridge_team_t) <= sizeof(POMP_Team_t),
               "POMP_Team_t too small for the bridge's team record");

typedef struct bridge_thread {
  ompt_data_t thread_data;
  ompt_thread_t type;
  atomic_int ended;
  volatile int state; /* ompt_state_t */
  volatile ompt_wait_id_t wait_id;
  /* tasks[0..depth-1]; tasks[depth-1] is the current task. */
  volatile int depth;
  int overflow; /* nesting deeper than BRIDGE_MAX_DEPTH: not tracked */
  bridge_task_t tasks[BRIDGE_MAX_DEPTH];
  /* The thread left a parallel region's block and is in its implicit
   * barrier; the barrier's end and the implicit task's end are delivered at
   * the thread's next event (as native runtimes do for workers). */
  int pending_join;
  const void *pending_codeptr;
  struct bridge_thread *next; /* registry of every thread ever seen */
} bridge_thread_t;

/* Callback dispatch table, indexed by ompt_callbacks_t. */
extern _Atomic(ompt_callback_t) bridge_callbacks[BRIDGE_CALLBACK_SLOTS];
extern int bridge_enabled; /* POMP_On/Off */

static inline ompt_callback_t bridge_cb(ompt_callbacks_t which) {
  return atomic_load_explicit(&bridge_callbacks[which], memory_order_relaxed);
}

/* The callback if registered and events are on, else NULL; BRIDGE_CB_AS
 * for the callbacks whose signature type is shared with another. */
#define BRIDGE_CB_AS(name, type)                                               \
  (bridge_enabled ? (type)bridge_cb(ompt_callback_##name) : (type)0)
#define BRIDGE_CB(name) BRIDGE_CB_AS(name, ompt_callback_##name##_t)

/* This thread's record, created (with thread_begin) at its first event. */
bridge_thread_t *bridge_thread_self(void);
/* This thread's record or NULL; never creates (async-signal-safe). */
bridge_thread_t *bridge_thread_peek(void);
/* Called once at activation, on the initial thread. */
void bridge_thread_start_initial(void);
/* Deliver a pending implicit-barrier end / implicit-task end. */
void bridge_thread_flush(bridge_thread_t *t);
/* End every thread (finalisation). */
void bridge_threads_end_all(void);

static inline bridge_task_t *bridge_current_task(bridge_thread_t *t) {
  return t->depth > 0 ? &t->tasks[t->depth - 1] : (bridge_task_t *)0;
}

static inline void bridge_set_state(bridge_thread_t *t, ompt_state_t s,
                                    ompt_wait_id_t w) {
  t->wait_id = w;
  atomic_signal_fence(memory_order_seq_cst);
  t->state = (int)s;
}

/* The initial implicit parallel region (team of one around the program). */
extern ompt_data_t bridge_initial_parallel_data;

ompt_interface_fn_t bridge_lookup(const char *name);
uint64_t bridge_unique_id(void);

/* Verbose-init log (OMP_TOOL_VERBOSE_INIT); printf-like, no-op when off. */
void bridge_log(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif /* POMPT_BRIDGE_INTERNAL_H */
