/*
 * tt_tool.h -- the OMPT tool of the target tests, linked into each test
 * program (the program exports ompt_start_tool).  It logs every target and
 * device callback and every trace record, so that the program can check
 * them against what it did.  Include it in exactly one file.
 *
 * Settings, from the environment (the tool starts before main):
 *   TT_LEGACY=1   register the 5.0 target callbacks instead of the EMI ones
 *   TT_BUF=n      size of each trace buffer handed out (0: no tracing;
 *                 default 4096)
 *   TT_NOBUF=1    the buffer request hands out nothing
 *   TT_IDS=1      the tool sets target_data / host_op_id values itself
 */
#ifndef TT_TOOL_H
#define TT_TOOL_H

#include <omp-tools.h>
#include <omp.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define TT_FAIL(...)                                                           \
  do {                                                                         \
    fprintf(stderr, "FAIL %s:%d: ", __FILE__, __LINE__);                       \
    fprintf(stderr, __VA_ARGS__);                                              \
    fputc('\n', stderr);                                                       \
    tt_failures++;                                                             \
  } while (0)
#define TT_CHECK(cond, ...)                                                    \
  do {                                                                         \
    if (!(cond))                                                               \
      TT_FAIL(__VA_ARGS__);                                                    \
  } while (0)

#define TT_MAX_EVENTS 4096
#define TT_MAX_RECORDS 8192
#define TT_MAX_ITEMS 8
#define TT_MAX_DEVICES 8

typedef struct tt_event {
  int cb; /* ompt_callbacks_t (EMI or not as registered) */
  int endpoint;
  int kind;   /* ompt_target_t, ompt_target_data_op_t */
  int device; /* target: device_num; data op: src / dest below */
  ompt_id_t target_id; /* target_data->value (EMI) or target_id */
  ompt_id_t host_op_id;
  void *src, *dst;
  int srcdev, dstdev;
  size_t bytes;
  const void *codeptr;
  unsigned nitems;
  void *haddr[TT_MAX_ITEMS], *daddr[TT_MAX_ITEMS];
  size_t ibytes[TT_MAX_ITEMS];
  unsigned iflags[TT_MAX_ITEMS];
  ompt_data_t *task_data, *target_task_data, *target_data;
  unsigned long thread;
  int info_ret;
  uint64_t info_dev;
  ompt_id_t info_tid, info_op;
} tt_event;

typedef struct tt_record {
  ompt_record_ompt_t r;
  void *haddr[TT_MAX_ITEMS];
  size_t ibytes[TT_MAX_ITEMS];
  unsigned iflags[TT_MAX_ITEMS];
  int device;
  int buffer_seq; /* which buffer (hand-out order) it came in */
} tt_record;

static int tt_emi = 1;
static size_t tt_buf_bytes = 4096;
static int tt_no_buffer;
static int tt_set_ids;
static int tt_failures;

static pthread_mutex_t tt_lock = PTHREAD_MUTEX_INITIALIZER;
static tt_event tt_events[TT_MAX_EVENTS];
static int tt_nevents;
static tt_record tt_records[TT_MAX_RECORDS];
static int tt_nrecords;

/* Devices seen by device_initialize. */
static struct tt_device {
  int num;
  const char *type;
  ompt_device_t *dev;
  int finalized;
} tt_devices[TT_MAX_DEVICES];
static int tt_ndevices;
static int tt_initial_device;

/* Buffers: hand-out order and completion order. */
#define TT_MAX_BUFFERS 4096
static void *tt_handed[TT_MAX_BUFFERS];
static int tt_nhanded, tt_ncompleted, tt_empty_completed;
static int tt_requests;

static ompt_get_target_info_t tt_get_target_info;
static ompt_get_num_devices_t tt_get_num_devices;
static ompt_get_state_t tt_get_state;
static ompt_set_trace_ompt_t tt_set_trace_ompt;
static ompt_set_trace_native_t tt_set_trace_native;
static ompt_start_trace_t tt_start_trace;
static ompt_pause_trace_t tt_pause_trace;
static ompt_flush_trace_t tt_flush_trace;
static ompt_stop_trace_t tt_stop_trace;
static ompt_advance_buffer_cursor_t tt_advance;
static ompt_get_record_type_t tt_get_record_type;
static ompt_get_record_ompt_t tt_get_record_ompt;
static ompt_get_record_native_t tt_get_record_native;
static ompt_get_device_time_t tt_get_device_time;
static ompt_translate_time_t tt_translate_time;
static ompt_get_device_num_procs_t tt_get_device_num_procs;
static ompt_get_record_abstract_t tt_get_record_abstract;
static ompt_id_t tt_next_id = 1000000;

static tt_event *tt_new_event(int cb) {
  pthread_mutex_lock(&tt_lock);
  tt_event *e = tt_nevents < TT_MAX_EVENTS ? &tt_events[tt_nevents++] : NULL;
  pthread_mutex_unlock(&tt_lock);
  if (!e) {
    static tt_event spare;
    e = &spare;
  }
  memset(e, 0, sizeof *e);
  e->cb = cb;
  e->thread = (unsigned long)pthread_self();
  e->info_ret = tt_get_target_info(&e->info_dev, &e->info_tid, &e->info_op);
  return e;
}

static void tt_on_target_emi(ompt_target_t kind, ompt_scope_endpoint_t ep,
                             int device_num, ompt_data_t *task_data,
                             ompt_data_t *target_task_data,
                             ompt_data_t *target_data, const void *codeptr) {
  if (tt_set_ids && ep == ompt_scope_begin)
    target_data->value = __atomic_fetch_add(&tt_next_id, 1, __ATOMIC_RELAXED);
  tt_event *e = tt_new_event(ompt_callback_target_emi);
  e->endpoint = ep, e->kind = kind, e->device = device_num;
  e->task_data = task_data, e->target_task_data = target_task_data;
  e->target_data = target_data;
  e->target_id = target_data->value, e->codeptr = codeptr;
}

static void tt_on_target(ompt_target_t kind, ompt_scope_endpoint_t ep,
                         int device_num, ompt_data_t *task_data,
                         ompt_id_t target_id, const void *codeptr) {
  tt_event *e = tt_new_event(ompt_callback_target);
  e->endpoint = ep, e->kind = kind, e->device = device_num;
  e->task_data = task_data, e->target_id = target_id, e->codeptr = codeptr;
}

static void tt_fill_map(tt_event *e, unsigned n, void **h, void **d,
                        size_t *b, unsigned *f) {
  e->nitems = n;
  for (unsigned i = 0; i < n && i < TT_MAX_ITEMS; i++)
    e->haddr[i] = h[i], e->daddr[i] = d[i], e->ibytes[i] = b[i],
    e->iflags[i] = f[i];
}

static void tt_on_map_emi(ompt_data_t *target_data, unsigned n, void **h,
                          void **d, size_t *b, unsigned *f,
                          const void *codeptr) {
  tt_event *e = tt_new_event(ompt_callback_target_map_emi);
  e->target_id = target_data->value, e->codeptr = codeptr;
  tt_fill_map(e, n, h, d, b, f);
}

static void tt_on_map(ompt_id_t target_id, unsigned n, void **h, void **d,
                      size_t *b, unsigned *f, const void *codeptr) {
  tt_event *e = tt_new_event(ompt_callback_target_map);
  e->target_id = target_id, e->codeptr = codeptr;
  tt_fill_map(e, n, h, d, b, f);
}

static void tt_on_data_op_emi(ompt_scope_endpoint_t ep,
                              ompt_data_t *target_task_data,
                              ompt_data_t *target_data, ompt_id_t *host_op_id,
                              ompt_target_data_op_t op, void *src, int srcdev,
                              void *dst, int dstdev, size_t bytes,
                              const void *codeptr) {
  (void)target_task_data;
  if (tt_set_ids && ep == ompt_scope_begin)
    *host_op_id = __atomic_fetch_add(&tt_next_id, 1, __ATOMIC_RELAXED);
  tt_event *e = tt_new_event(ompt_callback_target_data_op_emi);
  e->endpoint = ep, e->target_id = target_data->value;
  e->host_op_id = *host_op_id, e->kind = op, e->src = src, e->dst = dst;
  e->srcdev = srcdev, e->dstdev = dstdev, e->bytes = bytes;
  e->codeptr = codeptr;
}

static void tt_on_data_op(ompt_id_t target_id, ompt_id_t host_op_id,
                          ompt_target_data_op_t op, void *src, int srcdev,
                          void *dst, int dstdev, size_t bytes,
                          const void *codeptr) {
  tt_event *e = tt_new_event(ompt_callback_target_data_op);
  e->endpoint = ompt_scope_beginend, e->target_id = target_id;
  e->host_op_id = host_op_id, e->kind = op, e->src = src, e->dst = dst;
  e->srcdev = srcdev, e->dstdev = dstdev, e->bytes = bytes;
  e->codeptr = codeptr;
}

static void tt_on_submit_emi(ompt_scope_endpoint_t ep,
                             ompt_data_t *target_data, ompt_id_t *host_op_id,
                             unsigned requested) {
  (void)requested;
  if (tt_set_ids && ep == ompt_scope_begin)
    *host_op_id = __atomic_fetch_add(&tt_next_id, 1, __ATOMIC_RELAXED);
  tt_event *e = tt_new_event(ompt_callback_target_submit_emi);
  e->endpoint = ep, e->target_id = target_data->value;
  e->host_op_id = *host_op_id;
}

static void tt_on_submit(ompt_id_t target_id, ompt_id_t host_op_id,
                         unsigned requested) {
  (void)requested;
  tt_event *e = tt_new_event(ompt_callback_target_submit);
  e->endpoint = ompt_scope_beginend, e->target_id = target_id;
  e->host_op_id = host_op_id;
}

/* ---- Tracing ------------------------------------------------------------ */

static void tt_buffer_request(int device_num, ompt_buffer_t **buffer,
                              size_t *bytes) {
  (void)device_num;
  pthread_mutex_lock(&tt_lock);
  tt_requests++;
  if (tt_no_buffer || tt_nhanded >= TT_MAX_BUFFERS) {
    *buffer = NULL, *bytes = 0;
  } else {
    *buffer = malloc(tt_buf_bytes);
    *bytes = *buffer ? tt_buf_bytes : 0;
    if (*buffer)
      tt_handed[tt_nhanded++] = *buffer;
  }
  pthread_mutex_unlock(&tt_lock);
}

static void tt_buffer_complete(int device_num, ompt_buffer_t *buffer,
                               size_t bytes, ompt_buffer_cursor_t begin,
                               int owned) {
  pthread_mutex_lock(&tt_lock);
  int seq = tt_ncompleted++;
  if (seq >= tt_nhanded || tt_handed[seq] != buffer)
    TT_FAIL("buffer completed out of order (completion %d)", seq);
  if (bytes == 0)
    tt_empty_completed++;
  if (bytes > 0) {
    ompt_buffer_cursor_t c = begin;
    for (;;) {
      if (tt_get_record_type(buffer, c) != ompt_record_ompt) {
        TT_FAIL("record of unknown type in a buffer");
        break;
      }
      ompt_record_ompt_t *r = tt_get_record_ompt(buffer, c);
      if (!r) {
        TT_FAIL("no record at a valid cursor");
        break;
      }
      if (tt_nrecords < TT_MAX_RECORDS) {
        tt_record *t = &tt_records[tt_nrecords++];
        memset(t, 0, sizeof *t);
        t->r = *r;
        t->device = device_num;
        t->buffer_seq = seq;
        if (r->type == ompt_callback_target_map) {
          for (unsigned i = 0;
               i < r->record.target_map.nitems && i < TT_MAX_ITEMS; i++) {
            t->haddr[i] = r->record.target_map.host_addr[i];
            t->ibytes[i] = r->record.target_map.bytes[i];
            t->iflags[i] = r->record.target_map.mapping_flags[i];
          }
        }
      }
      if (!tt_advance(NULL, buffer, bytes, c, &c))
        break;
      if (c >= bytes)
        TT_FAIL("cursor advanced beyond the bytes completed");
    }
  }
  pthread_mutex_unlock(&tt_lock);
  if (owned)
    free(buffer);
}

static void tt_on_device_initialize(int device_num, const char *type,
                                    ompt_device_t *device,
                                    ompt_function_lookup_t lookup,
                                    const char *doc) {
  TT_CHECK(lookup != NULL, "device_initialize without lookup");
  TT_CHECK(type && *type && doc && *doc, "device without type/doc");
  if (tt_ndevices < TT_MAX_DEVICES)
    tt_devices[tt_ndevices++] = (struct tt_device){device_num, type, device, 0};
#define TT_BIND(name, var) var = (name##_t)lookup(#name)
  TT_BIND(ompt_set_trace_ompt, tt_set_trace_ompt);
  TT_BIND(ompt_set_trace_native, tt_set_trace_native);
  TT_BIND(ompt_start_trace, tt_start_trace);
  TT_BIND(ompt_pause_trace, tt_pause_trace);
  TT_BIND(ompt_flush_trace, tt_flush_trace);
  TT_BIND(ompt_stop_trace, tt_stop_trace);
  TT_BIND(ompt_advance_buffer_cursor, tt_advance);
  TT_BIND(ompt_get_record_type, tt_get_record_type);
  TT_BIND(ompt_get_record_ompt, tt_get_record_ompt);
  TT_BIND(ompt_get_record_native, tt_get_record_native);
  TT_BIND(ompt_get_device_time, tt_get_device_time);
  TT_BIND(ompt_translate_time, tt_translate_time);
  TT_BIND(ompt_get_device_num_procs, tt_get_device_num_procs);
  TT_BIND(ompt_get_record_abstract, tt_get_record_abstract);
#undef TT_BIND
  TT_CHECK(tt_set_trace_ompt && tt_start_trace && tt_pause_trace &&
               tt_flush_trace && tt_stop_trace && tt_advance &&
               tt_get_record_type && tt_get_record_ompt &&
               tt_get_record_native && tt_get_device_time &&
               tt_translate_time && tt_get_device_num_procs &&
               tt_set_trace_native && tt_get_record_abstract,
           "a tracing entry point is missing");
  TT_CHECK(lookup("ompt_no_such_entry") == NULL, "lookup invents entries");
  if (tt_buf_bytes && tt_set_trace_ompt && tt_start_trace) {
    TT_CHECK(tt_set_trace_ompt(device, 1, 0) == ompt_set_always,
             "set_trace_ompt(all)");
    TT_CHECK(tt_start_trace(device, tt_buffer_request, tt_buffer_complete),
             "start_trace");
  }
}

static void tt_on_device_finalize(int device_num) {
  for (int i = 0; i < tt_ndevices; i++)
    if (tt_devices[i].num == device_num)
      tt_devices[i].finalized++;
}

__attribute__((unused)) static ompt_device_t *tt_device(int num) {
  for (int i = 0; i < tt_ndevices; i++)
    if (tt_devices[i].num == num)
      return tt_devices[i].dev;
  return NULL;
}

/* The program's final checks, run from the tool's finalize (after the
 * devices were finalised and every buffer completed). */
static void tt_final_checks(void);

static int tt_initialize(ompt_function_lookup_t lookup, int initial_device,
                         ompt_data_t *data) {
  (void)data;
  /* Settings from the environment (initialize runs before main). */
  const char *v;
  if ((v = getenv("TT_LEGACY")) && *v == '1')
    tt_emi = 0;
  if ((v = getenv("TT_IDS")) && *v == '1')
    tt_set_ids = 1;
  if ((v = getenv("TT_BUF")))
    tt_buf_bytes = (size_t)strtoul(v, NULL, 10);
  if ((v = getenv("TT_NOBUF")) && *v == '1')
    tt_no_buffer = 1;
  tt_initial_device = initial_device;
  ompt_set_callback_t set = (ompt_set_callback_t)lookup("ompt_set_callback");
  tt_get_target_info = (ompt_get_target_info_t)lookup("ompt_get_target_info");
  tt_get_num_devices = (ompt_get_num_devices_t)lookup("ompt_get_num_devices");
  tt_get_state = (ompt_get_state_t)lookup("ompt_get_state");
  if (!set || !tt_get_target_info || !tt_get_num_devices)
    return 0;
#define TT_SET(event, fn, want)                                                \
  TT_CHECK(set(event, (ompt_callback_t)fn) == want, "set_callback " #event)
  TT_SET(ompt_callback_device_initialize, tt_on_device_initialize,
         ompt_set_always);
  TT_SET(ompt_callback_device_finalize, tt_on_device_finalize,
         ompt_set_always);
  if (tt_emi) {
    TT_SET(ompt_callback_target_emi, tt_on_target_emi, ompt_set_always);
    TT_SET(ompt_callback_target_map_emi, tt_on_map_emi, ompt_set_always);
    TT_SET(ompt_callback_target_data_op_emi, tt_on_data_op_emi,
           ompt_set_sometimes);
    TT_SET(ompt_callback_target_submit_emi, tt_on_submit_emi,
           ompt_set_always);
  } else {
    TT_SET(ompt_callback_target, tt_on_target, ompt_set_always);
    TT_SET(ompt_callback_target_map, tt_on_map, ompt_set_always);
    TT_SET(ompt_callback_target_data_op, tt_on_data_op, ompt_set_sometimes);
    TT_SET(ompt_callback_target_submit, tt_on_submit, ompt_set_always);
  }
#undef TT_SET
  return 1;
}

static void tt_finalize(ompt_data_t *data) {
  (void)data;
  tt_final_checks();
  if (tt_failures) {
    fprintf(stderr, "%d check(s) failed\n", tt_failures);
    fflush(NULL);
    _exit(1);
  }
  printf("all checks passed\n");
  fflush(NULL);
}

ompt_start_tool_result_t *ompt_start_tool(unsigned version,
                                          const char *runtime) {
  (void)version, (void)runtime;
  static ompt_start_tool_result_t result = {tt_initialize, tt_finalize, {0}};
  return &result;
}

/* ---- Helpers for the checks ---------------------------------------------- */

static int tt_is_target_cb(int cb) {
  return cb == ompt_callback_target_emi || cb == ompt_callback_target;
}

__attribute__((unused)) static int tt_count(int cb, int ep) {
  int n = 0;
  for (int i = 0; i < tt_nevents; i++)
    n += tt_events[i].cb == cb && (!ep || tt_events[i].endpoint == ep);
  return n;
}

__attribute__((unused)) static int tt_count_records(int type) {
  int n = 0;
  for (int i = 0; i < tt_nrecords; i++)
    n += (int)tt_records[i].r.type == type;
  return n;
}

#endif /* TT_TOOL_H */
