/*
 * tls_exit_tool.c -- an OMPT tool that keeps per-thread state with a
 * thread-local destructor, as a C++ tool's thread_local objects have one
 * (registered with __cxa_thread_atexit_impl, which is what g++ and clang++
 * generate for them), and counts the callbacks that reach a thread after
 * that destructor ran: a tool written in C++ would touch destroyed objects
 * there.  glibc runs those destructors before a thread's pthread key
 * destructors, so a thread's last callbacks must come before either.
 *
 * The process's main thread is left out: exit() runs its destructors
 * before any atexit handler or library destructor, where runtimes finalize
 * the tool (libomp too), so its last callbacks come after them on every
 * runtime.
 *
 * At finalize it prints
 *   tls_exit_tool: late=L destroyed=D thread_begin=B thread_end=E
 * L callbacks after their thread's destructor, D destructors run before
 * finalize (threads that exited), B and E thread_begin and thread_end.
 */
#define _GNU_SOURCE
#include <omp-tools.h>
#include <stdatomic.h>
#include <stdio.h>
#include <unistd.h>

int __cxa_thread_atexit_impl(void (*fn)(void *), void *obj, void *dso);
extern void *__dso_handle;

static __thread int registered, destroyed;
static atomic_int late, destroyed_count, begun, ended;

static void on_tls_destroyed(void *arg) {
  (void)arg;
  destroyed = 1;
  atomic_fetch_add(&destroyed_count, 1);
}

/* Every callback: the thread's state, made at its first callback. */
static void touch(void) {
  if (destroyed && gettid() != getpid()) {
    atomic_fetch_add(&late, 1);
    return;
  }
  if (!registered) {
    registered = 1;
    __cxa_thread_atexit_impl(on_tls_destroyed, NULL, &__dso_handle);
  }
}

static void on_thread_begin(ompt_thread_t type, ompt_data_t *data) {
  (void)type, (void)data;
  atomic_fetch_add(&begun, 1);
  touch();
}

static void on_thread_end(ompt_data_t *data) {
  (void)data;
  atomic_fetch_add(&ended, 1);
  touch();
}

static void on_implicit_task(ompt_scope_endpoint_t ep, ompt_data_t *pd,
                             ompt_data_t *td, unsigned n, unsigned index,
                             int flags) {
  (void)ep, (void)pd, (void)td, (void)n, (void)index, (void)flags;
  touch();
}

static void on_sync_region(ompt_sync_region_t kind, ompt_scope_endpoint_t ep,
                           ompt_data_t *pd, ompt_data_t *td,
                           const void *codeptr) {
  (void)kind, (void)ep, (void)pd, (void)td, (void)codeptr;
  touch();
}

static int initialize(ompt_function_lookup_t lookup, int device,
                      ompt_data_t *data) {
  (void)device, (void)data;
  ompt_set_callback_t set = (ompt_set_callback_t)lookup("ompt_set_callback");
  if (!set)
    return 0;
  set(ompt_callback_thread_begin, (ompt_callback_t)on_thread_begin);
  set(ompt_callback_thread_end, (ompt_callback_t)on_thread_end);
  set(ompt_callback_implicit_task, (ompt_callback_t)on_implicit_task);
  set(ompt_callback_sync_region, (ompt_callback_t)on_sync_region);
  set(ompt_callback_sync_region_wait, (ompt_callback_t)on_sync_region);
  return 1;
}

static void finalize(ompt_data_t *data) {
  (void)data;
  printf("tls_exit_tool: late=%d destroyed=%d thread_begin=%d thread_end=%d\n",
         atomic_load(&late), atomic_load(&destroyed_count),
         atomic_load(&begun), atomic_load(&ended));
  fflush(stdout);
}

ompt_start_tool_result_t *ompt_start_tool(unsigned int version,
                                          const char *runtime) {
  (void)version, (void)runtime;
  static ompt_start_tool_result_t result = {initialize, finalize, {0}};
  return &result;
}
