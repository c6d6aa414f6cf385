/*
 * bridge_gomp.c -- libgomp's entry for a parallel region, interposed so that
 * parallel_begin reaches the tool at the moment the region starts.
 *
 * (and GOMP_task, for task_create: libgomp calls the program's copy function
 * for the task's firstprivate data inside it).
 *
 * The parallel regions of distribute parallel for are started by libgomp
 * entries too (GOMP_parallel, or GOMP_parallel_loop_* for a runtime-
 * scheduled loop): between POMP_Distribute_parallel_enter and _exit the
 * regions the thread starts are the construct's parallel leaf, reported
 * around the region's function (its implicit tasks, their share of the
 * loop as work(loop), the region's end barrier) as for an instrumented
 * parallel construct.
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
#include "bridge_runtime.h"

extern int omp_get_max_threads(void) __attribute__((weak));

/* distribute parallel for: the construct whose parallel leaf this thread
 * starts next (codeptr NULL: none). */
static __thread struct {
  const void *codeptr;
  int loop_work;
} leaf __attribute__((tls_model("initial-exec")));

void bridge_distribute_parallel_enter(int loop_work, const void *codeptr) {
  leaf.codeptr = codeptr;
  leaf.loop_work = loop_work;
}

void bridge_distribute_parallel_exit(void) {
  leaf.codeptr = NULL;
}

typedef void (*gomp_parallel_t)(void (*)(void *), void *, unsigned, unsigned);

#ifdef POMPT_STATIC_LIB
/* The static library interposes nothing: in a static link the program's
 * GOMP_parallel must be libgomp.a's, and there is no RTLD_NEXT. */
int bridge_fork_deferred;
extern void GOMP_parallel(void (*)(void *), void *, unsigned, unsigned)
    __attribute__((weak));

void bridge_gomp_setup(void) {
  bridge_fork_deferred = 0;
  bridge_taskloop_setup();
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

/* ---- The parallel leaf of distribute parallel for ------------------------ */

typedef struct leaf_region {
  void (*fn)(void *);
  void *data;
  POMP_Team_t team;
  const void *codeptr;
  int loop_work;
} leaf_region_t;

/* The region's function on each of its threads: the implicit task, and its
 * share of the loop as the worksharing-loop leaf. */
static void leaf_body(void *arg) {
  leaf_region_t *lr = arg;
  void *frame = __builtin_dwarf_cfa();
  const void *outer = leaf.codeptr; /* a region inside is not the leaf */
  leaf.codeptr = NULL;
  bridge_parallel_begin(&lr->team, frame);
  bridge_work_begin(BRIDGE_B_LOOP_EE, (ompt_work_t)lr->loop_work, 0,
                    lr->codeptr, frame);
  lr->fn(lr->data);
  bridge_work_end(BRIDGE_B_LOOP_EE, (ompt_work_t)lr->loop_work, lr->codeptr,
                  frame);
  bridge_parallel_end(&lr->team, lr->codeptr, frame);
  leaf.codeptr = outer;
  __asm__ __volatile__(""); /* keep this frame until the end */
}

/* Whether this call starts a leaf region to report (then *lr is set up and
 * parallel_begin delivered). */
static int leaf_begin(leaf_region_t *lr, void (*fn)(void *), void *data,
                      unsigned num_threads, void *frame) {
  bridge_thread_t *t = bridge_thread_peek();
  if (!leaf.codeptr || !bridge_active || (t && t->fork_pending))
    return 0;
  lr->fn = fn;
  lr->data = data;
  lr->codeptr = leaf.codeptr;
  lr->loop_work = leaf.loop_work;
  /* GCC passes 1 for if(false), 0 for the default team size. */
  int requested = num_threads           ? (int)num_threads
                  : omp_get_max_threads ? omp_get_max_threads()
                                        : 1;
  bridge_parallel_enter(&lr->team, requested, 0, lr->codeptr, frame);
  t = bridge_thread_peek();
  if (t && t->fork_pending)
    bridge_fork_deliver(t);
  return 1;
}

EXPORT void GOMP_parallel(void (*fn)(void *), void *data, unsigned num_threads,
                          unsigned flags) {
  bridge_thread_t *t = bridge_thread_peek();
  if (t && t->fork_pending)
    bridge_fork_deliver(t);
  if (!real_parallel &&
      !(real_parallel = (gomp_parallel_t)dlsym(RTLD_NEXT, "GOMP_parallel")))
    no_libgomp();
  leaf_region_t lr;
  void *frame = __builtin_dwarf_cfa();
  if (leaf_begin(&lr, fn, data, num_threads, frame)) {
    real_parallel(leaf_body, &lr, num_threads, flags);
    bridge_parallel_exit(&lr.team, lr.codeptr, frame);
    return;
  }
  real_parallel(fn, data, num_threads, flags);
}

/* The combined entries that start a region and its loop's work share (GCC
 * uses them for a runtime-scheduled parallel loop; after instrumentation,
 * only for distribute parallel for). */
typedef void (*gomp_parallel_loop_t)(void (*)(void *), void *, unsigned, long,
                                     long, long, long, unsigned);
typedef void (*gomp_parallel_loop_rt_t)(void (*)(void *), void *, unsigned,
                                        long, long, long, unsigned);
#define PARALLEL_LOOP(name)                                                    \
  static gomp_parallel_loop_t real_##name;                                     \
  EXPORT void name(void (*fn)(void *), void *data, unsigned nt, long s,        \
                   long e, long i, long ch, unsigned flags) {                  \
    if (!real_##name &&                                                        \
        !(real_##name = (gomp_parallel_loop_t)dlsym(RTLD_NEXT, #name)))        \
      no_libgomp();                                                            \
    leaf_region_t lr;                                                          \
    void *frame = __builtin_dwarf_cfa();                                       \
    if (leaf_begin(&lr, fn, data, nt, frame)) {                                \
      real_##name(leaf_body, &lr, nt, s, e, i, ch, flags);                     \
      bridge_parallel_exit(&lr.team, lr.codeptr, frame);                       \
      return;                                                                  \
    }                                                                          \
    real_##name(fn, data, nt, s, e, i, ch, flags);                             \
  }
#define PARALLEL_LOOP_RT(name)                                                 \
  static gomp_parallel_loop_rt_t real_##name;                                  \
  EXPORT void name(void (*fn)(void *), void *data, unsigned nt, long s,        \
                   long e, long i, unsigned flags) {                           \
    if (!real_##name &&                                                        \
        !(real_##name = (gomp_parallel_loop_rt_t)dlsym(RTLD_NEXT, #name)))     \
      no_libgomp();                                                            \
    leaf_region_t lr;                                                          \
    void *frame = __builtin_dwarf_cfa();                                       \
    if (leaf_begin(&lr, fn, data, nt, frame)) {                                \
      real_##name(leaf_body, &lr, nt, s, e, i, flags);                         \
      bridge_parallel_exit(&lr.team, lr.codeptr, frame);                       \
      return;                                                                  \
    }                                                                          \
    real_##name(fn, data, nt, s, e, i, flags);                                 \
  }
PARALLEL_LOOP(GOMP_parallel_loop_static)
PARALLEL_LOOP(GOMP_parallel_loop_dynamic)
PARALLEL_LOOP(GOMP_parallel_loop_guided)
PARALLEL_LOOP(GOMP_parallel_loop_nonmonotonic_dynamic)
PARALLEL_LOOP(GOMP_parallel_loop_nonmonotonic_guided)
PARALLEL_LOOP_RT(GOMP_parallel_loop_runtime)
PARALLEL_LOOP_RT(GOMP_parallel_loop_nonmonotonic_runtime)
PARALLEL_LOOP_RT(GOMP_parallel_loop_maybe_nonmonotonic_runtime)

EXPORT unsigned GOMP_parallel_reductions(void (*fn)(void *), void *data,
                                         unsigned num_threads, unsigned flags) {
  bridge_thread_t *t = bridge_thread_peek();
  if (t && t->fork_pending)
    bridge_fork_deliver(t);
  if (!real_parallel_reductions &&
      !(real_parallel_reductions = (gomp_parallel_reductions_t)dlsym(
            RTLD_NEXT, "GOMP_parallel_reductions")))
    no_libgomp();
  /* Not a leaf region: libgomp reads the task reductions from the
   * program's data block, which therefore cannot be wrapped. */
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
  if (!real_task && !(real_task = (gomp_task_t)dlsym(RTLD_NEXT, "GOMP_task")))
    no_libgomp();
  real_task(fn, data, cpyfn, arg_size, arg_align, if_clause, flags, depend,
            priority, detach);
}

void bridge_gomp_setup(void) {
  real_task = (gomp_task_t)dlsym(RTLD_NEXT, "GOMP_task");
  real_parallel = (gomp_parallel_t)dlsym(RTLD_NEXT, "GOMP_parallel");
  real_parallel_reductions =
      (gomp_parallel_reductions_t)dlsym(RTLD_NEXT, "GOMP_parallel_reductions");
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
  bridge_taskloop_setup();
}

gomp_parallel_t bridge_gomp_parallel_real(void) {
  return real_parallel;
}

int bridge_have_gomp_task(void) {
  /* Looked up once, in bridge_gomp_setup, at load time. */
  return real_task != 0;
}
#endif /* POMPT_STATIC_LIB */
