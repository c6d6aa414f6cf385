/*
 * bridge_gomp_work.c -- the worksharing loops and sections constructs of
 * code pomp-cc did not compile, reported from libgomp's entries:
 * work(begin) at a GOMP_loop_*_start or GOMP_sections_start call, with the
 * entry's schedule and the construct's iteration or section count, and
 * work(end) at the thread's matching end call (GOMP_loop_end[_nowait,
 * _cancel], GOMP_sections_end[_nowait, _cancel]; the implicit barrier,
 * reported by bridge_gomp_sync.c, follows the end, as at a native runtime);
 * and a loop's chunks, from its start call and the GOMP_loop_*_next calls
 * (below).
 *
 * An instrumented construct reports itself: its enter event, before GCC's
 * call of the start entry, has opened a work pair (bridge_pairs, also where
 * no callback is delivered) and noted the pairs' count then
 * (bridge_work_entered), which the start entry compares inline.  A start
 * entry that finds it otherwise belongs to code no POMP event surrounds (a
 * library built with plain gcc, a Fortran unit, a noinstrument range,
 * --disable=loop or workshare).  The works opened here are kept on a
 * thread's stack (16 deep) with the pairs' count once each was opened; an
 * end call closes the one on top when that count is the current one, which
 * an instrumented construct's end call (its pair innermost) never finds.
 *
 * A loop with a static schedule and no ordered clause calls no entry at
 * all (GCC divides its iterations inline), and a doacross loop's start is
 * bridge_doacross.c's: their work stays unreported.  So does that of a
 * loop in a noinstrument range of a unit instrumented at the chunk level,
 * whose start calls come from bridge_loop.c's wrappers
 * (bridge_loop_wrapping), not from the program.  Without a tool a start
 * entry is a test and a tail call of libgomp's, an end or next entry a
 * test of the thread's stack; the static library defines the entries as
 * __wrap_GOMP_<x>, linked with --wrap (bridge_gomp_entry.h).
 */
#define _GNU_SOURCE
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "bridge.h"
#include "bridge_gomp_entry.h"
#include "bridge_internal.h"
#include "gomp_loop_entries.h"

typedef unsigned long long ull;
typedef uintptr_t uptr;

/* The works the thread opened from start entries and has not closed:
 * each one's type, and the thread's count of open work pairs
 * (bridge_pairs) once it was opened, by which its end call tells it from
 * an instrumented construct's (whose pair, opened after, is then the
 * innermost). */
#define WORK_MAX 16
static __thread struct {
  ompt_work_t type;
  uint32_t seq;
} opened[WORK_MAX] __attribute__((tls_model("initial-exec")));
static __thread unsigned opened_depth
    __attribute__((tls_model("initial-exec")));

/* libgomp's schedule numbers (gomp-constants.h GFS_*), monotonic bit
 * aside. */
static ompt_work_t schedule_type(long sched) {
  switch ((unsigned long)sched & 0x7fffffffUL) {
  case 0: /* runtime */
    return bridge_loop_work_runtime();
  case 1: /* static */
  case 4: /* auto, which libgomp runs as static */
    return ompt_work_loop_static;
  case 2:
    return ompt_work_loop_dynamic;
  case 3:
    return ompt_work_loop_guided;
  default:
    return ompt_work_loop_other;
  }
}

/* The schedule an entry's name says (sched < 0: not in the name).  Called
 * with the entry's name as a literal, inlined: the compiler folds the
 * searches, and the object has no strstr call. */
static ompt_work_t name_type(const char *name, long sched) {
  if (sched >= 0)
    return schedule_type(sched);
  if (strstr(name, "static"))
    return ompt_work_loop_static;
  if (strstr(name, "dynamic"))
    return ompt_work_loop_dynamic;
  if (strstr(name, "guided"))
    return ompt_work_loop_guided;
  if (strstr(name, "runtime"))
    return bridge_loop_work_runtime();
  return ompt_work_loop_other;
}

/* Whether the start call is an instrumented construct's: its enter event
 * came last and its pair is still the innermost open one (a pair is open:
 * the count is not 0).  Tested inline,
 * before any call. */
static inline int instrumented_start(void) {
  uint32_t next = bridge_pairs[BRIDGE_PAIR_WORK].next;
  return bridge_work_entered == next && next; /* both 0 on a new thread */
}

/* Whether a start call with a tool active is one of code pomp-cc did
 * not compile, whose work work_open opens. */
static __attribute__((noinline)) int work_opening(void) {
  bridge_thread_t *t = bridge_thread_peek();
  return t && t->cur && !(t->cur->flags & ompt_task_initial) &&
         opened_depth < WORK_MAX;
}

static __attribute__((noinline)) void work_open(ompt_work_t type, int bucket,
                                                uint64_t count,
                                                const void *codeptr,
                                                void *frame) {
  bridge_work_enter(bucket, type, count, codeptr, frame);
  unsigned d = opened_depth++;
  opened[d].type = type;
  opened[d].seq = bridge_pairs[BRIDGE_PAIR_WORK].next;
  bridge_thread_t *t = bridge_thread_peek();
  if (t && d < BRIDGE_WORK_CHUNKS_MAX)
    t->work_chunks[d].istart = NULL;
}

/* ---- Chunks -------------------------------------------------------------
 * The chunks of a loop opened here (dispatch(ompt_dispatch_ws_loop_chunk),
 * in logical iterations, as bridge_loop.c reports an instrumented loop's):
 * the first one from its start call, each further one from a next call
 * with the same istart variable (a loop nested in the body, or one of the
 * program's instrumented code it calls, has its own).  Kept in the
 * thread's record for the BRIDGE_WORK_CHUNKS_MAX outermost loops on the
 * stack: an istart variable (the start call's and every next call's for
 * the loop; NULL: no chunks to report), the loop's start and increment as
 * libgomp has them, and whether it counts down.  The loop of a combined
 * parallel loop entry, whose threads call no start entry, is pushed around
 * each thread's part of the region by bridge_gomp.c, its istart taken from
 * the thread's first next call. */

#define ISTART_ANY ((const void *)1)

static void chunk_deliver(uint64_t first, uint64_t iterations, void *frame) {
  ompt_dispatch_chunk_t c = {.start = first, .iterations = iterations};
  bridge_dispatch(BRIDGE_B_LOOP_CHUNKS, ompt_dispatch_ws_loop_chunk,
                  (ompt_data_t){.ptr = &c}, frame);
}

/* The chunk [is, ie) of the loop at depth d, by libgomp's bounds. */
static void chunk_of(const bridge_thread_t *t, unsigned d, uint64_t is,
                     uint64_t ie, void *frame) {
  uint64_t s = t->work_chunks[d].start, i = t->work_chunks[d].incr;
  if (t->work_chunks[d].down) /* i is negative: its magnitude downwards */
    chunk_deliver((s - is) / -i, (is - ie - i - 1) / -i, frame);
  else
    chunk_deliver((is - s) / i, (ie - is + i - 1) / i, frame);
}

/* The loop at depth d < BRIDGE_WORK_CHUNKS_MAX of thread t, as libgomp has
 * it. */
static void chunks_note(bridge_thread_t *t, unsigned d, const void *istart,
                        uint64_t start, uint64_t incr, bool down) {
  t->work_chunks[d].istart = istart;
  t->work_chunks[d].start = start;
  t->work_chunks[d].incr = incr;
  t->work_chunks[d].down = (unsigned char)down;
}

/* After a start call that opened a loop (the stack grew from d0): note it
 * and report its first chunk when the call handed one out.  down: the
 * loop counts downwards (a long loop's negative increment, a ull loop's
 * up flag clear). */
static __attribute__((noinline)) void
chunks_start(unsigned d0, const void *istart, bool got, uint64_t is,
             uint64_t ie, uint64_t start, uint64_t incr, bool down,
             void *frame) {
  bridge_thread_t *t = bridge_thread_peek();
  if (!t || opened_depth != d0 + 1 || d0 >= BRIDGE_WORK_CHUNKS_MAX || !istart ||
      !incr || !bridge_wants(BRIDGE_B_LOOP_CHUNKS, ompt_callback_dispatch))
    return;
  chunks_note(t, d0, istart, start, incr, down);
  if (got)
    chunk_of(t, d0, is, ie, frame);
}

/* A next call's chunk, when it is the loop on top's. */
static __attribute__((noinline)) void
chunks_next(const void *istart, uint64_t is, uint64_t ie, void *frame) {
  unsigned d = opened_depth;
  bridge_thread_t *t = bridge_thread_peek();
  if (!t || !d || d > BRIDGE_WORK_CHUNKS_MAX || bridge_loop_wrapping ||
      !bridge_wants(BRIDGE_B_LOOP_CHUNKS, ompt_callback_dispatch))
    return;
  if (t->work_chunks[d - 1].istart == ISTART_ANY) /* a combined loop's */
    t->work_chunks[d - 1].istart = istart;
  if (t->work_chunks[d - 1].istart == istart)
    chunk_of(t, d - 1, is, ie, frame);
}

/* The combined loop's entry: a stack entry without work of its own
 * (type 0, which no end call closes), whose istart the first next call
 * gives it (ISTART_ANY until then). */
int bridge_gomp_chunks_push(uint64_t start, uint64_t incr, int down) {
  unsigned d = opened_depth;
  bridge_thread_t *t = bridge_thread_peek();
  if (!t || d >= WORK_MAX ||
      !bridge_wants(BRIDGE_B_LOOP_CHUNKS, ompt_callback_dispatch))
    return 0;
  opened[d].type = (ompt_work_t)0;
  opened[d].seq = bridge_pairs[BRIDGE_PAIR_WORK].next;
  if (d < BRIDGE_WORK_CHUNKS_MAX)
    chunks_note(t, d, ISTART_ANY, start, incr, down);
  opened_depth = d + 1;
  return 1;
}

void bridge_gomp_chunks_pop(void) {
  unsigned d = opened_depth;
  if (d && opened[d - 1].type == (ompt_work_t)0)
    opened_depth = d - 1;
}

void bridge_gomp_work_close(const void *codeptr, void *frame) {
  unsigned d = opened_depth;
  if (!d || opened[d - 1].seq != bridge_pairs[BRIDGE_PAIR_WORK].next ||
      opened[d - 1].type == (ompt_work_t)0)
    return; /* an instrumented construct's end, or a combined loop's */
  opened_depth = d - 1;
  ompt_work_t type = opened[d - 1].type;
  bridge_work_leave(type == ompt_work_sections ? BRIDGE_B_WORKSHARE_EE
                                               : BRIDGE_B_LOOP_EE,
                    type, codeptr, frame);
}

/* Iterations of [s, e) by i (long loops), of a ull loop counting up or
 * down. */
static uint64_t count_long(long s, long e, long i) {
  if (i > 0 && e > s)
    return ((uint64_t)e - (uint64_t)s + (uint64_t)i - 1) / (uint64_t)i;
  if (i < 0 && s > e)
    return ((uint64_t)s - (uint64_t)e - (uint64_t)i - 1) / -(uint64_t)i;
  return 0;
}
static uint64_t count_ull(bool up, ull s, ull e, ull i) {
  if (up)
    return e > s && i ? (e - s + i - 1) / i : 0;
  return s > e && i ? (s - e - i - 1) / -i : 0;
}

/* A start entry: libgomp's, after the work's begin where it is one of
 * code pomp-cc did not compile.  The slow path apart, so that the entry
 * without a tool is a test and a tail call. */
#define START(name, params, args, count, sched, s, i, down)                    \
  typedef bool(*name##_t) params;                                              \
  static name##_t real_##name;                                                 \
  GOMP_REAL_DECL(name);                                                        \
  static __attribute__((noinline)) bool name##_slow(                           \
      EXPAND params, const void *codeptr, void *frame) {                       \
    GOMP_REAL_ENSURE(real_##name, name);                                       \
    unsigned d0 = opened_depth;                                                \
    if (bridge_active && !instrumented_start() && !bridge_loop_wrapping &&     \
        work_opening())                                                        \
      work_open(name_type(#name, (sched)), BRIDGE_B_LOOP_EE, (count), codeptr, \
                frame);                                                        \
    bool got = real_##name args;                                               \
    if (opened_depth != d0)                                                    \
      chunks_start(d0, is, got, got &&is ? (uint64_t)*is : 0,                  \
                   got &&ie ? (uint64_t)*ie : 0, (uint64_t)(s), (uint64_t)(i), \
                   (down), frame);                                             \
    return got;                                                                \
  }                                                                            \
  GOMP_EXPORT bool GOMP_ENTRY(name) params {                                   \
    if (__builtin_expect(                                                      \
            (bridge_active && !instrumented_start()) || !real_##name, 0))      \
      return name##_slow(EXPAND args,                                          \
                         gomp_codeptr(__builtin_return_address(0)),            \
                         BRIDGE_FRAME());                                      \
    return real_##name args;                                                   \
  }
#define EXPAND(...) __VA_ARGS__

#define START_LC(name)                                                         \
  START(name, (long s, long e, long i, long ch, long *is, long *ie),           \
        (s, e, i, ch, is, ie), count_long(s, e, i), -1, s, i, i < 0)
#define START_LR(name)                                                         \
  START(name, (long s, long e, long i, long *is, long *ie), (s, e, i, is, ie), \
        count_long(s, e, i), -1, s, i, i < 0)
#define START_L5(name)                                                         \
  START(name,                                                                  \
        (long s, long e, long i, long sched, long ch, long *is, long *ie,      \
         uptr *red, void **mem),                                               \
        (s, e, i, sched, ch, is, ie, red, mem), count_long(s, e, i), sched, s, \
        i, i < 0)
#define START_UC(name)                                                         \
  START(name, (bool up, ull s, ull e, ull i, ull ch, ull *is, ull *ie),        \
        (up, s, e, i, ch, is, ie), count_ull(up, s, e, i), -1, s, i, !up)
#define START_UR(name)                                                         \
  START(name, (bool up, ull s, ull e, ull i, ull *is, ull *ie),                \
        (up, s, e, i, is, ie), count_ull(up, s, e, i), -1, s, i, !up)
#define START_U5(name)                                                         \
  START(name,                                                                  \
        (bool up, ull s, ull e, ull i, long sched, ull ch, ull *is, ull *ie,   \
         uptr *red, void **mem),                                               \
        (up, s, e, i, sched, ch, is, ie, red, mem), count_ull(up, s, e, i),    \
        sched, s, i, !up)
/* Doacross loops' start entries are bridge_doacross.c's; their work is
 * not reported from there. */
#define START_LDC(name)
#define START_LDR(name)
#define START_LD5(name)
#define START_UDC(name)
#define START_UDR(name)
#define START_UD5(name)
/* A next entry: without a loop opened here, a test and a tail call of
 * libgomp's. */
#define NEXT(name, T)                                                          \
  typedef bool (*name##_t)(T *, T *);                                          \
  static name##_t real_##name;                                                 \
  GOMP_REAL_DECL(name);                                                        \
  static                                                                       \
      __attribute__((noinline)) bool name##_slow(T *is, T *ie, void *frame) {  \
    GOMP_REAL_ENSURE(real_##name, name);                                       \
    bool got = real_##name(is, ie);                                            \
    if (got && opened_depth)                                                   \
      chunks_next(is, (uint64_t)*is, (uint64_t)*ie, frame);                    \
    return got;                                                                \
  }                                                                            \
  GOMP_EXPORT bool GOMP_ENTRY(name)(T * is, T * ie) {                          \
    if (__builtin_expect(opened_depth || !real_##name, 0))                     \
      return name##_slow(is, ie, BRIDGE_FRAME());                              \
    return real_##name(is, ie);                                                \
  }
#define NEXT_L(name) NEXT(name, long)
#define NEXT_U(name) NEXT(name, ull)

#define LOOP_ENTRY(family, name) family(GOMP_loop_##name)
GOMP_LOOP_ENTRIES(LOOP_ENTRY)
#undef LOOP_ENTRY

/* sections: GOMP_sections_start(count) and, with reductions,
 * GOMP_sections2_start(count, reductions, mem). */
typedef unsigned (*sections_start_t)(unsigned);
typedef unsigned (*sections2_start_t)(unsigned, uptr *, void **);
static sections_start_t real_sections_start;
static sections2_start_t real_sections2_start;
GOMP_REAL_DECL(GOMP_sections_start);
GOMP_REAL_DECL(GOMP_sections2_start);

static __attribute__((noinline)) unsigned
sections_slow(unsigned count, uptr *red, void **mem, int two,
              const void *codeptr, void *frame) {
  if (two)
    GOMP_REAL_ENSURE(real_sections2_start, GOMP_sections2_start);
  else
    GOMP_REAL_ENSURE(real_sections_start, GOMP_sections_start);
  if (bridge_active && !instrumented_start() && work_opening())
    work_open(ompt_work_sections, BRIDGE_B_WORKSHARE_EE, count, codeptr, frame);
  return two ? real_sections2_start(count, red, mem)
             : real_sections_start(count);
}

GOMP_EXPORT unsigned GOMP_ENTRY(GOMP_sections_start)(unsigned count) {
  if (__builtin_expect(
          (bridge_active && !instrumented_start()) || !real_sections_start, 0))
    return sections_slow(count, NULL, NULL, 0,
                         gomp_codeptr(__builtin_return_address(0)),
                         BRIDGE_FRAME());
  return real_sections_start(count);
}

GOMP_EXPORT unsigned GOMP_ENTRY(GOMP_sections2_start)(unsigned count, uptr *red,
                                                      void **mem) {
  if (__builtin_expect(
          (bridge_active && !instrumented_start()) || !real_sections2_start, 0))
    return sections_slow(count, red, mem, 1,
                         gomp_codeptr(__builtin_return_address(0)),
                         BRIDGE_FRAME());
  return real_sections2_start(count, red, mem);
}

/* The end calls without a barrier (the others are bridge_gomp_sync.c's and
 * bridge_gomp_cancel.c's, which close the work first too). */
typedef void (*gomp_end_t)(void);

/* Without an opened work such an end call passes at once (as the start
 * entries, with a test of their own). */
#define NOWAIT_END(name)                                                       \
  static gomp_end_t real_##name;                                               \
  GOMP_REAL_DECL(name);                                                        \
  static __attribute__((noinline)) void name##_slow(const void *codeptr,       \
                                                    void *frame) {             \
    GOMP_REAL_ENSURE(real_##name, name);                                       \
    bridge_gomp_work_close(codeptr, frame);                                    \
    real_##name();                                                             \
  }                                                                            \
  GOMP_EXPORT void GOMP_ENTRY(name)(void) {                                    \
    if (__builtin_expect(opened_depth || !real_##name, 0)) {                   \
      name##_slow(gomp_codeptr(__builtin_return_address(0)), BRIDGE_FRAME());  \
      return;                                                                  \
    }                                                                          \
    real_##name();                                                             \
  }

NOWAIT_END(GOMP_loop_end_nowait)
NOWAIT_END(GOMP_sections_end_nowait)
