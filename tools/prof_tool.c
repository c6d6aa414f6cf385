/*
 * prof_tool.c - pompt-prof, the OMPT profiler: tool activation and the
 * callbacks that record every thread's constructs.
 *
 * Each thread keeps, in its own record (thread-local, no locks), a tree of
 * the constructs it met, keyed by (logical parent, kind, code address), and
 * a stack of the constructs it is in.  A callback that begins a construct
 * finds or creates its node and pushes a frame with a timestamp; the
 * matching end pops it, adding the inclusive time to the node and to the
 * frame below (for exclusive time) and, when the timeline is on, appending
 * one slice to the thread's trace chunks.  At the end (the runtime's
 * finalize, or exit) prof_collect() merges the threads' trees into one
 * profile keyed by construct and source location, and the writers produce
 * the reports.
 *
 * It includes nothing of pompt but <omp-tools.h>: the same library profiles
 * programs built with pomp-cc and libpompt and programs on LLVM's libomp.
 */
#define _GNU_SOURCE /* program_invocation_short_name, strcasecmp */

#include <omp-tools.h>

#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "prof_model.h"
#include "prof_tool.h"

#define RELAXED memory_order_relaxed

prof_config prof_cfg;
uint64_t prof_t_start;
_Atomic(prof_thread *) prof_threads;
char prof_runtime_version[256];

/* RUNNING while callbacks record; DONE after the profile was written (or
   in a forked child, which writes nothing). */
enum { ST_IDLE = 0, ST_RUNNING = 1, ST_DONE = 2 };
static _Atomic int state = ST_IDLE;
static _Atomic int written;
static _Atomic int next_index;
static pid_t owner_pid;
/* The records a forked child inherited from its parent: kept reachable
   (leak checkers), never used. */
static _Atomic(prof_thread *) inherited;
/* A forked child that has no signal helper thread yet. */
static _Atomic int child_needs_helper;

/* initial-exec: one load on the callback path instead of a call to
   __tls_get_addr, and the pointer lives in the static TLS block that
   LeakSanitizer scans (its scan of a dlopen'ed module's dynamic TLS blocks
   crashes on glibc 2.36). */
static _Thread_local prof_thread *tls_me
    __attribute__((tls_model("initial-exec")));

static ompt_set_callback_t set_callback;

static int running(void) {
  return atomic_load_explicit(&state, RELAXED) == ST_RUNNING;
}

/* ------------------------------------------------------------------------
 * Lock holders, for blame: which code address holds each lock now.  A
 * fixed open-addressing table; keys are never removed, so lookups and
 * updates are single atomic loads and stores.
 * --------------------------------------------------------------------- */

#define HOLDER_SLOTS 4096

static struct {
  _Atomic uint64_t wait_id;
  _Atomic uintptr_t holder;
  _Atomic int kind;
} holders[HOLDER_SLOTS];

static unsigned holder_hash(uint64_t id) {
  id ^= id >> 33;
  id *= 0xff51afd7ed558ccdull;
  id ^= id >> 33;
  return (unsigned)(id & (HOLDER_SLOTS - 1));
}

static int holder_slot(uint64_t id, int insert) {
  if (id == 0)
    return -1;
  unsigned h = holder_hash(id);
  for (int i = 0; i < 64; i++) {
    unsigned s = (h + (unsigned)i) & (HOLDER_SLOTS - 1);
    uint64_t cur =
        atomic_load_explicit(&holders[s].wait_id, memory_order_acquire);
    if (cur == id)
      return (int)s;
    if (cur == 0) {
      if (!insert)
        return -1;
      uint64_t expected = 0;
      if (atomic_compare_exchange_strong(&holders[s].wait_id, &expected, id) ||
          expected == id)
        return (int)s;
    }
  }
  return -1;
}

static void holder_set(uint64_t id, const void *codeptr, int kind) {
  int s = holder_slot(id, 1);
  if (s >= 0) {
    atomic_store_explicit(&holders[s].kind, kind, RELAXED);
    atomic_store_explicit(&holders[s].holder, (uintptr_t)codeptr, RELAXED);
  }
}

static void holder_clear(uint64_t id) {
  int s = holder_slot(id, 0);
  if (s >= 0)
    atomic_store_explicit(&holders[s].holder, 0, RELAXED);
}

static const void *holder_get(uint64_t id, int *kind) {
  int s = holder_slot(id, 0);
  if (s < 0)
    return NULL;
  *kind = atomic_load_explicit(&holders[s].kind, RELAXED);
  return (const void *)atomic_load_explicit(&holders[s].holder, RELAXED);
}

/* ------------------------------------------------------------------------
 * Per-thread records.
 * --------------------------------------------------------------------- */

static unsigned node_hash(const prof_node *lparent, int kind, int sub,
                          const void *codeptr, const prof_node *blame) {
  uint64_t h = (uint64_t)(uintptr_t)lparent * 0x9e3779b97f4a7c15ull;
  h ^= (uint64_t)(uintptr_t)codeptr * 0xc2b2ae3d27d4eb4full;
  h ^= (uint64_t)(uintptr_t)blame * 0x165667b19e3779f9ull;
  h ^= (uint64_t)(kind << 8 | sub);
  h ^= h >> 29;
  return (unsigned)h;
}

static prof_node *new_node(prof_thread *t, prof_node *lparent, int kind,
                           int sub, const void *codeptr, prof_node *blame) {
  if (t->chunk_last == NULL || t->chunk_used == PROF_NODE_CHUNK) {
    prof_node_chunk *c = calloc(1, sizeof *c);
    if (c == NULL)
      return NULL;
    if (t->chunk_last != NULL)
      t->chunk_last->next = c;
    else
      t->chunk_first = c;
    t->chunk_last = c;
    t->chunk_used = 0;
  }
  uint32_t count = atomic_load_explicit(&t->nnodes, RELAXED);
  /* Grow the hash table at two nodes per bucket. */
  if (count >= 2 * t->nbuckets) {
    uint32_t nb = t->nbuckets * 4;
    prof_node **b = calloc(nb, sizeof *b);
    if (b != NULL) {
      for (uint32_t i = 0; i < t->nbuckets; i++) {
        prof_node *n = t->buckets[i];
        while (n != NULL) {
          prof_node *next = n->hnext;
          unsigned h =
              node_hash(n->lparent, n->kind, n->sub, n->codeptr, n->blame) &
              (nb - 1);
          n->hnext = b[h];
          b[h] = n;
          n = next;
        }
      }
      free(t->buckets);
      t->buckets = b;
      t->nbuckets = nb;
    }
  }
  prof_node *n = &t->chunk_last->n[t->chunk_used++];
  n->lparent = lparent;
  n->blame = blame;
  n->codeptr = codeptr;
  n->owner = t;
  n->id = count;
  n->kind = (uint16_t)kind;
  n->sub = (uint16_t)sub;
  n->gid = -1;
  unsigned h =
      node_hash(lparent, kind, sub, codeptr, blame) & (t->nbuckets - 1);
  n->hnext = t->buckets[h];
  t->buckets[h] = n;
  atomic_store_explicit(&t->nnodes, count + 1, memory_order_release);
  return n;
}

/* The node of (lparent, kind, sub, codeptr, blame) in t's tree. */
static prof_node *child(prof_thread *t, prof_node *lparent, int kind, int sub,
                        const void *codeptr, prof_node *blame) {
  unsigned h =
      node_hash(lparent, kind, sub, codeptr, blame) & (t->nbuckets - 1);
  for (prof_node *n = t->buckets[h]; n != NULL; n = n->hnext) {
    if (n->lparent == lparent && n->codeptr == codeptr && n->kind == kind &&
        n->sub == sub && n->blame == blame)
      return n;
  }
  return new_node(t, lparent, kind, sub, codeptr, blame);
}

static int depth_of(prof_thread *t) {
  return atomic_load_explicit(&t->depth, RELAXED);
}

static prof_frame *top_frame(prof_thread *t) {
  int d = depth_of(t);
  return d > 0 ? &t->stack[d - 1] : NULL;
}

static prof_node *top_node(prof_thread *t) {
  prof_frame *f = top_frame(t);
  return f != NULL ? f->node : t->root;
}

static prof_frame *push(prof_thread *t, prof_node *n, uint64_t now) {
  int d = depth_of(t);
  if (n == NULL || d >= PROF_MAX_DEPTH || t->overflow > 0) {
    t->overflow++;
    t->overflow_total++;
    return NULL;
  }
  prof_frame *f = &t->stack[d];
  f->node = n;
  f->t0 = now;
  f->child = 0;
  f->ref = NULL;
  f->wait_id = 0;
  f->holder = NULL;
  f->holder_kind = 0;
  f->worker = 0;
  if (prof_papi_n > 0 && t->papi_ok)
    prof_papi_read(t, f->papi0);
  n->visits++;
  atomic_store_explicit(&t->depth, d + 1, memory_order_release);
  if (!prof_kind_is_wait(n->kind))
    t->last_ws = NULL;
  return f;
}

static void trace_add(prof_thread *t, prof_node *n, int depth, uint64_t t0,
                      uint64_t t1) {
  uint64_t nt = atomic_load_explicit(&t->ntrace, RELAXED);
  if (nt >= prof_cfg.trace_max) {
    t->trace_dropped++;
    return;
  }
  if (t->trace_last == NULL || t->trace_used == PROF_TRACE_CHUNK) {
    prof_trace_chunk *c = malloc(sizeof *c);
    if (c == NULL) {
      t->trace_dropped++;
      return;
    }
    prof_prefault(c, sizeof *c); /* 24 pages: one call, not 24 faults */
    c->next = NULL;
    if (t->trace_last != NULL)
      t->trace_last->next = c;
    else
      t->trace_first = c;
    t->trace_last = c;
    t->trace_used = 0;
  }
  prof_trace_rec *r = &t->trace_last->r[t->trace_used++];
  r->node = n->id;
  r->depth = (uint16_t)depth;
  r->flags = 0;
  r->t0 = t0;
  r->t1 = t1;
  atomic_store_explicit(&t->ntrace, nt + 1, memory_order_release);
}

static void pop_one(prof_thread *t, uint64_t end) {
  int d = depth_of(t) - 1;
  prof_frame *f = &t->stack[d];
  prof_node *n = f->node;
  uint64_t dt = end > f->t0 ? end - f->t0 : 0;
  n->time += dt;
  n->child_time += f->child;
  if (d > 0)
    t->stack[d - 1].child += dt;
  if (prof_papi_n > 0 && t->papi_ok) {
    long long v[PROF_MAX_EVENTS];
    prof_papi_read(t, v);
    for (int e = 0; e < prof_papi_n; e++)
      n->papi[e] += prof_papi_delta(f->papi0[e], v[e]);
  }
  if (prof_cfg.trace)
    trace_add(t, n, d, f->t0, end);
  atomic_store_explicit(&t->depth, d, memory_order_release);
}

/* Pops frames down to and including frame i. */
static void pop_to(prof_thread *t, int i, uint64_t end) {
  while (depth_of(t) > i)
    pop_one(t, end);
}

/* The index of the topmost frame of this kind (above the root), -1 if
   none. */
static int find_kind(prof_thread *t, int kind) {
  for (int i = depth_of(t) - 1; i >= 1; i--)
    if (t->stack[i].node->kind == kind)
      return i;
  return -1;
}

/* Ends the topmost construct of a kind; returns its node. */
static prof_node *pop_kind(prof_thread *t, int kind, uint64_t end) {
  if (t->overflow > 0) {
    t->overflow--;
    return NULL;
  }
  int i = find_kind(t, kind);
  if (i < 0)
    return NULL;
  prof_node *n = t->stack[i].node;
  pop_to(t, i, end);
  return n;
}

/* A worker learns late that its implicit task ended (libgomp's workers and
   libomp's report it when they are next woken): its implicit barrier and
   task end no later than the primary's join of that region. */
static uint64_t clamp_to_join(prof_thread *t, int kind_index, uint64_t now) {
  for (int i = kind_index; i >= 1; i--) {
    prof_frame *f = &t->stack[i];
    if (f->node->kind != PK_PARALLEL)
      continue;
    if (!f->worker || f->ref == NULL)
      return now;
    const prof_node *pn = f->ref;
    uint64_t j = atomic_load_explicit(&((prof_node *)pn)->join_time,
                                      memory_order_acquire);
    if (j >= t->stack[kind_index].t0 && j < now)
      return j;
    return now;
  }
  return now;
}

static prof_thread *thread_attach(int type) {
  prof_thread *t = calloc(1, sizeof *t);
  if (t == NULL)
    return NULL;
  t->nbuckets = 64;
  t->buckets = calloc(t->nbuckets, sizeof *t->buckets);
  if (t->buckets == NULL) {
    free(t);
    return NULL;
  }
  t->index = atomic_fetch_add(&next_index, 1);
  t->type = type;
  t->papi_set = -1;
  /* counters first: the root frame's start values are read at its push */
  if (prof_papi_n > 0)
    prof_papi_thread_start(t);
  uint64_t now = prof_now();
  t->t_begin = now;
  t->root =
      new_node(t, NULL, type == ompt_thread_initial ? PK_PROGRAM : PK_THREAD, 0,
               NULL, NULL);
  if (t->root == NULL) {
    free(t->buckets);
    free(t);
    return NULL;
  }
  push(t, t->root, now);
  prof_thread *head = atomic_load(&prof_threads);
  do {
    t->next_all = head;
  } while (!atomic_compare_exchange_weak(&prof_threads, &head, t));
  tls_me = t;
  return t;
}

prof_thread *prof_self(void) {
  return tls_me;
}

static inline prof_thread *self(void) {
  prof_thread *t = tls_me;
  if (__builtin_expect(t == NULL, 0))
    t = thread_attach(ompt_thread_unknown);
  return t;
}

/* ------------------------------------------------------------------------
 * Callbacks.
 * --------------------------------------------------------------------- */

static void on_thread_begin(ompt_thread_t type, ompt_data_t *thread_data) {
  if (!running())
    return;
  prof_signal_thread_begin();
  prof_thread *t = tls_me;
  if (t == NULL)
    t = thread_attach(type);
  else
    t->type = type;
  if (thread_data != NULL)
    thread_data->ptr = t;
}

static void on_thread_end(ompt_data_t *thread_data) {
  if (!running())
    return;
  prof_thread *t = thread_data != NULL ? thread_data->ptr : NULL;
  if (t == NULL)
    t = tls_me;
  if (t == NULL || atomic_load(&t->ended))
    return;
  uint64_t now = prof_now();
  t->overflow = 0;
  pop_to(t, 0, now);
  t->t_end = now;
  atomic_store(&t->ended, 1);
  if (t == tls_me) /* not when ended from another thread */
    prof_signal_thread_end();
}

static void on_parallel_begin(ompt_data_t *encountering_task_data,
                              const ompt_frame_t *encountering_task_frame,
                              ompt_data_t *parallel_data,
                              unsigned int requested_parallelism, int flags,
                              const void *codeptr_ra) {
  (void)encountering_task_data;
  (void)encountering_task_frame;
  (void)requested_parallelism;
  (void)flags;
  if (!running())
    return;
  prof_thread *t = self();
  if (t == NULL)
    return;
  if (__builtin_expect(atomic_load_explicit(&child_needs_helper, RELAXED), 0) &&
      atomic_exchange(&child_needs_helper, 0))
    prof_signal_child_helper();
  uint64_t now = prof_now();
  prof_node *n = child(t, top_node(t), PK_PARALLEL, 0, codeptr_ra, NULL);
  if (n != NULL)
    n->created++;
  push(t, n, now);
  if (parallel_data != NULL)
    parallel_data->ptr = n;
}

static void on_parallel_end(ompt_data_t *parallel_data,
                            ompt_data_t *encountering_task_data, int flags,
                            const void *codeptr_ra) {
  (void)encountering_task_data;
  (void)flags;
  (void)codeptr_ra;
  if (!running())
    return;
  prof_thread *t = self();
  if (t == NULL)
    return;
  uint64_t now = prof_now();
  prof_node *pn = parallel_data != NULL ? parallel_data->ptr : NULL;
  if (pn != NULL)
    atomic_store_explicit(&pn->join_time, now, memory_order_release);
  if (t->overflow > 0) {
    t->overflow--;
    return;
  }
  for (int i = depth_of(t) - 1; i >= 1; i--) {
    if (t->stack[i].node == pn ||
        (pn == NULL && t->stack[i].node->kind == PK_PARALLEL)) {
      pop_to(t, i, now);
      return;
    }
  }
}

static void on_implicit_task(ompt_scope_endpoint_t endpoint,
                             ompt_data_t *parallel_data, ompt_data_t *task_data,
                             unsigned int actual_parallelism,
                             unsigned int index, int flags) {
  (void)task_data;
  (void)actual_parallelism;
  (void)index;
  if (!running() || (flags & ompt_task_initial))
    return;
  prof_thread *t = self();
  if (t == NULL)
    return;
  uint64_t now = prof_now();
  if (endpoint == ompt_scope_begin) {
    prof_node *pn = parallel_data != NULL ? parallel_data->ptr : NULL;
    prof_frame *top = top_frame(t);
    if (pn != NULL && pn->owner == t && top != NULL && top->node == pn)
      return; /* the primary thread: its parallel frame is already there */
    prof_node *lp = pn != NULL ? pn->lparent : top_node(t);
    prof_node *n =
        child(t, lp, PK_PARALLEL, 0, pn != NULL ? pn->codeptr : NULL, NULL);
    prof_frame *f = push(t, n, now);
    if (f != NULL) {
      f->worker = 1;
      f->ref = pn;
    }
    return;
  }
  /* end: a worker leaves its implicit task; the primary's ends at
     parallel_end */
  if (t->overflow > 0) {
    t->overflow--;
    return;
  }
  int i = find_kind(t, PK_PARALLEL);
  if (i >= 1 && t->stack[i].worker)
    pop_to(t, i, clamp_to_join(t, i, now));
}

static void work_kind(ompt_work_t w, int *kind, int *sub) {
  *sub = 0;
  switch ((int)w) {
  case ompt_work_loop:
    *kind = PK_LOOP;
    break;
  case ompt_work_loop_static:
    *kind = PK_LOOP;
    *sub = PROF_SCHED_STATIC;
    break;
  case ompt_work_loop_dynamic:
    *kind = PK_LOOP;
    *sub = PROF_SCHED_DYNAMIC;
    break;
  case ompt_work_loop_guided:
    *kind = PK_LOOP;
    *sub = PROF_SCHED_GUIDED;
    break;
  case ompt_work_loop_other:
    *kind = PK_LOOP;
    *sub = PROF_SCHED_OTHER;
    break;
  case ompt_work_sections:
    *kind = PK_SECTIONS;
    break;
  case ompt_work_single_executor:
    *kind = PK_SINGLE;
    *sub = PROF_SINGLE_EXECUTOR;
    break;
  case ompt_work_single_other:
    *kind = PK_SINGLE;
    *sub = PROF_SINGLE_OTHER;
    break;
  case ompt_work_workshare:
    *kind = PK_WORKSHARE;
    break;
  case ompt_work_distribute:
    *kind = PK_DISTRIBUTE;
    break;
  case ompt_work_taskloop:
    *kind = PK_TASKLOOP;
    break;
  case ompt_work_scope:
    *kind = PK_SCOPE;
    break;
  default:
    *kind = PK_LOOP;
    *sub = PROF_SCHED_OTHER;
    break;
  }
}

static void on_work(ompt_work_t work_type, ompt_scope_endpoint_t endpoint,
                    ompt_data_t *parallel_data, ompt_data_t *task_data,
                    uint64_t count, const void *codeptr_ra) {
  (void)parallel_data;
  (void)task_data;
  if (!running())
    return;
  prof_thread *t = self();
  if (t == NULL)
    return;
  uint64_t now = prof_now();
  int kind, sub;
  work_kind(work_type, &kind, &sub);
  if (endpoint == ompt_scope_begin) {
    prof_node *n = child(t, top_node(t), kind, sub, codeptr_ra, NULL);
    if (n != NULL && kind != PK_SINGLE)
      n->count += count;
    push(t, n, now);
  } else {
    prof_node *n = pop_kind(t, kind, now);
    if (n != NULL)
      n->end_codeptr = codeptr_ra;
    t->last_ws = n;
  }
}

static void on_masked(ompt_scope_endpoint_t endpoint,
                      ompt_data_t *parallel_data, ompt_data_t *task_data,
                      const void *codeptr_ra) {
  (void)parallel_data;
  (void)task_data;
  if (!running())
    return;
  prof_thread *t = self();
  if (t == NULL)
    return;
  uint64_t now = prof_now();
  if (endpoint == ompt_scope_begin)
    push(t, child(t, top_node(t), PK_MASKED, 0, codeptr_ra, NULL), now);
  else
    pop_kind(t, PK_MASKED, now);
}

/* The region kind of a sync region; a plain "implicit barrier" of an
   OpenMP 5.0 runtime is the parallel region's when its code address is the
   region's (or absent, as libomp gives workers). */
static int sync_kind(prof_thread *t, ompt_sync_region_t kind,
                     const void *codeptr_ra) {
  switch ((int)kind) {
  case 1: /* ompt_sync_region_barrier (deprecated) */
  case ompt_sync_region_barrier_explicit:
    return PK_BARRIER;
  case 2: { /* ompt_sync_region_barrier_implicit (deprecated) */
    if (codeptr_ra == NULL)
      return PK_BARRIER_PARALLEL;
    int i = find_kind(t, PK_PARALLEL);
    if (i >= 1 && t->stack[i].node->codeptr == codeptr_ra)
      return PK_BARRIER_PARALLEL;
    return PK_BARRIER_IMPLICIT;
  }
  case ompt_sync_region_barrier_implicit_workshare:
    return PK_BARRIER_IMPLICIT;
  case ompt_sync_region_barrier_implicit_parallel:
    return PK_BARRIER_PARALLEL;
  case ompt_sync_region_barrier_implementation:
    return PK_BARRIER_RUNTIME;
  case ompt_sync_region_barrier_teams:
    return PK_BARRIER_TEAMS;
  case ompt_sync_region_taskwait:
    return PK_TASKWAIT;
  case ompt_sync_region_taskgroup:
    return PK_TASKGROUP;
  case ompt_sync_region_reduction:
    return PK_REDUCTION;
  default:
    return PK_BARRIER_RUNTIME;
  }
}

static void on_sync_region(ompt_sync_region_t kind,
                           ompt_scope_endpoint_t endpoint,
                           ompt_data_t *parallel_data, ompt_data_t *task_data,
                           const void *codeptr_ra) {
  (void)parallel_data;
  (void)task_data;
  if (!running())
    return;
  prof_thread *t = self();
  if (t == NULL)
    return;
  uint64_t now = prof_now();
  if (endpoint == ompt_scope_begin) {
    int k = sync_kind(t, kind, codeptr_ra);
    prof_node *blame = NULL;
    const void *key = codeptr_ra;
    if (k == PK_BARRIER_IMPLICIT || k == PK_BARRIER_RUNTIME)
      blame = t->last_ws;
    else if (k == PK_BARRIER_PARALLEL)
      key = NULL; /* one per parallel region, whatever address each
                     thread reports */
    push(t, child(t, top_node(t), k, 0, key, blame), now);
    return;
  }
  /* end: the kind of the open frame decides (the end of a 5.0 implicit
     barrier carries no more information than its begin) */
  if (t->overflow > 0) {
    t->overflow--;
    return;
  }
  int k = sync_kind(t, kind, codeptr_ra);
  int i = find_kind(t, k);
  if (i < 0 && (int)kind == 2) {
    i = find_kind(t, k == PK_BARRIER_PARALLEL ? PK_BARRIER_IMPLICIT
                                              : PK_BARRIER_PARALLEL);
  }
  if (i < 0)
    return;
  uint64_t end = now;
  if (t->stack[i].node->kind == PK_BARRIER_PARALLEL)
    end = clamp_to_join(t, i, now);
  pop_to(t, i, end);
}

static void on_sync_region_wait(ompt_sync_region_t kind,
                                ompt_scope_endpoint_t endpoint,
                                ompt_data_t *parallel_data,
                                ompt_data_t *task_data,
                                const void *codeptr_ra) {
  (void)parallel_data;
  (void)task_data;
  (void)codeptr_ra;
  /* Only a taskgroup's wait is narrower than its sync region. */
  if (kind != ompt_sync_region_taskgroup || !running())
    return;
  prof_thread *t = self();
  if (t == NULL)
    return;
  uint64_t now = prof_now();
  if (endpoint == ompt_scope_begin)
    push(t, child(t, top_node(t), PK_TASKGROUP_WAIT, 0, NULL, NULL), now);
  else
    pop_kind(t, PK_TASKGROUP_WAIT, now);
}

/* Region and wait kinds of a mutex. */
static void mutex_kinds(ompt_mutex_t kind, int *region, int *wait) {
  switch ((int)kind) {
  case ompt_mutex_critical:
    *region = PK_CRITICAL;
    *wait = PK_WAIT_CRITICAL;
    break;
  case ompt_mutex_ordered:
    *region = PK_ORDERED;
    *wait = PK_WAIT_ORDERED;
    break;
  case ompt_mutex_atomic:
    *region = PK_ATOMIC;
    *wait = PK_WAIT_ATOMIC;
    break;
  default: /* locks of every sort */
    *region = PK_LOCK;
    *wait = PK_WAIT_LOCK;
    break;
  }
}

static int is_mutex_wait(int kind) {
  return kind == PK_WAIT_LOCK || kind == PK_WAIT_CRITICAL ||
         kind == PK_WAIT_ORDERED || kind == PK_WAIT_ATOMIC;
}

static void blame_add(prof_thread *t, prof_node *wait, const void *holder,
                      int holder_kind, uint64_t ns) {
  if (holder == NULL || ns == 0)
    return;
  unsigned h = node_hash(wait, holder_kind, 0, holder, NULL);
  for (int i = 0; i < PROF_BLAME_SLOTS; i++) {
    prof_blame_slot *s = &t->blame[(h + (unsigned)i) % PROF_BLAME_SLOTS];
    if (s->wait == wait && s->holder == holder &&
        s->holder_kind == holder_kind) {
      s->ns += ns;
      return;
    }
    if (s->wait == NULL) {
      s->wait = wait;
      s->holder = holder;
      s->holder_kind = (uint16_t)holder_kind;
      s->ns = ns;
      return;
    }
  }
  t->blame_dropped += ns;
}

static void on_mutex_acquire(ompt_mutex_t kind, unsigned int hint,
                             unsigned int impl, ompt_wait_id_t wait_id,
                             const void *codeptr_ra) {
  (void)hint;
  (void)impl;
  if (!running())
    return;
  prof_thread *t = self();
  if (t == NULL)
    return;
  uint64_t now = prof_now();
  int region, wait;
  mutex_kinds(kind, &region, &wait);
  /* A mutex wait is a leaf: one still open was never answered by an
     acquired callback (a runtime that reports none for a failed test) and
     ends here. */
  prof_frame *top = top_frame(t);
  if (t->overflow == 0 && top != NULL && is_mutex_wait(top->node->kind))
    pop_one(t, now);
  if (region == PK_LOCK) {
    /* a test never waits; the owner of a nested lock takes it again
       without waiting */
    if (kind == ompt_mutex_test_lock || kind == ompt_mutex_test_nest_lock)
      return;
    for (int i = 0; i < t->nheld; i++)
      if (t->held[i].wait_id == wait_id)
        return;
  }
  prof_node *parent = top_node(t);
  if (region != PK_LOCK) {
    /* structured: the construct's frame holds the wait frame */
    prof_node *rn = child(t, parent, region, 0, codeptr_ra, NULL);
    prof_frame *rf = push(t, rn, now);
    if (rf != NULL)
      rf->wait_id = wait_id;
    parent = rn;
  }
  prof_node *wn =
      child(t, parent, wait, 0, region == PK_LOCK ? codeptr_ra : NULL, NULL);
  prof_frame *wf = push(t, wn, now);
  if (wf != NULL) {
    wf->wait_id = wait_id;
    wf->holder = holder_get(wait_id, &wf->holder_kind);
  }
}

static void on_mutex_acquired(ompt_mutex_t kind, ompt_wait_id_t wait_id,
                              const void *codeptr_ra) {
  if (!running())
    return;
  prof_thread *t = self();
  if (t == NULL)
    return;
  uint64_t now = prof_now();
  int region, wait;
  mutex_kinds(kind, &region, &wait);
  const void *site = codeptr_ra;
  prof_frame *f = top_frame(t);
  if (t->overflow == 0 && f != NULL && f->node->kind == wait &&
      f->wait_id == wait_id) {
    prof_node *wn = f->node;
    uint64_t t0 = f->t0;
    const void *holder = f->holder;
    int hk = f->holder_kind;
    if (region == PK_LOCK)
      site = wn->codeptr;
    pop_one(t, now);
    blame_add(t, wn, holder, hk, now - t0);
  } else if (t->overflow > 0 && kind != ompt_mutex_test_lock &&
             kind != ompt_mutex_test_nest_lock) {
    t->overflow--; /* the wait frame, not recorded */
  }
  if (region != PK_LOCK) {
    prof_frame *rf = top_frame(t);
    if (rf != NULL && rf->node->kind == region)
      site = rf->node->codeptr;
    holder_set(wait_id, site, region);
    return;
  }
  /* a lock: held until released, in any order */
  for (int i = 0; i < t->nheld; i++)
    if (t->held[i].wait_id == wait_id)
      return; /* a nested lock taken again */
  holder_set(wait_id, site, PK_LOCK);
  if (t->nheld < PROF_MAX_HELD) {
    prof_node *n = child(t, top_node(t), PK_LOCK, 0, site, NULL);
    if (n != NULL) {
      t->held[t->nheld++] = (prof_held){wait_id, n, now};
      n->visits++;
    }
  }
}

static void on_mutex_released(ompt_mutex_t kind, ompt_wait_id_t wait_id,
                              const void *codeptr_ra) {
  (void)codeptr_ra;
  if (!running())
    return;
  prof_thread *t = self();
  if (t == NULL)
    return;
  uint64_t now = prof_now();
  holder_clear(wait_id);
  int region, wait;
  mutex_kinds(kind, &region, &wait);
  if (region != PK_LOCK) {
    if (t->overflow > 0) {
      t->overflow--;
      return;
    }
    for (int i = depth_of(t) - 1; i >= 1; i--) {
      if (t->stack[i].node->kind == region && t->stack[i].wait_id == wait_id) {
        pop_to(t, i, now);
        return;
      }
    }
    return;
  }
  for (int i = t->nheld - 1; i >= 0; i--) {
    if (t->held[i].wait_id != wait_id)
      continue;
    prof_held h = t->held[i];
    t->held[i] = t->held[--t->nheld];
    uint64_t dt = now > h.t0 ? now - h.t0 : 0;
    h.node->time += dt;
    if (prof_cfg.trace)
      trace_add(t, h.node, depth_of(t), h.t0, now);
    return;
  }
}

/* A nested lock taken again by its owner: no acquired callback follows the
   acquire, this one does. */
static void on_nest_lock(ompt_scope_endpoint_t endpoint, ompt_wait_id_t wait_id,
                         const void *codeptr_ra) {
  (void)codeptr_ra;
  if (!running() || endpoint != ompt_scope_begin)
    return;
  prof_thread *t = self();
  if (t == NULL)
    return;
  prof_frame *f = top_frame(t);
  if (t->overflow == 0 && f != NULL && f->node->kind == PK_WAIT_LOCK &&
      f->wait_id == wait_id)
    pop_one(t, prof_now());
}

static void on_task_create(ompt_data_t *encountering_task_data,
                           const ompt_frame_t *encountering_task_frame,
                           ompt_data_t *new_task_data, int flags,
                           int has_dependences, const void *codeptr_ra) {
  (void)encountering_task_data;
  (void)encountering_task_frame;
  (void)has_dependences;
  if (!running() || !(flags & ompt_task_explicit) || new_task_data == NULL)
    return;
  prof_thread *t = self();
  if (t == NULL)
    return;
  prof_node *n = child(t, top_node(t), PK_TASK, 0, codeptr_ra, NULL);
  if (n != NULL)
    n->created++;
  new_task_data->ptr = n;
}

static void on_task_schedule(ompt_data_t *prior_task_data,
                             ompt_task_status_t prior_task_status,
                             ompt_data_t *next_task_data) {
  if (!running())
    return;
  prof_thread *t = self();
  if (t == NULL)
    return;
  uint64_t now = prof_now();
  int done = prior_task_status == ompt_task_complete ||
             prior_task_status == ompt_task_cancel ||
             prior_task_status == ompt_task_detach ||
             (int)prior_task_status == 8; /* ompt_taskwait_complete */
  if (done && prior_task_data != NULL && prior_task_data->ptr != NULL) {
    int found = 0;
    for (int i = depth_of(t) - 1; i >= 1 && !found; i--) {
      if (t->stack[i].ref == prior_task_data &&
          t->stack[i].node->kind == PK_TASK) {
        pop_to(t, i, now);
        found = 1;
      }
    }
    if (!found && t->overflow > 0)
      t->overflow--; /* a task beyond the recorded depth */
  }
  if (next_task_data == NULL || next_task_data->ptr == NULL)
    return;
  for (int i = depth_of(t) - 1; i >= 1; i--)
    if (t->stack[i].ref == next_task_data && t->stack[i].node->kind == PK_TASK)
      return; /* resumed */
  prof_node *creator = next_task_data->ptr;
  if (creator->kind != PK_TASK)
    return;
  prof_frame *f = push(
      t, child(t, creator->lparent, PK_TASK, 0, creator->codeptr, NULL), now);
  if (f != NULL)
    f->ref = next_task_data;
}

static void on_flush(ompt_data_t *thread_data, const void *codeptr_ra) {
  (void)thread_data;
  if (!running())
    return;
  prof_thread *t = self();
  if (t == NULL)
    return;
  prof_node *n = child(t, top_node(t), PK_FLUSH, 0, codeptr_ra, NULL);
  if (n != NULL)
    n->visits++;
}

static void on_cancel(ompt_data_t *task_data, int flags,
                      const void *codeptr_ra) {
  (void)task_data;
  (void)flags;
  if (!running())
    return;
  prof_thread *t = self();
  if (t == NULL)
    return;
  prof_node *n = child(t, top_node(t), PK_CANCEL, 0, codeptr_ra, NULL);
  if (n != NULL)
    n->visits++;
}

/* ------------------------------------------------------------------------
 * Settings, activation, the end.
 * --------------------------------------------------------------------- */

static void msg(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void msg(const char *fmt, ...) {
  char buf[1024];
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(buf, sizeof buf, fmt, ap);
  va_end(ap);
  if (n < 0)
    return;
  fprintf(stderr, "pompt-prof: %s\n", buf);
}

static long env_long(const char *name, long def, long min, long max) {
  const char *v = getenv(name);
  if (v == NULL || v[0] == '\0')
    return def;
  char *end;
  errno = 0;
  long x = strtol(v, &end, 10);
  if (errno != 0 || *end != '\0' || x < min || x > max) {
    msg("%s='%s' is not a number from %ld to %ld; using %ld", name, v, min, max,
        def);
    return def;
  }
  return x;
}

static int env_bool(const char *name, int def) {
  const char *v = getenv(name);
  if (v == NULL || v[0] == '\0')
    return def;
  if (strcmp(v, "1") == 0 || strcasecmp(v, "yes") == 0 ||
      strcasecmp(v, "on") == 0 || strcasecmp(v, "true") == 0)
    return 1;
  if (strcmp(v, "0") == 0 || strcasecmp(v, "no") == 0 ||
      strcasecmp(v, "off") == 0 || strcasecmp(v, "false") == 0)
    return 0;
  msg("%s='%s' is neither 0 nor 1; using %d", name, v, def);
  return def;
}

static void read_config(void) {
  const char *dir = getenv("POMPT_PROF_DIR");
  snprintf(prof_cfg.dir, sizeof prof_cfg.dir, "%s",
           dir != NULL && dir[0] != '\0' ? dir : ".");
  const char *fmt = getenv("POMPT_PROF_FORMAT");
  prof_cfg.formats = PF_ALL;
  if (fmt != NULL && fmt[0] != '\0') {
    const char *bad = NULL;
    int f = prof_parse_formats(fmt, &bad);
    if (f < 0)
      msg("POMPT_PROF_FORMAT='%s': unknown format '%s' (text, json, csv, "
          "trace, html, all, none); writing all",
          fmt, bad ? bad : "");
    else
      prof_cfg.formats = f;
  }
  prof_cfg.top = (int)env_long("POMPT_PROF_TOP", 20, 0, 1000000);
  prof_cfg.quiet = env_bool("POMPT_PROF_QUIET", 0);
  prof_cfg.trace = env_bool("POMPT_PROF_TRACE", 1);
  prof_cfg.trace_max =
      (uint64_t)env_long("POMPT_PROF_TRACE_MAX", 200000, 0, 1000000000L);
  if (prof_cfg.trace_max == 0)
    prof_cfg.trace = 0;
  if (!(prof_cfg.formats & (PF_TRACE | PF_HTML)))
    prof_cfg.trace = 0;
  const char *papi = getenv("POMPT_PROF_PAPI");
  snprintf(prof_cfg.papi, sizeof prof_cfg.papi, "%s", papi ? papi : "");
}

static void finish(void) {
  if (atomic_exchange(&written, 1))
    return;
  if (atomic_load(&state) != ST_RUNNING || getpid() != owner_pid) {
    atomic_store(&state, ST_DONE);
    return;
  }
  atomic_store(&state, ST_DONE);
  if (prof_cfg.formats == 0 && prof_cfg.quiet)
    return; /* -f none -q: nothing to show, nothing to compute */
  uint64_t now = prof_now();
  prof_phase(NULL);
  prof_clock_end();
  prof_profile *p = prof_collect(now);
  if (p == NULL)
    return;
  /* base name: pompt-prof.<app>[.rank<r>].<pid> */
  char base[512];
  if (p->rank >= 0)
    snprintf(base, sizeof base, "pompt-prof.%s.rank%d.%ld", p->app, p->rank,
             p->pid);
  else
    snprintf(base, sizeof base, "pompt-prof.%s.%ld", p->app, p->pid);
  prof_report_opts o = {.top = prof_cfg.top};
  prof_write_all(p, prof_cfg.dir, base, prof_cfg.formats, &o, stderr,
                 !prof_cfg.quiet);
  prof_free(p);
  prof_phase("free");
}

static int tool_initialize(ompt_function_lookup_t lookup,
                           int initial_device_num, ompt_data_t *tool_data) {
  (void)initial_device_num;
  (void)tool_data;
  set_callback = (ompt_set_callback_t)lookup("ompt_set_callback");
  if (set_callback == NULL) {
    msg("the OpenMP runtime offers no ompt_set_callback; not profiling");
    return 0;
  }
  /* libpompt may describe its constructs itself (the CTC strings); else
     source locations come from the debug information. */
  prof_region_info = (prof_region_info_fn)lookup("pompt_region_info");
  prof_phase("runtime");
  prof_clock_init();
  prof_phase("clock");
  prof_t_start = prof_now();
  owner_pid = getpid();
  if (prof_cfg.papi[0] != '\0')
    prof_papi_init(prof_cfg.papi);

#define REG(event, fn) set_callback(event, (ompt_callback_t)(fn))
  REG(ompt_callback_thread_begin, on_thread_begin);
  REG(ompt_callback_thread_end, on_thread_end);
  REG(ompt_callback_parallel_begin, on_parallel_begin);
  REG(ompt_callback_parallel_end, on_parallel_end);
  REG(ompt_callback_implicit_task, on_implicit_task);
  REG(ompt_callback_work, on_work);
  REG(ompt_callback_masked, on_masked);
  REG(ompt_callback_sync_region, on_sync_region);
  REG(ompt_callback_sync_region_wait, on_sync_region_wait);
  /* the same signature; kind ompt_sync_region_reduction */
  REG(ompt_callback_reduction, on_sync_region);
  REG(ompt_callback_mutex_acquire, on_mutex_acquire);
  REG(ompt_callback_mutex_acquired, on_mutex_acquired);
  REG(ompt_callback_mutex_released, on_mutex_released);
  REG(ompt_callback_nest_lock, on_nest_lock);
  REG(ompt_callback_task_create, on_task_create);
  REG(ompt_callback_task_schedule, on_task_schedule);
  REG(ompt_callback_flush, on_flush);
  REG(ompt_callback_cancel, on_cancel);
#undef REG
  prof_phase("callbacks");
  atomic_store(&state, ST_RUNNING);
  prof_signal_init(finish);
  prof_phase("signals");
  return 1;
}

static void tool_finalize(ompt_data_t *tool_data) {
  (void)tool_data;
  finish();
}

/* A process forked from a profiled one starts a profile of its own: what
   its parent recorded is not its own, so it starts from no records, with
   the forking thread (the only one in the child) as its first thread, and
   writes pompt-prof.<program>.<its pid>.* when it exits.  One that execs
   starts afresh anyway.  PAPI counting stays with the parent (its event
   sets are the parent's threads'). */
static void in_child(void) {
  if (atomic_load(&state) != ST_RUNNING)
    return; /* the parent had finished: nothing to profile */
  prof_thread *old = atomic_exchange(&prof_threads, NULL);
  if (old != NULL) {
    prof_thread *last = old;
    while (last->next_all != NULL)
      last = last->next_all;
    last->next_all = atomic_load(&inherited);
    atomic_store(&inherited, old);
  }
  int type = tls_me != NULL ? tls_me->type : ompt_thread_initial;
  tls_me = NULL;
  memset(holders, 0, sizeof holders);
  atomic_store(&next_index, 0);
  snprintf(prof_papi_status, sizeof prof_papi_status, "%s",
           prof_papi_n > 0 ? "PAPI: a forked child counts no events" : "");
  prof_papi_n = 0;
  owner_pid = getpid();
  prof_t_start = prof_now();
  atomic_store(&written, 0);
  thread_attach(type);
  prof_signal_after_fork();
  atomic_store(&child_needs_helper, 1);
}

/* If the runtime never finalizes the tool (it is unloaded, or the program
   leaves through a path the runtime does not see), the profile is written
   when the library is unloaded. */
__attribute__((destructor)) static void at_unload(void) {
  finish();
}

/* The one symbol the library exports. */
__attribute__((visibility("default"))) ompt_start_tool_result_t *
ompt_start_tool(unsigned int omp_version, const char *runtime_version) {
  (void)omp_version;
  static ompt_start_tool_result_t result = {
      .initialize = tool_initialize,
      .finalize = tool_finalize,
      .tool_data = {0},
  };
  if (atomic_load(&state) != ST_IDLE)
    return NULL; /* one activation per process */
  prof_phase(NULL);
  snprintf(prof_runtime_version, sizeof prof_runtime_version, "%s",
           runtime_version != NULL ? runtime_version : "");
  read_config();
  prof_phase("start_tool");
  pthread_atfork(NULL, NULL, in_child);
  return &result;
}
