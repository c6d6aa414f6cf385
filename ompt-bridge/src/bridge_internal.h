/*
 * bridge_internal.h -- the OMPT model kept by the bridge: threads, teams,
 * tasks, open scopes, callback tables; shared by the bridge's own files only.
 *
 * Threads.  Every bridge_thread_t is written only by its own thread.  An
 * inquiry entry point may run in a signal handler on that same thread, so
 * every update an inquiry can observe is ordered with a signal fence: a task
 * record is filled before the pointer that publishes it (cur) is set, and
 * unpublished before it is released; the state and its wait id are written
 * into the idle half of a double buffer whose index is flipped last.
 *
 * Tasks.  Every task (initial, implicit, explicit) is a bridge_task_t taken
 * from its thread's pool; the thread's running tasks form a stack linked
 * through `below`, whose top is `cur`.  A record is reference counted: one
 * reference while the task is alive, one per explicit child (a child keeps
 * its parent's record, so get_task_info's parent chain stays readable after
 * the parent completed, as in native runtimes).  A record whose last
 * reference goes returns to its owner's pool: directly when the owner
 * drops it, else through the owner's lock-free remote-free list.  Records
 * are never returned to the system, so a pointer read from a published
 * chain always points at a record.
 *
 * Scopes.  Every OMPT begin/end pair opened on a thread (work, masked,
 * sync regions, critical ...) is pushed on the thread's scope stack with
 * whether its begin was delivered, so that its end is delivered exactly
 * when its begin was (POMP_Off/On in between), and so that scopes left open
 * by a construct that was cancelled can be closed when that is noticed.
 * Pairs that change nothing an inquiry function answers (work, masked, the
 * held structured mutexes) are pushed only when a callback of theirs is
 * wanted at the begin (bridge_pairs in bridge.h says how their ends still
 * find them).
 */
#ifndef POMPT_BRIDGE_INTERNAL_H
#define POMPT_BRIDGE_INTERNAL_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <omp-tools.h>

#include "bridge.h"
#include "bridge_callbacks.h"
#include "pomp.h"

struct bridge_team;
struct bridge_thread;

enum bridge_task_status {
  BRIDGE_TASK_FREE = 0,
  BRIDGE_TASK_CREATED, /* explicit: created, not yet begun */
  BRIDGE_TASK_RUNNING, /* on a thread's stack */
  BRIDGE_TASK_DONE     /* completed; kept while referenced */
};

typedef struct bridge_task {
  /* What inquiry reads.  Fixed while the record is published, except the
   * frame (and, for a worker's implicit task, parallel_data/parent, which
   * are cleared when it leaves its region). */
  ompt_data_t task_data;
  ompt_frame_t frame;
  ompt_data_t *parallel_data; /* region the task binds to */
  struct bridge_task *parent; /* generating task, maybe another thread's */
  int flags;                  /* ompt_task_flag_t */
  int thread_num;
  int team_size;
  int status; /* enum bridge_task_status */

  /* Execution on the thread that runs it. */
  struct bridge_task *below; /* the task it suspended on this thread */
  struct bridge_team *team;  /* implicit task: its team while in the region */
  void *begin_frame;         /* frame of the POMP entry that began it */
  const void *codeptr;       /* implicit task: its region's construct */
  /* Implicit task: its region's parallel_data as the tool left it at the
   * task's begin; what the end barrier's begin passes when the thread
   * notices only after the region that it left it (cancelled), when the
   * team's storage is gone. */
  ompt_data_t parallel_data_seen;
  int scope_base;  /* the thread's scope depth when it began */
  int saved_state; /* the thread's state when it began */
  ompt_wait_id_t saved_wait_id;
  uint8_t announced;       /* begin / create delivered (monitoring was on) */
  uint8_t switch_sent;     /* task_schedule(switch) delivered */
  uint8_t set_below_enter; /* it set the suspended task's enter_frame */
  uint8_t single_executor; /* between Single_begin and Single_exit */
  uint8_t owns_parent_ref;
  uint8_t cancelled;
  /* Its working state (ompt_state_work_serial/parallel), fixed when it is
   * pushed: flags and region do not change while it runs, and the state is
   * asked for at almost every event that leaves a wait. */
  uint8_t work_state;
  uint8_t discardable; /* in its region's list (bridge_discard.c) */
  uint32_t pomp_flags; /* POMP_TASK_* of its construct */
  /* bridge_pairs' numbers when it began: restored when it ends, so that
   * pairs it left open (cancelled) do not shift the numbers of the task it
   * suspended. */
  uint32_t pair_next[BRIDGE_PAIRS];
  /* The depth of the thread's lane (POMPT_Lane_t) when it began: master
   * regions begun in the instrumented code above it are the task's
   * (bridge_lane.c). */
  uint32_t lane_base;
  /* An implicit task: its parent's generation (gen) when it began.  Once a
   * worker has left its region the parent may complete and its record be
   * reused; inquiry answers it only while it is the same task. */
  unsigned parent_gen;
  /* An explicit task's block of data where libpompt's trampoline runs it
   * (its firstprivate copies and the addresses of its shared variables), for
   * ompt_get_task_memory: set before its begin is delivered. */
  void *mem;
  size_t mem_size;

  /* Dependence tracking of the tasks this task generates. */
  struct bridge_deps *deps;
  /* With cancellation on: the taskgroup it belongs to (bridge_discard.c;
   * 0: none), which the tasks it generates outside a taskgroup of their
   * own inherit. */
  uint64_t taskgroup;

  /* Lifetime. */
  atomic_uint refs;
  atomic_uint gen; /* bumped whenever the record is released */
  struct bridge_thread *owner;
  struct bridge_task *next_free;
  /* Its link in its region's list of tasks libgomp may discard
   * (bridge_discard.c), which holds a reference on it. */
  struct bridge_task *next_discardable;
  struct bridge_team *discard_team; /* that region */
  /* A nogroup taskloop's task: the reference on its taskloop it holds,
   * dropped when it is discarded (bridge_taskloop.c). */
  struct taskloop *discard_taskloop;
  /* Begun by libpompt's trampoline before the program's outlined function
   * ran (bridge_gomp.c): the construct's own begin event finds it so and
   * delivers nothing.  Reset by bridge_task_alloc. */
  uint8_t early_begun;
  /* Implicit task whose block the trampoline runs: it can tell when the
   * block's function returned, where the task leaves its block
   * (bridge_parallel_end); BRIDGE_TRAMPOLINED_ENDED once the block's end
   * event came.  Reset by bridge_task_alloc. */
  uint8_t trampolined;
  /* Not zeroed by bridge_task_alloc: written before they are read. */
  /* Implicit task: the thread's pending implicit task (bridge_thread_t's
   * pending) when this one left its block, restored when this one's end
   * barrier ends.  Not NULL where a task run inside an end barrier (a team
   * of one defers its tasks there) started a region of its own. */
  struct bridge_task *pending_below;
  /* Implicit task: the codeptr_ra its block was left with (its
   * Parallel_end's, kept until its function returns and for its end). */
  const void *left_codeptr;
} bridge_task_t;
enum { BRIDGE_TRAMPOLINED_ENDED = 2 }; /* trampolined: 0, 1 or this */

/* Lives inside POMP_Team_t, on the encountering thread's stack. */
typedef struct bridge_team {
  /* What the workers read, first: with the compact family's descriptor
   * before it (POMPT_Team_t, 64-byte aligned) it fits one cache line. */
  ompt_data_t parallel_data;
  bridge_task_t *encountering;
  const void *codeptr;
  /* The program's outlined function and its data, when libpompt's
   * trampoline starts the region (bridge_gomp.c): here, beside what the
   * workers read at their begin anyway, so that a worker fetches no other
   * line of the primary thread's for them. */
  void (*region_fn)(void *);
  void *region_data;
  /* The primary thread, when the region is outermost (its encountering task
   * an initial task): whose pool the workers are docked in afterwards
   * (bridge_thread_t's pool_primary).  Set by the primary so that a worker
   * need not read the encountering task's record, another thread's. */
  struct bridge_thread *pool_primary;
  int announced; /* parallel_begin delivered (monitoring was on) */
  /* The primary thread's only. */
  int requested;
  int flags;
  int size;
  /* With cancellation on (bridge_discard.c): the region's tasks that
   * libgomp may discard, pushed by any of its threads; and whether one of
   * them activated the cancellation of the region. */
  struct bridge_task *_Atomic discardable;
  atomic_int cancelled;
  int origin; /* BRIDGE_TEAM_* below */
} bridge_team_t;
/* A team's origin: reported from libgomp's entry, no instrumented construct
 * announced it (bridge_gomp.c: its barriers are reported from
 * GOMP_barrier); started inside a target region that runs on the host,
 * whose fallback gives the region a pool of its own and discards it, its
 * threads exiting, when the target region ends. */
enum {
  BRIDGE_TEAM_OPAQUE = 1,
  BRIDGE_TEAM_POOL_DISCARDED = 2,
  /* BRIDGE_ENTER_QUIET and _QUIET_COMBINE (bridge.h) */
  BRIDGE_TEAM_QUIET = 4,
  BRIDGE_TEAM_QUIET_COMBINE = 8
};

_Static_assert(sizeof(bridge_team_t) <= sizeof(POMP_Team_t),
               "POMP_Team_t too small for the bridge's team record");

/* parallel_enter (bridge_events.c) sets each field of a team record by
 * name, since the record is not cleared first (below): a field added here
 * must be set there too. */
#if UINTPTR_MAX == UINT64_MAX
_Static_assert(sizeof(bridge_team_t) == 80,
               "a field was added to bridge_team_t: set it in parallel_enter");
#endif

/* A store into a team record only where the value changes: a region that
 * repeats (the same construct, from the same frame) then leaves the record's
 * cache line as it was, and each worker, which reads it at its implicit
 * task's begin, finds it still in its own cache instead of fetching it from
 * the encountering thread's core, which costs a worker on the team's
 * critical path as much as the rest of its events. */
#define BRIDGE_TEAM_SET(field, v)                                              \
  do {                                                                         \
    __typeof__(field) v_ = (v);                                                \
    if ((field) != v_)                                                         \
      (field) = v_;                                                            \
  } while (0)

/* Open scopes. */
enum bridge_scope_kind {
  BRIDGE_SC_PARALLEL = 1, /* parallel_begin .. parallel_end (encountering) */
  BRIDGE_SC_WORK,         /* work begin .. end; kind = ompt_work_t */
  BRIDGE_SC_MASKED,
  BRIDGE_SC_SYNC,        /* sync_region + sync_region_wait; kind */
  BRIDGE_SC_SYNC_REGION, /* sync_region only (taskgroup); kind */
  BRIDGE_SC_SYNC_WAIT,   /* sync_region_wait only (taskgroup); kind */
  BRIDGE_SC_MUTEX_WAIT,  /* mutex_acquire .. acquired; kind, arg = wait id */
  BRIDGE_SC_HELD,        /* mutex_acquired .. released (structured) */
  BRIDGE_SC_POINT        /* a task scheduling point (frames only) */
};

/* The scope kinds whose begin may set the task's enter_frame. */
#define BRIDGE_SC_SETS_ENTER(what)                                             \
  ((what) == BRIDGE_SC_PARALLEL || (what) == BRIDGE_SC_SYNC ||                 \
   (what) == BRIDGE_SC_SYNC_WAIT || (what) == BRIDGE_SC_POINT)

typedef struct bridge_scope {
  uint8_t what;      /* enum bridge_scope_kind */
  uint8_t delivered; /* its begin reached the tool */
  uint8_t bucket;    /* enum bridge_bucket */
  /* It set the task's enter_frame, its end clears it.  Only the kinds of
   * BRIDGE_SC_SETS_ENTER are ever pushed with it (bridge_scope_end_as
   * tests it for those alone). */
  uint8_t set_enter;
  int kind;
  uint64_t arg;
  const void *codeptr;
  uint32_t seq; /* masked, work: the begin's number (bridge_pairs) */
} bridge_scope_t;

/* A nest lock the thread owns, with its nesting count and owning task. */
typedef struct bridge_nest_owned {
  const void *lock;
  const bridge_task_t *task;
  int count;
} bridge_nest_owned_t;

#define BRIDGE_NEST_OWNED_MAX 32

typedef struct bridge_state {
  int state; /* ompt_state_t */
  ompt_wait_id_t wait_id;
} bridge_state_t;

/* The depth of nested loops of code pomp-cc did not compile whose chunks
 * are reported (bridge_gomp_work.c). */
#define BRIDGE_WORK_CHUNKS_MAX 4

typedef struct bridge_thread {
  ompt_data_t thread_data;
  ompt_thread_t type;
  /* A parallel region entered whose parallel_begin waits for libgomp to
   * start it (bridge_gomp.c). */
  struct bridge_team *fork_pending;
  /* A task construct whose task_create (and dependences) wait for libgomp
   * to have copied the task's firstprivate data (bridge_gomp.c). */
  struct {
    struct bridge_task *rec, *enc;
    const void *codeptr;
    const POMP_Dependence_t *deps;
    int ndeps, has_dependences;
  } create_pending;
  atomic_int ended;
  /* The state, double-buffered: the entry st_off bytes into st is current
   * (0 or sizeof(bridge_state_t): a byte offset, so that a change is an
   * XOR and two stores at a register-indexed address). */
  bridge_state_t st[2];
  volatile long st_off;
  /* The running task (top of the stack linked through task->below).  Not
   * volatile: only this thread writes it, in bridge_task_push_as and
   * bridge_task_pop, each store ordered by a signal fence, so a signal
   * handler on the thread (inquiry) reads it as published; the thread's
   * own events may then keep it in a register between calls instead of
   * reloading it at every mention. */
  bridge_task_t *cur;
  /* The implicit task whose region's end barrier this thread is in; the
   * barrier's end and the implicit task's end are delivered at the thread's
   * next event at that level (as native runtimes do for workers). */
  bridge_task_t *pending;
  /* A cancellation was activated or observed: the lane stays closed until
   * an event has ended what it left (bridge_lane.c). */
  uint8_t lane_hold;
  /* Open scopes. */
  bridge_scope_t *scopes;
  int nscopes, scope_cap;
  uint8_t scopes_in_arena; /* the first stack, libpompt's own memory */
  /* Task pool. */
  bridge_task_t *free_tasks;
  _Atomic(bridge_task_t *) remote_free;
  struct bridge_deps *free_deps;
  _Atomic(struct bridge_deps *) remote_free_deps;
  /* Nest locks owned. */
  bridge_nest_owned_t nest[BRIDGE_NEST_OWNED_MAX];
  int nnest;
  /* Scratch for dependence arrays handed to the tool. */
  ompt_dependence_t *dep_buf;
  int dep_cap;
  /* A creation's dependences as libpompt made them (depend objects read,
   * libgomp's depend array decoded), held until the creation is delivered
   * (bridge_deps_scratch). */
  POMP_Dependence_t *deps_buf;
  int deps_cap;
  struct bridge_thread *next; /* registry of every thread ever seen */
  int tid; /* kernel thread id (finalisation waits for exiting threads) */
  /* The initial region of a thread that the OpenMP runtime did not create
   * (pthread, std::thread) and that uses OpenMP outside any region: it is
   * an initial thread of its own (bridge_thread_discover). */
  ompt_data_t initial_parallel_data;
  /* Where libgomp keeps this thread after its regions (finalisation must
   * not wait for a thread docked in its own pool: under
   * OMP_WAIT_POLICY=active it spins there, runnable, for ever).  A worker
   * of an outermost team: the
   * primary thread whose pool it is in, and its thread number there; the
   * primary: the size of its last outermost team of more than one, which
   * is how many threads its pool keeps (libgomp lets the others go). */
  struct bridge_thread *pool_primary;
  int pool_num;
  int pool_size;
  /* A worker of a team whose pool libgomp discards when the target region
   * that ran it on the host ends (BRIDGE_TEAM_POOL_DISCARDED): the
   * thread exits on its own then; finalisation waits for it to have ended
   * itself, whatever the kernel says of it at that moment. */
  atomic_int leaving;
  /* Code pomp-cc did not compile (kept here, not in initial-exec TLS,
   * whose room a library loaded by dlopen shares with every other):
   * the chunks of the loops bridge_gomp_work.c opened, by their depth on
   * its stack (see there); and the teams league the thread's GOMP_teams4
   * loop runs (bridge_gomp_teams.c). */
  struct {
    const void *istart; /* NULL: no chunks to report */
    uint64_t start, incr;
    unsigned char down;
  } work_chunks[BRIDGE_WORK_CHUNKS_MAX];
  POMP_Team_t league;
  const void *league_codeptr;
  unsigned char league_open;
} bridge_thread_t;

/* ---- Callback tables -----------------------------------------------------
 * bridge_registered: what the tool set (ompt_set_callback).
 * bridge_group_cb[b]: registered, if bucket b's POMP group/level is enabled.
 * bridge_active_cb[b]: group_cb, if monitoring is on (POMP_On/Off); for
 *   BRIDGE_B_ALWAYS regardless of On/Off.
 * Begins and single events read the active table (one load); an end reads
 * the group table when its begin was delivered. */
extern _Atomic(ompt_callback_t) bridge_registered[BRIDGE_CALLBACK_SLOTS];
/* bridge_active_cb: bridge.h */
extern _Atomic(ompt_callback_t) bridge_group_cb[BRIDGE_BUCKETS]
                                               [BRIDGE_CALLBACK_SLOTS];
extern int bridge_enabled; /* POMP_On/Off */

/* Whether a code address is libpompt's own (an ompt_start_tool or a GOMP_
 * entry found by name might be). */
int bridge_inside_libpompt(const void *addr);
/* Recompute the active and group tables (set_callback, On/Off, groups). */
void bridge_tables_update(void);
/* The thread's buffer for n dependences of the creation it is making,
 * which holds them until the creation is delivered (the thread's next
 * creation comes after that); NULL when memory is out. */
POMP_Dependence_t *bridge_deps_scratch(bridge_thread_t *t, int n);
/* The program called libgomp's entry (GOMP_...) through libpompt but
 * libgomp is not loaded (a link that dropped it): nothing can run it.
 * Says so and aborts. */
void bridge_gomp_missing(const char *entry) __attribute__((noreturn, cold));
/* Inquiry's answers that are computed once (processor count). */
void bridge_inquiry_init(void);
/* The work type of a loop with schedule(runtime) begun now: the encountering
 * task's run-sched-var (BRIDGE_WORK_LOOP_RUNTIME; bridge_loop.c). */
ompt_work_t bridge_loop_work_runtime(void);
/* Set while bridge_loop.c's chunk wrapper calls a loop's start entry: the
 * call is not the program's (bridge_gomp_work.c). */
extern __thread unsigned char bridge_loop_wrapping
    __attribute__((tls_model("initial-exec")));
/* How many target regions the calling thread is running (bridge_target.c:
 * between their enter and exit events; on the host, where it runs their
 * code). */
extern __thread volatile int bridge_target_depth
    __attribute__((tls_model("initial-exec")));

static inline ompt_callback_t bridge_active_in(int bucket,
                                               ompt_callbacks_t which) {
  return atomic_load_explicit(&bridge_active_cb[bucket][which],
                              memory_order_relaxed);
}

static inline ompt_callback_t bridge_group_in(int bucket,
                                              ompt_callbacks_t which) {
  return atomic_load_explicit(&bridge_group_cb[bucket][which],
                              memory_order_relaxed);
}

/* The callback for the events of no POMP group (target, device, error),
 * if registered and monitoring is on. */
static inline ompt_callback_t bridge_cb(ompt_callbacks_t which) {
  return bridge_active_in(BRIDGE_B_OTHER, which);
}
#define BRIDGE_CB_AS(name, type) ((type)bridge_cb(ompt_callback_##name))
#define BRIDGE_CB(name) BRIDGE_CB_AS(name, ompt_callback_##name##_t)

/* In a bucket: the active callback (begins, single events) and the group
 * callback (ends whose begin was delivered). */
#define BRIDGE_ACTIVE_AS(bucket, name, type)                                   \
  ((type)bridge_active_in((bucket), ompt_callback_##name))
#define BRIDGE_ACTIVE(bucket, name)                                            \
  BRIDGE_ACTIVE_AS(bucket, name, ompt_callback_##name##_t)
#define BRIDGE_GROUP_AS(bucket, name, type)                                    \
  ((type)bridge_group_in((bucket), ompt_callback_##name))
#define BRIDGE_GROUP(bucket, name)                                             \
  BRIDGE_GROUP_AS(bucket, name, ompt_callback_##name##_t)

/* ---- Threads ------------------------------------------------------------- */

/* The calling thread's record (initial-exec TLS: one load, no call). */
extern __thread bridge_thread_t *bridge_self
    __attribute__((tls_model("initial-exec")));
/* Creates the calling thread's record and delivers thread_begin. */
bridge_thread_t *bridge_thread_discover(void);
/* Whether an exiting thread ends its record itself (a tool is active). */
int bridge_threads_end_themselves(void);
/* The calling thread is leaving (pthread_exit, or its start routine
 * returned: bridge_thread_exit.c): its last callbacks, while its
 * thread-local storage, the tool's too, is still there. */
void bridge_thread_leaving(void);
/* This thread's record, created (with thread_begin) at its first event. */
static inline bridge_thread_t *bridge_thread_self(void) {
  bridge_thread_t *t = bridge_self;
  if (__builtin_expect(t != 0, 1))
    return t;
  return bridge_thread_discover();
}
/* This thread's record or NULL; never creates (async-signal-safe). */
static inline bridge_thread_t *bridge_thread_peek(void) {
  return bridge_self;
}
/* Called once at activation, on the initial thread. */
void bridge_thread_start_initial(void);
/* Deliver a pending implicit-barrier end / implicit-task end. */
void bridge_thread_flush(bridge_thread_t *t);
/* End every explicit and implicit task still running on t (regions and
 * tasks left without their end events), down to the initial task. */
void bridge_unwind_tasks(bridge_thread_t *t, const void *codeptr);
/* End every thread (finalisation). */
void bridge_threads_end_all(void);

static inline bridge_task_t *bridge_current_task(bridge_thread_t *t) {
  return t->cur;
}

static inline void bridge_set_state(bridge_thread_t *t, ompt_state_t s,
                                    ompt_wait_id_t w) {
  long off = t->st_off ^ (long)sizeof(bridge_state_t);
  bridge_state_t *e = (bridge_state_t *)(void *)((char *)t->st + off);
  e->state = (int)s;
  e->wait_id = w;
  atomic_signal_fence(memory_order_seq_cst);
  t->st_off = off;
}

static inline int bridge_get_state(const bridge_thread_t *t,
                                   ompt_wait_id_t *w) {
  long off = t->st_off;
  atomic_signal_fence(memory_order_seq_cst);
  const bridge_state_t *e =
      (const bridge_state_t *)(const void *)((const char *)t->st + off);
  if (w)
    *w = e->wait_id;
  return e->state;
}

/* ---- Tasks --------------------------------------------------------------- */

/* The initial implicit parallel region (team of one around the program). */
extern ompt_data_t bridge_initial_parallel_data;

/* The head of a refilled free list (records released by other threads, or
 * a new slab), or NULL when memory is out. */
bridge_task_t *bridge_task_refill(bridge_thread_t *t);

/* Everything before the lifetime fields starts zeroed.  Written as straight
 * 16-byte stores: a memset of this size compiles to a string instruction
 * whose start-up costs more than the stores, and a record is taken at every
 * task and region begin. */
typedef long long bridge_zero16_t
    __attribute__((vector_size(16), may_alias, aligned(8)));
typedef long long bridge_zero8_t __attribute__((may_alias, aligned(8)));
#define BRIDGE_TASK_ZEROED offsetof(bridge_task_t, refs)
_Static_assert(BRIDGE_TASK_ZEROED % 8 == 0 && BRIDGE_TASK_ZEROED <= 16 * 12,
               "bridge_task_alloc zeroes at most 12 times 16 bytes");

/* Takes r, the head of the thread's free list, zeroed (refs 1). */
static inline bridge_task_t *bridge_task_take(bridge_thread_t *t,
                                              bridge_task_t *r) {
  t->free_tasks = r->next_free;
  bridge_zero16_t *w = (bridge_zero16_t *)(void *)r;
  const bridge_zero16_t z = {0, 0};
  /* Straight-line stores, each under a constant condition, so that only
   * those the record needs remain (a loop would become memset again). */
#define BRIDGE_Z(i)                                                            \
  do {                                                                         \
    if (((i) + 1) * 16 <= BRIDGE_TASK_ZEROED)                                  \
      w[i] = z;                                                                \
  } while (0)
  BRIDGE_Z(0);
  BRIDGE_Z(1);
  BRIDGE_Z(2);
  BRIDGE_Z(3);
  BRIDGE_Z(4);
  BRIDGE_Z(5);
  BRIDGE_Z(6);
  BRIDGE_Z(7);
  BRIDGE_Z(8);
  BRIDGE_Z(9);
  BRIDGE_Z(10);
  BRIDGE_Z(11);
#undef BRIDGE_Z
  if (BRIDGE_TASK_ZEROED % 16)
    *(bridge_zero8_t *)(void *)((char *)r + BRIDGE_TASK_ZEROED - 8) = 0;
  r->frame.exit_frame_flags = ompt_frame_runtime | bridge_frame_flag;
  r->frame.enter_frame_flags = ompt_frame_runtime | bridge_frame_flag;
  r->next_free = NULL;
  r->early_begun = 0;
  r->trampolined = 0;
  atomic_store_explicit(&r->refs, 1, memory_order_relaxed);
  return r;
}

/* The record's generation: which task it holds now. */
static inline unsigned bridge_task_gen(bridge_task_t *r) {
  return atomic_load_explicit(&r->gen, memory_order_relaxed);
}

/* A zeroed record from this thread's pool (refs 1), or NULL. */
static inline bridge_task_t *bridge_task_alloc(bridge_thread_t *t) {
  bridge_task_t *r = t->free_tasks;
  if (__builtin_expect(!r, 0) && !(r = bridge_task_refill(t)))
    return NULL;
  return bridge_task_take(t, r);
}
/* Drop one reference; the last returns the record (and the reference it
 * holds on its parent) to the pools. */
void bridge_task_unref_slow(bridge_task_t *task);
/* The same, with the common case inline: this thread owns the record and
 * drops its only reference (no read-modify-write: see the slow path). */
static inline void bridge_task_unref_by(bridge_thread_t *self,
                                        bridge_task_t *task);
static inline void bridge_task_unref(bridge_task_t *task) {
  bridge_task_unref_by(bridge_self, task);
}
/* The same, by the calling thread, whose record the caller holds (self). */
static inline void bridge_task_unref_by(bridge_thread_t *self,
                                        bridge_task_t *task) {
  if (__builtin_expect(
          task && task->owner == self &&
              atomic_load_explicit(&task->refs, memory_order_acquire) == 1,
          1)) {
    bridge_task_t *parent = task->owns_parent_ref ? task->parent : NULL;
    atomic_store_explicit(
        &task->gen, atomic_load_explicit(&task->gen, memory_order_relaxed) + 1,
        memory_order_relaxed);
    __atomic_store_n(&task->status, BRIDGE_TASK_FREE, __ATOMIC_RELAXED);
    task->next_free = self->free_tasks;
    self->free_tasks = task;
    if (parent)
      bridge_task_unref_slow(parent);
    return;
  }
  bridge_task_unref_slow(task);
}
/* ---- The lane (bridge_lane.c, pomp.h) ------------------------------------
 * Master regions, atomic instructions and critical regions are delivered
 * from the instrumented code while the thread's lane is usable; these keep
 * it true to the thread's state. */
extern __thread POMPT_Lane_t POMPT_lane_v2
    __attribute__((tls_model("initial-exec")));
/* The lane shows task, the thread's running one: its data, and
 * POMPT_LANE_READY exactly when an inline event may skip libpompt (the task
 * was announced, no cancellation left anything to end), with
 * POMPT_LANE_OUTERMOST when none of the task's constructs is open (what a
 * master region needs).  Only for the calling thread's own record. */
static inline void bridge_lane_show(bridge_thread_t *t, bridge_task_t *task,
                                    int outermost) {
  POMPT_Lane_t *l = &POMPT_lane_v2;
  l->parallel_data = task->parallel_data;
  l->task_data = &task->task_data;
  l->usable =
      (uint16_t)((task->announced & !t->lane_hold)
                     ? POMPT_LANE_READY | (outermost ? POMPT_LANE_OUTERMOST : 0)
                     : 0);
}
/* The same for whatever the thread's state is now: nothing is usable while
 * a barrier end is pending for its next event. */
static inline void bridge_lane_refresh(bridge_thread_t *t) {
  bridge_task_t *cur = t->cur;
  if (!cur || cur == t->pending)
    POMPT_lane_v2.usable = 0;
  else
    bridge_lane_show(t, cur, t->nscopes == cur->scope_base);
}
/* A construct of the running task opened a scope: inline master events
 * would no longer nest inside it correctly if a cancellation ended both
 * (atomic instructions have no scope: they need only READY). */
static inline void bridge_lane_enclosed(void) {
  POMPT_lane_v2.usable &= (uint16_t)~POMPT_LANE_OUTERMOST;
}
/* The running task changed: the lane's data are stale. */
static inline void bridge_lane_close(void) {
  POMPT_lane_v2.usable = 0;
}
/* The master regions begun inline above task's base that a cancellation
 * left open: their ends, innermost first (after the task's other open
 * constructs, which began inside them), on the calling thread. */
void bridge_lane_unwind(bridge_task_t *task);
/* Push the bit of a master region libpompt handles (0), pop the innermost
 * one's (1: its begin was delivered inline; 0 also for none, or one deeper
 * than the bits). */
void bridge_lane_push(void);
int bridge_lane_pop(void);
/* The callback slots the inline events read (set_callback, On/Off, groups,
 * activation, finalisation). */
void bridge_lane_tables(void);
/* A cancellation was activated on the calling thread. */
void bridge_lane_hold(void);

static inline ompt_state_t bridge_working_state_of(const bridge_task_t *task);
/* Publish task as the thread's running task, on top of the current one;
 * state: its working state when the caller knows it, else -1. */
static inline void bridge_task_push_as(bridge_thread_t *t, bridge_task_t *task,
                                       int state) {
  task->work_state =
      (uint8_t)(state >= 0 ? state : (int)bridge_working_state_of(task));
  task->below = t->cur;
  task->scope_base = t->nscopes;
  for (int k = 0; k < BRIDGE_PAIRS; k++)
    task->pair_next[k] = bridge_pairs[k].next;
  task->lane_base = POMPT_lane_v2.depth;
  __atomic_store_n(&task->status, BRIDGE_TASK_RUNNING, __ATOMIC_RELAXED);
  atomic_signal_fence(memory_order_seq_cst);
  t->cur = task;
  if (t == bridge_self)
    bridge_lane_show(t, task, 1); /* a task just pushed has nothing open */
}
static inline void bridge_task_push(bridge_thread_t *t, bridge_task_t *task) {
  bridge_task_push_as(t, task, -1);
}
/* Unpublish the running task (it must be cur); self: t is the calling
 * thread's record. */
static inline void bridge_task_pop_as(bridge_thread_t *t, bridge_task_t *task,
                                      int self) {
  t->cur = task->below;
  atomic_signal_fence(memory_order_seq_cst);
  if (self) {
    for (int k = 0; k < BRIDGE_PAIRS; k++)
      bridge_pairs[k].next = task->pair_next[k];
    /* Reopened by the next inline event that comes to libpompt: a
     * resumed task is often in a construct (a barrier, a taskwait), and
     * the test is more than the store. */
    bridge_lane_close();
  }
}
static inline void bridge_task_pop(bridge_thread_t *t, bridge_task_t *task) {
  bridge_task_pop_as(t, task, t == bridge_self);
}
/* Whether pd is an initial region's data: the program's, or the calling
 * thread's own when the runtime did not create it.  Tasks of an initial
 * region run on its thread (undeferred), so the caller's is the one. */
static inline int bridge_initial_region(const ompt_data_t *pd) {
  return pd == &bridge_initial_parallel_data ||
         (bridge_self && pd == &bridge_self->initial_parallel_data);
}
/* The OMPT working state of a thread running task. */
static inline ompt_state_t bridge_working_state_of(const bridge_task_t *task) {
  return task && !(task->flags & ompt_task_initial) &&
                 !bridge_initial_region(task->parallel_data)
             ? ompt_state_work_parallel
             : ompt_state_work_serial;
}
/* The same for a task on the thread's stack: the value its push fixed. */
static inline ompt_state_t bridge_working_state(const bridge_task_t *task) {
  return task ? (ompt_state_t)task->work_state : ompt_state_work_serial;
}
/* Dependence tracking of a completed generating task (bridge_events.c). */
void bridge_deps_free(bridge_thread_t *t, bridge_task_t *task);
static inline void bridge_deps_release(bridge_thread_t *t,
                                       bridge_task_t *task) {
  if (task->deps)
    bridge_deps_free(t, task);
}

/* ---- Scopes -------------------------------------------------------------- */

/* The running task's innermost open taskgroup (its sync_region scope,
 * whose arg is the taskgroup's id with cancellation on, bridge_discard.c,
 * and whose seq marks a registered task reduction, bridge_reduction.c), or
 * NULL. */
/* The marks of a taskgroup's scope, in its seq field (which taskgroups do
 * not use otherwise). */
#define BRIDGE_TG_REDUCING 1u /* registered a task reduction */
#define BRIDGE_TG_STARTED 2u  /* libgomp's start entry was called for it */
#define BRIDGE_TG_OPAQUE 4u   /* reported from libgomp's entries */
static inline bridge_scope_t *bridge_innermost_taskgroup(bridge_thread_t *t) {
  const struct bridge_task *cur = t->cur;
  for (int i = t->nscopes - 1; i >= (cur ? cur->scope_base : 0); i--)
    if (t->scopes[i].what == BRIDGE_SC_SYNC_REGION &&
        t->scopes[i].kind == ompt_sync_region_taskgroup)
      return &t->scopes[i];
  return NULL;
}

/* Makes room for one more scope; 0 when memory is out. */
int bridge_scope_grow(bridge_thread_t *t);
/* Push an open scope; returns whether its begin is to be delivered
 * (monitoring on and the current task announced). */
static inline int bridge_scope_push_room(bridge_thread_t *t, int what,
                                         int bucket, int kind, uint64_t arg,
                                         const void *codeptr);
static inline int bridge_scope_push(bridge_thread_t *t, int what, int bucket,
                                    int kind, uint64_t arg,
                                    const void *codeptr) {
  if (__builtin_expect(t->nscopes == t->scope_cap, 0) && !bridge_scope_grow(t))
    return 0; /* not recorded, so neither end is delivered */
  return bridge_scope_push_room(t, what, bucket, kind, arg, codeptr);
}
/* The same, where the caller knows the stack has room: no call on the way,
 * which spares an event's fast path its register saves.  set_enter: the
 * scope's end is to clear the task's enter_frame (bridge_scope_t). */
static inline int bridge_scope_push_entry(bridge_thread_t *t, int what,
                                          int bucket, int kind, uint64_t arg,
                                          const void *codeptr, int set_enter);
static inline int bridge_scope_push_room(bridge_thread_t *t, int what,
                                         int bucket, int kind, uint64_t arg,
                                         const void *codeptr) {
  return bridge_scope_push_entry(t, what, bucket, kind, arg, codeptr, 0);
}
static inline int bridge_scope_push_entry(bridge_thread_t *t, int what,
                                          int bucket, int kind, uint64_t arg,
                                          const void *codeptr, int set_enter) {
  bridge_task_t *cur = t->cur;
  /* bridge_enabled and announced are 0 or 1: one AND, no branches. */
  int delivered = bridge_enabled & (cur ? cur->announced : 1);
  bridge_lane_enclosed();
  bridge_scope_t *s = &t->scopes[t->nscopes++];
  s->what = (uint8_t)what;
  s->delivered = (uint8_t)delivered;
  s->bucket = (uint8_t)bucket;
  s->set_enter = (uint8_t)set_enter;
  s->kind = kind;
  s->arg = arg;
  s->codeptr = codeptr;
  s->seq = 0;
  return delivered;
}
/* Pop the innermost scope of this kind (what; kind -1: any kind; arg when
 * match_arg) of the current task, delivering the ends of scopes above it
 * that were left open (a cancelled construct).  Copies it into *out; 0 when
 * there is none. */
int bridge_scope_pop(bridge_thread_t *t, int what, int kind, uint64_t arg,
                     int match_arg, bridge_scope_t *out);
/* The same for a masked or work scope, found by its begin's number. */
int bridge_scope_pop_seq(bridge_thread_t *t, int what, uint32_t seq,
                         bridge_scope_t *out);
/* Deliver the end of a popped scope (if its begin was delivered), as the
 * tool must see it.  what: the scope's kind; inline, so that a caller that
 * knows the kind gets only that case.  s may be the stack slot just popped
 * (no copy of it needed). */
static inline __attribute__((always_inline)) void
bridge_scope_end_as(bridge_thread_t *t, const bridge_scope_t *sp, int what,
                    const void *codeptr) {
  /* Read before any callback: sp may be the slot just popped off the
   * stack, which an event inside a callback could reuse. */
  int kind = sp->kind;
  uint64_t arg = sp->arg;
  int b = sp->bucket;
  /* A wait, and a region that ends with its wait (a barrier, taskwait),
   * is one runtime call at a native runtime: all its events carry the
   * codeptr_ra of its begin, whichever POMP call ends it. */
  const void *begin_codeptr = sp->codeptr;
  bridge_task_t *task = t->cur;
  if (BRIDGE_SC_SETS_ENTER(what) && sp->set_enter && task) {
    task->frame.enter_frame.ptr = NULL;
  }
  if (!sp->delivered)
    return;
  ompt_data_t *pd = task ? task->parallel_data : NULL;
  ompt_data_t *td = task ? &task->task_data : NULL;
  switch (what) {
  case BRIDGE_SC_WORK: {
    ompt_callback_work_t cb = BRIDGE_GROUP(b, work);
    if (cb)
      cb((ompt_work_t)kind, ompt_scope_end, pd, td, arg, codeptr);
    break;
  }
  case BRIDGE_SC_MASKED: {
    ompt_callback_masked_t cb = BRIDGE_GROUP(b, masked);
    if (cb)
      cb(ompt_scope_end, pd, td, codeptr);
    break;
  }
  /* A barrier's region ends right after its wait. */
  case BRIDGE_SC_SYNC:
  case BRIDGE_SC_SYNC_WAIT: {
    ompt_callback_sync_region_t w =
        BRIDGE_GROUP_AS(b, sync_region_wait, ompt_callback_sync_region_t);
    if (w)
      w((ompt_sync_region_t)kind, ompt_scope_end, pd, td, begin_codeptr);
    if (what == BRIDGE_SC_SYNC_WAIT)
      break;
    codeptr = begin_codeptr;
  }
    /* fall through */
  case BRIDGE_SC_SYNC_REGION: {
    ompt_callback_sync_region_t cb = BRIDGE_GROUP(b, sync_region);
    if (cb)
      cb((ompt_sync_region_t)kind, ompt_scope_end, pd, td, codeptr);
    break;
  }
  case BRIDGE_SC_HELD: {
    ompt_callback_mutex_t cb =
        BRIDGE_GROUP_AS(b, mutex_released, ompt_callback_mutex_t);
    if (cb)
      cb((ompt_mutex_t)kind, (ompt_wait_id_t)arg, codeptr);
    break;
  }
  default:
    /* parallel (closed by its own events; its team may be gone), mutex
     * waits, scheduling points: no end callback of their own */
    break;
  }
}

/* The same, for a scope of any kind. */
static inline void bridge_scope_end(bridge_thread_t *t, const bridge_scope_t *s,
                                    const void *codeptr) {
  bridge_scope_end_as(t, s, s->what, codeptr);
}

/* A scope leaves the stack: masked, work and held-mutex records are counted
 * per thread (bridge_pairs; only the thread itself keeps its count). */
static inline void bridge_scope_forget(bridge_thread_t *t,
                                       const bridge_scope_t *s) {
  if (t != bridge_self)
    return;
  if (s->what == BRIDGE_SC_MASKED)
    bridge_pairs[BRIDGE_PAIR_MASKED].open--;
  else if (s->what == BRIDGE_SC_WORK)
    bridge_pairs[BRIDGE_PAIR_WORK].open--;
  else if (s->what == BRIDGE_SC_HELD)
    bridge_pairs[BRIDGE_PAIR_HELD].open--;
}

/* Pop and end every scope above depth (recovery); codeptr NULL: each
 * scope's own. */
void bridge_scope_close_to(bridge_thread_t *t, int depth, const void *codeptr);
/* The same, with the common case (nothing left open) inline. */
static inline void bridge_scope_close_open(bridge_thread_t *t, int depth,
                                           const void *codeptr) {
  if (__builtin_expect(t->nscopes > depth, 0))
    bridge_scope_close_to(t, depth, codeptr);
}
/* Everything a task leaves open when it ends (a cancellation skipped the
 * ends): its constructs' scopes, then the master regions begun inline
 * before them. */
static inline void bridge_task_close_open(bridge_thread_t *t,
                                          bridge_task_t *task,
                                          const void *codeptr) {
  bridge_scope_close_open(t, task->scope_base, codeptr);
  if (__builtin_expect(POMPT_lane_v2.depth > task->lane_base, 0) &&
      t == bridge_self)
    bridge_lane_unwind(task);
}
/* The top scope, if it was pushed by the current task. */
static inline bridge_scope_t *bridge_scope_top(bridge_thread_t *t) {
  int base = t->cur ? t->cur->scope_base : 0;
  return t->nscopes > base ? &t->scopes[t->nscopes - 1] : (bridge_scope_t *)0;
}

/* ---- PAPI software-defined events (bridge_sde.c) ------------------------- */

/* Nonzero once a reader read the counters: callbacks are counted. */
extern atomic_int bridge_sde_counting;
/* What the callback tables hold for a registered callback: the counting
 * wrapper while counting, else the callback itself. */
ompt_callback_t bridge_sde_callback(int which, ompt_callback_t registered);
/* At activation, before the tool's initialize: load libsde, register. */
void bridge_sde_start(void);
/* A trace record was written into a tool's buffer (bridge_trace.c). */
void bridge_sde_record_written(void);
/* Trace records lost so far, every device (bridge_trace.c). */
uint64_t bridge_trace_records_lost(void);
/* The registered callback regardless of groups and On/Off (device
 * initialisation and finalisation), as the tables would hold it. */
static inline ompt_callback_t bridge_registered_cb(ompt_callbacks_t which) {
  return bridge_sde_callback(
      which,
      atomic_load_explicit(&bridge_registered[which], memory_order_acquire));
}

ompt_interface_fn_t bridge_lookup(const char *name);
uint64_t bridge_unique_id(void);

/* Verbose-init log (OMP_TOOL_VERBOSE_INIT); printf-like, no-op when off. */
void bridge_log(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* bridge_gomp.c: deferred parallel_begin. */
extern int bridge_fork_deferred;
void bridge_gomp_setup(void);
/* After a tool started: says on stderr when the program's task constructs
 * cannot be reported (its calls of GOMP_task do not come here). */
void bridge_gomp_tool_started(void);
void bridge_fork_deliver(bridge_thread_t *t);
void bridge_create_deliver(bridge_thread_t *t);
/* Whether libgomp's task entry exists (a task may be deferred at all). */
int bridge_have_gomp_task(void);
void (*bridge_gomp_parallel_real(void))(void (*)(void *), void *, unsigned,
                                        unsigned);

/* bridge_events.c: bridge_parallel_begin from libpompt's region
 * trampoline, before the region's function runs: the implicit task it
 * leaves running is marked begun (early_begun), so that the construct's own
 * Parallel_begin delivers nothing. */
void bridge_parallel_begin_early(POMP_Team_t *team, void *frame);

/* bridge_events.c: the begin of an explicit task (task_schedule switch)
 * delivered by libpompt's task trampoline before the program's outlined
 * function runs, for the task's record as bridge_task_create_begin made it
 * (gen: its generation then); whether it began.  The block's own
 * Task_begin follows, which then only clears the mark.  After the function
 * returned (bridge_task_returned): a task still running was left without
 * Task_end and ends now. */
int bridge_task_begin_early(bridge_task_t *rec, unsigned gen, void *frame,
                            void *mem);
/* bridge_events.c: the block of data a task created by
 * bridge_task_create_begin runs with, before its begin (taskloop tasks). */
void bridge_task_memory(POMP_Task_t *task, void *mem, size_t size);
/* bridge_events.c: from the trampoline, the return of the block's
 * function of a parallel construct: where its Parallel_end came, the thread
 * leaves the block now and waits in the end barrier (bridge_parallel_end,
 * bridge.h); where that Parallel_end went quiet (bridge_block_t), what it
 * would have done comes first.  frame: the trampoline's. */
void bridge_parallel_returned(POMP_Team_t *team, void *frame);
/* bridge_events.c: the end of a region's block that libpompt's own routine
 * runs (the parallel leaf of distribute parallel for, bridge_gomp.c), once
 * the block's function returned to it (frame: that routine's). */
void bridge_parallel_left(POMP_Team_t *team, const void *codeptr, void *frame);
/* bridge_reduction.c: a taskloop with a reduction returned, whose
 * reduction the thread combines now (until
 * GOMP_taskgroup_reduction_unregister). */
void bridge_task_reduction_begin(const void *codeptr);
/* bridge_reduction.c: GOMP_taskgroup_end returned for tg, the innermost
 * taskgroup of an instrumented construct: a task reduction registered in
 * it is combined now. */
void bridge_taskgroup_reduction_waited(bridge_thread_t *t, bridge_scope_t *tg,
                                       const void *codeptr);
/* bridge_events.c: the wait of the thread's innermost taskgroup is over
 * before its exit event (a task reduction is combined in between). */
void bridge_taskgroup_wait_over(bridge_thread_t *t, const void *codeptr);
/* bridge_reduction.c: the reduction this thread is combining (one at a
 * time: GCC's combining code makes no OpenMP call but those that bracket
 * it).  open: which bracket, 0 none; delivered: its begin reached the
 * tool; state, wait_id: what its end restores; codeptr: its begin's. */
enum {
  BRIDGE_COMBINING_LOCK = 1, /* GOMP_atomic_start .. _end */
  BRIDGE_COMBINING_TASKS,    /* taskgroup end .. reduction_unregister */
  BRIDGE_COMBINING_BLOCK     /* parallel block end .. its function's return */
};
typedef struct bridge_combining {
  /* held: a BLOCK combining's begin waits for libgomp's atomic lock (1),
   * came with it (2): the block's combinings are those under the lock. */
  unsigned char open, delivered, held;
  int state;
  const void *codeptr;
  ompt_wait_id_t wait_id;
} bridge_combining_t;
extern __thread bridge_combining_t bridge_combining
    __attribute__((tls_model("initial-exec")));
/* Begin (state ompt_state_work_reduction until the end, which restores
 * state / wait_id) and end of the thread's combining. */
void bridge_combine_begin(bridge_thread_t *t, int kind, int state,
                          ompt_wait_id_t wait_id, const void *codeptr);
void bridge_combine_end(bridge_thread_t *t);
/* The same for a parallel block's clause (BRIDGE_COMBINING_BLOCK), whose
 * begin and end callbacks come under libgomp's atomic lock when GCC
 * combines there, else both at the end. */
void bridge_combine_block_begin(bridge_thread_t *t, const void *codeptr);
void bridge_combine_block_end(bridge_thread_t *t);
/* bridge_events.c: a task its construct handed over (pomp.h,
 * POMPT_Task_hand), from libpompt's GOMP_task: created (NULL when no record
 * could be made), then, after libgomp's GOMP_task returned, the scheduling
 * point closed (created); run by the trampoline (handed_run: begun, its
 * block's function called, ended as complete or, when it activated or
 * detected a cancellation of its taskgroup, as cancelled). */
enum { BRIDGE_HANDED_FRAME_SET = 1, BRIDGE_HANDED_GENERAL };
typedef struct bridge_task_handed {
  bridge_task_t *enc; /* whose enter_frame was set (FRAME_SET) */
  int how;            /* 0, BRIDGE_HANDED_FRAME_SET or _GENERAL */
} bridge_task_handed_t;
bridge_task_t *bridge_task_handed_create(bridge_task_handed_t *hd,
                                         int pomp_flags, const void *codeptr,
                                         void *frame);
void bridge_task_handed_created(const bridge_task_handed_t *hd, void *frame);
void bridge_task_handed_run(bridge_task_t *rec, unsigned gen,
                            void (*fn)(void *), void *block);
/* block_ended: the task's end is its function's return (a task handed
 * over by its construct), else 0: still running, its block was left before
 * its end event. */
void bridge_task_returned(bridge_task_t *rec, unsigned gen, void *frame,
                          int block_ended);
/* The running explicit task leaves its block for a cancellation of its
 * taskgroup that a cancellation point found (bridge_gomp_cancel.c): it ends
 * as cancelled. */
void bridge_task_left_cancelled(void);

/* bridge_detach.c: tasks with a detach clause.  register: the event handle
 * libgomp gave a task that has not begun (ignored once it has); body_end:
 * the status its Task_end delivers (complete when fulfilled already, else
 * detach); body_ended: after that delivery (a fulfilment in between is
 * delivered now, as late_fulfill). */
void bridge_detach_register(bridge_task_t *rec, unsigned gen,
                            const void *event);
int bridge_detach_body_end(bridge_task_t *rec, unsigned gen);
void bridge_detach_body_ended(bridge_task_t *rec, unsigned gen);

/* bridge_exiting.c: the calling thread's kernel id; whether thread tid is
 * running or runnable (0 when asleep, gone or unknown); a short sleep. */
int bridge_os_tid(void);
int bridge_os_thread_runnable(int tid);
void bridge_os_sleep_us(long us);

/* bridge_discard.c: the tasks libgomp discards when their taskgroup or
 * region is cancelled (it drops them without a call).  cancellation_on:
 * whether it may (OMP_CANCELLATION, fixed at start-up); taskgroup_id: the
 * id a taskgroup's scope keeps (0 unless cancellation is on); track: a task
 * about to be handed to GOMP_task without a copy function of the
 * program's; taskgroup_end: after the taskgroup's wait (its tasks have all
 * completed or were discarded); region_end: the primary thread after the
 * region (every task of it); cancel_parallel: the region's cancellation was
 * activated. */
int bridge_cancellation_on(void);
uint64_t bridge_discard_taskgroup_id(void);
void bridge_discard_track(bridge_thread_t *t, bridge_task_t *rec,
                          struct taskloop *owner);
void bridge_discard_taskgroup_end(bridge_thread_t *t, uint64_t taskgroup);
void bridge_discard_region_end(bridge_thread_t *t, bridge_team_t *team);
void bridge_discard_cancel_parallel(bridge_thread_t *t);
/* The region whose tasks the thread's running task creates (NULL: none
 * libgomp could discard); a task libgomp discarded, reported
 * (cancel(ompt_cancel_discarded_task), by its taskgroup's cancellation when
 * in_taskgroup and the region's was not activated) and released as its
 * end would. */
bridge_team_t *bridge_discard_region(const bridge_thread_t *t);
void bridge_task_discarded(bridge_thread_t *t, const bridge_team_t *team,
                           bridge_task_t *rec, int in_taskgroup);
/* The task of a nogroup taskloop, created before libgomp was called,
 * tracked with its taskloop as owner: the reference on it the task holds
 * is dropped by taskloop_discarded when libgomp discarded the task. */
void bridge_task_track_discard(POMP_Task_t *task, struct taskloop *owner);
void bridge_taskloop_discarded(struct taskloop *tl);

/* bridge_atomic.c: GOMP_atomic_start inside an atomic construct whose kind
 * was unknown (bridge_reduction.c's interposer calls it); whether atomic
 * instructions have mutex events (POMPT_ATOMIC; not under ThreadSanitizer
 * by default), set by setup before the tool is started. */
void bridge_atomic_locking(void);
/* The wait id of libgomp's one atomic lock (GOMP_atomic_start / _end). */
ompt_wait_id_t bridge_atomic_lock_wait_id(void);
extern int bridge_atomic_instructions_seen;
void bridge_atomic_setup(void);
/* bridge_events.c: an atomic's mutex_acquire and mutex_acquired at once
 * (its wait is not observable apart from its acquisition), returning
 * whether they were delivered; and its mutex_released, for one that was.
 * waits: it waits for libgomp's lock (state wait_atomic for the
 * acquisition); an atomic instruction waits for nothing. */
int bridge_atomic_acquire(int bucket, ompt_wait_id_t wait_id, int waits,
                          const void *codeptr, void *frame);
/* The wait id of an atomic instruction: the thread's own, the same one the
 * inline events of pomp.h pass (the address of the thread's lane). */
static inline ompt_wait_id_t bridge_atomic_own_wait_id(void) {
  return (ompt_wait_id_t)(uintptr_t)&POMPT_lane_v2;
}

void bridge_atomic_release(int bucket, ompt_wait_id_t wait_id,
                           const void *codeptr);

#endif /* POMPT_BRIDGE_INTERNAL_H */
