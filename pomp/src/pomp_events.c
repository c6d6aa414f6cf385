/*
 * pomp_events.c -- the POMP event routines (seed 004, Appendix C, and the
 * pompt extensions of pomp.h), each mapped onto the OMPT model kept by the
 * bridge, and the OpenMP API routine wrappers (seed section 3.4).
 * doc/ompt-mapping.md is the table of what each event becomes.
 *
 * Cost rules: with no tool an event is a load and a branch; the handle of a
 * construct is resolved with one acquire load (a plain load on x86).  An
 * event that keeps no model of its own (dispatch, flush, and the begin/end
 * pairs of masked and work regions) tests its callback slot here and calls
 * into the bridge only when there is something to deliver.  The
 * return address into the user's code (codeptr_ra) and the frame of the
 * entry point are taken here, in the exported routine, so that they point
 * at the instrumented call site.
 *
 * Groups: every event names the bucket (POMP group and level, seed section
 * 3.8) its callbacks belong to; pomp_control.c reads the POMP_<GROUP>
 * variables that enable them.
 */
#include <stdlib.h>
#include <string.h>

#include "bridge.h"
#include "bridge_omp.h"
#include "bridge_runtime.h"
#include "pomp_entry.h"
#include "pomp_region.h"

/* ---- Parallel ------------------------------------------------------------ */

EXPORT int32_t POMP_Parallel_enter_team(POMP_Handle_t *handle,
                                        int32_t thread_id, int32_t num_threads,
                                        int32_t if_expr_result,
                                        POMP_Team_t *team, const char ctc[]) {
  (void)thread_id;
  FIRST_EVENT(handle, ctc);
  if (!team)
    return POMP_ERR_ARG;
  bridge_parallel_enter(team, pomp_requested_threads(num_threads),
                        if_expr_result == 0 ? BRIDGE_ENTER_IF_FALSE : 0,
                        CODEPTR, FRAME);
  return POMP_SUCCESS;
}

EXPORT int32_t POMP_Parallel_begin_team(POMP_Handle_t handle, int32_t thread_id,
                                        POMP_Team_t *team) {
  (void)thread_id;
  LATER_EVENT(handle);
  if (!team)
    return POMP_ERR_ARG;
  bridge_parallel_begin(team, FRAME);
  return POMP_SUCCESS;
}

EXPORT int32_t POMP_Parallel_end_team(POMP_Handle_t handle, int32_t thread_id,
                                      POMP_Team_t *team) {
  (void)thread_id;
  LATER_EVENT(handle);
  if (!team)
    return POMP_ERR_ARG;
  pomp_region_site(r, POMP_SITE_BARRIER, CODEPTR);
  bridge_parallel_end(team, 0, CODEPTR, FRAME);
  return POMP_SUCCESS;
}

EXPORT int32_t POMP_Parallel_exit_team(POMP_Handle_t handle, int32_t thread_id,
                                       POMP_Team_t *team) {
  (void)thread_id;
  LATER_EVENT(handle);
  if (!team)
    return POMP_ERR_ARG;
  bridge_parallel_exit(team, CODEPTR, FRAME);
  return POMP_SUCCESS;
}

/* The seed's four-event form has no instance argument.  The primary thread
 * keeps the instance in per-thread storage and publishes it through the
 * region for the workers: exact unless the same construct runs in several
 * teams at once, which only the *_team form can tell apart.  The storage is
 * allocated at a thread's first such event, so that libpompt's static TLS
 * stays small (it may be loaded with dlopen). */
#define SEED_TEAM_DEPTH 16
typedef struct seed_stack {
  POMP_Team_t teams[SEED_TEAM_DEPTH]; /* instances this thread encountered */
  int depth;
  POMP_Team_t *current[SEED_TEAM_DEPTH]; /* instances this thread is in */
  int current_depth;
} seed_stack_t;
static __thread seed_stack_t *seed __attribute__((tls_model("initial-exec")));

static seed_stack_t *seed_stack(void) {
  if (!seed)
    seed = calloc(1, sizeof *seed);
  return seed;
}

EXPORT int32_t POMP_Parallel_enter(POMP_Handle_t *handle, int32_t thread_id,
                                   int32_t num_threads, int32_t if_expr_result,
                                   const char ctc[]) {
  (void)thread_id;
  FIRST_EVENT(handle, ctc);
  seed_stack_t *st = seed_stack();
  if (!st)
    return POMP_ERR_NOMEM;
  if (st->depth >= SEED_TEAM_DEPTH)
    return POMP_ERR_STATE;
  POMP_Team_t *team = &st->teams[st->depth++];
  __atomic_store_n(&r->seed_team, team, __ATOMIC_RELEASE);
  bridge_parallel_enter(team, pomp_requested_threads(num_threads),
                        if_expr_result == 0 ? BRIDGE_ENTER_IF_FALSE : 0,
                        CODEPTR, FRAME);
  return POMP_SUCCESS;
}

EXPORT int32_t POMP_Parallel_begin(POMP_Handle_t handle, int32_t thread_id) {
  (void)thread_id;
  LATER_EVENT(handle);
  seed_stack_t *st = seed_stack();
  POMP_Team_t *team = __atomic_load_n(&r->seed_team, __ATOMIC_ACQUIRE);
  if (!st)
    return POMP_ERR_NOMEM;
  if (!team || st->current_depth >= SEED_TEAM_DEPTH)
    return POMP_ERR_STATE;
  st->current[st->current_depth++] = team;
  bridge_parallel_begin(team, FRAME);
  return POMP_SUCCESS;
}

EXPORT int32_t POMP_Parallel_end(POMP_Handle_t handle, int32_t thread_id) {
  (void)thread_id;
  LATER_EVENT(handle);
  seed_stack_t *st = seed;
  if (!st || st->current_depth <= 0)
    return POMP_ERR_STATE;
  bridge_parallel_end(st->current[--st->current_depth], 0, CODEPTR, FRAME);
  return POMP_SUCCESS;
}

EXPORT int32_t POMP_Parallel_exit(POMP_Handle_t handle, int32_t thread_id) {
  (void)thread_id;
  LATER_EVENT(handle);
  seed_stack_t *st = seed;
  if (!st || st->depth <= 0)
    return POMP_ERR_STATE;
  bridge_parallel_exit(&st->teams[--st->depth], CODEPTR, FRAME);
  return POMP_SUCCESS;
}

/* ---- Loops --------------------------------------------------------------- */

static __thread ompt_dispatch_chunk_t loop_chunk
    __attribute__((tls_model("initial-exec")));

EXPORT int32_t POMP_Loop_enter(POMP_Handle_t *handle, int32_t thread_id,
                               int64_t chunk_size, int64_t init_iter,
                               int64_t final_iter, int64_t incr,
                               const char ctc[]) {
  (void)thread_id, (void)chunk_size;
  FIRST_EVENT(handle, ctc);
  bridge_work_enter(BRIDGE_B_LOOP_EE, r->loop_work,
                    bridge_loop_count(init_iter, final_iter, incr), CODEPTR,
                    FRAME);
  return POMP_SUCCESS;
}

EXPORT int32_t POMP_Loop_chunk_begin(POMP_Handle_t handle, int32_t thread_id,
                                     int64_t init_iter, int64_t final_iter) {
  (void)thread_id;
  LATER_EVENT(handle);
  if (!bridge_wants(BRIDGE_B_LOOP_CHUNKS, ompt_callback_dispatch))
    return POMP_SUCCESS;
  loop_chunk.start = (uint64_t)init_iter;
  loop_chunk.iterations = (uint64_t)(final_iter - init_iter + 1);
  bridge_dispatch(BRIDGE_B_LOOP_CHUNKS, ompt_dispatch_ws_loop_chunk,
                  (ompt_data_t){.ptr = &loop_chunk}, FRAME);
  return POMP_SUCCESS;
}

EXPORT int32_t POMP_Loop_iter_begin(POMP_Handle_t handle, int32_t thread_id,
                                    int64_t iter) {
  (void)thread_id;
  LATER_EVENT(handle);
  if (!bridge_wants(BRIDGE_B_LOOP_ITER_BE, ompt_callback_dispatch))
    return POMP_SUCCESS;
  bridge_dispatch(BRIDGE_B_LOOP_ITER_BE, ompt_dispatch_iteration,
                  (ompt_data_t){.value = (uint64_t)iter}, FRAME);
  return POMP_SUCCESS;
}

EXPORT int32_t POMP_Loop_iter_event(POMP_Handle_t handle, int32_t thread_id,
                                    int64_t iter) {
  (void)thread_id;
  LATER_EVENT(handle);
  if (!bridge_wants(BRIDGE_B_LOOP_ITER_EVENT, ompt_callback_dispatch))
    return POMP_SUCCESS;
  bridge_dispatch(BRIDGE_B_LOOP_ITER_EVENT, ompt_dispatch_iteration,
                  (ompt_data_t){.value = (uint64_t)iter}, FRAME);
  return POMP_SUCCESS;
}

/* Chunk and iteration ends have no OMPT counterpart: a dispatch callback
 * marks only the start of a unit of work. */
#define NO_OMPT_COUNTERPART(name)                                              \
  EXPORT int32_t name(POMP_Handle_t handle, int32_t thread_id) {               \
    (void)thread_id;                                                           \
    LATER_EVENT(handle);                                                       \
    return POMP_SUCCESS;                                                       \
  }
NO_OMPT_COUNTERPART(POMP_Loop_iter_end)
NO_OMPT_COUNTERPART(POMP_Loop_chunk_end)

EXPORT int32_t POMP_Loop_exit(POMP_Handle_t handle, int32_t thread_id) {
  (void)thread_id;
  LATER_EVENT(handle);
  bridge_work_leave(BRIDGE_B_LOOP_EE, r->loop_work, CODEPTR, FRAME);
  return POMP_SUCCESS;
}

/* ---- Workshare, sections, single, scope ------------------------------------
 */

EXPORT int32_t POMP_Workshare_enter(POMP_Handle_t *handle, int32_t thread_id,
                                    const char ctc[]) {
  (void)thread_id;
  FIRST_EVENT(handle, ctc);
  bridge_work_enter(BRIDGE_B_WORKSHARE_EE, ompt_work_workshare, 0, CODEPTR,
                    FRAME);
  return POMP_SUCCESS;
}
NO_OMPT_COUNTERPART(POMP_Workshare_begin)
NO_OMPT_COUNTERPART(POMP_Workshare_end)
EXPORT int32_t POMP_Workshare_exit(POMP_Handle_t handle, int32_t thread_id) {
  (void)thread_id;
  LATER_EVENT(handle);
  bridge_work_leave(BRIDGE_B_WORKSHARE_EE, ompt_work_workshare, CODEPTR, FRAME);
  return POMP_SUCCESS;
}

EXPORT int32_t POMP_Sections_enter(POMP_Handle_t *handle, int32_t thread_id,
                                   const char ctc[]) {
  (void)thread_id;
  FIRST_EVENT(handle, ctc);
  bridge_work_enter(BRIDGE_B_WORKSHARE_EE, ompt_work_sections, r->num_sections,
                    CODEPTR, FRAME);
  return POMP_SUCCESS;
}

EXPORT int32_t POMP_Section_begin(POMP_Handle_t handle, int32_t section_num,
                                  int32_t thread_id) {
  (void)thread_id, (void)section_num;
  LATER_EVENT(handle);
  if (!bridge_wants(BRIDGE_B_WORKSHARE_BE, ompt_callback_dispatch))
    return POMP_SUCCESS;
  /* OpenMP 5.2: the instance of a section dispatch is its code address. */
  bridge_dispatch(BRIDGE_B_WORKSHARE_BE, ompt_dispatch_section,
                  (ompt_data_t){.ptr = CODEPTR}, FRAME);
  return POMP_SUCCESS;
}
NO_OMPT_COUNTERPART(POMP_Section_end)

EXPORT int32_t POMP_Sections_exit(POMP_Handle_t handle, int32_t thread_id) {
  (void)thread_id;
  LATER_EVENT(handle);
  bridge_work_leave(BRIDGE_B_WORKSHARE_EE, ompt_work_sections, CODEPTR, FRAME);
  return POMP_SUCCESS;
}

EXPORT int32_t POMP_Single_enter(POMP_Handle_t *handle, int32_t thread_id,
                                 const char ctc[]) {
  (void)thread_id;
  FIRST_EVENT(handle, ctc);
  return POMP_SUCCESS; /* who executes is known at begin or exit */
}

EXPORT int32_t POMP_Single_begin(POMP_Handle_t handle, int32_t thread_id) {
  (void)thread_id;
  LATER_EVENT(handle);
  pomp_region_site(r, POMP_SITE_BEGIN, CODEPTR);
  bridge_single_begin(pomp_region_construct(r, CODEPTR), FRAME);
  return POMP_SUCCESS;
}

EXPORT int32_t POMP_Single_end(POMP_Handle_t handle, int32_t thread_id) {
  (void)thread_id;
  LATER_EVENT(handle);
  bridge_single_end(CODEPTR, FRAME);
  return POMP_SUCCESS;
}

EXPORT int32_t POMP_Single_exit(POMP_Handle_t handle, int32_t thread_id) {
  (void)thread_id;
  LATER_EVENT(handle);
  pomp_region_site(r, POMP_SITE_EXIT, CODEPTR);
  bridge_single_exit(CODEPTR, pomp_region_construct(r, CODEPTR), FRAME);
  return POMP_SUCCESS;
}

EXPORT int32_t POMP_Scope_enter(POMP_Handle_t *handle, int32_t thread_id,
                                const char ctc[]) {
  (void)thread_id;
  FIRST_EVENT(handle, ctc);
  bridge_work_enter(BRIDGE_B_WORKSHARE_EE, ompt_work_scope, 0, CODEPTR, FRAME);
  return POMP_SUCCESS;
}

EXPORT int32_t POMP_Scope_exit(POMP_Handle_t handle, int32_t thread_id) {
  (void)thread_id;
  LATER_EVENT(handle);
  bridge_work_leave(BRIDGE_B_WORKSHARE_EE, ompt_work_scope, CODEPTR, FRAME);
  return POMP_SUCCESS;
}

/* ---- Synchronisation ----------------------------------------------------- */

/* critical and ordered: acquire at enter, acquired at begin; the release is
 * reported at the end of the block, while the thread still holds the
 * runtime's lock (so that a race detector's release annotation precedes the
 * next owner's acquire), or at exit when the block's end event is missing. */
#define SYNC_EE BRIDGE_B_SYNC_EE

EXPORT int32_t POMP_Critical_enter(POMP_Handle_t *handle, int32_t thread_id,
                                   const char ctc[]) {
  (void)thread_id;
  FIRST_EVENT(handle, ctc);
  bridge_mutex_acquire(SYNC_EE, ompt_mutex_critical, r->hint, r->wait_id,
                       CODEPTR, FRAME);
  return POMP_SUCCESS;
}

EXPORT int32_t POMP_Critical_begin(POMP_Handle_t handle, int32_t thread_id) {
  (void)thread_id;
  LATER_EVENT(handle);
  bridge_mutex_acquired(SYNC_EE, ompt_mutex_critical, r->wait_id, 1, CODEPTR,
                        FRAME);
  return POMP_SUCCESS;
}

EXPORT int32_t POMP_Critical_end(POMP_Handle_t handle, int32_t thread_id) {
  (void)thread_id;
  LATER_EVENT(handle);
  bridge_mutex_release_held(SYNC_EE, ompt_mutex_critical, r->wait_id, CODEPTR,
                            FRAME);
  return POMP_SUCCESS;
}

EXPORT int32_t POMP_Critical_exit(POMP_Handle_t handle, int32_t thread_id) {
  (void)thread_id;
  LATER_EVENT(handle);
  bridge_mutex_release_held(SYNC_EE, ompt_mutex_critical, r->wait_id, CODEPTR,
                            FRAME);
  return POMP_SUCCESS;
}

EXPORT int32_t POMP_Master_begin(POMP_Handle_t *handle, int32_t thread_id,
                                 const char ctc[]) {
  (void)thread_id;
  FIRST_EVENT(handle, ctc);
  bridge_masked_fast(ompt_scope_begin, CODEPTR, FRAME);
  return POMP_SUCCESS;
}

EXPORT int32_t POMP_Master_end(POMP_Handle_t handle, int32_t thread_id) {
  (void)thread_id;
  LATER_EVENT(handle);
  bridge_masked_fast(ompt_scope_end, CODEPTR, FRAME);
  return POMP_SUCCESS;
}

EXPORT int32_t POMP_Masked_begin(POMP_Handle_t *handle, int32_t thread_id,
                                 int32_t filter, const char ctc[]) {
  (void)thread_id, (void)filter; /* OMPT's masked callback has no filter */
  FIRST_EVENT(handle, ctc);
  bridge_masked_fast(ompt_scope_begin, CODEPTR, FRAME);
  return POMP_SUCCESS;
}

EXPORT int32_t POMP_Masked_end(POMP_Handle_t handle, int32_t thread_id) {
  (void)thread_id;
  LATER_EVENT(handle);
  bridge_masked_fast(ompt_scope_end, CODEPTR, FRAME);
  return POMP_SUCCESS;
}

EXPORT int32_t POMP_Barrier_enter(POMP_Handle_t *handle, int32_t thread_id,
                                  const char ctc[]) {
  (void)thread_id;
  FIRST_EVENT(handle, ctc);
  bridge_sync_enter(SYNC_EE, ompt_sync_region_barrier_explicit, CODEPTR, FRAME);
  return POMP_SUCCESS;
}

EXPORT int32_t POMP_Barrier_exit(POMP_Handle_t handle, int32_t thread_id) {
  (void)thread_id;
  LATER_EVENT(handle);
  bridge_sync_exit(SYNC_EE, ompt_sync_region_barrier_explicit, CODEPTR, FRAME);
  return POMP_SUCCESS;
}

static ompt_sync_region_t implicit_barrier_kind(const struct pomp_region *r) {
  return r->kind == POMP_REGION_PARALLEL
             ? ompt_sync_region_barrier_implicit_parallel
             : ompt_sync_region_barrier_implicit_workshare;
}

EXPORT int32_t POMP_Implicit_barrier_enter(POMP_Handle_t *handle,
                                           int32_t thread_id,
                                           const char ctc[]) {
  (void)thread_id;
  FIRST_EVENT(handle, ctc);
  pomp_region_site(r, POMP_SITE_BARRIER, CODEPTR);
  bridge_sync_enter(SYNC_EE, implicit_barrier_kind(r), CODEPTR, FRAME);
  return POMP_SUCCESS;
}

EXPORT int32_t POMP_Implicit_barrier_exit(POMP_Handle_t handle,
                                          int32_t thread_id) {
  (void)thread_id;
  LATER_EVENT(handle);
  bridge_sync_exit(SYNC_EE, implicit_barrier_kind(r), CODEPTR, FRAME);
  return POMP_SUCCESS;
}

EXPORT int32_t POMP_Flush_event(POMP_Handle_t *handle, int32_t thread_id,
                                const char ctc[]) {
  (void)thread_id;
  FIRST_EVENT(handle, ctc);
  if (!bridge_wants(BRIDGE_B_SYNC_EE, ompt_callback_flush))
    return POMP_SUCCESS;
  bridge_flush(CODEPTR, FRAME);
  return POMP_SUCCESS;
}

/* atomic: the atomic operation is the interval in which the "mutex" is
 * held; its wait id says whether a lock is (bridge_atomic.c). */
EXPORT int32_t POMP_Atomic_enter(POMP_Handle_t *handle, int32_t thread_id,
                                 const char ctc[]) {
  (void)thread_id;
  FIRST_EVENT(handle, ctc);
  bridge_atomic_enter(SYNC_EE, &r->atomic_kind, CODEPTR, FRAME);
  return POMP_SUCCESS;
}

EXPORT int32_t POMP_Atomic_exit(POMP_Handle_t handle, int32_t thread_id) {
  (void)thread_id;
  LATER_EVENT(handle);
  bridge_atomic_exit(SYNC_EE, CODEPTR);
  return POMP_SUCCESS;
}

/* The seed's single event after the atomic construct: the whole sequence
 * (whatever GCC made of the construct is over: it counts as an atomic
 * instruction unless an enter event found otherwise). */
EXPORT int32_t POMP_Atomic_event(POMP_Handle_t *handle, int32_t thread_id,
                                 const char ctc[]) {
  (void)thread_id;
  FIRST_EVENT(handle, ctc);
  bridge_atomic_enter(SYNC_EE, &r->atomic_kind, CODEPTR, FRAME);
  bridge_atomic_exit(SYNC_EE, CODEPTR);
  return POMP_SUCCESS;
}

EXPORT int32_t POMP_Ordered_enter(POMP_Handle_t *handle, int32_t thread_id,
                                  const char ctc[]) {
  (void)thread_id;
  FIRST_EVENT(handle, ctc);
  bridge_mutex_acquire(SYNC_EE, ompt_mutex_ordered, 0, r->wait_id, CODEPTR,
                       FRAME);
  return POMP_SUCCESS;
}

EXPORT int32_t POMP_Ordered_begin(POMP_Handle_t handle, int32_t thread_id) {
  (void)thread_id;
  LATER_EVENT(handle);
  bridge_mutex_acquired(SYNC_EE, ompt_mutex_ordered, r->wait_id, 1, CODEPTR,
                        FRAME);
  return POMP_SUCCESS;
}

EXPORT int32_t POMP_Ordered_end(POMP_Handle_t handle, int32_t thread_id) {
  (void)thread_id;
  LATER_EVENT(handle);
  bridge_mutex_release_held(SYNC_EE, ompt_mutex_ordered, r->wait_id, CODEPTR,
                            FRAME);
  return POMP_SUCCESS;
}

EXPORT int32_t POMP_Ordered_exit(POMP_Handle_t handle, int32_t thread_id) {
  (void)thread_id;
  LATER_EVENT(handle);
  bridge_mutex_release_held(SYNC_EE, ompt_mutex_ordered, r->wait_id, CODEPTR,
                            FRAME);
  return POMP_SUCCESS;
}

/* cancel: reported when cancellation is activated (a cancel construct that
 * is not activated does nothing in OpenMP).  The construct type comes from
 * the CTC (construct=parallel|sections|for|do|taskgroup). */

/* Emitted just before the cancel directive (after it, an activated cancel
 * would never get there); activated is the directive's if clause, and the
 * cancellation is activated only when the runtime has cancellation on
 * (OMP_CANCELLATION). */
EXPORT int32_t POMP_Cancel_event(POMP_Handle_t *handle, int32_t thread_id,
                                 int32_t activated, const char ctc[]) {
  (void)thread_id;
  FIRST_EVENT(handle, ctc);
  if (activated && omp_get_cancellation && omp_get_cancellation())
    bridge_cancel(r->cancel_flags | ompt_cancel_activated, CODEPTR, FRAME);
  return POMP_SUCCESS;
}

/* Whether a thread detects a cancellation at a cancellation point is decided
 * inside the runtime, after this event: nothing can be reported here (a
 * detected cancellation shows as the construct ending early, which the
 * bridge closes at the thread's next event). */
EXPORT int32_t POMP_Cancellation_point_event(POMP_Handle_t *handle,
                                             int32_t thread_id,
                                             const char ctc[]) {
  (void)thread_id;
  FIRST_EVENT(handle, ctc);
  return POMP_SUCCESS;
}

EXPORT int32_t POMP_Error_event(POMP_Handle_t *handle, int32_t thread_id,
                                int32_t severity, const char *message,
                                const char ctc[]) {
  (void)thread_id;
  FIRST_EVENT(handle, ctc);
  if (severity != ompt_warning && severity != ompt_fatal)
    return POMP_ERR_ARG;
  bridge_error((ompt_severity_t)severity, message, CODEPTR, FRAME);
  return POMP_SUCCESS;
}

/* ---- Tasks ------------------------------------------------------------------
 */

EXPORT int32_t POMP_Task_create_begin(POMP_Handle_t *handle, int32_t thread_id,
                                      POMP_Task_t *task, int32_t task_flags,
                                      const char ctc[]) {
  (void)thread_id;
  FIRST_EVENT(handle, ctc);
  if (!task)
    return POMP_ERR_ARG;
  /* Only read with a tool active (every later event of the task returns at
   * once without one), so not cleared before. */
  memset(task, 0, sizeof *task);
  int32_t status = bridge_task_create_begin(task, task_flags, CODEPTR, FRAME);
  NO_TAIL_CALL();
  return status;
}

EXPORT int32_t POMP_Task_dependences(POMP_Handle_t handle, int32_t thread_id,
                                     POMP_Task_t *task,
                                     const POMP_Dependence_t deps[],
                                     int32_t ndeps) {
  (void)thread_id;
  LATER_EVENT(handle);
  if (!task)
    return POMP_ERR_ARG;
  return bridge_task_dependences(task, deps, ndeps);
}

EXPORT int32_t POMP_Task_create_end(POMP_Handle_t handle, int32_t thread_id,
                                    POMP_Task_t *task) {
  (void)thread_id;
  LATER_EVENT(handle);
  if (!task)
    return POMP_ERR_ARG;
  int32_t status = bridge_task_create_end(task, FRAME);
  NO_TAIL_CALL();
  return status;
}

EXPORT int32_t POMP_Task_begin(POMP_Handle_t handle, int32_t thread_id,
                               POMP_Task_t *task) {
  (void)thread_id;
  LATER_EVENT(handle);
  if (!task)
    return POMP_ERR_ARG;
  int32_t status = bridge_task_begin(task, CODEPTR, FRAME);
  NO_TAIL_CALL();
  return status;
}

EXPORT int32_t POMP_Task_end(POMP_Handle_t handle, int32_t thread_id,
                             POMP_Task_t *task) {
  (void)thread_id;
  LATER_EVENT(handle);
  if (!task)
    return POMP_ERR_ARG;
  int32_t status = bridge_task_end(task, FRAME);
  NO_TAIL_CALL();
  return status;
}

EXPORT int32_t POMP_Taskwait_enter(POMP_Handle_t *handle, int32_t thread_id,
                                   const char ctc[]) {
  (void)thread_id;
  FIRST_EVENT(handle, ctc);
  bridge_sync_enter(BRIDGE_B_TASK_EE, ompt_sync_region_taskwait, CODEPTR,
                    FRAME);
  return POMP_SUCCESS;
}

EXPORT int32_t POMP_Taskwait_exit(POMP_Handle_t handle, int32_t thread_id) {
  (void)thread_id;
  LATER_EVENT(handle);
  bridge_sync_exit(BRIDGE_B_TASK_EE, ompt_sync_region_taskwait, CODEPTR, FRAME);
  return POMP_SUCCESS;
}

EXPORT int32_t POMP_Taskgroup_enter(POMP_Handle_t *handle, int32_t thread_id,
                                    const char ctc[]) {
  (void)thread_id;
  FIRST_EVENT(handle, ctc);
  bridge_taskgroup_enter(CODEPTR, FRAME);
  return POMP_SUCCESS;
}

NO_OMPT_COUNTERPART(POMP_Taskgroup_begin)

EXPORT int32_t POMP_Taskgroup_end(POMP_Handle_t handle, int32_t thread_id) {
  (void)thread_id;
  LATER_EVENT(handle);
  bridge_taskgroup_end(CODEPTR, FRAME);
  return POMP_SUCCESS;
}

EXPORT int32_t POMP_Taskgroup_exit(POMP_Handle_t handle, int32_t thread_id) {
  (void)thread_id;
  LATER_EVENT(handle);
  bridge_taskgroup_exit(CODEPTR, FRAME);
  return POMP_SUCCESS;
}

/* taskyield: a scheduling point (the suspended task's enter_frame); OMPT
 * reports a yield only as a task_schedule when another task runs, which
 * the Task_begin of that task does. */
EXPORT int32_t POMP_Taskyield_enter(POMP_Handle_t *handle, int32_t thread_id,
                                    const char ctc[]) {
  (void)thread_id;
  FIRST_EVENT(handle, ctc);
  bridge_scheduling_point(1, FRAME);
  return POMP_SUCCESS;
}

EXPORT int32_t POMP_Taskyield_exit(POMP_Handle_t handle, int32_t thread_id) {
  (void)thread_id;
  LATER_EVENT(handle);
  bridge_scheduling_point(0, FRAME);
  return POMP_SUCCESS;
}

EXPORT int32_t POMP_Taskloop_enter(POMP_Handle_t *handle, int32_t thread_id,
                                   int64_t init_iter, int64_t final_iter,
                                   int64_t incr, const char ctc[]) {
  (void)thread_id;
  FIRST_EVENT(handle, ctc);
  /* work(taskloop) and its tasks: bridge_taskloop.c */
  bridge_taskloop_enter(bridge_loop_count(init_iter, final_iter, incr), CODEPTR,
                        FRAME);
  return POMP_SUCCESS;
}

EXPORT int32_t POMP_Taskloop_exit(POMP_Handle_t handle, int32_t thread_id) {
  (void)thread_id;
  LATER_EVENT(handle);
  bridge_taskloop_exit(CODEPTR, FRAME);
  return POMP_SUCCESS;
}

/* ---- User group: OMPT has no user regions; the events are accepted and
 * checked so that instrumented code runs, and reach no callback. ---------- */

#define SINGLE_EVENT_NOT_MAPPED(name)                                          \
  EXPORT int32_t name(POMP_Handle_t *handle, int32_t thread_id,                \
                      const char ctc[]) {                                      \
    (void)thread_id;                                                           \
    FIRST_EVENT(handle, ctc);                                                  \
    return POMP_SUCCESS;                                                       \
  }
SINGLE_EVENT_NOT_MAPPED(POMP_Function_enter)
SINGLE_EVENT_NOT_MAPPED(POMP_Function_begin)
SINGLE_EVENT_NOT_MAPPED(POMP_Function_event)
SINGLE_EVENT_NOT_MAPPED(POMP_User_region_begin)
SINGLE_EVENT_NOT_MAPPED(POMP_User_event)
NO_OMPT_COUNTERPART(POMP_Function_end)
NO_OMPT_COUNTERPART(POMP_Function_exit)
NO_OMPT_COUNTERPART(POMP_User_region_end)

/* ---- Runtime group: lock events (Tables 6 and 7) ----------------------------
 */

#define LOCK_EVENT(name, call)                                                 \
  EXPORT int32_t name(POMP_Handle_t *handle, int32_t thread_id,                \
                      const void *lock_id, const char ctc[]) {                 \
    (void)thread_id;                                                           \
    FIRST_EVENT(handle, ctc);                                                  \
    call;                                                                      \
    return POMP_SUCCESS;                                                       \
  }
LOCK_EVENT(POMP_Init_lock_event,
           bridge_lock_init(ompt_mutex_lock, 0, lock_id, CODEPTR, FRAME))
LOCK_EVENT(POMP_Init_nest_lock_event,
           bridge_lock_init(ompt_mutex_nest_lock, 0, lock_id, CODEPTR, FRAME))
LOCK_EVENT(POMP_Destroy_lock_event,
           bridge_lock_destroy(ompt_mutex_lock, lock_id, CODEPTR, FRAME))
LOCK_EVENT(POMP_Destroy_nest_lock_event,
           bridge_lock_destroy(ompt_mutex_nest_lock, lock_id, CODEPTR, FRAME))
LOCK_EVENT(POMP_Set_lock_enter,
           bridge_lock_acquire(ompt_mutex_lock, lock_id, CODEPTR, FRAME))
LOCK_EVENT(POMP_Set_nest_lock_enter,
           bridge_lock_acquire(ompt_mutex_nest_lock, lock_id, CODEPTR, FRAME))
/* The single-event form: acquired, with no wait observed before it. */
LOCK_EVENT(POMP_Set_lock_event,
           bridge_lock_acquired(ompt_mutex_lock, lock_id, 1, 0, CODEPTR, FRAME))
LOCK_EVENT(POMP_Set_nest_lock_event,
           bridge_lock_acquired(ompt_mutex_nest_lock, lock_id, 1, 0, CODEPTR,
                                FRAME))
LOCK_EVENT(POMP_Unset_lock_event,
           bridge_lock_release(ompt_mutex_lock, lock_id, CODEPTR, FRAME))
LOCK_EVENT(POMP_Unset_nest_lock_event,
           bridge_lock_release(ompt_mutex_nest_lock, lock_id, CODEPTR, FRAME))

#define LOCK_EXIT(name, kind)                                                  \
  EXPORT int32_t name(POMP_Handle_t handle, int32_t thread_id,                 \
                      const void *lock_id) {                                   \
    (void)thread_id;                                                           \
    LATER_EVENT(handle);                                                       \
    bridge_lock_acquired(kind, lock_id, 1, 0, CODEPTR, FRAME);                 \
    return POMP_SUCCESS;                                                       \
  }
LOCK_EXIT(POMP_Set_lock_exit, ompt_mutex_lock)
LOCK_EXIT(POMP_Set_nest_lock_exit, ompt_mutex_nest_lock)

/* Test: after the routine, so the attempt and its result come together.
 * For a nest lock was_lock_set is the routine's result, the new nesting
 * count. */
#define LOCK_TEST(name, kind)                                                  \
  EXPORT int32_t name(POMP_Handle_t *handle, int32_t thread_id,                \
                      const void *lock_id, int32_t was_lock_set,               \
                      const char ctc[]) {                                      \
    (void)thread_id;                                                           \
    FIRST_EVENT(handle, ctc);                                                  \
    bridge_lock_acquire(kind, lock_id, CODEPTR, FRAME);                        \
    bridge_lock_acquired(kind, lock_id, was_lock_set != 0,                     \
                         kind == ompt_mutex_test_nest_lock ? was_lock_set : 0, \
                         CODEPTR, FRAME);                                      \
    return POMP_SUCCESS;                                                       \
  }
LOCK_TEST(POMP_Test_lock_event, ompt_mutex_test_lock)
LOCK_TEST(POMP_Test_nest_lock_event, ompt_mutex_test_nest_lock)

/* ---- Runtime group: other API routines.  OMPT has no callbacks for them. */

#define API_EVENT(name)                                                        \
  EXPORT int32_t name(POMP_Handle_t *handle, int32_t thread_id, int32_t value, \
                      const char ctc[]) {                                      \
    (void)thread_id, (void)value;                                              \
    FIRST_EVENT(handle, ctc);                                                  \
    return POMP_SUCCESS;                                                       \
  }
API_EVENT(POMP_Set_num_threads_event)
API_EVENT(POMP_Get_num_threads_event)
API_EVENT(POMP_Get_max_threads_event)
API_EVENT(POMP_Get_thread_num_event)
API_EVENT(POMP_Get_num_procs_event)
API_EVENT(POMP_In_parallel_event)
API_EVENT(POMP_Set_dynamic_event)
API_EVENT(POMP_Get_dynamic_event)
API_EVENT(POMP_Set_nested_event)
API_EVENT(POMP_Get_nested_event)

/* ---- OpenMP API routine wrappers (seed section 3.4)
 * -------------------------- Each calls the routine of whichever OpenMP runtime
 * the program uses (libgomp, or pompt's serial stubs), through a weak
 * reference, and reports the Runtime-group events around it.  Without a tool,
 * or when the handle cannot be resolved, the routine is still called.  Without
 * any runtime the serial answers are given (one thread; locks that never
 * block). */

/* Whether events are to be reported for this call site. */
static inline int api_events(POMP_Handle_t *handle, const char *ctc) {
  if (!bridge_active)
    return 0;
  return pomp_region_of(handle, ctc, NULL) != NULL;
}

#define API_LOCK_INIT(name, kind, routine)                                     \
  EXPORT void name(POMP_Handle_t *handle, const char ctc[], void *lock) {      \
    if (routine)                                                               \
      routine(lock);                                                           \
    if (api_events(handle, ctc))                                               \
      bridge_lock_init(kind, 0, lock, CODEPTR, FRAME);                         \
  }
API_LOCK_INIT(POMP_Api_omp_init_lock, ompt_mutex_lock, omp_init_lock)
API_LOCK_INIT(POMP_Api_omp_init_nest_lock, ompt_mutex_nest_lock,
              omp_init_nest_lock)

#define API_LOCK_INIT_HINT(name, kind, routine, plain)                         \
  EXPORT void name(POMP_Handle_t *handle, const char ctc[], void *lock,        \
                   int hint) {                                                 \
    if (routine)                                                               \
      routine(lock, hint);                                                     \
    else if (plain)                                                            \
      plain(lock);                                                             \
    if (api_events(handle, ctc))                                               \
      bridge_lock_init(kind, (unsigned)hint, lock, CODEPTR, FRAME);            \
  }
API_LOCK_INIT_HINT(POMP_Api_omp_init_lock_with_hint, ompt_mutex_lock,
                   omp_init_lock_with_hint, omp_init_lock)
API_LOCK_INIT_HINT(POMP_Api_omp_init_nest_lock_with_hint, ompt_mutex_nest_lock,
                   omp_init_nest_lock_with_hint, omp_init_nest_lock)

#define API_LOCK_DESTROY(name, kind, routine)                                  \
  EXPORT void name(POMP_Handle_t *handle, const char ctc[], void *lock) {      \
    if (api_events(handle, ctc))                                               \
      bridge_lock_destroy(kind, lock, CODEPTR, FRAME);                         \
    if (routine)                                                               \
      routine(lock);                                                           \
  }
API_LOCK_DESTROY(POMP_Api_omp_destroy_lock, ompt_mutex_lock, omp_destroy_lock)
API_LOCK_DESTROY(POMP_Api_omp_destroy_nest_lock, ompt_mutex_nest_lock,
                 omp_destroy_nest_lock)

/* The set and unset wrappers, called wherever the program sets or unsets
 * a lock.  On x86-64 the path without a tool is assembler: a compare and a
 * jump into the runtime's routine with the lock moved to the first argument
 * (routine_name: the runtime's routine as libpompt found it, bridge_omp.h;
 * where it is NULL, the C body finds it, or finds no runtime).  In C, the
 * tool's path inlined made GCC build a frame and save registers on both
 * paths (16 of a set/unset pair's 35 instructions over gcc's).  With a tool
 * the jump goes to the wrapper's body in C (name##_slow), which then takes
 * the program's call site and frame; elsewhere the body is the wrapper. */
#define API_LOCK_ENTRY(name, routine_name)                                     \
  POMP_JUMP_ENTRY(                                                             \
      void, name, (POMP_Handle_t * handle, const char ctc[], void *lock),      \
      GOMP_TOOL_JUMP(POMP_JUMP_SLOW(name)) BRIDGE_OMP_LOCK_LOAD_ASM(           \
          routine_name) "testq %rax, %rax\n\t"                                 \
                        "je " POMP_JUMP_SLOW(name) "\n\t"                      \
                                                   "movq %rdx, %rdi\n\t"       \
                                                   "jmp *%rax\n\t")

#define API_LOCK_SET(name, kind, routine)                                      \
  API_LOCK_ENTRY(name, #routine) {                                             \
    if (!api_events(handle, ctc)) {                                            \
      if (routine)                                                             \
        routine(lock);                                                         \
      return;                                                                  \
    }                                                                          \
    bridge_lock_acquire(kind, lock, CODEPTR, FRAME);                           \
    if (routine)                                                               \
      routine(lock);                                                           \
    bridge_lock_acquired(kind, lock, 1, 0, CODEPTR, FRAME);                    \
  }
API_LOCK_SET(POMP_Api_omp_set_lock, ompt_mutex_lock, omp_set_lock)
API_LOCK_SET(POMP_Api_omp_set_nest_lock, ompt_mutex_nest_lock,
             omp_set_nest_lock)

/* The release is reported before the lock is released, while the thread
 * still owns it (see Critical_end). */
#define API_LOCK_UNSET(name, kind, routine)                                    \
  API_LOCK_ENTRY(name, #routine) {                                             \
    if (api_events(handle, ctc))                                               \
      bridge_lock_release(kind, lock, CODEPTR, FRAME);                         \
    if (routine)                                                               \
      routine(lock);                                                           \
  }
API_LOCK_UNSET(POMP_Api_omp_unset_lock, ompt_mutex_lock, omp_unset_lock)
API_LOCK_UNSET(POMP_Api_omp_unset_nest_lock, ompt_mutex_nest_lock,
               omp_unset_nest_lock)

/* test: the attempt always, acquired only when the lock was taken. */
EXPORT int POMP_Api_omp_test_lock(POMP_Handle_t *handle, const char ctc[],
                                  void *lock) {
  if (!api_events(handle, ctc))
    return omp_test_lock ? omp_test_lock(lock) : 1;
  bridge_lock_acquire(ompt_mutex_test_lock, lock, CODEPTR, FRAME);
  int got = omp_test_lock ? omp_test_lock(lock) : 1;
  bridge_lock_acquired(ompt_mutex_test_lock, lock, got != 0, 0, CODEPTR, FRAME);
  return got;
}

EXPORT int POMP_Api_omp_test_nest_lock(POMP_Handle_t *handle, const char ctc[],
                                       void *lock) {
  if (!api_events(handle, ctc))
    return omp_test_nest_lock ? omp_test_nest_lock(lock) : 1;
  bridge_lock_acquire(ompt_mutex_test_nest_lock, lock, CODEPTR, FRAME);
  int count = omp_test_nest_lock ? omp_test_nest_lock(lock) : 1;
  bridge_lock_acquired(ompt_mutex_test_nest_lock, lock, count > 0, count,
                       CODEPTR, FRAME);
  return count;
}

/* The other routines: no OMPT callback exists for them; the handle is still
 * initialised, so that a later tool-side use of the region is possible. */
#define API_VOID(name, routine, type)                                          \
  EXPORT void name(POMP_Handle_t *handle, const char ctc[], type value) {      \
    (void)api_events(handle, ctc);                                             \
    if (routine)                                                               \
      routine(value);                                                          \
  }
#define API_INT(name, routine, serial)                                         \
  EXPORT int name(POMP_Handle_t *handle, const char ctc[]) {                   \
    (void)api_events(handle, ctc);                                             \
    return routine ? routine() : (serial);                                     \
  }
API_VOID(POMP_Api_omp_set_num_threads, omp_set_num_threads, int)
API_INT(POMP_Api_omp_get_num_threads, omp_get_num_threads, 1)
API_INT(POMP_Api_omp_get_max_threads, omp_get_max_threads, 1)
API_INT(POMP_Api_omp_get_thread_num, omp_get_thread_num, 0)
API_INT(POMP_Api_omp_get_num_procs, omp_get_num_procs, 1)
API_INT(POMP_Api_omp_in_parallel, omp_in_parallel, 0)
API_VOID(POMP_Api_omp_set_dynamic, omp_set_dynamic, int)
API_INT(POMP_Api_omp_get_dynamic, omp_get_dynamic, 0)
API_VOID(POMP_Api_omp_set_nested, omp_set_nested, int)
API_INT(POMP_Api_omp_get_nested, omp_get_nested, 0)

/* omp_fulfill_event: the task's fulfilment is reported before the runtime
 * completes the task (and releases its dependences). */

EXPORT void POMP_Api_omp_fulfill_event(POMP_Handle_t *handle, const char ctc[],
                                       uintptr_t event) {
  if (api_events(handle, ctc))
    bridge_detach_fulfill((const void *)event);
  if (omp_fulfill_event)
    omp_fulfill_event(event);
}
