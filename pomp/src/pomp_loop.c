/*
 * pomp_loop.c -- the POMP events of loop constructs whose parts happen
 * inside the OpenMP runtime: the chunks of a worksharing loop
 * (--loop-level=chunks) and the parallel regions of distribute parallel
 * for.  doc/ompt-mapping.md says what each becomes; the bridge finds the
 * parts (bridge_loop.c, bridge_gomp.c).
 */
#include <string.h>

#include "bridge.h"
#include "bridge_runtime.h"
#include "pomp_entry.h"
#include "pomp_region.h"

/* A loop's chunk storage, valid without a tool too: the body's check then
 * never fires. */
static void chunks_reset(POMP_Chunks_t *chunks) {
  if (chunks) {
    memset(chunks, 0, sizeof *chunks);
    chunks->pomp_left = INT64_MAX;
  }
}

/* The body's check of a static schedule with a chunk size fired: the next
 * chunk (without a tool, the check is switched off). */
#define CHUNK_NEXT_ENTRY(name, bridge_next)                                    \
  EXPORT int32_t name(POMP_Handle_t handle, int32_t thread_id,                 \
                      POMP_Chunks_t *chunks) {                                 \
    (void)thread_id;                                                           \
    if (!bridge_active) {                                                      \
      if (chunks)                                                              \
        chunks->pomp_left = INT64_MAX;                                         \
      return POMP_SUCCESS;                                                     \
    }                                                                          \
    LATER_EVENT(handle);                                                       \
    if (!chunks)                                                               \
      return POMP_ERR_ARG;                                                     \
    bridge_next(chunks, FRAME);                                                \
    NO_TAIL_CALL();                                                            \
    return POMP_SUCCESS;                                                       \
  }
CHUNK_NEXT_ENTRY(POMP_Loop_chunk_next, bridge_loop_chunk_next)
CHUNK_NEXT_ENTRY(POMP_Distribute_chunk_next, bridge_distribute_chunk_next)

EXPORT int32_t POMP_Loop_chunks_enter(POMP_Handle_t *handle, int32_t thread_id,
                                      POMP_Chunks_t *chunks, int32_t schedule,
                                      int64_t chunk_size, int64_t init_iter,
                                      int64_t final_iter, int64_t incr,
                                      const char ctc[]) {
  (void)thread_id;
  chunks_reset(chunks);
  FIRST_EVENT(handle, ctc);
  if (!chunks)
    return POMP_ERR_ARG;
  bridge_work_begin(BRIDGE_B_LOOP_EE, r->loop_work,
                    bridge_loop_count(init_iter, final_iter, incr), CODEPTR,
                    FRAME);
  bridge_loop_chunks_enter(chunks, schedule, chunk_size, init_iter, final_iter,
                           incr, FRAME);
  NO_TAIL_CALL();
  return POMP_SUCCESS;
}

EXPORT int32_t POMP_Loop_chunks_exit(POMP_Handle_t handle, int32_t thread_id,
                                     POMP_Chunks_t *chunks) {
  (void)thread_id;
  LATER_EVENT(handle);
  if (!chunks)
    return POMP_ERR_ARG;
  bridge_loop_chunks_exit(chunks);
  bridge_work_end(BRIDGE_B_LOOP_EE, r->loop_work, CODEPTR, FRAME);
  NO_TAIL_CALL();
  return POMP_SUCCESS;
}

EXPORT int32_t POMP_Distribute_parallel_enter(POMP_Handle_t handle,
                                              int32_t thread_id) {
  (void)thread_id;
  LATER_EVENT(handle);
  /* The leaves' callbacks name this call site (a site of the region: a
   * distribute construct has no single's block begin). */
  pomp_region_site(r, POMP_SITE_BEGIN, CODEPTR);
  bridge_distribute_parallel_enter((int)r->loop_work, CODEPTR);
  return POMP_SUCCESS;
}

EXPORT int32_t POMP_Distribute_parallel_exit(POMP_Handle_t handle,
                                             int32_t thread_id) {
  (void)thread_id;
  LATER_EVENT(handle);
  bridge_distribute_parallel_exit();
  return POMP_SUCCESS;
}

/* distribute at --loop-level=chunks: POMP_Distribute_enter / _exit plus the
 * team's chunks (bridge_loop.c computes them as GCC's inline code does). */
EXPORT int32_t POMP_Distribute_chunks_enter(
    POMP_Handle_t *handle, int32_t thread_id, POMP_Chunks_t *chunks,
    int32_t schedule, int64_t chunk_size, int64_t init_iter, int64_t final_iter,
    int64_t incr, const char ctc[]) {
  (void)thread_id;
  chunks_reset(chunks);
  FIRST_EVENT(handle, ctc);
  if (!chunks)
    return POMP_ERR_ARG;
  bridge_work(ompt_work_distribute, ompt_scope_begin,
              bridge_loop_count(init_iter, final_iter, incr), CODEPTR);
  bridge_distribute_chunks_enter(chunks, schedule, chunk_size, init_iter,
                                 final_iter, incr, FRAME);
  NO_TAIL_CALL();
  return POMP_SUCCESS;
}

EXPORT int32_t POMP_Distribute_chunks_exit(POMP_Handle_t handle,
                                           int32_t thread_id,
                                           POMP_Chunks_t *chunks) {
  (void)thread_id;
  LATER_EVENT(handle);
  if (!chunks)
    return POMP_ERR_ARG;
  bridge_distribute_chunks_exit(chunks);
  bridge_work(ompt_work_distribute, ompt_scope_end, 0, CODEPTR);
  NO_TAIL_CALL();
  return POMP_SUCCESS;
}
