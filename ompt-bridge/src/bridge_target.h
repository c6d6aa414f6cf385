/*
 * bridge_target.h -- target constructs, devices, teams and device tracing in
 * the OMPT provider: what the POMP layer (pomp/src/pomp_target.c) and the
 * rest of the bridge ask of bridge_target.c and bridge_trace.c.
 *
 * doc/target.md describes the model.
 *
 * Internal to libpompt.
 */
#ifndef POMPT_BRIDGE_TARGET_H
#define POMPT_BRIDGE_TARGET_H

#include <stddef.h>
#include <stdint.h>
#include <omp-tools.h>

#include "pomp.h"

/* ---- Target-family constructs (bridge_target.c) ------------------------- */

/* The construct an instance belongs to (the ompt_target_t of its non-nowait
 * form). */
typedef enum bridge_target_construct {
  BRIDGE_TARGET = ompt_target,
  BRIDGE_TARGET_ENTER_DATA = ompt_target_enter_data,
  BRIDGE_TARGET_EXIT_DATA = ompt_target_exit_data,
  BRIDGE_TARGET_UPDATE = ompt_target_update,
  BRIDGE_TARGET_DATA = 5 /* target data: no ompt_target_t of its own */
} bridge_target_construct_t;

/* Before the construct.  Fills *inst (including inst->pomp_dep, always). */
void bridge_target_enter(POMP_Target_t *inst, bridge_target_construct_t kind,
                         int32_t device_num, int32_t flags,
                         const POMP_Map_t *maps, int32_t nmaps,
                         const void *codeptr);
/* target data: first and last statement of the block. */
void bridge_target_data_begin(POMP_Target_t *inst);
void bridge_target_data_end(POMP_Target_t *inst);
void bridge_target_data_exit(POMP_Target_t *inst);
/* After the construct, on the same thread (not target data). */
void bridge_target_exit(POMP_Target_t *inst, const void *codeptr);
/* Completion task of a nowait construct: inst and maps are the task's
 * copies. */
void bridge_target_complete(POMP_Target_t *inst, const POMP_Map_t *maps,
                            int32_t nmaps, const void *codeptr);

/* teams on the host: a league of initial tasks. */
void bridge_teams_enter(POMP_Team_t *team, int num_teams, int thread_limit,
                        const void *codeptr, void *enter_frame);
void bridge_teams_begin(POMP_Team_t *team, void *exit_frame);
void bridge_teams_end(POMP_Team_t *team, const void *codeptr);
void bridge_teams_exit(POMP_Team_t *team, const void *codeptr);
/* Set by an instrumented teams construct's enter event, cleared by
 * libpompt's GOMP_teams_reg (bridge_gomp_teams.c): the construct reports
 * itself. */
extern __thread unsigned char bridge_teams_announced;

/* ---- Devices (bridge_target.c) ------------------------------------------ */

/* Number of offload devices the OpenMP runtime reports (0 without one). */
int bridge_num_devices(void);
/* ompt_get_target_info for the calling thread (async-signal-safe). */
int bridge_target_info(uint64_t *device_num, ompt_id_t *target_id,
                       ompt_id_t *host_op_id);
/* At shutdown, before the tool's finalize: stops and flushes tracing on
 * every initialised device, then device_finalize for each (idempotent). */
void bridge_devices_finalize(void);

/* ---- Device tracing (bridge_trace.c) ------------------------------------ */

/* A device as tracing sees it; one per device number, static storage. */
struct bridge_trace_device;

/* The device's trace state for device number num (index idx in the static
 * table), set up once before its device_initialize. */
struct bridge_trace_device *bridge_trace_device_init(int idx, int num,
                                                     int is_host);
/* The lookup passed to device_initialize. */
ompt_interface_fn_t bridge_device_lookup(const char *name);
/* Current device time (the clock of every record): CLOCK_MONOTONIC, ns. */
uint64_t bridge_device_time(void);
/* Is a record of this callback type wanted now?  (Tracing started, not
 * paused, type enabled.)  One load and a test when tracing is off. */
int bridge_trace_wants(struct bridge_trace_device *dev, ompt_callbacks_t type);
/* Appends a record (type, time, thread_id, target_id and the union filled
 * in by the caller).  A target_map record carries its arrays in the buffer
 * right after it: pass them in host_addr etc. (nitems of each); the record's
 * target_map pointers are set to the buffer copies. */
void bridge_trace_emit(struct bridge_trace_device *dev,
                       const ompt_record_ompt_t *rec);
void bridge_trace_emit_map(struct bridge_trace_device *dev,
                           const ompt_record_ompt_t *rec, void **host_addr,
                           void **device_addr, const size_t *bytes,
                           const unsigned *flags);
/* Stops tracing and completes every buffer (shutdown). */
void bridge_trace_shutdown(struct bridge_trace_device *dev);

#endif /* POMPT_BRIDGE_TARGET_H */
