/*
 * bridge_thread.c -- thread discovery, the per-thread OMPT record, and the
 * end of threads.
 *
 * OpenMP runtimes without OMPT do not tell anyone when they create a worker,
 * so a thread is discovered at its first POMP event and gets thread_begin
 * then, before anything else.  Records are allocated once per thread, linked
 * into a lock-free registry and never freed, so that finalisation can end
 * threads the runtime never stops (libgomp keeps its pool until exit).
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "bridge.h"
#include "bridge_internal.h"

static __thread bridge_thread_t *self
    __attribute__((tls_model("initial-exec")));
static _Atomic(bridge_thread_t *) registry;
static atomic_int initial_seen;
static pthread_key_t exit_key;
static pthread_once_t exit_key_once = PTHREAD_ONCE_INIT;

ompt_data_t bridge_initial_parallel_data;

static void thread_end(bridge_thread_t *t);

/* pthread key destructor: the thread is exiting on its own. */
static void on_thread_exit(void *arg) {
  bridge_thread_t *t = arg;
  if (t && bridge_active)
    thread_end(t);
}

static void make_exit_key(void) {
  (void)pthread_key_create(&exit_key, on_thread_exit);
}

bridge_thread_t *bridge_thread_peek(void) {
  return self;
}

static bridge_thread_t *thread_create(ompt_thread_t type) {
  bridge_thread_t *t = calloc(1, sizeof *t);
  if (!t)
    return NULL;
  t->type = type;
  t->state = ompt_state_work_serial;
  bridge_thread_t *head = atomic_load(&registry);
  do
    t->next = head;
  while (!atomic_compare_exchange_weak(&registry, &head, t));
  self = t;
  pthread_once(&exit_key_once, make_exit_key);
  (void)pthread_setspecific(exit_key, t);
  ompt_callback_thread_begin_t cb = BRIDGE_CB(thread_begin);
  if (cb)
    cb(type, &t->thread_data);
  return t;
}

bridge_thread_t *bridge_thread_self(void) {
  if (__builtin_expect(self != NULL, 1))
    return self;
  int expected = 0;
  ompt_thread_t type = atomic_compare_exchange_strong(&initial_seen,
                                                      &expected, 1)
                           ? ompt_thread_initial
                           : ompt_thread_worker;
  return thread_create(type);
}

void bridge_thread_start_initial(void) {
  bridge_thread_t *t = bridge_thread_self();
  if (!t || t->depth != 0)
    return;
  bridge_task_t *task = &t->tasks[0];
  memset(task, 0, sizeof *task);
  task->flags = ompt_task_initial;
  task->parallel_data = &bridge_initial_parallel_data;
  task->thread_num = 0;
  task->team_size = 1;
  task->frame.exit_frame.ptr = NULL;
  task->frame.exit_frame_flags = ompt_frame_runtime | ompt_frame_framepointer;
  atomic_signal_fence(memory_order_seq_cst);
  t->depth = 1;
  bridge_set_state(t, ompt_state_work_serial, 0);
  ompt_callback_implicit_task_t cb = BRIDGE_CB(implicit_task);
  if (cb)
    cb(ompt_scope_begin, &bridge_initial_parallel_data, &task->task_data, 1, 1,
       ompt_task_initial);
}

void bridge_thread_flush(bridge_thread_t *t) {
  if (!t->pending_join)
    return;
  t->pending_join = 0;
  bridge_task_t *task = bridge_current_task(t);
  ompt_data_t *task_data = task ? &task->task_data : NULL;
  ompt_callback_sync_region_t wcb =
      BRIDGE_CB_AS(sync_region_wait, ompt_callback_sync_region_t);
  if (wcb)
    wcb(ompt_sync_region_barrier_implicit_parallel, ompt_scope_end, NULL,
        task_data, t->pending_codeptr);
  ompt_callback_sync_region_t scb = BRIDGE_CB(sync_region);
  if (scb)
    scb(ompt_sync_region_barrier_implicit_parallel, ompt_scope_end, NULL,
        task_data, t->pending_codeptr);
  ompt_callback_implicit_task_t icb = BRIDGE_CB(implicit_task);
  if (icb && task)
    icb(ompt_scope_end, NULL, task_data, 0, task->thread_num, task->flags);
  if (t->overflow > 0) {
    t->overflow--;
  } else if (t->depth > 0) {
    t->depth--;
    atomic_signal_fence(memory_order_seq_cst);
  }
  task = bridge_current_task(t);
  bridge_set_state(t,
                   task && !(task->flags & ompt_task_initial)
                       ? ompt_state_work_parallel
                       : (t->type == ompt_thread_initial ? ompt_state_work_serial
                                                         : ompt_state_idle),
                   0);
}

static void thread_end(bridge_thread_t *t) {
  int was = 0;
  if (!atomic_compare_exchange_strong(&t->ended, &was, 1))
    return;
  bridge_thread_flush(t);
  if (t->type == ompt_thread_initial && t->depth > 0) {
    bridge_task_t *task = &t->tasks[0];
    ompt_callback_implicit_task_t icb = BRIDGE_CB(implicit_task);
    if (icb)
      icb(ompt_scope_end, NULL, &task->task_data, 0, 1, ompt_task_initial);
    t->depth = 0;
  }
  ompt_callback_thread_end_t cb = BRIDGE_CB(thread_end);
  if (cb)
    cb(&t->thread_data);
  bridge_set_state(t, ompt_state_undefined, 0);
}

/* libgomp's entry for a parallel region, present when libgomp is the
 * runtime (weak: absent with other runtimes or the serial stubs). */
extern void GOMP_parallel(void (*fn)(void *), void *data, unsigned num_threads,
                          unsigned flags) __attribute__((weak));
extern int omp_in_parallel(void) __attribute__((weak));

static void end_own_thread(void *arg) {
  bridge_thread_t *t = self;
  if (t && t != (bridge_thread_t *)arg)
    thread_end(t);
}

void bridge_threads_end_all(void) {
  bridge_thread_t *me = self;
  int workers = 0;
  for (bridge_thread_t *t = atomic_load(&registry); t; t = t->next)
    if (t != me && !atomic_load(&t->ended))
      workers++;
  /* A tool keeps per-thread state in thread-local storage and expects a
   * thread's last callbacks on that thread.  libgomp never stops its pool
   * threads, so one last team of the pool's size lets each worker end
   * itself.  Threads that team does not reach (inner pools of nested
   * regions) are ended from here. */
  if (workers > 0 && GOMP_parallel && !(omp_in_parallel && omp_in_parallel()))
    GOMP_parallel(end_own_thread, me, (unsigned)workers + 1, 0);
  /* Workers first, so that the initial thread ends last, as at a native
   * runtime's shutdown. */
  for (bridge_thread_t *t = atomic_load(&registry); t; t = t->next)
    if (t != me)
      thread_end(t);
  if (me)
    thread_end(me);
}
