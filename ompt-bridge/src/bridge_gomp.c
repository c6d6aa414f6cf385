/*
 * bridge_gomp.c -- libgomp's entry for a parallel region, interposed so that
 * parallel_begin reaches the tool at the moment the region starts.
 *
 * (and GOMP_task, for task_create: libgomp calls the program's copy function
 * for the task's firstprivate data inside it).
 *
 * Instrumented code reports a parallel region just before the construct, but
 * GCC writes the region's shared-data block after that, right before it calls
 * GOMP_parallel.  A tool that orders memory through OMPT (LLVM's Archer
 * makes parallel_begin a happens-before edge for ThreadSanitizer) must see
 * parallel_begin after those writes.  When the program's GOMP_parallel
 * resolves to this one (libpompt comes before libgomp in the lookup order,
 * which is how pomp-link links), the callback is held back until here;
 * otherwise it is delivered at the construct, as before.  Definitions are
 * weak so that a static link against libgomp.a keeps libgomp's.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>

#include "bridge.h"
#include "bridge_internal.h"

typedef void (*gomp_parallel_t)(void (*)(void *), void *, unsigned, unsigned);

#ifdef POMPT_STATIC_LIB
/* The static library interposes nothing: in a static link the program's
 * GOMP_parallel must be libgomp.a's, and there is no RTLD_NEXT. */
int bridge_fork_deferred;
extern void GOMP_parallel(void (*)(void *), void *, unsigned, unsigned)
    __attribute__((weak));

void bridge_gomp_setup(void) {
  bridge_fork_deferred = 0;
}

gomp_parallel_t bridge_gomp_parallel_real(void) {
  return GOMP_parallel;
}

extern void GOMP_task(void) __attribute__((weak));
int bridge_have_gomp_task(void) {
  return GOMP_task != 0;
}
#else
typedef unsigned (*gomp_parallel_reductions_t)(void (*)(void *), void *,
                                               unsigned, unsigned);

static gomp_parallel_t real_parallel;
static gomp_parallel_reductions_t real_parallel_reductions;
int bridge_fork_deferred;

#define EXPORT __attribute__((visibility("default"), weak))

typedef void (*gomp_task_t)(void (*)(void *), void *, void (*)(void *, void *),
                            long, long, _Bool, unsigned, void **, int, void *);
static gomp_task_t real_task;
/* The program's copy function for the task being created on this thread. */
static __thread void (*user_cpyfn)(void *, void *);

/* libgomp calls the copy function once, on the creating thread, after it
 * allocated the task and before it queues or runs it: the place where the
 * task's data exists and nothing has read it yet. */
static void copy_then_create(void *dst, void *src) {
  user_cpyfn(dst, src);
  bridge_thread_t *t = bridge_thread_peek();
  if (t)
    bridge_create_deliver(t);
}

/* Called only if the program calls GOMP_ entries while libgomp is not
 * loaded (a link that dropped it): nothing can run the region. */
static void no_libgomp(void) {
  fprintf(stderr, "pompt: the program calls libgomp's GOMP_parallel but "
                  "libgomp is not loaded; link with -fopenmp (pomp-link "
                  "does) \n");
  abort();
}

EXPORT void GOMP_parallel(void (*fn)(void *), void *data, unsigned num_threads,
                          unsigned flags) {
  bridge_thread_t *t = bridge_thread_peek();
  if (t && t->fork_pending)
    bridge_fork_deliver(t);
  if (!real_parallel &&
      !(real_parallel = (gomp_parallel_t)dlsym(RTLD_NEXT, "GOMP_parallel")))
    no_libgomp();
  real_parallel(fn, data, num_threads, flags);
}

EXPORT unsigned GOMP_parallel_reductions(void (*fn)(void *), void *data,
                                         unsigned num_threads,
                                         unsigned flags) {
  bridge_thread_t *t = bridge_thread_peek();
  if (t && t->fork_pending)
    bridge_fork_deliver(t);
  if (!real_parallel_reductions &&
      !(real_parallel_reductions = (gomp_parallel_reductions_t)dlsym(
            RTLD_NEXT, "GOMP_parallel_reductions")))
    no_libgomp();
  return real_parallel_reductions(fn, data, num_threads, flags);
}

EXPORT void GOMP_task(void (*fn)(void *), void *data,
                      void (*cpyfn)(void *, void *), long arg_size,
                      long arg_align, _Bool if_clause, unsigned flags,
                      void **depend, int priority, void *detach) {
  bridge_thread_t *t = bridge_thread_peek();
  if (t && t->create_pending.rec) {
    if (cpyfn) {
      user_cpyfn = cpyfn;
      cpyfn = copy_then_create;
    } else {
      /* libgomp copies with memcpy: no instrumented access to order. */
      bridge_create_deliver(t);
    }
  }
  if (!real_task &&
      !(real_task = (gomp_task_t)dlsym(RTLD_NEXT, "GOMP_task")))
    no_libgomp();
  real_task(fn, data, cpyfn, arg_size, arg_align, if_clause, flags, depend,
            priority, detach);
}

void bridge_gomp_setup(void) {
  real_task = (gomp_task_t)dlsym(RTLD_NEXT, "GOMP_task");
  real_parallel = (gomp_parallel_t)dlsym(RTLD_NEXT, "GOMP_parallel");
  real_parallel_reductions = (gomp_parallel_reductions_t)dlsym(
      RTLD_NEXT, "GOMP_parallel_reductions");
  /* Defer only when the program's calls come here and can go on. */
  bridge_fork_deferred =
      real_parallel && real_parallel_reductions && real_task &&
      dlsym(RTLD_DEFAULT, "GOMP_task") == (void *)GOMP_task &&
      dlsym(RTLD_DEFAULT, "GOMP_parallel") == (void *)GOMP_parallel &&
      dlsym(RTLD_DEFAULT, "GOMP_parallel_reductions") ==
          (void *)GOMP_parallel_reductions;
  bridge_log("parallel_begin and task_create delivered %s",
             bridge_fork_deferred ? "when libgomp starts the region or task"
                                  : "at the construct");
}

gomp_parallel_t bridge_gomp_parallel_real(void) {
  return real_parallel;
}

int bridge_have_gomp_task(void) {
  /* Looked up once, in bridge_gomp_setup, at load time. */
  return real_task != 0;
}
#endif /* POMPT_STATIC_LIB */
