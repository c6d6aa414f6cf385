/*
 * pomp.h -- the POMP performance monitoring interface for OpenMP.
 *
 * This is the contract between instrumented code (written by pomp-instr, or
 * by hand) and a monitoring library (libpompt, which turns the events into
 * OMPT callbacks).  It follows "A Performance Monitoring Interface for
 * OpenMP" (Mohr, Malony et al.): event names of its Appendix C, the
 * compile-time context (CTC) strings of its section 3.2 and the handle
 * conventions of its section 3.3 and Appendix B.
 *
 * Conventions, for every event routine:
 *  - The first event of a construct takes a POMP_Handle_t* and the CTC string
 *    as its last argument.  A zero handle is initialised from the CTC string
 *    on first use (thread-safely); a handle pre-initialised with
 *    POMP_Get_handle() lets the CTC string be NULL.  One of the two must be
 *    valid.  Later events of the same construct take the handle by value.
 *  - thread_id is the OpenMP thread number of the caller, or POMP_THREAD_SELF
 *    to let the library find it (which is what pomp-instr emits: the library
 *    knows the thread's place in its team already, so the instrumented code
 *    does not pay for a runtime call per event).
 *  - Run-time context (RTC) values that are not applicable are passed as the
 *    "NA" value of the seed's section 3.3 table (-1, or 0 for loop bounds).
 *  - Every routine returns a status: POMP_SUCCESS or a negative POMP_ERR_*.
 *
 * CTC string format (section 3.2):
 *     "<length>*type=<type>*file=<file>*lines=<first>,<last>*...**"
 * <length> counts the characters from the first '*' to the last, inclusive.
 * A '*' or '\' inside a value is written as "\*" or "\\".
 *
 * Deviations from the 2002 proposal, all deliberate:
 *  - Lock events identify a lock by its address (const void *), because an
 *    omp_lock_t copied by value carries no identity.
 *  - Parallel regions have a second family of events (the *_team forms) that
 *    carry a POMP_Team_t, storage the instrumenter places on the encountering
 *    thread's stack and shares into the region.  It tells worker threads which
 *    instance of a region they joined even when the same construct runs
 *    concurrently (nested parallelism, recursion); the seed's four-event form
 *    remains available for hand instrumentation.
 */
#ifndef POMP_H
#define POMP_H

/* pomp-cc includes this header ahead of the program's first line, with
 * POMP_H_FORCED defined.  Its code is then pompt's, not the program's: the
 * program's warning options (-Wconversion, -Wpadded, ... with -Werror) are
 * not for it, hence a system header.  And it includes no libc header: the
 * program's own feature-test macros (_GNU_SOURCE, _POSIX_C_SOURCE, ...),
 * defined at its top, must still decide what libc's headers declare, which
 * they do only where no libc header came first.  The exact-width types are
 * spelled with the compiler's names for them, the same types as
 * <stdint.h>'s, and only within this header. */
#if defined(POMP_H_FORCED) && (defined(__GNUC__) || defined(__clang__))
#pragma GCC system_header
#endif
#if defined(POMP_H_FORCED) && defined(__INT32_TYPE__) &&                       \
    defined(__INT64_TYPE__) && defined(__UINT16_TYPE__) &&                     \
    defined(__UINT32_TYPE__) && defined(__UINT64_TYPE__) &&                    \
    defined(__UINTPTR_TYPE__)
#define POMP_H_OWN_TYPES_ 1
#define int32_t __INT32_TYPE__
#define int64_t __INT64_TYPE__
#define uint16_t __UINT16_TYPE__
#define uint32_t __UINT32_TYPE__
#define uint64_t __UINT64_TYPE__
#define uintptr_t __UINTPTR_TYPE__
#else
#include <stdint.h>
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* Version of the POMP API implemented here, YYYYMM (seed section 3.7). */
#define POMP_API_VERSION 202611
#ifndef _POMP
#define _POMP POMP_API_VERSION
#endif

/* The integer types of loop bounds and sizes as pomp-instr's conversions
 * name them in the instrumented code: <stdint.h>'s int64_t and uint64_t,
 * which that code cannot count on having (see POMP_H_FORCED above). */
typedef int64_t POMPT_Int64_t;
typedef uint64_t POMPT_Uint64_t;

/* Opaque library handle of one construct (one source region). */
typedef struct pomp_region *POMP_Handle_t;

/* Per-instance storage of a parallel region; lives on the encountering
 * thread's stack for the duration of the region.  Its content is private to
 * the monitoring library. */
typedef struct POMP_Team {
  uint64_t pomp_opaque[12];
} POMP_Team_t;

#define POMP_THREAD_SELF (-1)

/* Status codes. */
#define POMP_SUCCESS 0
#define POMP_ERR_HANDLE (-1) /* neither a valid handle nor a CTC string */
#define POMP_ERR_CTC (-2)    /* the CTC string is malformed */
#define POMP_ERR_ARG (-3)    /* another argument is invalid */
#define POMP_ERR_STATE (-4)  /* event out of order (exit without enter) */
#define POMP_ERR_NOMEM (-5)  /* the library is out of memory */

/* ---- Monitoring library control (section 3.6) ---------------------------- */

int32_t POMP_Init(void);
/* POMP_Init under pompt's own name, which the unit pomp-link adds calls:
 * tools that implement OPARI's POMP interface (TAU) export a POMP_Init of
 * their own, which a preloaded one would put in libpompt's place. */
int32_t POMPT_Init(void);
/* From the last constructor of the unit pomp-link adds: the tool starts
 * (unless POMPT_TOOL_START=first-event or an OpenMP event started it). */
void POMPT_Start(void);
int32_t POMP_Finalize(void);
int32_t POMP_On(void);
int32_t POMP_Off(void);
/* Initialise *handle from a CTC string, once (idempotent, thread-safe). */
int32_t POMP_Get_handle(POMP_Handle_t *handle, const char ctc[]);
/* Generated by pomp-link: calls every per-file POMP_Init_<fileid>(). */
void POMP_Init_Handles(void);

/* ---- Parallel group (Table 1) -------------------------------------------- */

int32_t POMP_Parallel_enter(POMP_Handle_t *handle, int32_t thread_id,
                            int32_t num_threads, int32_t if_expr_result,
                            const char ctc[]);
int32_t POMP_Parallel_begin(POMP_Handle_t handle, int32_t thread_id);
int32_t POMP_Parallel_end(POMP_Handle_t handle, int32_t thread_id);
int32_t POMP_Parallel_exit(POMP_Handle_t handle, int32_t thread_id);

/* The same four events, with the region instance made explicit. */
int32_t POMP_Parallel_enter_team(POMP_Handle_t *handle, int32_t thread_id,
                                 int32_t num_threads, int32_t if_expr_result,
                                 POMP_Team_t *team, const char ctc[]);
int32_t POMP_Parallel_begin_team(POMP_Handle_t handle, int32_t thread_id,
                                 POMP_Team_t *team);
int32_t POMP_Parallel_end_team(POMP_Handle_t handle, int32_t thread_id,
                               POMP_Team_t *team);
int32_t POMP_Parallel_exit_team(POMP_Handle_t handle, int32_t thread_id,
                                POMP_Team_t *team);

/* ---- Loop group (Table 1) ------------------------------------------------ */

int32_t POMP_Loop_enter(POMP_Handle_t *handle, int32_t thread_id,
                        int64_t chunk_size, int64_t init_iter,
                        int64_t final_iter, int64_t incr, const char ctc[]);
int32_t POMP_Loop_chunk_begin(POMP_Handle_t handle, int32_t thread_id,
                              int64_t init_iter, int64_t final_iter);
int32_t POMP_Loop_iter_begin(POMP_Handle_t handle, int32_t thread_id,
                             int64_t iter);
int32_t POMP_Loop_iter_event(POMP_Handle_t handle, int32_t thread_id,
                             int64_t iter);
int32_t POMP_Loop_iter_end(POMP_Handle_t handle, int32_t thread_id);
int32_t POMP_Loop_chunk_end(POMP_Handle_t handle, int32_t thread_id);
int32_t POMP_Loop_exit(POMP_Handle_t handle, int32_t thread_id);

/* Loop chunks (pompt extension, --loop-level=chunks): the enter and exit
 * events of a worksharing loop whose chunks are reported, used instead of
 * POMP_Loop_enter / POMP_Loop_exit.  chunks is per loop instance and
 * thread (the instrumenter declares it next to the loop); schedule says who
 * decides the chunks:
 *  - POMP_CHUNKS_STATIC: a static schedule the compiled code computes
 *    itself; the library computes the same chunks from the bounds, the
 *    chunk size (-1 or 0: none) and the team.  With a chunk size the
 *    loop body starts with
 *      if (--chunks.pomp_left < 0) POMP_Loop_chunk_next(handle, T, &chunks);
 *    which reports each chunk when its first iteration starts;
 *  - POMP_CHUNKS_RUNTIME: the OpenMP runtime hands the chunks out (dynamic,
 *    guided, runtime, ordered loops); the library reports each one as the
 *    runtime returns it;
 *  - POMP_CHUNKS_NONE: chunks are not reported. */
typedef struct POMP_Chunks {
  int64_t pomp_left; /* iterations left of the current chunk, minus 1 */
  uint64_t pomp_opaque[15];
} POMP_Chunks_t;

#define POMP_CHUNKS_NONE 0
#define POMP_CHUNKS_STATIC 1
#define POMP_CHUNKS_RUNTIME 2

int32_t POMP_Loop_chunks_enter(POMP_Handle_t *handle, int32_t thread_id,
                               POMP_Chunks_t *chunks, int32_t schedule,
                               int64_t chunk_size, int64_t init_iter,
                               int64_t final_iter, int64_t incr,
                               const char ctc[]);
int32_t POMP_Loop_chunk_next(POMP_Handle_t handle, int32_t thread_id,
                             POMP_Chunks_t *chunks);
int32_t POMP_Loop_chunks_exit(POMP_Handle_t handle, int32_t thread_id,
                              POMP_Chunks_t *chunks);

/* ---- Workshare group (Table 2) ------------------------------------------- */

int32_t POMP_Workshare_enter(POMP_Handle_t *handle, int32_t thread_id,
                             const char ctc[]);
int32_t POMP_Workshare_begin(POMP_Handle_t handle, int32_t thread_id);
int32_t POMP_Workshare_end(POMP_Handle_t handle, int32_t thread_id);
int32_t POMP_Workshare_exit(POMP_Handle_t handle, int32_t thread_id);

int32_t POMP_Sections_enter(POMP_Handle_t *handle, int32_t thread_id,
                            const char ctc[]);
/* Note the seed's argument order: section number before thread id. */
int32_t POMP_Section_begin(POMP_Handle_t handle, int32_t section_num,
                           int32_t thread_id);
int32_t POMP_Section_end(POMP_Handle_t handle, int32_t thread_id);
int32_t POMP_Sections_exit(POMP_Handle_t handle, int32_t thread_id);

int32_t POMP_Single_enter(POMP_Handle_t *handle, int32_t thread_id,
                          const char ctc[]);
int32_t POMP_Single_begin(POMP_Handle_t handle, int32_t thread_id);
int32_t POMP_Single_end(POMP_Handle_t handle, int32_t thread_id);
int32_t POMP_Single_exit(POMP_Handle_t handle, int32_t thread_id);

/* ---- Sync group (Tables 3 and 4) ----------------------------------------- */

int32_t POMP_Critical_enter(POMP_Handle_t *handle, int32_t thread_id,
                            const char ctc[]);
int32_t POMP_Critical_begin(POMP_Handle_t handle, int32_t thread_id);
int32_t POMP_Critical_end(POMP_Handle_t handle, int32_t thread_id);
int32_t POMP_Critical_exit(POMP_Handle_t handle, int32_t thread_id);

int32_t POMP_Master_begin(POMP_Handle_t *handle, int32_t thread_id,
                          const char ctc[]);
int32_t POMP_Master_end(POMP_Handle_t handle, int32_t thread_id);

int32_t POMP_Barrier_enter(POMP_Handle_t *handle, int32_t thread_id,
                           const char ctc[]);
int32_t POMP_Barrier_exit(POMP_Handle_t handle, int32_t thread_id);

/* handle: the construct whose implicit barrier this is. */
int32_t POMP_Implicit_barrier_enter(POMP_Handle_t *handle, int32_t thread_id,
                                    const char ctc[]);
int32_t POMP_Implicit_barrier_exit(POMP_Handle_t handle, int32_t thread_id);

int32_t POMP_Flush_event(POMP_Handle_t *handle, int32_t thread_id,
                         const char ctc[]);
int32_t POMP_Atomic_event(POMP_Handle_t *handle, int32_t thread_id,
                          const char ctc[]);

int32_t POMP_Ordered_enter(POMP_Handle_t *handle, int32_t thread_id,
                           const char ctc[]);
int32_t POMP_Ordered_begin(POMP_Handle_t handle, int32_t thread_id);
int32_t POMP_Ordered_end(POMP_Handle_t handle, int32_t thread_id);
int32_t POMP_Ordered_exit(POMP_Handle_t handle, int32_t thread_id);

/* ---- User group (Table 5) ------------------------------------------------ */

int32_t POMP_Function_enter(POMP_Handle_t *handle, int32_t thread_id,
                            const char ctc[]);
int32_t POMP_Function_begin(POMP_Handle_t *handle, int32_t thread_id,
                            const char ctc[]);
int32_t POMP_Function_end(POMP_Handle_t handle, int32_t thread_id);
int32_t POMP_Function_exit(POMP_Handle_t handle, int32_t thread_id);
int32_t POMP_Function_event(POMP_Handle_t *handle, int32_t thread_id,
                            const char ctc[]);
int32_t POMP_User_region_begin(POMP_Handle_t *handle, int32_t thread_id,
                               const char ctc[]);
int32_t POMP_User_region_end(POMP_Handle_t handle, int32_t thread_id);
int32_t POMP_User_event(POMP_Handle_t *handle, int32_t thread_id,
                        const char ctc[]);

/* ---- Runtime group: locks (Tables 6 and 7) ------------------------------- */
/* lock_id is the address of the omp_lock_t / omp_nest_lock_t. */

int32_t POMP_Init_lock_event(POMP_Handle_t *handle, int32_t thread_id,
                             const void *lock_id, const char ctc[]);
int32_t POMP_Destroy_lock_event(POMP_Handle_t *handle, int32_t thread_id,
                                const void *lock_id, const char ctc[]);
int32_t POMP_Set_lock_enter(POMP_Handle_t *handle, int32_t thread_id,
                            const void *lock_id, const char ctc[]);
int32_t POMP_Set_lock_exit(POMP_Handle_t handle, int32_t thread_id,
                           const void *lock_id);
int32_t POMP_Set_lock_event(POMP_Handle_t *handle, int32_t thread_id,
                            const void *lock_id, const char ctc[]);
int32_t POMP_Unset_lock_event(POMP_Handle_t *handle, int32_t thread_id,
                              const void *lock_id, const char ctc[]);
int32_t POMP_Test_lock_event(POMP_Handle_t *handle, int32_t thread_id,
                             const void *lock_id, int32_t was_lock_set,
                             const char ctc[]);

int32_t POMP_Init_nest_lock_event(POMP_Handle_t *handle, int32_t thread_id,
                                  const void *lock_id, const char ctc[]);
int32_t POMP_Destroy_nest_lock_event(POMP_Handle_t *handle, int32_t thread_id,
                                     const void *lock_id, const char ctc[]);
int32_t POMP_Set_nest_lock_enter(POMP_Handle_t *handle, int32_t thread_id,
                                 const void *lock_id, const char ctc[]);
int32_t POMP_Set_nest_lock_exit(POMP_Handle_t handle, int32_t thread_id,
                                const void *lock_id);
int32_t POMP_Set_nest_lock_event(POMP_Handle_t *handle, int32_t thread_id,
                                 const void *lock_id, const char ctc[]);
int32_t POMP_Unset_nest_lock_event(POMP_Handle_t *handle, int32_t thread_id,
                                   const void *lock_id, const char ctc[]);
int32_t POMP_Test_nest_lock_event(POMP_Handle_t *handle, int32_t thread_id,
                                  const void *lock_id, int32_t was_lock_set,
                                  const char ctc[]);

/* ---- Runtime group: other API routines (Table 8) ------------------------- */

int32_t POMP_Set_num_threads_event(POMP_Handle_t *handle, int32_t thread_id,
                                   int32_t num_threads, const char ctc[]);
int32_t POMP_Get_num_threads_event(POMP_Handle_t *handle, int32_t thread_id,
                                   int32_t num_threads, const char ctc[]);
int32_t POMP_Get_max_threads_event(POMP_Handle_t *handle, int32_t thread_id,
                                   int32_t num_threads, const char ctc[]);
int32_t POMP_Get_thread_num_event(POMP_Handle_t *handle, int32_t thread_id,
                                  int32_t thread_num, const char ctc[]);
int32_t POMP_Get_num_procs_event(POMP_Handle_t *handle, int32_t thread_id,
                                 int32_t num_procs, const char ctc[]);
int32_t POMP_In_parallel_event(POMP_Handle_t *handle, int32_t thread_id,
                               int32_t is_parallel, const char ctc[]);
int32_t POMP_Set_dynamic_event(POMP_Handle_t *handle, int32_t thread_id,
                               int32_t is_dynamic, const char ctc[]);
int32_t POMP_Get_dynamic_event(POMP_Handle_t *handle, int32_t thread_id,
                               int32_t is_dynamic, const char ctc[]);
int32_t POMP_Set_nested_event(POMP_Handle_t *handle, int32_t thread_id,
                              int32_t is_nested, const char ctc[]);
int32_t POMP_Get_nested_event(POMP_Handle_t *handle, int32_t thread_id,
                              int32_t is_nested, const char ctc[]);

/* ======================================================================== */
/* pompt extensions: constructs that came after the 2002 proposal, in the   */
/* proposal's style (first event: handle pointer + CTC string last; later   */
/* events: handle by value; int32_t status).  doc/ompt-mapping.md says what */
/* each becomes in OMPT.                                                    */
/* ======================================================================== */

/* ---- Explicit tasks ------------------------------------------------------ */

/* Identity of one explicit task instance.  The instrumenter declares one on
 * the encountering thread's stack, Task_create_begin fills it, and a
 * firstprivate clause carries a copy into the task, whose events receive the
 * copy's address.  The library keeps what must outlive the encountering
 * stack frame elsewhere; the content is private to the library. */
typedef struct POMP_Task {
  uint64_t pomp_opaque[4];
} POMP_Task_t;

/* Task flags known at the construct (bit values of the task_flags argument).
 * UNDEFERRED: an if clause evaluated to false. */
#define POMP_TASK_UNDEFERRED 0x1
#define POMP_TASK_FINAL 0x2 /* final clause true */
#define POMP_TASK_UNTIED 0x4
#define POMP_TASK_MERGEABLE 0x8
#define POMP_TASK_HAS_DEPEND 0x10
#define POMP_TASK_DETACH 0x20
#define POMP_TASK_TASKLOOP 0x40 /* a task generated by a taskloop */
#define POMP_TASK_TASKWAIT 0x80 /* the dependence task of a taskwait */

/* One depend item: its address and its type, an ompt_dependence_type_t
 * value (1 in, 2 out, 3 inout, 4 mutexinoutset, ... as in omp-tools.h),
 * or POMP_DEPENDENCE_DEPOBJ for an item of depend(depobj: o): addr is then
 * the depend object itself, whose address and kind the library reads when
 * the item is passed (GCC's omp_depend_t: the address, then libgomp's
 * kind). */
typedef struct POMP_Dependence {
  const void *addr;
  int32_t type;
} POMP_Dependence_t;
#define POMP_DEPENDENCE_DEPOBJ 256

/* Before the task construct, on the encountering thread. */
int32_t POMP_Task_create_begin(POMP_Handle_t *handle, int32_t thread_id,
                               POMP_Task_t *task, int32_t task_flags,
                               const char ctc[]);
/* The task's depend items, right after Task_create_begin. */
int32_t POMP_Task_dependences(POMP_Handle_t handle, int32_t thread_id,
                              POMP_Task_t *task, const POMP_Dependence_t deps[],
                              int32_t ndeps);
/* After the task construct, on the encountering thread. */
int32_t POMP_Task_create_end(POMP_Handle_t handle, int32_t thread_id,
                             POMP_Task_t *task);
/* First and last statement of the task's block, on the executing thread. */
int32_t POMP_Task_begin(POMP_Handle_t handle, int32_t thread_id,
                        POMP_Task_t *task);
int32_t POMP_Task_end(POMP_Handle_t handle, int32_t thread_id,
                      POMP_Task_t *task);

int32_t POMP_Taskwait_enter(POMP_Handle_t *handle, int32_t thread_id,
                            const char ctc[]);
int32_t POMP_Taskwait_exit(POMP_Handle_t handle, int32_t thread_id);
/* enter: before the construct; begin/end: first and last statement of its
 * block; exit: after it (the wait for the group's tasks is between end and
 * exit). */
int32_t POMP_Taskgroup_enter(POMP_Handle_t *handle, int32_t thread_id,
                             const char ctc[]);
int32_t POMP_Taskgroup_begin(POMP_Handle_t handle, int32_t thread_id);
int32_t POMP_Taskgroup_end(POMP_Handle_t handle, int32_t thread_id);
int32_t POMP_Taskgroup_exit(POMP_Handle_t handle, int32_t thread_id);
int32_t POMP_Taskyield_enter(POMP_Handle_t *handle, int32_t thread_id,
                             const char ctc[]);
int32_t POMP_Taskyield_exit(POMP_Handle_t handle, int32_t thread_id);
/* Around a whole taskloop construct (its tasks use the Task_* events). */
int32_t POMP_Taskloop_enter(POMP_Handle_t *handle, int32_t thread_id,
                            int64_t init_iter, int64_t final_iter, int64_t incr,
                            const char ctc[]);
int32_t POMP_Taskloop_exit(POMP_Handle_t handle, int32_t thread_id);
/* taskwait with depend clauses (OpenMP 5.2: the dependences of an empty,
 * undeferred task): enter right before the directive, with its depend items
 * (nowait: 1 when the directive has a nowait clause), exit right after it.
 * task is the instance's storage, as for POMP_Task_create_begin. */
int32_t POMP_Taskwait_depend_enter(POMP_Handle_t *handle, int32_t thread_id,
                                   POMP_Task_t *task,
                                   const POMP_Dependence_t deps[],
                                   int32_t ndeps, int32_t nowait,
                                   const char ctc[]);
int32_t POMP_Taskwait_depend_exit(POMP_Handle_t handle, int32_t thread_id,
                                  POMP_Task_t *task);

/* ---- Other constructs ------------------------------------------------------
 */

/* masked: the block's first and last statement, on the thread that runs it;
 * filter is the filter clause's value (0 for master). */
int32_t POMP_Masked_begin(POMP_Handle_t *handle, int32_t thread_id,
                          int32_t filter, const char ctc[]);
int32_t POMP_Masked_end(POMP_Handle_t handle, int32_t thread_id);
/* scope: before and after the construct. */
int32_t POMP_Scope_enter(POMP_Handle_t *handle, int32_t thread_id,
                         const char ctc[]);
int32_t POMP_Scope_exit(POMP_Handle_t handle, int32_t thread_id);
/* atomic: before and after the construct (the seed's single Atomic_event
 * remains for hand instrumentation). */
int32_t POMP_Atomic_enter(POMP_Handle_t *handle, int32_t thread_id,
                          const char ctc[]);
int32_t POMP_Atomic_exit(POMP_Handle_t handle, int32_t thread_id);
/* cancel: after the construct; activated is 1 when cancellation is active
 * (omp_get_cancellation() and the construct's if clause).  A cancellation
 * point: Cancellation_point_event after it. */
int32_t POMP_Cancel_event(POMP_Handle_t *handle, int32_t thread_id,
                          int32_t activated, const char ctc[]);
int32_t POMP_Cancellation_point_event(POMP_Handle_t *handle, int32_t thread_id,
                                      const char ctc[]);
/* error directive with at(execution): severity 1 = warning, 2 = fatal. */
int32_t POMP_Error_event(POMP_Handle_t *handle, int32_t thread_id,
                         int32_t severity, const char *message,
                         const char ctc[]);

/* ---- OpenMP API routine wrappers (seed section 3.4) ------------------------
 */
/* pomp-instr rewrites a call omp_set_lock(l) in user code as
 * POMP_Api_omp_set_lock(&h, ctc, l), one handle per call site.  Each wrapper
 * emits the Runtime-group events of Tables 6 to 8 (and their OMPT
 * callbacks) and calls the real routine of whichever OpenMP runtime (or the
 * stubs) the program uses, returning its result.  Locks are passed by
 * address (omp_lock_t *, omp_nest_lock_t *); hints are omp_sync_hint_t
 * values. */
void POMP_Api_omp_init_lock(POMP_Handle_t *handle, const char ctc[],
                            void *lock);
void POMP_Api_omp_init_lock_with_hint(POMP_Handle_t *handle, const char ctc[],
                                      void *lock, int hint);
void POMP_Api_omp_destroy_lock(POMP_Handle_t *handle, const char ctc[],
                               void *lock);
void POMP_Api_omp_set_lock(POMP_Handle_t *handle, const char ctc[], void *lock);
void POMP_Api_omp_unset_lock(POMP_Handle_t *handle, const char ctc[],
                             void *lock);
int POMP_Api_omp_test_lock(POMP_Handle_t *handle, const char ctc[], void *lock);
void POMP_Api_omp_init_nest_lock(POMP_Handle_t *handle, const char ctc[],
                                 void *lock);
void POMP_Api_omp_init_nest_lock_with_hint(POMP_Handle_t *handle,
                                           const char ctc[], void *lock,
                                           int hint);
void POMP_Api_omp_destroy_nest_lock(POMP_Handle_t *handle, const char ctc[],
                                    void *lock);
void POMP_Api_omp_set_nest_lock(POMP_Handle_t *handle, const char ctc[],
                                void *lock);
void POMP_Api_omp_unset_nest_lock(POMP_Handle_t *handle, const char ctc[],
                                  void *lock);
int POMP_Api_omp_test_nest_lock(POMP_Handle_t *handle, const char ctc[],
                                void *lock);
void POMP_Api_omp_set_num_threads(POMP_Handle_t *handle, const char ctc[],
                                  int num_threads);
int POMP_Api_omp_get_num_threads(POMP_Handle_t *handle, const char ctc[]);
int POMP_Api_omp_get_max_threads(POMP_Handle_t *handle, const char ctc[]);
int POMP_Api_omp_get_thread_num(POMP_Handle_t *handle, const char ctc[]);
int POMP_Api_omp_get_num_procs(POMP_Handle_t *handle, const char ctc[]);
int POMP_Api_omp_in_parallel(POMP_Handle_t *handle, const char ctc[]);
void POMP_Api_omp_set_dynamic(POMP_Handle_t *handle, const char ctc[],
                              int dynamic);
int POMP_Api_omp_get_dynamic(POMP_Handle_t *handle, const char ctc[]);
void POMP_Api_omp_set_nested(POMP_Handle_t *handle, const char ctc[],
                             int nested);
int POMP_Api_omp_get_nested(POMP_Handle_t *handle, const char ctc[]);
/* omp_control_tool: libpompt delivers the control_tool callback; POMP_On /
 * POMP_Off are omp_control_tool(omp_control_tool_start / _pause). */
int POMP_Api_omp_control_tool(POMP_Handle_t *handle, const char ctc[],
                              int command, int modifier, void *arg);
/* omp_fulfill_event: event is the omp_event_handle_t value; libpompt
 * reports the detachable task's early or late fulfilment. */
void POMP_Api_omp_fulfill_event(POMP_Handle_t *handle, const char ctc[],
                                uintptr_t event);

/* ---- Target constructs, teams, distribute ----------------------------------
 */
/* doc/target.md says where pomp-instr puts each call.  All of these events
 * run on the host, on the thread that encounters the construct (or, for
 * POMP_Target_complete, on the thread that runs the completion task):
 * constructs inside a target region are device code and are never
 * instrumented. */

/* One map-list item (or motion-clause item of target update): the host
 * address of its first byte, its size in bytes and its map type and
 * modifiers.  An array section a[lo:len] is {&a[lo], len * sizeof(a[0])}.
 * The bit values are those of ompt_target_map_flag_t. */
typedef struct POMP_Map {
  const void *addr;
  uint64_t size;
  uint32_t flags;         /* POMP_MAP_* */
  uint32_t pomp_reserved; /* 0 */
} POMP_Map_t;

#define POMP_MAP_TO 0x01     /* map type to, tofrom; target update to() */
#define POMP_MAP_FROM 0x02   /* map type from, tofrom; target update from() */
#define POMP_MAP_TOFROM 0x03 /* POMP_MAP_TO | POMP_MAP_FROM */
#define POMP_MAP_ALLOC 0x04
#define POMP_MAP_RELEASE 0x08
#define POMP_MAP_DELETE 0x10
#define POMP_MAP_IMPLICIT 0x20 /* not in a clause: implicitly mapped */
#define POMP_MAP_ALWAYS 0x40   /* modifiers */
#define POMP_MAP_PRESENT 0x80
#define POMP_MAP_CLOSE 0x100

/* Identity of one instance of a target, target data, target enter data,
 * target exit data or target update construct.  The instrumenter declares
 * one on the encountering thread's stack; the enter event fills it and it
 * holds the whole state of the instance (no library storage is needed), so
 * it must stay in scope until the exit event.  pomp_dep points at a byte
 * unique to this instance (library storage, never NULL after the enter event
 * returned, whatever its status): a nowait construct gets
 * depend(out: pompt_tgt_N.pomp_dep[0]) and is followed by a completion task
 * with depend(in: pompt_tgt_N.pomp_dep[0]) that receives a firstprivate copy
 * of the instance and of the map list, see doc/target.md.  The rest is
 * private to the library. */
typedef struct POMP_Target {
  char *pomp_dep;
  uint64_t pomp_opaque[15];
} POMP_Target_t;

/* device_num when the construct has no device clause (the default device).
 * Not -1: OpenMP 5.2 gives -1 to omp_initial_device. */
#define POMP_DEVICE_DEFAULT (-2147483647 - 1)

/* Bits of target_flags, known at the construct. */
#define POMP_TARGET_NOWAIT 0x1     /* nowait clause */
#define POMP_TARGET_IF_FALSE 0x2   /* an if clause evaluated to false */
#define POMP_TARGET_HAS_DEPEND 0x4 /* the user wrote a depend clause */

/* The enter events: right before the construct, after its device and if
 * expressions were evaluated (once).  maps[0..nmaps-1] lists the map-list
 * items (the motion items of target update) in clause order; the array
 * must stay in scope, unchanged, until the construct's exit event (a nowait
 * construct's completion task gets a copy).  The exit events: right after
 * the construct, on the same thread.
 * POMP_Target_complete: first statement of the completion task of a nowait
 * construct (and nothing else); without nowait it is not called. */
int32_t POMP_Target_enter(POMP_Handle_t *handle, int32_t thread_id,
                          POMP_Target_t *target, int32_t device_num,
                          int32_t target_flags, const POMP_Map_t maps[],
                          int32_t nmaps, const char ctc[]);
int32_t POMP_Target_exit(POMP_Handle_t handle, int32_t thread_id,
                         POMP_Target_t *target);

int32_t POMP_Target_data_enter(POMP_Handle_t *handle, int32_t thread_id,
                               POMP_Target_t *target, int32_t device_num,
                               int32_t target_flags, const POMP_Map_t maps[],
                               int32_t nmaps, const char ctc[]);
/* First and last statement of the target data construct's block (host
 * code): the device data environment is in place between them, so enter ->
 * begin is exactly the mapping and end -> exit exactly the unmapping. */
int32_t POMP_Target_data_begin(POMP_Handle_t handle, int32_t thread_id,
                               POMP_Target_t *target);
int32_t POMP_Target_data_end(POMP_Handle_t handle, int32_t thread_id,
                             POMP_Target_t *target);
int32_t POMP_Target_data_exit(POMP_Handle_t handle, int32_t thread_id,
                              POMP_Target_t *target);

int32_t POMP_Target_enter_data_enter(POMP_Handle_t *handle, int32_t thread_id,
                                     POMP_Target_t *target, int32_t device_num,
                                     int32_t target_flags,
                                     const POMP_Map_t maps[], int32_t nmaps,
                                     const char ctc[]);
int32_t POMP_Target_enter_data_exit(POMP_Handle_t handle, int32_t thread_id,
                                    POMP_Target_t *target);

int32_t POMP_Target_exit_data_enter(POMP_Handle_t *handle, int32_t thread_id,
                                    POMP_Target_t *target, int32_t device_num,
                                    int32_t target_flags,
                                    const POMP_Map_t maps[], int32_t nmaps,
                                    const char ctc[]);
int32_t POMP_Target_exit_data_exit(POMP_Handle_t handle, int32_t thread_id,
                                   POMP_Target_t *target);

int32_t POMP_Target_update_enter(POMP_Handle_t *handle, int32_t thread_id,
                                 POMP_Target_t *target, int32_t device_num,
                                 int32_t target_flags, const POMP_Map_t maps[],
                                 int32_t nmaps, const char ctc[]);
int32_t POMP_Target_update_exit(POMP_Handle_t handle, int32_t thread_id,
                                POMP_Target_t *target);

/* Completion of a nowait target / target enter data / target exit data /
 * target update instance: the only statement of its completion task, with
 * the task's copies of the instance and of the map list (the same items as
 * at the enter event). */
int32_t POMP_Target_complete(POMP_Handle_t handle, int32_t thread_id,
                             POMP_Target_t *target, const POMP_Map_t maps[],
                             int32_t nmaps);

/* teams on the host (a teams construct that is not inside a target region):
 * enter/exit on the encountering thread before/after the construct,
 * begin/end as the first/last statement of the block, on each team's
 * initial thread.  num_teams / thread_limit: the clause values (evaluated
 * once) or -1.  team: as for POMP_Parallel_*_team, shared into the
 * construct. */
int32_t POMP_Teams_enter(POMP_Handle_t *handle, int32_t thread_id,
                         int32_t num_teams, int32_t thread_limit,
                         POMP_Team_t *team, const char ctc[]);
int32_t POMP_Teams_begin(POMP_Handle_t handle, int32_t thread_id,
                         POMP_Team_t *team);
int32_t POMP_Teams_end(POMP_Handle_t handle, int32_t thread_id,
                       POMP_Team_t *team);
int32_t POMP_Teams_exit(POMP_Handle_t handle, int32_t thread_id,
                        POMP_Team_t *team);

/* distribute (in a host teams region): before and after the construct, on
 * each team's initial thread; the RTC values as for POMP_Loop_enter. */
int32_t POMP_Distribute_enter(POMP_Handle_t *handle, int32_t thread_id,
                              int64_t chunk_size, int64_t init_iter,
                              int64_t final_iter, int64_t incr,
                              const char ctc[]);
int32_t POMP_Distribute_exit(POMP_Handle_t handle, int32_t thread_id);
/* distribute parallel for [simd]: enter right after POMP_Distribute_enter,
 * exit right before POMP_Distribute_exit, on each team's initial thread.
 * The parallel regions the construct starts in between (one per distribute
 * chunk, inside the runtime) are reported as its parallel leaf, and each of
 * their threads' share of the loop as its worksharing-loop leaf. */
int32_t POMP_Distribute_parallel_enter(POMP_Handle_t handle, int32_t thread_id);
int32_t POMP_Distribute_parallel_exit(POMP_Handle_t handle, int32_t thread_id);

/* Distribute chunks (pompt extension, --loop-level=chunks): the enter and
 * exit events of a distribute construct whose chunks are reported
 * (dispatch(ompt_dispatch_distribute_chunk) on each team's initial thread),
 * used instead of POMP_Distribute_enter / _exit; for distribute parallel
 * for the parallel events come between them as before.  The compiled code
 * computes each team's share itself, so the library computes the same
 * chunks from the bounds, the dist_schedule chunk size (-1 or 0: none) and
 * the league (omp_get_team_num, omp_get_num_teams).  schedule:
 *  - POMP_CHUNKS_STATIC: without a chunk size the team's one chunk is
 *    reported at the enter event; with one, the loop body starts with
 *      if (--chunks.pomp_left < 0) POMP_Distribute_chunk_next(handle, T,
 * &chunks);
 *  - POMP_CHUNKS_REGIONS: distribute parallel for with a chunk size: each
 *    parallel region the thread starts between enter and exit runs the
 *    team's next chunk, reported when the region starts;
 *  - POMP_CHUNKS_NONE: chunks are not reported. */
#define POMP_CHUNKS_REGIONS 3

int32_t POMP_Distribute_chunks_enter(POMP_Handle_t *handle, int32_t thread_id,
                                     POMP_Chunks_t *chunks, int32_t schedule,
                                     int64_t chunk_size, int64_t init_iter,
                                     int64_t final_iter, int64_t incr,
                                     const char ctc[]);
int32_t POMP_Distribute_chunk_next(POMP_Handle_t handle, int32_t thread_id,
                                   POMP_Chunks_t *chunks);
int32_t POMP_Distribute_chunks_exit(POMP_Handle_t handle, int32_t thread_id,
                                    POMP_Chunks_t *chunks);

/* ======================================================================== */
/* Compact event family (pompt extension): what pomp-instr emits for the    */
/* most frequent constructs.  Same events, same order, same OMPT callbacks  */
/* as the routines above, with fewer arguments, because the compiler's cost */
/* for an instrumented unit grows with every argument of every inserted     */
/* call (doc/performance.md, "Compile time"):                               */
/*  - no thread id (always POMP_THREAD_SELF);                               */
/*  - the handle and the CTC string in one static descriptor per construct, */
/*    passed by address to every event (the handle is read, and on a first  */
/*    event lazily initialised from the CTC, inside the library);           */
/*  - parallel regions: the instance storage (POMPT_Team_t) records the     */
/*    descriptor at enter, so begin, end and exit take only the storage;    */
/*  - two events that always follow each other are one call (a loop's exit  */
/*    and its implicit barrier's enter, say); their codeptr_ra is the same  */
/*    call site.                                                            */
/* The routines above remain the interface for hand instrumentation.  A     */
/* descriptor's handle is the handle they take (&d.handle for a first       */
/* event, d.handle for a later one), so the families can be mixed on one    */
/* construct, as pomp-instr does for loop iteration and chunk events.       */
/* ======================================================================== */

/* One construct: zero-initialised handle plus CTC string.  POMP_Get_handle
 * (&d.handle, d.ctc) pre-initialises it (pomp-link's init functions do). */
typedef struct POMPT_Desc {
  POMP_Handle_t handle;
  const char *ctc;
  /* What libpompt found out about the construct for the inline events
   * ("The lane", below; 0 until then).  Zero-initialised like the handle;
   * written only by libpompt. */
  unsigned char lane;
} POMPT_Desc_t;

/* Instance storage of a parallel region for the compact family: the
 * construct, set by the enter event, plus the POMP_Team_t.  Every thread of
 * the team reads what the encountering thread wrote into it, a cache line
 * from another core for each: the construct first and a cache line's
 * alignment keep what they read in one line. */
#if defined(__GNUC__) || defined(__clang__)
#define POMPT_TEAM_ALIGN_ __attribute__((__aligned__(64)))
#else
#define POMPT_TEAM_ALIGN_
#endif
typedef struct POMPT_Team {
  POMPT_Desc_t *desc;
  POMP_Team_t team;
} POMPT_TEAM_ALIGN_ POMPT_Team_t;

/* libpompt is C and lets no exception through; in C++ this spares every
 * inserted call its exception edges. */
#if defined(__GNUC__) || defined(__clang__)
#define POMPT_NOTHROW __attribute__((__nothrow__))
#else
#define POMPT_NOTHROW
#endif

/* Parallel: enter (num_threads / if_expr_result: -1 when absent), fork (the
 * same with both absent), begin, end, exit. */
int32_t POMPT_Parallel_enter(POMPT_Desc_t *d, int32_t num_threads,
                             int32_t if_expr_result,
                             POMPT_Team_t *team) POMPT_NOTHROW;
int32_t POMPT_Parallel_fork(POMPT_Desc_t *d, POMPT_Team_t *team) POMPT_NOTHROW;
int32_t POMPT_Parallel_begin(POMPT_Team_t *team) POMPT_NOTHROW;
int32_t POMPT_Parallel_end(POMPT_Team_t *team) POMPT_NOTHROW;
int32_t POMPT_Parallel_exit(POMPT_Team_t *team) POMPT_NOTHROW;
/* parallel for / parallel sections: the region's begin and the inner
 * construct's enter, the inner construct's exit and the region's end (one
 * descriptor for both leaves, as with the seed's routines). */
int32_t POMPT_Parallel_begin_loop_enter(POMPT_Team_t *team, int64_t init_iter,
                                        int64_t final_iter,
                                        int64_t incr) POMPT_NOTHROW;
int32_t POMPT_Loop_exit_parallel_end(POMPT_Team_t *team) POMPT_NOTHROW;
int32_t POMPT_Parallel_begin_sections_enter(POMPT_Team_t *team) POMPT_NOTHROW;
int32_t POMPT_Sections_exit_parallel_end(POMPT_Team_t *team) POMPT_NOTHROW;

/* Worksharing: *_exit_barrier is the exit plus the enter of the construct's
 * implicit barrier (POMP_Implicit_barrier_enter); the barrier's exit is
 * POMPT_Implicit_barrier_exit. */
int32_t POMPT_Loop_enter(POMPT_Desc_t *d, int64_t init_iter, int64_t final_iter,
                         int64_t incr) POMPT_NOTHROW;
int32_t POMPT_Loop_exit(POMPT_Desc_t *d) POMPT_NOTHROW;
int32_t POMPT_Loop_exit_barrier(POMPT_Desc_t *d) POMPT_NOTHROW;
int32_t POMPT_Sections_enter(POMPT_Desc_t *d) POMPT_NOTHROW;
int32_t POMPT_Section_begin(POMPT_Desc_t *d, int32_t section_num) POMPT_NOTHROW;
int32_t POMPT_Section_end(POMPT_Desc_t *d) POMPT_NOTHROW;
int32_t POMPT_Sections_exit(POMPT_Desc_t *d) POMPT_NOTHROW;
int32_t POMPT_Sections_exit_barrier(POMPT_Desc_t *d) POMPT_NOTHROW;
int32_t POMPT_Single_enter(POMPT_Desc_t *d) POMPT_NOTHROW;
int32_t POMPT_Single_begin(POMPT_Desc_t *d) POMPT_NOTHROW;
int32_t POMPT_Single_end(POMPT_Desc_t *d) POMPT_NOTHROW;
int32_t POMPT_Single_exit(POMPT_Desc_t *d) POMPT_NOTHROW;
int32_t POMPT_Single_exit_barrier(POMPT_Desc_t *d) POMPT_NOTHROW;
int32_t POMPT_Implicit_barrier_exit(POMPT_Desc_t *d) POMPT_NOTHROW;

/* Synchronisation. */
int32_t POMPT_Master_begin(POMPT_Desc_t *d) POMPT_NOTHROW;
int32_t POMPT_Master_end(POMPT_Desc_t *d) POMPT_NOTHROW;
int32_t POMPT_Critical_enter(POMPT_Desc_t *d) POMPT_NOTHROW;
int32_t POMPT_Critical_begin(POMPT_Desc_t *d) POMPT_NOTHROW;
int32_t POMPT_Critical_end(POMPT_Desc_t *d) POMPT_NOTHROW;
int32_t POMPT_Critical_exit(POMPT_Desc_t *d) POMPT_NOTHROW;
int32_t POMPT_Barrier_enter(POMPT_Desc_t *d) POMPT_NOTHROW;
int32_t POMPT_Barrier_exit(POMPT_Desc_t *d) POMPT_NOTHROW;
int32_t POMPT_Atomic_enter(POMPT_Desc_t *d) POMPT_NOTHROW;
int32_t POMPT_Atomic_exit(POMPT_Desc_t *d) POMPT_NOTHROW;

/* Waits made by the event itself: a barrier directive, the implicit
 * barrier after a worksharing construct's exit (with its exit), a taskwait
 * without clauses.  Each reports its construct and calls libgomp's entry
 * (GOMP_barrier, GOMP_taskwait), so that the construct is one call and the
 * call's return address, right after the construct, is its codeptr_ra at
 * every event, as at a native runtime.  pomp-instr emits them instead of
 * the directive where the preprocessed unit has this marker: compiled by
 * GCC with OpenMP (whose runtime is libgomp), for x86-64, and where the
 * barrier is not one GCC makes cancellable (a cancel or cancellation point
 * of the enclosing parallel region). */
#if defined(_OPENMP) && defined(__GNUC__) && !defined(__clang__) &&            \
    defined(__x86_64__)
typedef int POMPT_gomp_x86_64;
#endif
void POMPT_Barrier(POMPT_Desc_t *d) POMPT_NOTHROW;
void POMPT_Loop_exit_wait(POMPT_Desc_t *d) POMPT_NOTHROW;
void POMPT_Sections_exit_wait(POMPT_Desc_t *d) POMPT_NOTHROW;
void POMPT_Single_exit_wait(POMPT_Desc_t *d) POMPT_NOTHROW;
void POMPT_Taskwait(POMPT_Desc_t *d) POMPT_NOTHROW;

/* Explicit tasks.  The instance is one word: the library's record of the
 * task, or 0 when there is nothing to report (no tool, or no record could
 * be made).  Create_begin returns it; a scalar firstprivate clause carries
 * it into the task (GCC then needs no copy function for it), and begin,
 * end and dependences take it as it is.  POMPT_active is nonzero whenever
 * a tool may be active (1 when libpompt is loaded, cleared before main when
 * no tool was activated), so that with no tool a task costs no call at all:
 *
 *   POMPT_Task_t w = 0;
 *   if (POMPT_on()) w = POMPT_Task_create_begin(&d, flags);
 *   #pragma omp task firstprivate(w)
 *   { if (w) POMPT_Task_begin(w);  ...  if (w) POMPT_Task_end(w); }
 *   if (w) POMPT_Task_create_end();
 *
 * Each routine still checks for itself whether a tool listens (a tool can
 * finalise while the program runs); create_begin returns 0 only when it
 * left nothing open that create_end would close.  Same events and
 * callbacks as POMP_Task_create_begin, _dependences, _begin, _end and
 * _create_end. */
typedef uintptr_t POMPT_Task_t;
extern int POMPT_active;
/* POMPT_active as pomp-instr reads it: a call, inlined, is not a reference
 * to the variable in the construct's text, which a default(none) clause of
 * an enclosing construct would reject (and a function, not a macro, since
 * pomp-instr's text is compiled after preprocessing).  POMPT_on guards the
 * events of the constructs that cost the program about as little as a call
 * (a task; master: a thread number's test; an atomic operation), so that
 * with no tool they make none. */
#if defined(__GNUC__) || defined(__clang__)
static __inline__ __attribute__((__always_inline__)) int POMPT_on(void) {
  return __builtin_expect(POMPT_active, 0) != 0;
}
#else
static int POMPT_on(void) {
  return POMPT_active;
}
#endif
/* ---- The lane: events delivered from the instrumented code --------------
 * A native runtime's master construct already calls the runtime, so with a
 * tool its OMPT cost is the two callbacks alone; here the construct costs
 * the program a thread number's test, and two calls into libpompt would be
 * most of what the tool pays (an atomic instruction likewise, with three
 * callbacks).  So the begin and end of a master region, and the events of
 * an atomic instruction and of a critical region, call the tool's
 * callbacks directly, whenever libpompt has left the thread's lane open:
 * the thread is known, its running task was announced, nothing is pending
 * for its next event (a barrier end to deliver first, a task a
 * cancellation left) and, for a master region, no other construct of the
 * task is open.  Otherwise the event goes to libpompt (the *_at routines),
 * as every event of the other constructs does.
 *
 * The lane is libpompt's thread-local record and callback slots; the
 * symbols carry the layout's version, so an object built against another
 * layout does not link with this libpompt instead of misreading it.
 * libpompt fills the slots and says what is usable; the instrumented code
 * keeps its stacks (open, held) and marks (atomic, task, wait_state).
 *
 * open: the nested master regions of the thread, innermost in bit 0: 1 when
 * its begin was delivered here (its end is then delivered here too, or by
 * libpompt when the lane has closed meanwhile), 0 when libpompt handled it;
 * depth counts them (bits above 64 levels are libpompt's). */
#if defined(__GNUC__) || defined(__clang__)
#if defined(__x86_64__)
/* pomp-instr emits the inline events where the preprocessed unit has this
 * (x86-64, the target they are measured and tested on); elsewhere it emits
 * the exported routines. */
typedef int POMPT_lane_x86_64;
#endif
typedef struct POMPT_Lane {
  void *parallel_data; /* ompt_data_t * of the running task's region */
  void *task_data;     /* ompt_data_t * of the running task */
  uint64_t open;       /* the bits above */
  uint32_t depth;
  uint16_t usable; /* POMPT_LANE_* below: what libpompt left open */
  uint16_t atomic; /* how the thread's atomic construct began (below) */
  /* A task construct handed to libpompt's GOMP_task (POMPT_Task_hand):
   * its descriptor and flags, until GOMP_task takes them; spare: written
   * by the task blocks of units built with an earlier pomp.h, read by
   * nobody. */
  void *task;
  int32_t task_flags;
  uint32_t spare;
  /* The thread's critical regions as held: innermost in bit 0, 1 when the
   * acquisition went inline (held_depth counts them; bits above 64 levels
   * are libpompt's).  wait_state, wait_id: while nonzero, the thread waits
   * for a critical region's lock after an inline acquire; libpompt's
   * ompt_get_state answers them. */
  uint64_t held;
  uint32_t held_depth;
  uint32_t wait_state;
  uint64_t wait_id;
  /* The codeptr_ra of the thread's last acquire (inline, or libpompt's
   * with wait_id), which its acquisition carries too (at a native runtime
   * one call makes both). */
  const void *wait_codeptr;
} POMPT_Lane_t;
/* The thread runs an announced task and libpompt has nothing to do first
 * at its next event; and besides, none of the task's constructs is open
 * (a master region begun inline is then the task's outermost). */
#define POMPT_LANE_READY 1
#define POMPT_LANE_OUTERMOST 2
extern __thread POMPT_Lane_t POMPT_lane_v2
    __attribute__((__tls_model__("initial-exec")));
/* ompt_callback_masked_t of the tool when begins are to be delivered now
 * (registered, its POMP group enabled, monitoring on), and when ends of
 * delivered begins are (registered, group enabled). */
typedef void (*POMPT_Masked_cb_t)(int endpoint, void *parallel_data,
                                  void *task_data, const void *codeptr_ra);
extern POMPT_Masked_cb_t POMPT_lane_masked_v1[2];
/* ompt_callback_mutex_acquire_t, ompt_callback_mutex_t of the tool for the
 * events of atomic and critical constructs (the same callbacks and POMP
 * group): acquire and acquired when they are to be delivered now, released
 * for the release of a delivered acquisition. */
typedef void (*POMPT_Mutex_acquire_cb_t)(int kind, unsigned hint, unsigned impl,
                                         uint64_t wait_id,
                                         const void *codeptr_ra);
typedef void (*POMPT_Mutex_cb_t)(int kind, uint64_t wait_id,
                                 const void *codeptr_ra);
typedef struct POMPT_Lane_atomic {
  POMPT_Mutex_acquire_cb_t acquire;
  POMPT_Mutex_cb_t acquired, released;
} POMPT_Lane_atomic_t;
extern POMPT_Lane_atomic_t POMPT_lane_atomic_v1;
/* A descriptor's lane byte.  A master construct's: libpompt has recorded
 * its call site. */
#define POMPT_LANE_MASTER_SEEN 1
/* An atomic construct's: GCC compiled it to an atomic instruction, whose
 * events (ompt_mutex_atomic, the thread's own wait id, no waiting state: it
 * waits for no lock) are delivered inline, or not at all (POMPT_ATOMIC=
 * locked, or under ThreadSanitizer). */
#define POMPT_LANE_ATOMIC_INSTRUCTION 1
#define POMPT_LANE_ATOMIC_SILENT 2
/* A critical construct's: libpompt has made its region (whose first words
 * are POMPT_Region_head_t) and recorded its call site. */
#define POMPT_LANE_CRITICAL_SEEN 1
/* The start of the record a descriptor's handle points at, once made: what
 * the inline events of a critical construct pass the tool (its wait id,
 * one per critical name, and its hint clause). */
typedef struct POMPT_Region_head {
  uint64_t wait_id;
  uint32_t hint;
} POMPT_Region_head_t;
int32_t POMPT_Atomic_enter_at(POMPT_Desc_t *d,
                              const void *codeptr) POMPT_NOTHROW;
int32_t POMPT_Atomic_exit_at(POMPT_Desc_t *d,
                             const void *codeptr) POMPT_NOTHROW;
int32_t POMPT_Master_begin_at(POMPT_Desc_t *d,
                              const void *codeptr) POMPT_NOTHROW;
int32_t POMPT_Master_end_at(POMPT_Desc_t *d, const void *codeptr) POMPT_NOTHROW;
int32_t POMPT_Critical_enter_at(POMPT_Desc_t *d,
                                const void *codeptr) POMPT_NOTHROW;
int32_t POMPT_Critical_begin_at(POMPT_Desc_t *d,
                                const void *codeptr) POMPT_NOTHROW;
int32_t POMPT_Critical_end_at(POMPT_Desc_t *d,
                              const void *codeptr) POMPT_NOTHROW;

/* A bit stack of the lane (open, held), innermost in bit 0: push a bit
 * (kept within 64 levels, counted beyond), the innermost bit (0 when the
 * stack is empty or deeper than the bits), pop it. */
static __inline__ __attribute__((__always_inline__)) void
POMPT_Lane_push_(uint64_t *bits, uint32_t *depth, unsigned bit) {
  if (*depth < 64)
    *bits = *bits << 1 | bit;
  ++*depth;
}
static __inline__ __attribute__((__always_inline__)) unsigned
POMPT_Lane_top_(uint64_t bits, uint32_t depth) {
  return depth - 1 < 64 && (bits & 1);
}
static __inline__ __attribute__((__always_inline__)) unsigned
POMPT_Lane_pop_(uint64_t *bits, uint32_t *depth) {
  uint32_t d = *depth;
  unsigned bit = POMPT_Lane_top_(*bits, d);
  if (d) {
    *depth = d - 1;
    if (d <= 64)
      *bits >>= 1;
  }
  return bit;
}

/* One event: end 0 for the begin, 1 for the end.  A begin needs a free bit
 * of the stack, an end its begin's bit set (delivered inline).  The caller
 * tests POMPT_on() (pomp-instr's guard); without a tool the slots are empty
 * and libpompt's routines return at once. */
static __inline__ __attribute__((__always_inline__)) void
POMPT_Master_event_(POMPT_Desc_t *d, int end, const void *codeptr) {
  POMPT_Lane_t *l = &POMPT_lane_v2;
  POMPT_Masked_cb_t cb =
      __atomic_load_n(&POMPT_lane_masked_v1[end], __ATOMIC_RELAXED);
  /* One test after the other, each a branch: a begin goes inline once
   * libpompt has seen the construct (its call site is then known to
   * pompt_region_info); an end when its begin did. */
  if (__builtin_expect(cb != 0, 1) &&
      __builtin_expect(l->usable == (POMPT_LANE_READY | POMPT_LANE_OUTERMOST),
                       1)) {
    if (end) {
      if (__builtin_expect(l->depth - 1 < 64 && (l->open & 1), 1)) {
        l->open >>= 1;
        l->depth--;
        /* ompt_scope_end = 2 */
        cb(2, l->parallel_data, l->task_data, codeptr);
        return;
      }
    } else if (__builtin_expect(l->depth < 64 &&
                                    __atomic_load_n(&d->lane, __ATOMIC_RELAXED),
                                1)) {
      l->open = l->open << 1 | 1;
      l->depth++;
      /* ompt_scope_begin = 1 */
      cb(1, l->parallel_data, l->task_data, codeptr);
      return;
    }
  }
  if (end)
    POMPT_Master_end_at(d, codeptr);
  else
    POMPT_Master_begin_at(d, codeptr);
}
/* Each unit that uses one has one copy of it (not inlined into every
 * construct: pomp-cc's compile time grows with every inlined body, and the
 * call within the unit is a few instructions). */
/* static inline: a unit that uses none has none, even unoptimised; GCC
 * warns about inline with noinline, which is meant here. */
#define POMPT_LANE_ENTRY_ static __inline__ __attribute__((__noinline__))
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wattributes"
#ifdef __cplusplus
/* C code, compiled as C++ too: its casts are C's (clang++ warns of them
 * under -Wold-style-cast; g++ not inside extern "C"). */
#pragma GCC diagnostic ignored "-Wold-style-cast"
#endif
/* The construct's codeptr_ra, the same whichever way the event goes, is
 * the call's return address: in the construct's own code, on its line, as
 * the return address of a native runtime's entry is (pomp-instr calls these
 * only under its POMPT_on() guard, and keeps the call from being a tail
 * call). */
POMPT_LANE_ENTRY_ void POMPT_Master_enter(POMPT_Desc_t *d) {
  POMPT_Master_event_(d, 0, __builtin_return_address(0));
}
POMPT_LANE_ENTRY_ void POMPT_Master_leave(POMPT_Desc_t *d) {
  POMPT_Master_event_(d, 1, __builtin_return_address(0));
}

/* An atomic construct: its enter and exit.  The lane's atomic field says
 * how the enter went, so that the exit goes the same way: 0 nothing, 1
 * delivered inline, 2 libpompt (which learns the construct's kind there on
 * its first execution; until then every execution goes to libpompt).
 * codeptr_ra as for POMPT_Master_enter. */
POMPT_LANE_ENTRY_ void POMPT_Atomic_begin(POMPT_Desc_t *d) {
  /* Declarations first: this header is part of C90 units too. */
  const void *codeptr = __builtin_return_address(0);
  POMPT_Lane_t *l = &POMPT_lane_v2;
  unsigned char k = __atomic_load_n(&d->lane, __ATOMIC_RELAXED);
  POMPT_Mutex_acquire_cb_t acq;
  POMPT_Mutex_cb_t acqd;
  if (k == POMPT_LANE_ATOMIC_SILENT)
    return;
  acq = __atomic_load_n(&POMPT_lane_atomic_v1.acquire, __ATOMIC_RELAXED);
  acqd = __atomic_load_n(&POMPT_lane_atomic_v1.acquired, __ATOMIC_RELAXED);
  if (__builtin_expect(k == POMPT_LANE_ATOMIC_INSTRUCTION && acq && acqd &&
                           (l->usable & POMPT_LANE_READY),
                       1)) {
    uint64_t wait_id = (uintptr_t)l; /* the thread's own */
    l->atomic = 1;
    /* ompt_mutex_atomic = 6; impl 1 (libpompt's one implementation) */
    acq(6, 0, 1, wait_id, codeptr);
    acqd(6, wait_id, codeptr);
  } else {
    l->atomic = 2;
    POMPT_Atomic_enter_at(d, codeptr);
  }
}
POMPT_LANE_ENTRY_ void POMPT_Atomic_end(POMPT_Desc_t *d) {
  const void *codeptr = __builtin_return_address(0);
  POMPT_Lane_t *l = &POMPT_lane_v2;
  unsigned path = l->atomic;
  l->atomic = 0;
  if (path == 1) {
    POMPT_Mutex_cb_t rel =
        __atomic_load_n(&POMPT_lane_atomic_v1.released, __ATOMIC_RELAXED);
    if (rel)
      rel(6, (uintptr_t)l, codeptr);
  } else if (path == 2) {
    POMPT_Atomic_exit_at(d, codeptr);
  }
}
/* A critical construct: before it (the acquire; the thread then waits in
 * GOMP_critical_start), at the start of its block (acquired) and at the
 * block's end (released).  The held stack says how each acquisition went,
 * so that the other two go the same way.  pomp-instr calls them without a
 * guard or an address of its own (a critical construct is a call into the
 * runtime anyway, and each guard costs every unit's compile): they test
 * POMPT_on() first, and the call's return address is the construct's
 * codeptr_ra, in its own code (as an exported routine's). */
POMPT_LANE_ENTRY_ void POMPT_Critical_wait(POMPT_Desc_t *d) {
  const void *codeptr;
  POMPT_Lane_t *l;
  POMPT_Mutex_acquire_cb_t acq;
  POMPT_Mutex_cb_t acqd;
  if (!POMPT_on())
    return;
  codeptr = __builtin_return_address(0);
  l = &POMPT_lane_v2;
  acq = __atomic_load_n(&POMPT_lane_atomic_v1.acquire, __ATOMIC_RELAXED);
  acqd = __atomic_load_n(&POMPT_lane_atomic_v1.acquired, __ATOMIC_RELAXED);
  if (__builtin_expect(__atomic_load_n(&d->lane, __ATOMIC_ACQUIRE) ==
                               POMPT_LANE_CRITICAL_SEEN &&
                           acq && acqd && (l->usable & POMPT_LANE_READY) &&
                           l->held_depth < 64,
                       1)) {
    const POMPT_Region_head_t *r =
        (const POMPT_Region_head_t *)(const void *)d->handle;
    POMPT_Lane_push_(&l->held, &l->held_depth, 1);
    l->wait_codeptr = codeptr;
    /* The waiting state, before the callback, as a runtime has it. */
    l->wait_id = r->wait_id;
    __atomic_signal_fence(__ATOMIC_SEQ_CST);
    l->wait_state = 0x42; /* ompt_state_wait_critical */
    /* ompt_mutex_critical = 5; impl 1 */
    acq(5, r->hint, 1, r->wait_id, codeptr);
  } else {
    POMPT_Lane_push_(&l->held, &l->held_depth, 0);
    POMPT_Critical_enter_at(d, codeptr);
  }
}
POMPT_LANE_ENTRY_ void POMPT_Critical_held(POMPT_Desc_t *d) {
  const void *codeptr;
  POMPT_Lane_t *l;
  if (!POMPT_on())
    return;
  codeptr = __builtin_return_address(0);
  l = &POMPT_lane_v2;
  if (POMPT_Lane_top_(l->held, l->held_depth)) {
    POMPT_Mutex_cb_t acqd =
        __atomic_load_n(&POMPT_lane_atomic_v1.acquired, __ATOMIC_RELAXED);
    l->wait_state = 0;
    if (acqd) /* with its acquire's codeptr_ra */
      acqd(5, ((const POMPT_Region_head_t *)(const void *)d->handle)->wait_id,
           l->wait_codeptr);
    else
      l->held &= ~(uint64_t)1; /* not acquired for the tool: no release */
  } else {
    POMPT_Critical_begin_at(d, codeptr);
  }
}
POMPT_LANE_ENTRY_ void POMPT_Critical_release(POMPT_Desc_t *d) {
  const void *codeptr;
  POMPT_Lane_t *l;
  if (!POMPT_on())
    return;
  codeptr = __builtin_return_address(0);
  l = &POMPT_lane_v2;
  if (POMPT_Lane_pop_(&l->held, &l->held_depth)) {
    POMPT_Mutex_cb_t rel =
        __atomic_load_n(&POMPT_lane_atomic_v1.released, __ATOMIC_RELAXED);
    if (rel)
      rel(5, ((const POMPT_Region_head_t *)(const void *)d->handle)->wait_id,
          codeptr);
  } else {
    POMPT_Critical_end_at(d, codeptr);
  }
}
#pragma GCC diagnostic pop
#endif

POMPT_Task_t POMPT_Task_create_begin(POMPT_Desc_t *d,
                                     int32_t task_flags) POMPT_NOTHROW;
int32_t POMPT_Task_dependences(POMPT_Task_t task,
                               const POMP_Dependence_t deps[],
                               int32_t ndeps) POMPT_NOTHROW;
int32_t POMPT_Task_create_end(void) POMPT_NOTHROW;
int32_t POMPT_Task_begin(POMPT_Task_t task) POMPT_NOTHROW;
int32_t POMPT_Task_end(POMPT_Task_t task) POMPT_NOTHROW;

/* ---- Tasks handed to libpompt's GOMP_task -------------------------------
 * A native runtime creates, starts and ends a task inside the entry points
 * the program calls anyway.  Where the unit is GCC's with OpenMP on x86-64
 * (POMPT_gomp_x86_64), every task of a construct without depend or detach
 * clauses reaches libpompt's GOMP_task, which does the same: so the
 * construct only leaves its descriptor and flags in the thread's lane, and
 * GOMP_task takes them, creates the task (the first time, it also records
 * the construct's call site), delivers task_create, runs the task through
 * its trampoline (which begins it and, when the block's function returns,
 * ends it: cancelled when the task activated or detected a cancellation of
 * its taskgroup) and closes the scheduling point.  The block is the
 * program's as written, and without a tool the construct costs a load and
 * a branch.  pomp-instr writes (where a clause's expression could run other
 * constructs before GCC's call of GOMP_task, the compact events above):
 *
 *   if (POMPT_on()) POMPT_Task_hand(&d, flags);
 *   #pragma omp task
 *   { ... }
 *
 * A program whose calls of GOMP_task do not reach libpompt's (libgomp
 * linked before libpompt, which pomp-link never does) reports no such
 * task; libpompt says so when a tool starts.  Inline: a store into the
 * lane. */
#define POMPT_LANE_TASK_SEEN 1
#if defined(__GNUC__) || defined(__clang__)
static __inline__ __attribute__((__always_inline__)) void
POMPT_Task_hand(POMPT_Desc_t *d, int32_t task_flags) {
  POMPT_Lane_t *l = &POMPT_lane_v2;
  l->task = d;
  l->task_flags = task_flags;
}
#endif

#ifdef __cplusplus
}
#endif

#ifdef POMP_H_OWN_TYPES_
#undef int32_t
#undef int64_t
#undef uint16_t
#undef uint32_t
#undef uint64_t
#undef uintptr_t
#undef POMP_H_OWN_TYPES_
#endif

#endif /* POMP_H */
