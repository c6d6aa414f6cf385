/*
 * prof_model.c - the profile: construction, labels, derived statistics.
 */
#define _GNU_SOURCE /* vasprintf */

#include "prof_model.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

static const char *const kind_names[PK_COUNT] = {
    [PK_PROGRAM] = "program",
    [PK_THREAD] = "thread",
    [PK_PARALLEL] = "parallel",
    [PK_LOOP] = "loop",
    [PK_SECTIONS] = "sections",
    [PK_SINGLE] = "single",
    [PK_WORKSHARE] = "workshare",
    [PK_DISTRIBUTE] = "distribute",
    [PK_TASKLOOP] = "taskloop",
    [PK_SCOPE] = "scope",
    [PK_MASKED] = "masked",
    [PK_TASK] = "task",
    [PK_CRITICAL] = "critical",
    [PK_ORDERED] = "ordered",
    [PK_LOCK] = "lock",
    [PK_ATOMIC] = "atomic",
    [PK_TASKGROUP] = "taskgroup",
    [PK_BARRIER] = "barrier",
    [PK_BARRIER_IMPLICIT] = "barrier_implicit",
    [PK_BARRIER_PARALLEL] = "barrier_parallel",
    [PK_BARRIER_RUNTIME] = "barrier_runtime",
    [PK_BARRIER_TEAMS] = "barrier_teams",
    [PK_TASKWAIT] = "taskwait",
    [PK_TASKGROUP_WAIT] = "taskgroup_wait",
    [PK_REDUCTION] = "reduction",
    [PK_WAIT_CRITICAL] = "critical_wait",
    [PK_WAIT_ORDERED] = "ordered_wait",
    [PK_WAIT_LOCK] = "lock_wait",
    [PK_WAIT_ATOMIC] = "atomic_wait",
    [PK_FLUSH] = "flush",
    [PK_CANCEL] = "cancel",
};

/* What people read in the reports. */
static const char *const kind_labels[PK_COUNT] = {
    [PK_PROGRAM] = "program",
    [PK_THREAD] = "thread",
    [PK_PARALLEL] = "parallel",
    [PK_LOOP] = "loop",
    [PK_SECTIONS] = "sections",
    [PK_SINGLE] = "single",
    [PK_WORKSHARE] = "workshare",
    [PK_DISTRIBUTE] = "distribute",
    [PK_TASKLOOP] = "taskloop",
    [PK_SCOPE] = "scope",
    [PK_MASKED] = "masked",
    [PK_TASK] = "task",
    [PK_CRITICAL] = "critical",
    [PK_ORDERED] = "ordered",
    [PK_LOCK] = "lock held",
    [PK_ATOMIC] = "atomic",
    [PK_TASKGROUP] = "taskgroup",
    [PK_BARRIER] = "barrier",
    [PK_BARRIER_IMPLICIT] = "implicit barrier",
    [PK_BARRIER_PARALLEL] = "end-of-parallel barrier",
    [PK_BARRIER_RUNTIME] = "runtime barrier",
    [PK_BARRIER_TEAMS] = "teams barrier",
    [PK_TASKWAIT] = "taskwait",
    [PK_TASKGROUP_WAIT] = "taskgroup wait",
    [PK_REDUCTION] = "reduction",
    [PK_WAIT_CRITICAL] = "critical wait",
    [PK_WAIT_ORDERED] = "ordered wait",
    [PK_WAIT_LOCK] = "lock wait",
    [PK_WAIT_ATOMIC] = "atomic wait",
    [PK_FLUSH] = "flush",
    [PK_CANCEL] = "cancel",
};

const char *prof_kind_name(int kind) {
  if (kind < 0 || kind >= PK_COUNT)
    return "unknown";
  return kind_names[kind];
}

int prof_kind_from_name(const char *name) {
  for (int k = 0; k < PK_COUNT; k++)
    if (strcmp(kind_names[k], name) == 0)
      return k;
  return -1;
}

void *prof_xcalloc(size_t n, size_t size) {
  void *p = calloc(n ? n : 1, size ? size : 1);
  if (p == NULL) {
    fputs("pompt-prof: out of memory\n", stderr);
    abort();
  }
  return p;
}

void prof_prefault(void *mem, size_t len) {
#ifdef MADV_POPULATE_WRITE
  static uintptr_t page;
  if (page == 0) {
    long ps = sysconf(_SC_PAGESIZE);
    page = ps > 0 ? (uintptr_t)ps : 4096;
  }
  uintptr_t a = ((uintptr_t)mem + page - 1) & ~(page - 1);
  uintptr_t e = ((uintptr_t)mem + len) & ~(page - 1);
  if (e > a)
    (void)madvise((void *)a, e - a, MADV_POPULATE_WRITE); /* a hint only */
#else
  (void)mem;
  (void)len;
#endif
}

char *prof_xstrdup(const char *s) {
  size_t n = strlen(s ? s : "") + 1;
  char *d = prof_xcalloc(n, 1);
  memcpy(d, s ? s : "", n);
  return d;
}

char *prof_xasprintf(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  char *s = NULL;
  int n = vasprintf(&s, fmt, ap);
  va_end(ap);
  if (n < 0 || s == NULL) {
    fputs("pompt-prof: out of memory\n", stderr);
    abort();
  }
  return s;
}

prof_profile *prof_new(int nunits) {
  prof_profile *p = prof_xcalloc(1, sizeof *p);
  p->nunits = nunits;
  p->units = prof_xcalloc((size_t)nunits, sizeof *p->units);
  for (int u = 0; u < nunits; u++) {
    p->units[u].rank = -1;
    p->units[u].thread = u;
    p->units[u].type = prof_xstrdup("worker");
  }
  p->pid = -1;
  p->rank = -1;
  p->nranks = 1;
  p->app = prof_xstrdup("");
  p->cmdline = prof_xstrdup("");
  p->host = prof_xstrdup("");
  p->runtime = prof_xstrdup("");
  p->start = prof_xstrdup("");
  p->symbols = prof_xstrdup("none");
  p->clock = prof_xstrdup("");
  return p;
}

void prof_free(prof_profile *p) {
  if (p == NULL)
    return;
  for (int i = 0; i < p->nregions; i++) {
    prof_region *r = &p->regions[i];
    free(r->sub);
    free(r->file);
    free(r->func);
    free(r->module);
    free(r->path);
    free(r->visits);
    free(r->created);
    free(r->time);
    free(r->excl);
    for (int e = 0; e < PROF_MAX_EVENTS; e++)
      free(r->papi[e]);
  }
  free(p->regions);
  free(p->blames);
  for (int u = 0; u < p->nunits; u++)
    free(p->units[u].type);
  free(p->units);
  for (int e = 0; e < p->nevents; e++)
    free(p->events[e]);
  for (int i = 0; i < p->nnotes; i++)
    free(p->notes[i]);
  free(p->notes);
  if (p->timeline != NULL) {
    for (int u = 0; u < p->nunits; u++) {
      free(p->timeline[u].part);
      free(p->timeline[u].len);
      free(p->timeline[u].owned);
    }
    free(p->timeline);
  }
  free(p->app);
  free(p->cmdline);
  free(p->host);
  free(p->runtime);
  free(p->start);
  free(p->symbols);
  free(p->clock);
  free(p);
}

int prof_add_region(prof_profile *p, int parent, int kind, const char *sub,
                    const char *file, int line, const char *func,
                    const char *module, uint64_t offset) {
  if (p->nregions == p->cap_regions) {
    int cap = p->cap_regions ? 2 * p->cap_regions : 64;
    prof_region *n = prof_xcalloc((size_t)cap, sizeof *n);
    if (p->nregions)
      memcpy(n, p->regions, (size_t)p->nregions * sizeof *n);
    free(p->regions);
    p->regions = n;
    p->cap_regions = cap;
  }
  int id = p->nregions++;
  prof_region *r = &p->regions[id];
  memset(r, 0, sizeof *r);
  r->id = id;
  r->parent = parent;
  r->kind = kind;
  r->sub = prof_xstrdup(sub);
  r->file = prof_xstrdup(file);
  r->line = line;
  r->func = prof_xstrdup(func);
  r->module = prof_xstrdup(module);
  r->offset = offset;
  r->blame = -1;
  size_t n = (size_t)p->nunits;
  r->visits = prof_xcalloc(n, sizeof(uint64_t));
  r->created = prof_xcalloc(n, sizeof(uint64_t));
  r->time = prof_xcalloc(n, sizeof(uint64_t));
  r->excl = prof_xcalloc(n, sizeof(uint64_t));
  for (int e = 0; e < p->nevents; e++)
    r->papi[e] = prof_xcalloc(n, sizeof(uint64_t));
  return id;
}

void prof_add_blame(prof_profile *p, int wait, int cause, uint64_t ns) {
  for (int i = 0; i < p->nblames; i++) {
    if (p->blames[i].wait == wait && p->blames[i].cause == cause) {
      p->blames[i].ns += ns;
      return;
    }
  }
  if (p->nblames == p->cap_blames) {
    int cap = p->cap_blames ? 2 * p->cap_blames : 16;
    prof_blame *n = prof_xcalloc((size_t)cap, sizeof *n);
    if (p->nblames)
      memcpy(n, p->blames, (size_t)p->nblames * sizeof *n);
    free(p->blames);
    p->blames = n;
    p->cap_blames = cap;
  }
  p->blames[p->nblames++] = (prof_blame){wait, cause, ns};
}

void prof_add_note(prof_profile *p, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  char *s = NULL;
  int n = vasprintf(&s, fmt, ap);
  va_end(ap);
  if (n < 0 || s == NULL)
    return;
  char **notes = prof_xcalloc((size_t)p->nnotes + 1, sizeof *notes);
  if (p->nnotes)
    memcpy(notes, p->notes, (size_t)p->nnotes * sizeof *notes);
  free(p->notes);
  p->notes = notes;
  p->notes[p->nnotes++] = s;
}

void prof_label(const prof_region *r, char *buf, size_t size) {
  const char *base =
      (r->kind >= 0 && r->kind < PK_COUNT) ? kind_labels[r->kind] : "unknown";
  if (r->sub != NULL && r->sub[0] != '\0')
    snprintf(buf, size, "%s(%s)", base, r->sub);
  else
    snprintf(buf, size, "%s", base);
}

static const char *base_name(const char *path) {
  const char *s = strrchr(path, '/');
  return s ? s + 1 : path;
}

void prof_location(const prof_region *r, char *buf, size_t size) {
  if (r->file != NULL && r->file[0] != '\0')
    snprintf(buf, size, "%s:%d", base_name(r->file), r->line);
  else if (r->module != NULL && r->module[0] != '\0')
    snprintf(buf, size, "%s+0x%llx", base_name(r->module),
             (unsigned long long)r->offset);
  else
    snprintf(buf, size, "-");
}

/* The merge key of a region: its parent's key and its own kind and place. */
static char *region_path(const prof_profile *p, const prof_region *r) {
  char here[1024];
  if (r->file[0] != '\0')
    snprintf(here, sizeof here, "%s%s%s@%s:%d", prof_kind_name(r->kind),
             r->sub[0] ? ":" : "", r->sub, r->file, r->line);
  else if (r->module[0] != '\0')
    snprintf(here, sizeof here, "%s%s%s@%s+0x%llx", prof_kind_name(r->kind),
             r->sub[0] ? ":" : "", r->sub, base_name(r->module),
             (unsigned long long)r->offset);
  else
    snprintf(here, sizeof here, "%s%s%s", prof_kind_name(r->kind),
             r->sub[0] ? ":" : "", r->sub);
  if (r->parent < 0)
    return prof_xstrdup(here);
  return prof_xasprintf("%s/%s", p->regions[r->parent].path, here);
}

void prof_compute(prof_profile *p) {
  int nu = p->nunits;
  for (int i = 0; i < p->nregions; i++) {
    prof_region *r = &p->regions[i];
    r->depth = r->parent >= 0 ? p->regions[r->parent].depth + 1 : 0;
    free(r->path);
    r->path = region_path(p, r);
    r->tot_visits = r->tot_created = r->tot_time = r->tot_excl = 0;
    r->nthreads = 0;
    r->tmin = r->tmax = r->tmean = r->imbalance = 0;
    double sum = 0;
    for (int u = 0; u < nu; u++) {
      r->tot_visits += r->visits[u];
      r->tot_created += r->created[u];
      r->tot_time += r->time[u];
      r->tot_excl += r->excl[u];
      if (r->visits[u] == 0)
        continue;
      double t = (double)r->time[u];
      if (r->nthreads == 0 || t < r->tmin)
        r->tmin = t;
      if (t > r->tmax)
        r->tmax = t;
      sum += t;
      r->nthreads++;
    }
    for (int e = 0; e < p->nevents; e++) {
      r->tot_papi[e] = 0;
      for (int u = 0; u < nu; u++)
        r->tot_papi[e] += r->papi[e][u];
    }
    if (r->nthreads > 0)
      r->tmean = sum / r->nthreads;
    if (r->nthreads > 1 && r->tmax > 0)
      r->imbalance = 100.0 * (r->tmax - r->tmean) / r->tmax;
    r->wait = prof_kind_is_wait(r->kind) ? r->tot_excl : 0;
    r->caused = 0;

    /* across ranks */
    r->rmin = r->rmax = r->rmean = r->rimbalance = 0;
    if (p->nranks > 1) {
      int maxrank = -1;
      for (int u = 0; u < nu; u++)
        if (p->units[u].rank > maxrank)
          maxrank = p->units[u].rank;
      double rsum = 0;
      int nr = 0;
      for (int rk = 0; rk <= maxrank; rk++) {
        double t = 0;
        int seen = 0;
        for (int u = 0; u < nu; u++) {
          if (p->units[u].rank == rk && r->visits[u] > 0) {
            t += (double)r->time[u];
            seen = 1;
          }
        }
        if (!seen)
          continue;
        if (nr == 0 || t < r->rmin)
          r->rmin = t;
        if (t > r->rmax)
          r->rmax = t;
        rsum += t;
        nr++;
      }
      if (nr > 0)
        r->rmean = rsum / nr;
      if (nr > 1 && r->rmax > 0)
        r->rimbalance = 100.0 * (r->rmax - r->rmean) / r->rmax;
    }
  }

  /* Blame: waiting at a lock or critical goes to the holder's region as
     recorded; the rest of every wait goes to the construct that caused it:
     the worksharing construct before an implicit barrier, else the
     enclosing construct. */
  uint64_t *attributed =
      prof_xcalloc((size_t)p->nregions + 1, sizeof(uint64_t));
  for (int b = 0; b < p->nblames; b++) {
    prof_blame *bl = &p->blames[b];
    if (bl->wait < 0 || bl->wait >= p->nregions || bl->cause < 0 ||
        bl->cause >= p->nregions)
      continue;
    uint64_t left = p->regions[bl->wait].wait - attributed[bl->wait];
    uint64_t ns = bl->ns < left ? bl->ns : left;
    attributed[bl->wait] += ns;
    p->regions[bl->cause].caused += ns;
  }
  for (int i = 0; i < p->nregions; i++) {
    prof_region *r = &p->regions[i];
    if (!prof_kind_is_wait(r->kind))
      continue;
    int target = r->blame >= 0 ? r->blame : r->parent;
    if (target >= 0 && r->wait > attributed[i])
      p->regions[target].caused += r->wait - attributed[i];
  }
  free(attributed);

  for (int u = 0; u < nu; u++) {
    p->units[u].waiting = 0;
    p->units[u].busy = 0;
    for (int i = 0; i < p->nregions; i++) {
      prof_region *r = &p->regions[i];
      if (prof_kind_is_wait(r->kind))
        p->units[u].waiting += r->excl[u];
      else if (r->depth > 0 && r->kind != PK_THREAD && r->kind != PK_LOCK)
        p->units[u].busy += r->excl[u]; /* a held lock overlaps the rest */
    }
  }
}
