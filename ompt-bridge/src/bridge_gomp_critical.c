/*
 * bridge_gomp_critical.c -- critical regions of code pomp-cc did not
 * compile, reported from libgomp's entries: GOMP_critical_start / _end
 * (an unnamed critical construct) and GOMP_critical_name_start / _end (a
 * named one), interposed so that a tool sees mutex_acquire,
 * mutex_acquired and mutex_released(ompt_mutex_critical) around them, as
 * at a native runtime.
 *
 * An instrumented critical construct reports itself: its acquire event,
 * just before GCC's call of the start entry, has put the thread in
 * wait_critical (libpompt's state, or the lane's wait_state when the event
 * went inline, pomp.h).  A start entry reached in any other state belongs
 * to code no POMP event surrounds: a library built with plain gcc, a
 * Fortran unit, a noinstrument range, a construct left out with
 * --disable=sync.  Its acquire and acquisition are delivered around
 * libgomp's call with the call's return address, its release before
 * libgomp's end.  The thread keeps the regions it reported as a stack of
 * their locks (critical regions nest): an end whose lock is on top is the
 * end of the region on top, since a region cannot be nested in one of the
 * same name (the thread would wait for itself), and any other end is an
 * instrumented region's.
 *
 * Wait ids: an unnamed region has libgomp's one lock, and the wait id that
 * instrumented unnamed regions have (pomp_critical_unnamed_wait_id); a
 * named one has the address of GCC's lock variable for its name (one per
 * name in the program), which is not the id an instrumented region of the
 * same name gets (doc/ompt-mapping.md, "Code pomp-cc did not compile").
 *
 * With no tool an entry is a compare and a jump into libgomp's (x86-64;
 * elsewhere a C entry that tests the same); with one, an instrumented
 * region's start costs a load of the lane and its end a load of the stack's
 * depth before libgomp's.  Definitions are weak; the static library defines
 * them as __wrap_GOMP_<x>, linked with --wrap (bridge_gomp_entry.h).
 */
#define _GNU_SOURCE
#include <stddef.h>
#include <stdint.h>

#include "bridge.h"
#include "bridge_gomp_entry.h"
#include "bridge_internal.h"
#include "pomp_region.h"

typedef void (*gomp_critical_t)(void);
typedef void (*gomp_critical_name_t)(void **);

static gomp_critical_t real_start, real_end;
static gomp_critical_name_t real_name_start, real_name_end;
GOMP_REAL_DECL(GOMP_critical_start);
GOMP_REAL_DECL(GOMP_critical_end);
GOMP_REAL_DECL(GOMP_critical_name_start);
GOMP_REAL_DECL(GOMP_critical_name_end);

/* The locks of the regions the thread reported and has not left, by the
 * address of GCC's variable for a named one, NULL for the unnamed one.
 * Deeper nests are not reported. */
#define REPORTED_MAX 16
static __thread void **reported[REPORTED_MAX]
    __attribute__((tls_model("initial-exec")));
/* Not static: the end entries' assembler reads it by this name. */
__thread unsigned reported_depth __asm__("bridge_critical_reported_depth")
    __attribute__((used, visibility("hidden"), tls_model("initial-exec")));

/* Whether a start entry's region, with a tool active and no instrumented
 * construct's inline acquire before it, is to be reported: the tool wants
 * the mutex callbacks, no instrumented acquire through libpompt put the
 * thread in wait_critical first, and the stack has room. */
static int reporting(void) {
  if (!bridge_wants_mutex(BRIDGE_B_SYNC_EE))
    return 0;
  bridge_thread_t *t = bridge_thread_peek();
  if (!t || reported_depth >= REPORTED_MAX)
    return 0; /* no event yet: the bridge knows nothing of this thread */
  return bridge_get_state(t, NULL) != ompt_state_wait_critical;
}

/* The common case with a tool: an instrumented region, whose inline
 * acquire has set the lane's wait state. */
static inline int instrumented_start(void) {
  return !bridge_active ||
         __atomic_load_n(&POMPT_lane_v2.wait_state, __ATOMIC_RELAXED);
}

static ompt_wait_id_t wait_id_of(void **name) {
  return name ? (ompt_wait_id_t)(uintptr_t)name
              : pomp_critical_unnamed_wait_id();
}

/* A start entry past the common case (name: NULL for the unnamed lock). */
static __attribute__((noinline)) void
start_slow(void **name, const void *codeptr, void *frame) {
  if (name)
    GOMP_REAL_ENSURE(real_name_start, GOMP_critical_name_start);
  else
    GOMP_REAL_ENSURE(real_start, GOMP_critical_start);
  int report = !instrumented_start() && reporting();
  ompt_wait_id_t wait_id = report ? wait_id_of(name) : 0;
  if (report)
    bridge_mutex_acquire(BRIDGE_B_SYNC_EE, ompt_mutex_critical,
                         0 /* omp_sync_hint_none */, wait_id,
                         gomp_codeptr(codeptr), frame);
  if (name)
    real_name_start(name);
  else
    real_start();
  if (report) {
    bridge_mutex_acquired(BRIDGE_B_SYNC_EE, ompt_mutex_critical, wait_id, 1,
                          gomp_codeptr(codeptr), frame);
    reported[reported_depth++] = name;
  }
}

/* An end entry past the common case (no region reported open): the end of
 * the reported region on top when its lock is the same, else of an
 * instrumented region. */
static __attribute__((noinline)) void end_slow(void **name, const void *codeptr,
                                               void *frame) {
  if (name)
    GOMP_REAL_ENSURE(real_name_end, GOMP_critical_name_end);
  else
    GOMP_REAL_ENSURE(real_end, GOMP_critical_end);
  unsigned n = reported_depth;
  if (n && reported[n - 1] == name) {
    reported_depth = n - 1;
    bridge_mutex_release_held(BRIDGE_B_SYNC_EE, ompt_mutex_critical,
                              wait_id_of(name), gomp_codeptr(codeptr), frame);
  }
  if (name)
    real_name_end(name);
  else
    real_end();
}

/* The entries' C bodies, reached with a tool active, or before libgomp's
 * entry is known (the jump slots' first value): the program's call site is
 * their return address. */
#define OBSERVED_ATTR __attribute__((noinline, used))
void critical_start_observed(void) __asm__("bridge_critical_start_observed");
void critical_end_observed(void) __asm__("bridge_critical_end_observed");
void critical_name_start_observed(void **) __asm__(
    "bridge_critical_name_start_observed");
void critical_name_end_observed(void **) __asm__(
    "bridge_critical_name_end_observed");

OBSERVED_ATTR void critical_start_observed(void) {
  gomp_critical_t real = real_start;
  if (__builtin_expect(real && instrumented_start(), 1))
    real();
  else
    start_slow(NULL, __builtin_return_address(0), BRIDGE_FRAME());
}

OBSERVED_ATTR void critical_end_observed(void) {
  gomp_critical_t real = real_end;
  if (__builtin_expect(real && !reported_depth, 1))
    real();
  else
    end_slow(NULL, __builtin_return_address(0), BRIDGE_FRAME());
}

OBSERVED_ATTR void critical_name_start_observed(void **name) {
  gomp_critical_name_t real = real_name_start;
  if (__builtin_expect(real && instrumented_start(), 1))
    real(name);
  else
    start_slow(name, __builtin_return_address(0), BRIDGE_FRAME());
}

OBSERVED_ATTR void critical_name_end_observed(void **name) {
  gomp_critical_name_t real = real_name_end;
  if (__builtin_expect(real && !reported_depth, 1))
    real(name);
  else
    end_slow(name, __builtin_return_address(0), BRIDGE_FRAME());
}

#ifdef GOMP_JUMP_ENTRIES
/* A start entry jumps into libgomp's without a tool, and with one after an
 * instrumented region's inline acquire (the lane's wait state is set); an
 * end entry whenever the thread has no reported region open.  Assembler,
 * so that these paths save and reload nothing (%r11 is scratch at a call).
 * The lane's layout is pomp.h's, fixed by its version. */
_Static_assert(offsetof(POMPT_Lane_t, wait_state) == 60,
               "the start entries read the lane's wait_state at 60");
#define CRITICAL_ENTRY_START(entry, slot, observed)                            \
  GOMP_EXPORT __attribute__((naked)) void entry(void) {                        \
    __asm__(GOMP_ENDBR_ "cmpl $0, bridge_active(%rip)\n\t"                     \
                        "je 1f\n\t"                                            \
                        "movq POMPT_lane_v2@gottpoff(%rip), %r11\n\t"          \
                        "cmpl $0, %fs:60(%r11)\n\t"                            \
                        "je " observed "\n"                                    \
                        "1:\n\t"                                               \
                        "jmp *" slot "(%rip)\n\t");                            \
  }
#define CRITICAL_ENTRY_END(entry, slot, observed)                              \
  GOMP_EXPORT __attribute__((naked)) void entry(void) {                        \
    __asm__(GOMP_ENDBR_                                                        \
            "movq bridge_critical_reported_depth@gottpoff(%rip), %r11\n\t"     \
            "cmpl $0, %fs:(%r11)\n\t"                                          \
            "jne " observed "\n\t"                                             \
            "jmp *" slot "(%rip)\n\t");                                        \
  }
#define CRITICAL_ENTRY(entry, T, observed, params, kind)                       \
  GOMP_JUMP_SLOT(T, jump_##entry, "bridge_jump_" #entry, observed);            \
  CRITICAL_ENTRY_##kind(GOMP_ENTRY(entry), "bridge_jump_" #entry,              \
                        "bridge_" #observed)
#else
/* Elsewhere the entry is the C body itself. */
#define CRITICAL_ENTRY(entry, T, observed, params, kind)                       \
  GOMP_EXPORT void GOMP_ENTRY(entry) params                                    \
      __attribute__((alias("bridge_" #observed)));
#endif

CRITICAL_ENTRY(GOMP_critical_start, gomp_critical_t, critical_start_observed,
               (void), START)
CRITICAL_ENTRY(GOMP_critical_end, gomp_critical_t, critical_end_observed,
               (void), END)
CRITICAL_ENTRY(GOMP_critical_name_start, gomp_critical_name_t,
               critical_name_start_observed, (void **), START)
CRITICAL_ENTRY(GOMP_critical_name_end, gomp_critical_name_t,
               critical_name_end_observed, (void **), END)

/* At load time, when libgomp (a dependency loaded first) is there, so that
 * the entries without a tool jump to libgomp's at once; lazily otherwise. */
__attribute__((constructor)) static void gomp_critical_setup(void) {
  real_start = (gomp_critical_t)GOMP_REAL(GOMP_critical_start);
  real_end = (gomp_critical_t)GOMP_REAL(GOMP_critical_end);
  real_name_start = (gomp_critical_name_t)GOMP_REAL(GOMP_critical_name_start);
  real_name_end = (gomp_critical_name_t)GOMP_REAL(GOMP_critical_name_end);
#ifdef GOMP_JUMP_ENTRIES
  if (real_start)
    jump_GOMP_critical_start = real_start;
  if (real_end)
    jump_GOMP_critical_end = real_end;
  if (real_name_start)
    jump_GOMP_critical_name_start = real_name_start;
  if (real_name_end)
    jump_GOMP_critical_name_end = real_name_end;
#endif
}
