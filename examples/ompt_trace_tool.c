/*
 * ompt_trace_tool.c -- an example OMPT tracing tool: it traces every device
 * the OpenMP implementation initialises, collects the device's trace
 * records (ompt_record_ompt_t) and at the end prints one timeline per
 * device: target regions, data transfers, kernels, and the bytes moved.
 *
 * It uses nothing but <omp-tools.h> (and the C library), so it works with
 * any OMPT implementation that supports device tracing: libpompt, or a
 * native runtime.  Load it with OMP_TOOL_LIBRARIES=.../libompt_trace_tool.so.
 *
 * Environment:
 *   OMPT_TRACE_BUFFER_BYTES  size of each trace buffer (default 65536)
 *   OMPT_TRACE_OUTPUT        file to print the timelines to (default stderr)
 *
 * Output, per device (times in microseconds from the first record of the
 * device; an operation's line is indented under its target region):
 *   device 2 (host): 3 target regions, 0 transfers, 3 kernels, 0 bytes to / 0
 * bytes from 12.3 ..    80.1  target            id 5 13.0 ..    79.9    kernel
 * op 6
 *   ...
 */
#include <omp-tools.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <pthread.h>

#define MAX_DEVICES 16

/* One collected record, reduced to what the timeline shows. */
typedef struct event {
  int type; /* ompt_callbacks_t of the record */
  int kind; /* target kind / data op type */
  int endpoint;
  ompt_id_t target_id, op_id;
  uint64_t start, end;
  size_t bytes;
} event_t;

typedef struct device {
  int num;
  char type[32];
  ompt_device_t *dev;
  ompt_translate_time_t translate;
  ompt_get_record_ompt_t get_record;
  ompt_get_record_type_t get_type;
  ompt_advance_buffer_cursor_t advance;
  ompt_stop_trace_t stop;
  ompt_flush_trace_t flush;
  event_t *events;
  size_t n, cap;
  unsigned buffers;
} device_t;

static device_t devices[MAX_DEVICES];
static int ndevices;
static size_t buffer_bytes = 65536;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

static device_t *find(int num) {
  for (int i = 0; i < ndevices; i++)
    if (devices[i].num == num)
      return &devices[i];
  return NULL;
}

static void on_request(int device_num, ompt_buffer_t **buffer, size_t *bytes) {
  (void)device_num;
  *buffer = malloc(buffer_bytes);
  *bytes = *buffer ? buffer_bytes : 0;
}

static void add(device_t *d, const event_t *e) {
  if (d->n == d->cap) {
    size_t cap = d->cap ? 2 * d->cap : 256;
    event_t *ev = realloc(d->events, cap * sizeof *ev);
    if (!ev)
      return;
    d->events = ev, d->cap = cap;
  }
  d->events[d->n++] = *e;
}

static void on_complete(int device_num, ompt_buffer_t *buffer, size_t bytes,
                        ompt_buffer_cursor_t begin, int buffer_owned) {
  pthread_mutex_lock(&lock);
  device_t *d = find(device_num);
  if (d && bytes > 0) {
    d->buffers++;
    ompt_buffer_cursor_t c = begin;
    do {
      if (d->get_type(buffer, c) != ompt_record_ompt)
        break;
      ompt_record_ompt_t *r = d->get_record(buffer, c);
      if (!r)
        break;
      event_t e = {.type = r->type,
                   .target_id = r->target_id,
                   .start = r->time,
                   .end = r->time};
      switch (r->type) {
      case ompt_callback_target:
        e.kind = r->record.target.kind;
        e.endpoint = r->record.target.endpoint;
        break;
      case ompt_callback_target_data_op:
        e.kind = r->record.target_data_op.optype;
        e.op_id = r->record.target_data_op.host_op_id;
        e.end = r->record.target_data_op.end_time;
        e.bytes = r->record.target_data_op.bytes;
        break;
      case ompt_callback_target_submit:
        e.op_id = r->record.target_kernel.host_op_id;
        e.end = r->record.target_kernel.end_time;
        break;
      default:
        e.type = 0; /* map records: not on the timeline */
      }
      if (e.type)
        add(d, &e);
    } while (d->advance(d->dev, buffer, bytes, c, &c));
  }
  pthread_mutex_unlock(&lock);
  if (buffer_owned)
    free(buffer);
}

static void on_device_initialize(int device_num, const char *type,
                                 ompt_device_t *device,
                                 ompt_function_lookup_t lookup,
                                 const char *documentation) {
  (void)documentation;
  if (!lookup || ndevices == MAX_DEVICES)
    return; /* this device cannot be traced */
  device_t *d = &devices[ndevices];
  memset(d, 0, sizeof *d);
  d->num = device_num;
  snprintf(d->type, sizeof d->type, "%s", type ? type : "?");
  d->dev = device;
  d->translate = (ompt_translate_time_t)lookup("ompt_translate_time");
  d->get_record = (ompt_get_record_ompt_t)lookup("ompt_get_record_ompt");
  d->get_type = (ompt_get_record_type_t)lookup("ompt_get_record_type");
  d->advance =
      (ompt_advance_buffer_cursor_t)lookup("ompt_advance_buffer_cursor");
  d->stop = (ompt_stop_trace_t)lookup("ompt_stop_trace");
  d->flush = (ompt_flush_trace_t)lookup("ompt_flush_trace");
  ompt_set_trace_ompt_t set_trace =
      (ompt_set_trace_ompt_t)lookup("ompt_set_trace_ompt");
  ompt_start_trace_t start = (ompt_start_trace_t)lookup("ompt_start_trace");
  if (!d->get_record || !d->get_type || !d->advance || !set_trace || !start)
    return;
  set_trace(device, 1, ompt_callback_target);
  set_trace(device, 1, ompt_callback_target_data_op);
  set_trace(device, 1, ompt_callback_target_submit);
  ndevices++;
  if (!start(device, on_request, on_complete))
    ndevices--;
}

static const char *op_name(int op) {
  switch (op) {
  case ompt_target_data_alloc:
  case ompt_target_data_alloc_async:
    return "alloc";
  case ompt_target_data_transfer_to_device:
  case ompt_target_data_transfer_to_device_async:
    return "to device";
  case ompt_target_data_transfer_from_device:
  case ompt_target_data_transfer_from_device_async:
    return "from device";
  case ompt_target_data_delete:
  case ompt_target_data_delete_async:
    return "delete";
  case ompt_target_data_associate:
    return "associate";
  case ompt_target_data_disassociate:
    return "disassociate";
  default:
    return "data op";
  }
}

static const char *target_name(int kind) {
  switch (kind & 7) {
  case ompt_target:
    return "target";
  case ompt_target_enter_data:
    return "target enter data";
  case ompt_target_exit_data:
    return "target exit data";
  case ompt_target_update:
    return "target update";
  default:
    return "target ?";
  }
}

static int by_start(const void *a, const void *b) {
  const event_t *x = a, *y = b;
  if (x->start != y->start)
    return x->start < y->start ? -1 : 1;
  /* Regions before what happens at the same instant inside them. */
  return (x->type != ompt_callback_target) - (y->type != ompt_callback_target);
}

static void print_device(FILE *out, device_t *d) {
  /* Pair target begin/end records into regions. */
  size_t nregions = 0, ntransfers = 0, nkernels = 0;
  size_t to = 0, from = 0;
  event_t *ev = d->events;
  size_t n = 0;
  for (size_t i = 0; i < d->n; i++) {
    event_t e = ev[i];
    if (e.type == ompt_callback_target) {
      if (e.endpoint != ompt_scope_begin)
        continue;
      for (size_t j = i + 1; j < d->n; j++)
        if (ev[j].type == ompt_callback_target &&
            ev[j].target_id == e.target_id &&
            ev[j].endpoint == ompt_scope_end) {
          e.end = ev[j].start;
          break;
        }
      nregions++;
    } else if (e.type == ompt_callback_target_data_op) {
      if (e.kind == ompt_target_data_transfer_to_device ||
          e.kind == ompt_target_data_transfer_to_device_async)
        ntransfers++, to += e.bytes;
      else if (e.kind == ompt_target_data_transfer_from_device ||
               e.kind == ompt_target_data_transfer_from_device_async)
        ntransfers++, from += e.bytes;
    } else {
      nkernels++;
    }
    ev[n++] = e; /* compacted: regions, operations, kernels */
  }
  qsort(ev, n, sizeof *ev, by_start);
  fprintf(out,
          "device %d (%s): %zu target regions, %zu transfers, %zu kernels, "
          "%zu bytes to / %zu bytes from the device, %u buffers\n",
          d->num, d->type, nregions, ntransfers, nkernels, to, from,
          d->buffers);
  uint64_t t0 = n ? ev[0].start : 0;
  for (size_t i = 0; i < n; i++) {
    double s = (double)(ev[i].start - t0) / 1e3;
    double e = (double)(ev[i].end - t0) / 1e3;
    if (ev[i].type == ompt_callback_target)
      fprintf(out, "  %10.1f .. %10.1f  %-20s id %llu\n", s, e,
              target_name(ev[i].kind), (unsigned long long)ev[i].target_id);
    else if (ev[i].type == ompt_callback_target_data_op)
      fprintf(out, "  %10.1f .. %10.1f    %-18s op %llu, %zu bytes\n", s, e,
              op_name(ev[i].kind), (unsigned long long)ev[i].op_id,
              ev[i].bytes);
    else
      fprintf(out, "  %10.1f .. %10.1f    %-18s op %llu\n", s, e, "kernel",
              (unsigned long long)ev[i].op_id);
  }
}

static int initialize(ompt_function_lookup_t lookup, int initial_device,
                      ompt_data_t *tool_data) {
  (void)initial_device, (void)tool_data;
  const char *b = getenv("OMPT_TRACE_BUFFER_BYTES");
  if (b && atol(b) > 0)
    buffer_bytes = (size_t)atol(b);
  ompt_set_callback_t set = (ompt_set_callback_t)lookup("ompt_set_callback");
  if (!set)
    return 0;
  /* Without device_initialize there is nothing to trace. */
  return set(ompt_callback_device_initialize,
             (ompt_callback_t)on_device_initialize) != ompt_set_never;
}

static void finalize(ompt_data_t *tool_data) {
  (void)tool_data;
  /* Devices are finalised (their buffers flushed) before this runs; stop
   * whatever is still tracing anyway. */
  for (int i = 0; i < ndevices; i++)
    if (devices[i].stop)
      devices[i].stop(devices[i].dev);
  const char *path = getenv("OMPT_TRACE_OUTPUT");
  FILE *out = path && *path ? fopen(path, "w") : NULL;
  if (!out)
    out = stderr;
  if (ndevices == 0)
    fprintf(out, "ompt_trace_tool: no device was initialised\n");
  for (int i = 0; i < ndevices; i++) {
    print_device(out, &devices[i]);
    free(devices[i].events);
  }
  if (out != stderr)
    fclose(out);
}

ompt_start_tool_result_t *ompt_start_tool(unsigned int omp_version,
                                          const char *runtime_version) {
  (void)omp_version, (void)runtime_version;
  static ompt_start_tool_result_t result = {initialize, finalize, {0}};
  return &result;
}
