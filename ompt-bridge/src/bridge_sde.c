/*
 * bridge_sde.c -- libpompt's own counters as PAPI software-defined events
 * (PAPI's sde component): sde:::pompt::callbacks_<name> for every OMPT
 * callback (bridge_callbacks.h), callbacks_total, regions_registered,
 * trace_records_delivered and trace_records_lost.  doc/ompt-mapping.md
 * lists them.
 *
 * libsde is the library through which a library exports such events; PAPI's
 * sde component finds it by looking its tool-side symbols (sde_ti_*) up in
 * the process's global scope when PAPI is initialised.  libpompt does not
 * depend on it: at activation, before the tool's initialize runs (a tool
 * may initialise PAPI there), libsde.so.1 is loaded with dlopen into the
 * global scope and the events are registered, each with a read function.
 * Without libsde nothing happens (OMP_TOOL_VERBOSE_INIT says so).
 *
 * Counting costs nothing until somebody reads: the first read (PAPI_start
 * reads every event of its set to have a base) switches counting on, from
 * then on the callback tables hold, instead of the tool's functions, one
 * wrapper per callback that counts and calls the tool's function.  PAPI
 * reports the difference from that base, so what it reads is exact.  A
 * count is per thread, written only by its thread (a relaxed atomic load and
 * store, no read-modify-write), kept in a block that is never freed; the
 * read functions sum the blocks of every thread that ever counted.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bridge.h"
#include "bridge_internal.h"

/* Extra per-thread counts after the callback slots. */
enum { SDE_TRACE_RECORDS = BRIDGE_CALLBACK_SLOTS, SDE_COUNTS };

typedef struct sde_block {
  _Atomic uint64_t n[SDE_COUNTS];
  struct sde_block *next;
} sde_block_t;

atomic_int bridge_sde_counting;
static _Atomic(sde_block_t *) blocks;
static _Atomic uint64_t orphan[SDE_COUNTS]; /* a thread out of memory */
static __thread sde_block_t *mine __attribute__((tls_model("initial-exec")));

static sde_block_t *block_new(void) {
  sde_block_t *b = calloc(1, sizeof *b);
  if (!b)
    return NULL;
  sde_block_t *head = atomic_load(&blocks);
  do
    b->next = head;
  while (!atomic_compare_exchange_weak(&blocks, &head, b));
  mine = b;
  return b;
}

static inline void count(int slot) {
  sde_block_t *b = mine;
  if (__builtin_expect(!b, 0) && !(b = block_new())) {
    atomic_fetch_add_explicit(&orphan[slot], 1, memory_order_relaxed);
    return;
  }
  atomic_store_explicit(
      &b->n[slot], atomic_load_explicit(&b->n[slot], memory_order_relaxed) + 1,
      memory_order_relaxed);
}

void bridge_sde_record_written(void) {
  if (atomic_load_explicit(&bridge_sde_counting, memory_order_relaxed))
    count(SDE_TRACE_RECORDS);
}

static uint64_t sum(int slot) {
  uint64_t s = atomic_load_explicit(&orphan[slot], memory_order_relaxed);
  for (sde_block_t *b = atomic_load(&blocks); b; b = b->next)
    s += atomic_load_explicit(&b->n[slot], memory_order_relaxed);
  return s;
}

/* ---- The counting wrappers --------------------------------------------------
 * One per callback, with its signature: count, then call what the tool
 * registered (ompt_get_callback still answers the tool's function). */

#define REAL(name, type)                                                       \
  ((type)atomic_load_explicit(&bridge_registered[ompt_callback_##name],        \
                              memory_order_relaxed))
#define WRAP(name, type, params, args)                                         \
  static void wrap_##name params {                                             \
    type real_ = REAL(name, type);                                             \
    if (real_) {                                                               \
      count(ompt_callback_##name);                                             \
      real_ args;                                                              \
    }                                                                          \
  }

WRAP(thread_begin, ompt_callback_thread_begin_t,
     (ompt_thread_t a, ompt_data_t *b), (a, b))
WRAP(thread_end, ompt_callback_thread_end_t, (ompt_data_t * a), (a))
WRAP(parallel_begin, ompt_callback_parallel_begin_t,
     (ompt_data_t * a, const ompt_frame_t *b, ompt_data_t *c, unsigned d, int e,
      const void *f),
     (a, b, c, d, e, f))
WRAP(parallel_end, ompt_callback_parallel_end_t,
     (ompt_data_t * a, ompt_data_t *b, int c, const void *d), (a, b, c, d))
WRAP(task_create, ompt_callback_task_create_t,
     (ompt_data_t * a, const ompt_frame_t *b, ompt_data_t *c, int d, int e,
      const void *f),
     (a, b, c, d, e, f))
WRAP(task_schedule, ompt_callback_task_schedule_t,
     (ompt_data_t * a, ompt_task_status_t b, ompt_data_t *c), (a, b, c))
WRAP(implicit_task, ompt_callback_implicit_task_t,
     (ompt_scope_endpoint_t a, ompt_data_t *b, ompt_data_t *c, unsigned d,
      unsigned e, int f),
     (a, b, c, d, e, f))
WRAP(target, ompt_callback_target_t,
     (ompt_target_t a, ompt_scope_endpoint_t b, int c, ompt_data_t *d,
      ompt_id_t e, const void *f),
     (a, b, c, d, e, f))
WRAP(target_data_op, ompt_callback_target_data_op_t,
     (ompt_id_t a, ompt_id_t b, ompt_target_data_op_t c, void *d, int e,
      void *f, int g, size_t h, const void *i),
     (a, b, c, d, e, f, g, h, i))
WRAP(target_submit, ompt_callback_target_submit_t,
     (ompt_id_t a, ompt_id_t b, unsigned c), (a, b, c))
WRAP(device_initialize, ompt_callback_device_initialize_t,
     (int a, const char *b, ompt_device_t *c, ompt_function_lookup_t d,
      const char *e),
     (a, b, c, d, e))
WRAP(device_finalize, ompt_callback_device_finalize_t, (int a), (a))
WRAP(device_load, ompt_callback_device_load_t,
     (int a, const char *b, int64_t c, void *d, size_t e, void *f, void *g,
      uint64_t h),
     (a, b, c, d, e, f, g, h))
WRAP(device_unload, ompt_callback_device_unload_t, (int a, uint64_t b), (a, b))
WRAP(sync_region_wait, ompt_callback_sync_region_t,
     (ompt_sync_region_t a, ompt_scope_endpoint_t b, ompt_data_t *c,
      ompt_data_t *d, const void *e),
     (a, b, c, d, e))
WRAP(mutex_released, ompt_callback_mutex_t,
     (ompt_mutex_t a, ompt_wait_id_t b, const void *c), (a, b, c))
WRAP(dependences, ompt_callback_dependences_t,
     (ompt_data_t * a, const ompt_dependence_t *b, int c), (a, b, c))
WRAP(task_dependence, ompt_callback_task_dependence_t,
     (ompt_data_t * a, ompt_data_t *b), (a, b))
WRAP(work, ompt_callback_work_t,
     (ompt_work_t a, ompt_scope_endpoint_t b, ompt_data_t *c, ompt_data_t *d,
      uint64_t e, const void *f),
     (a, b, c, d, e, f))
WRAP(masked, ompt_callback_masked_t,
     (ompt_scope_endpoint_t a, ompt_data_t *b, ompt_data_t *c, const void *d),
     (a, b, c, d))
WRAP(target_map, ompt_callback_target_map_t,
     (ompt_id_t a, unsigned b, void **c, void **d, size_t *e, unsigned *f,
      const void *g),
     (a, b, c, d, e, f, g))
WRAP(sync_region, ompt_callback_sync_region_t,
     (ompt_sync_region_t a, ompt_scope_endpoint_t b, ompt_data_t *c,
      ompt_data_t *d, const void *e),
     (a, b, c, d, e))
WRAP(lock_init, ompt_callback_mutex_acquire_t,
     (ompt_mutex_t a, unsigned b, unsigned c, ompt_wait_id_t d, const void *e),
     (a, b, c, d, e))
WRAP(lock_destroy, ompt_callback_mutex_t,
     (ompt_mutex_t a, ompt_wait_id_t b, const void *c), (a, b, c))
WRAP(mutex_acquire, ompt_callback_mutex_acquire_t,
     (ompt_mutex_t a, unsigned b, unsigned c, ompt_wait_id_t d, const void *e),
     (a, b, c, d, e))
WRAP(mutex_acquired, ompt_callback_mutex_t,
     (ompt_mutex_t a, ompt_wait_id_t b, const void *c), (a, b, c))
WRAP(nest_lock, ompt_callback_nest_lock_t,
     (ompt_scope_endpoint_t a, ompt_wait_id_t b, const void *c), (a, b, c))
WRAP(flush, ompt_callback_flush_t, (ompt_data_t * a, const void *b), (a, b))
WRAP(cancel, ompt_callback_cancel_t, (ompt_data_t * a, int b, const void *c),
     (a, b, c))
WRAP(reduction, ompt_callback_sync_region_t,
     (ompt_sync_region_t a, ompt_scope_endpoint_t b, ompt_data_t *c,
      ompt_data_t *d, const void *e),
     (a, b, c, d, e))
WRAP(dispatch, ompt_callback_dispatch_t,
     (ompt_data_t * a, ompt_data_t *b, ompt_dispatch_t c, ompt_data_t d),
     (a, b, c, d))
WRAP(target_emi, ompt_callback_target_emi_t,
     (ompt_target_t a, ompt_scope_endpoint_t b, int c, ompt_data_t *d,
      ompt_data_t *e, ompt_data_t *f, const void *g),
     (a, b, c, d, e, f, g))
WRAP(target_data_op_emi, ompt_callback_target_data_op_emi_t,
     (ompt_scope_endpoint_t a, ompt_data_t *b, ompt_data_t *c, ompt_id_t *d,
      ompt_target_data_op_t e, void *f, int g, void *h, int i, size_t j,
      const void *k),
     (a, b, c, d, e, f, g, h, i, j, k))
WRAP(target_submit_emi, ompt_callback_target_submit_emi_t,
     (ompt_scope_endpoint_t a, ompt_data_t *b, ompt_id_t *c, unsigned d),
     (a, b, c, d))
WRAP(target_map_emi, ompt_callback_target_map_emi_t,
     (ompt_data_t * a, unsigned b, void **c, void **d, size_t *e, unsigned *f,
      const void *g),
     (a, b, c, d, e, f, g))
WRAP(error, ompt_callback_error_t,
     (ompt_severity_t a, const char *b, size_t c, const void *d), (a, b, c, d))

/* control_tool returns the tool's answer. */
static int wrap_control_tool(uint64_t a, uint64_t b, void *c, const void *d) {
  ompt_callback_control_tool_t f =
      REAL(control_tool, ompt_callback_control_tool_t);
  if (!f)
    return -1; /* omp_control_tool_nocallback */
  count(ompt_callback_control_tool);
  return f(a, b, c, d);
}

static const ompt_callback_t wrappers[BRIDGE_CALLBACK_SLOTS] = {
#define X(name, result) [ompt_callback_##name] = (ompt_callback_t)wrap_##name,
    BRIDGE_CALLBACK_LIST(X)
#undef X
};

ompt_callback_t bridge_sde_callback(int which, ompt_callback_t registered) {
  if (!registered ||
      !atomic_load_explicit(&bridge_sde_counting, memory_order_relaxed) ||
      which <= 0 || which >= BRIDGE_CALLBACK_SLOTS || !wrappers[which])
    return registered;
  return wrappers[which];
}

/* ---- Registration with libsde -------------------------------------------- */

typedef void *(*sde_init_fn)(const char *);
typedef int (*sde_register_cb_fn)(void *, const char *, int, int,
                                  long long (*)(void *), void *);
typedef int (*sde_describe_fn)(void *, const char *, const char *);

/* sde_lib.h's values (the header is not needed to build libpompt). */
#define SDE_RO 0x00
#define SDE_DELTA 0x00
#define SDE_INSTANT 0x10
#define SDE_LONG_LONG 0x0

/* The first read switches counting on (the file's comment says why). */
static void reading(void) {
  int off = 0;
  if (atomic_compare_exchange_strong(&bridge_sde_counting, &off, 1)) {
    bridge_tables_update();
    bridge_log("PAPI SDE: counters are being read: callbacks are counted");
  }
}

static long long read_slot(void *arg) {
  reading();
  return (long long)sum((int)(intptr_t)arg);
}

static long long read_total(void *arg) {
  (void)arg;
  reading();
  uint64_t s = 0;
  for (int i = 1; i < BRIDGE_CALLBACK_SLOTS; i++)
    s += sum(i);
  return (long long)s;
}

static long long read_lost(void *arg) {
  (void)arg;
  return (long long)bridge_trace_records_lost();
}

/* Counters of the POMP layer, registered before activation. */
#define SDE_EXTRA 4
static struct {
  const char *name, *description;
  long long (*read)(void *);
  void *arg;
  int instant;
} extra[SDE_EXTRA];

void bridge_sde_counter(const char *name, const char *description,
                        long long (*read)(void *), void *arg, int instant) {
  for (int i = 0; i < SDE_EXTRA; i++)
    if (!extra[i].name) {
      extra[i].name = name;
      extra[i].description = description;
      extra[i].read = read;
      extra[i].arg = arg;
      extra[i].instant = instant;
      return;
    }
}

/* libsde's registration entries and pompt's handle there. */
typedef struct sde_lib {
  sde_register_cb_fn reg;
  sde_describe_fn describe; /* NULL in libsde versions without it */
  void *handle;
} sde_lib_t;

/* Registers one read-only counter (kind SDE_DELTA or SDE_INSTANT) with its
 * description: 1 when libsde took it. */
static int register_counter(const sde_lib_t *sde, const char *name, int kind,
                            long long (*read)(void *), void *arg,
                            const char *description) {
  if (sde->reg(sde->handle, name, SDE_RO | kind, SDE_LONG_LONG, read, arg) != 0)
    return 0;
  if (sde->describe)
    sde->describe(sde->handle, name, description);
  return 1;
}

/* LeakSanitizer's switch, where the program runs under it (weak: present
 * only in a sanitized process).  libsde keeps the names of the counters
 * registered with it for the process's life, in memory it no longer
 * points to: a sanitized program run with a tool would otherwise end with
 * a leak report (and exit status) for what libpompt made libsde
 * allocate. */
extern void __lsan_disable(void) __attribute__((weak));
extern void __lsan_enable(void) __attribute__((weak));

static void sde_register_all(void *h, const char *lib);

void bridge_sde_start(void) {
  const char *lib = "libsde.so.1";
#ifdef POMPT_STATIC_LIB
  /* A static program that dlopens a shared library gets a second C library
   * with its own heap and thread state: PAPI (also static there) cannot see
   * what it registers anyway. */
  bridge_log("PAPI SDE: not in a static program: no software-defined events");
  (void)lib;
  return;
#endif
  /* RTLD_GLOBAL: PAPI looks libsde's symbols up in the global scope. */
  void *h = dlopen(lib, RTLD_NOW | RTLD_GLOBAL);
  if (!h) {
    bridge_log("PAPI SDE: %s not loaded (%s): no software-defined events", lib,
               dlerror());
    return;
  }
  int quiet = __lsan_disable && __lsan_enable;
  if (quiet)
    __lsan_disable();
  sde_register_all(h, lib);
  if (quiet)
    __lsan_enable();
}

static void sde_register_all(void *h, const char *lib) {
  sde_init_fn init = (sde_init_fn)dlsym(h, "papi_sde_init");
  sde_register_cb_fn reg =
      (sde_register_cb_fn)dlsym(h, "papi_sde_register_counter_cb");
  sde_describe_fn describe =
      (sde_describe_fn)dlsym(h, "papi_sde_describe_counter");
  void *handle = init && reg ? init("pompt") : NULL;
  if (!handle) {
    bridge_log("PAPI SDE: %s has no usable papi_sde_init / "
               "papi_sde_register_counter_cb: no software-defined events",
               lib);
    return;
  }
  sde_lib_t sde = {reg, describe, handle};
  int n = 0;
  char name[64], desc[128];
#define X(cbname, result)                                                      \
  snprintf(name, sizeof name, "callbacks_" #cbname);                           \
  snprintf(desc, sizeof desc,                                                  \
           "OMPT " #cbname " callbacks dispatched to the tool");               \
  n += register_counter(&sde, name, SDE_DELTA, read_slot,                      \
                        (void *)(intptr_t)ompt_callback_##cbname, desc);
  BRIDGE_CALLBACK_LIST(X)
#undef X
  n += register_counter(&sde, "callbacks_total", SDE_DELTA, read_total, NULL,
                        "OMPT callbacks dispatched to the tool, all kinds");
  n += register_counter(&sde, "trace_records_delivered", SDE_DELTA, read_slot,
                        (void *)(intptr_t)SDE_TRACE_RECORDS,
                        "device trace records written into the tool's buffers");
  n += register_counter(&sde, "trace_records_lost", SDE_DELTA, read_lost, NULL,
                        "device trace records lost (no buffer or too small)");
  for (int i = 0; i < SDE_EXTRA && extra[i].name; i++)
    n += register_counter(&sde, extra[i].name,
                          extra[i].instant ? SDE_INSTANT : SDE_DELTA,
                          extra[i].read, extra[i].arg, extra[i].description);
  bridge_log("PAPI SDE: %s loaded; %d events registered as sde:::pompt::*", lib,
             n);
}
