/*
 * prof_json.c - reading pompt-prof JSON files back, and merging the
 * profiles of several processes (the ranks of an MPI run) into one.
 *
 * The reader is a small recursive-descent JSON parser into a tree; only
 * the profile's own schema is interpreted.
 */
#define _GNU_SOURCE

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "prof_model.h"

/* ---- JSON values -------------------------------------------------------- */

enum { J_NULL, J_BOOL, J_NUM, J_STR, J_ARR, J_OBJ };

typedef struct jv {
  int type;
  double num;
  unsigned long long u; /* exact value of a non-negative integer */
  int b;
  char *str;
  struct jv **items; /* array elements / object values */
  char **keys;       /* object keys */
  int n, cap;
} jv;

typedef struct jparser {
  const char *s, *p;
  char err[200];
  int depth;
} jparser;

static void jfree(jv *v) {
  if (v == NULL)
    return;
  for (int i = 0; i < v->n; i++) {
    jfree(v->items[i]);
    if (v->keys)
      free(v->keys[i]);
  }
  free(v->items);
  free(v->keys);
  free(v->str);
  free(v);
}

static void jerr(jparser *j, const char *what) {
  if (j->err[0] == '\0') {
    int line = 1;
    for (const char *c = j->s; c < j->p; c++)
      line += *c == '\n';
    snprintf(j->err, sizeof j->err, "line %d: %s", line, what);
  }
}

static void skip_ws(jparser *j) {
  while (*j->p == ' ' || *j->p == '\n' || *j->p == '\r' || *j->p == '\t')
    j->p++;
}

static void jpush(jv *v, char *key, jv *item) {
  if (v->n == v->cap) {
    int cap = v->cap ? 2 * v->cap : 8;
    jv **items = prof_xcalloc((size_t)cap, sizeof *items);
    if (v->n)
      memcpy(items, v->items, (size_t)v->n * sizeof *items);
    free(v->items);
    v->items = items;
    if (v->type == J_OBJ) {
      char **keys = prof_xcalloc((size_t)cap, sizeof *keys);
      if (v->n)
        memcpy(keys, v->keys, (size_t)v->n * sizeof *keys);
      free(v->keys);
      v->keys = keys;
    }
    v->cap = cap;
  }
  if (v->type == J_OBJ)
    v->keys[v->n] = key;
  v->items[v->n++] = item;
}

static void put_utf8(char *out, size_t *n, unsigned cp) {
  if (cp < 0x80) {
    out[(*n)++] = (char)cp;
  } else if (cp < 0x800) {
    out[(*n)++] = (char)(0xc0 | (cp >> 6));
    out[(*n)++] = (char)(0x80 | (cp & 0x3f));
  } else {
    out[(*n)++] = (char)(0xe0 | (cp >> 12));
    out[(*n)++] = (char)(0x80 | ((cp >> 6) & 0x3f));
    out[(*n)++] = (char)(0x80 | (cp & 0x3f));
  }
}

static char *parse_string(jparser *j) {
  if (*j->p != '"') {
    jerr(j, "expected a string");
    return NULL;
  }
  j->p++;
  const char *start = j->p;
  size_t len = 0;
  while (start[len] && start[len] != '"') {
    if (start[len] == '\\' && start[len + 1])
      len++;
    len++;
  }
  char *out = prof_xcalloc(len * 3 + 1, 1);
  size_t n = 0;
  while (*j->p && *j->p != '"') {
    char c = *j->p++;
    if (c != '\\') {
      out[n++] = c;
      continue;
    }
    c = *j->p++;
    switch (c) {
    case 'n':
      out[n++] = '\n';
      break;
    case 't':
      out[n++] = '\t';
      break;
    case 'r':
      out[n++] = '\r';
      break;
    case 'b':
      out[n++] = '\b';
      break;
    case 'f':
      out[n++] = '\f';
      break;
    case 'u': {
      unsigned cp = 0;
      for (int i = 0; i < 4; i++) {
        char h = *j->p;
        unsigned d;
        if (h >= '0' && h <= '9')
          d = (unsigned)(h - '0');
        else if (h >= 'a' && h <= 'f')
          d = (unsigned)(h - 'a' + 10);
        else if (h >= 'A' && h <= 'F')
          d = (unsigned)(h - 'A' + 10);
        else {
          jerr(j, "bad \\u escape");
          free(out);
          return NULL;
        }
        cp = cp * 16 + d;
        j->p++;
      }
      put_utf8(out, &n, cp);
      break;
    }
    case '\0':
      jerr(j, "unterminated string");
      free(out);
      return NULL;
    default: /* " \ / */
      out[n++] = c;
    }
  }
  if (*j->p != '"') {
    jerr(j, "unterminated string");
    free(out);
    return NULL;
  }
  j->p++;
  out[n] = '\0';
  return out;
}

static jv *parse_value(jparser *j);

static jv *jnew(int type) {
  jv *v = prof_xcalloc(1, sizeof *v);
  v->type = type;
  return v;
}

static jv *parse_value(jparser *j) {
  skip_ws(j);
  if (++j->depth > 64) {
    jerr(j, "nested too deeply");
    return NULL;
  }
  jv *v = NULL;
  char c = *j->p;
  if (c == '{' || c == '[') {
    int obj = c == '{';
    v = jnew(obj ? J_OBJ : J_ARR);
    j->p++;
    skip_ws(j);
    if (*j->p == (obj ? '}' : ']')) {
      j->p++;
      j->depth--;
      return v;
    }
    for (;;) {
      char *key = NULL;
      skip_ws(j);
      if (obj) {
        key = parse_string(j);
        if (key == NULL)
          goto fail;
        skip_ws(j);
        if (*j->p != ':') {
          free(key);
          jerr(j, "expected ':'");
          goto fail;
        }
        j->p++;
      }
      jv *item = parse_value(j);
      if (item == NULL) {
        free(key);
        goto fail;
      }
      jpush(v, key, item);
      skip_ws(j);
      if (*j->p == ',') {
        j->p++;
        continue;
      }
      if (*j->p == (obj ? '}' : ']')) {
        j->p++;
        break;
      }
      jerr(j, obj ? "expected ',' or '}'" : "expected ',' or ']'");
      goto fail;
    }
  } else if (c == '"') {
    char *s = parse_string(j);
    if (s == NULL)
      return NULL;
    v = jnew(J_STR);
    v->str = s;
  } else if (strncmp(j->p, "true", 4) == 0 || strncmp(j->p, "false", 5) == 0) {
    v = jnew(J_BOOL);
    v->b = *j->p == 't';
    j->p += v->b ? 4 : 5;
  } else if (strncmp(j->p, "null", 4) == 0) {
    v = jnew(J_NULL);
    j->p += 4;
  } else if (c == '-' || (c >= '0' && c <= '9')) {
    char *end;
    errno = 0;
    double d = strtod(j->p, &end);
    if (end == j->p) {
      jerr(j, "bad number");
      return NULL;
    }
    v = jnew(J_NUM);
    v->num = d;
    if (c != '-') {
      char *e2;
      unsigned long long u = strtoull(j->p, &e2, 10);
      v->u = e2 == end ? u : (unsigned long long)(d < 0 ? 0 : d);
    }
    j->p = end;
  } else {
    jerr(j, "unexpected character");
    return NULL;
  }
  j->depth--;
  return v;
fail:
  jfree(v);
  return NULL;
}

static jv *jget(const jv *o, const char *key) {
  if (o == NULL || o->type != J_OBJ)
    return NULL;
  for (int i = 0; i < o->n; i++)
    if (strcmp(o->keys[i], key) == 0)
      return o->items[i];
  return NULL;
}

static const char *jstr(const jv *o, const char *key) {
  jv *v = jget(o, key);
  return v != NULL && v->type == J_STR ? v->str : "";
}

static double jnum(const jv *o, const char *key, double def) {
  jv *v = jget(o, key);
  return v != NULL && v->type == J_NUM ? v->num : def;
}

static unsigned long long jint(const jv *v) {
  return v != NULL && v->type == J_NUM ? v->u : 0;
}

/* ---- a profile from JSON ------------------------------------------------ */

static void copy_u64s(const jv *arr, uint64_t *out, int n) {
  if (arr == NULL || arr->type != J_ARR)
    return;
  for (int i = 0; i < n && i < arr->n; i++)
    out[i] = jint(arr->items[i]);
}

prof_profile *prof_read_json(const char *path, char *err, size_t errsize) {
  FILE *f = fopen(path, "r");
  if (f == NULL) {
    snprintf(err, errsize, "%s: %s", path, strerror(errno));
    return NULL;
  }
  size_t cap = 1 << 16, len = 0;
  char *text = prof_xcalloc(cap, 1);
  size_t got;
  while ((got = fread(text + len, 1, cap - len - 1, f)) > 0) {
    len += got;
    if (len + 1 == cap) {
      char *n = prof_xcalloc(cap * 2, 1);
      memcpy(n, text, len);
      free(text);
      text = n;
      cap *= 2;
    }
  }
  fclose(f);
  text[len] = '\0';
  jparser j = {.s = text, .p = text};
  jv *root = parse_value(&j);
  if (root == NULL) {
    snprintf(err, errsize, "%s: not JSON (%s)", path, j.err);
    free(text);
    return NULL;
  }
  free(text);
  if (strcmp(jstr(root, "schema"), PROF_SCHEMA) != 0) {
    snprintf(err, errsize, "%s: not a pompt-prof profile (schema '%s')", path,
             jstr(root, "schema"));
    jfree(root);
    return NULL;
  }
  jv *threads = jget(root, "threads");
  jv *regions = jget(root, "regions");
  if (threads == NULL || threads->type != J_ARR || regions == NULL ||
      regions->type != J_ARR) {
    snprintf(err, errsize, "%s: no threads or regions", path);
    jfree(root);
    return NULL;
  }
  prof_profile *p = prof_new(threads->n);
  jv *meta = jget(root, "meta");
#define SETSTR(field, key)                                                     \
  do {                                                                         \
    free(p->field);                                                            \
    p->field = prof_xstrdup(jstr(meta, key));                                  \
  } while (0)
  SETSTR(app, "app");
  SETSTR(cmdline, "command");
  SETSTR(host, "host");
  SETSTR(runtime, "runtime");
  SETSTR(start, "start");
  SETSTR(symbols, "symbols");
  SETSTR(clock, "clock");
#undef SETSTR
  p->pid = (long)jnum(meta, "pid", -1);
  p->rank = (int)jnum(meta, "rank", -1);
  p->nranks = (int)jnum(meta, "ranks", 1);
  p->wall = jnum(meta, "wall_s", 0);
  jv *ev = jget(root, "papi_events");
  for (int e = 0; ev && ev->type == J_ARR && e < ev->n && e < PROF_MAX_EVENTS;
       e++)
    if (ev->items[e]->type == J_STR)
      p->events[p->nevents++] = prof_xstrdup(ev->items[e]->str);
  jv *evp = jget(root, "papi_process");
  for (int e = 0; evp && evp->type == J_ARR && e < evp->n && e < p->nevents;
       e++)
    p->event_process[e] = evp->items[e]->type == J_BOOL && evp->items[e]->b;
  for (int u = 0; u < threads->n; u++) {
    jv *t = threads->items[u];
    p->units[u].rank = (int)jnum(t, "rank", -1);
    p->units[u].thread = (int)jnum(t, "thread", u);
    free(p->units[u].type);
    p->units[u].type = prof_xstrdup(jstr(t, "type"));
    p->units[u].time = (uint64_t)jint(jget(t, "time_ns"));
  }
  for (int i = 0; i < regions->n; i++) {
    jv *r = regions->items[i];
    int parent = (int)jnum(r, "parent", -1);
    int kind = prof_kind_from_name(jstr(r, "kind"));
    if (parent >= i || kind < 0 || (int)jnum(r, "id", -1) != i) {
      snprintf(err, errsize, "%s: region %d is malformed", path, i);
      prof_free(p);
      jfree(root);
      return NULL;
    }
    int id =
        prof_add_region(p, parent, kind, jstr(r, "schedule"), jstr(r, "file"),
                        (int)jnum(r, "line", 0), jstr(r, "function"),
                        jstr(r, "module"), (uint64_t)jint(jget(r, "offset")));
    prof_region *pr = &p->regions[id];
    pr->blame = (int)jnum(r, "blame", -1);
    if (pr->blame >= regions->n)
      pr->blame = -1;
    pr->count = (uint64_t)jint(jget(r, "count"));
    jv *pt = jget(r, "per_thread");
    copy_u64s(jget(pt, "visits"), pr->visits, p->nunits);
    copy_u64s(jget(pt, "created"), pr->created, p->nunits);
    copy_u64s(jget(pt, "time_ns"), pr->time, p->nunits);
    copy_u64s(jget(pt, "excl_ns"), pr->excl, p->nunits);
    jv *pp = jget(pt, "papi");
    for (int e = 0; e < p->nevents && pp && pp->type == J_ARR && e < pp->n; e++)
      copy_u64s(pp->items[e], pr->papi[e], p->nunits);
  }
  jv *bl = jget(root, "blame");
  for (int b = 0; bl && bl->type == J_ARR && b < bl->n; b++) {
    int w = (int)jnum(bl->items[b], "wait", -1);
    int c = (int)jnum(bl->items[b], "cause", -1);
    if (w >= 0 && w < p->nregions && c >= 0 && c < p->nregions)
      prof_add_blame(p, w, c, (uint64_t)jint(jget(bl->items[b], "ns")));
  }
  jv *notes = jget(root, "notes");
  for (int i = 0; notes && notes->type == J_ARR && i < notes->n; i++)
    if (notes->items[i]->type == J_STR)
      prof_add_note(p, "%s", notes->items[i]->str);
  jfree(root);
  prof_compute(p);
  return p;
}

/* ---- merging ------------------------------------------------------------ */

prof_profile *prof_merge(prof_profile **in, int n) {
  int total = 0;
  for (int k = 0; k < n; k++)
    total += in[k]->nunits;
  prof_profile *m = prof_new(total);
  /* counters only when every input counted the same events */
  int same_events = 1;
  for (int k = 1; k < n; k++) {
    if (in[k]->nevents != in[0]->nevents)
      same_events = 0;
    for (int e = 0; same_events && e < in[0]->nevents; e++)
      if (strcmp(in[k]->events[e], in[0]->events[e]) != 0)
        same_events = 0;
  }
  if (same_events) {
    m->nevents = in[0]->nevents;
    for (int e = 0; e < m->nevents; e++) {
      m->events[e] = prof_xstrdup(in[0]->events[e]);
      m->event_process[e] = in[0]->event_process[e];
    }
  } else {
    prof_add_note(m, "the inputs counted different hardware events; counters "
                     "are left out");
  }

  free(m->app);
  m->app = prof_xstrdup(in[0]->app);
  free(m->cmdline);
  m->cmdline = prof_xstrdup(in[0]->cmdline);
  free(m->runtime);
  m->runtime = prof_xstrdup(in[0]->runtime);
  free(m->symbols);
  m->symbols = prof_xstrdup(in[0]->symbols);
  free(m->clock);
  m->clock = prof_xstrdup(in[0]->clock);
  free(m->host);
  m->host = prof_xstrdup(in[0]->host);
  free(m->start);
  m->start = prof_xstrdup(in[0]->start);
  m->nranks = n;
  for (int k = 0; k < n; k++) {
    if (in[k]->wall > m->wall)
      m->wall = in[k]->wall;
    if (strcmp(in[k]->start, m->start) < 0) {
      free(m->start);
      m->start = prof_xstrdup(in[k]->start);
    }
    if (strcmp(in[k]->app, m->app) != 0)
      prof_add_note(m, "input %d profiles '%s', not '%s'", k, in[k]->app,
                    m->app);
  }

  int base = 0;
  for (int k = 0; k < n; k++) {
    prof_profile *p = in[k];
    int rank = p->rank >= 0 ? p->rank : k;
    for (int u = 0; u < p->nunits; u++) {
      prof_unit *mu = &m->units[base + u];
      mu->rank = rank;
      mu->thread = p->units[u].thread;
      free(mu->type);
      mu->type = prof_xstrdup(p->units[u].type);
      mu->time = p->units[u].time;
    }
    /* regions, by path: parents come before their children */
    int *map = prof_xcalloc((size_t)p->nregions + 1, sizeof(int));
    for (int i = 0; i < p->nregions; i++) {
      prof_region *r = &p->regions[i];
      int mp = r->parent >= 0 ? map[r->parent] : -1;
      int found = -1;
      for (int g = 0; g < m->nregions && found < 0; g++) {
        prof_region *q = &m->regions[g];
        if (q->parent == mp && q->kind == r->kind && q->line == r->line &&
            strcmp(q->sub, r->sub) == 0 && strcmp(q->file, r->file) == 0 &&
            (r->file[0] != '\0' || q->offset == r->offset))
          found = g;
      }
      if (found < 0)
        found = prof_add_region(m, mp, r->kind, r->sub, r->file, r->line,
                                r->func, r->module, r->offset);
      map[i] = found;
      prof_region *q = &m->regions[found];
      q->count += r->count;
      for (int u = 0; u < p->nunits; u++) {
        q->visits[base + u] += r->visits[u];
        q->created[base + u] += r->created[u];
        q->time[base + u] += r->time[u];
        q->excl[base + u] += r->excl[u];
        for (int e = 0; e < m->nevents; e++)
          q->papi[e][base + u] += r->papi[e][u];
      }
    }
    for (int i = 0; i < p->nregions; i++) {
      prof_region *r = &p->regions[i];
      if (r->blame >= 0 && m->regions[map[i]].blame < 0)
        m->regions[map[i]].blame = map[r->blame];
    }
    for (int b = 0; b < p->nblames; b++)
      prof_add_blame(m, map[p->blames[b].wait], map[p->blames[b].cause],
                     p->blames[b].ns);
    for (int i = 0; i < p->nnotes; i++)
      prof_add_note(m, "rank %d: %s", rank, p->notes[i]);
    free(map);
    base += p->nunits;
  }
  prof_compute(m);
  return m;
}
