/*
 * prof_html.c - a self-contained HTML report: one file, no scripts, no
 * network: the profile tables and an inline SVG picture of the timeline.
 *
 * The picture samples each thread at one moment per pixel column and
 * paints the innermost construct it was in then, coloured by its sort
 * (parallel, worksharing, task, mutual exclusion, waiting).
 */
#define _GNU_SOURCE

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "prof_model.h"

static void esc(FILE *f, const char *s) {
  for (; s != NULL && *s; s++) {
    switch (*s) {
    case '<':
      fputs("&lt;", f);
      break;
    case '>':
      fputs("&gt;", f);
      break;
    case '&':
      fputs("&amp;", f);
      break;
    case '"':
      fputs("&quot;", f);
      break;
    default:
      fputc(*s, f);
    }
  }
}

/* Colour groups of the picture. */
enum {
  G_NONE = -1,
  G_PARALLEL,
  G_WORKSHARE,
  G_TASK,
  G_MUTEX,
  G_WAIT,
  G_OTHER,
  G_N
};
static const char *const group_color[G_N] = {"#b9d7f0", "#3b7dd8", "#9b59b6",
                                             "#f39c12", "#d93b3b", "#95a5a6"};
static const char *const group_name[G_N] = {
    "parallel region (work)",
    "worksharing (loop, sections, single, masked)",
    "task",
    "critical, lock, ordered, atomic",
    "waiting (barrier, lock, taskwait ...)",
    "other"};

static int group_of(int kind) {
  if (prof_kind_is_wait(kind))
    return G_WAIT;
  switch (kind) {
  case PK_PARALLEL:
    return G_PARALLEL;
  case PK_LOOP:
  case PK_SECTIONS:
  case PK_SINGLE:
  case PK_WORKSHARE:
  case PK_DISTRIBUTE:
  case PK_TASKLOOP:
  case PK_SCOPE:
  case PK_MASKED:
    return G_WORKSHARE;
  case PK_TASK:
  case PK_TASKGROUP:
    return G_TASK;
  case PK_CRITICAL:
  case PK_ORDERED:
  case PK_LOCK:
  case PK_ATOMIC:
    return G_MUTEX;
  default:
    return G_OTHER;
  }
}

/* What follows the size of each stretch of pixels of a region: its
   colour and its tooltip ("<label> <location>", escaped), in a new
   string, made once per region: the same region fills many stretches. */
static char *rect_tail(const prof_region *reg, int height) {
  char lab[256], loc[512];
  prof_label(reg, lab, sizeof lab);
  prof_location(reg, loc, sizeof loc);
  char *s = NULL;
  size_t n = 0;
  FILE *m = open_memstream(&s, &n);
  if (m == NULL)
    return prof_xstrdup("");
  fprintf(m, "\" height=\"%d\" fill=\"%s\"><title>", height,
          group_color[group_of(reg->kind)]);
  esc(m, lab);
  fputc(' ', m);
  esc(m, loc);
  fputs("</title></rect>\n", m);
  if (fclose(m) != 0 || s == NULL) {
    free(s);
    return prof_xstrdup("");
  }
  return s;
}

/* Writes a non-negative int in decimal; returns the end. */
static char *put_int(char *b, int v) {
  char tmp[16];
  int n = 0;
  unsigned u = v > 0 ? (unsigned)v : 0;
  do {
    tmp[n++] = (char)('0' + u % 10);
    u /= 10;
  } while (u != 0);
  while (n > 0)
    *b++ = tmp[--n];
  return b;
}

static void timeline_svg(FILE *f, const prof_profile *p) {
  const int W = 900, label = 120, row = 20, top = 24;
  uint64_t end = 0;
  for (int u = 0; u < p->nunits; u++)
    if (p->timeline[u].end > end)
      end = p->timeline[u].end;
  if (end == 0)
    end = (uint64_t)(p->wall * 1e9) + 1;
  int H = top + row * p->nunits + 40;
  fprintf(f,
          "<svg width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" "
          "role=\"img\" aria-label=\"timeline\">\n",
          label + W + 10, H, label + W + 10, H);
  fputs("<style>text{font:11px sans-serif}</style>\n", f);
  /* time axis */
  char buf[32];
  for (int i = 0; i <= 5; i++) {
    int x = label + (W * i) / 5;
    prof_fmt_time((double)end * i / 5.0, buf, sizeof buf);
    fprintf(f,
            "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#ddd\"/>"
            "<text x=\"%d\" y=\"14\" text-anchor=\"%s\">%s</text>\n",
            x, top - 4, x, top + row * p->nunits, x,
            i == 0 ? "start" : (i == 5 ? "end" : "middle"), buf);
  }
  int *px = prof_xcalloc((size_t)W, sizeof(int));
  char **tail = prof_xcalloc((size_t)p->nregions + 1, sizeof *tail);
  size_t *tail_len = prof_xcalloc((size_t)p->nregions + 1, sizeof *tail_len);
  for (int u = 0; u < p->nunits; u++) {
    int y = top + u * row;
    fprintf(f, "<text x=\"4\" y=\"%d\">thread %d</text>\n", y + 14,
            p->units[u].thread);
    for (int x = 0; x < W; x++)
      px[x] = -1;
    /* slices come sorted by start, enclosing before nested: later ones
       paint over earlier ones */
    const prof_timeline *tl = &p->timeline[u];
    for (int k = 0; k < tl->nparts; k++)
      for (int s = 0; s < tl->len[k]; s++) {
        const prof_slice *sl = &tl->part[k][s];
        double x0 = (double)sl->t0 / (double)end * W - 0.5;
        double x1 = (double)sl->t1 / (double)end * W - 0.5;
        int a = x0 <= 0 ? 0 : (int)x0 + ((double)(int)x0 < x0);
        for (int x = a; x < W && x <= x1; x++)
          if ((double)x >= x0 && (double)x < x1)
            px[x] = sl->region;
      }
    /* hundreds of stretches per thread: each line is put together by hand
       (what fprintf would write) and written in one piece */
    char mid[64];
    int midlen = snprintf(mid, sizeof mid, "\" y=\"%d\" width=\"", y + 2);
    for (int x = 0; x < W;) {
      int r = px[x];
      int x2 = x + 1;
      while (x2 < W && px[x2] == r)
        x2++;
      if (r >= 0 && r < p->nregions) {
        if (tail[r] == NULL) {
          tail[r] = rect_tail(&p->regions[r], row - 4);
          tail_len[r] = strlen(tail[r]);
        }
        char line[128];
        char *b = line;
        memcpy(b, "<rect x=\"", 9);
        b = put_int(b + 9, label + x);
        memcpy(b, mid, (size_t)midlen);
        b = put_int(b + midlen, x2 - x);
        fwrite(line, 1, (size_t)(b - line), f);
        fwrite(tail[r], 1, tail_len[r], f);
      }
      x = x2;
    }
  }
  free(px);
  for (int r = 0; r < p->nregions; r++)
    free(tail[r]);
  free(tail);
  free(tail_len);
  /* legend */
  int lx = 4, ly = top + row * p->nunits + 22;
  for (int g = 0; g < G_N; g++) {
    fprintf(f,
            "<rect x=\"%d\" y=\"%d\" width=\"10\" height=\"10\" fill=\"%s\"/>"
            "<text x=\"%d\" y=\"%d\">%s</text>\n",
            lx, ly - 9, group_color[g], lx + 14, ly, group_name[g]);
    lx += 14 + 7 * (int)strlen(group_name[g]) + 16;
    if (lx > label + W - 200 && g + 1 < G_N) {
      lx = 4;
      ly += 14;
    }
  }
  fputs("</svg>\n", f);
}

static void td_time(FILE *f, double ns) {
  char buf[32];
  if (ns <= 0)
    snprintf(buf, sizeof buf, "-");
  else
    prof_fmt_time(ns, buf, sizeof buf);
  fprintf(f, "<td class=\"n\">%s</td>", buf);
}

static const prof_profile *sort_p;
static int by_time(const void *a, const void *b) {
  const prof_region *x = &sort_p->regions[*(const int *)a];
  const prof_region *y = &sort_p->regions[*(const int *)b];
  if (x->tot_time != y->tot_time)
    return x->tot_time < y->tot_time ? 1 : -1;
  return x->id - y->id;
}

/* Rows of the call tree, depth first, children by time. */
static void tree(FILE *f, const prof_profile *p, int parent, int depth,
                 int *rows) {
  int n = 0;
  int *kids = prof_xcalloc((size_t)p->nregions + 1, sizeof(int));
  for (int i = 0; i < p->nregions; i++)
    if (p->regions[i].parent == parent)
      kids[n++] = i;
  sort_p = p;
  qsort(kids, (size_t)n, sizeof(int), by_time);
  for (int j = 0; j < n && *rows < 1000; j++) {
    const prof_region *r = &p->regions[kids[j]];
    char lab[256], loc[512], num[32];
    prof_label(r, lab, sizeof lab);
    prof_location(r, loc, sizeof loc);
    fprintf(f, "<tr%s><td style=\"padding-left:%dem\">",
            prof_kind_is_wait(r->kind) ? " class=\"w\"" : "", depth);
    esc(f, lab);
    fputs("</td><td>", f);
    esc(f, loc);
    fputs("</td><td>", f);
    esc(f, r->func);
    snprintf(num, sizeof num, "%llu", (unsigned long long)r->tot_visits);
    fprintf(f, "</td><td class=\"n\">%s</td><td class=\"n\">%d</td>", num,
            r->nthreads);
    td_time(f, (double)r->tot_time);
    td_time(f, r->tmin);
    td_time(f, r->tmean);
    td_time(f, r->tmax);
    if (r->nthreads > 1)
      fprintf(f, "<td class=\"n\">%.1f%%</td>", r->imbalance);
    else
      fputs("<td class=\"n\">-</td>", f);
    td_time(f, (double)r->wait);
    td_time(f, (double)r->caused);
    fputs("</tr>\n", f);
    (*rows)++;
    tree(f, p, r->id, depth + 1, rows);
  }
  free(kids);
}

void prof_write_html(FILE *f, const prof_profile *p,
                     const prof_report_opts *o) {
  (void)o;
  char buf[64];
  fputs(
      "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
      "<title>pompt-prof: ",
      f);
  esc(f, p->app);
  fputs("</title>\n<style>\n"
        "body{font:14px sans-serif;margin:1.5em;color:#222}\n"
        "table{border-collapse:collapse;margin:.5em 0 1.5em}\n"
        "th,td{padding:2px 8px;border-bottom:1px solid #eee;text-align:left}\n"
        "th{background:#f4f4f4}\n"
        "td.n{text-align:right;font-variant-numeric:tabular-nums}\n"
        "tr.w td{color:#a52a2a}\n"
        "code{background:#f4f4f4;padding:0 3px}\n"
        "</style>\n</head>\n<body>\n<h1>pompt-prof: ",
        f);
  esc(f, p->app);
  fputs("</h1>\n<p>", f);
  prof_fmt_time(p->wall * 1e9, buf, sizeof buf);
  fprintf(f, "%d threads, %s wall", p->nunits, buf);
  if (p->nranks > 1)
    fprintf(f, ", %d ranks merged", p->nranks);
  else if (p->rank >= 0)
    fprintf(f, ", MPI rank %d", p->rank);
  if (p->pid >= 0)
    fprintf(f, ", pid %ld", p->pid);
  fputs(", runtime <code>", f);
  esc(f, p->runtime);
  fputs("</code>, source locations: ", f);
  esc(f, p->symbols);
  fputs(", started ", f);
  esc(f, p->start);
  fputs(" on ", f);
  esc(f, p->host);
  fputs("<br>command: <code>", f);
  esc(f, p->cmdline);
  fputs("</code></p>\n", f);

  if (p->timeline != NULL) {
    fputs("<h2>Timeline</h2>\n", f);
    timeline_svg(f, p);
  }

  fputs("<h2>Constructs (call tree)</h2>\n<table>\n<tr><th>construct</th>"
        "<th>location</th><th>function</th><th>visits</th><th>threads</th>"
        "<th>time</th><th>min/thread</th><th>mean/thread</th>"
        "<th>max/thread</th><th>imbalance</th><th>wait</th><th>caused</th></"
        "tr>\n",
        f);
  int rows = 0;
  tree(f, p, -1, 0, &rows);
  fputs("</table>\n<p>time: inclusive, summed over threads; imbalance: (max - "
        "mean) / max of the per-thread times; wait: time spent waiting in it; "
        "caused: waiting attributed to it (blame).</p>\n",
        f);

  fputs("<h2>Threads</h2>\n<table>\n<tr><th>rank</th><th>thread</th><th>type"
        "</th><th>lifetime</th><th>in constructs</th><th>waiting</th></tr>\n",
        f);
  for (int u = 0; u < p->nunits; u++) {
    const prof_unit *un = &p->units[u];
    fprintf(f, "<tr><td class=\"n\">%d</td><td class=\"n\">%d</td><td>",
            un->rank, un->thread);
    esc(f, un->type);
    fputs("</td>", f);
    td_time(f, (double)un->time);
    td_time(f, (double)un->busy);
    td_time(f, (double)un->waiting);
    fputs("</tr>\n", f);
  }
  fputs("</table>\n", f);

  if (p->nnotes > 0) {
    fputs("<h2>Notes</h2>\n<ul>\n", f);
    for (int i = 0; i < p->nnotes; i++) {
      fputs("<li>", f);
      esc(f, p->notes[i]);
      fputs("</li>\n", f);
    }
    fputs("</ul>\n", f);
  }
  fputs("<p>Written by pompt-prof. The JSON, CSV and Chrome trace files "
        "beside this one hold the same profile.</p>\n</body>\n</html>\n",
        f);
}
