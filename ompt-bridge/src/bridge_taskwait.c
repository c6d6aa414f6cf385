/*
 * bridge_taskwait.c -- taskwait with depend clauses, as OpenMP 5.2 has it:
 * the construct generates an empty task with those dependences (without
 * nowait a mergeable and included one, so undeferred and mergeable) and
 * the encountering task waits for it.  At the
 * construct: task_create with ompt_task_taskwait, dependences, and
 * task_dependence for each sibling it waits for that has not completed;
 * during the wait the thread is in wait_taskwait at a task scheduling
 * point; when the wait is over: task_schedule(the taskwait task,
 * ompt_taskwait_complete, NULL), as LLVM's libomp reports it.  No
 * sync_region: OpenMP gives those to taskwait without depend clauses only.
 */
#include "bridge.h"
#include "bridge_internal.h"
#include "bridge_runtime.h"

int32_t bridge_taskwait_depend_enter(POMP_Task_t *task,
                                     const POMP_Dependence_t deps[], int ndeps,
                                     int nowait, const void *codeptr,
                                     void *frame) {
  int flags = POMP_TASK_TASKWAIT | POMP_TASK_HAS_DEPEND;
  if (!nowait)
    flags |= POMP_TASK_UNDEFERRED | POMP_TASK_MERGEABLE;
  int32_t status = bridge_task_create_begin(task, flags, codeptr, frame);
  if (status != POMP_SUCCESS)
    return status;
  if (ndeps > 0)
    bridge_task_dependences(task, deps, ndeps);
  bridge_task_create_end(task, frame); /* delivers what is still held back */
  bridge_scheduling_point(1, frame);
  bridge_thread_t *t = bridge_thread_peek();
  if (t)
    bridge_set_state(t, ompt_state_wait_taskwait, 0);
  return POMP_SUCCESS;
}

int32_t bridge_taskwait_depend_exit(POMP_Task_t *task, void *frame) {
  bridge_scheduling_point(0, frame);
  bridge_thread_t *t = bridge_thread_peek();
  if (t)
    bridge_set_state(t, bridge_working_state(t->cur), 0);
  return bridge_task_retire(task, ompt_taskwait_complete);
}
