/*
 * pomp_task.c -- the compact task events of pomp.h (POMPT_Task_*), which
 * pomp-instr emits for the task construct, and POMPT_active, the flag that
 * lets the instrumented code skip them without a call when no tool can be
 * active (doc/performance.md, "A task with no tool").
 *
 * Same bridge calls, in the same order and with the same group buckets, as
 * POMP_Task_* in pomp_events.c; only the instance differs: one word, the
 * bridge's record of the task, instead of a 32-byte POMP_Task_t.  A word
 * is a scalar firstprivate, which GCC copies into libgomp's task block
 * without a copy function, and the bridge takes it as it is.
 */
#include "bridge.h"
#include "pomp_entry.h"
#include "pomp_region.h"

/* Starts at 1 so that an event before the tool's activation was decided is
 * not skipped (such an event starts the tool, and the routines check for a
 * tool themselves); cleared once it was decided, when no tool was
 * activated (bridge_tool.c calls back, below).  It is never set again: the
 * bridge decides once.  Exported and
 * accessed by libpompt through its symbol, so that a program's copy of it
 * (a copy relocation) is the one written. */
EXPORT int POMPT_active = 1;

void pomp_active_settle(void) {
  if (!bridge_active)
    POMPT_active = 0;
}

__attribute__((constructor(101))) static void pompt_active_init(void) {
  bridge_on_start_decided(pomp_active_settle);
}

EXPORT POMPT_Task_t POMPT_Task_create_begin(POMPT_Desc_t *d,
                                            int32_t task_flags) {
  if (!bridge_active)
    return 0;
  int32_t status = POMP_ERR_HANDLE;
  struct pomp_region *r = pomp_desc_first(d, &status);
  if (!r)
    return 0;
  pomp_region_site(r, POMP_SITE_FIRST, CODEPTR);
  POMPT_Task_t task = bridge_task_create_begin_word(task_flags, CODEPTR, FRAME);
  NO_TAIL_CALL();
  return task;
}

void pomp_task_seen(POMPT_Desc_t *d, const void *codeptr) {
  if (__atomic_load_n(&d->lane, __ATOMIC_ACQUIRE) == POMPT_LANE_TASK_SEEN)
    return;
  int32_t status = POMP_ERR_HANDLE;
  struct pomp_region *r = pomp_desc_first(d, &status);
  if (!r)
    return;
  pomp_region_site(r, POMP_SITE_FIRST, codeptr);
  pomp_desc_mark(d, POMPT_LANE_TASK_SEEN);
}

EXPORT int32_t POMPT_Task_dependences(POMPT_Task_t task,
                                      const POMP_Dependence_t deps[],
                                      int32_t ndeps) {
  if (!bridge_active)
    return POMP_SUCCESS;
  if (!task)
    return POMP_ERR_ARG;
  return bridge_task_dependences_word(task, deps, ndeps);
}

EXPORT int32_t POMPT_Task_create_end(void) {
  if (!bridge_active)
    return POMP_SUCCESS;
  int32_t status = bridge_task_create_end(NULL, FRAME);
  NO_TAIL_CALL();
  return status;
}

/* Begin and end: the instance as it is; FRAME is taken in the exported
 * routine the macro defines. */
#define TASK_WORD_EVENT(name, bridge_event)                                    \
  EXPORT int32_t name(POMPT_Task_t task) {                                     \
    if (!bridge_active)                                                        \
      return POMP_SUCCESS;                                                     \
    if (!task)                                                                 \
      return POMP_ERR_ARG;                                                     \
    int32_t status = bridge_event(task, FRAME);                                \
    NO_TAIL_CALL();                                                            \
    return status;                                                             \
  }
TASK_WORD_EVENT(POMPT_Task_begin, bridge_task_begin_word)
TASK_WORD_EVENT(POMPT_Task_end, bridge_task_end_word)
