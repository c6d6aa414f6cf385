/*
 * bridge_loop.c -- the chunks of worksharing loops: one
 * dispatch(ompt_dispatch_ws_loop_chunk) per chunk a thread executes, when
 * it starts the chunk, with the chunk in logical iterations (0 is the
 * loop's first iteration in sequential order), as OpenMP 5.2 specifies.
 *
 * Who decides a chunk decides how it is found:
 *  - A static schedule is computed by the code GCC generates (no runtime
 *    call): OpenMP fixes it from the iteration count, the chunk size, the
 *    team size and the thread number, so the thread's chunks are computed
 *    here the same way.  Without a chunk size the thread has one chunk,
 *    reported at the loop's start; with one, the instrumented body asks for
 *    the next chunk when the current one is used up (POMP_Loop_chunk_next).
 *  - Every other schedule (dynamic, guided, runtime, and ordered loops)
 *    gets its chunks from libgomp's GOMP_loop_*_start / _next entries.  In
 *    a unit instrumented at --loop-level=chunks, pomp-instr aliases each of
 *    them to libpompt's pompt_GOMP_loop_*, which calls libgomp's and
 *    reports the chunk it returned, on the thread that will run it.  Other
 *    units, and other programs, call libgomp directly: at the default level
 *    chunks cost nothing.
 *
 * A call belongs to the instrumented loop the thread is in (the innermost
 * one armed by bridge_loop_chunks_enter) only if it is that loop's start,
 * or a next call with the start's istart variable: a loop of the same unit
 * that is not reported (disabled, in a noinstrument range, nested in the
 * body) hands its chunks out through other variables.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "bridge.h"
#include "bridge_internal.h"
#include "bridge_omp.h"
#include "bridge_runtime.h"
#include "gomp_loop_entries.h"

/* omp.h's omp_sched_t, an int-sized enum, and its monotonic modifier */
enum { SCHED_STATIC = 1, SCHED_DYNAMIC, SCHED_GUIDED, SCHED_AUTO };
#define SCHED_MONOTONIC 0x80000000u

ompt_work_t bridge_loop_work_runtime(void) {
  int kind = 0, chunk = 0;
  if (!omp_get_schedule)
    return ompt_work_loop;
  omp_get_schedule(&kind, &chunk);
  switch ((unsigned)kind & ~SCHED_MONOTONIC) {
  case SCHED_STATIC:
  case SCHED_AUTO: /* which libgomp runs as static */
    return ompt_work_loop_static;
  case SCHED_DYNAMIC:
    return ompt_work_loop_dynamic;
  case SCHED_GUIDED:
    return ompt_work_loop_guided;
  default:
    return ompt_work_loop_other;
  }
}

#define CHUNKS_MAGIC 0x6b6e7563u
#define DIST_MAGIC 0x74736964u /* a distribute's record */

/* The library's view of POMP_Chunks_t. */
typedef struct loop_chunks {
  int64_t left; /* POMP_Chunks_t.pomp_left */
  uint32_t magic;
  int32_t schedule;          /* POMP_CHUNKS_* */
  struct loop_chunks *prev;  /* the loop armed before this one */
  uint64_t n;                /* static: the loop's iterations */
  uint64_t chunk;            /* static: chunk size, 0 for none */
  uint64_t trip;             /* static: this thread's chunks so far */
  uint32_t nthreads, num;    /* static: the team */
  const void *istart;        /* runtime: the thread's istart variable */
  uint64_t start, incr;      /* runtime: the loop as libgomp has it */
  uint32_t started, down;    /* runtime: start call seen; incr < 0 */
  ompt_dispatch_chunk_t out; /* what the tool is passed */
} loop_chunks_t;

_Static_assert(sizeof(loop_chunks_t) <= sizeof(POMP_Chunks_t),
               "POMP_Chunks_t too small for the bridge's loop record");

/* The innermost runtime-scheduled loop this thread is in. */
static __thread loop_chunks_t *armed __attribute__((tls_model("initial-exec")));

static void deliver(loop_chunks_t *c, uint64_t start, uint64_t iterations,
                    void *frame) {
  c->out.start = start;
  c->out.iterations = iterations;
  bridge_dispatch(BRIDGE_B_LOOP_CHUNKS,
                  c->magic == DIST_MAGIC ? ompt_dispatch_distribute_chunk
                                         : ompt_dispatch_ws_loop_chunk,
                  (ompt_data_t){.ptr = &c->out}, frame);
}

/* Member num of members (a thread of its team, a team of the league) in a
 * static schedule of n iterations, as GCC expands it: with a chunk size,
 * chunks num, num + members, num + 2 * members, ... of that size, which
 * static_next hands out; without one, one contiguous chunk of n / members
 * iterations, the first n % members members one more, delivered here.
 * 0 when there is nothing to report (bounds not known, an empty loop). */
static int static_share(loop_chunks_t *c, uint64_t n, int members, int num,
                        int64_t chunk_size, void *frame) {
  if (n == 0 || members < 1 || num < 0 || num >= members)
    return 0;
  c->n = n;
  c->nthreads = (uint32_t)members;
  c->num = (uint32_t)num;
  if (chunk_size > 0) {
    c->chunk = (uint64_t)chunk_size;
    return 1;
  }
  uint64_t q = n / (uint64_t)members, r = n % (uint64_t)members;
  uint64_t first = q * (uint64_t)num + ((uint64_t)num < r ? (uint64_t)num : r);
  if ((uint64_t)num < r)
    q++;
  if (q > 0)
    deliver(c, first, q, frame);
  return 1;
}

void bridge_loop_chunks_enter(POMP_Chunks_t *chunks, int schedule,
                              int64_t chunk_size, int64_t init, int64_t final,
                              int64_t incr, void *frame) {
  loop_chunks_t *c = (loop_chunks_t *)chunks;
  memset(c, 0, sizeof *c);
  c->left = INT64_MAX;
  c->magic = CHUNKS_MAGIC;
  c->schedule = POMP_CHUNKS_NONE;
  if (schedule == POMP_CHUNKS_RUNTIME) {
    c->schedule = schedule;
    c->prev = armed;
    armed = c;
    return;
  }
  if (schedule != POMP_CHUNKS_STATIC)
    return;
  int nthreads = omp_get_num_threads ? omp_get_num_threads() : 1;
  int num = omp_get_thread_num ? omp_get_thread_num() : 0;
  if (!static_share(c, bridge_loop_count(init, final, incr), nthreads, num,
                    chunk_size, frame))
    return;
  c->schedule = schedule;
  if (chunk_size > 0)
    c->left = 0; /* the first iteration asks for the first chunk */
}

/* A static schedule with a chunk size: the next chunk of member num of
 * nthreads (a thread of the team, or a team of the league) is chunk
 * trip * nthreads + num. */
static void static_next(loop_chunks_t *c, void *frame) {
  uint64_t first = (c->trip * c->nthreads + c->num) * c->chunk;
  if (first >= c->n)
    return;
  c->trip++;
  uint64_t it = c->n - first < c->chunk ? c->n - first : c->chunk;
  c->left = (int64_t)it - 1;
  deliver(c, first, it, frame);
}

/* The next chunk of a static schedule with a chunk size, of a record of
 * kind magic. */
static void chunk_next(POMP_Chunks_t *chunks, uint32_t magic, void *frame) {
  loop_chunks_t *c = (loop_chunks_t *)chunks;
  c->left = INT64_MAX;
  if (c->magic != magic || c->schedule != POMP_CHUNKS_STATIC || !c->chunk)
    return;
  static_next(c, frame);
}

void bridge_loop_chunk_next(POMP_Chunks_t *chunks, void *frame) {
  chunk_next(chunks, CHUNKS_MAGIC, frame);
}

void bridge_loop_chunks_exit(POMP_Chunks_t *chunks) {
  loop_chunks_t *c = (loop_chunks_t *)chunks;
  if (c->magic != CHUNKS_MAGIC)
    return;
  if (c->schedule == POMP_CHUNKS_RUNTIME)
    armed = c->prev;
  c->magic = 0;
}

/* ---- distribute chunks ----------------------------------------------------
 */

/* GCC computes each team's share of a distribute loop inline (no runtime
 * call), from omp_get_team_num and omp_get_num_teams, as OpenMP fixes it:
 * with dist_schedule(static, c) team t of T runs chunks t, t + T, ...;
 * without a chunk size one contiguous chunk of n / T iterations, the first
 * n % T teams one more.  The same is computed here, on the team's initial
 * thread, and reported as dispatch(ompt_dispatch_distribute_chunk). */

/* The distribute parallel for (POMP_CHUNKS_REGIONS) this thread is in:
 * each parallel region it starts is the next chunk. */
static __thread loop_chunks_t *dist_armed
    __attribute__((tls_model("initial-exec")));

void bridge_distribute_chunks_enter(POMP_Chunks_t *chunks, int schedule,
                                    int64_t chunk_size, int64_t init,
                                    int64_t final, int64_t incr, void *frame) {
  loop_chunks_t *c = (loop_chunks_t *)chunks;
  memset(c, 0, sizeof *c);
  c->left = INT64_MAX;
  c->magic = DIST_MAGIC;
  c->schedule = POMP_CHUNKS_NONE;
  if (schedule != POMP_CHUNKS_STATIC && schedule != POMP_CHUNKS_REGIONS)
    return;
  int teams = omp_get_num_teams ? omp_get_num_teams() : 1;
  int num = omp_get_team_num ? omp_get_team_num() : 0;
  if (!static_share(c, bridge_loop_count(init, final, incr), teams, num,
                    chunk_size, frame))
    return;
  /* Without a chunk size the team's one chunk was reported, whatever the
   * schedule value. */
  c->schedule = chunk_size > 0 ? schedule : POMP_CHUNKS_STATIC;
  if (chunk_size > 0 && schedule == POMP_CHUNKS_STATIC) {
    c->left = 0; /* the first iteration asks for the first chunk */
  } else if (chunk_size > 0) {
    c->prev = dist_armed;
    dist_armed = c;
  }
}

void bridge_distribute_chunk_next(POMP_Chunks_t *chunks, void *frame) {
  chunk_next(chunks, DIST_MAGIC, frame);
}

void bridge_distribute_region_start(void *frame) {
  loop_chunks_t *c = dist_armed;
  if (!c)
    return;
  /* A record left behind would live in a frame older than this one. */
  if ((uintptr_t)c < (uintptr_t)frame || c->magic != DIST_MAGIC) {
    dist_armed = NULL;
    return;
  }
  static_next(c, frame);
}

void bridge_distribute_chunks_exit(POMP_Chunks_t *chunks) {
  loop_chunks_t *c = (loop_chunks_t *)chunks;
  if (c->magic != DIST_MAGIC)
    return;
  if (c->schedule == POMP_CHUNKS_REGIONS && dist_armed == c)
    dist_armed = c->prev;
  c->magic = 0;
}

/* ---- libgomp's chunk hand-out ------------------------------------------- */

/* The armed loop, if it is still alive: it lives in a frame of this
 * thread's stack older than the caller's (a loop left by a cancellation
 * never disarmed itself). */
static loop_chunks_t *armed_loop(const void *here) {
  loop_chunks_t *c = armed;
  if (!c)
    return NULL;
  if ((uintptr_t)c < (uintptr_t)here || c->magic != CHUNKS_MAGIC) {
    armed = NULL;
    return NULL;
  }
  return c;
}

static void runtime_chunk(loop_chunks_t *c, uint64_t is, uint64_t ie,
                          void *frame) {
  uint64_t step = c->down ? -c->incr : c->incr;
  if (step == 0)
    return;
  uint64_t first = (c->down ? c->start - is : is - c->start) / step;
  uint64_t span = c->down ? is - ie : ie - is;
  deliver(c, first, (span + step - 1) / step, frame);
}

/* A start call returned (got: it returned a chunk, [is, ie)). */
static void on_start(const void *istart, bool got, uint64_t start,
                     uint64_t incr, int down, uint64_t is, uint64_t ie,
                     void *frame) {
  loop_chunks_t *c = armed_loop(frame);
  if (!c || c->schedule != POMP_CHUNKS_RUNTIME || c->started || !istart)
    return;
  c->started = 1;
  c->istart = istart;
  c->start = start;
  c->incr = incr;
  c->down = (uint32_t)down;
  if (got)
    runtime_chunk(c, is, ie, frame);
}

static void on_next(const void *istart, bool got, uint64_t is, uint64_t ie,
                    void *frame) {
  loop_chunks_t *c = armed_loop(frame);
  if (c && got && c->started && c->istart == istart)
    runtime_chunk(c, is, ie, frame);
}

#define EXPORT __attribute__((visibility("default")))

typedef unsigned long long ull;
typedef uintptr_t uptr;

__thread unsigned char bridge_loop_wrapping
    __attribute__((tls_model("initial-exec")));

/* pompt_<entry>: what the program calls instead of libgomp's <entry>
 * (pomp-instr aliases the one for the other in units instrumented at
 * --loop-level=chunks): libgomp's entry, through a weak reference, then a
 * look at the chunk it returned.  START(name, params, args, start, incr,
 * down, istart, iend) makes a start entry, NEXT a next entry. */
#define START(name, params, args, s, i, down, is, ie)                          \
  extern bool name params __attribute__((weak));                               \
  EXPORT bool pompt_##name params {                                            \
    if (!name)                                                                 \
      bridge_gomp_missing(#name);                                              \
    bridge_loop_wrapping = 1;                                                  \
    bool r = name args;                                                        \
    bridge_loop_wrapping = 0;                                                  \
    if (is)                                                                    \
      on_start(is, r, (uint64_t)(s), (uint64_t)(i), down,                      \
               r ? (uint64_t) * (is) : 0, r ? (uint64_t) * (ie) : 0,           \
               BRIDGE_FRAME());                                                \
    return r;                                                                  \
  }
#define NEXT(name, params, args)                                               \
  extern bool name params __attribute__((weak));                               \
  EXPORT bool pompt_##name params {                                            \
    if (!name)                                                                 \
      bridge_gomp_missing(#name);                                              \
    bool r = name args;                                                        \
    on_next(is, r, r ? (uint64_t)*is : 0, r ? (uint64_t)*ie : 0,               \
            BRIDGE_FRAME());                                                   \
    return r;                                                                  \
  }

/* long loops, with a chunk size: static, dynamic, guided, ordered ... */
#define START_LC(name)                                                         \
  START(name, (long s, long e, long i, long ch, long *is, long *ie),           \
        (s, e, i, ch, is, ie), s, i, i < 0, is, ie)
/* long loops, runtime schedules (no chunk size argument) */
#define START_LR(name)                                                         \
  START(name, (long s, long e, long i, long *is, long *ie), (s, e, i, is, ie), \
        s, i, i < 0, is, ie)
/* long loops, the OpenMP 5.0 entries (schedule argument, reductions); a
 * NULL istart only sets up the work share of a static loop. */
#define START_L5(name)                                                         \
  START(name,                                                                  \
        (long s, long e, long i, long sched, long ch, long *is, long *ie,      \
         uptr *red, void **mem),                                               \
        (s, e, i, sched, ch, is, ie, red, mem), s, i, i < 0, is, ie)
/* doacross loops: the logical iterations of the collapsed loops */
#define START_LDC(name)                                                        \
  START(name, (unsigned nc, long *counts, long ch, long *is, long *ie),        \
        (nc, counts, ch, is, ie), 0, 1, 0, is, ie)
#define START_LDR(name)                                                        \
  START(name, (unsigned nc, long *counts, long *is, long *ie),                 \
        (nc, counts, is, ie), 0, 1, 0, is, ie)
#define START_LD5(name)                                                        \
  START(name,                                                                  \
        (unsigned nc, long *counts, long sched, long ch, long *is, long *ie,   \
         uptr *red, void **mem),                                               \
        (nc, counts, sched, ch, is, ie, red, mem), 0, 1, 0, is, ie)
#define NEXT_L(name) NEXT(name, (long *is, long *ie), (is, ie))

/* The same for unsigned long long loops (up: the loop counts upwards). */
#define START_UC(name)                                                         \
  START(name, (bool up, ull s, ull e, ull i, ull ch, ull *is, ull *ie),        \
        (up, s, e, i, ch, is, ie), s, i, !up, is, ie)
#define START_UR(name)                                                         \
  START(name, (bool up, ull s, ull e, ull i, ull *is, ull *ie),                \
        (up, s, e, i, is, ie), s, i, !up, is, ie)
#define START_U5(name)                                                         \
  START(name,                                                                  \
        (bool up, ull s, ull e, ull i, long sched, ull ch, ull *is, ull *ie,   \
         uptr *red, void **mem),                                               \
        (up, s, e, i, sched, ch, is, ie, red, mem), s, i, !up, is, ie)
#define START_UDC(name)                                                        \
  START(name, (unsigned nc, ull *counts, ull ch, ull *is, ull *ie),            \
        (nc, counts, ch, is, ie), 0, 1, 0, is, ie)
#define START_UDR(name)                                                        \
  START(name, (unsigned nc, ull *counts, ull *is, ull *ie),                    \
        (nc, counts, is, ie), 0, 1, 0, is, ie)
#define START_UD5(name)                                                        \
  START(name,                                                                  \
        (unsigned nc, ull *counts, long sched, ull ch, ull *is, ull *ie,       \
         uptr *red, void **mem),                                               \
        (nc, counts, sched, ch, is, ie, red, mem), 0, 1, 0, is, ie)
#define NEXT_U(name) NEXT(name, (ull * is, ull * ie), (is, ie))

#define LOOP_ENTRY(family, name) family(GOMP_loop_##name)
GOMP_LOOP_ENTRIES(LOOP_ENTRY)
