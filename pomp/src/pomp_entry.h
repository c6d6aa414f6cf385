/*
 * pomp_entry.h -- what every exported POMP entry point starts with.
 *
 * CODEPTR and FRAME must be expanded in the exported routine itself, so that
 * they describe the instrumented call site (codeptr_ra) and the caller's
 * frame.  With no tool an event is the load of bridge_active and a branch;
 * the handle of a construct is resolved with one acquire load.
 *
 * Internal to pomp/.
 */
#ifndef POMPT_POMP_ENTRY_H
#define POMPT_POMP_ENTRY_H

#include "bridge.h"
#include "bridge_gomp_entry.h"
#include "bridge_omp.h"
#include "pomp_region.h"

#define EXPORT __attribute__((visibility("default")))
#define CODEPTR __builtin_return_address(0)
/* The frame address of the entry point (bridge.h), fixed by the caller's
 * stack pointer at the call: the same for every event called from one
 * frame. */
#define FRAME BRIDGE_FRAME()
/* Keeps the caller's frame for codeptr_ra: no tail call out of an entry
 * point whose return address or frame the bridge has recorded. */
#define NO_TAIL_CALL() __asm__ __volatile__("")

/* An entry point whose path without a tool is assembler (x86-64: asm_body,
 * which jumps to "pompt_<name>_slow" when a tool is active), and its body in
 * C, name##_slow, which follows the macro: reached by that jump, so that
 * its CODEPTR and FRAME are the program's call site and frame.  Elsewhere
 * the C body is the entry point. */
#ifdef GOMP_JUMP_ENTRIES
#define POMP_JUMP_SLOW(name) "pompt_" #name "_slow"
#define POMP_JUMP_ENTRY(ret, name, params, asm_body)                           \
  __attribute__((noinline, used))                                              \
  ret name##_slow params __asm__(POMP_JUMP_SLOW(name));                        \
  _Pragma("GCC diagnostic push")                                               \
      _Pragma("GCC diagnostic ignored \"-Wunused-parameter\"") EXPORT          \
      __attribute__((naked)) ret name params {                                 \
    __asm__(GOMP_ENDBR_ asm_body);                                             \
  }                                                                            \
  _Pragma("GCC diagnostic pop") ret name##_slow params
#else
#define POMP_JUMP_ENTRY(ret, name, params, asm_body) EXPORT ret name params
#endif

/* The team size a parallel construct asks for: its num_threads value, or
 * (-1: no clause) the nthreads-var ICV. */
static inline int pomp_requested_threads(int32_t num_threads) {
  if (num_threads > 0)
    return num_threads;
  return omp_get_max_threads ? omp_get_max_threads() : 1;
}

/* First event of a construct: handle pointer plus CTC string; records the
 * call site for pompt_region_info. */
#define FIRST_EVENT(handle, ctc)                                               \
  if (!bridge_active)                                                          \
    return POMP_SUCCESS;                                                       \
  struct pomp_region *r =                                                      \
      (handle) ? __atomic_load_n((handle), __ATOMIC_ACQUIRE) : NULL;           \
  if (__builtin_expect(!r, 0)) { /* lazy initialisation: off the fast path */  \
    int32_t status_ = POMP_ERR_HANDLE;                                         \
    if (!(r = pomp_region_init(handle, ctc, &status_)))                        \
      return status_;                                                          \
  }                                                                            \
  pomp_region_site(r, POMP_SITE_FIRST, CODEPTR)

/* Later events: the handle by value. */
#define LATER_EVENT(handle)                                                    \
  if (!bridge_active)                                                          \
    return POMP_SUCCESS;                                                       \
  struct pomp_region *r = (handle);                                            \
  if (!r)                                                                      \
    return POMP_ERR_HANDLE;                                                    \
  (void)r

#endif /* POMPT_POMP_ENTRY_H */
