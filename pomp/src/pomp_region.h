/*
 * pomp_region.h -- regions (one per instrumented construct) and the handles
 * that name them.
 *
 * Internal to libpompt.
 */
#ifndef POMPT_POMP_REGION_H
#define POMPT_POMP_REGION_H

#include <stddef.h>
#include <stdint.h>
#include <omp-tools.h>

#include "pomp.h"

/* CTC "type" values. */
#define POMP_REGION_KIND_LIST(X)                                               \
  X(UNKNOWN, "unknown")                                                        \
  X(PARALLEL, "parallel")                                                      \
  X(FOR, "for")                                                                \
  X(PARALLELFOR, "parallelfor")                                                \
  X(SECTIONS, "sections")                                                      \
  X(PARALLELSECTIONS, "parallelsections")                                      \
  X(SECTION, "section")                                                        \
  X(SINGLE, "single")                                                          \
  X(MASTER, "master")                                                          \
  X(CRITICAL, "critical")                                                      \
  X(BARRIER, "barrier")                                                        \
  X(WORKSHARE, "workshare")                                                    \
  X(ORDERED, "ordered")                                                        \
  X(ATOMIC, "atomic")                                                          \
  X(FLUSH, "flush")                                                            \
  X(FUNCTION, "function")                                                      \
  X(USERREGION, "region")                                                      \
  X(RUNTIME, "runtime")                                                        \
  X(TASK, "task")                                                              \
  X(TASKWAIT, "taskwait")                                                      \
  X(TASKGROUP, "taskgroup")                                                    \
  X(TASKYIELD, "taskyield")                                                    \
  X(TASKLOOP, "taskloop")                                                      \
  X(MASKED, "masked")                                                          \
  X(SCOPE, "scope")                                                            \
  X(CANCEL, "cancel")                                                          \
  X(CANCELLATION_POINT, "cancellationpoint")                                   \
  X(ERROR, "error")

typedef enum pomp_region_kind {
#define X(id, text) POMP_REGION_##id,
  POMP_REGION_KIND_LIST(X)
#undef X
} pomp_region_kind_t;

enum pomp_region_flag {
  POMP_HAS_NOWAIT = 1u << 0,
  POMP_HAS_REDUCTION = 1u << 1,
  POMP_HAS_FIRSTPRIVATE = 1u << 2,
  POMP_HAS_LASTPRIVATE = 1u << 3,
  POMP_HAS_COPYIN = 1u << 4,
  POMP_HAS_ORDERED = 1u << 5,
  POMP_HAS_COPYPRIVATE = 1u << 6,
  POMP_HAS_IF = 1u << 7,
  POMP_HAS_NUM_THREADS = 1u << 8,
  POMP_HAS_COLLAPSE = 1u << 9,
  /* a reduction clause on the parallel leaf (parallelReduction=1; a
   * parallel construct's hasReduction=1 says the same) */
  POMP_PARALLEL_REDUCTION = 1u << 10,
  /* a worksharing-loop construct (its type names for or do, combined or
   * not; not the loop construct, whose binding GCC decides) */
  POMP_WORKSHARING_LOOP = 1u << 11,
};

/* Sites: the construct's first event, its implicit barrier (or the end of a
 * parallel region's block), the begin of a single's block (the executing
 * thread's work callback) and the exit of a single (the others'). */
#define POMP_REGION_SITES 4
enum { POMP_SITE_FIRST, POMP_SITE_BARRIER, POMP_SITE_BEGIN, POMP_SITE_EXIT };

struct pomp_region {
  /* First, as POMPT_Region_head_t (pomp.h): pomp.h's inline events of a
   * critical construct read them. */
  ompt_wait_id_t wait_id; /* critical: one id per name */
  unsigned hint;          /* critical: the hint clause's value (CTC hint=) */
  pomp_region_kind_t kind;
  unsigned flags; /* enum pomp_region_flag */
  char *file;
  int first_line, last_line;
  char *name;            /* critical name, user region name */
  char *schedule;        /* as written: "static", "dynamic", ... */
  int64_t chunk;         /* -1 when not a literal */
  ompt_work_t loop_work; /* the OMPT work type of a loop, or
                            BRIDGE_WORK_LOOP_RUNTIME */
  int cancel_flags;      /* cancel: ompt_cancel_parallel, _sections, ... */
  uint64_t id;           /* 1, 2, ... in registration order */
  const char *ctc;       /* the string it was made from (not owned) */
  POMP_Team_t *_Atomic seed_team; /* seed-style parallel events only */
  /* Return addresses of the calls whose codeptr_ra reaches tools, recorded
   * at their first execution (see pompt_region_info). */
  const void *sites[POMP_REGION_SITES];
  struct pomp_region *_Atomic next;
  uint64_t num_sections;     /* sections: CTC numSections= (0 when absent) */
  unsigned char atomic_kind; /* atomic: enum bridge_atomic_kind */
  /* parallel: whether its block's events may go quiet, and a reduction is
   * combined after the block (bridge.h, BRIDGE_ENTER_QUIET and
   * _QUIET_COMBINE), for its enter event; fixed when the region is made */
  unsigned char quiet;
};

_Static_assert(offsetof(struct pomp_region, wait_id) ==
                       offsetof(POMPT_Region_head_t, wait_id) &&
                   offsetof(struct pomp_region, hint) ==
                       offsetof(POMPT_Region_head_t, hint),
               "a region starts as POMPT_Region_head_t");

/* The wait id of every unnamed critical construct (libgomp has one lock
 * for them all): also that of an unnamed critical region reported from
 * libgomp's entry (ompt-bridge/src/bridge_gomp_critical.c). */
ompt_wait_id_t pomp_critical_unnamed_wait_id(void);

/* Creates the region for *handle from ctc unless *handle is set already;
 * thread-safe, idempotent.  NULL when ctc is malformed or memory is out
 * (status then says which). */
struct pomp_region *pomp_region_init(POMP_Handle_t *handle, const char *ctc,
                                     int32_t *status);

/* The region of a first event: the handle's, initialised from ctc on first
 * use. */
static inline struct pomp_region *
pomp_region_of(POMP_Handle_t *handle, const char *ctc, int32_t *status) {
  struct pomp_region *r = handle ? __atomic_load_n(handle, __ATOMIC_ACQUIRE)
                                 : (struct pomp_region *)0;
  if (__builtin_expect(r != 0, 1))
    return r;
  return pomp_region_init(handle, ctc, status);
}

/* The region of a compact event's descriptor (pomp.h, POMPT_Desc_t).  For
 * a first event: NULL d is an error, a zero handle is initialised from the
 * descriptor's CTC string. */
static inline struct pomp_region *pomp_desc_first(POMPT_Desc_t *d,
                                                  int32_t *status) {
  if (!d) {
    *status = POMP_ERR_HANDLE;
    return (struct pomp_region *)0;
  }
  return pomp_region_of(&d->handle, d->ctc, status);
}

/* For a later event: the handle as it is (a later event does not
 * initialise, as with the seed's by-value handle). */
static inline struct pomp_region *pomp_desc_later(POMPT_Desc_t *d) {
  return d ? __atomic_load_n(&d->handle, __ATOMIC_ACQUIRE)
           : (struct pomp_region *)0;
}

/* Record codeptr as the region's site `slot` the first time it is seen: one
 * load and a branch afterwards. */
static inline void pomp_region_site(struct pomp_region *r, int slot,
                                    const void *codeptr) {
  if (__builtin_expect(__atomic_load_n(&r->sites[slot], __ATOMIC_RELAXED) == 0,
                       0))
    __atomic_store_n(&r->sites[slot], codeptr, __ATOMIC_RELAXED);
}

const char *pomp_region_kind_name(pomp_region_kind_t kind);

/* The construct's codeptr_ra: its first event's (recorded by the first
 * thread to reach it), or codeptr before any was. */
static inline const void *pomp_region_construct(struct pomp_region *r,
                                                const void *codeptr) {
  const void *first =
      __atomic_load_n(&r->sites[POMP_SITE_FIRST], __ATOMIC_RELAXED);
  return first ? first : codeptr;
}

/* Once the tool's activation was decided: clears POMPT_active when no tool
 * was activated (pomp_task.c). */
void pomp_active_settle(void);

#endif /* POMPT_POMP_REGION_H */
