/*
 * bridge_callbacks.h -- the table of OMPT callbacks, as one X-macro list.
 *
 * Each row: callback name (without the ompt_callback_ prefix), and the
 * ompt_set_result_t that ompt_set_callback answers for it.  The answer is the
 * honest one for what POMP events can observe: "always" for callbacks that are
 * delivered every time their event happens in instrumented code, "sometimes"
 * for those delivered for some of their events only, "never" for events that
 * libpompt cannot observe from the source.  It is the answer with every POMP
 * group enabled; bridge_inquiry.c lowers it for callbacks whose groups the
 * POMP_* variables switch off.  doc/ompt-mapping.md explains each answer.
 *
 * Internal to ompt-bridge/.
 */
#ifndef POMPT_BRIDGE_CALLBACKS_H
#define POMPT_BRIDGE_CALLBACKS_H

#define BRIDGE_CALLBACK_LIST(X)                                                \
  X(thread_begin, ompt_set_always)                                             \
  X(thread_end, ompt_set_always)                                               \
  X(parallel_begin, ompt_set_always)                                           \
  X(parallel_end, ompt_set_always)                                             \
  X(task_create, ompt_set_sometimes)                                           \
  X(task_schedule, ompt_set_sometimes)                                         \
  X(implicit_task, ompt_set_always)                                            \
  X(target, ompt_set_always)                                                   \
  X(target_data_op, ompt_set_sometimes)                                        \
  X(target_submit, ompt_set_always)                                            \
  X(control_tool, ompt_set_always)                                             \
  X(device_initialize, ompt_set_always)                                        \
  X(device_finalize, ompt_set_always)                                          \
  X(device_load, ompt_set_never)                                               \
  X(device_unload, ompt_set_never)                                             \
  X(sync_region_wait, ompt_set_sometimes)                                      \
  X(mutex_released, ompt_set_always)                                           \
  X(dependences, ompt_set_sometimes)                                           \
  X(task_dependence, ompt_set_sometimes)                                       \
  X(work, ompt_set_always)                                                     \
  X(masked, ompt_set_always)                                                   \
  X(target_map, ompt_set_always)                                               \
  X(sync_region, ompt_set_sometimes)                                           \
  X(lock_init, ompt_set_always)                                                \
  X(lock_destroy, ompt_set_always)                                             \
  X(mutex_acquire, ompt_set_always)                                            \
  X(mutex_acquired, ompt_set_always)                                           \
  X(nest_lock, ompt_set_always)                                                \
  X(flush, ompt_set_always)                                                    \
  X(cancel, ompt_set_sometimes)                                                \
  X(reduction, ompt_set_sometimes)                                             \
  X(dispatch, ompt_set_sometimes)                                              \
  X(target_emi, ompt_set_always)                                               \
  X(target_data_op_emi, ompt_set_sometimes)                                    \
  X(target_submit_emi, ompt_set_always)                                        \
  X(target_map_emi, ompt_set_always)                                           \
  X(error, ompt_set_always)

/* One past the largest ompt_callbacks_t value. */
#define BRIDGE_CALLBACK_SLOTS 64

#endif /* POMPT_BRIDGE_CALLBACKS_H */
