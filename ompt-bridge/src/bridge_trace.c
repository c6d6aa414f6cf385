/*
 * bridge_trace.c -- device tracing: the entry points that the lookup of
 * device_initialize hands out, and the trace buffers.
 *
 * Buffers belong to the tool (buffer_request hands them out, buffer_complete
 * hands them back).  Records are written by whichever host thread performs
 * the target event, without locks:
 *
 *  - the device's current buffer is one atomic pointer; a writer reserves
 *    bytes with one fetch-and-add, copies its record, and commits the bytes
 *    with a second one;
 *  - the reservation that crosses the end of the buffer (exactly one does)
 *    notes where the valid records end and closes the buffer: the pointer is
 *    cleared and a large bias is added to the reservation counter, so that
 *    every later reservation fails and goes to the next buffer;
 *  - a closed buffer is complete when every reserved byte below its end was
 *    committed; whichever thread commits last (or closes) marks it ready;
 *  - buffers are completed strictly in the order they were handed out: each
 *    carries a sequence number, and a ready buffer is completed only by the
 *    thread that completed its predecessor or finds it next in line;
 *  - a new buffer is requested by one thread at a time (a flag); others
 *    wait for it, which only happens when buffers change hands;
 *  - at most RING buffers are out at a time; when a writer was preempted
 *    between reserving and committing, later buffers wait behind its
 *    buffer, and a writer that needs one more waits for the completions
 *    (a copy's time once the writer runs again) instead of losing records.
 *
 * A record that finds no buffer (the tool handed none, or one too small for
 * it) is counted as lost, and the loss is reported on stderr at the next
 * flush, stop or shutdown: never silently.  Records are ompt_record_ompt_t;
 * a target_map record is followed in the buffer by its four arrays, which
 * its pointers point at, so records have variable sizes and the cursor
 * (a byte offset from the buffer's start) must be advanced with
 * ompt_advance_buffer_cursor.
 */
#define _GNU_SOURCE
#include <sched.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "bridge_internal.h"
#include "bridge_target.h"

#define RING 64 /* buffers handed out and not yet completed, per device */
#define CLOSE_BIAS (SIZE_MAX / 2)
#define RECORD_SIZE ((sizeof(ompt_record_ompt_t) + 7) & ~(size_t)7)
#define MAP_ITEM_SIZE (2 * sizeof(void *) + sizeof(size_t) + sizeof(unsigned))

enum { BUF_FREE, BUF_ACTIVE, BUF_READY, BUF_COMPLETING };

struct trace_buf {
  _Atomic int state;
  char *mem;
  size_t size;
  size_t begin; /* first record (the buffer's start, aligned to 8) */
  _Atomic size_t reserved;
  _Atomic size_t committed;
  _Atomic size_t final; /* end of the valid records once closed */
  _Atomic size_t vend;  /* set by the reservation that crossed the end */
  ompt_callback_buffer_complete_t complete;
  uint64_t seq;
};

struct bridge_trace_device {
  int num;
  int is_host;
  _Atomic uint64_t enabled; /* bit per ompt_callbacks_t record type */
  _Atomic int running;
  _Atomic int paused;
  _Atomic int starved; /* the tool handed no buffer: off until next start */
  _Atomic int requesting;
  _Atomic(ompt_callback_buffer_request_t) request;
  _Atomic(ompt_callback_buffer_complete_t) complete;
  _Atomic(struct trace_buf *) cur;
  _Atomic uint64_t next_seq;
  _Atomic uint64_t next_complete;
  _Atomic uint64_t lost_nobuf, lost_small, lost_ring;
  _Atomic uint64_t reported;
  struct trace_buf ring[RING];
};

#define MAX_TRACE_DEVICES 65
static struct bridge_trace_device tdev[MAX_TRACE_DEVICES];

static inline void relax(unsigned *spins) {
  if (++*spins < 64) {
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#endif
  } else {
    sched_yield();
  }
}

static struct bridge_trace_device *dev_of(ompt_device_t *device) {
  struct bridge_trace_device *d = device;
  if (!d || d < tdev || d >= tdev + MAX_TRACE_DEVICES ||
      (size_t)((char *)d - (char *)tdev) % sizeof *d != 0)
    return NULL;
  return d;
}

struct bridge_trace_device *bridge_trace_device_init(int idx, int num,
                                                     int is_host) {
  if (idx < 0 || idx >= MAX_TRACE_DEVICES)
    return NULL;
  struct bridge_trace_device *d = &tdev[idx];
  d->num = num;
  d->is_host = is_host;
  return d;
}

uint64_t bridge_device_time(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* ---- Record types a device traces -------------------------------------- */

/* The record type of a callback (the EMI callbacks have the records of
 * their 5.0 forms), or 0 when a device never traces it. */
static ompt_callbacks_t record_type_of(int etype, int is_host) {
  switch (etype) {
  case ompt_callback_target:
  case ompt_callback_target_emi:
    return ompt_callback_target;
  case ompt_callback_target_submit:
  case ompt_callback_target_submit_emi:
    return ompt_callback_target_submit;
  case ompt_callback_target_map:
  case ompt_callback_target_map_emi:
    return ompt_callback_target_map;
  case ompt_callback_target_data_op:
  case ompt_callback_target_data_op_emi:
    /* Host-fallback execution transfers nothing. */
    return is_host ? (ompt_callbacks_t)0 : ompt_callback_target_data_op;
  default:
    return (ompt_callbacks_t)0;
  }
}

int bridge_trace_wants(struct bridge_trace_device *d, ompt_callbacks_t type) {
  if (!d || !atomic_load_explicit(&d->running, memory_order_relaxed))
    return 0;
  return !atomic_load_explicit(&d->paused, memory_order_relaxed) &&
         (atomic_load_explicit(&d->enabled, memory_order_relaxed) >>
          (unsigned)type) &
             1u;
}

/* ---- Buffers --------------------------------------------------------------
 */

static size_t record_size(const ompt_record_ompt_t *r) {
  if (r->type == ompt_callback_target_map)
    return RECORD_SIZE +
           ((r->record.target_map.nitems * MAP_ITEM_SIZE + 7) & ~(size_t)7);
  return RECORD_SIZE;
}

static void complete_in_order(struct bridge_trace_device *d) {
  for (;;) {
    uint64_t k = atomic_load(&d->next_complete);
    struct trace_buf *b = &d->ring[k % RING];
    int expected = BUF_READY;
    if (!atomic_compare_exchange_strong(&b->state, &expected, BUF_COMPLETING))
      return;
    size_t fin = atomic_load(&b->final);
    /* A zero type after the last record stops cursors that are advanced
     * with the buffer's full size. */
    if (fin + sizeof(ompt_callbacks_t) <= b->size) {
      ompt_callbacks_t none = (ompt_callbacks_t)0;
      memcpy(b->mem + fin, &none, sizeof none);
    }
    if (b->complete)
      b->complete(d->num, b->mem, fin, (ompt_buffer_cursor_t)b->begin, 1);
    atomic_store(&b->state, BUF_FREE);
    atomic_store(&d->next_complete, k + 1);
  }
}

static void mark_ready(struct bridge_trace_device *d, struct trace_buf *b) {
  int expected = BUF_ACTIVE;
  if (atomic_compare_exchange_strong(&b->state, &expected, BUF_READY))
    complete_in_order(d);
}

/* Closes b if it is still the device's current buffer. */
static void close_buf(struct bridge_trace_device *d, struct trace_buf *b) {
  struct trace_buf *expected = b;
  if (!atomic_compare_exchange_strong(&d->cur, &expected, NULL))
    return;
  size_t old = atomic_fetch_add(&b->reserved, CLOSE_BIAS);
  size_t fin;
  if (old <= b->size) {
    fin = old;
  } else {
    unsigned spins = 0;
    while ((fin = atomic_load(&b->vend)) == SIZE_MAX)
      relax(&spins);
  }
  atomic_store(&b->final, fin);
  if (atomic_load(&b->committed) == fin)
    mark_ready(d, b);
}

uint64_t bridge_trace_records_lost(void) {
  uint64_t n = 0;
  for (int i = 0; i < MAX_TRACE_DEVICES; i++)
    n += atomic_load(&tdev[i].lost_nobuf) + atomic_load(&tdev[i].lost_small) +
         atomic_load(&tdev[i].lost_ring);
  return n;
}

static void report_loss(struct bridge_trace_device *d) {
  uint64_t nobuf = atomic_load(&d->lost_nobuf);
  uint64_t small = atomic_load(&d->lost_small);
  uint64_t ring = atomic_load(&d->lost_ring);
  uint64_t total = nobuf + small + ring;
  uint64_t before = atomic_exchange(&d->reported, total);
  if (total <= before)
    return;
  fprintf(stderr,
          "pompt: device %d: %llu trace record(s) lost (%llu: the tool's "
          "buffer request returned no buffer; %llu: a buffer too small for "
          "one record; %llu: %d buffers awaiting completion)\n",
          d->num, (unsigned long long)(total - before),
          (unsigned long long)nobuf, (unsigned long long)small,
          (unsigned long long)ring, RING);
  bridge_log("device %d: %llu trace records lost in all", d->num,
             (unsigned long long)total);
}

/* Asks the tool for a buffer; the caller holds the requesting flag. */
static struct trace_buf *request_buffer(struct bridge_trace_device *d) {
  if (!atomic_load(&d->running) || atomic_load(&d->starved))
    return NULL;
  uint64_t seq = atomic_load(&d->next_seq);
  struct trace_buf *b = &d->ring[seq % RING];
  /* Every descriptor is out: buffers await completion behind one whose
   * writer has not committed yet (a preempted thread).  That writer only
   * has a copy to finish, so wait for it rather than lose records. */
  unsigned spins = 0;
  while (seq - atomic_load(&d->next_complete) >= RING ||
         atomic_load(&b->state) != BUF_FREE) {
    if (!atomic_load(&d->running) || spins > (1u << 24))
      return NULL; /* stopped meanwhile, or no progress at all: give up */
    relax(&spins);
  }
  ompt_callback_buffer_request_t request = atomic_load(&d->request);
  ompt_buffer_t *mem = NULL;
  size_t bytes = 0;
  if (request)
    request(d->num, &mem, &bytes);
  if (!mem || bytes == 0) {
    /* As the tracing interface says: no buffer, no tracing on this device
     * until tracing is started again. */
    atomic_store(&d->starved, 1);
    bridge_log("device %d: the tool handed no trace buffer", d->num);
    return NULL;
  }
  size_t begin = (size_t)(-(uintptr_t)mem & 7u);
  b->mem = mem;
  b->size = bytes;
  b->begin = begin > bytes ? bytes : begin;
  atomic_store(&b->reserved, b->begin);
  atomic_store(&b->committed, b->begin);
  atomic_store(&b->final, SIZE_MAX);
  atomic_store(&b->vend, SIZE_MAX);
  b->complete = atomic_load(&d->complete);
  b->seq = seq;
  atomic_store(&b->state, BUF_ACTIVE);
  atomic_store(&d->next_seq, seq + 1);
  atomic_store(&d->cur, b);
  return b;
}

/* The current buffer, asking the tool for one when there is none. */
static struct trace_buf *get_buffer(struct bridge_trace_device *d) {
  unsigned spins = 0;
  for (;;) {
    struct trace_buf *b = atomic_load(&d->cur);
    if (b)
      return b;
    if (!atomic_load(&d->running) || atomic_load(&d->starved))
      return NULL;
    int expected = 0;
    if (atomic_compare_exchange_strong(&d->requesting, &expected, 1)) {
      b = atomic_load(&d->cur);
      if (!b)
        b = request_buffer(d);
      atomic_store(&d->requesting, 0);
      return b;
    }
    while (atomic_load(&d->requesting))
      relax(&spins);
  }
}

/* Reserves sz bytes; returns the record's address in the buffer, and the
 * buffer in *bp, or NULL (record lost or tracing stopped). */
static char *reserve(struct bridge_trace_device *d, size_t sz,
                     struct trace_buf **bp) {
  for (;;) {
    struct trace_buf *b = get_buffer(d);
    if (!b) {
      if (atomic_load(&d->running))
        atomic_fetch_add(
            atomic_load(&d->starved) ? &d->lost_nobuf : &d->lost_ring, 1);
      return NULL;
    }
    size_t off = atomic_fetch_add(&b->reserved, sz);
    if (off < CLOSE_BIAS && off + sz <= b->size) {
      *bp = b;
      return b->mem + off;
    }
    if (off < CLOSE_BIAS && off <= b->size) {
      /* This reservation crosses the end: the valid records end here. */
      atomic_store(&b->vend, off);
      close_buf(d, b);
      if (off == b->begin) { /* not even an empty buffer holds it */
        atomic_fetch_add(&d->lost_small, 1);
        return NULL;
      }
      continue;
    }
    close_buf(d, b); /* closed already, or about to be: move on */
  }
}

static void commit(struct bridge_trace_device *d, struct trace_buf *b,
                   size_t sz) {
  bridge_sde_record_written();
  size_t c = atomic_fetch_add(&b->committed, sz) + sz;
  if (c == atomic_load(&b->final))
    mark_ready(d, b);
}

void bridge_trace_emit(struct bridge_trace_device *d,
                       const ompt_record_ompt_t *rec) {
  struct trace_buf *b;
  char *p = reserve(d, RECORD_SIZE, &b);
  if (!p)
    return;
  memcpy(p, rec, sizeof *rec);
  commit(d, b, RECORD_SIZE);
}

void bridge_trace_emit_map(struct bridge_trace_device *d,
                           const ompt_record_ompt_t *rec, void **host_addr,
                           void **device_addr, const size_t *bytes,
                           const unsigned *flags) {
  unsigned n = rec->record.target_map.nitems;
  size_t sz = record_size(rec);
  struct trace_buf *b;
  char *p = reserve(d, sz, &b);
  if (!p)
    return;
  ompt_record_ompt_t *r = (ompt_record_ompt_t *)(void *)p;
  memcpy(r, rec, sizeof *rec);
  char *q = p + RECORD_SIZE;
  r->record.target_map.host_addr = (void **)(void *)q;
  memcpy(q, host_addr, n * sizeof(void *));
  q += n * sizeof(void *);
  r->record.target_map.device_addr = (void **)(void *)q;
  memcpy(q, device_addr, n * sizeof(void *));
  q += n * sizeof(void *);
  r->record.target_map.bytes = (size_t *)(void *)q;
  memcpy(q, bytes, n * sizeof(size_t));
  q += n * sizeof(size_t);
  r->record.target_map.mapping_flags = (unsigned *)(void *)q;
  memcpy(q, flags, n * sizeof(unsigned));
  commit(d, b, sz);
}

/* Closes the current buffer (if it holds records, or always when
 * include_empty) and waits until every handed-out buffer was completed. */
static void drain(struct bridge_trace_device *d, int include_empty) {
  unsigned spins = 0;
  int expected = 0;
  while (!atomic_compare_exchange_weak(&d->requesting, &expected, 1)) {
    expected = 0;
    relax(&spins);
  }
  struct trace_buf *b = atomic_load(&d->cur);
  if (b && (include_empty || atomic_load(&b->reserved) != b->begin))
    close_buf(d, b);
  atomic_store(&d->requesting, 0);
  spins = 0;
  /* Writers that reserved before the close commit within a copy's time. */
  while (atomic_load(&d->next_complete) != atomic_load(&d->next_seq) &&
         atomic_load(&d->cur) == NULL) {
    complete_in_order(d);
    if (atomic_load(&d->next_complete) == atomic_load(&d->next_seq))
      break;
    relax(&spins);
  }
  report_loss(d);
}

void bridge_trace_shutdown(struct bridge_trace_device *d) {
  if (!d)
    return;
  atomic_store(&d->running, 0);
  drain(d, 1);
}

/* ---- Entry points ------------------------------------------------------ */

static int get_device_num_procs(ompt_device_t *device) {
  struct bridge_trace_device *d = dev_of(device);
  if (!d)
    return 0;
  if (d->is_host) {
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 ? (int)n : 1;
  }
  return 0; /* libgomp does not say how many processors a device has */
}

static ompt_device_time_t get_device_time(ompt_device_t *device) {
  (void)device;
  return bridge_device_time();
}

/* Device times are host CLOCK_MONOTONIC nanoseconds, the clock of
 * omp_get_wtime in libgomp. */
static double translate_time(ompt_device_t *device, ompt_device_time_t time) {
  (void)device;
  return (double)time * 1e-9;
}

static ompt_set_result_t
set_trace_ompt(ompt_device_t *device, unsigned int enable, unsigned int etype) {
  struct bridge_trace_device *d = dev_of(device);
  if (!d || etype >= 64)
    return ompt_set_error;
  if (etype == 0) {
    uint64_t all = (1ull << ompt_callback_target) |
                   (1ull << ompt_callback_target_submit) |
                   (1ull << ompt_callback_target_map);
    if (!d->is_host)
      all |= 1ull << ompt_callback_target_data_op;
    if (enable)
      atomic_fetch_or(&d->enabled, all);
    else
      atomic_store(&d->enabled, 0);
    return ompt_set_always;
  }
  ompt_callbacks_t type = record_type_of((int)etype, d->is_host);
  if (!type)
    return ompt_set_never;
  if (enable)
    atomic_fetch_or(&d->enabled, 1ull << type);
  else
    atomic_fetch_and(&d->enabled, ~(1ull << type));
  /* Data operations are inferred from the runtime's presence table. */
  return type == ompt_callback_target_data_op ? ompt_set_sometimes
                                              : ompt_set_always;
}

static ompt_set_result_t set_trace_native(ompt_device_t *device, int enable,
                                          int flags) {
  (void)enable, (void)flags;
  /* Neither libgomp nor libpompt produce native device records. */
  return dev_of(device) ? ompt_set_never : ompt_set_error;
}

static int start_trace(ompt_device_t *device,
                       ompt_callback_buffer_request_t request,
                       ompt_callback_buffer_complete_t complete) {
  struct bridge_trace_device *d = dev_of(device);
  if (!d || !request || !complete || atomic_load(&d->running))
    return 0;
  atomic_store(&d->request, request);
  atomic_store(&d->complete, complete);
  atomic_store(&d->starved, 0);
  atomic_store(&d->paused, 0);
  atomic_store(&d->running, 1);
  return 1;
}

static int pause_trace(ompt_device_t *device, int begin_pause) {
  struct bridge_trace_device *d = dev_of(device);
  if (!d || !atomic_load(&d->running))
    return 0;
  atomic_store(&d->paused, begin_pause != 0);
  return 1;
}

static int flush_trace(ompt_device_t *device) {
  struct bridge_trace_device *d = dev_of(device);
  if (!d)
    return 0;
  drain(d, 0);
  return 1;
}

static int stop_trace(ompt_device_t *device) {
  struct bridge_trace_device *d = dev_of(device);
  if (!d)
    return 0;
  int was = atomic_exchange(&d->running, 0);
  drain(d, 1);
  return was;
}

static int known_type(ompt_callbacks_t t) {
  return t == ompt_callback_target || t == ompt_callback_target_data_op ||
         t == ompt_callback_target_submit || t == ompt_callback_target_map;
}

static ompt_record_ompt_t *record_at(ompt_buffer_t *buffer,
                                     ompt_buffer_cursor_t current) {
  if (!buffer)
    return NULL;
  ompt_record_ompt_t *r =
      (ompt_record_ompt_t *)(void *)((char *)buffer + current);
  return known_type(r->type) ? r : NULL;
}

static int advance_buffer_cursor(ompt_device_t *device, ompt_buffer_t *buffer,
                                 size_t size, ompt_buffer_cursor_t current,
                                 ompt_buffer_cursor_t *next) {
  (void)device; /* tools pass NULL here; the buffer says everything */
  if (!buffer || !next || current + RECORD_SIZE > size)
    return 0;
  ompt_record_ompt_t *r = record_at(buffer, current);
  if (!r)
    return 0;
  ompt_buffer_cursor_t n = current + record_size(r);
  if (n + RECORD_SIZE > size || !record_at(buffer, n))
    return 0;
  *next = n;
  return 1;
}

static ompt_record_t get_record_type(ompt_buffer_t *buffer,
                                     ompt_buffer_cursor_t current) {
  return record_at(buffer, current) ? ompt_record_ompt : ompt_record_invalid;
}

static ompt_record_ompt_t *get_record_ompt(ompt_buffer_t *buffer,
                                           ompt_buffer_cursor_t current) {
  return record_at(buffer, current);
}

static void *get_record_native(ompt_buffer_t *buffer,
                               ompt_buffer_cursor_t current,
                               ompt_id_t *host_op_id) {
  (void)buffer, (void)current;
  if (host_op_id)
    *host_op_id = 0;
  return NULL; /* every record is an OMPT record */
}

static ompt_record_abstract_t *get_record_abstract(void *native_record) {
  (void)native_record;
  return NULL;
}

#define TRACE_ENTRY_LIST(X)                                                    \
  X(ompt_get_device_num_procs, get_device_num_procs)                           \
  X(ompt_get_device_time, get_device_time)                                     \
  X(ompt_translate_time, translate_time)                                       \
  X(ompt_set_trace_ompt, set_trace_ompt)                                       \
  X(ompt_set_trace_native, set_trace_native)                                   \
  X(ompt_start_trace, start_trace)                                             \
  X(ompt_pause_trace, pause_trace)                                             \
  X(ompt_flush_trace, flush_trace)                                             \
  X(ompt_stop_trace, stop_trace)                                               \
  X(ompt_advance_buffer_cursor, advance_buffer_cursor)                         \
  X(ompt_get_record_type, get_record_type)                                     \
  X(ompt_get_record_ompt, get_record_ompt)                                     \
  X(ompt_get_record_native, get_record_native)                                 \
  X(ompt_get_record_abstract, get_record_abstract)

ompt_interface_fn_t bridge_device_lookup(const char *name) {
  if (!name)
    return NULL;
#define X(entry, fn)                                                           \
  {                                                                            \
    entry##_t checked = fn;                                                    \
    if (!strcmp(name, #entry))                                                 \
      return (ompt_interface_fn_t)checked;                                     \
  }
  TRACE_ENTRY_LIST(X)
#undef X
  return NULL;
}
