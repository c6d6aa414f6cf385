/*
 * bridge_doacross.c -- the cross-iteration dependences of doacross loops
 * (`for ordered(n)` with stand-alone `ordered depend(sink: ...)` /
 * `ordered depend(source)`), reported as OpenMP 5.2 and LLVM's libomp do:
 * ompt_callback_dependences(task, deps, n) for the thread's current
 * (implicit) task, one item per dimension of the loop nest,
 * ompt_dependence_type_source for `depend(source)` and
 * ompt_dependence_type_sink for each `depend(sink: vec)`, the iteration
 * vector in variable.value.
 *
 * A stand-alone ordered directive has no block and no POMP event, so the
 * calls GCC makes for it are interposed:
 *  - GOMP_loop[_ull]_doacross_{static,dynamic,guided,runtime}_start and
 *    GOMP_loop[_ull]_doacross_start begin the loop; they tell the number
 *    of dimensions (ncounts) and nothing else is kept of them;
 *  - GOMP_doacross[_ull]_post(counts) for depend(source): the source is
 *    reported before libgomp marks the iteration done (as libomp does);
 *  - GOMP_doacross[_ull]_wait(first, ...) for each depend(sink), variadic
 *    with ncounts values: the sink is reported after the wait, when the
 *    dependence is satisfied (as libomp does).
 * The values are what GCC passes libgomp: each dimension's logical
 * iteration number (0 for the loop's first iteration, whatever its bounds
 * and step), which is libomp's convention too (kmp_csupport.cpp normalises
 * the user's values so).  Under collapse(c) GCC makes the c outer loops
 * one dimension, numbered in their collapsed order.  GCC's code leaves
 * out sinks outside the iteration space, which libomp skips too, but for
 * one before an unsigned loop's first iteration, whose wrapped-around
 * (negative) number is not reported either.  Unlike
 * libomp, which reports nothing for a team of one (it ignores doacross
 * there), libpompt reports the dependences of every team.
 *
 * The wait's values must be forwarded to libgomp, which reads ncounts of
 * them.  A C function cannot pass its variadic arguments on, so this one
 * reads exactly ncounts and calls libgomp's with DOACROSS_MAX values (the
 * unused ones 0: trailing variadic arguments a callee does not read are
 * harmless in the SysV ABIs).  A deeper nest (beyond DOACROSS_MAX loops)
 * is forwarded exactly with GCC's __builtin_apply and reported once as not
 * observed, without events.  ncounts is kept per thread and per nesting
 * level of parallel regions (a doacross loop can contain another one only
 * inside a nested region, and its post and waits run at its start's
 * level).
 *
 * Nothing is delivered unless the tool registered ompt_callback_dependences
 * and the Task group is on (the callback's group, as for the dependences
 * of tasks), nor while POMP_Off is in effect.  With no tool a post costs a
 * load and a branch before a tail call of libgomp's; a start also keeps
 * ncounts (omp_get_level and a store), a wait reads its level's ncounts
 * and its values and passes them on.  The static library defines the
 * entries as __wrap_GOMP_<x> (bridge_gomp_entry.h).
 */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "bridge.h"
#include "bridge_gomp_entry.h"
#include "bridge_internal.h"
#include "bridge_omp.h"

/* The deepest loop nest whose waits are forwarded by a plain call and
 * whose dependences are reported. */
#define DOACROSS_MAX 16
/* Nesting levels of parallel regions told apart (deeper ones share). */
#define DOACROSS_LEVELS 8

typedef unsigned long long ull;
typedef uintptr_t uptr;

/* ncounts of the doacross loop this thread runs, per nesting level; 0
 * before any. */
static __thread uint32_t loop_depth[DOACROSS_LEVELS]
    __attribute__((tls_model("initial-exec")));

static inline uint32_t *depth_slot(void) {
  int level = omp_get_level ? omp_get_level() : 0;
  return &loop_depth[(unsigned)level % DOACROSS_LEVELS];
}

static inline bool wanted(void) {
  return bridge_wants(BRIDGE_B_TASK_EE, ompt_callback_dependences);
}

/* A loop nest too deep to report: said once. */
static void too_deep(uint32_t n) {
  static atomic_int said;
  if (!atomic_exchange(&said, 1))
    fprintf(stderr,
            "pompt: a doacross loop nest of depth %u (more than %d): the "
            "dependences of such loops are not reported\n",
            n, DOACROSS_MAX);
}

/* Deliver dependences(current task, n items of type with values v). */
static void deliver(ompt_dependence_type_t type, const uint64_t *v, uint32_t n,
                    void *frame) {
  ompt_callback_dependences_t cb = BRIDGE_ACTIVE(BRIDGE_B_TASK_EE, dependences);
  if (!cb || n == 0 || n > DOACROSS_MAX)
    return;
  bridge_thread_t *t = bridge_thread_peek();
  if (!t)
    return; /* no event yet: not in a region the tool was told of */
  bridge_task_t *cur = t->cur;
  if (cur && cur == t->pending) { /* a worker's late barrier end first */
    bridge_thread_flush(t);
    cur = t->cur;
  }
  /* A task this frame lies above was left by a cancellation: its end is
   * the next POMP event's to deliver; name no task meanwhile. */
  if (!cur || !cur->announced ||
      (cur->begin_frame && (uintptr_t)frame > (uintptr_t)cur->begin_frame))
    return;
  ompt_dependence_t deps[DOACROSS_MAX];
  for (uint32_t i = 0; i < n; i++) {
    /* A sink before the first iteration (GCC passes the unsigned loops'
     * wrapped around): outside the iteration space, not a dependence. */
    if ((int64_t)v[i] < 0)
      return;
    deps[i].variable.value = v[i];
    deps[i].dependence_type = type;
  }
  cb(&cur->task_data, deps, (int)n);
}

/* ---- The loop starts: keep ncounts ------------------------------------- */

static inline void started(unsigned ncounts) {
  *depth_slot() = ncounts;
  if (__builtin_expect(ncounts > DOACROSS_MAX, 0))
    too_deep(ncounts);
}

/* libgomp's entry; a program calling it without libgomp loaded cannot go
 * on (as bridge_gomp.c).  Looked up on every call of the rare starts and
 * once for post and wait. */
#define REAL(name, type) ((type)GOMP_REAL_CHECKED(name))

/* One start entry: name, its parameters and arguments. */
#define DOACROSS_START(name, params, args)                                     \
  GOMP_REAL_DECL(name);                                                        \
  typedef bool(*name##_t) params;                                              \
  static name##_t real_##name;                                                 \
  GOMP_EXPORT bool GOMP_ENTRY(name) params {                                   \
    name##_t real = real_##name;                                               \
    if (__builtin_expect(!real, 0))                                            \
      real = real_##name = REAL(name, name##_t);                               \
    started(nc);                                                               \
    return real args;                                                          \
  }

#define START_C(name, T)                                                       \
  DOACROSS_START(name, (unsigned nc, T *counts, T ch, T *is, T *ie),           \
                 (nc, counts, ch, is, ie))
#define START_R(name, T)                                                       \
  DOACROSS_START(name, (unsigned nc, T *counts, T *is, T *ie),                 \
                 (nc, counts, is, ie))
#define START_5(name, T)                                                       \
  DOACROSS_START(name,                                                         \
                 (unsigned nc, T *counts, long sched, T ch, T *is, T *ie,      \
                  uptr *red, void **mem),                                      \
                 (nc, counts, sched, ch, is, ie, red, mem))

START_C(GOMP_loop_doacross_static_start, long)
START_C(GOMP_loop_doacross_dynamic_start, long)
START_C(GOMP_loop_doacross_guided_start, long)
START_R(GOMP_loop_doacross_runtime_start, long)
START_5(GOMP_loop_doacross_start, long)
START_C(GOMP_loop_ull_doacross_static_start, ull)
START_C(GOMP_loop_ull_doacross_dynamic_start, ull)
START_C(GOMP_loop_ull_doacross_guided_start, ull)
START_R(GOMP_loop_ull_doacross_runtime_start, ull)
START_5(GOMP_loop_ull_doacross_start, ull)

/* ---- depend(source) ---------------------------------------------------- */

#define DOACROSS_POST(name, T)                                                 \
  GOMP_REAL_DECL(name);                                                        \
  typedef void (*name##_t)(T *);                                               \
  static name##_t real_##name;                                                 \
  static __attribute__((noinline)) void name##_slow(T *counts, void *frame) {  \
    if (!real_##name)                                                          \
      real_##name = REAL(name, name##_t);                                      \
    uint32_t n = *depth_slot();                                                \
    if (n && n <= DOACROSS_MAX) {                                              \
      uint64_t v[DOACROSS_MAX];                                                \
      for (uint32_t i = 0; i < n; i++)                                         \
        v[i] = (uint64_t)counts[i];                                            \
      deliver(ompt_dependence_type_source, v, n, frame);                       \
    }                                                                          \
    real_##name(counts);                                                       \
  }                                                                            \
  GOMP_EXPORT void GOMP_ENTRY(name)(T * counts) {                              \
    name##_t real = real_##name;                                               \
    if (__builtin_expect(!real || wanted(), 0)) {                              \
      name##_slow(counts, BRIDGE_FRAME());                                     \
      return;                                                                  \
    }                                                                          \
    real(counts);                                                              \
  }

DOACROSS_POST(GOMP_doacross_post, long)
DOACROSS_POST(GOMP_doacross_ull_post, ull)

/* ---- depend(sink: vec) ------------------------------------------------- */

/* Calls real with v[0..DOACROSS_MAX): the wait reads what it needs. */
#define FORWARD16(real, v)                                                     \
  real(v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7], v[8], v[9], v[10],      \
       v[11], v[12], v[13], v[14], v[15])
_Static_assert(DOACROSS_MAX == 16, "FORWARD16 passes DOACROSS_MAX values");

#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__)
/* The caller's arguments passed on unchanged: nstack stack words after the
 * six register arguments. */
#define FORWARD_ALL(real, nstack)                                              \
  __builtin_apply((void (*)())(real), __builtin_apply_args(),                  \
                  (size_t)(nstack) * sizeof(long))
#endif

/* The wait's work with a tool active, or before libgomp's entry is known
 * (name##_observed, under an assembler name the fast path below jumps to). */
#define DOACROSS_WAIT(name, T)                                                 \
  GOMP_REAL_DECL(name);                                                        \
  typedef void (*name##_t)(T, ...);                                            \
  static name##_t real_##name;                                                 \
  static __attribute__((noinline, cold)) void name##_deep(uint32_t n) {        \
    too_deep(n);                                                               \
  }                                                                            \
  void name##_observed(T first, ...) __asm__("bridge_" #name "_observed");     \
  __attribute__((noinline, used)) void name##_observed(T first, ...) {         \
    name##_t real = real_##name;                                               \
    if (__builtin_expect(!real, 0))                                            \
      real = real_##name = REAL(name, name##_t);                               \
    uint32_t n = *depth_slot();                                                \
    if (__builtin_expect(n > DOACROSS_MAX, 0)) {                               \
      name##_deep(n);                                                          \
      WAIT_DEEP(real, n);                                                      \
      return;                                                                  \
    }                                                                          \
    T v[DOACROSS_MAX] = {first};                                               \
    va_list ap;                                                                \
    va_start(ap, first);                                                       \
    for (uint32_t i = 1; i < n; i++)                                           \
      v[i] = va_arg(ap, T);                                                    \
    va_end(ap);                                                                \
    FORWARD16(real, v);                                                        \
    if (__builtin_expect(wanted(), 0)) {                                       \
      uint64_t u[DOACROSS_MAX];                                                \
      for (uint32_t i = 0; i < n; i++)                                         \
        u[i] = (uint64_t)v[i];                                                 \
      deliver(ompt_dependence_type_sink, u, n, BRIDGE_FRAME());                \
    }                                                                          \
  }                                                                            \
  WAIT_ENTRY(name, T)

#ifdef GOMP_JUMP_ENTRIES
/* Without a tool, a compare and a jump into libgomp: a variadic C entry
 * would save every argument register (the vector ones too) and copy the
 * values on every wait, a third of a tight doacross loop's time. */
#define WAIT_ENTRY(name, T)                                                    \
  GOMP_JUMP_SLOT(name##_t, jump_##name, "bridge_jump_" #name,                  \
                 name##_observed);                                             \
  GOMP_JUMP_ENTRY(GOMP_ENTRY(name), "bridge_jump_" #name,                      \
                  "bridge_" #name "_observed")
#else
/* Elsewhere the entry is the C function itself. */
#define WAIT_ENTRY(name, T)                                                    \
  GOMP_EXPORT void GOMP_ENTRY(name)(T first, ...)                              \
      __attribute__((alias("bridge_" #name "_observed")));
#endif

#ifdef FORWARD_ALL
/* Six integer arguments travel in registers, the rest on the stack. */
#define WAIT_DEEP(real, n) FORWARD_ALL(real, (n) > 6 ? (n)-6 : 0)
#else
/* No way to pass an unknown number of variadic arguments on. */
#define WAIT_DEEP(real, n)                                                     \
  do {                                                                         \
    (void)(real);                                                              \
    fprintf(stderr, "pompt: cannot forward a doacross wait of depth %u\n",     \
            (unsigned)(n));                                                    \
    abort();                                                                   \
  } while (0)
#endif

DOACROSS_WAIT(GOMP_doacross_wait, long)
DOACROSS_WAIT(GOMP_doacross_ull_wait, ull)

/* At load time, when libgomp (a dependency loaded first) is there, so that
 * the fast paths find the entries set and threads of a team do not all set
 * them at once on their first post or wait; lazily otherwise. */
__attribute__((constructor)) static void doacross_setup(void) {
  real_GOMP_doacross_post = (GOMP_doacross_post_t)GOMP_REAL(GOMP_doacross_post);
  real_GOMP_doacross_ull_post =
      (GOMP_doacross_ull_post_t)GOMP_REAL(GOMP_doacross_ull_post);
  real_GOMP_doacross_wait = (GOMP_doacross_wait_t)GOMP_REAL(GOMP_doacross_wait);
  real_GOMP_doacross_ull_wait =
      (GOMP_doacross_ull_wait_t)GOMP_REAL(GOMP_doacross_ull_wait);
#ifdef GOMP_JUMP_ENTRIES
  if (real_GOMP_doacross_wait)
    jump_GOMP_doacross_wait = real_GOMP_doacross_wait;
  if (real_GOMP_doacross_ull_wait)
    jump_GOMP_doacross_ull_wait = real_GOMP_doacross_ull_wait;
#endif
}
