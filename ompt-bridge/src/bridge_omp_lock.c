/*
 * bridge_omp_lock.c -- the OpenMP lock routines, defined by libpompt's
 * shared library so that a tool sees the locks of code pomp-cc did not
 * compile: a library built with plain gcc, a noinstrument range, the host
 * fallback of a target region (whose device code pomp-instr leaves as it
 * is).  pomp-instr rewrites every call in the code it instruments to
 * libpompt's wrappers (POMP_Api_omp_*, pomp_events.c), which report the
 * call and reach the runtime's routine through the slots defined here:
 * such a call never comes here, and nothing is reported twice.
 *
 * Each routine reports what the wrapper of an instrumented call reports
 * (lock_init after the runtime's init, lock_destroy before its destroy,
 * mutex_acquire before a set or test and mutex_acquired or nest_lock after
 * it, mutex_released or nest_lock(end) before an unset), with the call's
 * return address as codeptr_ra and the lock's address as wait id, as a
 * native runtime does.  A set whose acquire a POMP event reported already
 * (POMP_Set_lock_enter, the seed's event around the program's own call:
 * the thread waits for this lock) is left to that event's exit.
 *
 * libgomp's Fortran routines (omp_set_lock_ ...), which gfortran's calls
 * reach, are defined here too.  Without a tool a routine is a load, a
 * compare and a tail call of the runtime's.  The runtime's routines are the
 * next definitions after libpompt's (libgomp's, LLVM's libomp, pompt's serial
 * stubs), looked up at load time, or when the runtime was loaded late
 * (bridge_omp.h); with no runtime at all the serial answers are given (a lock
 * that never blocks). Not in the static library: there the program's calls
 * reach the runtime directly, and only instrumented call sites are reported.
 */
#define _GNU_SOURCE
#include <string.h>

#include "bridge.h"
#include "bridge_gomp_entry.h"
#include "bridge_internal.h"
#include "bridge_omp.h"
#include "bridge_runtime.h"

#ifndef POMPT_STATIC_LIB

/* Where these names are macros (bridge_omp.h), this file defines the
 * routines themselves. */
#undef omp_init_lock
#undef omp_init_lock_with_hint
#undef omp_destroy_lock
#undef omp_set_lock
#undef omp_unset_lock
#undef omp_test_lock
#undef omp_init_nest_lock
#undef omp_init_nest_lock_with_hint
#undef omp_destroy_nest_lock
#undef omp_set_nest_lock
#undef omp_unset_nest_lock
#undef omp_test_nest_lock
#undef omp_fulfill_event

#define SLOT(ret, name, params) ret(*bridge_real_##name) params;
BRIDGE_OMP_LOCKS(SLOT)

/* libgomp's Fortran routines (gfortran's calls: the lock is the address of
 * the program's integer(omp_lock_kind) variable, which is its wait id);
 * libpompt calls none of them itself.  They call libgomp's C routines
 * inside libgomp, past the definitions above. */
#define FORTRAN_LOCKS(X)                                                       \
  X(void, omp_init_lock_, (void *))                                            \
  X(void, omp_destroy_lock_, (void *))                                         \
  X(void, omp_set_lock_, (void *))                                             \
  X(void, omp_unset_lock_, (void *))                                           \
  X(int, omp_test_lock_, (void *))                                             \
  X(void, omp_init_nest_lock_, (void *))                                       \
  X(void, omp_destroy_nest_lock_, (void *))                                    \
  X(void, omp_set_nest_lock_, (void *))                                        \
  X(void, omp_unset_nest_lock_, (void *))                                      \
  X(int, omp_test_nest_lock_, (void *))
#define STATIC_SLOT(ret, name, params) static ret(*bridge_real_##name) params;
FORTRAN_LOCKS(STATIC_SLOT)

static const struct {
  const char *name;
  void (**slot)(void);
} slots[] = {
#define SLOT_ROW(ret, name, params)                                            \
  {#name, (void (**)(void)) & bridge_real_##name},
    BRIDGE_OMP_LOCKS(SLOT_ROW) FORTRAN_LOCKS(SLOT_ROW)};

static void (*lookup(const char *name))(void) {
  void *p = bridge_gomp_real(name);
  void (*fn)(void);
  memcpy(&fn, &p, sizeof fn); /* an object pointer to a function's */
  return fn ? fn : bridge_omp_late(name);
}

/* The runtime's routine name when its slot is still NULL: a runtime loaded
 * since the slots were filled (bridge_gomp_late), kept in the slot once
 * found, as libgomp's entries are (GOMP_REAL_ENSURE); NULL with no
 * runtime. */
void (*bridge_omp_lock_find(const char *name))(void) {
  void (*fn)(void) = lookup(name);
  for (size_t i = 0; fn && i < sizeof slots / sizeof slots[0]; i++)
    if (!strcmp(slots[i].name, name)) {
      *slots[i].slot = fn;
      break;
    }
  return fn;
}

__attribute__((constructor)) static void omp_lock_setup(void) {
  for (size_t i = 0; i < sizeof slots / sizeof slots[0]; i++)
    *slots[i].slot = lookup(slots[i].name);
}

/* Whether this call of a lock routine is to be reported: a tool is active
 * and, for a set or test, no POMP event has put the thread in a wait for
 * this lock already. */
static int reporting(const void *lock, int acquiring) {
  if (!bridge_active)
    return 0;
  if (!acquiring)
    return 1;
  bridge_thread_t *t = bridge_thread_peek();
  if (!t)
    return 1;
  ompt_wait_id_t w = 0;
  int s = bridge_get_state(t, &w);
  return !(s == ompt_state_wait_lock && w == (ompt_wait_id_t)(uintptr_t)lock);
}

typedef void (*lock_fn)(void *);
typedef int (*test_fn)(void *);

/* The routines' bodies past the path without a tool: real is the
 * runtime's routine (NULL: none, the serial answer). */
static __attribute__((noinline)) void init_slow(ompt_mutex_t kind, lock_fn real,
                                                void *l, const void *codeptr,
                                                void *frame) {
  if (real)
    real(l);
  if (reporting(l, 0))
    bridge_lock_init(kind, 0, l, codeptr, frame);
}

static __attribute__((noinline)) void
init_hint_slow(ompt_mutex_t kind, void (*real)(void *, int), lock_fn plain,
               void *l, int hint, const void *codeptr, void *frame) {
  if (real)
    real(l, hint);
  else if (plain)
    plain(l);
  if (reporting(l, 0))
    bridge_lock_init(kind, (unsigned)hint, l, codeptr, frame);
}

/* destroy and unset: reported before the routine, while the lock exists
 * and (unset) the thread still owns it. */
static __attribute__((noinline)) void
report_then(void (*report)(ompt_mutex_t, const void *, const void *, void *),
            ompt_mutex_t kind, lock_fn real, void *l, const void *codeptr,
            void *frame) {
  if (reporting(l, 0))
    report(kind, l, codeptr, frame);
  if (real)
    real(l);
}

static void destroy_slow(ompt_mutex_t kind, lock_fn real, void *l,
                         const void *codeptr, void *frame) {
  report_then(bridge_lock_destroy, kind, real, l, codeptr, frame);
}

static void unset_slow(ompt_mutex_t kind, lock_fn real, void *l,
                       const void *codeptr, void *frame) {
  report_then(bridge_lock_release, kind, real, l, codeptr, frame);
}

/* set and test: mutex_acquire before the routine, mutex_acquired (or
 * nest_lock) after it when the lock was taken: a set always takes it, a
 * test's result says (for a nest lock, the new nesting count).  One of set
 * and test is the routine, NULL with no runtime: a lock that never blocks. */
static __attribute__((noinline)) int acquire_slow(ompt_mutex_t kind,
                                                  lock_fn set, test_fn test,
                                                  void *l, const void *codeptr,
                                                  void *frame) {
  int reported = reporting(l, 1);
  if (reported)
    bridge_lock_acquire(kind, l, codeptr, frame);
  int got = 1;
  if (test)
    got = test(l);
  else if (set)
    set(l);
  if (reported)
    bridge_lock_acquired(kind, l, got != 0,
                         kind == ompt_mutex_test_nest_lock ? got : 0, codeptr,
                         frame);
  return got;
}

static void set_slow(ompt_mutex_t kind, lock_fn real, void *l,
                     const void *codeptr, void *frame) {
  (void)acquire_slow(kind, real, NULL, l, codeptr, frame);
}

/* A routine: without a tool and with the runtime's routine known, a tail
 * call of it; else its body, with the program's call site and frame and
 * the runtime's routine as BRIDGE_OMP_LOCK finds it (bridge_omp.h; the
 * Fortran routines' slots too), NULL with no runtime. */
#define VOID_ROUTINE(name, slow, kind)                                         \
  GOMP_EXPORT void name(void *l) {                                             \
    lock_fn real = bridge_real_##name;                                         \
    if (__builtin_expect(bridge_active || !real, 0)) {                         \
      slow(kind, BRIDGE_OMP_LOCK(name), l,                                     \
           gomp_codeptr(__builtin_return_address(0)), BRIDGE_FRAME());         \
      return;                                                                  \
    }                                                                          \
    real(l);                                                                   \
  }
#define INT_ROUTINE(name, kind)                                                \
  GOMP_EXPORT int name(void *l) {                                              \
    test_fn real = bridge_real_##name;                                         \
    if (__builtin_expect(bridge_active || !real, 0))                           \
      return acquire_slow(kind, NULL, BRIDGE_OMP_LOCK(name), l,                \
                          gomp_codeptr(__builtin_return_address(0)),           \
                          BRIDGE_FRAME());                                     \
    return real(l);                                                            \
  }
#define HINT_ROUTINE(name, plain, kind)                                        \
  GOMP_EXPORT void name(void *l, int h) {                                      \
    void (*real)(void *, int) = bridge_real_##name;                            \
    if (__builtin_expect(bridge_active || !real, 0)) {                         \
      init_hint_slow(kind, BRIDGE_OMP_LOCK(name), BRIDGE_OMP_LOCK(plain), l,   \
                     h, gomp_codeptr(__builtin_return_address(0)),             \
                     BRIDGE_FRAME());                                          \
      return;                                                                  \
    }                                                                          \
    real(l, h);                                                                \
  }

/* The C routines, then gfortran's. */
#define LOCK_ROUTINES(suffix)                                                  \
  VOID_ROUTINE(omp_init_lock##suffix, init_slow, ompt_mutex_lock)              \
  VOID_ROUTINE(omp_init_nest_lock##suffix, init_slow, ompt_mutex_nest_lock)    \
  VOID_ROUTINE(omp_destroy_lock##suffix, destroy_slow, ompt_mutex_lock)        \
  VOID_ROUTINE(omp_destroy_nest_lock##suffix, destroy_slow,                    \
               ompt_mutex_nest_lock)                                           \
  VOID_ROUTINE(omp_set_lock##suffix, set_slow, ompt_mutex_lock)                \
  VOID_ROUTINE(omp_set_nest_lock##suffix, set_slow, ompt_mutex_nest_lock)      \
  VOID_ROUTINE(omp_unset_lock##suffix, unset_slow, ompt_mutex_lock)            \
  VOID_ROUTINE(omp_unset_nest_lock##suffix, unset_slow, ompt_mutex_nest_lock)  \
  INT_ROUTINE(omp_test_lock##suffix, ompt_mutex_test_lock)                     \
  INT_ROUTINE(omp_test_nest_lock##suffix, ompt_mutex_test_nest_lock)
LOCK_ROUTINES()
LOCK_ROUTINES(_)
HINT_ROUTINE(omp_init_lock_with_hint, omp_init_lock, ompt_mutex_lock)
HINT_ROUTINE(omp_init_nest_lock_with_hint, omp_init_nest_lock,
             ompt_mutex_nest_lock)

/* A detached task's fulfilment in code pomp-cc did not compile, reported
 * before the runtime's routine runs (bridge_detach.c), as the wrapper of an
 * instrumented call (POMP_Api_omp_fulfill_event) reports it.  The event is
 * passed as the integer libgomp's omp_event_handle_t is. */
GOMP_EXPORT void omp_fulfill_event(uintptr_t event) {
  void (*real)(uintptr_t) = bridge_real_omp_fulfill_event;
  if (__builtin_expect(bridge_active || !real, 0)) {
    if (bridge_active)
      bridge_detach_fulfill((const void *)event);
    real = BRIDGE_OMP_LOCK(omp_fulfill_event);
    if (!real)
      return; /* no runtime: no task can wait for it */
  }
  real(event);
}

#endif /* POMPT_STATIC_LIB */
