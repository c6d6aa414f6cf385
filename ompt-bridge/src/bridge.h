/*
 * bridge.h -- what the POMP layer asks of the OMPT provider.
 *
 * The POMP layer (pomp/src) knows regions, CTC strings and the POMP event
 * groups; the bridge knows the OMPT model (threads, teams, tasks, states,
 * callbacks).  Every call here is made by the thread the event happens on.
 * codeptr is the return address into the user's code and frame the frame
 * address of the POMP entry point (BRIDGE_FRAME below), both taken by that
 * entry point.
 *
 * Internal to libpompt.
 */
#ifndef POMPT_BRIDGE_H
#define POMPT_BRIDGE_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <omp-tools.h>

#include "bridge_callbacks.h"
#include "pomp.h"

/* Valgrind's client requests, where its headers are installed
 * (bridge_storage_fresh). */
#if defined(__has_include)
#if __has_include(<valgrind/memcheck.h>)
#include <valgrind/memcheck.h>
#define BRIDGE_HAVE_MEMCHECK 1
#endif
#endif

/* Frame addresses, as ompt_frame_t reports them.  On x86-64 they are the
 * addresses a native runtime reports there and tools compare with the frame
 * pointers they unwind: a routine's frame pointer is the slot where its
 * standard prologue saves the caller's, two words below its canonical frame
 * address.  An entry point needs no frame pointer of its own for that
 * address (BRIDGE_FRAME), but a routine that calls the program's outlined
 * function keeps one (BRIDGE_FRAME_KEPT: __builtin_frame_address makes GCC
 * and clang set it up), so that the outlined function's frame links to
 * exactly the address reported as the task's exit_frame.  Elsewhere the
 * layout of frames differs, and canonical frame addresses are reported.
 * Either way a callee's frame address is below its caller's. */
#if defined(__x86_64__)
#define BRIDGE_FRAME()                                                         \
  ((void *)((char *)__builtin_dwarf_cfa() - 2 * sizeof(void *)))
#define BRIDGE_FRAME_KEPT() __builtin_frame_address(0)
#else
#define BRIDGE_FRAME() __builtin_dwarf_cfa()
#define BRIDGE_FRAME_KEPT() __builtin_dwarf_cfa()
#endif

/* The address kind that every frame's flags carry: ompt_frame_cfa, as LLVM
 * libomp flags the same addresses since its frame-flag fix (its OMPT tests
 * assert it in every print_ids, and debuggers' OMPD libraries read them so),
 * or what POMPT_FRAME_FLAGS asks for (bridge_frame_flags_setup, before the
 * first task record): "framepointer", what older libomp said of the
 * x86-64 values (doc/ompt-mapping.md, the frames). */
extern int bridge_frame_flag;
void bridge_frame_flags_setup(void);
/* A POMPT_* switch: the index of its value among the n choices, dflt when
 * unset or empty, or another value (which gets a warning). */
int bridge_env_pick(const char *name, const char *const choices[], int n,
                    int dflt);
/* The same for a switch of two values: 0 for the first, 1 for the second. */
int bridge_env_choice(const char *name, const char *first, const char *second,
                      int dflt);
/* POMPT_SET_RESULT (bridge_inquiry.c): what set_callback answers for a
 * callback delivered only sometimes. */
void bridge_set_results_setup(void);
/* POMPT_WORK_LOOP (bridge_inquiry.c): the work type loops are reported
 * with. */
void bridge_work_loop_setup(void);

/* Nonzero when a tool is active and events must be delivered.  Events check
 * this first: with no tool an event costs a load and a branch. */
extern int bridge_active;
/* Nonzero when the OpenMP runtime provides OMPT itself and libpompt stood
 * down (omp_control_tool is then the runtime's). */
extern int bridge_native_ompt;

/* An implementation-specific entry point for the tool's lookup function
 * (names outside the ompt_ namespace).  Register before the tool starts:
 * from a constructor with a priority below 65535. */
void bridge_register_entry(const char *name, ompt_interface_fn_t fn);

/* A counter of the POMP layer exported as the PAPI software-defined event
 * sde:::pompt::<name> (bridge_sde.c), read through read(arg); instant: the
 * value itself is reported, not its change since PAPI_start.  Register
 * before activation: from a constructor with a priority below 102. */
void bridge_sde_counter(const char *name, const char *description,
                        long long (*read)(void *), void *arg, int instant);

/* size bytes, zeroed and aligned to align (a power of two, at most a
 * cache line), from
 * libpompt's own pages rather than the program's heap (bridge_arena.c), for
 * what lives as long as the process; NULL when none can be had.  Never
 * freed. */
void *bridge_arena_alloc(size_t size, size_t align);
/* Gives back what bridge_arena_alloc returned, where that can be done (in
 * sanitizer builds, whose arena is the heap); elsewhere the memory stays
 * allocated.  For the rare object dropped before it was ever used. */
void bridge_arena_release(void *p);

/* Reads the settings and prepares the tool's start (idempotent,
 * thread-safe): with POMPT_TOOL_START=load it starts the tool now;
 * otherwise the start is armed, and the first event starts it unless
 * bridge_start_before_main comes first. */
void bridge_init(void);
/* Starts the tool now if its start is armed (POMP_Init). */
void bridge_start_tool(void);
/* The program's constructors have run (the last one, pomp-link's): the
 * tool starts now, unless POMPT_TOOL_START says otherwise. */
void bridge_start_before_main(void);
/* Whether the tool's start waits for the first event (not on the thread
 * that is starting it). */
int bridge_start_armed(void);
/* fn runs once whether a tool is active was decided (from a constructor
 * with a priority below 102). */
void bridge_on_start_decided(void (*fn)(void));
/* Whether the program's constructor readies libpompt (POMPT_Init, from the
 * unit pomp-link adds) rather than libpompt's own. */
int bridge_start_deferred(void);
/* Ends every thread and the initial task and finalises the tool (idempotent).
 */
void bridge_finalize(void);

/* ---- Run-time control -----------------------------------------------------
 * Each callback is delivered from one bucket: a POMP event group at one of
 * its levels (seed 004, section 3.8).  The POMP layer says which buckets its
 * environment variables enable and which bucket each event belongs to;
 * POMP_On/Off switch every bucket but BRIDGE_B_ALWAYS. */
enum bridge_bucket {
  BRIDGE_B_ALWAYS,          /* thread_begin/end, initial task, control_tool */
  BRIDGE_B_OTHER,           /* no POMP group: error, target, devices */
  BRIDGE_B_PARALLEL_EE,     /* parallel_begin/end */
  BRIDGE_B_PARALLEL_BE,     /* implicit tasks and their end barrier */
  BRIDGE_B_LOOP_EE,         /* work(loop) */
  BRIDGE_B_LOOP_CHUNKS,     /* dispatch(ws_loop_chunk) */
  BRIDGE_B_LOOP_ITER_EVENT, /* dispatch(iteration) from Loop_iter_event */
  BRIDGE_B_LOOP_ITER_BE,    /* dispatch(iteration) from Loop_iter_begin */
  BRIDGE_B_WORKSHARE_EE,    /* work(sections, single, workshare, scope) */
  BRIDGE_B_WORKSHARE_BE,    /* dispatch(section) */
  BRIDGE_B_SYNC_EE, /* barriers, critical, ordered, atomic, flush, cancel */
  BRIDGE_B_SYNC_BE, /* masked */
  BRIDGE_B_TASK_EE, /* task_create, dependences, taskwait, taskgroup, taskloop
                     */
  BRIDGE_B_TASK_BE, /* task_schedule */
  BRIDGE_B_RUNTIME_EVENT, /* lock_init/destroy, mutex_acquired/released,
                             nest_lock */
  BRIDGE_B_RUNTIME_EE,    /* mutex_acquire of locks */
  BRIDGE_BUCKETS
};

/* The callbacks to deliver now, per bucket: the tool's registered callback
 * if its bucket is enabled and monitoring is on (bridge_internal.h has the
 * whole story).  Declared here so that an exported POMP routine can test
 * the slot of its event first and return at once when nothing listens:
 * then nothing a tool can observe changes, and whatever the bridge would
 * have done first (discovering the thread, delivering a pending barrier
 * end, ending cancelled tasks) is done by the next event that delivers
 * something, in the same order. */
extern _Atomic(ompt_callback_t) bridge_active_cb[BRIDGE_BUCKETS]
                                                [BRIDGE_CALLBACK_SLOTS];

static inline int bridge_wants(int bucket, ompt_callbacks_t which) {
  return atomic_load_explicit(&bridge_active_cb[bucket][which],
                              memory_order_relaxed) != 0;
}
/* Whether a sync region's begin/end or its wait is wanted now. */
static inline int bridge_wants_sync(int bucket) {
  return bridge_wants(bucket, ompt_callback_sync_region) ||
         bridge_wants(bucket, ompt_callback_sync_region_wait);
}
/* Whether a mutex's acquire, acquisition or release is wanted now. */
static inline int bridge_wants_mutex(int bucket) {
  return bridge_wants(bucket, ompt_callback_mutex_acquire) ||
         bridge_wants(bucket, ompt_callback_mutex_acquired) ||
         bridge_wants(bucket, ompt_callback_mutex_released);
}

/* Begin/end pairs that need no model of their own (masked, work): the
 * bridge records the scope of a begin only when the begin is delivered.
 * A begin and its end are told apart from the other open pairs of the same
 * kind by a per-thread sequence number: every begin takes the next one,
 * every end gives one back (pairs of one kind nest on a thread), and the
 * scope record keeps the number of its begin.  An end whose begin left no
 * record finds no record with its number, so a callback registered (or
 * POMP_On) between a begin and its end never produces an end alone.
 * open counts the records a thread has of that kind: with none, an end is
 * a counter decrement. */
typedef struct bridge_pair_seq {
  uint32_t next, open;
} bridge_pair_seq_t;
/* HELD: the structured mutexes (critical, ordered, atomic) held, recorded
 * only when their acquired or released callback is wanted; they are told
 * apart by kind and wait id (one cannot be nested in itself), so only their
 * open count is used. */
enum { BRIDGE_PAIR_MASKED, BRIDGE_PAIR_WORK, BRIDGE_PAIR_HELD, BRIDGE_PAIRS };
extern __thread bridge_pair_seq_t bridge_pairs[BRIDGE_PAIRS]
    __attribute__((tls_model("initial-exec")));
/* The work pairs' next number after the thread's latest instrumented
 * worksharing construct began: libgomp's start entries tell that
 * construct's call from one of code pomp-cc did not compile by it
 * (bridge_gomp_work.c). */
extern __thread uint32_t bridge_work_entered
    __attribute__((tls_model("initial-exec")));

/* Enable exactly the buckets in mask (bit 1 << bucket); ALWAYS and OTHER
 * are always enabled. */
void bridge_set_buckets(uint32_t mask);
/* POMP_On / POMP_Off: switch callbacks on or off; the model stays current. */
void bridge_set_enabled(int on);
/* omp_control_tool: deliver control_tool, return the tool's answer.  frame:
 * the canonical frame address of the routine the program called, the
 * encountering task's enter_frame while the tool runs. */
int bridge_control_tool(uint64_t command, uint64_t modifier, void *arg,
                        const void *codeptr, void *frame);

/* ---- Parallel regions.  team is the POMP_Team_t storage of this instance. */
/* how: BRIDGE_ENTER_IF_FALSE for an if clause that was false;
 * BRIDGE_ENTER_QUIET when the construct's block begins and ends with the
 * compact family's block events, which may then go quiet (bridge_block_t
 * below), and BRIDGE_ENTER_QUIET_COMBINE besides when a reduction is
 * combined after the block (the combining then begins when the block's
 * function returns, or at libgomp's atomic lock: bridge_block_due). */
enum {
  BRIDGE_ENTER_IF_FALSE = 1,
  BRIDGE_ENTER_QUIET = 2,
  BRIDGE_ENTER_QUIET_COMBINE = 4
};
void bridge_parallel_enter(POMP_Team_t *team, int requested, int how,
                           const void *codeptr, void *frame);
/* The block of the implicit task that libpompt's region trampoline began
 * (bridge_gomp.c, region_run), for the compact family's Parallel_begin and
 * Parallel_end entries (and the combined constructs' Parallel_begin_*_enter
 * and *_exit_parallel_end), whose path with a tool is then assembler
 * (pomp_lean.c) when the thread's team is the entry's: Parallel_begin only
 * clears *early (the task's early_begun, as bridge_parallel_begin does),
 * Parallel_end only stores its return address in end_codeptr, and the
 * trampoline does the rest once the block's function returned
 * (bridge_parallel_returned).  What the program runs in between
 * (the combining of a reduction, destructors) is nothing a tool observes,
 * but a combining under libgomp's atomic lock, whose entry first does what
 * the end would have done (bridge_block_due).  Set when the trampoline
 * began the task, cleared when the function returned; a region nested
 * inside replaces it, so that the outer construct's events after it take
 * the general path.  The quiet flags are the construct's, the same at
 * every execution (a team's storage is written only where it changes:
 * BRIDGE_TEAM_SET).  Offsets fixed for the assembler. */
typedef struct bridge_block {
  const void *team;
  uint8_t *early;
  const void *end_codeptr;
  /* The quiet end is a combined construct's (Loop_exit_parallel_end,
   * Sections_exit_parallel_end): its worksharing construct ends first. */
  uintptr_t work;
} bridge_block_t;
extern __thread bridge_block_t bridge_block
    __attribute__((tls_model("initial-exec")));
_Static_assert(offsetof(bridge_block_t, early) == sizeof(void *) &&
                   offsetof(bridge_block_t, end_codeptr) ==
                       2 * sizeof(void *) &&
                   offsetof(bridge_block_t, work) == 3 * sizeof(void *),
               "pomp_lean.c's entries read bridge_block at these offsets");
/* A quiet end of the thread's still pending (its block's function has not
 * returned): done now, at frame, as its event would have done it; for an
 * event that must come after it (bridge_reduction.c). */
void bridge_block_due_slow(void *frame);
static inline void bridge_block_due(void *frame) {
  if (__builtin_expect(bridge_block.end_codeptr != 0, 0))
    bridge_block_due_slow(frame);
}
/* The codeptr_ra with which the calling thread's implicit task of team left
 * its block, while it waits in the region's end barrier (NULL when it left
 * without an end event): the construct's end's call site, for a
 * Parallel_exit whose end went quiet (pompt_region_info). */
const void *bridge_block_left_codeptr(POMP_Team_t *team);
/* The C form of the quiet Parallel_begin, for the combined constructs'
 * begin entries: whether it applied. */
static inline int bridge_block_begin(POMP_Team_t *team) {
  if (bridge_block.team != team)
    return 0;
  *bridge_block.early = 0;
  return 1;
}
void bridge_parallel_begin(POMP_Team_t *team, void *frame);
/* combining: the construct's reduction is on the parallel leaf, GCC
 * combines after the block: the thread combines until the block's function
 * returns (reduction callbacks), then waits. */
void bridge_parallel_end(POMP_Team_t *team, int combining, const void *codeptr,
                         void *frame);
void bridge_parallel_exit(POMP_Team_t *team, const void *codeptr, void *frame);

/* ---- Worksharing ----------------------------------------------------------
 */
/* The work type of a loop whose schedule is the encountering task's
 * run-sched-var (schedule(runtime)): the begin that is delivered asks it
 * (ompt_work_loop_static, _dynamic, ...); the end carries the begin's. */
#define BRIDGE_WORK_LOOP_RUNTIME ((ompt_work_t)0)
void bridge_work_begin(int bucket, ompt_work_t type, uint64_t count,
                       const void *codeptr, void *frame);
void bridge_work_end(int bucket, ompt_work_t type, const void *codeptr,
                     void *frame);
/* The same, for the POMP layer's entry points: the call into the bridge
 * only when the begin is to be delivered / an end may be. */
static inline void bridge_work_enter(int bucket, ompt_work_t type,
                                     uint64_t count, const void *codeptr,
                                     void *frame) {
  if (bridge_wants(bucket, ompt_callback_work))
    bridge_work_begin(bucket, type, count, codeptr, frame);
  else
    bridge_pairs[BRIDGE_PAIR_WORK].next++;
  bridge_work_entered = bridge_pairs[BRIDGE_PAIR_WORK].next;
}
static inline void bridge_work_leave(int bucket, ompt_work_t type,
                                     const void *codeptr, void *frame) {
  if (bridge_pairs[BRIDGE_PAIR_WORK].open)
    bridge_work_end(bucket, type, codeptr, frame);
  else
    bridge_pairs[BRIDGE_PAIR_WORK].next--;
}
/* The same for constructs of no POMP group (distribute), no frame. */
void bridge_work(ompt_work_t type, ompt_scope_endpoint_t endpoint,
                 uint64_t count, const void *codeptr);
void bridge_dispatch(int bucket, ompt_dispatch_t kind, ompt_data_t instance,
                     void *frame);
/* single: begin/end only on the thread that executes the block; exit on
 * every thread (the others are reported as single_other there).  The
 * begins carry the construct's codeptr_ra (its enter event's: one address
 * for the construct on every thread, as a native runtime's entry gives),
 * construct in bridge_single_exit, which gives it to a non-executing
 * thread's end too (libomp's one call); the executor's end, its event's. */
void bridge_single_begin(const void *codeptr, void *frame);
void bridge_single_end(const void *codeptr, void *frame);
void bridge_single_exit(const void *codeptr, const void *construct,
                        void *frame);

/* masked (master) */
void bridge_masked(ompt_scope_endpoint_t endpoint, const void *codeptr,
                   void *frame);
void bridge_masked_begin(const void *codeptr, void *frame);
void bridge_masked_end(const void *codeptr, void *frame);
/* The same, for the POMP layer's entry points (see bridge_work_enter). */
static inline void bridge_masked_fast(ompt_scope_endpoint_t endpoint,
                                      const void *codeptr, void *frame) {
  bridge_pair_seq_t *p = &bridge_pairs[BRIDGE_PAIR_MASKED];
  if (endpoint == ompt_scope_begin) {
    if (bridge_wants(BRIDGE_B_SYNC_BE, ompt_callback_masked))
      bridge_masked_begin(codeptr, frame);
    else
      p->next++;
  } else if (p->open) {
    bridge_masked_end(codeptr, frame);
  } else {
    p->next--;
  }
}

/* The lane byte of an atomic construct's descriptor (pomp.h) once its kind
 * is known (enum bridge_atomic_kind): 0 while it is not, or for one under
 * libgomp's lock, whose events libpompt delivers (bridge_atomic.c). */
int bridge_atomic_lane(int kind);
/* After an inline event libpompt handled: the lane reopened as far as the
 * thread's state allows (bridge_lane.c). */
void bridge_lane_settle(void);
/* The same for the inline master events of pomp.h when the thread's lane
 * was not usable (bridge_lane.c); pair: the construct's handle is valid and
 * a tool is active, so the region is a pair of the bridge's own unless its
 * begin was delivered inline. */
void bridge_lane_masked_begin(int pair, const void *codeptr, void *frame);
void bridge_lane_masked_end(int pair, const void *codeptr, void *frame);

/* ---- Synchronisation ------------------------------------------------------
 */
/* Barriers and taskwait: sync_region + sync_region_wait, wait state. */
void bridge_sync_enter(int bucket, ompt_sync_region_t kind, const void *codeptr,
                       void *frame);
void bridge_sync_exit(int bucket, ompt_sync_region_t kind, const void *codeptr,
                      void *frame);
/* taskgroup: the region from enter to exit, its wait from end to exit. */
void bridge_taskgroup_enter(const void *codeptr, void *frame);
void bridge_taskgroup_end(const void *codeptr, void *frame);
void bridge_taskgroup_exit(const void *codeptr, void *frame);
/* taskyield: a task scheduling point (frames only; no OMPT callback). */
void bridge_scheduling_point(int entering, void *frame);

/* Team storage that libpompt is about to compare field by field
 * (BRIDGE_TEAM_SET, bridge_internal.h): on the stack it is uninitialised
 * the first time, which Valgrind's memcheck would report at every
 * comparison (each field is set whatever it held).  A client request is a
 * dozen instructions even outside Valgrind, so it is made only under
 * memcheck, the tool that tracks definedness (bridge_under_memcheck, found
 * once at start-up: not under cachegrind either, whose instruction counts
 * stand for a native run). */
extern int bridge_under_memcheck;
static inline void bridge_storage_fresh(void *storage, size_t size) {
#ifdef BRIDGE_HAVE_MEMCHECK
  if (__builtin_expect(bridge_under_memcheck, 0))
    VALGRIND_MAKE_MEM_DEFINED(storage, size);
#else
  (void)storage, (void)size;
#endif
}

/* Mutual exclusion.  held: a structured construct (critical, ordered)
 * whose release is known to end a held scope. */
void bridge_mutex_acquire(int bucket, ompt_mutex_t kind, unsigned hint,
                          ompt_wait_id_t wait_id, const void *codeptr,
                          void *frame);
void bridge_mutex_acquired(int bucket, ompt_mutex_t kind,
                           ompt_wait_id_t wait_id, int held,
                           const void *codeptr, void *frame);
void bridge_mutex_released(int bucket, ompt_mutex_t kind,
                           ompt_wait_id_t wait_id, int held,
                           const void *codeptr, void *frame);
/* The release of a held structured mutex, for the POMP layer: nothing to
 * do when the thread holds none that was recorded (the exit event after a
 * block's end event, or no mutex callback wanted at the acquisition). */
static inline void bridge_mutex_release_held(int bucket, ompt_mutex_t kind,
                                             ompt_wait_id_t wait_id,
                                             const void *codeptr, void *frame) {
  if (bridge_pairs[BRIDGE_PAIR_HELD].open)
    bridge_mutex_released(bucket, kind, wait_id, 1, codeptr, frame);
}
/* Set while the thread is inside an instrumented atomic construct (from
 * its enter to its exit event): a GOMP_atomic_start there is the
 * construct's, not a reduction's (bridge_reduction.c). */
extern __thread unsigned char bridge_in_atomic
    __attribute__((tls_model("initial-exec")));
static inline void bridge_atomic_left(void) {
  bridge_in_atomic = 0;
}
/* An atomic construct's events (bridge_atomic.c).  kind: the construct's
 * enum bridge_atomic_kind, in its region record, zero at first; the wait id
 * follows from it.  The exit releases what the thread's enter acquired. */
enum bridge_atomic_kind {
  BRIDGE_ATOMIC_UNKNOWN,
  BRIDGE_ATOMIC_INSTRUCTION, /* no lock: the thread's own wait id */
  BRIDGE_ATOMIC_LOCKED       /* GOMP_atomic_start: libgomp's lock */
};
void bridge_atomic_enter(int bucket, unsigned char *kind, const void *codeptr,
                         void *frame);
void bridge_atomic_exit(int bucket, const void *codeptr);
/* A failed test: the wait ends without the mutex. */
void bridge_mutex_not_acquired(ompt_wait_id_t wait_id, void *frame);

/* Locks (the Runtime group).  The nest-lock routines track the calling
 * task's nesting count, so that a re-acquire or a partial release becomes
 * nest_lock(begin/end) and only the first acquire / last release
 * mutex_acquired / mutex_released. */
void bridge_lock_init(ompt_mutex_t kind, unsigned hint, const void *lock,
                      const void *codeptr, void *frame);
void bridge_lock_destroy(ompt_mutex_t kind, const void *lock,
                         const void *codeptr, void *frame);
/* Before omp_set_lock / omp_set_nest_lock / omp_test_*lock. */
void bridge_lock_acquire(ompt_mutex_t kind, const void *lock,
                         const void *codeptr, void *frame);
/* After it: acquired (for the nest lock routines: the lock is owned now,
 * count = the new nesting count when known, else 0). */
void bridge_lock_acquired(ompt_mutex_t kind, const void *lock, int acquired,
                          int count, const void *codeptr, void *frame);
/* Before omp_unset_lock / omp_unset_nest_lock. */
void bridge_lock_release(ompt_mutex_t kind, const void *lock,
                         const void *codeptr, void *frame);

/* flush, cancel, error */
void bridge_flush(const void *codeptr, void *frame);
void bridge_cancel(int flags, const void *codeptr, void *frame);
void bridge_error(ompt_severity_t severity, const char *message,
                  const void *codeptr, void *frame);

/* ---- Explicit tasks --------------------------------------------------------
 * pomp_flags: POMP_TASK_* of the construct. */
int32_t bridge_task_create_begin(POMP_Task_t *task, int pomp_flags,
                                 const void *codeptr, void *frame);
int32_t bridge_task_dependences(POMP_Task_t *task,
                                const POMP_Dependence_t deps[], int ndeps);
int32_t bridge_task_create_end(POMP_Task_t *task, void *frame);
int32_t bridge_task_begin(POMP_Task_t *task, const void *codeptr, void *frame);
int32_t bridge_task_end(POMP_Task_t *task, void *frame);
/* The same for the compact family (POMPT_Task_*), whose instance is the
 * task's record itself: create_begin returns it (0 when none was made). */
uintptr_t bridge_task_create_begin_word(int pomp_flags, const void *codeptr,
                                        void *frame);
/* pomp_lean.c: what libpompt found out about a construct, written into its
 * descriptor's lane byte for pomp.h's inline events (once: the construct's
 * other threads read its line). */
void pomp_desc_mark(POMPT_Desc_t *d, unsigned char what);
/* pomp_task.c: a construct that hands its tasks over (pomp.h,
 * POMPT_Task_hand) reached libpompt's GOMP_task from codeptr: its region
 * is made and that call site recorded, the first time. */
void pomp_task_seen(POMPT_Desc_t *d, const void *codeptr);
int32_t bridge_task_dependences_word(uintptr_t task,
                                     const POMP_Dependence_t deps[], int ndeps);
int32_t bridge_task_begin_word(uintptr_t task, void *frame);
int32_t bridge_task_end_word(uintptr_t task, void *frame);

#endif /* POMPT_BRIDGE_H */
