/*
 * bridge_target.c -- target constructs, devices and host teams in the OMPT
 * model: device_initialize / device_finalize, target[_emi],
 * target_map[_emi], target_data_op[_emi], target_submit[_emi], the target
 * wait states, ompt_get_target_info, and the league of a host teams
 * construct.  doc/target.md is the description.
 *
 * The state of one construct instance lives in its POMP_Target_t (the
 * instrumented code's storage, carried by value into the completion task of
 * a nowait construct), so nothing is allocated per event.  Data operations
 * are not guessed: libgomp reports none, so they are inferred from what the
 * runtime's presence table says before and after each phase
 * (omp_target_is_present), item by item.  Host-fallback execution moves no
 * data and reports no data operations.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdatomic.h>
#include <string.h>

#include "bridge.h"
#include "bridge_internal.h"
#include "bridge_omp.h"
#include "bridge_target.h"

/* The OpenMP runtime's device routines are weak references (bridge_omp.h),
 * absent with the stubs; omp_get_mapped_ptr (OpenMP 5.1) also with libgomp
 * before GCC 13. */

/* ---- Devices ------------------------------------------------------------ */

#define MAX_OFFLOAD 64 /* offload devices tracked; the host is one more */

enum { DEV_NONE, DEV_INITIALIZING, DEV_READY, DEV_FINALIZED };

struct device {
  _Atomic int state;
  int num;
  int is_host;
  struct bridge_trace_device *trace;
};

static struct device devices[MAX_OFFLOAD + 1];

int bridge_num_devices(void) {
  return omp_get_num_devices ? omp_get_num_devices() : 0;
}

static int host_device_num(void) {
  /* libgomp and LLVM number the host after the offload devices. */
  return omp_get_initial_device ? omp_get_initial_device()
                                : bridge_num_devices();
}

/* What kind of offload device libgomp drives, from its loaded plugins. */
static const char *offload_type(void) {
  static const struct {
    const char *lib, *type;
  } plugins[] = {{"libgomp-plugin-nvptx.so.1", "nvptx"},
                 {"libgomp-plugin-gcn.so.1", "gcn"}};
  const char *found = NULL;
  for (size_t i = 0; i < sizeof plugins / sizeof plugins[0]; i++) {
    void *h = dlopen(plugins[i].lib, RTLD_LAZY | RTLD_NOLOAD);
    if (h) {
      dlclose(h);
      if (found)
        return "gcc-offload";
      found = plugins[i].type;
    }
  }
  return found ? found : "gcc-offload";
}

static const char host_doc[] =
    "pompt host device: target regions that the OpenMP runtime executes on "
    "the host (no device, if(false), device(omp_initial_device)). No data "
    "moves, so no data operations are reported; target_submit and kernel "
    "records cover the execution of the region on the host. Times are host "
    "CLOCK_MONOTONIC nanoseconds (ompt_translate_time gives omp_get_wtime "
    "seconds). See doc/target.md.";
static const char offload_doc[] =
    "pompt offload device as driven by libgomp: target regions, map lists "
    "and kernel submissions are observed around each construct; data "
    "operations are inferred from omp_target_is_present before and after "
    "each phase; records are bounded by the host times of the construct "
    "(libgomp reports nothing finer). No native records. See "
    "doc/target.md.";

/* The device record, initialised (device_initialize) on first use. */
static struct device *device_get(int num, int is_host) {
  int idx = is_host ? MAX_OFFLOAD : num;
  if (idx < 0 || idx > MAX_OFFLOAD)
    return NULL;
  struct device *d = &devices[idx];
  int s = atomic_load_explicit(&d->state, memory_order_acquire);
  if (__builtin_expect(s == DEV_READY, 1))
    return d;
  if (s == DEV_FINALIZED)
    return NULL;
  int expected = DEV_NONE;
  if (atomic_compare_exchange_strong(&d->state, &expected, DEV_INITIALIZING)) {
    d->num = num;
    d->is_host = is_host;
    d->trace = bridge_trace_device_init(idx, num, is_host);
    /* Device (de)initialisation is not an event that POMP_Off pauses. */
    ompt_callback_device_initialize_t cb =
        (ompt_callback_device_initialize_t)bridge_registered_cb(
            ompt_callback_device_initialize);
    const char *type = is_host ? "host" : offload_type();
    bridge_log("device %d (%s) initialised", num, type);
    if (cb)
      cb(num, type, d->trace, bridge_device_lookup,
         is_host ? host_doc : offload_doc);
    atomic_store_explicit(&d->state, DEV_READY, memory_order_release);
    return d;
  }
  /* Another thread initialises it: wait for the tool's callback. */
  while ((s = atomic_load_explicit(&d->state, memory_order_acquire)) ==
         DEV_INITIALIZING)
    __asm__ __volatile__("" ::: "memory");
  return s == DEV_READY ? d : NULL;
}

void bridge_devices_finalize(void) {
  for (int i = 0; i <= MAX_OFFLOAD; i++) {
    struct device *d = &devices[i];
    int expected = DEV_READY;
    if (!atomic_compare_exchange_strong(&d->state, &expected, DEV_FINALIZED))
      continue;
    bridge_trace_shutdown(d->trace);
    ompt_callback_device_finalize_t cb =
        (ompt_callback_device_finalize_t)bridge_registered_cb(
            ompt_callback_device_finalize);
    if (cb)
      cb(d->num);
    bridge_log("device %d finalised", d->num);
  }
}

/* ---- Per-thread context ----------------------------------------------- */

/* The instances this thread is executing (for ompt_get_target_info) and the
 * data operation being reported.  Written only by this thread. */
#define TSTACK 8
typedef struct target_inst target_inst_t;
static __thread target_inst_t *tstack[TSTACK]
    __attribute__((tls_model("initial-exec")));
__thread volatile int bridge_target_depth
    __attribute__((tls_model("initial-exec")));
/* The id of the data operation or submission whose callbacks are being
 * delivered (the tool may change it in the begin callback). */
static __thread ompt_id_t *volatile cur_host_op
    __attribute__((tls_model("initial-exec")));
static __thread ompt_id_t thread_trace_id
    __attribute__((tls_model("initial-exec")));

static ompt_id_t trace_thread_id(void) {
  if (!thread_trace_id)
    thread_trace_id = bridge_unique_id();
  return thread_trace_id;
}

/* ---- Instances ---------------------------------------------------------- */

#define INST_MAGIC 0x706f6d74u
#define INST_HOST 0x80    /* runs on the host (fallback) */
#define INST_STATE 0x40   /* the thread's state was changed */
#define INST_EXITING 0x20 /* target data: the unmapping has begun */
#define INST_OPS 0x08     /* presence known: data operations reported */
#define PRESENT_BITS 128  /* items whose presence is remembered */

struct target_inst {
  uint32_t magic;
  uint8_t construct; /* bridge_target_construct_t */
  uint8_t flags;     /* POMP_TARGET_* | INST_* */
  uint16_t pad;
  int32_t device;
  int32_t nmaps;
  int32_t prev_state;
  ompt_data_t target_data;
  ompt_data_t target_task_data;
  ompt_data_t *task_data; /* the encountering task's */
  uint64_t t_begin;
  const void *codeptr;
  const POMP_Map_t *maps;
  ompt_id_t kernel_op; /* host op id of the kernel submission */
  uint64_t present[PRESENT_BITS / 64];
  struct bridge_trace_device *trace;
};

_Static_assert(sizeof(target_inst_t) + sizeof(char *) <= sizeof(POMP_Target_t),
               "POMP_Target_t too small for the bridge's target instance");

static inline target_inst_t *inst_of(POMP_Target_t *t) {
  return (target_inst_t *)(void *)&t->pomp_opaque[0];
}

static inline int present_bit(const target_inst_t *in, int i) {
  return i < PRESENT_BITS && ((in->present[i / 64] >> (i % 64)) & 1u);
}

static void push(target_inst_t *in) {
  int d = bridge_target_depth;
  if (d < TSTACK)
    tstack[d] = in;
  atomic_signal_fence(memory_order_seq_cst);
  bridge_target_depth = d + 1;
}

static void pop(void) {
  if (bridge_target_depth > 0)
    bridge_target_depth = bridge_target_depth - 1;
  atomic_signal_fence(memory_order_seq_cst);
}

int bridge_target_info(uint64_t *device_num, ompt_id_t *target_id,
                       ompt_id_t *host_op_id) {
  int d = bridge_target_depth;
  atomic_signal_fence(memory_order_seq_cst);
  if (d <= 0 || d > TSTACK)
    return 0;
  target_inst_t *in = tstack[d - 1];
  if (device_num)
    *device_num = (uint64_t)(int64_t)in->device;
  if (target_id)
    *target_id = in->target_data.value;
  if (host_op_id) {
    ompt_id_t *op = cur_host_op;
    *host_op_id = op ? *op : 0;
  }
  return 1;
}

/* ---- What this file needs of the thread/task model ---------------------- */

/* The thread's record, with a pending implicit-barrier end delivered first
 * (at the implicit task's own level, as bridge_events.c does). */
static bridge_thread_t *event_thread(void) {
  bridge_thread_t *t = bridge_thread_self();
  if (t && t->pending && t->cur == t->pending)
    bridge_thread_flush(t);
  return t;
}

static int thread_state(bridge_thread_t *t) {
  return bridge_get_state(t, NULL);
}

static bridge_task_t *task_begin(bridge_thread_t *t) {
  return bridge_task_alloc(t);
}

static void task_publish(bridge_thread_t *t, bridge_task_t *task) {
  task->begin_frame = task->frame.exit_frame.ptr;
  task->saved_state = bridge_get_state(t, &task->saved_wait_id);
  task->announced = 1;
  bridge_task_push(t, task);
}

static bridge_task_t *task_to_end(bridge_thread_t *t, bridge_team_t *team) {
  bridge_task_t *task = bridge_current_task(t);
  return task && task->team == team ? task : NULL;
}

static void task_finish(bridge_thread_t *t, bridge_task_t *task,
                        const void *codeptr) {
  bridge_scope_close_to(t, task->scope_base, codeptr); /* left open */
  if (t == bridge_self && POMPT_lane_v2.depth > task->lane_base)
    bridge_lane_unwind(task);
  bridge_task_pop(t, task);
  task->status = BRIDGE_TASK_DONE;
  bridge_task_unref(task);
}

/* ---- Records --------------------------------------------------------------
 */

static void record_header(ompt_record_ompt_t *r, ompt_callbacks_t type,
                          uint64_t time, const target_inst_t *in) {
  memset(r, 0, sizeof *r);
  r->type = type;
  r->time = time;
  r->thread_id = trace_thread_id();
  r->target_id = in->target_data.value;
}

static void trace_target(target_inst_t *in, ompt_target_t kind,
                         ompt_scope_endpoint_t endpoint, uint64_t time) {
  if (!bridge_trace_wants(in->trace, ompt_callback_target))
    return;
  ompt_record_ompt_t r;
  record_header(&r, ompt_callback_target, time, in);
  r.record.target.kind = kind;
  r.record.target.endpoint = endpoint;
  r.record.target.device_num = in->device;
  r.record.target.task_id = in->task_data ? in->task_data->value : 0;
  r.record.target.target_id = in->target_data.value;
  r.record.target.codeptr_ra = in->codeptr;
  bridge_trace_emit(in->trace, &r);
}

/* ---- Callbacks ------------------------------------------------------------
 */

static ompt_target_t ompt_kind(const target_inst_t *in, int exit_part) {
  ompt_target_t k;
  switch (in->construct) {
  case BRIDGE_TARGET_DATA:
    /* As native runtimes report it: the mapping at the start is an enter
     * data operation, the unmapping at the end an exit data operation. */
    return exit_part ? ompt_target_exit_data : ompt_target_enter_data;
  default:
    k = (ompt_target_t)in->construct;
  }
  if (in->flags & POMP_TARGET_NOWAIT)
    k = (ompt_target_t)(k + (ompt_target_nowait - ompt_target));
  return k;
}

static void target_callback(target_inst_t *in, ompt_target_t kind,
                            ompt_scope_endpoint_t endpoint, uint64_t time) {
  ompt_callback_target_emi_t emi = BRIDGE_CB(target_emi);
  if (emi) {
    emi(kind, endpoint, in->device, in->task_data, &in->target_task_data,
        &in->target_data, in->codeptr);
  } else {
    ompt_callback_target_t cb = BRIDGE_CB(target);
    if (cb)
      cb(kind, endpoint, in->device, in->task_data, in->target_data.value,
         in->codeptr);
  }
  trace_target(in, kind, endpoint, time);
}

/* The map list: one target_map callback / record per 8 items (a record of
 * 8 items takes 104 + 8 * 28 bytes of a trace buffer). */
static void report_map(target_inst_t *in, const POMP_Map_t *maps, int nmaps,
                       uint64_t time) {
  ompt_callback_target_map_emi_t emi = BRIDGE_CB(target_map_emi);
  ompt_callback_target_map_t cb = emi ? NULL : BRIDGE_CB(target_map);
  int traced = bridge_trace_wants(in->trace, ompt_callback_target_map);
  if (!emi && !cb && !traced)
    return;
  enum { CHUNK = 8 };
  void *host[CHUNK], *dev[CHUNK];
  size_t bytes[CHUNK];
  unsigned flags[CHUNK];
  for (int base = 0; base < nmaps; base += CHUNK) {
    unsigned n = (unsigned)(nmaps - base < CHUNK ? nmaps - base : CHUNK);
    for (unsigned i = 0; i < n; i++) {
      const POMP_Map_t *m = &maps[base + (int)i];
      host[i] = (void *)(uintptr_t)m->addr;
      if (in->flags & INST_HOST)
        dev[i] = host[i];
      else if (omp_get_mapped_ptr && m->addr && present_bit(in, base + (int)i))
        dev[i] = omp_get_mapped_ptr(m->addr, in->device);
      else
        dev[i] = NULL; /* not mapped yet, or the runtime does not say */
      bytes[i] = (size_t)m->size;
      flags[i] = m->flags & 0x3ffu;
    }
    if (emi)
      emi(&in->target_data, n, host, dev, bytes, flags, in->codeptr);
    else if (cb)
      cb(in->target_data.value, n, host, dev, bytes, flags, in->codeptr);
    if (traced) {
      ompt_record_ompt_t r;
      record_header(&r, ompt_callback_target_map, time, in);
      r.record.target_map.target_id = in->target_data.value;
      r.record.target_map.nitems = n;
      r.record.target_map.codeptr_ra = in->codeptr;
      bridge_trace_emit_map(in->trace, &r, host, dev, bytes, flags);
    }
  }
}

/* One data operation, begin and end, with its record [t0, t1]. */
static void data_op(target_inst_t *in, ompt_target_data_op_t op,
                    const POMP_Map_t *m, uint64_t t0, uint64_t t1) {
  int host = host_device_num();
  void *haddr = (void *)(uintptr_t)m->addr;
  void *daddr = omp_get_mapped_ptr && op != ompt_target_data_delete
                    ? omp_get_mapped_ptr(m->addr, in->device)
                    : NULL;
  void *src = haddr, *dst = daddr;
  int srcdev = host, dstdev = in->device;
  if (op == ompt_target_data_transfer_from_device ||
      op == ompt_target_data_delete) {
    src = daddr, dst = haddr;
    srcdev = in->device, dstdev = host;
  }
  ompt_id_t id = bridge_unique_id();
  ompt_callback_target_data_op_emi_t emi = BRIDGE_CB(target_data_op_emi);
  cur_host_op = &id;
  if (emi) {
    emi(ompt_scope_begin, &in->target_task_data, &in->target_data, &id, op, src,
        srcdev, dst, dstdev, (size_t)m->size, in->codeptr);
    emi(ompt_scope_end, &in->target_task_data, &in->target_data, &id, op, src,
        srcdev, dst, dstdev, (size_t)m->size, in->codeptr);
  } else {
    ompt_callback_target_data_op_t cb = BRIDGE_CB(target_data_op);
    if (cb)
      cb(in->target_data.value, id, op, src, srcdev, dst, dstdev,
         (size_t)m->size, in->codeptr);
  }
  cur_host_op = NULL;
  if (bridge_trace_wants(in->trace, ompt_callback_target_data_op)) {
    ompt_record_ompt_t r;
    record_header(&r, ompt_callback_target_data_op, t0, in);
    r.record.target_data_op.host_op_id = id;
    r.record.target_data_op.optype = op;
    r.record.target_data_op.src_addr = src;
    r.record.target_data_op.src_device_num = srcdev;
    r.record.target_data_op.dest_addr = dst;
    r.record.target_data_op.dest_device_num = dstdev;
    r.record.target_data_op.bytes = (size_t)m->size;
    r.record.target_data_op.end_time = t1;
    r.record.target_data_op.codeptr_ra = in->codeptr;
    bridge_trace_emit(in->trace, &r);
  }
}

/* Are data operations wanted (callback or records)?  Only then is the
 * runtime's presence table asked (it takes the runtime's lock). */
static int want_ops(const target_inst_t *in) {
  return (in->flags & INST_HOST) == 0 &&
         (BRIDGE_CB(target_data_op_emi) || BRIDGE_CB(target_data_op) ||
          bridge_trace_wants(in->trace, ompt_callback_target_data_op));
}

static int is_present(const target_inst_t *in, const POMP_Map_t *m) {
  return omp_target_is_present && m->addr &&
         omp_target_is_present(m->addr, in->device) != 0;
}

/* Remembers which items are present on the device now. */
static void snapshot_presence(target_inst_t *in, const POMP_Map_t *maps,
                              int nmaps) {
  in->present[0] = in->present[1] = 0;
  in->flags &= (uint8_t)~INST_OPS;
  if (!want_ops(in))
    return;
  in->flags |= INST_OPS;
  for (int i = 0; i < nmaps && i < PRESENT_BITS; i++)
    if (is_present(in, &maps[i]))
      in->present[i / 64] |= 1ull << (i % 64);
  if (nmaps > PRESENT_BITS)
    bridge_log("target construct with %d map items: data operations of "
               "items beyond %d are not reported",
               nmaps, PRESENT_BITS);
}

/* The entry phase: what became present (alloc, to) given the presence
 * before it (in->present) and now. */
static void entry_ops(target_inst_t *in, const POMP_Map_t *maps, int nmaps,
                      uint64_t t0, uint64_t t1) {
  if (!(in->flags & INST_OPS))
    return;
  for (int i = 0; i < nmaps && i < PRESENT_BITS; i++) {
    const POMP_Map_t *m = &maps[i];
    if (!m->size || (m->flags & (POMP_MAP_RELEASE | POMP_MAP_DELETE)))
      continue;
    int was = present_bit(in, i);
    if (!was && (m->flags & (POMP_MAP_TO | POMP_MAP_FROM | POMP_MAP_ALLOC))) {
      data_op(in, ompt_target_data_alloc, m, t0, t1);
      if (m->flags & POMP_MAP_TO)
        data_op(in, ompt_target_data_transfer_to_device, m, t0, t1);
    } else if (was && (m->flags & POMP_MAP_ALWAYS) &&
               (m->flags & POMP_MAP_TO)) {
      data_op(in, ompt_target_data_transfer_to_device, m, t0, t1);
    }
  }
}

/* The exit phase: items present before it (in->present) that are gone now
 * were copied back (from) and deleted; those still present copy back only
 * with always. */
static void exit_ops(target_inst_t *in, const POMP_Map_t *maps, int nmaps,
                     uint64_t t0, uint64_t t1) {
  if (!(in->flags & INST_OPS))
    return;
  for (int i = 0; i < nmaps && i < PRESENT_BITS; i++) {
    const POMP_Map_t *m = &maps[i];
    if (!m->size || !present_bit(in, i))
      continue;
    int from = (m->flags & POMP_MAP_FROM) && !(m->flags & POMP_MAP_DELETE);
    if (!is_present(in, m)) {
      if (from)
        data_op(in, ompt_target_data_transfer_from_device, m, t0, t1);
      data_op(in, ompt_target_data_delete, m, t0, t1);
    } else if (from && (m->flags & POMP_MAP_ALWAYS)) {
      data_op(in, ompt_target_data_transfer_from_device, m, t0, t1);
    }
  }
}

static void update_ops(target_inst_t *in, const POMP_Map_t *maps, int nmaps,
                       uint64_t t0, uint64_t t1) {
  if (!(in->flags & INST_OPS))
    return;
  for (int i = 0; i < nmaps && i < PRESENT_BITS; i++) {
    const POMP_Map_t *m = &maps[i];
    if (!m->size || !present_bit(in, i))
      continue; /* updating an absent item does nothing */
    if (m->flags & POMP_MAP_TO)
      data_op(in, ompt_target_data_transfer_to_device, m, t0, t1);
    if (m->flags & POMP_MAP_FROM)
      data_op(in, ompt_target_data_transfer_from_device, m, t0, t1);
  }
}

static void submit(target_inst_t *in, ompt_scope_endpoint_t endpoint,
                   ompt_id_t *id) {
  ompt_callback_target_submit_emi_t emi = BRIDGE_CB(target_submit_emi);
  cur_host_op = id;
  if (emi) {
    /* requested_num_teams: a teams clause of the construct is device
     * code for the instrumenter; 0 says it is not known. */
    emi(endpoint, &in->target_data, id, 0);
  } else if (endpoint == ompt_scope_begin) {
    ompt_callback_target_submit_t cb = BRIDGE_CB(target_submit);
    if (cb)
      cb(in->target_data.value, *id, 0);
  }
  cur_host_op = NULL;
}

static void trace_kernel(target_inst_t *in, ompt_id_t id, uint64_t t0,
                         uint64_t t1) {
  if (!bridge_trace_wants(in->trace, ompt_callback_target_submit))
    return;
  ompt_record_ompt_t r;
  record_header(&r, ompt_callback_target_submit, t0, in);
  r.record.target_kernel.host_op_id = id;
  r.record.target_kernel.requested_num_teams = 0;
  r.record.target_kernel.granted_num_teams = (in->flags & INST_HOST) ? 1 : 0;
  r.record.target_kernel.end_time = t1;
  bridge_trace_emit(in->trace, &r);
}

/* ---- The constructs ------------------------------------------------------ */

static ompt_state_t wait_state(const target_inst_t *in) {
  switch (in->construct) {
  case BRIDGE_TARGET:
    return ompt_state_wait_target;
  case BRIDGE_TARGET_UPDATE:
    return ompt_state_wait_target_update;
  default:
    return ompt_state_wait_target_map;
  }
}

void bridge_target_enter(POMP_Target_t *storage,
                         bridge_target_construct_t construct,
                         int32_t device_num, int32_t flags,
                         const POMP_Map_t *maps, int32_t nmaps,
                         const void *codeptr) {
  target_inst_t *in = inst_of(storage);
  in->magic = 0;
  bridge_thread_t *t = event_thread();
  if (!t)
    return;
  uint64_t now = bridge_device_time();
  bridge_task_t *task = bridge_current_task(t);
  int ndev = bridge_num_devices();
  int dev = device_num == POMP_DEVICE_DEFAULT
                ? (omp_get_default_device ? omp_get_default_device()
                                          : host_device_num())
                : device_num;
  int on_host = (flags & POMP_TARGET_IF_FALSE) || dev < 0 || dev >= ndev ||
                dev == host_device_num();
  if (on_host)
    dev = host_device_num();
  memset(in, 0, sizeof *in);
  in->construct = (uint8_t)construct;
  in->flags = (uint8_t)((flags & 0x7) | (on_host ? INST_HOST : 0));
  in->device = dev;
  in->nmaps = nmaps > 0 && maps ? nmaps : 0;
  in->maps = maps;
  in->task_data = task ? &task->task_data : NULL;
  in->t_begin = now;
  in->codeptr = codeptr;
  in->target_data.value = bridge_unique_id();
  struct device *d = device_get(dev, on_host);
  in->trace = d ? d->trace : NULL;
  in->magic = INST_MAGIC;

  push(in);
  ompt_target_t kind = ompt_kind(in, 0);
  target_callback(in, kind, ompt_scope_begin, now);
  if (!on_host)
    snapshot_presence(in, maps, in->nmaps);
  if (construct != BRIDGE_TARGET_UPDATE)
    report_map(in, maps, in->nmaps, now);
  if (!on_host && !(flags & POMP_TARGET_NOWAIT) &&
      construct != BRIDGE_TARGET_DATA) {
    in->prev_state = thread_state(t);
    in->flags |= INST_STATE;
    bridge_set_state(t, wait_state(in), 0);
  }
  if (construct == BRIDGE_TARGET) {
    /* The kernel starts when this event returns (host fallback: the region
     * runs right after it). */
    ompt_id_t id = bridge_unique_id();
    submit(in, ompt_scope_begin, &id);
    in->kernel_op = id;
  }
  if (construct == BRIDGE_TARGET_DATA) {
    pop(); /* the block is host code: the thread is not in the construct */
  } else if (flags & POMP_TARGET_NOWAIT) {
    pop(); /* the thread goes on; the completion task takes over */
  }
}

/* The end of an instance's work: everything that needs the presence after
 * it; t1 is now. */
static void finish(target_inst_t *in, const POMP_Map_t *maps, int nmaps) {
  uint64_t t1 = bridge_device_time();
  int on_host = in->flags & INST_HOST;
  if (nmaps > in->nmaps)
    nmaps = in->nmaps;
  ompt_target_t kind = ompt_kind(in, 0);
  switch (in->construct) {
  case BRIDGE_TARGET: {
    ompt_id_t id = in->kernel_op;
    if (!on_host) {
      entry_ops(in, maps, nmaps, in->t_begin, t1);
      /* Everything mapped stays present during the region. */
      for (int i = 0; i < nmaps && i < PRESENT_BITS; i++)
        if (maps[i].size)
          in->present[i / 64] |= 1ull << (i % 64);
    }
    submit(in, ompt_scope_end, &id);
    trace_kernel(in, id, in->t_begin, t1);
    if (!on_host)
      exit_ops(in, maps, nmaps, in->t_begin, t1);
    break;
  }
  case BRIDGE_TARGET_ENTER_DATA:
    if (!on_host)
      entry_ops(in, maps, nmaps, in->t_begin, t1);
    break;
  case BRIDGE_TARGET_EXIT_DATA:
    if (!on_host)
      exit_ops(in, maps, nmaps, in->t_begin, t1);
    break;
  case BRIDGE_TARGET_UPDATE:
    if (!on_host)
      update_ops(in, maps, nmaps, in->t_begin, t1);
    break;
  default:
    break;
  }
  target_callback(in, kind, ompt_scope_end, t1);
}

static void restore_state(bridge_thread_t *t, target_inst_t *in) {
  if (in->flags & INST_STATE) {
    in->flags &= (uint8_t)~INST_STATE;
    bridge_set_state(t, (ompt_state_t)in->prev_state, 0);
  }
}

void bridge_target_exit(POMP_Target_t *storage, const void *codeptr) {
  (void)codeptr;
  target_inst_t *in = inst_of(storage);
  if (in->magic != INST_MAGIC || in->construct == BRIDGE_TARGET_DATA)
    return;
  bridge_thread_t *t = event_thread();
  if (!t)
    return;
  if (in->flags & POMP_TARGET_NOWAIT) {
    in->magic = 0; /* the completion task's copy finishes it */
    return;
  }
  restore_state(t, in);
  finish(in, in->maps, in->nmaps);
  /* Pop this instance, and any that an early exit left behind. */
  int dd = bridge_target_depth;
  while (dd > 0 && dd <= TSTACK && tstack[dd - 1] != in)
    dd--;
  if (dd > 0) {
    bridge_target_depth = dd - 1;
    atomic_signal_fence(memory_order_seq_cst);
  }
  in->magic = 0;
}

void bridge_target_complete(POMP_Target_t *storage, const POMP_Map_t *maps,
                            int32_t nmaps, const void *codeptr) {
  (void)codeptr;
  target_inst_t *in = inst_of(storage);
  if (in->magic != INST_MAGIC || !(in->flags & POMP_TARGET_NOWAIT))
    return;
  bridge_thread_t *t = event_thread();
  if (!t)
    return;
  in->maps = maps;
  push(in);
  finish(in, maps, nmaps > 0 && maps ? nmaps : 0);
  pop();
  in->magic = 0;
}

/* target data: enter -> begin is the mapping, end -> exit the unmapping. */
void bridge_target_data_begin(POMP_Target_t *storage) {
  target_inst_t *in = inst_of(storage);
  if (in->magic != INST_MAGIC || in->construct != BRIDGE_TARGET_DATA)
    return;
  if (!event_thread())
    return;
  uint64_t t1 = bridge_device_time();
  push(in);
  if (!(in->flags & INST_HOST))
    entry_ops(in, in->maps, in->nmaps, in->t_begin, t1);
  target_callback(in, ompt_kind(in, 0), ompt_scope_end, t1);
  pop();
}

void bridge_target_data_end(POMP_Target_t *storage) {
  target_inst_t *in = inst_of(storage);
  if (in->magic != INST_MAGIC || in->construct != BRIDGE_TARGET_DATA)
    return;
  if (!event_thread())
    return;
  uint64_t now = bridge_device_time();
  /* The unmapping is a target region of its own. */
  in->target_data.value = bridge_unique_id();
  in->t_begin = now;
  push(in);
  target_callback(in, ompt_kind(in, 1), ompt_scope_begin, now);
  if (!(in->flags & INST_HOST))
    snapshot_presence(in, in->maps, in->nmaps);
  pop();
  in->flags |= INST_EXITING;
}

void bridge_target_data_exit(POMP_Target_t *storage) {
  target_inst_t *in = inst_of(storage);
  if (in->magic != INST_MAGIC || in->construct != BRIDGE_TARGET_DATA ||
      !(in->flags & INST_EXITING))
    return;
  if (!event_thread())
    return;
  uint64_t t1 = bridge_device_time();
  push(in);
  if (!(in->flags & INST_HOST))
    exit_ops(in, in->maps, in->nmaps, in->t_begin, t1);
  target_callback(in, ompt_kind(in, 1), ompt_scope_end, t1);
  pop();
  in->magic = 0;
}

/* ---- Host teams ---------------------------------------------------------- */

void bridge_teams_enter(POMP_Team_t *storage, int num_teams, int thread_limit,
                        const void *codeptr, void *enter_frame) {
  (void)thread_limit;
  bridge_thread_t *t = event_thread();
  if (!t)
    return;
  bridge_team_t *team = (bridge_team_t *)storage;
  memset(team, 0, sizeof *team);
  bridge_task_t *enc = bridge_current_task(t);
  team->encountering = enc;
  team->codeptr = codeptr;
  int requested = num_teams;
  if (requested <= 0 && omp_get_max_teams)
    requested = omp_get_max_teams();
  team->requested = requested > 0 ? requested : 1;
  team->flags = ompt_parallel_invoker_runtime | ompt_parallel_league;
  if (enc) {
    enc->frame.enter_frame.ptr = enter_frame;
  }
  bridge_set_state(t, ompt_state_overhead, 0);
  ompt_callback_parallel_begin_t cb = BRIDGE_CB(parallel_begin);
  if (cb)
    cb(enc ? &enc->task_data : NULL, enc ? &enc->frame : NULL,
       &team->parallel_data, (unsigned)team->requested, team->flags, codeptr);
}

void bridge_teams_begin(POMP_Team_t *storage, void *exit_frame) {
  bridge_thread_t *t = event_thread();
  if (!t)
    return;
  bridge_team_t *team = (bridge_team_t *)storage;
  int num = omp_get_team_num ? omp_get_team_num() : 0;
  int size = omp_get_num_teams ? omp_get_num_teams() : 1;
  if (num == 0)
    team->size = size;
  bridge_task_t *task = task_begin(t);
  if (!task)
    return;
  task->frame.exit_frame.ptr = exit_frame;
  task->team = team;
  task->parallel_data = &team->parallel_data;
  task->parent = team->encountering;
  task->flags = ompt_task_initial;
  task->thread_num = num;
  task->team_size = size;
  task_publish(t, task);
  bridge_set_state(t, ompt_state_work_serial, 0);
  ompt_callback_implicit_task_t cb = BRIDGE_CB(implicit_task);
  if (cb)
    cb(ompt_scope_begin, &team->parallel_data, &task->task_data, (unsigned)size,
       (unsigned)num, ompt_task_initial);
}

void bridge_teams_end(POMP_Team_t *storage, const void *codeptr) {
  bridge_thread_t *t = event_thread();
  if (!t)
    return;
  bridge_team_t *team = (bridge_team_t *)storage;
  bridge_task_t *task = task_to_end(t, team);
  if (!task)
    return;
  /* actual_parallelism is 0 at an initial task's end (OpenMP 5.2). */
  ompt_callback_implicit_task_t cb = BRIDGE_CB(implicit_task);
  if (cb)
    cb(ompt_scope_end, &team->parallel_data, &task->task_data, 0,
       (unsigned)task->thread_num, ompt_task_initial);
  task_finish(t, task, codeptr);
  bridge_set_state(t, ompt_state_wait_barrier_teams, 0);
}

void bridge_teams_exit(POMP_Team_t *storage, const void *codeptr) {
  bridge_thread_t *t = event_thread();
  if (!t)
    return;
  bridge_team_t *team = (bridge_team_t *)storage;
  bridge_task_t *enc = team->encountering;
  if (enc) {
    enc->frame.enter_frame.ptr = NULL;
  }
  bridge_task_t *cur = bridge_current_task(t);
  bridge_set_state(t,
                   cur && !(cur->flags & ompt_task_initial)
                       ? ompt_state_work_parallel
                       : ompt_state_work_serial,
                   0);
  /* With parallel_begin's codeptr_ra (bridge_parallel_exit). */
  ompt_callback_parallel_end_t cb = BRIDGE_CB(parallel_end);
  if (cb)
    cb(&team->parallel_data, enc ? &enc->task_data : NULL, team->flags,
       team->codeptr ? team->codeptr : codeptr);
}
