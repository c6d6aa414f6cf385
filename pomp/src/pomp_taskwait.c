/*
 * pomp_taskwait.c -- taskwait with depend clauses.  OpenMP 5.2 treats it as
 * the dependences of an empty task that the encountering task waits for:
 * task_create (ompt_task_taskwait), dependences and task_dependence when the
 * construct is encountered, task_schedule(ompt_taskwait_complete) when the
 * wait is over (bridge_taskwait.c).  A plain taskwait keeps its
 * sync_region events (pomp_events.c).
 */
#include <string.h>

#include "bridge.h"
#include "bridge_runtime.h"
#include "pomp_entry.h"
#include "pomp_region.h"

EXPORT int32_t POMP_Taskwait_depend_enter(POMP_Handle_t *handle,
                                          int32_t thread_id, POMP_Task_t *task,
                                          const POMP_Dependence_t deps[],
                                          int32_t ndeps, int32_t nowait,
                                          const char ctc[]) {
  (void)thread_id;
  if (task)
    memset(task, 0, sizeof *task);
  FIRST_EVENT(handle, ctc);
  if (!task || ndeps < 0 || (ndeps > 0 && !deps))
    return POMP_ERR_ARG;
  int32_t status = bridge_taskwait_depend_enter(task, deps, ndeps, nowait != 0,
                                                CODEPTR, FRAME);
  NO_TAIL_CALL();
  return status;
}

EXPORT int32_t POMP_Taskwait_depend_exit(POMP_Handle_t handle,
                                         int32_t thread_id, POMP_Task_t *task) {
  (void)thread_id;
  LATER_EVENT(handle);
  if (!task)
    return POMP_ERR_ARG;
  int32_t status = bridge_taskwait_depend_exit(task, FRAME);
  NO_TAIL_CALL();
  return status;
}
