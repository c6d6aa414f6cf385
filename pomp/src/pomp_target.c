/*
 * pomp_target.c -- the POMP events of target constructs, host teams and
 * distribute (pomp.h, "Target constructs"), handed to the bridge
 * (ompt-bridge/src/bridge_target.c).  doc/target.md says where the
 * instrumenter puts each call and what each becomes in OMPT.
 *
 * Every event runs on the host.  The instance of a target-family construct
 * lives in the instrumented code's POMP_Target_t, so nothing is allocated
 * here; the only shared state is the ring of dependence bytes handed to
 * nowait constructs.
 */
#include "bridge.h"
#include "bridge_target.h"
#include "pomp_entry.h"
#include "pomp_region.h"

/* ---- Target-family constructs -------------------------------------------- */

/* Dependence bytes for nowait constructs: an address used by no other
 * instance in flight (a byte is reused after DEP_RING later instances, which
 * at worst orders a completion task after an older target task).  Only the
 * address matters; the runtime never reads the byte. */
#define DEP_RING 4096
static char dep_ring[DEP_RING];
static unsigned dep_next;

static void set_dep(POMP_Target_t *target, int32_t flags) {
  unsigned k = 0;
  if (flags & POMP_TARGET_NOWAIT)
    k = __atomic_fetch_add(&dep_next, 1, __ATOMIC_RELAXED) % DEP_RING;
  target->pomp_dep = &dep_ring[k];
  target->pomp_opaque[0] = 0; /* no instance until the bridge makes one */
}

static int32_t target_enter(POMP_Handle_t *handle, POMP_Target_t *target,
                            bridge_target_construct_t kind, int32_t device,
                            int32_t flags, const POMP_Map_t maps[],
                            int32_t nmaps, const char ctc[],
                            const void *codeptr) {
  if (!target)
    return POMP_ERR_ARG;
  set_dep(target, flags);
  FIRST_EVENT(handle, ctc);
  if (nmaps < 0 || (nmaps > 0 && !maps))
    return POMP_ERR_ARG;
  bridge_target_enter(target, kind, device, flags, maps, nmaps, codeptr);
  return POMP_SUCCESS;
}

EXPORT int32_t POMP_Target_enter(POMP_Handle_t *handle, int32_t thread_id,
                                 POMP_Target_t *target, int32_t device_num,
                                 int32_t target_flags, const POMP_Map_t maps[],
                                 int32_t nmaps, const char ctc[]) {
  (void)thread_id;
  return target_enter(handle, target, BRIDGE_TARGET, device_num, target_flags,
                      maps, nmaps, ctc, CODEPTR);
}

EXPORT int32_t POMP_Target_data_enter(POMP_Handle_t *handle, int32_t thread_id,
                                      POMP_Target_t *target, int32_t device_num,
                                      int32_t target_flags,
                                      const POMP_Map_t maps[], int32_t nmaps,
                                      const char ctc[]) {
  (void)thread_id;
  /* target data has no nowait clause. */
  return target_enter(handle, target, BRIDGE_TARGET_DATA, device_num,
                      target_flags & ~POMP_TARGET_NOWAIT, maps, nmaps, ctc,
                      CODEPTR);
}

EXPORT int32_t POMP_Target_enter_data_enter(
    POMP_Handle_t *handle, int32_t thread_id, POMP_Target_t *target,
    int32_t device_num, int32_t target_flags, const POMP_Map_t maps[],
    int32_t nmaps, const char ctc[]) {
  (void)thread_id;
  return target_enter(handle, target, BRIDGE_TARGET_ENTER_DATA, device_num,
                      target_flags, maps, nmaps, ctc, CODEPTR);
}

EXPORT int32_t POMP_Target_exit_data_enter(
    POMP_Handle_t *handle, int32_t thread_id, POMP_Target_t *target,
    int32_t device_num, int32_t target_flags, const POMP_Map_t maps[],
    int32_t nmaps, const char ctc[]) {
  (void)thread_id;
  return target_enter(handle, target, BRIDGE_TARGET_EXIT_DATA, device_num,
                      target_flags, maps, nmaps, ctc, CODEPTR);
}

EXPORT int32_t POMP_Target_update_enter(
    POMP_Handle_t *handle, int32_t thread_id, POMP_Target_t *target,
    int32_t device_num, int32_t target_flags, const POMP_Map_t maps[],
    int32_t nmaps, const char ctc[]) {
  (void)thread_id;
  return target_enter(handle, target, BRIDGE_TARGET_UPDATE, device_num,
                      target_flags, maps, nmaps, ctc, CODEPTR);
}

static int32_t target_exit(POMP_Handle_t handle, POMP_Target_t *target,
                           const void *codeptr) {
  LATER_EVENT(handle);
  if (!target)
    return POMP_ERR_ARG;
  bridge_target_exit(target, codeptr);
  return POMP_SUCCESS;
}

EXPORT int32_t POMP_Target_exit(POMP_Handle_t handle, int32_t thread_id,
                                POMP_Target_t *target) {
  (void)thread_id;
  return target_exit(handle, target, CODEPTR);
}

EXPORT int32_t POMP_Target_enter_data_exit(POMP_Handle_t handle,
                                           int32_t thread_id,
                                           POMP_Target_t *target) {
  (void)thread_id;
  return target_exit(handle, target, CODEPTR);
}

EXPORT int32_t POMP_Target_exit_data_exit(POMP_Handle_t handle,
                                          int32_t thread_id,
                                          POMP_Target_t *target) {
  (void)thread_id;
  return target_exit(handle, target, CODEPTR);
}

EXPORT int32_t POMP_Target_update_exit(POMP_Handle_t handle, int32_t thread_id,
                                       POMP_Target_t *target) {
  (void)thread_id;
  return target_exit(handle, target, CODEPTR);
}

EXPORT int32_t POMP_Target_complete(POMP_Handle_t handle, int32_t thread_id,
                                    POMP_Target_t *target,
                                    const POMP_Map_t maps[], int32_t nmaps) {
  (void)thread_id;
  LATER_EVENT(handle);
  if (!target || nmaps < 0 || (nmaps > 0 && !maps))
    return POMP_ERR_ARG;
  bridge_target_complete(target, maps, nmaps, CODEPTR);
  return POMP_SUCCESS;
}

EXPORT int32_t POMP_Target_data_begin(POMP_Handle_t handle, int32_t thread_id,
                                      POMP_Target_t *target) {
  (void)thread_id;
  LATER_EVENT(handle);
  if (!target)
    return POMP_ERR_ARG;
  bridge_target_data_begin(target);
  return POMP_SUCCESS;
}

EXPORT int32_t POMP_Target_data_end(POMP_Handle_t handle, int32_t thread_id,
                                    POMP_Target_t *target) {
  (void)thread_id;
  LATER_EVENT(handle);
  if (!target)
    return POMP_ERR_ARG;
  bridge_target_data_end(target);
  return POMP_SUCCESS;
}

EXPORT int32_t POMP_Target_data_exit(POMP_Handle_t handle, int32_t thread_id,
                                     POMP_Target_t *target) {
  (void)thread_id;
  LATER_EVENT(handle);
  if (!target)
    return POMP_ERR_ARG;
  bridge_target_data_exit(target);
  return POMP_SUCCESS;
}

/* ---- Host teams ------------------------------------------------------------
 */

EXPORT int32_t POMP_Teams_enter(POMP_Handle_t *handle, int32_t thread_id,
                                int32_t num_teams, int32_t thread_limit,
                                POMP_Team_t *team, const char ctc[]) {
  (void)thread_id;
  FIRST_EVENT(handle, ctc);
  if (!team)
    return POMP_ERR_ARG;
  bridge_teams_announced = 1; /* libpompt's GOMP_teams_reg passes it on */
  bridge_teams_enter(team, num_teams, thread_limit, CODEPTR, FRAME);
  return POMP_SUCCESS;
}

EXPORT int32_t POMP_Teams_begin(POMP_Handle_t handle, int32_t thread_id,
                                POMP_Team_t *team) {
  (void)thread_id;
  LATER_EVENT(handle);
  if (!team)
    return POMP_ERR_ARG;
  bridge_teams_begin(team, FRAME);
  return POMP_SUCCESS;
}

EXPORT int32_t POMP_Teams_end(POMP_Handle_t handle, int32_t thread_id,
                              POMP_Team_t *team) {
  (void)thread_id;
  LATER_EVENT(handle);
  if (!team)
    return POMP_ERR_ARG;
  bridge_teams_end(team, CODEPTR);
  return POMP_SUCCESS;
}

EXPORT int32_t POMP_Teams_exit(POMP_Handle_t handle, int32_t thread_id,
                               POMP_Team_t *team) {
  (void)thread_id;
  LATER_EVENT(handle);
  if (!team)
    return POMP_ERR_ARG;
  bridge_teams_announced = 0; /* whatever reached GOMP_teams_reg */
  bridge_teams_exit(team, CODEPTR);
  return POMP_SUCCESS;
}

/* ---- distribute ------------------------------------------------------------
 */

static uint64_t distribute_count(int64_t init, int64_t final, int64_t incr) {
  if (incr == 0 || (incr > 0 && final < init) || (incr < 0 && final > init))
    return 0;
  uint64_t span = incr > 0 ? (uint64_t) final - (uint64_t)init
                           : (uint64_t)init - (uint64_t) final;
  uint64_t step = incr > 0 ? (uint64_t)incr : (uint64_t)0 - (uint64_t)incr;
  return span / step + 1;
}

EXPORT int32_t POMP_Distribute_enter(POMP_Handle_t *handle, int32_t thread_id,
                                     int64_t chunk_size, int64_t init_iter,
                                     int64_t final_iter, int64_t incr,
                                     const char ctc[]) {
  (void)thread_id, (void)chunk_size;
  FIRST_EVENT(handle, ctc);
  bridge_work(ompt_work_distribute, ompt_scope_begin,
              distribute_count(init_iter, final_iter, incr), CODEPTR);
  return POMP_SUCCESS;
}

EXPORT int32_t POMP_Distribute_exit(POMP_Handle_t handle, int32_t thread_id) {
  (void)thread_id;
  LATER_EVENT(handle);
  bridge_work(ompt_work_distribute, ompt_scope_end, 0, CODEPTR);
  return POMP_SUCCESS;
}
