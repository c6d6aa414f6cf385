/*
 * abi_expand.h -- turns abi_checks.h into checks on one omp-tools.h.
 *
 * Include once, after that omp-tools.h, with
 *   ABI_TABLE      the name of the table to define (abi_table_ours, ...)
 *   ABI_TABLE_LEN  the name of its length
 *   ABI_OURS       defined when the header is pompt's, so that the entries
 *                  LLVM 14 lacks are checked as well.
 *
 * It produces:
 *  1. _Static_asserts: every enumerator value and every signature, and on
 *     LP64 targets every size and offset, against the numbers in the list;
 *  2. _Static_asserts on the iteration macros (FOREACH_OMPT_EVENT, ...):
 *     each entry names a real constant or typedef with the listed value,
 *     and each list is complete (their order is not part of the contract:
 *     later LLVM headers list the events in another order);
 *  3. the table of the common entries (those both headers have), for the
 *     header-against-header comparison done at run time.
 */
#include <limits.h>
#include <stddef.h>
#include <stdint.h>

#include "abi_table.h"

#if UINTPTR_MAX == UINT64_MAX && UINT_MAX == 0xffffffffu && \
    SIZE_MAX == UINT64_MAX
#define ABI_LP64 1
#else
#define ABI_LP64 0
#endif

#ifdef ABI_OURS
#define ABI_ONLY_OURS 1
#endif

#ifndef ABI_WORK_MEMBER
#define ABI_WORK_MEMBER wstype
#endif

/* ---- 1. The list, as compile-time assertions ------------------------- */

#if ABI_LP64
#define ABI_SIZE(type, lp64) \
  _Static_assert(sizeof(type) == (lp64), "sizeof(" #type ") != " #lp64);
#define ABI_OFFSET(type, member, lp64)                    \
  _Static_assert(offsetof(type, member) == (lp64),        \
                 "offsetof(" #type ", " #member ") != " #lp64);
#else
#define ABI_SIZE(type, lp64)
#define ABI_OFFSET(type, member, lp64)
#endif
#define ABI_VALUE(constant, value) \
  _Static_assert((constant) == (value), #constant " != " #value);
#define ABI_SIGNATURE(type, fnptr)                                  \
  _Static_assert(_Generic((type)0, fnptr: 1, default: 0),           \
                 #type " is not " #fnptr);
#define ABI_FUNCTION(name, fnptr)                                   \
  _Static_assert(_Generic(&name, fnptr: 1, default: 0),             \
                 #name " does not have type " #fnptr);

#include "abi_checks.h"

#undef ABI_SIZE
#undef ABI_OFFSET
#undef ABI_VALUE
#undef ABI_SIGNATURE
#undef ABI_FUNCTION

/* ---- 2. The iteration macros ----------------------------------------- */

#define ABI_COUNT1(a) +1
#define ABI_COUNT2(a, b) +1
#define ABI_COUNT3(a, b, c) +1

/* Every event: its constant has the listed value, its type is a callback;
 * the list holds each of the 37 events exactly once. */
#define ABI_EVENT(event, type, id)                                        \
  _Static_assert((event) == (id), #event " != " #id);                     \
  _Static_assert(sizeof(type) == sizeof(ompt_callback_t), #type);
#define ABI_EVENT_BIT(event, type, id) | (UINT64_C(1) << (id))
#define ABI_EVENTS_1_TO(n) ((UINT64_C(1) << ((n) + 1)) - 2)
#define ABI_EVENTS_NOEMI                                               \
  ((UINT64_C(1) << 8) | (UINT64_C(1) << 9) | (UINT64_C(1) << 10) |     \
   (UINT64_C(1) << 22))
FOREACH_OMPT_EVENT(ABI_EVENT)
_Static_assert(0 FOREACH_OMPT_EVENT(ABI_COUNT3) == 37,
               "FOREACH_OMPT_EVENT lists 37 events");
_Static_assert((0 FOREACH_OMPT_EVENT(ABI_EVENT_BIT)) == ABI_EVENTS_1_TO(37),
               "FOREACH_OMPT_EVENT lists events 1 to 37");
#ifdef ABI_ONLY_OURS
/* The event groups of later LLVM headers. */
FOREACH_OMPT_HOST_EVENT(ABI_EVENT)
FOREACH_OMPT_DEVICE_EVENT(ABI_EVENT)
FOREACH_OMPT_NOEMI_EVENT(ABI_EVENT)
FOREACH_OMPT_EMI_EVENT(ABI_EVENT)
_Static_assert(0 FOREACH_OMPT_HOST_EVENT(ABI_COUNT3)
                   FOREACH_OMPT_DEVICE_EVENT(ABI_COUNT3)
                   FOREACH_OMPT_NOEMI_EVENT(ABI_COUNT3)
                   FOREACH_OMPT_EMI_EVENT(ABI_COUNT3) == 37,
               "the event groups hold 37 events");
_Static_assert((0 FOREACH_OMPT_HOST_EVENT(ABI_EVENT_BIT)
                    FOREACH_OMPT_DEVICE_EVENT(ABI_EVENT_BIT)
                    FOREACH_OMPT_NOEMI_EVENT(ABI_EVENT_BIT)
                    FOREACH_OMPT_EMI_EVENT(ABI_EVENT_BIT)) ==
                   ABI_EVENTS_1_TO(37),
               "the event groups partition the events");
_Static_assert((0 FOREACH_OMPT_NOEMI_EVENT(ABI_EVENT_BIT)) == ABI_EVENTS_NOEMI,
               "FOREACH_OMPT_NOEMI_EVENT");
_Static_assert((0 FOREACH_OMPT_50_TARGET_EVENT(ABI_EVENT_BIT)) ==
                   (ABI_EVENTS_NOEMI | (UINT64_C(0xf) << 12)),
               "FOREACH_OMPT_50_TARGET_EVENT");
_Static_assert((0 FOREACH_OMPT_51_TARGET_EVENT(ABI_EVENT_BIT)) ==
                   ((UINT64_C(0xf) << 12) | (UINT64_C(0xf) << 33)),
               "FOREACH_OMPT_51_TARGET_EVENT");
_Static_assert((0 FOREACH_OMPT_51_EVENT(ABI_EVENT_BIT)) ==
                   (ABI_EVENTS_1_TO(37) & ~ABI_EVENTS_NOEMI),
               "FOREACH_OMPT_51_EVENT");
#endif
#undef ABI_EVENT
#undef ABI_EVENT_BIT
#undef ABI_EVENTS_1_TO
#undef ABI_EVENTS_NOEMI

#define ABI_STATE(state, value) \
  _Static_assert((state) == (value), #state " != " #value);
FOREACH_OMPT_STATE(ABI_STATE)
#ifdef ABI_ONLY_OURS
_Static_assert(0 FOREACH_OMPT_STATE(ABI_COUNT2) == 23,
               "FOREACH_OMPT_STATE lists all 23 states of OpenMP 5.2");
#else
/* LLVM 14 leaves out wait_barrier_implementation and wait_barrier_teams. */
_Static_assert(0 FOREACH_OMPT_STATE(ABI_COUNT2) >= 21,
               "FOREACH_OMPT_STATE lists the states");
#endif
#undef ABI_STATE

/* Every inquiry function has an entry-point typedef of the same name. */
#define ABI_INQUIRY(fn) \
  _Static_assert(sizeof(fn##_t) == sizeof(ompt_interface_fn_t), #fn);
FOREACH_OMPT_INQUIRY_FN(ABI_INQUIRY)
_Static_assert(0 FOREACH_OMPT_INQUIRY_FN(ABI_COUNT1) == 19,
               "FOREACH_OMPT_INQUIRY_FN lists 19 entry points");
#ifdef ABI_ONLY_OURS
FOREACH_OMPT_DEVICE_TRACING_FN(ABI_INQUIRY)
_Static_assert(0 FOREACH_OMPT_DEVICE_TRACING_FN(ABI_COUNT1) == 14,
               "FOREACH_OMPT_DEVICE_TRACING_FN lists 14 entry points");
#endif
#undef ABI_INQUIRY

#define ABI_MUTEX_IMPL(impl, code) \
  _Static_assert((impl) == (code), #impl " != " #code);
FOREACH_KMP_MUTEX_IMPL(ABI_MUTEX_IMPL)
_Static_assert(0 FOREACH_KMP_MUTEX_IMPL(ABI_COUNT2) == 4,
               "FOREACH_KMP_MUTEX_IMPL lists 4 implementations");
#undef ABI_MUTEX_IMPL

/* ---- 3. The common entries, as data ---------------------------------- */

#undef ABI_ONLY_OURS

#define ABI_SIZE(type, lp64) {"sizeof(" #type ")", (long long)sizeof(type)},
#define ABI_OFFSET(type, member, lp64) \
  {"offsetof(" #type ", " #member ")", (long long)offsetof(type, member)},
#define ABI_VALUE(constant, value) {#constant, (long long)(constant)},
#define ABI_SIGNATURE(type, fnptr) \
  {"sizeof(" #type ")", (long long)sizeof(type)},
#define ABI_FUNCTION(name, fnptr)

const struct abi_entry ABI_TABLE[] = {
#include "abi_checks.h"
};
const size_t ABI_TABLE_LEN = sizeof ABI_TABLE / sizeof ABI_TABLE[0];

#undef ABI_SIZE
#undef ABI_OFFSET
#undef ABI_VALUE
#undef ABI_SIGNATURE
#undef ABI_FUNCTION
