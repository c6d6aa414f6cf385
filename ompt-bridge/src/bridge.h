/*
 * bridge.h -- what the POMP layer asks of the OMPT provider.
 *
 * The POMP layer (pomp/src) knows regions and CTC strings; the bridge knows
 * the OMPT model (threads, teams, tasks, states, callbacks).  Every call here
 * is made by the thread the event happens on.  codeptr is the return address
 * into the user's code, taken by the POMP entry point.
 *
 * Internal to libpompt.
 */
#ifndef POMPT_BRIDGE_H
#define POMPT_BRIDGE_H

#include <stdint.h>
#include <omp-tools.h>

#include "pomp.h"

/* Nonzero when a tool is active and events must be delivered.  Events check
 * this first: with no tool an event costs a load and a branch. */
extern int bridge_active;

/* Tool discovery and activation (idempotent, thread-safe). */
void bridge_init(void);
/* Ends every thread and the initial task and finalises the tool (idempotent). */
void bridge_finalize(void);
/* POMP_On / POMP_Off: suppress callbacks while keeping the model up to date. */
void bridge_set_enabled(int on);

/* Parallel regions.  team is the POMP_Team_t storage of this instance. */
void bridge_parallel_enter(POMP_Team_t *team, int requested, int if_false,
                           const void *codeptr, void *enter_frame);
void bridge_parallel_begin(POMP_Team_t *team, void *exit_frame);
void bridge_parallel_end(POMP_Team_t *team, const void *codeptr);
void bridge_parallel_exit(POMP_Team_t *team, const void *codeptr);

/* Worksharing. */
void bridge_work(ompt_work_t type, ompt_scope_endpoint_t endpoint,
                 uint64_t count, const void *codeptr);
void bridge_dispatch(ompt_dispatch_t kind, ompt_data_t instance);
/* single: begin/end only on the thread that executes the block; exit on
 * every thread (the others are reported as single_other there). */
void bridge_single_begin(const void *codeptr);
void bridge_single_end(const void *codeptr);
void bridge_single_exit(const void *codeptr);

/* masked (master) */
void bridge_masked(ompt_scope_endpoint_t endpoint, const void *codeptr);

/* Barriers and other synchronisation regions. */
void bridge_sync_enter(ompt_sync_region_t kind, const void *codeptr);
void bridge_sync_exit(ompt_sync_region_t kind, const void *codeptr);

/* Mutual exclusion (critical, locks, ordered, atomic). */
void bridge_mutex_acquire(ompt_mutex_t kind, unsigned hint,
                          ompt_wait_id_t wait_id, const void *codeptr);
void bridge_mutex_acquired(ompt_mutex_t kind, ompt_wait_id_t wait_id,
                           const void *codeptr);
void bridge_mutex_released(ompt_mutex_t kind, ompt_wait_id_t wait_id,
                           const void *codeptr);

#endif /* POMPT_BRIDGE_H */
