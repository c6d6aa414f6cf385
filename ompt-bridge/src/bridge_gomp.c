/*
 * bridge_gomp.c -- libgomp's entries for parallel regions and tasks,
 * interposed so that the OMPT callbacks that order memory reach the tool
 * where a native runtime delivers them.
 *
 * Instrumented code reports a parallel region just before the construct, but
 * GCC writes the region's shared-data block after that, right before it calls
 * GOMP_parallel.  A tool that orders memory through OMPT (LLVM's Archer
 * makes parallel_begin a happens-before edge for ThreadSanitizer) must see
 * parallel_begin after those writes.  When the program's GOMP_parallel
 * resolves to this one (libpompt comes before libgomp in the lookup order,
 * which is how pomp-link links), the callback is held back until here;
 * otherwise it is delivered at the construct, as before.  Definitions are
 * weak so that a static link against libgomp.a keeps libgomp's.  The static
 * libpompt.a defines the same entries as __wrap_GOMP_<x>, which pomp-link
 * links with --wrap (bridge_gomp_entry.h): a static program gets the same.
 *
 * The same holds at the other end: GCC's outlined function of a region or a
 * task reads its firstprivate values out of the data block in its prologue,
 * before its first statement, where the instrumented begin event is.  A
 * native runtime delivers implicit_task(begin) and task_schedule(switch)
 * before it calls that function, and so does libpompt here: libgomp is
 * handed a trampoline of libpompt's, which begins the implicit task or the
 * task and then calls the program's function; the construct's own begin
 * event then finds it begun and delivers nothing (counts and order are
 * unchanged).  For a task, libgomp gets a data block that starts with a
 * header of libpompt's (the program's function, the task's record) followed
 * by the program's block, and libpompt's copy function, which copies both
 * (through the program's copy function, if GCC made one) and then delivers
 * task_create and the dependences: after the copy, on the creating thread,
 * as a native runtime does.  With cancellation on and no copy function of
 * the program's, libgomp copies the block with its memcpy (no instrumented
 * access, so task_create comes before GOMP_task): libgomp runs every task
 * that has a copy function, even one whose taskgroup or region was
 * cancelled before it started.  A detachable task's event handle, which
 * libgomp writes at the start of the data block it is given, is moved to
 * the program's block and made known to bridge_detach.c before the task
 * can begin.
 *
 * A task construct that hands its tasks over (pomp.h, POMPT_Task_hand)
 * makes no call of its own: GOMP_task makes the task's record from the
 * descriptor and flags the construct left in the thread's lane (recording
 * the construct's call site the first time), and the trampoline ends the
 * task when the program's function returns.
 *
 * The parallel regions of distribute parallel for are started by libgomp
 * entries too (GOMP_parallel, or GOMP_parallel_loop_* for a runtime-
 * scheduled loop): between POMP_Distribute_parallel_enter and _exit the
 * regions the thread starts are the construct's parallel leaf, reported
 * around the region's function (its implicit tasks, their share of the
 * loop as work(loop), the region's end barrier) as for an instrumented
 * parallel construct.
 */
#define _GNU_SOURCE
#include <link.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bridge.h"
#include "bridge_gomp_entry.h"
#include "bridge_internal.h"
#include "bridge_omp.h"
#include "bridge_runtime.h"

/* distribute parallel for: the construct whose parallel leaf this thread
 * starts next (codeptr NULL: none). */
static __thread struct {
  const void *codeptr;
  int loop_work;
} leaf __attribute__((tls_model("initial-exec")));

void bridge_distribute_parallel_enter(int loop_work, const void *codeptr) {
  leaf.codeptr = codeptr;
  leaf.loop_work = loop_work;
}

void bridge_distribute_parallel_exit(void) {
  leaf.codeptr = NULL;
}

typedef void (*gomp_parallel_t)(void (*)(void *), void *, unsigned, unsigned);

typedef unsigned (*gomp_parallel_reductions_t)(void (*)(void *), void *,
                                               unsigned, unsigned);

static gomp_parallel_t real_parallel;
static gomp_parallel_reductions_t real_parallel_reductions;
int bridge_fork_deferred;
GOMP_REAL_DECL(GOMP_parallel);
GOMP_REAL_DECL(GOMP_parallel_reductions);
GOMP_REAL_DECL(GOMP_task);

typedef void (*gomp_task_t)(void (*)(void *), void *, void (*)(void *, void *),
                            long, long, _Bool, unsigned, void **, int, void *);
static gomp_task_t real_task;
void bridge_gomp_missing(const char *entry) {
  fprintf(stderr,
          "pompt: the program calls libgomp's %s but libgomp is not "
          "loaded; link with -fopenmp (pomp-link does)\n",
          entry);
  abort();
}

#ifndef POMPT_STATIC_LIB
/* libgomp, when libpompt loaded it (bridge_gomp_late), and the routines
 * looked up in it since (bridge_omp_late): slots taken by a counter, each
 * published by its name, so that lookups never wait. */
static void *_Atomic late_gomp;
#define LATE_ROUTINES 64
static struct {
  const char *_Atomic name;
  void (*fn)(void);
} late_routines[LATE_ROUTINES];
static atomic_int late_routines_used;

static void (*late_lookup(void *h, const char *name))(void) {
  void *p = dlsym(h, name);
  void (*fn)(void);
  memcpy(&fn, &p, sizeof fn); /* an object pointer to a function's */
  return fn;
}
#endif

void (*bridge_omp_late(const char *name))(void) {
#ifndef POMPT_STATIC_LIB
  void *h = atomic_load_explicit(&late_gomp, memory_order_acquire);
  if (!h)
    return NULL;
  int n = atomic_load_explicit(&late_routines_used, memory_order_acquire);
  for (int i = 0; i < n && i < LATE_ROUTINES; i++) {
    const char *at =
        atomic_load_explicit(&late_routines[i].name, memory_order_acquire);
    if (at && (at == name || !strcmp(at, name)))
      return late_routines[i].fn;
  }
  void (*fn)(void) = late_lookup(h, name);
  int i = atomic_fetch_add(&late_routines_used, 1);
  if (i < LATE_ROUTINES) {
    late_routines[i].fn = fn;
    atomic_store_explicit(&late_routines[i].name, name, memory_order_release);
  }
  return fn;
#else
  (void)name;
  return NULL;
#endif
}

#ifndef POMPT_STATIC_LIB
/* A link with --as-needed (meson's default) drops libgomp when libpompt
 * defines every libgomp entry the program calls (a region with a critical
 * section and nothing else, say), though the program was built with
 * -fopenmp.  Loaded, it runs the program; libpompt's own references to
 * omp_* routines, resolved without it, find it through bridge_omp_late
 * (bridge_omp.h).  Says so once: the link is to be mended. */
static void *gomp_load_dropped(const char *what) {
  void *h = atomic_load(&late_gomp);
  if (h || !(h = dlopen("libgomp.so.1", RTLD_NOW | RTLD_GLOBAL)))
    return h;
  void *none = NULL;
  if (!atomic_compare_exchange_strong(&late_gomp, &none, h))
    return none;
  fprintf(stderr,
          "pompt: the program calls libgomp's %s but its link dropped "
          "libgomp (--as-needed drops it when libpompt defines every "
          "libgomp entry and routine the program calls); libpompt loaded it "
          "so that the program runs: link with pomp-link, or name -lgomp "
          "after -Wl,--no-as-needed\n",
          what);
  return h;
}

/* Whether a symbol the executable leaves undefined is one that libgomp
 * resolved before --as-needed dropped it: a libgomp entry, a lock routine
 * (libpompt defines them), or a wrapper of an instrumented call of one
 * (which calls the runtime's routine, and finds none). */
static int needs_gomp(const char *name) {
  return !strncmp(name, "GOMP_", 5) ||
         ((!strncmp(name, "omp_", 4) || !strncmp(name, "POMP_Api_omp_", 13)) &&
          strstr(name, "_lock"));
}

/* Whether the first object dl_iterate_phdr reports, the executable, has
 * an undefined symbol needs_gomp names. */
static int exe_calls_gomp(struct dl_phdr_info *info, size_t size, void *found) {
  (void)size;
  const ElfW(Dyn) *dyn = NULL;
  for (int i = 0; i < info->dlpi_phnum; i++)
    if (info->dlpi_phdr[i].p_type == PT_DYNAMIC)
      dyn = (const ElfW(Dyn) *)(info->dlpi_addr + info->dlpi_phdr[i].p_vaddr);
  const ElfW(Sym) *sym = NULL;
  const char *str = NULL;
  const uint32_t *gnu_hash = NULL, *sysv_hash = NULL;
  for (; dyn && dyn->d_tag != DT_NULL; dyn++) {
    /* An address as linked, or as the loader relocated it in place. */
    uintptr_t p = (uintptr_t)dyn->d_un.d_ptr;
    if (p < (uintptr_t)info->dlpi_addr)
      p += (uintptr_t)info->dlpi_addr;
    if (dyn->d_tag == DT_SYMTAB)
      sym = (const ElfW(Sym) *)p;
    else if (dyn->d_tag == DT_STRTAB)
      str = (const char *)p;
    else if (dyn->d_tag == DT_GNU_HASH)
      gnu_hash = (const uint32_t *)p;
    else if (dyn->d_tag == DT_HASH)
      sysv_hash = (const uint32_t *)p;
  }
  /* GNU hash orders the symbols it leaves out (the undefined ones) first,
   * up to its symbol offset; a SysV table counts every symbol. */
  size_t n = !sym || !str ? 0
             : gnu_hash   ? gnu_hash[1]
             : sysv_hash  ? sysv_hash[1]
                          : 0;
  for (size_t i = 1; i < n; i++)
    if (sym[i].st_shndx == SHN_UNDEF && needs_gomp(str + sym[i].st_name)) {
      *(int *)found = 1;
      break;
    }
  return 1; /* the executable only */
}

/* Before the tool starts and libpompt looks up libgomp's entries
 * (bridge_gomp_setup): an executable that calls them, in a process without
 * an OpenMP runtime, lost libgomp in its link. */
__attribute__((constructor(101))) static void gomp_dropped_setup(void) {
  if (dlsym(RTLD_DEFAULT, "omp_get_num_threads"))
    return; /* a runtime is there (libgomp, the serial stubs, another) */
  int found = 0;
  dl_iterate_phdr(exe_calls_gomp, &found);
  if (found)
    gomp_load_dropped("entries or lock routines");
}
#endif

void (*bridge_gomp_late(const char *entry))(void) {
#ifndef POMPT_STATIC_LIB
  /* Where the executable does not call them itself: a library linked with
   * libpompt and without libgomp, say. */
  void *h = gomp_load_dropped(entry);
  void (*fn)(void) = h ? late_lookup(h, entry) : NULL;
  if (fn)
    return fn;
#endif
  bridge_gomp_missing(entry);
}

/* ---- Regions reported around their function ------------------------------
 * The parallel leaf of distribute parallel for, and every region that no
 * instrumented construct announced (no fork pending on the thread): code
 * not compiled by pomp-cc (a library built with plain gcc -fopenmp, the
 * host fallback of a target region), a parallel construct pomp-instr left
 * out (--disable=parallel).  libgomp's entry is all there is of such a
 * region; it is reported from there, as a native runtime reports every
 * region it starts: parallel_begin/end with the entry's return address as
 * codeptr_ra, each thread's implicit task around the region's function
 * and its end barrier, and for the combined loop entries the loop as
 * work. */

/* The calling thread's part of such a region before and after the
 * region's function: the implicit task, and its share of the loop (or the
 * sections) as the worksharing leaf.  enter returns whether the loop's
 * chunks were pushed, for leave; *outer keeps the thread's leaf (a region
 * inside is not the leaf). */
static inline __attribute__((always_inline)) int
entry_region_enter(entry_region_t *lr, void *frame, const void **outer) {
  *outer = leaf.codeptr;
  leaf.codeptr = NULL;
  bridge_parallel_begin(&lr->team, frame);
  /* The POMP group of a combined construct's worksharing leaf. */
  int bucket = lr->loop_work == ompt_work_sections ? BRIDGE_B_WORKSHARE_EE
                                                   : BRIDGE_B_LOOP_EE;
  if (lr->loop_work)
    bridge_work_begin(bucket, (ompt_work_t)lr->loop_work, 0, lr->codeptr,
                      frame);
  /* The loop's chunks come from the thread's next calls (no start call). */
  return lr->loop_incr &&
         bridge_gomp_chunks_push((uint64_t)lr->loop_start,
                                 (uint64_t)lr->loop_incr, lr->loop_incr < 0);
}

static inline __attribute__((always_inline)) void
entry_region_leave(entry_region_t *lr, int chunks, const void *outer,
                   void *frame) {
  int bucket = lr->loop_work == ompt_work_sections ? BRIDGE_B_WORKSHARE_EE
                                                   : BRIDGE_B_LOOP_EE;
  if (chunks)
    bridge_gomp_chunks_pop();
  if (lr->loop_work)
    bridge_work_end(bucket, (ompt_work_t)lr->loop_work, lr->codeptr, frame);
  bridge_parallel_left(&lr->team, lr->codeptr, frame);
  leaf.codeptr = outer;
}

int bridge_entry_region_enter(entry_region_t *lr, void *frame,
                              const void **outer) {
  return entry_region_enter(lr, frame, outer);
}

void bridge_entry_region_leave(entry_region_t *lr, int chunks,
                               const void *outer, void *frame) {
  entry_region_leave(lr, chunks, outer, frame);
}

/* The region's function on each of its threads. */
BRIDGE_TRAMPOLINE void bridge_entry_region_run(void *arg) {
  entry_region_t *lr = arg;
  void *frame = BRIDGE_FRAME_KEPT();
  const void *outer;
  int chunks = entry_region_enter(lr, frame, &outer);
  lr->fn(lr->data);
  entry_region_leave(lr, chunks, outer, frame);
  __asm__ __volatile__(""); /* keep this frame until the end */
}

int bridge_entry_region_begin(entry_region_t *lr, void (*fn)(void *),
                              void *data, unsigned num_threads, void *frame,
                              const void *caller, int work) {
  bridge_thread_t *t = bridge_thread_peek();
  if (!bridge_active || (t && t->fork_pending))
    return 0;
  int leaf_region = leaf.codeptr != NULL;
  /* Without deferred forks an instrumented construct's parallel_begin is
   * delivered at its event, and no fork is pending here for it either. */
  if (!leaf_region && !bridge_fork_deferred)
    return 0;
  lr->fn = fn;
  lr->data = data;
  lr->loop_incr = 0;
  if (leaf_region) {
    lr->codeptr = leaf.codeptr;
    lr->loop_work = leaf.loop_work;
    /* With a dist_schedule chunk size, each region is the team's next
     * distribute chunk (bridge_loop.c). */
    bridge_distribute_region_start(frame);
  } else {
    lr->codeptr = gomp_codeptr(caller);
    lr->loop_work = work;
  }
  /* GCC passes 1 for if(false), 0 for the default team size. */
  int requested = num_threads           ? (int)num_threads
                  : omp_get_max_threads ? omp_get_max_threads()
                                        : 1;
  bridge_parallel_enter(&lr->team, requested, 0, lr->codeptr, frame);
  /* Before libgomp starts the team, which orders it before its reads. */
  bridge_team_t *team = (bridge_team_t *)(void *)&lr->team;
  if (!leaf_region)
    team->origin |= BRIDGE_TEAM_OPAQUE;
  t = bridge_thread_peek();
  if (t && t->fork_pending)
    bridge_fork_deliver(t);
  return 1;
}

/* A region of an instrumented parallel construct: its function runs on
 * each thread of the team after the thread's implicit task began.  The
 * function and its data travel in the team's record. */
BRIDGE_TRAMPOLINE static void region_run(void *arg) {
  bridge_team_t *team = arg;
  void (*fn)(void *) = team->region_fn;
  void *data = team->region_data;
  void *frame = BRIDGE_FRAME_KEPT();
  /* Marks the task begun: Parallel_begin delivers nothing more. */
  bridge_parallel_begin_early((POMP_Team_t *)team, frame);
  fn(data);
  /* The task leaves its block here, and any reduction GCC combined after
   * it ends. */
  bridge_parallel_returned((POMP_Team_t *)team, frame);
}

/* With a tool active: an instrumented construct's region (its fork is
 * pending on this thread) or a region to report around its function.
 * Apart from GOMP_parallel so that the entry point without a tool is a
 * load, a branch and a tail call into libgomp. */
static __attribute__((noinline)) void
parallel_observed(void (*fn)(void *), void *data, unsigned num_threads,
                  unsigned flags, void *frame, const void *caller) {
  bridge_thread_t *t = bridge_thread_peek();
  bridge_team_t *team = t ? t->fork_pending : NULL;
  if (team)
    bridge_fork_deliver(t);
  GOMP_REAL_ENSURE(real_parallel, GOMP_parallel);
  if (team) { /* an instrumented parallel construct */
    /* parallel_enter made the record defined for memcheck */
    BRIDGE_TEAM_SET(team->region_fn, fn);
    BRIDGE_TEAM_SET(team->region_data, data);
    real_parallel(region_run, team, num_threads, flags);
    return;
  }
  entry_region_t lr;
  if (bridge_entry_region_begin(&lr, fn, data, num_threads, frame, caller, 0)) {
    real_parallel(bridge_entry_region_run, &lr, num_threads, flags);
    bridge_parallel_exit(&lr.team, lr.codeptr, frame);
    return;
  }
  real_parallel(fn, data, num_threads, flags);
}

GOMP_EXPORT void GOMP_ENTRY(GOMP_parallel)(void (*fn)(void *), void *data,
                                           unsigned num_threads,
                                           unsigned flags) {
  if (__builtin_expect(bridge_active || !real_parallel, 0)) {
    parallel_observed(fn, data, num_threads, flags, BRIDGE_FRAME(),
                      __builtin_return_address(0));
    __asm__ __volatile__(""); /* frame passed: no tail call */
    return;
  }
  real_parallel(fn, data, num_threads, flags);
}

/* The combined entries that start a region and its loop's work share (GCC
 * uses them for a parallel loop with a schedule other than static, and for
 * the parallel leaf of distribute parallel for with a runtime schedule;
 * pomp-instr splits every other combined construct).  WORK: the loop's
 * ompt_work_t when the region is reported as no instrumented construct's. */
typedef void (*gomp_parallel_loop_t)(void (*)(void *), void *, unsigned, long,
                                     long, long, long, unsigned);
typedef void (*gomp_parallel_loop_rt_t)(void (*)(void *), void *, unsigned,
                                        long, long, long, unsigned);
/* Both shapes share one body: ARGS are the loop arguments between the
 * team size and the flags. */
#define PARALLEL_LOOP_ENTRY(name, type, params, args, work, bounds)            \
  GOMP_REAL_DECL(name);                                                        \
  static type real_##name;                                                     \
  static __attribute__((noinline)) void name##_observed(                       \
      void (*fn)(void *), void *data, unsigned nt, params, unsigned flags,     \
      void *frame, const void *caller) {                                       \
    GOMP_REAL_ENSURE(real_##name, name);                                       \
    entry_region_t lr;                                                         \
    if (bridge_entry_region_begin(&lr, fn, data, nt, frame, caller, (work))) { \
      if (!leaf.codeptr) /* no instrumented construct's leaf */                \
        bounds;                                                                \
      real_##name(bridge_entry_region_run, &lr, nt, args, flags);              \
      bridge_parallel_exit(&lr.team, lr.codeptr, frame);                       \
      return;                                                                  \
    }                                                                          \
    real_##name(fn, data, nt, args, flags);                                    \
  }                                                                            \
  GOMP_EXPORT void GOMP_ENTRY(name)(void (*fn)(void *), void *data,            \
                                    unsigned nt, params, unsigned flags) {     \
    if (__builtin_expect(bridge_active || !real_##name, 0)) {                  \
      name##_observed(fn, data, nt, args, flags, BRIDGE_FRAME(),               \
                      __builtin_return_address(0));                            \
      __asm__ __volatile__("");                                                \
      return;                                                                  \
    }                                                                          \
    real_##name(fn, data, nt, args, flags);                                    \
  }
#define COMMA ,
#define LOOP_BOUNDS (lr.loop_start = s, lr.loop_incr = i)
#define PARALLEL_LOOP(name, work)                                              \
  PARALLEL_LOOP_ENTRY(name, gomp_parallel_loop_t,                              \
                      long s COMMA long e COMMA long i COMMA long ch,          \
                      s COMMA e COMMA i COMMA ch, work, LOOP_BOUNDS)
#define PARALLEL_LOOP_RT(name)                                                 \
  PARALLEL_LOOP_ENTRY(name, gomp_parallel_loop_rt_t,                           \
                      long s COMMA long e COMMA long i, s COMMA e COMMA i,     \
                      bridge_loop_work_runtime(), LOOP_BOUNDS)
PARALLEL_LOOP(GOMP_parallel_loop_static, ompt_work_loop_static)
PARALLEL_LOOP(GOMP_parallel_loop_dynamic, ompt_work_loop_dynamic)
PARALLEL_LOOP(GOMP_parallel_loop_guided, ompt_work_loop_guided)
PARALLEL_LOOP(GOMP_parallel_loop_nonmonotonic_dynamic, ompt_work_loop_dynamic)
PARALLEL_LOOP(GOMP_parallel_loop_nonmonotonic_guided, ompt_work_loop_guided)
PARALLEL_LOOP_RT(GOMP_parallel_loop_runtime)
PARALLEL_LOOP_RT(GOMP_parallel_loop_nonmonotonic_runtime)
PARALLEL_LOOP_RT(GOMP_parallel_loop_maybe_nonmonotonic_runtime)
/* parallel sections, whose threads take their sections from
 * GOMP_sections_next: the sections' work around the region's function. */
typedef void (*gomp_parallel_sections_t)(void (*)(void *), void *, unsigned,
                                         unsigned, unsigned);
PARALLEL_LOOP_ENTRY(GOMP_parallel_sections, gomp_parallel_sections_t,
                    unsigned count, count, ompt_work_sections, (void)0)

GOMP_EXPORT unsigned GOMP_ENTRY(GOMP_parallel_reductions)(void (*fn)(void *),
                                                          void *data,
                                                          unsigned num_threads,
                                                          unsigned flags) {
  GOMP_REAL_ENSURE(real_parallel_reductions, GOMP_parallel_reductions);
  bridge_thread_t *t = bridge_thread_peek();
  if (t && t->fork_pending) {
    /* An instrumented construct's region: its events report it (the team
     * record cannot stand for the block, whose first word libgomp reads). */
    bridge_fork_deliver(t);
  } else {
    void *frame = BRIDGE_FRAME();
    entry_region_t lr; /* begun only with a tool active */
    if (bridge_entry_region_begin(&lr, fn, data, num_threads, frame,
                                  __builtin_return_address(0), 0)) {
      /* libgomp takes the task reductions from the block's first word (GCC
       * puts its pointer to them there) and passes the block on untouched
       * to the region's function: the wrapper starts with that word. */
      lr.reductions = *(void **)data;
      unsigned n = real_parallel_reductions(bridge_entry_region_run, &lr,
                                            num_threads, flags);
      bridge_parallel_exit(&lr.team, lr.codeptr, frame);
      __asm__ __volatile__(""); /* frame passed: no tail call */
      return n;
    }
  }
  return real_parallel_reductions(fn, data, num_threads, flags);
}

/* ---- Tasks ------------------------------------------------------------- */

/* The start of the block libgomp gets: the first word is where libgomp
 * writes a detachable task's event handle (into the block it is given, and
 * GCC places the handle's variable there in its own block). */
typedef struct task_hdr {
  void *event;
  void (*fn)(void *); /* the program's outlined function */
  bridge_task_t *rec; /* the task's record, and its generation then */
  unsigned gen;
  unsigned char handed; /* handed over by its construct (POMPT_Task_hand) */
  long off;             /* where the program's block starts */
} task_hdr_t;

/* What libpompt's copy function copies from. */
typedef struct task_src {
  task_hdr_t h;
  void (*cpyfn)(void *, void *); /* the program's, or NULL: memcpy */
  void *data;
  long size;
  void **detach; /* the program's event variable, or NULL */
} task_src_t;

/* libgomp calls the copy function once, on the creating thread, after it
 * allocated the task (and wrote a detachable task's event handle) and
 * before it queues or runs it: the place where the task's data exists and
 * nothing has read it yet. */
static void task_copy(void *dst, void *src) {
  task_src_t *s = src;
  task_hdr_t *h = dst;
  /* Field by field, as GOMP_task stored them a moment ago: a copy of the
   * whole header reads them back with wider loads, which stall. */
  h->event = s->h.event;
  h->fn = s->h.fn;
  h->rec = s->h.rec;
  h->gen = s->h.gen;
  h->handed = s->h.handed;
  h->off = s->h.off;
  if (h->event && s->data) /* as libgomp writes it into the given block */
    *(void **)s->data = h->event;
  if (s->cpyfn)
    s->cpyfn((char *)dst + h->off, s->data);
  else if (s->size > 0)
    memcpy((char *)dst + h->off, s->data, (size_t)s->size);
  if (s->detach)
    bridge_detach_register(h->rec, h->gen, *s->detach);
  bridge_thread_t *t = bridge_thread_peek();
  if (t)
    bridge_create_deliver(t);
}

/* The task's function, on the thread that runs it.  A task its construct
 * handed over makes no call of its own: it begins and ends around its
 * function (bridge_task_handed_run). */
BRIDGE_TRAMPOLINE static void task_run(void *arg) {
  task_hdr_t *h = arg;
  void *block = (char *)arg + h->off;
  if (h->event) {
    *(void **)block = h->event;
    bridge_detach_register(h->rec, h->gen, h->event);
  }
  if (h->handed) {
    bridge_task_handed_run(h->rec, h->gen, h->fn, block);
    return;
  }
  void *frame = BRIDGE_FRAME_KEPT(); /* the routine that calls h->fn */
  bridge_task_begin_early(h->rec, h->gen, frame, block);
  h->fn(block);
  bridge_task_returned(h->rec, h->gen, frame, 0);
  __asm__ __volatile__(""); /* keep this frame (the task's exit frame) */
}

/* Blocks up to this size (header included) are built on the stack. */
#define TASK_BLOCK_STACK 512

/* With cancellation on and no copy function of the program's: libgomp
 * copies [header, program's block] with memcpy (or, undeferred, runs the
 * task on it as it is), built here, aligned as the program's block must be.
 * libgomp's memcpy is no access to order: task_create comes first.  Apart
 * (noinline), so that the common path's frame stays small: undeferred
 * tasks nest on the stack. */
static __attribute__((noinline)) void
task_by_memcpy(bridge_thread_t *t, const task_hdr_t *h, void *data,
               long arg_size, long al, _Bool if_clause, unsigned flags,
               void **depend, int priority, void *detach, void **event_var) {
  size_t size = (size_t)(h->off + arg_size) + (size_t)al;
  _Alignas(16) char stack[TASK_BLOCK_STACK];
  char *mem = size <= sizeof stack ? stack : malloc(size);
  bridge_create_deliver(t);
  if (!mem) { /* the task begins at its Task_begin, as without libpompt */
    real_task(h->fn, data, NULL, arg_size, al, if_clause, flags, depend,
              priority, detach);
    return;
  }
  char *block =
      (char *)(((uintptr_t)mem + (uintptr_t)al - 1) & ~((uintptr_t)al - 1));
  memcpy(block, h, sizeof *h);
  if (arg_size > 0)
    memcpy(block + h->off, data, (size_t)arg_size);
  real_task(task_run, block, NULL, h->off + arg_size, al, if_clause, flags,
            depend, priority, detach);
  if (event_var) /* unless the task registered it when it began */
    bridge_detach_register(h->rec, h->gen, *event_var);
  if (mem != stack)
    free(mem);
}

/* The dependences of a depend array as GCC passes it to GOMP_task, in
 * libgomp's two layouts: {n, n_out, addresses...}, or {0, n, n_out,
 * n_mutexinoutset, n_in, addresses..., depobjs...}.  GCC lists out and
 * inout items as one group, which libgomp treats alike: reported as inout.
 * A depobj (omp_depend_t) is an address and libgomp's kind.  In the
 * thread's scratch buffer (bridge_deps_scratch): *n items, or NULL (*n 0)
 * when memory is out. */
static POMP_Dependence_t *gomp_depend_decode(bridge_thread_t *t, void **depend,
                                             int *n) {
  size_t total = (uintptr_t)depend[0], nout, nmutex = 0, nin, base = 2;
  if (total) {
    nout = (uintptr_t)depend[1];
    nin = total - nout;
  } else {
    total = (uintptr_t)depend[1];
    nout = (uintptr_t)depend[2];
    nmutex = (uintptr_t)depend[3];
    nin = (uintptr_t)depend[4];
    base = 5;
  }
  *n = 0;
  POMP_Dependence_t *d =
      total && total < (1u << 20) ? bridge_deps_scratch(t, (int)total) : NULL;
  if (!d)
    return NULL;
  for (size_t i = 0; i < total; i++) {
    void *addr = depend[base + i];
    if (i >= nout + nmutex + nin) { /* a depobj */
      d[i] = gomp_depobj_read(addr);
      continue;
    }
    d[i].addr = addr;
    d[i].type = i < nout            ? ompt_dependence_type_inout
                : i < nout + nmutex ? ompt_dependence_type_mutexinoutset
                                    : ompt_dependence_type_in;
  }
  *n = (int)total;
  return d;
}

/* With a tool active, or before libgomp's entry is known (apart, so that
 * GOMP_task without a tool saves no registers before its tail call into
 * libgomp; GOMP_task's no-tool path jumps here by this name). */
__attribute__((noinline, used)) void
task_observed(void (*fn)(void *), void *data, void (*cpyfn)(void *, void *),
              long arg_size, long arg_align, _Bool if_clause, unsigned flags,
              void **depend, int priority,
              void *detach) __asm__("bridge_gomp_task_observed");
void task_observed(void (*fn)(void *), void *data,
                   void (*cpyfn)(void *, void *), long arg_size, long arg_align,
                   _Bool if_clause, unsigned flags, void **depend, int priority,
                   void *detach) {
  GOMP_REAL_ENSURE(real_task, GOMP_task);
  bridge_thread_t *t = bridge_thread_peek();
  bridge_task_t *rec = t ? t->create_pending.rec : NULL;
  unsigned char handed = 0;
#ifdef GOMP_JUMP_ENTRIES
  /* Reached by a jump from GOMP_task: the frame is the program's at its
   * call, as a native runtime's task entry has it. */
  void *frame = BRIDGE_FRAME();
  bridge_task_handed_t hd = {NULL, 0};
  POMPT_Lane_t *l = &POMPT_lane_v2;
  POMPT_Desc_t *d = l->task;
  if (d) { /* a construct handed its task over (POMPT_Task_hand) */
    l->task = NULL;
    if (!rec && arg_size >= 0) {
      /* The program's call of GOMP_task, in the construct's code, as a
       * native runtime's task entry is called there. */
      const void *codeptr = __builtin_return_address(0);
      pomp_task_seen(d, codeptr);
      rec = bridge_task_handed_create(&hd, l->task_flags, codeptr, frame);
      t = bridge_self;
      handed = rec != NULL;
    }
  } else if (!rec && arg_size >= 0 && bridge_fork_deferred) {
    /* No instrumented construct announced this task (every one hands its
     * task over, or has its creation pending): code pomp-cc did not
     * compile.  It is created and run as a handed task, without a
     * construct's region (doc/ompt-mapping.md, "Code pomp-cc did not
     * compile"), its dependences read from libgomp's depend array, its
     * event (detach) learnt as an instrumented construct's is, its
     * fulfilment seen by libpompt's omp_fulfill_event. */
    /* The general path bridge_task_handed_create takes when it must, so
     * that the handed path's call stays the one it inlines. */
    hd.how = BRIDGE_HANDED_GENERAL;
    int has_deps = (flags & GOMP_TASK_FLAG_DEPEND) && depend;
    rec = (bridge_task_t *)bridge_task_create_begin_word(
        gomp_task_pomp_flags(flags, if_clause) |
            (has_deps ? POMP_TASK_HAS_DEPEND : 0) |
            (flags & GOMP_TASK_FLAG_DETACH ? POMP_TASK_DETACH : 0),
        gomp_codeptr(__builtin_return_address(0)), frame);
    t = bridge_self;
    handed = rec != NULL;
    if (rec && has_deps) {
      int n;
      /* held as the creation's until it is delivered (below) */
      POMP_Dependence_t *deps = gomp_depend_decode(t, depend, &n);
      if (deps)
        bridge_task_dependences_word((uintptr_t)rec, deps, n);
    }
  }
#endif
  if (!rec || arg_size < 0) {
    real_task(fn, data, cpyfn, arg_size, arg_align, if_clause, flags, depend,
              priority, detach);
    return;
  }
  rec->mem_size = (size_t)arg_size; /* where: when it begins */
  long al = arg_align > (long)_Alignof(task_hdr_t) ? arg_align
                                                   : (long)_Alignof(task_hdr_t);
  /* An alignment is a power of two (no division on the task's path). */
  long off = ((long)sizeof(task_hdr_t) + al - 1) & -al;
  void **event_var = (flags & GOMP_TASK_FLAG_DETACH) ? detach : NULL;
  /* Built in place: a header built apart and then copied in is read back
   * with wider loads than it was stored with, which stalls the copy. */
  task_src_t src = {{NULL, fn, rec, atomic_load(&rec->gen), handed, off},
                    cpyfn,
                    data,
                    arg_size,
                    event_var};
  /* Whether libgomp may discard a task it has not started: then only a
   * task with a copy function of the program's gets one (libgomp runs
   * every task that has one), and the others are tracked so that their
   * discarding is reported (bridge_discard.c). */
  if (!cpyfn && bridge_cancellation_on()) {
    bridge_discard_track(t, rec, NULL);
    task_by_memcpy(t, &src.h, data, arg_size, al, if_clause, flags, depend,
                   priority, detach, event_var);
  } else {
    real_task(task_run, &src, task_copy, off + arg_size, al, if_clause, flags,
              depend, priority, detach);
  }
#ifdef GOMP_JUMP_ENTRIES
  if (handed) /* the scheduling point the construct would have closed */
    bridge_task_handed_created(&hd, frame);
#endif
}

#ifdef GOMP_JUMP_ENTRIES
/* Without a tool, one compare and a jump into libgomp: in C, GCC reloads
 * and stores back the four arguments passed on the stack before its tail
 * call (18 of the 24 instructions this entry was); a task with no tool is a
 * few dozen instructions in all (doc/performance.md, "A task with no
 * tool"). */
GOMP_JUMP_SLOT(gomp_task_t, jump_task, "bridge_gomp_jump_task", task_observed);
GOMP_JUMP_ENTRY(GOMP_ENTRY(GOMP_task), "bridge_gomp_jump_task",
                "bridge_gomp_task_observed")
#else
GOMP_EXPORT void GOMP_ENTRY(GOMP_task)(void (*fn)(void *), void *data,
                                       void (*cpyfn)(void *, void *),
                                       long arg_size, long arg_align,
                                       _Bool if_clause, unsigned flags,
                                       void **depend, int priority,
                                       void *detach) {
  if (__builtin_expect(bridge_active || !real_task, 0))
    task_observed(fn, data, cpyfn, arg_size, arg_align, if_clause, flags,
                  depend, priority, detach);
  else
    real_task(fn, data, cpyfn, arg_size, arg_align, if_clause, flags, depend,
              priority, detach);
}
#endif

#ifndef POMPT_STATIC_LIB
void *bridge_gomp_real(const char *name) {
  /* libomp ahead of libpompt (preloaded: tau_exec -ompt does so) runs the
   * program's calls of libgomp's entries; libpompt then stands down, and
   * its own calls (a barrier or taskwait its event makes itself) must reach
   * the same runtime: libgomp's taskwait did not wait for libomp's tasks.
   * Not any first definition: a wrapper preloaded in front of libgomp
   * calls the next one, libpompt's, which would call it again. */
  void *first = dlsym(RTLD_DEFAULT, name);
  if (first && bridge_in_native_runtime(first))
    return first;
  void *next = dlsym(RTLD_NEXT, name);
  if (next)
    return next;
  return first && bridge_inside_libpompt(first) ? NULL
                                                : first; /* own: no libgomp */
}
#endif

void bridge_gomp_setup(void) {
  real_task = (gomp_task_t)GOMP_REAL(GOMP_task);
#ifdef GOMP_JUMP_ENTRIES
  if (real_task)
    jump_task = real_task;
#endif
  real_parallel = (gomp_parallel_t)GOMP_REAL(GOMP_parallel);
  real_parallel_reductions =
      (gomp_parallel_reductions_t)GOMP_REAL(GOMP_parallel_reductions);
  /* Defer only when the program's calls come here and can go on. */
  bridge_fork_deferred = real_parallel && real_parallel_reductions &&
                         real_task && GOMP_INTERPOSED(GOMP_task) &&
                         GOMP_INTERPOSED(GOMP_parallel) &&
                         GOMP_INTERPOSED(GOMP_parallel_reductions);
  bridge_log("parallel_begin and task_create delivered %s",
             bridge_fork_deferred ? "when libgomp starts the region or task"
                                  : "at the construct");
  bridge_taskloop_setup();
}

#ifdef POMPT_STATIC_LIB
/* Without --wrap (libpompt.a linked by hand) the program's own. */
extern void GOMP_parallel(void (*)(void *), void *, unsigned, unsigned)
    __attribute__((weak));
#endif

gomp_parallel_t bridge_gomp_parallel_real(void) {
#ifdef POMPT_STATIC_LIB
  if (!real_parallel)
    return GOMP_parallel;
#endif
  return real_parallel;
}

#ifdef POMPT_STATIC_LIB
/* A weak reference: libgomp.a's entry if the link has it (under --wrap,
 * the wrapper, which calls it). */
extern void GOMP_task(void) __attribute__((weak));
#endif

int bridge_have_gomp_task(void) {
  /* Looked up once, in bridge_gomp_setup, at load time. */
#ifdef POMPT_STATIC_LIB
  if (!real_task)
    return GOMP_task != 0;
#endif
  return real_task != 0;
}

void bridge_gomp_tool_started(void) {
  /* A task construct hands its tasks to this GOMP_task (pomp.h,
   * POMPT_Task_hand): where the program's calls go to libgomp's instead,
   * nothing reports them, which the user should hear of. */
#ifdef POMPT_STATIC_LIB
  int elsewhere = !real_task && GOMP_task != 0;
#else
  int elsewhere = real_task && !GOMP_INTERPOSED(GOMP_task);
#endif
  if (elsewhere)
    fprintf(stderr,
            "pompt: the program calls libgomp's GOMP_task before libpompt's "
            "(libgomp comes first in its link): the tasks of its task "
            "constructs go unreported; link with pomp-cc or pomp-link\n");
}
