/*
 * prof_collect.c - from every thread's record to one profile.
 *
 * Runs once, at the end, on the finalizing thread.  Other threads may still
 * be alive (a program that calls exit inside a parallel region); their
 * records are only read, through counts published with release stores, and
 * constructs still open are closed at `now` in the copy.
 *
 * Nodes of all threads become regions keyed by (parent region, kind,
 * source location): a worker's parallel region names the primary's node as
 * its logical parent and a task its creator's, so the threads' trees fold
 * into one call tree of constructs.
 */
#define _GNU_SOURCE

#include <limits.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "prof_model.h"
#include "prof_tool.h"

/* A node's measurements as copied for the profile. */
typedef struct snap {
  uint64_t visits, created, count, time, child;
  uint64_t papi[PROF_MAX_EVENTS];
  int valid;
} snap;

typedef struct tview {
  prof_thread *t;
  uint32_t nnodes;
  prof_node **nodes; /* by id */
  snap *s;
  uint64_t ntrace;
  int open; /* frames still open at the end */
} tview;

/* ---- string-keyed map of regions -------------------------------------- */

typedef struct rmap {
  char **keys;
  int *vals;
  size_t cap, n;
} rmap;

static size_t str_hash(const char *s) {
  size_t h = 1469598103934665603ull;
  for (; *s; s++)
    h = (h ^ (unsigned char)*s) * 1099511628211ull;
  return h;
}

static int rmap_get(const rmap *m, const char *key) {
  if (m->cap == 0)
    return -1;
  for (size_t i = str_hash(key) & (m->cap - 1);; i = (i + 1) & (m->cap - 1)) {
    if (m->keys[i] == NULL)
      return -1;
    if (strcmp(m->keys[i], key) == 0)
      return m->vals[i];
  }
}

static void rmap_put(rmap *m, const char *key, int val) {
  if (2 * (m->n + 1) > m->cap) {
    size_t cap = m->cap ? 2 * m->cap : 256;
    char **keys = prof_xcalloc(cap, sizeof *keys);
    int *vals = prof_xcalloc(cap, sizeof *vals);
    for (size_t j = 0; j < m->cap; j++) {
      if (m->keys[j] == NULL)
        continue;
      size_t i = str_hash(m->keys[j]) & (cap - 1);
      while (keys[i] != NULL)
        i = (i + 1) & (cap - 1);
      keys[i] = m->keys[j];
      vals[i] = m->vals[j];
    }
    free(m->keys);
    free(m->vals);
    m->keys = keys;
    m->vals = vals;
    m->cap = cap;
  }
  size_t i = str_hash(key) & (m->cap - 1);
  while (m->keys[i] != NULL)
    i = (i + 1) & (m->cap - 1);
  m->keys[i] = prof_xstrdup(key);
  m->vals[i] = val;
  m->n++;
}

static void rmap_free(rmap *m) {
  for (size_t i = 0; i < m->cap; i++)
    free(m->keys[i]);
  free(m->keys);
  free(m->vals);
}

/* ---- locations ---------------------------------------------------------- */

typedef struct ctx {
  prof_profile *p;
  const void **addrs; /* sorted, unique */
  prof_loc *locs;
  int naddrs;
  rmap regions; /* "parent|kind|sub|place" -> region */
  char **place; /* per region: "file:line" or module+offset or "" */
  int cap_place;
} ctx;

static int addr_cmp(const void *a, const void *b) {
  uintptr_t x = (uintptr_t) * (const void *const *)a;
  uintptr_t y = (uintptr_t) * (const void *const *)b;
  return x < y ? -1 : x > y;
}

static const prof_loc *loc_of(const ctx *c, const void *addr) {
  if (addr == NULL)
    return NULL;
  const void **hit =
      bsearch(&addr, c->addrs, (size_t)c->naddrs, sizeof *c->addrs, addr_cmp);
  return hit ? &c->locs[hit - c->addrs] : NULL;
}

/* The key of a location: its file and line when known, else the module
   and offset. */
static void place_key(const prof_loc *l, char *buf, size_t size) {
  if (l == NULL)
    snprintf(buf, size, "%s", "");
  else if (l->file != NULL && l->file[0] != '\0')
    snprintf(buf, size, "%s:%d", l->file, l->line);
  else
    snprintf(buf, size, "%s+0x%llx", l->module ? l->module : "?",
             (unsigned long long)l->offset);
}

static const char *sub_name(int kind, int sub) {
  if (kind == PK_LOOP) {
    switch (sub) {
    case PROF_SCHED_STATIC:
      return "static";
    case PROF_SCHED_DYNAMIC:
      return "dynamic";
    case PROF_SCHED_GUIDED:
      return "guided";
    case PROF_SCHED_OTHER:
      return "other";
    default:
      return "";
    }
  }
  return ""; /* single executor and other are one construct */
}

static void set_place(ctx *c, int gid, const char *place) {
  if (gid >= c->cap_place) {
    int cap = c->cap_place ? 2 * c->cap_place : 256;
    while (cap <= gid)
      cap *= 2;
    char **n = prof_xcalloc((size_t)cap, sizeof *n);
    if (c->cap_place)
      memcpy(n, c->place, (size_t)c->cap_place * sizeof *n);
    free(c->place);
    c->place = n;
    c->cap_place = cap;
  }
  c->place[gid] = prof_xstrdup(place);
}

/* The region of a node with the given parent region, creating it. */
static int intern(ctx *c, int gparent, const prof_node *n, int find_only) {
  const prof_loc *l = loc_of(c, n->key);
  char place[1200];
  place_key(l, place, sizeof place);
  const char *sub = sub_name(n->kind, n->sub);
  char key[1400];
  snprintf(key, sizeof key, "%d|%d|%s|%s", gparent, n->kind, sub, place);
  int g = rmap_get(&c->regions, key);
  if (g >= 0 || find_only)
    return g;
  const char *file = "", *func = "", *module = "";
  int line = 0;
  uint64_t offset = 0;
  if ((l == NULL || l->file == NULL || l->file[0] == '\0') &&
      n->blame != NULL && n->blame->gid >= 0) {
    /* a barrier the runtime entered from its own code: shown at the
       construct it belongs to */
    const prof_region *br = &c->p->regions[n->blame->gid];
    file = br->file;
    line = br->line;
    func = br->func;
    module = br->module;
    offset = br->offset;
  } else if (l != NULL) {
    file = l->file ? l->file : "";
    line = l->line;
    func = l->func ? l->func : "";
    module = l->module ? l->module : "";
    offset = l->offset;
  } else if (gparent >= 0 && n->kind != PK_THREAD) {
    /* no address of its own (end-of-parallel barrier, the wait inside a
       critical): shown at its construct's place */
    const prof_region *pr = &c->p->regions[gparent];
    file = pr->file;
    line = pr->line;
    func = pr->func;
    module = pr->module;
    offset = pr->offset;
  }
  g = prof_add_region(c->p, gparent, n->kind, sub, file, line, func, module,
                      offset);
  rmap_put(&c->regions, key, g);
  set_place(c, g, place);
  return g;
}

static int gid_of(ctx *c, prof_node *n);

/* A single's non-executing threads report another address than the
   executing one (libpompt: the end of the block); they belong to the
   nearest executed single at or before their line in the same region. */
static int single_other(ctx *c, prof_node *n) {
  int gp = n->lparent ? gid_of(c, n->lparent) : -1;
  int g = intern(c, gp, n, 1);
  if (g >= 0)
    return g;
  const prof_loc *l = loc_of(c, n->key);
  if (l != NULL && l->file != NULL && l->file[0] != '\0') {
    int best = -1;
    for (int i = 0; i < c->p->nregions; i++) {
      const prof_region *r = &c->p->regions[i];
      if (r->parent != gp || r->kind != PK_SINGLE ||
          strcmp(r->file, l->file) != 0 || r->line > l->line)
        continue;
      if (best < 0 || r->line > c->p->regions[best].line)
        best = i;
    }
    if (best >= 0)
      return best;
  }
  return intern(c, gp, n, 0);
}

static int gid_of(ctx *c, prof_node *n) {
  if (n->gid >= 0)
    return n->gid;
  if (n->kind == PK_SINGLE && n->sub == PROF_SINGLE_OTHER) {
    n->gid = single_other(c, n);
    return n->gid;
  }
  int gp = n->lparent ? gid_of(c, n->lparent) : -1;
  if (n->blame != NULL)
    gid_of(c, n->blame);
  n->gid = intern(c, gp, n, 0);
  return n->gid;
}

/* ---- what ran ----------------------------------------------------------- */

static void app_name(char *buf, size_t size) {
  char exe[4096];
  ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
  const char *name = "app";
  if (n > 0) {
    exe[n] = '\0';
    const char *s = strrchr(exe, '/');
    name = s ? s + 1 : exe;
  }
  size_t j = 0;
  for (const char *s = name; *s && j + 1 < size; s++) {
    char ch = *s;
    int ok = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
             (ch >= '0' && ch <= '9') || ch == '-' || ch == '_' || ch == '.';
    buf[j++] = ok ? ch : '_';
  }
  buf[j] = '\0';
  if (j == 0)
    snprintf(buf, size, "app");
}

static char *command_line(void) {
  FILE *f = fopen("/proc/self/cmdline", "r");
  if (f == NULL)
    return prof_xstrdup("");
  char buf[4096];
  size_t n = fread(buf, 1, sizeof buf - 1, f);
  fclose(f);
  for (size_t i = 0; i < n; i++)
    if (buf[i] == '\0')
      buf[i] = ' ';
  while (n > 0 && buf[n - 1] == ' ')
    n--;
  buf[n] = '\0';
  return prof_xstrdup(buf);
}

/* The MPI rank from the launcher's environment, -1 outside MPI. */
static int mpi_rank(void) {
  static const char *const vars[] = {
      "OMPI_COMM_WORLD_RANK", "PMIX_RANK",    "PMI_RANK", "MV2_COMM_WORLD_RANK",
      "PALS_RANKID",          "SLURM_PROCID", NULL};
  for (int i = 0; vars[i] != NULL; i++) {
    const char *v = getenv(vars[i]);
    if (v == NULL || v[0] == '\0')
      continue;
    char *end;
    long r = strtol(v, &end, 10);
    if (*end == '\0' && r >= 0 && r < INT_MAX)
      return (int)r;
  }
  return -1;
}

static const char *thread_type(int type) {
  switch (type) {
  case ompt_thread_initial:
    return "initial";
  case ompt_thread_worker:
    return "worker";
  case ompt_thread_other:
    return "other";
  default:
    return "unknown";
  }
}

static int thread_cmp(const void *a, const void *b) {
  const prof_thread *x = *(prof_thread *const *)a;
  const prof_thread *y = *(prof_thread *const *)b;
  return (x->index > y->index) - (x->index < y->index);
}

static int slice_cmp(const void *a, const void *b) {
  const prof_slice *x = a, *y = b;
  if (x->t0 != y->t0)
    return x->t0 < y->t0 ? -1 : 1;
  return x->depth - y->depth;
}

/* A thread's slices while they are made: the first `nchunk` where its
   callbacks recorded them, PROF_TRACE_CHUNK to a chunk (a record and a
   slice are the same size: each record becomes a slice in its place, so
   the timeline takes no fresh memory, which costs a page fault per 170
   slices), then the frames still open, in a block of their own: past the
   records read, a thread that still runs may be writing. */
typedef struct slice_seq {
  prof_slice **chunk;
  size_t nchunk;
  prof_slice *open;
  size_t n;
} slice_seq;

_Static_assert(sizeof(prof_slice) == sizeof(prof_trace_rec) &&
                   _Alignof(prof_slice) <= _Alignof(prof_trace_rec),
               "a trace record's place holds a slice");

static prof_slice *seq_at(const slice_seq *q, size_t i) {
  return i < q->nchunk ? &q->chunk[i / PROF_TRACE_CHUNK][i % PROF_TRACE_CHUNK]
                       : &q->open[i - q->nchunk];
}

/* The first position of the contiguous piece that holds position i. */
static size_t seq_piece(const slice_seq *q, size_t i) {
  return i < q->nchunk ? i - i % PROF_TRACE_CHUNK : q->nchunk;
}

/* Puts a thread's slices in start order (enclosing before nested).  They
   are recorded when they end, so a slice comes after everything nested in
   it and otherwise in start order: an insertion sort moves each slice
   back over its own nested slices only (at most the nesting depth plus
   the locks held per slice on average), a linear pass over hundreds of
   thousands of slices where qsort would take n log n with a copy.  Slices
   move a piece at a time (memmove within a chunk). */
static void order_by_start(slice_seq *q) {
  for (size_t i = 1; i < q->n; i++) {
    if (slice_cmp(seq_at(q, i - 1), seq_at(q, i)) <= 0)
      continue;
    prof_slice x = *seq_at(q, i);
    size_t lo = 0, hi = i;
    while (lo < hi) {
      size_t mid = lo + (hi - lo) / 2;
      if (slice_cmp(seq_at(q, mid), &x) <= 0)
        lo = mid + 1;
      else
        hi = mid;
    }
    /* [lo, i) up by one; k is the free place */
    size_t k = i;
    while (k > lo) {
      size_t first = seq_piece(q, k);
      if (first < k) { /* k - 1 in the same piece */
        size_t m = first > lo ? first : lo;
        memmove(seq_at(q, m + 1), seq_at(q, m), (k - m) * sizeof x);
        k = m;
      } else {
        *seq_at(q, k) = *seq_at(q, k - 1);
        k--;
      }
    }
    *seq_at(q, lo) = x;
  }
}

/* When each open frame of a thread ends: now, except that a worker's
   implicit task (and what it still has open, its end-of-parallel barrier)
   ended at the primary's join when that is known: runtimes tell a worker
   that its task ended only when they wake it again. */
static void frame_ends(prof_thread *t, int depth, uint64_t now,
                       uint64_t *ends) {
  uint64_t lim = now;
  for (int d = 0; d < depth; d++) {
    prof_frame *f = &t->stack[d];
    if (f->node != NULL && f->node->kind == PK_PARALLEL && f->worker &&
        f->ref != NULL) {
      uint64_t j = atomic_load_explicit(&((prof_node *)f->ref)->join_time,
                                        memory_order_acquire);
      if (j >= f->t0 && j < lim)
        lim = j;
    }
    ends[d] = lim;
  }
}

/* Thread t's timeline: its records turned into slices where they lie,
   in start order, and the constructs it is still in (depth frames, ended
   by frame_ends). */
static void make_timeline(prof_timeline *tl, prof_thread *t, const tview *v,
                          int depth, uint64_t now) {
  /* the region of each node's slices, -1: none (the thread itself) */
  int *gid = prof_xcalloc((size_t)v->nnodes + 1, sizeof *gid);
  for (uint32_t i = 0; i < v->nnodes; i++)
    gid[i] = v->nodes[i]->kind == PK_PROGRAM || v->nodes[i]->kind == PK_THREAD
                 ? -1
                 : v->nodes[i]->gid;
  size_t nchunks =
      (size_t)(v->ntrace + PROF_TRACE_CHUNK - 1) / PROF_TRACE_CHUNK;
  prof_trace_chunk **rec = prof_xcalloc(nchunks + 1, sizeof *rec);
  slice_seq q = {prof_xcalloc(nchunks + 1, sizeof *q.chunk), 0, NULL, 0};
  size_t have = 0;
  for (prof_trace_chunk *ch = t->trace_first; ch != NULL && have < nchunks;
       ch = ch->next) {
    rec[have] = ch;
    q.chunk[have++] = (prof_slice *)(void *)ch->r;
  }
  uint64_t nrec = (uint64_t)have * PROF_TRACE_CHUNK < v->ntrace
                      ? (uint64_t)have * PROF_TRACE_CHUNK
                      : v->ntrace;
  /* each record read, then its slice written at or before its place */
  size_t w = 0;
  uint64_t latest = 0;
  for (uint64_t i = 0; i < nrec; i++) {
    prof_trace_rec r;
    memcpy(&r, &rec[i / PROF_TRACE_CHUNK]->r[i % PROF_TRACE_CHUNK], sizeof r);
    if (r.node >= v->nnodes || gid[r.node] < 0)
      continue;
    prof_slice sl = {gid[r.node], r.depth, prof_ns(r.t0 - prof_t_start),
                     prof_ns(r.t1 - prof_t_start)};
    memcpy(&q.chunk[w / PROF_TRACE_CHUNK][w % PROF_TRACE_CHUNK], &sl,
           sizeof sl);
    w++;
    if (sl.t1 > latest)
      latest = sl.t1;
  }
  q.nchunk = w;
  q.open = prof_xcalloc((size_t)depth + 1, sizeof *q.open);
  size_t nopen = 0;
  uint64_t ends[PROF_MAX_DEPTH];
  frame_ends(t, depth, now, ends);
  for (int d = 1; d < depth; d++) { /* still open */
    prof_frame *f = &t->stack[d];
    if (f->node == NULL || f->node->id >= v->nnodes)
      continue;
    q.open[nopen++] =
        (prof_slice){f->node->gid, d, prof_ns(f->t0 - prof_t_start),
                     prof_ns(ends[d] - prof_t_start)};
  }
  q.n = w + nopen;
  order_by_start(&q);
  for (size_t i = 0; i < nopen; i++)
    if (q.open[i].t1 > latest)
      latest = q.open[i].t1;
  tl->end = latest;
  size_t nparts = (w + PROF_TRACE_CHUNK - 1) / PROF_TRACE_CHUNK;
  tl->part = prof_xcalloc(nparts + 1, sizeof *tl->part);
  tl->len = prof_xcalloc(nparts + 1, sizeof *tl->len);
  for (size_t k = 0; k < nparts; k++) {
    tl->part[k] = q.chunk[k];
    tl->len[k] =
        (int)(k + 1 < nparts ? PROF_TRACE_CHUNK : w - k * PROF_TRACE_CHUNK);
  }
  tl->nparts = (int)nparts;
  if (nopen > 0) {
    tl->part[tl->nparts] = q.open;
    tl->len[tl->nparts++] = (int)nopen;
  }
  tl->owned = q.open;
  tl->n = (int)q.n;
  free(q.chunk);
  free(rec);
  free(gid);
}

prof_profile *prof_collect(uint64_t now) {
  int nt = 0;
  for (prof_thread *t = atomic_load(&prof_threads); t; t = t->next_all)
    nt++;
  if (nt == 0)
    return NULL;
  prof_thread **th = prof_xcalloc((size_t)nt, sizeof *th);
  int k = 0;
  for (prof_thread *t = atomic_load(&prof_threads); t && k < nt;
       t = t->next_all)
    th[k++] = t;
  nt = k;
  qsort(th, (size_t)nt, sizeof *th, thread_cmp);

  /* Counters of the constructs the finishing thread is still in (the
     program itself): a last read.  Other threads' counters can only be read
     by themselves; their open constructs keep what they had. */
  prof_thread *me = prof_self();
  long long last[PROF_MAX_EVENTS];
  int have_last = me != NULL && prof_papi_n > 0 && me->papi_ok;
  if (have_last)
    prof_papi_read(me, last);

  /* Copy every thread's nodes; close what is still open. */
  tview *tv = prof_xcalloc((size_t)nt, sizeof *tv);
  for (int u = 0; u < nt; u++) {
    prof_thread *t = th[u];
    tview *v = &tv[u];
    v->t = t;
    v->ntrace = atomic_load_explicit(&t->ntrace, memory_order_acquire);
    v->nnodes = atomic_load_explicit(&t->nnodes, memory_order_acquire);
    v->nodes = prof_xcalloc(v->nnodes, sizeof *v->nodes);
    v->s = prof_xcalloc(v->nnodes, sizeof *v->s);
    uint32_t i = 0;
    for (prof_node_chunk *c = t->chunk_first; c != NULL && i < v->nnodes;
         c = c->next)
      for (int j = 0; j < PROF_NODE_CHUNK && i < v->nnodes; j++)
        v->nodes[i++] = &c->n[j];
    for (i = 0; i < v->nnodes; i++) {
      prof_node *n = v->nodes[i];
      snap *s = &v->s[i];
      n->gid = -1;
      s->visits = n->visits;
      s->created = n->created;
      s->count = n->count;
      s->time = n->time;
      s->child = n->child_time;
      for (int e = 0; e < prof_papi_n; e++)
        s->papi[e] = n->papi[e];
      s->valid = 1;
    }
    if (!atomic_load(&t->ended)) {
      int depth = atomic_load_explicit(&t->depth, memory_order_acquire);
      if (depth > PROF_MAX_DEPTH)
        depth = PROF_MAX_DEPTH;
      uint64_t ends[PROF_MAX_DEPTH];
      frame_ends(t, depth, now, ends);
      uint64_t carry = 0;
      v->open = 0;
      for (int d = depth - 1; d >= 0; d--) {
        prof_frame *f = &t->stack[d];
        if (f->node == NULL || f->node->id >= v->nnodes)
          continue;
        snap *s = &v->s[f->node->id];
        uint64_t dt = ends[d] > f->t0 ? ends[d] - f->t0 : 0;
        s->time += dt;
        s->child += f->child + carry;
        if (have_last && t == me)
          for (int e = 0; e < prof_papi_n; e++)
            s->papi[e] += prof_papi_delta(f->papi0[e], last[e]);
        carry = dt;
        if (d > 0 && ends[d] == now)
          v->open++;
      }
      for (int h = 0; h < t->nheld && h < PROF_MAX_HELD; h++) {
        prof_node *n = t->held[h].node;
        if (n != NULL && n->id < v->nnodes && now > t->held[h].t0)
          v->s[n->id].time += now - t->held[h].t0;
      }
    }
  }

  /* A runtime may report no begin address for a worksharing construct
     (libomp 14 for some dynamic loops); another visit that ended at the
     same address tells which construct it was. */
  for (int u = 0; u < nt; u++)
    for (uint32_t i = 0; i < tv[u].nnodes; i++)
      tv[u].nodes[i]->key = tv[u].nodes[i]->codeptr;
  for (int u = 0; u < nt; u++) {
    for (uint32_t i = 0; i < tv[u].nnodes; i++) {
      prof_node *n = tv[u].nodes[i];
      if (n->codeptr != NULL || n->end_codeptr == NULL)
        continue;
      for (int u2 = 0; u2 < nt && n->key == NULL; u2++)
        for (uint32_t i2 = 0; i2 < tv[u2].nnodes && n->key == NULL; i2++) {
          prof_node *o = tv[u2].nodes[i2];
          if (o->codeptr != NULL && o->end_codeptr == n->end_codeptr &&
              o->kind == n->kind)
            n->key = o->codeptr;
        }
    }
  }

  /* Resolve every code address once. */
  ctx c;
  memset(&c, 0, sizeof c);
  size_t total = 0;
  for (int u = 0; u < nt; u++)
    total += tv[u].nnodes;
  c.addrs = prof_xcalloc(total + 1, sizeof *c.addrs);
  size_t na = 0;
  for (int u = 0; u < nt; u++)
    for (uint32_t i = 0; i < tv[u].nnodes; i++)
      if (tv[u].nodes[i]->key != NULL)
        c.addrs[na++] = tv[u].nodes[i]->key;
  qsort(c.addrs, na, sizeof *c.addrs, addr_cmp);
  size_t nu = 0;
  for (size_t i = 0; i < na; i++)
    if (nu == 0 || c.addrs[nu - 1] != c.addrs[i])
      c.addrs[nu++] = c.addrs[i];
  c.naddrs = (int)nu;
  c.locs = prof_xcalloc(nu + 1, sizeof *c.locs);

  prof_profile *p = prof_new(nt);
  prof_phase("snapshot");
  const char *method = prof_symbolize(c.addrs, c.naddrs, c.locs);
  prof_phase("sym:close");
  free(p->symbols);
  p->symbols = prof_xstrdup(method);
  c.p = p;

  p->nevents = prof_papi_n;
  for (int e = 0; e < prof_papi_n; e++) {
    p->events[e] = prof_xstrdup(prof_papi_names[e]);
    p->event_process[e] = prof_papi_process[e];
  }

  /* Regions: the initial thread's root first, then everything else; the
     non-executing threads of singles last, so that they find the
     executing thread's region. */
  for (int u = 0; u < nt; u++)
    if (tv[u].nnodes > 0)
      gid_of(&c, tv[u].nodes[0]);
  for (int pass = 0; pass < 3; pass++) {
    for (int u = 0; u < nt; u++) {
      for (uint32_t i = 0; i < tv[u].nnodes; i++) {
        prof_node *n = tv[u].nodes[i];
        int other = n->kind == PK_SINGLE && n->sub == PROF_SINGLE_OTHER;
        /* 0: constructs, 1: singles seen from the other threads, 2: the
           barriers blamed on constructs (perhaps on such singles) */
        int want = other ? 1 : (n->blame != NULL ? 2 : 0);
        if (want == pass)
          gid_of(&c, n);
      }
    }
  }

  /* Measurements per unit. */
  for (int u = 0; u < nt; u++) {
    tview *v = &tv[u];
    for (uint32_t i = 0; i < v->nnodes; i++) {
      prof_node *n = v->nodes[i];
      snap *s = &v->s[i];
      prof_region *r = &p->regions[n->gid];
      r->visits[u] += s->visits;
      if (n->kind == PK_SINGLE)
        r->created[u] += n->sub == PROF_SINGLE_EXECUTOR ? s->visits : 0;
      else
        r->created[u] += s->created;
      r->time[u] += prof_ns(s->time);
      r->excl[u] += s->time > s->child ? prof_ns(s->time - s->child) : 0;
      r->count += s->count;
      for (int e = 0; e < prof_papi_n; e++)
        r->papi[e][u] += s->papi[e];
      if (n->blame != NULL && r->blame < 0)
        r->blame = gid_of(&c, n->blame);
    }
  }

  /* Waiting at locks and criticals, blamed on the holder's region. */
  for (int u = 0; u < nt; u++) {
    prof_thread *t = tv[u].t;
    for (int i = 0; i < PROF_BLAME_SLOTS; i++) {
      prof_blame_slot *b = &t->blame[i];
      if (b->wait == NULL || b->wait->gid < 0)
        continue;
      char place[1200];
      place_key(loc_of(&c, b->holder), place, sizeof place);
      if (loc_of(&c, b->holder) == NULL)
        continue;
      int cause = -1;
      for (int g = 0; g < p->nregions && cause < 0; g++)
        if (p->regions[g].kind == b->holder_kind && g < c.cap_place &&
            c.place[g] != NULL && strcmp(c.place[g], place) == 0)
          cause = g;
      if (cause >= 0)
        prof_add_blame(p, b->wait->gid, cause, prof_ns(b->ns));
    }
  }

  /* Units and the timeline. */
  if (prof_cfg.trace)
    p->timeline = prof_xcalloc((size_t)nt, sizeof *p->timeline);
  for (int u = 0; u < nt; u++) {
    prof_thread *t = tv[u].t;
    prof_unit *un = &p->units[u];
    un->thread = t->index;
    free(un->type);
    un->type = prof_xstrdup(thread_type(t->type));
    uint64_t end = atomic_load(&t->ended) ? t->t_end : now;
    un->time = end > t->t_begin ? prof_ns(end - t->t_begin) : 0;
    if (!prof_cfg.trace)
      continue;
    tview *v = &tv[u];
    int depth = atomic_load(&t->ended)
                    ? 0
                    : atomic_load_explicit(&t->depth, memory_order_acquire);
    if (depth > PROF_MAX_DEPTH)
      depth = PROF_MAX_DEPTH;
    make_timeline(&p->timeline[u], t, v, depth, now);
  }

  prof_phase("timeline");
  /* What ran. */
  char app[256];
  app_name(app, sizeof app);
  free(p->app);
  p->app = prof_xstrdup(app);
  free(p->cmdline);
  p->cmdline = command_line();
  char host[256] = "";
  gethostname(host, sizeof host - 1);
  free(p->host);
  p->host = prof_xstrdup(host);
  free(p->runtime);
  p->runtime = prof_xstrdup(prof_runtime_version);
  p->pid = (long)getpid();
  p->rank = mpi_rank();
  p->wall = (double)prof_ns(now - prof_t_start) / 1e9;
  free(p->clock);
  p->clock = prof_xstrdup(prof_clock_tsc ? "tsc" : "monotonic");
  time_t started = time(NULL) - (time_t)(p->wall + 0.5);
  struct tm tm;
  char iso[64] = "";
  if (gmtime_r(&started, &tm) != NULL)
    strftime(iso, sizeof iso, "%Y-%m-%dT%H:%M:%SZ", &tm);
  free(p->start);
  p->start = prof_xstrdup(iso);

  /* Notes on anything incomplete. */
  int sig = atomic_load(&prof_end_signal);
  if (sig != 0)
    prof_add_note(p,
                  "the program was ended by %s; the constructs threads were "
                  "in were closed then",
                  prof_signal_name(sig));
  if (prof_papi_status[0] != '\0')
    prof_add_note(p, "%s", prof_papi_status);
  for (int e = 0; have_last && me->papi_reader && e < prof_papi_n; e++)
    if (prof_papi_process[e] && last[e] < 0)
      prof_add_note(p,
                    "PAPI: no library registered the software-defined event "
                    "%s; it counted nothing",
                    prof_papi_names[e]);
  int unresolved = 0;
  for (int i = 0; i < c.naddrs; i++)
    if (c.locs[i].file == NULL || c.locs[i].file[0] == '\0')
      unresolved++;
  if (unresolved > 0)
    prof_add_note(p,
                  "%d of %d code addresses have no source line (build with -g "
                  "for file:line)",
                  unresolved, c.naddrs);
  for (int u = 0; u < nt; u++) {
    prof_thread *t = tv[u].t;
    if (t->trace_dropped > 0)
      prof_add_note(p,
                    "timeline of thread %d: %llu slices not recorded beyond "
                    "POMPT_PROF_TRACE_MAX=%llu",
                    t->index, (unsigned long long)t->trace_dropped,
                    (unsigned long long)prof_cfg.trace_max);
    if (t->overflow_total > 0)
      prof_add_note(p,
                    "thread %d: %llu regions nested deeper than %d were not "
                    "recorded",
                    t->index, (unsigned long long)t->overflow_total,
                    PROF_MAX_DEPTH);
    if (tv[u].open > 0)
      prof_add_note(p,
                    "thread %d was inside %d construct(s) when the program "
                    "ended; they were closed at the end",
                    t->index, tv[u].open);
  }

  prof_phase("regions");
  prof_compute(p);
  prof_phase("compute");

  for (int u = 0; u < nt; u++) {
    free(tv[u].nodes);
    free(tv[u].s);
  }
  free(tv);
  free(th);
  for (int i = 0; i < c.naddrs; i++)
    prof_loc_free(&c.locs[i]);
  free(c.locs);
  free(c.addrs);
  for (int i = 0; i < c.cap_place; i++)
    free(c.place[i]);
  free(c.place);
  rmap_free(&c.regions);
  return p;
}
