/*
 * bridge_runtime.h -- what the POMP layer asks of the bridge for the parts
 * of constructs that happen inside the OpenMP runtime: the chunks of a
 * worksharing loop, the tasks a taskloop generates, the dependence task of
 * taskwait with depend clauses, the parallel regions of distribute parallel
 * for.  Each is found where libgomp decides it (its entry points,
 * interposed in bridge_gomp.c and bridge_taskloop.c, or aliased by
 * pomp-instr to bridge_loop.c's) or computed the way libgomp computes it.
 *
 * Internal to libpompt.
 */
#ifndef POMPT_BRIDGE_RUNTIME_H
#define POMPT_BRIDGE_RUNTIME_H

#include <stdint.h>

#include "pomp.h"

/* ---- Waits the POMP layer makes itself (bridge_gomp_sync.c) -------------- */

/* libgomp's GOMP_barrier and GOMP_taskwait, past libpompt's entries (the
 * caller reports the construct). */
void bridge_gomp_barrier(void);
void bridge_gomp_taskwait(void);

/* ---- Loop chunks (bridge_loop.c) ----------------------------------------- */

/* The number of iterations of init..final (inclusive) by incr; 0 when
 * unknown or empty.  Computed in unsigned arithmetic: no bounds overflow. */
static inline uint64_t bridge_loop_count(int64_t init, int64_t final,
                                         int64_t incr) {
  if (incr == 0)
    return 0;
  if ((incr > 0 && final < init) || (incr < 0 && final > init))
    return 0;
  uint64_t span = incr > 0 ? (uint64_t) final - (uint64_t)init
                           : (uint64_t)init - (uint64_t) final;
  uint64_t step = incr > 0 ? (uint64_t)incr : -(uint64_t)incr;
  return span / step + 1;
}
/* After the loop's work begin, on each thread of the team: arms the
 * chunk reports of this loop instance (POMP_CHUNKS_*); a static schedule
 * without a chunk size reports the thread's one chunk here. */
void bridge_loop_chunks_enter(POMP_Chunks_t *chunks, int schedule,
                              int64_t chunk_size, int64_t init, int64_t final,
                              int64_t incr, void *frame);
/* Static schedule with a chunk size: the thread starts its next chunk. */
void bridge_loop_chunk_next(POMP_Chunks_t *chunks, void *frame);
void bridge_loop_chunks_exit(POMP_Chunks_t *chunks);
/* The same for a distribute construct, on each team's initial thread
 * (dispatch(ompt_dispatch_distribute_chunk)); POMP_CHUNKS_REGIONS: each
 * parallel region the thread starts until the exit is the next chunk
 * (bridge_distribute_region_start, from the parallel entry points). */
void bridge_distribute_chunks_enter(POMP_Chunks_t *chunks, int schedule,
                                    int64_t chunk_size, int64_t init,
                                    int64_t final, int64_t incr, void *frame);
void bridge_distribute_chunk_next(POMP_Chunks_t *chunks, void *frame);
void bridge_distribute_region_start(void *frame);
void bridge_distribute_chunks_exit(POMP_Chunks_t *chunks);

/* ---- taskloop (bridge_taskloop.c) -----------------------------------------
 */

/* Taskloop_enter / _exit: the next GOMP_taskloop call of this thread is
 * the instrumented construct's, codeptr its construct; count its
 * iterations, for work(taskloop), which the call delivers when it is
 * interposed (inside the implicit taskgroup), else these. */
void bridge_taskloop_enter(uint64_t count, const void *codeptr, void *frame);
void bridge_taskloop_exit(const void *codeptr, void *frame);
/* At load time: whether libgomp's taskloop entries are interposed. */
void bridge_taskloop_setup(void);

/* ---- taskwait with depend clauses (bridge_taskwait.c) ---------------------
 */

int32_t bridge_taskwait_depend_enter(POMP_Task_t *task,
                                     const POMP_Dependence_t deps[], int ndeps,
                                     int nowait, const void *codeptr,
                                     void *frame);
int32_t bridge_taskwait_depend_exit(POMP_Task_t *task, void *frame);

/* ---- distribute parallel for (bridge_gomp.c) ------------------------------
 */

/* Between them, the parallel regions this thread starts (GOMP_parallel,
 * GOMP_parallel_loop_*) are the construct's parallel leaf; loop_work is the
 * ompt_work_t of its worksharing-loop leaf, codeptr its construct. */
void bridge_distribute_parallel_enter(int loop_work, const void *codeptr);
void bridge_distribute_parallel_exit(void);

/* ---- detach (bridge_detach.c) ---------------------------------------------
 */

/* omp_fulfill_event(event), before the runtime's routine runs: the task's
 * early_fulfill, or its late_fulfill (its completion). */
void bridge_detach_fulfill(const void *event);

/* ---- bridge_events.c ------------------------------------------------------
 */

/* A created task that does not run as a task of its own: the dependence
 * task of a taskwait, complete when the wait ends (status
 * ompt_taskwait_complete, delivered as task_schedule), or a taskloop task
 * the runtime never ran because its taskgroup or region was cancelled
 * (BRIDGE_RETIRE_DISCARDED: delivered as cancel(ompt_cancel_discarded_task),
 * as bridge_discard.c reports the tasks it follows). */
#define BRIDGE_RETIRE_DISCARDED (-1)
int32_t bridge_task_retire(POMP_Task_t *task, int status);

#endif /* POMPT_BRIDGE_RUNTIME_H */
