/*
 * bridge_thread.c -- thread discovery, the per-thread OMPT record, the task
 * record pool, the scope stack, and the end of threads.
 *
 * OpenMP runtimes without OMPT do not tell anyone when they create a worker,
 * so a thread is discovered at its first POMP event and gets thread_begin
 * then, before anything else.  Thread records are allocated once per
 * thread, linked into a lock-free registry and never freed, so that
 * finalisation can end threads the runtime never stops (libgomp keeps its
 * pool until exit), and so that task records can always be returned to the
 * thread that owns them.
 */
#include <pthread.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "bridge.h"
#include "bridge_internal.h"
#include "bridge_omp.h"

__thread bridge_thread_t *bridge_self
    __attribute__((tls_model("initial-exec")));
__thread uint32_t bridge_work_entered
    __attribute__((tls_model("initial-exec")));
__thread bridge_pair_seq_t bridge_pairs[BRIDGE_PAIRS]
    __attribute__((tls_model("initial-exec")));
static _Atomic(bridge_thread_t *) registry;
static atomic_int initial_seen;
static pthread_key_t exit_key;
static pthread_once_t exit_key_once = PTHREAD_ONCE_INIT;

ompt_data_t bridge_initial_parallel_data;

static void thread_end(bridge_thread_t *t);

/* Whether a thread that exits ends itself (its last callbacks on its own
 * thread): from the tool's activation until finalisation has stopped
 * waiting for exiting threads.  Not bridge_active: finalisation switches
 * the events off before it waits, and a thread that exited in between left
 * without its callbacks, was waited for in vain (2 s) and was then ended
 * from the finalising thread. */
static atomic_int exits_end_themselves;

/* pthread key destructor: the thread is exiting on its own. */
static void on_thread_exit(void *arg) {
  bridge_thread_t *t = arg;
  if (t && atomic_load(&exits_end_themselves))
    thread_end(t);
}

int bridge_threads_end_themselves(void) {
  return atomic_load_explicit(&exits_end_themselves, memory_order_relaxed);
}

void bridge_thread_leaving(void) {
  on_thread_exit(bridge_self);
}

/* fork(): the child has one thread, the one that forked.  The records of the
 * parent's other threads describe threads that do not exist here: they are
 * marked gone, so that the child's exit does not try to reach them (a last
 * libgomp team would wait for a pool the child does not have) and only their
 * thread_end is delivered, which keeps the tool's copy of the parent's state
 * balanced. */
#define BRIDGE_THREAD_GONE 2

static void on_fork_child(void) {
  for (bridge_thread_t *t = atomic_load(&registry); t; t = t->next) {
    int alive = 0;
    if (t != bridge_self)
      atomic_compare_exchange_strong(&t->ended, &alive, BRIDGE_THREAD_GONE);
  }
}

static void make_exit_key(void) {
  (void)pthread_key_create(&exit_key, on_thread_exit);
  (void)pthread_atfork(NULL, NULL, on_fork_child);
}

#define BRIDGE_SCOPES_INITIAL 64

static bridge_thread_t *thread_create(ompt_thread_t type) {
  /* From libpompt's own memory (bridge_arena.c), one cache line apart from
   * another thread's record: each thread writes its own all the time. */
  bridge_thread_t *t = bridge_arena_alloc(sizeof *t, 64);
  if (!t)
    return NULL;
  t->scopes = bridge_arena_alloc(BRIDGE_SCOPES_INITIAL * sizeof *t->scopes,
                                 _Alignof(bridge_scope_t));
  t->scope_cap = t->scopes ? BRIDGE_SCOPES_INITIAL : 0;
  t->scopes_in_arena = t->scopes != NULL;
  t->type = type;
  t->tid = bridge_os_tid();
  t->st[0].state =
      type == ompt_thread_initial ? ompt_state_work_serial : ompt_state_idle;
  bridge_thread_t *head = atomic_load(&registry);
  do
    t->next = head;
  while (!atomic_compare_exchange_weak(&registry, &head, t));
  bridge_self = t;
  pthread_once(&exit_key_once, make_exit_key);
  (void)pthread_setspecific(exit_key, t);
  ompt_callback_thread_begin_t cb =
      BRIDGE_ACTIVE(BRIDGE_B_ALWAYS, thread_begin);
  if (cb)
    cb(type, &t->thread_data);
  return t;
}

static void start_initial_task(bridge_thread_t *t, ompt_data_t *region);

bridge_thread_t *bridge_thread_discover(void) {
  if (bridge_self)
    return bridge_self;
  /* The process's first event starts the tool (bridge_tool.c), which makes
   * the starting thread's record; any other thread waits for the start. */
  if (__builtin_expect(bridge_start_armed(), 0)) {
    bridge_start_tool();
    if (bridge_self)
      return bridge_self;
  }
  /* No tool: the rest of an event that started while the start was armed
   * (the region's other threads among them) has nothing to record. */
  if (!bridge_active)
    return NULL;
  int expected = 0;
  if (atomic_compare_exchange_strong(&initial_seen, &expected, 1))
    return thread_create(ompt_thread_initial); /* its task: at activation */
  /* The runtime's own threads first show up inside a region.  A thread
   * whose first event is outside any region was created by the program
   * (pthread, std::thread); OpenMP makes it an initial thread, with an
   * initial task in an initial region of its own, which end when the
   * thread does. */
  if (omp_get_level && omp_get_level() == 0) {
    bridge_thread_t *t = thread_create(ompt_thread_initial);
    if (t)
      start_initial_task(t, &t->initial_parallel_data);
    return t;
  }
  return thread_create(ompt_thread_worker);
}

/* ---- Task records ----------------------------------------------------------
 * Allocation and release are per thread: a thread takes records from its own
 * free list, refilled in one go from its remote-free list (records other
 * threads released) and, only when both are empty, with one malloc of a
 * slab.  After warm-up no event allocates. */

#define BRIDGE_TASK_SLAB 64

static bridge_task_t *slab_alloc(bridge_thread_t *t) {
  bridge_task_t *slab = bridge_arena_alloc(BRIDGE_TASK_SLAB * sizeof *slab, 64);
  if (!slab)
    return NULL;
  for (int i = 0; i < BRIDGE_TASK_SLAB; i++) {
    slab[i].owner = t;
    slab[i].next_free = i + 1 < BRIDGE_TASK_SLAB ? &slab[i + 1] : NULL;
  }
  return slab;
}

/* The free list is empty: take the records other threads released, or a
 * new slab (bridge_task_alloc in bridge_internal.h has the common case). */
bridge_task_t *bridge_task_refill(bridge_thread_t *t) {
  bridge_task_t *r =
      atomic_exchange_explicit(&t->remote_free, NULL, memory_order_acquire);
  return r ? r : slab_alloc(t);
}

static void task_release(bridge_task_t *r) {
  /* Only the thread that dropped the last reference writes gen now. */
  atomic_store_explicit(&r->gen,
                        atomic_load_explicit(&r->gen, memory_order_relaxed) + 1,
                        memory_order_relaxed);
  __atomic_store_n(&r->status, BRIDGE_TASK_FREE, __ATOMIC_RELAXED);
  bridge_thread_t *owner = r->owner;
  if (owner == bridge_self) {
    r->next_free = owner->free_tasks;
    owner->free_tasks = r;
    return;
  }
  bridge_task_t *head =
      atomic_load_explicit(&owner->remote_free, memory_order_relaxed);
  do
    r->next_free = head;
  while (!atomic_compare_exchange_weak_explicit(&owner->remote_free, &head, r,
                                                memory_order_release,
                                                memory_order_relaxed));
}

void bridge_task_unref_slow(bridge_task_t *task) {
  while (task) {
    /* A reference is only ever added by a holder of another one (a task
     * creating a child, or the child's creator recording it), so the
     * holder of the only reference needs no read-modify-write: the
     * acquire load orders the others' earlier releases before the reuse. */
    if (atomic_load_explicit(&task->refs, memory_order_acquire) != 1 &&
        atomic_fetch_sub_explicit(&task->refs, 1, memory_order_acq_rel) != 1)
      return;
    bridge_task_t *parent = task->owns_parent_ref ? task->parent : NULL;
    task_release(task);
    task = parent;
  }
}

/* ---- Scopes ---------------------------------------------------------------
 */

int bridge_scope_grow(bridge_thread_t *t) {
  int cap = t->scope_cap ? 2 * t->scope_cap : BRIDGE_SCOPES_INITIAL;
  bridge_scope_t *s;
  if (t->scopes_in_arena) { /* thread_create's: not the heap's to resize */
    s = malloc((size_t)cap * sizeof *s);
    if (s) {
      memcpy(s, t->scopes, (size_t)t->nscopes * sizeof *s);
      bridge_arena_release(t->scopes);
    }
  } else {
    s = realloc(t->scopes, (size_t)cap * sizeof *s);
  }
  if (!s)
    return 0;
  t->scopes_in_arena = 0;
  t->scopes = s;
  t->scope_cap = cap;
  return 1;
}

void bridge_scope_close_to(bridge_thread_t *t, int depth, const void *codeptr) {
  while (t->nscopes > depth) {
    bridge_scope_t s = t->scopes[--t->nscopes];
    bridge_scope_forget(t, &s);
    bridge_scope_end(t, &s, codeptr ? codeptr : s.codeptr);
  }
}

int bridge_scope_pop(bridge_thread_t *t, int what, int kind, uint64_t arg,
                     int match_arg, bridge_scope_t *out) {
  int base = t->cur ? t->cur->scope_base : 0;
  for (int i = t->nscopes - 1; i >= base; i--) {
    const bridge_scope_t *s = &t->scopes[i];
    if (s->what == what && (kind < 0 || s->kind == kind) &&
        (!match_arg || s->arg == arg)) {
      bridge_scope_close_to(t, i + 1, NULL); /* left open: cancelled */
      bridge_scope_forget(t, &t->scopes[i]);
      if (out)
        *out = t->scopes[i];
      t->nscopes = i;
      return 1;
    }
  }
  return 0;
}

int bridge_scope_pop_seq(bridge_thread_t *t, int what, uint32_t seq,
                         bridge_scope_t *out) {
  int base = t->cur ? t->cur->scope_base : 0;
  for (int i = t->nscopes - 1; i >= base; i--) {
    const bridge_scope_t *s = &t->scopes[i];
    if (s->what == what && s->seq == seq) {
      bridge_scope_close_to(t, i + 1, NULL); /* left open: cancelled */
      bridge_scope_forget(t, &t->scopes[i]);
      *out = t->scopes[i];
      t->nscopes = i;
      return 1;
    }
  }
  return 0;
}

/* ---- The initial thread and task ------------------------------------------
 */

static void start_initial_task(bridge_thread_t *t, ompt_data_t *region) {
  bridge_task_t *task = bridge_task_alloc(t);
  if (!task)
    return;
  task->flags = ompt_task_initial;
  task->parallel_data = region;
  task->thread_num = 0;
  task->team_size = 1;
  task->announced = 1;
  bridge_task_push_as(t, task, ompt_state_work_serial);
  bridge_set_state(t, ompt_state_work_serial, 0);
  ompt_callback_implicit_task_t cb =
      BRIDGE_ACTIVE(BRIDGE_B_ALWAYS, implicit_task);
  if (cb)
    cb(ompt_scope_begin, region, &task->task_data, 1, 1, ompt_task_initial);
}

void bridge_thread_start_initial(void) {
  atomic_store(&exits_end_themselves, 1);
  bridge_thread_t *t = bridge_thread_self();
  if (!t || t->cur)
    return;
  start_initial_task(t, &bridge_initial_parallel_data);
}

/* ---- The end of a thread ---------------------------------------------------
 */

static void thread_end(bridge_thread_t *t) {
  int was = 0;
  if (!atomic_compare_exchange_strong(&t->ended, &was, 1))
    return;
  bridge_thread_flush(t);
  /* Whatever is still running on the thread ends with it: tasks and regions
   * whose end events never came (a cancelled construct). */
  bridge_unwind_tasks(t, NULL);
  bridge_task_t *task = t->cur;
  if (task && (task->flags & ompt_task_initial)) {
    bridge_scope_close_to(t, task->scope_base, NULL);
    if (t == bridge_self && POMPT_lane_v2.depth > task->lane_base)
      bridge_lane_unwind(task);
    ompt_callback_implicit_task_t icb =
        BRIDGE_ACTIVE(BRIDGE_B_ALWAYS, implicit_task);
    if (icb)
      /* The initial region outlives its task: its data can be passed (a
       * tool may free what it keeps there now). */
      icb(ompt_scope_end, task->parallel_data, &task->task_data, 0, 1,
          ompt_task_initial);
    bridge_deps_release(t, task);
    bridge_task_pop(t, task);
    __atomic_store_n(&task->status, BRIDGE_TASK_DONE, __ATOMIC_RELEASE);
    bridge_task_unref(task);
  }
  bridge_scope_close_to(t, 0, NULL);
  ompt_callback_thread_end_t cb = BRIDGE_ACTIVE(BRIDGE_B_ALWAYS, thread_end);
  if (cb)
    cb(&t->thread_data);
  bridge_set_state(t, ompt_state_undefined, 0);
}

static void end_own_thread(void *arg) {
  bridge_thread_t *t = bridge_self;
  if (t && t != (bridge_thread_t *)arg)
    thread_end(t);
}

static void await_exiting_threads(const bridge_thread_t *me, int after_team);

void bridge_threads_end_all(void) {
  bridge_thread_t *me = bridge_self;
  /* exit() called inside a parallel region: the other threads of the team
   * are still inside it (or waiting for this thread at its barrier) and may
   * be delivering callbacks of their own.  Their tasks cannot be unwound
   * from here without interleaving their callbacks with this thread's, so
   * they get only their thread_end, as after fork. */
  if (omp_in_parallel && omp_in_parallel()) {
    for (bridge_thread_t *t = atomic_load(&registry); t; t = t->next) {
      int alive = 0;
      if (t != me)
        atomic_compare_exchange_strong(&t->ended, &alive, BRIDGE_THREAD_GONE);
    }
  } else {
    await_exiting_threads(me, 0);
  }
  int workers = 0;
  for (bridge_thread_t *t = atomic_load(&registry); t; t = t->next)
    if (t != me && !atomic_load(&t->ended))
      workers++;
  /* A tool keeps per-thread state in thread-local storage and expects a
   * thread's last callbacks on that thread.  libgomp never stops its pool
   * threads, so one last team of the pool's size lets each worker end
   * itself.  Threads that team does not reach (inner pools of nested
   * regions) are ended from here. */
  void (*gomp_parallel)(void (*)(void *), void *, unsigned, unsigned) =
      bridge_gomp_parallel_real();
  if (workers > 0 && gomp_parallel && !(omp_in_parallel && omp_in_parallel())) {
    gomp_parallel(end_own_thread, me, (unsigned)workers + 1, 0);
    /* What that team did not reach of the pool is on its way out. */
    await_exiting_threads(me, 1);
  }
  /* From here on the threads left are ended from this one. */
  atomic_store(&exits_end_themselves, 0);
  /* Workers first, so that the initial thread ends last, as at a native
   * runtime's shutdown. */
  for (bridge_thread_t *t = atomic_load(&registry); t; t = t->next) {
    int gone = BRIDGE_THREAD_GONE;
    if (t != me && atomic_compare_exchange_strong(&t->ended, &gone, 1)) {
      ompt_callback_thread_end_t cb =
          BRIDGE_ACTIVE(BRIDGE_B_ALWAYS, thread_end);
      if (cb)
        cb(&t->thread_data);
    } else if (t != me) {
      thread_end(t);
    }
  }
  if (me)
    thread_end(me);
}

/* Threads that libgomp let go after their last region (surplus pool
 * threads, threads of nested teams) end themselves in on_thread_exit, on
 * their own thread, as a tool expects; the program may exit before they
 * got there.  Such a thread left its implicit task (its barrier's end is
 * pending) and is running or runnable: wait for it, a bounded time, also
 * while it delivers its last callbacks (ended, still running).  Threads
 * asleep are docked in a pool nobody starts again (or blocked elsewhere)
 * and are ended by the caller. */
#define EXIT_WAIT_US 1000
#define EXIT_WAIT_MAX_US 2000000

/* (After the pool's last team, a worker it did not reach that still runs
 * is on its way out too: with a place list libgomp may start a new thread
 * for a number rather than move a docked one whose place does not fit,
 * and lets that one go.  Asleep, it is ended from here.)
 *
 * A worker of me's pool whose place a newer thread took: libgomp let it go
 * when a smaller team started (the threads past its size) and gave the
 * place to a new thread when a larger one followed, so the size of the
 * pool's last team cannot tell it from a docked one.  Newer threads come
 * first in the registry.  (Ended from the finalising thread, its last
 * callbacks came from there when it had not ended itself by then:
 * legacy-abi-4t under load.)  Asked only once the pool's last team has
 * ended every thread it reached: with a place list (OMP_PLACES,
 * OMP_PROC_BIND) libgomp moves pool threads between numbers to match
 * places and may keep such a thread docked, which that team reaches. */
static int superseded(const bridge_thread_t *t, const bridge_thread_t *me) {
  int num = __atomic_load_n(&t->pool_num, __ATOMIC_RELAXED);
  for (bridge_thread_t *u = atomic_load(&registry); u && u != t; u = u->next)
    if (__atomic_load_n(&u->pool_primary, __ATOMIC_RELAXED) == me &&
        __atomic_load_n(&u->pool_num, __ATOMIC_RELAXED) == num)
      return 1;
  return 0;
}

static int exiting(const bridge_thread_t *t, const bridge_thread_t *me,
                   int after_team) {
  int ended = atomic_load(&t->ended);
  if (ended == 1) /* thread_end sets the state undefined when done */
    return bridge_get_state(t, NULL) != ompt_state_undefined;
  /* Released by libgomp with its pool (a target region's host fallback):
   * on its way out, maybe asleep on a lock of its exit. */
  if (atomic_load_explicit(&t->leaving, memory_order_relaxed))
    return ended == 0;
  /* Docked in the finalising thread's pool, which keeps it: runnable while
   * it spins (an active wait policy), but never on its way out.  Past the
   * pool's last team, libgomp released it: it is on its way out whatever
   * the kernel says of it at this moment (asleep on a lock of its own
   * exit, say; ended from here, its last callbacks would come from this
   * thread).  Another initial thread's pool (a pthread's) goes when that
   * thread exits, its workers with it: those are waited for. */
  if (me && __atomic_load_n(&t->pool_primary, __ATOMIC_RELAXED) == me)
    return (__atomic_load_n(&t->pool_num, __ATOMIC_RELAXED) >=
                __atomic_load_n(&me->pool_size, __ATOMIC_RELAXED) ||
            (after_team &&
             (superseded(t, me) || bridge_os_thread_runnable(t->tid)))) &&
           ended == 0;
  return ended == 0 && __atomic_load_n(&t->pending, __ATOMIC_RELAXED) &&
         bridge_os_thread_runnable(t->tid);
}

/* How many threads but me are still exiting; with stop_at_one, whether
 * any is (the polls need no more, and each asks the kernel). */
static int count_exiting(const bridge_thread_t *me, int stop_at_one,
                         int after_team) {
  int n = 0;
  for (bridge_thread_t *t = atomic_load(&registry); t && !(stop_at_one && n);
       t = t->next)
    n += t != me && exiting(t, me, after_team);
  return n;
}

/* after_team: the pool's last team has run (superseded). */
static void await_exiting_threads(const bridge_thread_t *me, int after_team) {
  long waited = 0;
  while (count_exiting(me, 1, after_team) && waited < EXIT_WAIT_MAX_US) {
    bridge_os_sleep_us(EXIT_WAIT_US);
    waited += EXIT_WAIT_US;
  }
  if (waited >= EXIT_WAIT_MAX_US) {
    int left = count_exiting(me, 0, after_team);
    if (left)
      bridge_log("finalisation: gave up waiting for %d exiting thread(s) "
                 "after %d ms",
                 left, EXIT_WAIT_MAX_US / 1000);
  }
}
