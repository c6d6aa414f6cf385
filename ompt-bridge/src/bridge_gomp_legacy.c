/*
 * bridge_gomp_legacy.c -- the parallel regions of libgomp's first ABI,
 * which GCC emitted before 4.9 and which libgomp still provides: code of
 * that age that pomp-cc did not compile (an old library, linked as it was
 * built) is reported as any other region of code pomp-cc did not compile.
 *
 * Such code starts a region with GOMP_parallel_start (or the combined
 * GOMP_parallel_loop_<schedule>_start, GOMP_parallel_sections_start), then
 * calls the region's function itself on the encountering thread, and ends
 * the region with GOMP_parallel_end, which waits in the end barrier and
 * ends the team.  The team's other threads run libpompt's trampoline, as
 * for GOMP_parallel; the primary thread's implicit task begins when the
 * start entry returns and leaves at GOMP_parallel_end, where the region
 * ends.  Before, such a region went unreported while the tasks and
 * barriers inside it were reported, in a region no tool had heard of.
 *
 * The region's record outlives the start entry: the thread keeps its open
 * ones on a stack (nested regions of this ABI), each tagged with its
 * nesting level, so that GOMP_parallel_end knows whether its region is one
 * libpompt reported.  The records come from libpompt's own memory and are
 * reused by their thread.
 */
#include <stdint.h>

#include "bridge.h"
#include "bridge_gomp_entry.h"
#include "bridge_internal.h"
#include "bridge_omp.h"

typedef struct legacy_region {
  entry_region_t lr;
  struct legacy_region *outer; /* the next open one, or the next free one */
  const void *outer_leaf;      /* for bridge_entry_region_leave */
  int chunks;
  int level; /* omp_get_level() inside the region */
} legacy_region_t;

static __thread legacy_region_t *legacy_open, *legacy_free;

static int current_level(void) {
  return omp_get_level ? omp_get_level() : 0;
}

static legacy_region_t *legacy_take(void) {
  legacy_region_t *r = legacy_free;
  if (r) {
    legacy_free = r->outer;
    return r;
  }
  return bridge_arena_alloc(sizeof *r, _Alignof(legacy_region_t));
}

/* Before libgomp's start entry: a record with parallel_begin delivered, or
 * NULL when the region is not reported (no tool, an instrumented
 * construct's region, no memory).  start, incr: a combined loop's bounds,
 * for its chunks (incr 0: no loop). */
static legacy_region_t *legacy_begin(void (*fn)(void *), void *data,
                                     unsigned num_threads, void *frame,
                                     const void *caller, int work, long start,
                                     long incr) {
  if (!bridge_active)
    return NULL;
  legacy_region_t *r = legacy_take();
  if (!r)
    return NULL;
  if (!bridge_entry_region_begin(&r->lr, fn, data, num_threads, frame, caller,
                                 work)) {
    r->outer = legacy_free;
    legacy_free = r;
    return NULL;
  }
  r->lr.loop_start = start;
  r->lr.loop_incr = incr;
  return r;
}

/* After libgomp's start entry returned: the primary thread is in the team
 * and is about to call the region's function from the program's code. */
static void legacy_started(legacy_region_t *r, void *frame) {
  r->level = current_level();
  r->chunks = bridge_entry_region_enter(&r->lr, frame, &r->outer_leaf);
  r->outer = legacy_open;
  legacy_open = r;
}

/* The region's function with the record: the team's other threads run it
 * through libpompt's trampoline. */
#define LEGACY_FN(r, fn) ((r) ? bridge_entry_region_run : (fn))
#define LEGACY_DATA(r, data) ((r) ? (void *)&(r)->lr : (data))

typedef void (*gomp_parallel_start_t)(void (*)(void *), void *, unsigned);
GOMP_REAL_DECL(GOMP_parallel_start);
static gomp_parallel_start_t real_parallel_start;

GOMP_EXPORT void GOMP_ENTRY(GOMP_parallel_start)(void (*fn)(void *), void *data,
                                                 unsigned num_threads) {
  GOMP_REAL_ENSURE(real_parallel_start, GOMP_parallel_start);
  void *frame = BRIDGE_FRAME();
  legacy_region_t *r = legacy_begin(fn, data, num_threads, frame,
                                    __builtin_return_address(0), 0, 0, 0);
  real_parallel_start(LEGACY_FN(r, fn), LEGACY_DATA(r, data), num_threads);
  if (r)
    legacy_started(r, frame);
}

/* The combined loop entries: the region, and the loop shared out in it as
 * its work (the entry's schedule, or the run-sched-var's), with the chunks
 * the threads then take. */
typedef void (*gomp_parallel_loop_start_t)(void (*)(void *), void *, unsigned,
                                           long, long, long, long);
#define LEGACY_LOOP_START(name, var, work)                                     \
  GOMP_REAL_DECL(name);                                                        \
  static gomp_parallel_loop_start_t var;                                       \
  GOMP_EXPORT void GOMP_ENTRY(name)(void (*fn)(void *), void *data,            \
                                    unsigned num_threads, long start,          \
                                    long end, long incr, long chunk) {         \
    GOMP_REAL_ENSURE(var, name);                                               \
    void *frame = BRIDGE_FRAME();                                              \
    legacy_region_t *r =                                                       \
        legacy_begin(fn, data, num_threads, frame,                             \
                     __builtin_return_address(0), (work), start, incr);        \
    var(LEGACY_FN(r, fn), LEGACY_DATA(r, data), num_threads, start, end, incr, \
        chunk);                                                                \
    if (r)                                                                     \
      legacy_started(r, frame);                                                \
  }
LEGACY_LOOP_START(GOMP_parallel_loop_static_start, real_loop_static_start,
                  ompt_work_loop_static)
LEGACY_LOOP_START(GOMP_parallel_loop_dynamic_start, real_loop_dynamic_start,
                  ompt_work_loop_dynamic)
LEGACY_LOOP_START(GOMP_parallel_loop_guided_start, real_loop_guided_start,
                  ompt_work_loop_guided)

typedef void (*gomp_parallel_loop_runtime_start_t)(void (*)(void *), void *,
                                                   unsigned, long, long, long);
GOMP_REAL_DECL(GOMP_parallel_loop_runtime_start);
static gomp_parallel_loop_runtime_start_t real_loop_runtime_start;

GOMP_EXPORT void
GOMP_ENTRY(GOMP_parallel_loop_runtime_start)(void (*fn)(void *), void *data,
                                             unsigned num_threads, long start,
                                             long end, long incr) {
  GOMP_REAL_ENSURE(real_loop_runtime_start, GOMP_parallel_loop_runtime_start);
  void *frame = BRIDGE_FRAME();
  legacy_region_t *r = legacy_begin(
      fn, data, num_threads, frame, __builtin_return_address(0),
      bridge_active ? (int)bridge_loop_work_runtime() : 0, start, incr);
  real_loop_runtime_start(LEGACY_FN(r, fn), LEGACY_DATA(r, data), num_threads,
                          start, end, incr);
  if (r)
    legacy_started(r, frame);
}

typedef void (*gomp_parallel_sections_start_t)(void (*)(void *), void *,
                                               unsigned, unsigned);
GOMP_REAL_DECL(GOMP_parallel_sections_start);
static gomp_parallel_sections_start_t real_sections_start;

GOMP_EXPORT void GOMP_ENTRY(GOMP_parallel_sections_start)(void (*fn)(void *),
                                                          void *data,
                                                          unsigned num_threads,
                                                          unsigned count) {
  GOMP_REAL_ENSURE(real_sections_start, GOMP_parallel_sections_start);
  void *frame = BRIDGE_FRAME();
  legacy_region_t *r =
      legacy_begin(fn, data, num_threads, frame, __builtin_return_address(0),
                   ompt_work_sections, 0, 0);
  real_sections_start(LEGACY_FN(r, fn), LEGACY_DATA(r, data), num_threads,
                      count);
  if (r)
    legacy_started(r, frame);
}

/* The end of any of them: the primary thread's function has returned; it
 * leaves its implicit task, waits in libgomp's end barrier, and the region
 * ends (its barrier's end, its implicit task's, parallel_end). */
typedef void (*gomp_parallel_end_t)(void);
GOMP_REAL_DECL(GOMP_parallel_end);
static gomp_parallel_end_t real_parallel_end;

GOMP_EXPORT void GOMP_ENTRY(GOMP_parallel_end)(void) {
  GOMP_REAL_ENSURE(real_parallel_end, GOMP_parallel_end);
  legacy_region_t *r = legacy_open;
  if (!r || r->level != current_level()) { /* a region not reported */
    real_parallel_end();
    return;
  }
  void *frame = BRIDGE_FRAME();
  legacy_open = r->outer;
  bridge_entry_region_leave(&r->lr, r->chunks, r->outer_leaf, frame);
  real_parallel_end();
  bridge_parallel_exit(&r->lr.team, r->lr.codeptr, frame);
  r->outer = legacy_free;
  legacy_free = r;
  __asm__ __volatile__(""); /* frame passed: no tail call */
}
