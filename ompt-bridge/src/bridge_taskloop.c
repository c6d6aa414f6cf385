/*
 * bridge_taskloop.c -- the tasks a taskloop generates, reported as OpenMP
 * 5.2 and native runtimes do: task_create for each on the encountering
 * thread, task_schedule when each starts and completes, and in each
 * dispatch(ompt_dispatch_taskloop_chunk) with its iterations; and the
 * taskloop's implicit taskgroup (sync_region taskgroup, its wait).
 *
 * GCC lowers a taskloop to GOMP_taskloop / GOMP_taskloop_ull: libgomp
 * splits the iterations, copies the data block once per task (through the
 * program's copy function, if any) and writes each task's first and
 * past-the-end iteration into the first two words of its copy.  The
 * tasks' boundaries never appear in the source, so libpompt interposes
 * the entry (the static library as __wrap_GOMP_taskloop[_ull], linked with
 * --wrap: bridge_gomp_entry.h), when the instrumented construct's
 * POMP_Taskloop_enter armed it:
 *  - it hands libgomp a block that holds the program's block after a
 *    header of its own, with the same layout where libgomp looks (the
 *    first two words, and for reductions the third), and its own task
 *    function, which copies the task's bounds into the program's block,
 *    reports the task's start and chunk, runs the program's task function
 *    on the program's block, and reports the completion;
 *  - each task's task_create is delivered on the encountering thread, after
 *    libgomp copied the task's data (a tool that orders memory through
 *    OMPT, such as LLVM's Archer, needs the copy before the edge): from a
 *    copy function of libpompt's that libgomp calls for each task.  Given
 *    a copy function, libgomp copies all of an undeferred taskloop's
 *    blocks on the stack first, and lets tasks of a cancelled taskgroup
 *    run, so one is added only where that cannot matter: the program
 *    has its own, or the copies fit in TL_COPY_STACK and cancellation is
 *    off;
 *    a taskloop known to be undeferred (if(0), final, no team) needs none:
 *    its tasks run on the encountering thread, each created as it starts.
 *    Otherwise the tasks' records are created before libgomp is called,
 *    as many as libgomp's rule (grainsize / num_tasks, iterations, team)
 *    makes, and each task finds its record from its first iteration;
 *  - without nogroup it runs the implicit taskgroup itself (libgomp's
 *    GOMP_taskgroup_start / _end around the call, which gets nogroup), so
 *    that its wait is reported when it happens.  With a reduction the
 *    taskgroup must be libgomp's own (it registers the reduction there):
 *    its wait is then inside the call, and reported after it.
 */
#define _GNU_SOURCE
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "bridge.h"
#include "bridge_gomp_entry.h"
#include "bridge_internal.h"
#include "bridge_omp.h"
#include "bridge_runtime.h"

/* The construct whose GOMP_taskloop call comes next on this thread. */
static __thread const void *armed_codeptr
    __attribute__((tls_model("initial-exec")));

/* The taskloop constructs this thread is in, innermost last (a task of a
 * taskloop, run while its creator waits, may run another).  When
 * GOMP_taskloop is interposed, a construct's work(taskloop) begin is left to
 * the call, which delivers it after the implicit taskgroup's begin and its
 * end before the taskgroup's wait: 5.2 has the taskloop run as if inside a
 * taskgroup, and libomp reports it so. */
enum { TLC_OPEN = 1, TLC_DEFERRED, TLC_DONE };
typedef struct tl_construct {
  const void *codeptr;
  void *frame;
  uint64_t count;
  int state;
} tl_construct_t;
#define TLC_DEPTH 8
static __thread struct {
  tl_construct_t c[TLC_DEPTH];
  int n;
  int armed; /* 1 + the index of the construct whose call comes next */
} tlc __attribute__((tls_model("initial-exec")));
static int taskloop_interposed;

void bridge_taskloop_enter(uint64_t count, const void *codeptr, void *frame) {
  armed_codeptr = codeptr;
  int i = tlc.n++;
  if (i >= 0 && i < TLC_DEPTH) {
    tl_construct_t *c = &tlc.c[i];
    c->codeptr = codeptr;
    c->frame = frame;
    c->count = count;
    c->state = taskloop_interposed ? TLC_DEFERRED : TLC_OPEN;
    if (c->state == TLC_DEFERRED) {
      tlc.armed = i + 1;
      return;
    }
  }
  bridge_work_enter(BRIDGE_B_TASK_EE, ompt_work_taskloop, count, codeptr,
                    frame);
}

void bridge_taskloop_exit(const void *codeptr, void *frame) {
  armed_codeptr = NULL;
  tlc.armed = 0;
  int i = --tlc.n;
  if (i < 0)
    tlc.n = 0;
  tl_construct_t *c = i >= 0 && i < TLC_DEPTH ? &tlc.c[i] : NULL;
  if (c && c->state == TLC_DONE)
    return;                          /* the call delivered begin and end */
  if (c && c->state == TLC_DEFERRED) /* the call never came */
    bridge_work_enter(BRIDGE_B_TASK_EE, ompt_work_taskloop, c->count,
                      c->codeptr, c->frame);
  bridge_work_leave(BRIDGE_B_TASK_EE, ompt_work_taskloop, codeptr, frame);
}

/* The construct of this call whose work begin waits for it (disarms). */
static tl_construct_t *take_construct(void) {
  int i = tlc.armed - 1;
  tlc.armed = 0;
  return i >= 0 && i < tlc.n ? &tlc.c[i] : NULL;
}

/* Its work begin, then (work_close) its end, delivered by the call. */
static void work_open(tl_construct_t *w) {
  if (w)
    bridge_work_enter(BRIDGE_B_TASK_EE, ompt_work_taskloop, w->count,
                      w->codeptr, w->frame);
}

static void work_close(tl_construct_t *w) {
  if (!w)
    return;
  bridge_work_leave(BRIDGE_B_TASK_EE, ompt_work_taskloop, w->codeptr, w->frame);
  w->state = TLC_DONE;
}

/* One taskloop instance whose records were created before the call: the
 * records, freed when the interposed call and every task that took a
 * record are done. */
typedef struct taskloop {
  atomic_uint refs;
  unsigned long ntasks;
  POMP_Task_t *tasks;  /* the records created for the tasks */
  atomic_uchar *taken; /* record i taken by its task */
} taskloop_t;

/* How a task gets its record. */
enum {
  TL_CREATE_AT_START = 1, /* undeferred: created when it starts */
  TL_CREATED_AT_COPY,     /* by tl_copy, in the task's header */
  TL_CREATED_BEFORE       /* before the call, in the shared taskloop_t */
};

#define TL_MAGIC 0x706f6f6c6b736174ull
/* libpompt's copy function is added only while libgomp's copies of every
 * block of an undeferred taskloop, on its stack (it takes that path when
 * too many tasks are queued), stay within TL_COPY_STACK bytes, counting
 * TL_TASK_SIZE bytes for each task's own record there. */
#define TL_COPY_STACK (256u * 1024u)
#define TL_TASK_SIZE 512u
/* Our block goes on the stack up to this size, else to the heap. */
#define TL_BLOCK_STACK 16384u

/* Our block: libgomp's two words (the task's bounds), the third word of
 * the program's block (a reduction's data pointer, which libgomp reads),
 * then what a task needs to know, then the program's block at user_off.
 * Every task has its own copy (but the tasks of an undeferred taskloop
 * without a copy function, which run one after the other on our block). */
typedef struct tl_header {
  uint64_t bounds[2];
  uint64_t third;
  uint64_t magic;
  int mode;         /* TL_* */
  int pomp_flags;   /* of its tasks */
  POMP_Task_t task; /* TL_CREATED_AT_COPY: its record */
  taskloop_t *tl;   /* TL_CREATED_BEFORE */
  void (*fn)(void *);
  void (*cpyfn)(void *, void *);
  const void *codeptr;
  void *frame; /* the interposed call's */
  size_t user_off, user_size;
  uint64_t start, step; /* as libgomp has them (step < 0: down) */
  uint64_t ntasks;      /* how libgomp splits the iterations: */
  uint64_t big, nbig;   /* nbig tasks of big iterations first, */
  uint64_t small;       /* then tasks of small iterations */
  int down;
} tl_header_t;

static void tl_unref(taskloop_t *tl) {
  if (atomic_fetch_sub_explicit(&tl->refs, 1, memory_order_acq_rel) == 1)
    free(tl);
}

void bridge_taskloop_discarded(taskloop_t *tl) {
  tl_unref(tl);
}

/* How libgomp splits n iterations into tasks (taskloop.c): how many, and
 * their sizes in order (first nbig of big iterations, then small). */
static void split_tasks(tl_header_t *hd, unsigned flags,
                        unsigned long num_tasks, uint64_t n) {
  uint64_t nt;
  if (flags & GOMP_TASK_FLAG_GRAINSIZE) {
    uint64_t grain = num_tasks ? num_tasks : 1;
    if (flags & GOMP_TASK_FLAG_STRICT) {
      /* tasks of grain iterations, the last one the rest */
      nt = n / grain + (n % grain != 0);
      hd->ntasks = nt;
      hd->big = grain;
      hd->nbig = n % grain ? nt - 1 : nt;
      hd->small = n % grain;
      return;
    }
    nt = n / grain;
    if (nt < 1)
      nt = 1;
  } else {
    nt = num_tasks
             ? num_tasks
             : (omp_get_num_threads ? (uint64_t)omp_get_num_threads() : 1);
    if (nt < 1)
      nt = 1;
    if (nt > n)
      nt = n;
  }
  /* nt tasks, the first n % nt of them one iteration longer */
  hd->ntasks = nt;
  hd->small = n / nt;
  hd->nbig = n % nt;
  hd->big = hd->small + 1;
}

/* The task (its index) that starts at logical iteration l; -1 if none
 * does (libgomp split the iterations differently). */
static long task_index(const tl_header_t *hd, uint64_t l) {
  uint64_t i;
  if (hd->big && l < hd->nbig * hd->big) {
    if (l % hd->big)
      return -1;
    i = l / hd->big;
  } else {
    l -= hd->nbig * hd->big;
    if (!hd->small || l % hd->small)
      return -1;
    i = hd->nbig + l / hd->small;
  }
  return i < hd->ntasks ? (long)i : -1;
}

static int pomp_flags_of(unsigned flags) {
  return POMP_TASK_TASKLOOP |
         gomp_task_pomp_flags(flags, (flags & GOMP_TASK_FLAG_IF) != 0);
}

static void create(POMP_Task_t *task, const tl_header_t *hd) {
  bridge_task_create_begin(task, hd->pomp_flags, hd->codeptr, hd->frame);
  bridge_task_create_end(task, hd->frame);
}

/* The task function libgomp runs: one task of the taskloop. */
BRIDGE_TRAMPOLINE static void tl_task(void *arg) {
  tl_header_t *hd = arg;
  void *user = (char *)arg + hd->user_off;
  memcpy(user, hd->bounds, sizeof hd->bounds);
  uint64_t b = hd->bounds[0], e = hd->bounds[1];
  uint64_t step = hd->down ? -hd->step : hd->step;
  ompt_dispatch_chunk_t chunk;
  chunk.start = (hd->down ? hd->start - b : b - hd->start) / step;
  chunk.iterations = ((hd->down ? b - e : e - b) + step - 1) / step;
  POMP_Task_t h;
  taskloop_t *tl = NULL;
  if (hd->mode == TL_CREATED_BEFORE) {
    long i = task_index(hd, chunk.start);
    tl = hd->tl;
    if (i < 0 ||
        atomic_exchange_explicit(&tl->taken[i], 1, memory_order_relaxed)) {
      hd->fn(user); /* not a task libpompt expected: not reported */
      return;
    }
    h = tl->tasks[i];
  } else if (hd->mode == TL_CREATED_AT_COPY) {
    h = hd->task;
  } else {
    create(&h, hd);
  }
  void *frame = BRIDGE_FRAME_KEPT();
  bridge_task_memory(&h, user, hd->user_size);
  bridge_task_begin(&h, hd->codeptr, frame);
  bridge_dispatch(BRIDGE_B_TASK_BE, ompt_dispatch_taskloop_chunk,
                  (ompt_data_t){.ptr = &chunk}, frame);
  hd->fn(user);
  bridge_task_end(&h, frame);
  if (tl)
    tl_unref(tl);
  __asm__ __volatile__(""); /* keep this frame until the end */
}

/* The copy function libgomp calls for each task, on the encountering
 * thread, right after allocating it: the program's copy of its block (its
 * copy function's, or bytes), our header, and the task's creation. */
static void tl_copy(void *dst, void *src) {
  tl_header_t *hd = src, *to = dst;
  if (hd->cpyfn)
    hd->cpyfn((char *)dst + hd->user_off, (char *)src + hd->user_off);
  else
    memcpy((char *)dst + hd->user_off, (char *)src + hd->user_off,
           hd->user_size);
  memcpy(dst, src, sizeof *hd);
  if (to->mode == TL_CREATED_AT_COPY)
    create(&to->task, to);
}

typedef void (*gomp_taskgroup_t)(void);
static gomp_taskgroup_t real_tg_start, real_tg_end;

/* What both entries share: n iterations from start by step (down: step is
 * negative), flags and num_tasks as GCC passed them.  Calls go(...) with
 * the block, task function, copy function, size, alignment and flags to
 * hand libgomp, around the reports. */
typedef struct tl_call {
  void (*fn)(void *);
  void *data;
  void (*cpyfn)(void *, void *);
  long arg_size, arg_align;
  unsigned flags;
  unsigned long num_tasks;
  uint64_t n, start, step;
  int down;
} tl_call_t;

typedef void (*tl_go_t)(const tl_call_t *call, void (*fn)(void *), void *data,
                        void (*cpyfn)(void *, void *), long size, long align,
                        unsigned flags);

static void taskloop_reported(const tl_call_t *c, const void *codeptr,
                              void *frame, tl_go_t go, tl_construct_t *w) {
  long align = c->arg_align > 16 ? c->arg_align : 16;
  if (align & (align - 1)) {
    work_open(w);
    go(c, c->fn, c->data, c->cpyfn, c->arg_size, c->arg_align, c->flags);
    work_close(w);
    return;
  }
  size_t user_off =
      (sizeof(tl_header_t) + (size_t)align - 1) & ~(size_t)(align - 1);
  size_t size = user_off + (size_t)c->arg_size;
  /* Our block, on this stack as the program's was on its own (on the heap
   * when large: libgomp is done with it when the call returns). */
  char *heap = NULL;
  char raw[size + (size_t)align <= TL_BLOCK_STACK ? size + (size_t)align : 1];
  char *base = raw;
  if (size + (size_t)align > TL_BLOCK_STACK &&
      !(base = heap = malloc(size + (size_t)align))) {
    work_open(w);
    go(c, c->fn, c->data, c->cpyfn, c->arg_size, c->arg_align, c->flags);
    work_close(w);
    return;
  }
  char *blk = (char *)(((uintptr_t)base + (uintptr_t)align - 1) &
                       ~(uintptr_t)(align - 1));
  tl_header_t *hd = (tl_header_t *)blk;
  memset(hd, 0, sizeof *hd);
  memcpy(blk + user_off, c->data, (size_t)c->arg_size);
  if (c->arg_size >= (long)(3 * sizeof(uint64_t)))
    memcpy(&hd->third, (char *)c->data + 2 * sizeof(uint64_t),
           sizeof hd->third);
  split_tasks(hd, c->flags, c->num_tasks, c->n);
  hd->magic = TL_MAGIC;
  hd->pomp_flags = pomp_flags_of(c->flags);
  hd->fn = c->fn;
  hd->cpyfn = c->cpyfn;
  hd->codeptr = codeptr;
  hd->frame = frame;
  hd->user_off = user_off;
  hd->user_size = (size_t)c->arg_size;
  hd->start = c->start;
  hd->step = c->step;
  hd->down = c->down;

  /* How the tasks get their records (see the top of this file). */
  int undeferred = !(c->flags & GOMP_TASK_FLAG_IF) ||
                   (omp_get_level && omp_get_level() == 0 &&
                    !(omp_get_num_teams && omp_get_num_teams() > 1)) ||
                   (omp_in_final && omp_in_final());
  int cancellable = bridge_cancellation_on();
  unsigned long ntasks = (unsigned long)hd->ntasks;
  int copies_fit = ntasks <= TL_COPY_STACK / (TL_TASK_SIZE + size);
  if (c->cpyfn || (!undeferred && !cancellable && copies_fit))
    hd->mode = TL_CREATED_AT_COPY;
  else if (undeferred)
    hd->mode = TL_CREATE_AT_START;
  else
    hd->mode = TL_CREATED_BEFORE;

  taskloop_t *tl = NULL;
  if (hd->mode == TL_CREATED_BEFORE) {
    if (ntasks < (1ul << 40))
      tl = malloc(sizeof *tl + ntasks * (sizeof(POMP_Task_t) + 1));
    if (!tl) {
      work_open(w);
      go(c, c->fn, c->data, c->cpyfn, c->arg_size, c->arg_align, c->flags);
      work_close(w);
      free(heap);
      return;
    }
    atomic_init(&tl->refs, (unsigned)ntasks + 1);
    tl->ntasks = ntasks;
    tl->tasks = (POMP_Task_t *)(tl + 1);
    tl->taken = (atomic_uchar *)(tl->tasks + ntasks);
    for (unsigned long i = 0; i < ntasks; i++)
      atomic_init(&tl->taken[i], 0);
    hd->tl = tl;
  }

  int group = !(c->flags & GOMP_TASK_FLAG_NOGROUP);
  int own_group = group && !(c->flags & GOMP_TASK_FLAG_REDUCTION) &&
                  real_tg_start && real_tg_end;
  if (group)
    bridge_taskgroup_enter(codeptr, frame);
  if (own_group)
    real_tg_start();
  work_open(w);
  /* A nogroup taskloop's tasks belong to the enclosing taskgroup: which of
   * them libgomp discards is known where that ends (bridge_discard.c). */
  if (tl)
    for (unsigned long i = 0; i < ntasks; i++) {
      create(&tl->tasks[i], hd);
      if (!group && cancellable)
        bridge_task_track_discard(&tl->tasks[i], tl);
    }
  unsigned flags = c->flags | (own_group ? GOMP_TASK_FLAG_NOGROUP : 0);
  go(c, tl_task, blk, hd->mode == TL_CREATED_AT_COPY ? tl_copy : NULL,
     (long)size, align, flags);
  work_close(w);
  if (group)
    bridge_taskgroup_end(codeptr, frame);
  if (own_group)
    real_tg_end();
  if (group)
    bridge_taskgroup_exit(codeptr, frame);
  if (tl) {
    /* With a taskgroup, every task that was going to run has run: a record
     * none took is a task libgomp dropped (a cancelled taskgroup). */
    for (unsigned long i = 0; group && i < ntasks; i++)
      if (!atomic_exchange_explicit(&tl->taken[i], 1, memory_order_relaxed)) {
        bridge_task_retire(&tl->tasks[i], BRIDGE_RETIRE_DISCARDED);
        tl_unref(tl);
      }
    tl_unref(tl);
  }
  /* GCC combines the reduction's copies next (bridge_reduction.c). */
  if (group && (c->flags & GOMP_TASK_FLAG_REDUCTION))
    bridge_task_reduction_begin(codeptr);
  free(heap);
}

/* The interposed entries. */
GOMP_REAL_DECL(GOMP_taskloop);
GOMP_REAL_DECL(GOMP_taskloop_ull);

typedef void (*gomp_taskloop_t)(void (*)(void *), void *,
                                void (*)(void *, void *), long, long, unsigned,
                                unsigned long, int, long, long, long);
typedef void (*gomp_taskloop_ull_t)(void (*)(void *), void *,
                                    void (*)(void *, void *), long, long,
                                    unsigned, unsigned long, int,
                                    unsigned long long, unsigned long long,
                                    unsigned long long);
static gomp_taskloop_t real_taskloop;
static gomp_taskloop_ull_t real_taskloop_ull;

/* The armed construct of this call, if it is to be reported (disarms). */
static const void *take_arm(void) {
  const void *codeptr = armed_codeptr;
  if (!codeptr)
    return NULL;
  armed_codeptr = NULL;
  return bridge_active ? codeptr : NULL;
}

/* The arguments common to GOMP_taskloop and GOMP_taskloop_ull, and the
 * iteration count, in the loop's own (two's complement) arithmetic: down
 * loops count from start down to end by -step. */
static void tl_call_init(tl_call_t *c, void (*fn)(void *), void *data,
                         void (*cpyfn)(void *, void *), long arg_size,
                         long arg_align, unsigned flags,
                         unsigned long num_tasks, uint64_t start, uint64_t end,
                         uint64_t step, int down) {
  c->fn = fn;
  c->data = data;
  c->cpyfn = cpyfn;
  c->arg_size = arg_size;
  c->arg_align = arg_align;
  c->flags = flags;
  c->num_tasks = num_tasks;
  c->start = start;
  c->step = step;
  c->down = down;
  uint64_t span = down ? start - end : end - start;
  uint64_t mag = down ? -step : step;
  c->n = (span + mag - 1) / mag;
}

typedef struct tl_long_call {
  tl_call_t c;
  int priority;
  long start, end, step;
} tl_long_call_t;

static void go_long(const tl_call_t *call, void (*fn)(void *), void *data,
                    void (*cpyfn)(void *, void *), long size, long align,
                    unsigned flags) {
  const tl_long_call_t *lc = (const tl_long_call_t *)call;
  real_taskloop(fn, data, cpyfn, size, align, flags, lc->c.num_tasks,
                lc->priority, lc->start, lc->end, lc->step);
}

GOMP_EXPORT void GOMP_ENTRY(GOMP_taskloop)(
    void (*fn)(void *), void *data, void (*cpyfn)(void *, void *),
    long arg_size, long arg_align, unsigned flags, unsigned long num_tasks,
    int priority, long start, long end, long step) {
  GOMP_REAL_ENSURE(real_taskloop, GOMP_taskloop);
  const void *codeptr = take_arm();
  tl_construct_t *w = take_construct();
  int empty = step > 0 ? start >= end : start <= end;
  if (!codeptr || step == 0 || empty) {
    work_open(w);
    real_taskloop(fn, data, cpyfn, arg_size, arg_align, flags, num_tasks,
                  priority, start, end, step);
    work_close(w);
    return;
  }
  tl_long_call_t lc = {0};
  tl_call_init(&lc.c, fn, data, cpyfn, arg_size, arg_align, flags, num_tasks,
               (uint64_t)start, (uint64_t)end, (uint64_t)step, step < 0);
  lc.priority = priority;
  lc.start = start;
  lc.end = end;
  lc.step = step;
  taskloop_reported(&lc.c, codeptr, BRIDGE_FRAME(), go_long, w);
}

typedef struct tl_ull_call {
  tl_call_t c;
  int priority;
  unsigned long long start, end, step;
} tl_ull_call_t;

static void go_ull(const tl_call_t *call, void (*fn)(void *), void *data,
                   void (*cpyfn)(void *, void *), long size, long align,
                   unsigned flags) {
  const tl_ull_call_t *uc = (const tl_ull_call_t *)call;
  real_taskloop_ull(fn, data, cpyfn, size, align, flags, uc->c.num_tasks,
                    uc->priority, uc->start, uc->end, uc->step);
}

GOMP_EXPORT void GOMP_ENTRY(GOMP_taskloop_ull)(
    void (*fn)(void *), void *data, void (*cpyfn)(void *, void *),
    long arg_size, long arg_align, unsigned flags, unsigned long num_tasks,
    int priority, unsigned long long start, unsigned long long end,
    unsigned long long step) {
  GOMP_REAL_ENSURE(real_taskloop_ull, GOMP_taskloop_ull);
  const void *codeptr = take_arm();
  tl_construct_t *w = take_construct();
  int up = (flags & GOMP_TASK_FLAG_UP) != 0;
  int empty = up ? start >= end : start <= end;
  if (!codeptr || step == 0 || empty) {
    work_open(w);
    real_taskloop_ull(fn, data, cpyfn, arg_size, arg_align, flags, num_tasks,
                      priority, start, end, step);
    work_close(w);
    return;
  }
  tl_ull_call_t uc = {0};
  tl_call_init(&uc.c, fn, data, cpyfn, arg_size, arg_align, flags, num_tasks,
               start, end, step, !up);
  uc.priority = priority;
  uc.start = start;
  uc.end = end;
  uc.step = step;
  taskloop_reported(&uc.c, codeptr, BRIDGE_FRAME(), go_ull, w);
}

#ifdef POMPT_STATIC_LIB
/* Not interposed: libgomp.a's own (in its member with GOMP_taskloop, which
 * --wrap with -u links), or NULL. */
extern void GOMP_taskgroup_start(void) __attribute__((weak));
extern void GOMP_taskgroup_end(void) __attribute__((weak));
#define GOMP_LIBGOMP(name) (name)
#else
#define GOMP_LIBGOMP(name) GOMP_REAL(name)
#endif

void bridge_taskloop_setup(void) {
  real_taskloop = (gomp_taskloop_t)GOMP_REAL(GOMP_taskloop);
  real_taskloop_ull = (gomp_taskloop_ull_t)GOMP_REAL(GOMP_taskloop_ull);
  real_tg_start = (gomp_taskgroup_t)GOMP_LIBGOMP(GOMP_taskgroup_start);
  real_tg_end = (gomp_taskgroup_t)GOMP_LIBGOMP(GOMP_taskgroup_end);
  int interposed = real_taskloop && real_taskloop_ull &&
                   GOMP_INTERPOSED(GOMP_taskloop) &&
                   GOMP_INTERPOSED(GOMP_taskloop_ull);
  taskloop_interposed = interposed;
  bridge_log("the tasks of a taskloop: %s",
             interposed ? "reported (libgomp's GOMP_taskloop interposed)"
                        : "not reported (GOMP_taskloop is not interposed)");
}
