/*
 * pomp_region.h -- regions (one per instrumented construct) and the handles
 * that name them.
 *
 * Internal to libpompt.
 */
#ifndef POMPT_POMP_REGION_H
#define POMPT_POMP_REGION_H

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
  X(RUNTIME, "runtime")

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
};

struct pomp_region {
  pomp_region_kind_t kind;
  unsigned flags; /* enum pomp_region_flag */
  char *file;
  int first_line, last_line;
  char *name;     /* critical name, user region name */
  char *schedule; /* as written: "static", "dynamic", ... */
  int64_t chunk;  /* -1 when not a literal */
  ompt_work_t loop_work; /* the OMPT work type of a loop */
  ompt_wait_id_t wait_id; /* critical: one id per name */
  uint64_t id;            /* 1, 2, ... in registration order */
  const char *ctc;        /* the string it was made from (not owned) */
  POMP_Team_t *_Atomic seed_team; /* seed-style parallel events only */
  struct pomp_region *next;
};

/* Creates the region for *handle from ctc unless *handle is set already;
 * thread-safe, idempotent.  NULL when ctc is malformed or memory is out
 * (status then says which). */
struct pomp_region *pomp_region_init(POMP_Handle_t *handle, const char *ctc,
                                     int32_t *status);

/* The region of a first event: the handle's, initialised from ctc on first
 * use. */
static inline struct pomp_region *pomp_region_of(POMP_Handle_t *handle,
                                                 const char *ctc,
                                                 int32_t *status) {
  struct pomp_region *r = handle ? __atomic_load_n(handle, __ATOMIC_ACQUIRE)
                                 : (struct pomp_region *)0;
  if (__builtin_expect(r != 0, 1))
    return r;
  return pomp_region_init(handle, ctc, status);
}

const char *pomp_region_kind_name(pomp_region_kind_t kind);

#endif /* POMPT_POMP_REGION_H */
