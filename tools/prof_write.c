/*
 * prof_write.c - the text report, CSV, JSON and the Chrome trace-event
 * timeline of a profile.
 */
#define _GNU_SOURCE

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "prof_model.h"

void prof_fmt_time(double ns, char *buf, size_t size) {
  if (ns <= 0)
    snprintf(buf, size, "0");
  else if (ns < 1e3)
    snprintf(buf, size, "%.0f ns", ns);
  else if (ns < 1e6)
    snprintf(buf, size, "%.2f us", ns / 1e3);
  else if (ns < 1e9)
    snprintf(buf, size, "%.2f ms", ns / 1e6);
  else
    snprintf(buf, size, "%.3f s", ns / 1e9);
}

/* ---- aligned tables ----------------------------------------------------- */

#define TAB_MAX_COLS 24

typedef struct table {
  int ncols;
  const char *align; /* 'l' or 'r' per column */
  char **cells;      /* row-major */
  int nrows, cap;
} table;

static void tab_init(table *t, int ncols, const char *align) {
  memset(t, 0, sizeof *t);
  t->ncols = ncols;
  t->align = align;
}

static void tab_row(table *t, ...) {
  if (t->nrows == t->cap) {
    int cap = t->cap ? 2 * t->cap : 32;
    char **c = prof_xcalloc((size_t)cap * (size_t)t->ncols, sizeof *c);
    if (t->nrows)
      memcpy(c, t->cells, (size_t)t->nrows * (size_t)t->ncols * sizeof *c);
    free(t->cells);
    t->cells = c;
    t->cap = cap;
  }
  va_list ap;
  va_start(ap, t);
  for (int i = 0; i < t->ncols; i++) {
    const char *s = va_arg(ap, const char *);
    t->cells[t->nrows * t->ncols + i] = prof_xstrdup(s ? s : "");
  }
  va_end(ap);
  t->nrows++;
}

static void tab_print(FILE *f, table *t, const char *indent) {
  int w[TAB_MAX_COLS] = {0};
  for (int r = 0; r < t->nrows; r++)
    for (int c = 0; c < t->ncols; c++) {
      int n = (int)strlen(t->cells[r * t->ncols + c]);
      if (n > w[c])
        w[c] = n;
    }
  for (int r = 0; r < t->nrows; r++) {
    char line[4096];
    size_t len = 0;
    for (int c = 0; c < t->ncols; c++) {
      const char *s = t->cells[r * t->ncols + c];
      int last = c == t->ncols - 1;
      int n;
      if (t->align[c] == 'r')
        n = snprintf(line + len, sizeof line - len, "%*s%s", w[c], s,
                     last ? "" : "  ");
      else
        n = snprintf(line + len, sizeof line - len, "%-*s%s", last ? 0 : w[c],
                     s, last ? "" : "  ");
      if (n < 0 || (size_t)n >= sizeof line - len)
        break;
      len += (size_t)n;
    }
    while (len > 0 && line[len - 1] == ' ')
      len--;
    line[len] = '\0';
    fprintf(f, "%s%s\n", indent, line);
  }
  for (int i = 0; i < t->nrows * t->ncols; i++)
    free(t->cells[i]);
  free(t->cells);
  t->cells = NULL;
  t->nrows = t->cap = 0;
}

/* ---- helpers ------------------------------------------------------------ */

static const prof_profile *sort_profile;

static int by_time_desc(const void *a, const void *b) {
  const prof_region *x = &sort_profile->regions[*(const int *)a];
  const prof_region *y = &sort_profile->regions[*(const int *)b];
  if (x->tot_time != y->tot_time)
    return x->tot_time < y->tot_time ? 1 : -1;
  return x->id - y->id;
}

static int by_caused_desc(const void *a, const void *b) {
  const prof_region *x = &sort_profile->regions[*(const int *)a];
  const prof_region *y = &sort_profile->regions[*(const int *)b];
  if (x->caused != y->caused)
    return x->caused < y->caused ? 1 : -1;
  return x->id - y->id;
}

static void t_or_dash(double ns, char *buf, size_t size) {
  if (ns <= 0)
    snprintf(buf, size, "-");
  else
    prof_fmt_time(ns, buf, size);
}

/* All threads' lifetimes: what "%" is a share of. */
static uint64_t thread_time(const prof_profile *p) {
  uint64_t t = 0;
  for (int u = 0; u < p->nunits; u++)
    t += p->units[u].time;
  return t;
}

/* Children of each region, for the tree. */
typedef struct kids {
  int *first, *next;
} kids;

static void kids_build(const prof_profile *p, kids *k) {
  k->first = prof_xcalloc((size_t)p->nregions + 1, sizeof(int));
  k->next = prof_xcalloc((size_t)p->nregions + 1, sizeof(int));
  for (int i = 0; i <= p->nregions; i++)
    k->first[i] = k->next[i] = -1;
  /* insert in reverse order of time so that lists come out sorted */
  int *order = prof_xcalloc((size_t)p->nregions + 1, sizeof(int));
  for (int i = 0; i < p->nregions; i++)
    order[i] = i;
  sort_profile = p;
  qsort(order, (size_t)p->nregions, sizeof(int), by_time_desc);
  for (int j = p->nregions - 1; j >= 0; j--) {
    int i = order[j];
    int par = p->regions[i].parent;
    int slot = par >= 0 ? par : p->nregions;
    k->next[i] = k->first[slot];
    k->first[slot] = i;
  }
  free(order);
}

static void kids_free(kids *k) {
  free(k->first);
  free(k->next);
}

static void tree_rows(const prof_profile *p, const kids *k, table *t, int id,
                      int depth, int *rows, int max_rows) {
  for (int i = k->first[id]; i >= 0; i = k->next[i]) {
    if (*rows >= max_rows) {
      (*rows)++;
      continue;
    }
    const prof_region *r = &p->regions[i];
    char label[256], loc[512], name[1200], tm[32], wt[32], ca[32], vi[32];
    prof_label(r, label, sizeof label);
    prof_location(r, loc, sizeof loc);
    int ind = depth * 2;
    if (r->kind == PK_PROGRAM || r->kind == PK_THREAD)
      snprintf(name, sizeof name, "%*s%s", ind, "", label);
    else if (r->func[0] && r->depth <= 1)
      snprintf(name, sizeof name, "%*s%s %s (%s)", ind, "", label, loc,
               r->func);
    else
      snprintf(name, sizeof name, "%*s%s %s", ind, "", label, loc);
    t_or_dash((double)r->tot_time, tm, sizeof tm);
    t_or_dash((double)r->wait, wt, sizeof wt);
    t_or_dash((double)r->caused, ca, sizeof ca);
    snprintf(vi, sizeof vi, "%llu", (unsigned long long)r->tot_visits);
    tab_row(t, tm, wt, ca, vi, name);
    (*rows)++;
    tree_rows(p, k, t, i, depth + 1, rows, max_rows);
  }
}

/* ---- text --------------------------------------------------------------- */

void prof_write_text(FILE *f, const prof_profile *p,
                     const prof_report_opts *o) {
  char buf[64], buf2[64];
  uint64_t total = thread_time(p);
  prof_fmt_time((double)(p->wall * 1e9), buf, sizeof buf);
  int maxrank = -1;
  for (int u = 0; u < p->nunits; u++)
    if (p->units[u].rank > maxrank)
      maxrank = p->units[u].rank;
  fprintf(f, "pompt-prof report: %s", p->app);
  if (p->nranks > 1)
    fprintf(f, " (%d ranks merged)", p->nranks);
  else if (p->rank >= 0)
    fprintf(f, " (rank %d, pid %ld)", p->rank, p->pid);
  else if (p->pid >= 0)
    fprintf(f, " (pid %ld)", p->pid);
  fprintf(f, "\n  %d thread%s, %s wall", p->nunits, p->nunits == 1 ? "" : "s",
          buf);
  if (p->runtime[0])
    fprintf(f, ", runtime \"%s\"", p->runtime);
  fprintf(f, ", source locations: %s\n", p->symbols);
  if (p->cmdline[0])
    fprintf(f, "  command: %s\n", p->cmdline);

  /* flat table */
  int n = 0;
  int *order = prof_xcalloc((size_t)p->nregions + 1, sizeof(int));
  for (int i = 0; i < p->nregions; i++)
    if (p->regions[i].kind != PK_PROGRAM && p->regions[i].kind != PK_THREAD)
      order[n++] = i;
  sort_profile = p;
  qsort(order, (size_t)n, sizeof(int), by_time_desc);
  int top = o && o->top > 0 && o->top < n ? o->top : n;
  fprintf(f, "\nConstructs by time summed over threads (%d of %d shown)\n", top,
          n);
  table t;
  int ranks = p->nranks > 1;
  tab_init(&t, ranks ? 16 : 14, "rllrrrrrrrrrrrrr");
  if (ranks)
    tab_row(&t, "#", "construct", "location", "visits", "thr", "time", "%",
            "min/thr", "mean/thr", "max/thr", "imbal", "wait", "caused",
            "max/rank", "imbal/rank", "");
  else
    tab_row(&t, "#", "construct", "location", "visits", "thr", "time", "%",
            "min/thr", "mean/thr", "max/thr", "imbal", "wait", "caused", "");
  for (int j = 0; j < top; j++) {
    const prof_region *r = &p->regions[order[j]];
    char idx[16], label[256], loc[512], vis[32], thr[16], tm[32], pct[16],
        mn[32], me[32], mx[32], im[16], wt[32], ca[32], rmx[32], rim[16];
    snprintf(idx, sizeof idx, "%d", j + 1);
    prof_label(r, label, sizeof label);
    prof_location(r, loc, sizeof loc);
    snprintf(vis, sizeof vis, "%llu", (unsigned long long)r->tot_visits);
    snprintf(thr, sizeof thr, "%d", r->nthreads);
    prof_fmt_time((double)r->tot_time, tm, sizeof tm);
    if (total > 0)
      snprintf(pct, sizeof pct, "%.1f",
               100.0 * (double)r->tot_time / (double)total);
    else
      snprintf(pct, sizeof pct, "-");
    prof_fmt_time(r->tmin, mn, sizeof mn);
    prof_fmt_time(r->tmean, me, sizeof me);
    prof_fmt_time(r->tmax, mx, sizeof mx);
    if (r->nthreads > 1)
      snprintf(im, sizeof im, "%.1f%%", r->imbalance);
    else
      snprintf(im, sizeof im, "-");
    t_or_dash((double)r->wait, wt, sizeof wt);
    t_or_dash((double)r->caused, ca, sizeof ca);
    if (ranks) {
      prof_fmt_time(r->rmax, rmx, sizeof rmx);
      snprintf(rim, sizeof rim, "%.1f%%", r->rimbalance);
      tab_row(&t, idx, label, loc, vis, thr, tm, pct, mn, me, mx, im, wt, ca,
              rmx, rim, "");
    } else {
      tab_row(&t, idx, label, loc, vis, thr, tm, pct, mn, me, mx, im, wt, ca,
              "");
    }
  }
  tab_print(f, &t, "  ");
  fprintf(f, "  visits and time: summed over threads (time inclusive); %%: "
             "of all threads' lifetimes;\n"
             "  min/mean/max: per thread that visited; imbal: (max - mean) / "
             "max; wait: time spent\n"
             "  waiting in it; caused: waiting attributed to it (blame)\n");

  /* blame */
  int nb = 0;
  for (int j = 0; j < n; j++)
    if (p->regions[order[j]].caused > 0)
      order[nb++] = order[j];
  if (nb > 0) {
    uint64_t waits = 0;
    for (int i = 0; i < p->nregions; i++)
      waits += p->regions[i].wait;
    qsort(order, (size_t)nb, sizeof(int), by_caused_desc);
    int topb = o && o->top > 0 && o->top < nb ? o->top : nb;
    fprintf(f, "\nWaiting by the construct that caused it (total %s)\n",
            (prof_fmt_time((double)waits, buf2, sizeof buf2), buf2));
    tab_init(&t, 5, "rrllr");
    tab_row(&t, "caused", "share", "construct", "location", "");
    for (int j = 0; j < topb; j++) {
      const prof_region *r = &p->regions[order[j]];
      char ca[32], sh[16], label[256], loc[512];
      prof_fmt_time((double)r->caused, ca, sizeof ca);
      snprintf(sh, sizeof sh, "%.1f%%",
               waits ? 100.0 * (double)r->caused / (double)waits : 0.0);
      prof_label(r, label, sizeof label);
      prof_location(r, loc, sizeof loc);
      tab_row(&t, ca, sh, label, loc, "");
    }
    tab_print(f, &t, "  ");
  }
  free(order);

  /* tasks */
  uint64_t created = 0, executed = 0, ttime = 0, texcl = 0;
  for (int i = 0; i < p->nregions; i++) {
    const prof_region *r = &p->regions[i];
    if (r->kind != PK_TASK)
      continue;
    created += r->tot_created;
    executed += r->tot_visits;
    ttime += r->tot_time;
    texcl += r->tot_excl;
  }
  if (created > 0 || executed > 0) {
    char a[32], b[32];
    prof_fmt_time((double)ttime, a, sizeof a);
    prof_fmt_time((double)texcl, b, sizeof b);
    fprintf(f,
            "\nTasks: %llu created, %llu executed, %s executing (%s "
            "excluding nested tasks)\n",
            (unsigned long long)created, (unsigned long long)executed, a, b);
  }

  /* counters */
  if (p->nevents > 0) {
    int nproc = 0;
    for (int e = 0; e < p->nevents; e++)
      nproc += p->event_process[e];
    fprintf(f, "\nCounters (PAPI)%s\n",
            nproc == p->nevents
                ? ": process-wide, counted on the initial thread while it was "
                  "in the construct"
            : nproc > 0 ? ": per-thread events summed over threads; "
                          "process-wide ones (*) counted on the initial "
                          "thread while it was in the construct"
                        : ", summed over threads");
    tab_init(&t, 3 + p->nevents, "llrrrrrrrrrr");
    const char *hdr[3 + PROF_MAX_EVENTS];
    hdr[0] = "construct";
    hdr[1] = "location";
    for (int e = 0; e < p->nevents; e++)
      hdr[2 + e] = p->events[e];
    hdr[2 + p->nevents] = "";
    /* tab_row is variadic: build rows by hand */
    char cells[3 + PROF_MAX_EVENTS][64];
    for (int row = -1; row < p->nregions; row++) {
      if (row >= 0) {
        /* the program's row is the whole run, a thread's row what that
           thread did outside any construct too */
        const prof_region *r = &p->regions[row];
        prof_label(r, cells[0], sizeof cells[0]);
        prof_location(r, cells[1], sizeof cells[1]);
        for (int e = 0; e < p->nevents; e++)
          snprintf(cells[2 + e], sizeof cells[2 + e], "%llu",
                   (unsigned long long)r->tot_papi[e]);
      } else {
        for (int c = 0; c < 2 + p->nevents; c++)
          snprintf(cells[c], sizeof cells[c], "%s%s", hdr[c],
                   c >= 2 && nproc > 0 && nproc < p->nevents &&
                           p->event_process[c - 2]
                       ? "*"
                       : "");
      }
      cells[2 + p->nevents][0] = '\0';
      const char *c[3 + PROF_MAX_EVENTS + 8];
      for (int k2 = 0; k2 < 3 + PROF_MAX_EVENTS + 8; k2++)
        c[k2] = "";
      for (int k2 = 0; k2 < 3 + p->nevents; k2++)
        c[k2] = cells[k2];
      tab_row(&t, c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7], c[8], c[9],
              c[10]);
    }
    tab_print(f, &t, "  ");
  }

  /* threads */
  fprintf(f, "\nThreads\n");
  tab_init(&t, ranks ? 6 : 5, "rrlrrr");
  if (ranks)
    tab_row(&t, "rank", "thread", "type", "lifetime", "in constructs",
            "waiting");
  else
    tab_row(&t, "thread", "type", "lifetime", "in constructs", "waiting", "");
  for (int u = 0; u < p->nunits; u++) {
    const prof_unit *un = &p->units[u];
    char rk[16], th[16], lt[32], bz[32], wt[32];
    snprintf(rk, sizeof rk, "%d", un->rank);
    snprintf(th, sizeof th, "%d", un->thread);
    prof_fmt_time((double)un->time, lt, sizeof lt);
    prof_fmt_time((double)un->busy, bz, sizeof bz);
    t_or_dash((double)un->waiting, wt, sizeof wt);
    if (ranks)
      tab_row(&t, rk, th, un->type, lt, bz, wt);
    else
      tab_row(&t, th, un->type, lt, bz, wt, "");
  }
  tab_print(f, &t, "  ");

  /* tree */
  kids k;
  kids_build(p, &k);
  int rows = 0, max_rows = 400;
  tab_init(&t, 5, "rrrrl");
  tab_row(&t, "time", "wait", "caused", "visits", "construct");
  tree_rows(p, &k, &t, p->nregions, 0, &rows, max_rows);
  fprintf(f, "\nCall tree of constructs (time summed over threads)\n");
  tab_print(f, &t, "  ");
  if (rows > max_rows)
    fprintf(f, "  ... %d more regions in the JSON and CSV files\n",
            rows - max_rows);
  kids_free(&k);

  if (p->nnotes > 0) {
    fprintf(f, "\nNotes\n");
    for (int i = 0; i < p->nnotes; i++)
      fprintf(f, "  - %s\n", p->notes[i]);
  }
}

/* ---- CSV ---------------------------------------------------------------- */

static void csv_str(FILE *f, const char *s) {
  if (strpbrk(s, ",\"\n\r") == NULL) {
    fputs(s, f);
    return;
  }
  fputc('"', f);
  for (; *s; s++) {
    if (*s == '"')
      fputc('"', f);
    fputc(*s, f);
  }
  fputc('"', f);
}

void prof_write_csv(FILE *f, const prof_profile *p) {
  fputs("id,parent,depth,kind,schedule,label,file,line,function,module,"
        "offset,path,visits,created,threads,time_ns,excl_ns,min_ns,mean_ns,"
        "max_ns,imbalance_pct,wait_ns,caused_ns,count",
        f);
  for (int e = 0; e < p->nevents; e++) {
    fputc(',', f);
    csv_str(f, p->events[e]);
  }
  fputc('\n', f);
  for (int i = 0; i < p->nregions; i++) {
    const prof_region *r = &p->regions[i];
    char label[256];
    prof_label(r, label, sizeof label);
    fprintf(f, "%d,%d,%d,%s,", r->id, r->parent, r->depth,
            prof_kind_name(r->kind));
    csv_str(f, r->sub);
    fputc(',', f);
    csv_str(f, label);
    fputc(',', f);
    csv_str(f, r->file);
    fprintf(f, ",%d,", r->line);
    csv_str(f, r->func);
    fputc(',', f);
    csv_str(f, r->module);
    fprintf(f, ",0x%llx,", (unsigned long long)r->offset);
    csv_str(f, r->path);
    fprintf(f, ",%llu,%llu,%d,%llu,%llu,%.0f,%.0f,%.0f,%.2f,%llu,%llu,%llu",
            (unsigned long long)r->tot_visits,
            (unsigned long long)r->tot_created, r->nthreads,
            (unsigned long long)r->tot_time, (unsigned long long)r->tot_excl,
            r->tmin, r->tmean, r->tmax, r->imbalance,
            (unsigned long long)r->wait, (unsigned long long)r->caused,
            (unsigned long long)r->count);
    for (int e = 0; e < p->nevents; e++)
      fprintf(f, ",%llu", (unsigned long long)r->tot_papi[e]);
    fputc('\n', f);
  }
}

/* ---- JSON --------------------------------------------------------------- */

static void json_str(FILE *f, const char *s) {
  fputc('"', f);
  for (const unsigned char *c = (const unsigned char *)(s ? s : ""); *c; c++) {
    switch (*c) {
    case '"':
      fputs("\\\"", f);
      break;
    case '\\':
      fputs("\\\\", f);
      break;
    case '\n':
      fputs("\\n", f);
      break;
    case '\r':
      fputs("\\r", f);
      break;
    case '\t':
      fputs("\\t", f);
      break;
    default:
      if (*c < 0x20)
        fprintf(f, "\\u%04x", *c);
      else
        fputc(*c, f);
    }
  }
  fputc('"', f);
}

static void json_u64s(FILE *f, const uint64_t *v, int n) {
  fputc('[', f);
  for (int i = 0; i < n; i++)
    fprintf(f, "%s%llu", i ? "," : "", (unsigned long long)v[i]);
  fputc(']', f);
}

static void json_num(FILE *f, double x) {
  if (!isfinite(x))
    x = 0;
  fprintf(f, "%.3f", x);
}

void prof_write_json(FILE *f, const prof_profile *p) {
  fputs("{\n  \"schema\": ", f);
  json_str(f, PROF_SCHEMA);
  fputs(",\n  \"meta\": {\"app\": ", f);
  json_str(f, p->app);
  fputs(", \"command\": ", f);
  json_str(f, p->cmdline);
  fputs(", \"host\": ", f);
  json_str(f, p->host);
  fputs(", \"runtime\": ", f);
  json_str(f, p->runtime);
  fputs(", \"start\": ", f);
  json_str(f, p->start);
  fprintf(f,
          ", \"pid\": %ld, \"rank\": %d, \"ranks\": %d, \"wall_s\": ", p->pid,
          p->rank, p->nranks);
  json_num(f, p->wall);
  fputs(", \"symbols\": ", f);
  json_str(f, p->symbols);
  fputs(", \"clock\": ", f);
  json_str(f, p->clock);
  fputs("},\n  \"papi_events\": [", f);
  for (int e = 0; e < p->nevents; e++) {
    if (e)
      fputs(", ", f);
    json_str(f, p->events[e]);
  }
  fputs("],\n  \"papi_process\": [", f);
  for (int e = 0; e < p->nevents; e++)
    fprintf(f, "%s%s", e ? ", " : "", p->event_process[e] ? "true" : "false");
  fputs("],\n  \"threads\": [", f);
  for (int u = 0; u < p->nunits; u++) {
    const prof_unit *un = &p->units[u];
    fprintf(f,
            "%s\n    {\"unit\": %d, \"rank\": %d, \"thread\": %d, \"type\": ",
            u ? "," : "", u, un->rank, un->thread);
    json_str(f, un->type);
    fprintf(f, ", \"time_ns\": %llu, \"busy_ns\": %llu, \"wait_ns\": %llu}",
            (unsigned long long)un->time, (unsigned long long)un->busy,
            (unsigned long long)un->waiting);
  }
  fputs("\n  ],\n  \"regions\": [", f);
  for (int i = 0; i < p->nregions; i++) {
    const prof_region *r = &p->regions[i];
    char label[256];
    prof_label(r, label, sizeof label);
    fprintf(f, "%s\n    {\"id\": %d, \"parent\": %d, \"depth\": %d, \"kind\": ",
            i ? "," : "", r->id, r->parent, r->depth);
    json_str(f, prof_kind_name(r->kind));
    fputs(", \"schedule\": ", f);
    json_str(f, r->sub);
    fputs(", \"label\": ", f);
    json_str(f, label);
    fprintf(f, ", \"wait_kind\": %s,\n     \"file\": ",
            prof_kind_is_wait(r->kind) ? "true" : "false");
    json_str(f, r->file);
    fprintf(f, ", \"line\": %d, \"function\": ", r->line);
    json_str(f, r->func);
    fputs(", \"module\": ", f);
    json_str(f, r->module);
    fprintf(f, ", \"offset\": %llu,\n     \"path\": ",
            (unsigned long long)r->offset);
    json_str(f, r->path);
    fprintf(f,
            ",\n     \"visits\": %llu, \"created\": %llu, \"threads\": %d, "
            "\"count\": %llu,\n     \"time_ns\": %llu, \"excl_ns\": %llu, "
            "\"min_ns\": ",
            (unsigned long long)r->tot_visits,
            (unsigned long long)r->tot_created, r->nthreads,
            (unsigned long long)r->count, (unsigned long long)r->tot_time,
            (unsigned long long)r->tot_excl);
    json_num(f, r->tmin);
    fputs(", \"mean_ns\": ", f);
    json_num(f, r->tmean);
    fputs(", \"max_ns\": ", f);
    json_num(f, r->tmax);
    fputs(", \"imbalance_pct\": ", f);
    json_num(f, r->imbalance);
    fprintf(f, ",\n     \"wait_ns\": %llu, \"caused_ns\": %llu, \"blame\": %d",
            (unsigned long long)r->wait, (unsigned long long)r->caused,
            r->blame);
    if (p->nranks > 1) {
      fputs(", \"rank_min_ns\": ", f);
      json_num(f, r->rmin);
      fputs(", \"rank_mean_ns\": ", f);
      json_num(f, r->rmean);
      fputs(", \"rank_max_ns\": ", f);
      json_num(f, r->rmax);
      fputs(", \"rank_imbalance_pct\": ", f);
      json_num(f, r->rimbalance);
    }
    fputs(",\n     \"papi\": {", f);
    for (int e = 0; e < p->nevents; e++) {
      if (e)
        fputs(", ", f);
      json_str(f, p->events[e]);
      fprintf(f, ": %llu", (unsigned long long)r->tot_papi[e]);
    }
    fputs("},\n     \"per_thread\": {\"visits\": ", f);
    json_u64s(f, r->visits, p->nunits);
    fputs(", \"created\": ", f);
    json_u64s(f, r->created, p->nunits);
    fputs(", \"time_ns\": ", f);
    json_u64s(f, r->time, p->nunits);
    fputs(", \"excl_ns\": ", f);
    json_u64s(f, r->excl, p->nunits);
    fputs(", \"papi\": [", f);
    for (int e = 0; e < p->nevents; e++) {
      if (e)
        fputs(", ", f);
      json_u64s(f, r->papi[e], p->nunits);
    }
    fputs("]}}", f);
  }
  fputs("\n  ],\n  \"blame\": [", f);
  for (int b = 0; b < p->nblames; b++)
    fprintf(f, "%s\n    {\"wait\": %d, \"cause\": %d, \"ns\": %llu}",
            b ? "," : "", p->blames[b].wait, p->blames[b].cause,
            (unsigned long long)p->blames[b].ns);
  fputs("\n  ],\n  \"notes\": [", f);
  for (int i = 0; i < p->nnotes; i++) {
    fputs(i ? ",\n    " : "\n    ", f);
    json_str(f, p->notes[i]);
  }
  fputs("\n  ]\n}\n", f);
}

/* ---- Chrome trace events ------------------------------------------------ */

/* s as the body of a JSON string (no quotes), in a new buffer. */
static char *json_body(const char *s) {
  size_t n = strlen(s ? s : "");
  char *out = prof_xcalloc(6 * n + 1, 1);
  size_t o = 0;
  for (const unsigned char *c = (const unsigned char *)(s ? s : ""); *c; c++) {
    if (*c == '"' || *c == '\\') {
      out[o++] = '\\';
      out[o++] = (char)*c;
    } else if (*c < 0x20) {
      o += (size_t)sprintf(out + o, "\\u%04x", *c);
    } else {
      out[o++] = (char)*c;
    }
  }
  out[o] = '\0';
  return out;
}

/* "00" "01" ... "99": two digits per division, the trace's hot loop. */
static const char two_digits[201] =
    "00010203040506070809101112131415161718192021222324252627282930313233343536"
    "37383940414243444546474849505152535455565758596061626364656667686970717273"
    "74757677787980818283848586878889909192939495969798"
    "99";

static const uint64_t pow10_u64[20] = {1ull,
                                       10ull,
                                       100ull,
                                       1000ull,
                                       10000ull,
                                       100000ull,
                                       1000000ull,
                                       10000000ull,
                                       100000000ull,
                                       1000000000ull,
                                       10000000000ull,
                                       100000000000ull,
                                       1000000000000ull,
                                       10000000000000ull,
                                       100000000000000ull,
                                       1000000000000000ull,
                                       10000000000000000ull,
                                       100000000000000000ull,
                                       1000000000000000000ull,
                                       10000000000000000000ull};

/* Writes ns as microseconds with three decimals ("12.345"); returns the
   end.  Hundreds of thousands of calls at the end of a run: the digits are
   counted by comparisons (no chain of divisions) and written in place, two
   at a time, from the end. */
static char *put_us(char *b, uint64_t ns) {
  uint64_t us = ns / 1000;
  unsigned frac = (unsigned)(ns - us * 1000);
  int n = 1;
  while (n < 20 && us >= pow10_u64[n])
    n++;
  char *d = b + n;
  if (us <= UINT32_MAX) { /* 32-bit division is the cheaper one */
    uint32_t v = (uint32_t)us;
    while (v >= 100) {
      uint32_t r = v % 100;
      v /= 100;
      d -= 2;
      memcpy(d, two_digits + 2 * r, 2);
    }
    us = v;
  } else {
    while (us >= 100) {
      unsigned r = (unsigned)(us % 100);
      us /= 100;
      d -= 2;
      memcpy(d, two_digits + 2 * r, 2);
    }
  }
  if (us >= 10)
    memcpy(d - 2, two_digits + 2 * us, 2);
  else
    d[-1] = (char)('0' + us);
  b += n;
  b[0] = '.';
  memcpy(b + 1, two_digits + 2 * (frac / 10), 2);
  b[3] = (char)('0' + frac % 10);
  return b + 4;
}

/* The constant parts of a region's slices on one thread, each in a slot
   of fixed size: copying a whole slot is a few vector moves inlined,
   where a copy of a length known only at run time is a call.  Longer
   parts (long file names) are copied by length. */
#define TRACE_HEAD_SLOT 128
#define TRACE_TAIL_SLOT 64
#define TRACE_REST_SLOT 32
typedef struct trace_part {
  char head[TRACE_HEAD_SLOT];  /* ,\n{"name":...,"tid":N,"ts": */
  char tail[TRACE_TAIL_SLOT];  /* [,"cname":"terrible"],"args":{...}} */
  char rest[TRACE_REST_SLOT];  /* [,"cname":"terrible"]} */
  char *long_head, *long_tail; /* when longer than a slot, else NULL */
  size_t head_len, tail_len, rest_len;
  int seen;     /* a slice of it was written on this thread */
  int ids_each; /* its name is another region's too: the id on every slice */
} trace_part;

static void part_set(char *slot, size_t slot_size, char **longer, size_t *len,
                     char *s) {
  *len = strlen(s);
  if (*len <= slot_size) {
    memcpy(slot, s, *len);
    free(s);
    *longer = NULL;
  } else {
    *longer = s;
  }
}

/* "<construct> <location>": a slice's name. */
static void slice_name(const prof_region *r, char *buf, size_t size) {
  char label[256], loc[512];
  prof_label(r, label, sizeof label);
  prof_location(r, loc, sizeof loc);
  snprintf(buf, size, "%s %s", label, loc);
}

/* The region's slices' constant parts on thread tid.  Keys in the order
   they are written; the parser does not mind, and the timestamps come
   last but the tail so that the line is made of two constant parts. */
static void part_make(trace_part *t, const prof_region *r, long pid, int tid) {
  char name[1024];
  slice_name(r, name, sizeof name);
  int wait = prof_kind_is_wait(r->kind);
  char *n = json_body(name);
  /* the name says the construct and its location; the category its kind
     (waits: "wait,<kind>", and coloured); the region id, which leads to
     everything else in the profile, is said once per thread: on the
     region's first slice (a slice's name then says which region it is),
     or on every slice of a region whose name another region has too */
  part_set(t->head, sizeof t->head, &t->long_head, &t->head_len,
           prof_xasprintf(",\n{\"name\":\"%s\",\"cat\":\"%s%s\",\"ph\":\"X\","
                          "\"pid\":%ld,\"tid\":%d,\"ts\":",
                          n, wait ? "wait," : "", prof_kind_name(r->kind), pid,
                          tid));
  part_set(t->tail, sizeof t->tail, &t->long_tail, &t->tail_len,
           prof_xasprintf("%s,\"args\":{\"region\":%d}}",
                          wait ? ",\"cname\":\"terrible\"" : "", r->id));
  t->rest_len = (size_t)snprintf(t->rest, sizeof t->rest, "%s}",
                                 wait ? ",\"cname\":\"terrible\"" : "");
  t->seen = 0;
  free(n);
}

static char **sort_names;
static int by_name(const void *a, const void *b) {
  return strcmp(sort_names[*(const int *)a], sort_names[*(const int *)b]);
}

/* Marks the regions whose slice name another region has too. */
static void mark_shared_names(const prof_profile *p, trace_part *part) {
  char **names = prof_xcalloc((size_t)p->nregions, sizeof *names);
  int *order = prof_xcalloc((size_t)p->nregions, sizeof *order);
  for (int i = 0; i < p->nregions; i++) {
    char name[1024];
    slice_name(&p->regions[i], name, sizeof name);
    names[i] = prof_xstrdup(name);
    order[i] = i;
  }
  sort_names = names;
  qsort(order, (size_t)p->nregions, sizeof *order, by_name);
  for (int j = 1; j < p->nregions; j++)
    if (strcmp(names[order[j - 1]], names[order[j]]) == 0)
      part[order[j - 1]].ids_each = part[order[j]].ids_each = 1;
  for (int i = 0; i < p->nregions; i++)
    free(names[i]);
  free(names);
  free(order);
}

/* The trace's own output buffer.  Everything goes to the file's
   descriptor from here, in pieces of exactly `piece` bytes at offsets that
   are multiples of it: 256 KiB a write, as a write costs some
   microseconds besides its bytes (5.3 MB in 64 KiB pieces took 0.3 ms
   more than in 256 KiB ones; larger pieces gained nothing more), and
   writes at aligned offsets cost the kernel less (4.6 MB: 0.55 ms where
   the same pieces 700 bytes off took 0.67 ms).  Lines are made in place
   past `used`; `room` bytes after `piece` take the longest line. */
typedef struct trace_out {
  int fd;
  char *b;
  size_t used, piece, room;
  int rc; /* 0, or -1 once a write failed */
} trace_out;

static void out_write(trace_out *o, const char *b, size_t n) {
  while (n > 0 && o->rc == 0) {
    ssize_t w = write(o->fd, b, n);
    if (w <= 0) {
      if (w == 0 || errno != EINTR)
        o->rc = -1; /* a file takes at least a byte, or says why not */
      continue;
    }
    b += w;
    n -= (size_t)w;
  }
}

/* Writes the whole pieces made so far; the rest moves to the front. */
static void out_pieces(trace_out *o) {
  if (o->used < o->piece)
    return;
  size_t n = o->used - o->used % o->piece;
  out_write(o, o->b, n);
  memmove(o->b, o->b + n, o->used - n);
  o->used -= n;
}

/* Makes sure a line of up to `need` bytes fits past `used`. */
static void out_room(trace_out *o, size_t need) {
  out_pieces(o);
  if (o->used + need <= o->piece + o->room)
    return;
  /* a line longer than the room (a file name of kilobytes): the rest of
     the writes go unaligned */
  out_write(o, o->b, o->used);
  o->used = 0;
  if (need > o->piece + o->room) {
    free(o->b);
    o->room = need;
    o->b = prof_xcalloc(o->piece + o->room, 1);
  }
}

static void out_put(trace_out *o, const char *s, size_t n) {
  out_room(o, n);
  memcpy(o->b + o->used, s, n);
  o->used += n;
}

/* The metadata: the process and its threads, named and ordered. */
static char *trace_header(const prof_profile *p, long pid, size_t *len) {
  char *text = NULL;
  *len = 0;
  FILE *f = open_memstream(&text, len);
  if (f == NULL)
    return NULL;
  fputs("{\"displayTimeUnit\": \"ms\",\n \"otherData\": {\"tool\": "
        "\"pompt-prof\", \"app\": ",
        f);
  json_str(f, p->app);
  fputs(", \"runtime\": ", f);
  json_str(f, p->runtime);
  fputs("},\n \"traceEvents\": [\n", f);
  char name[1024];
  if (p->rank >= 0)
    snprintf(name, sizeof name, "%s rank %d (pid %ld)", p->app, p->rank, pid);
  else
    snprintf(name, sizeof name, "%s (pid %ld)", p->app, pid);
  fprintf(f,
          "  {\"name\": \"process_name\", \"ph\": \"M\", \"pid\": %ld, "
          "\"tid\": 0, \"args\": {\"name\": ",
          pid);
  json_str(f, name);
  fputs("}}", f);
  for (int u = 0; u < p->nunits; u++) {
    const prof_unit *un = &p->units[u];
    snprintf(name, sizeof name, "thread %d (%s)", un->thread, un->type);
    fprintf(f,
            ",\n  {\"name\": \"thread_name\", \"ph\": \"M\", \"pid\": %ld, "
            "\"tid\": %d, \"args\": {\"name\": ",
            pid, un->thread);
    json_str(f, name);
    fprintf(f,
            "}},\n  {\"name\": \"thread_sort_index\", \"ph\": \"M\", "
            "\"pid\": %ld, \"tid\": %d, \"args\": {\"sort_index\": %d}}",
            pid, un->thread, un->thread);
  }
  if (fclose(f) != 0) {
    free(text);
    return NULL;
  }
  return text;
}

int prof_write_trace(FILE *f, const prof_profile *p) {
  long pid = p->pid >= 0 ? p->pid : 1;
  size_t hlen;
  char *header = trace_header(p, pid, &hlen);
  if (header == NULL || fflush(f) != 0) {
    free(header);
    return -1;
  }
  trace_out o = {fileno(f), NULL, 0, 1u << 18, 16384, 0};
  o.b = prof_xcalloc(o.piece + o.room, 1);
  prof_prefault(o.b, o.piece + o.room);
  out_put(&o, header, hlen);
  free(header);
  /* One slice per region instance: hundreds of thousands at the end of a
     run, written while the program waits to exit.  A line is the region's
     head on this thread, the start, the duration and its tail (integer
     formatting: microseconds with three decimals are the nanoseconds);
     a line needs a whole slot (or a long part) each side and two numbers
     of at most 24 characters. */
  trace_part *part = prof_xcalloc((size_t)p->nregions + 1, sizeof *part);
  mark_shared_names(p, part);
  for (int u = 0; p->timeline != NULL && u < p->nunits; u++) {
    const prof_unit *un = &p->units[u];
    const prof_timeline *tl = &p->timeline[u];
    /* parts are made for the regions this thread visited */
    for (int i = 0; i < p->nregions; i++) {
      free(part[i].long_head);
      free(part[i].long_tail);
      part[i].long_head = part[i].long_tail = NULL;
      part[i].head_len = 0;
    }
    for (int k = 0; k < tl->nparts; k++)
      for (int s = 0; s < tl->len[k]; s++) {
        const prof_slice *sl = &tl->part[k][s];
        int r = sl->region;
        if (r < 0 || r >= p->nregions)
          continue;
        trace_part *t = &part[r];
        if (t->head_len == 0)
          part_make(t, &p->regions[r], pid, un->thread);
        out_room(&o, (t->long_head ? t->head_len : TRACE_HEAD_SLOT) +
                         (t->long_tail ? t->tail_len : TRACE_TAIL_SLOT) + 64);
        char *b = o.b + o.used;
        if (t->long_head == NULL)
          memcpy(b, t->head, TRACE_HEAD_SLOT);
        else
          memcpy(b, t->long_head, t->head_len);
        b = put_us(b + t->head_len, sl->t0);
        memcpy(b, ",\"dur\":", 7);
        b = put_us(b + 7, sl->t1 > sl->t0 ? sl->t1 - sl->t0 : 0);
        if (t->seen) {
          memcpy(b, t->rest, TRACE_REST_SLOT);
          b += t->rest_len;
        } else {
          if (t->long_tail == NULL)
            memcpy(b, t->tail, TRACE_TAIL_SLOT);
          else
            memcpy(b, t->long_tail, t->tail_len);
          b += t->tail_len;
          t->seen = !t->ids_each;
        }
        o.used = (size_t)(b - o.b);
      }
  }
  for (int i = 0; i < p->nregions; i++) {
    free(part[i].long_head);
    free(part[i].long_tail);
  }
  free(part);
  static const char end[] = "\n ]\n}\n";
  out_put(&o, end, sizeof end - 1);
  out_write(&o, o.b, o.used);
  free(o.b);
  return o.rc;
}
