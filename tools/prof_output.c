/*
 * prof_output.c - which files a profile goes to.  A run never overwrites
 * the files of an earlier one: when any file of the set exists, the set
 * takes the next free number (<base>.1.json, <base>.2.json, ...).  Each
 * file is written as <name>.partial (created exclusively) and renamed to
 * its name only when complete, without replacing anything.
 */
#define _GNU_SOURCE

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "prof_model.h"

static const struct {
  int bit;
  const char *word;
  const char *ext;
} formats[] = {
    {PF_TEXT, "text", "txt"},  {PF_JSON, "json", "json"},
    {PF_CSV, "csv", "csv"},    {PF_TRACE, "trace", "trace.json"},
    {PF_HTML, "html", "html"},
};
#define NFORMATS (int)(sizeof formats / sizeof formats[0])
/* The order the files are written in: the HTML picture reads the whole
   timeline again, so it comes before the trace, whose megabytes pass
   through the cache, while the timeline is still in it. */
static const int write_order[NFORMATS] = {0, 1, 2, 4, 3};

int prof_parse_formats(const char *s, const char **bad) {
  static char badword[64];
  int bits = 0;
  const char *p = s;
  while (*p) {
    while (*p == ',' || *p == ' ')
      p++;
    if (!*p)
      break;
    const char *w = p;
    while (*p && *p != ',' && *p != ' ')
      p++;
    size_t n = (size_t)(p - w);
    int found = 0;
    if (n == 3 && strncasecmp(w, "all", 3) == 0) {
      bits |= PF_ALL;
      found = 1;
    } else if (n == 4 && strncasecmp(w, "none", 4) == 0) {
      found = 1;
    } else if (n == 3 && strncasecmp(w, "txt", 3) == 0) {
      bits |= PF_TEXT;
      found = 1;
    } else {
      for (int i = 0; i < NFORMATS; i++) {
        if (strlen(formats[i].word) == n &&
            strncasecmp(w, formats[i].word, n) == 0) {
          bits |= formats[i].bit;
          found = 1;
        }
      }
    }
    if (!found) {
      snprintf(badword, sizeof badword, "%.*s", (int)n, w);
      if (bad)
        *bad = badword;
      return -1;
    }
  }
  return bits;
}

/* mkdir -p */
static int make_dir(const char *dir) {
  struct stat st;
  if (stat(dir, &st) == 0 && S_ISDIR(st.st_mode))
    return 0; /* the usual case: one system call, not one per component */
  char path[1024];
  snprintf(path, sizeof path, "%s", dir);
  size_t n = strlen(path);
  for (size_t i = 1; i <= n; i++) {
    if (path[i] != '/' && path[i] != '\0')
      continue;
    char c = path[i];
    path[i] = '\0';
    if (mkdir(path, 0777) != 0 && errno != EEXIST)
      return -1;
    path[i] = c;
  }
  return stat(dir, &st) == 0 && S_ISDIR(st.st_mode) ? 0 : -1;
}

/* text: the report already made for stderr, if any (made once, written
   twice).  -1 when a write failed that the stream does not know of. */
static int write_one(FILE *f, int bit, const prof_profile *p,
                     const prof_report_opts *o, const char *text,
                     size_t text_len) {
  switch (bit) {
  case PF_TEXT:
    if (text != NULL)
      fwrite(text, 1, text_len, f);
    else
      prof_write_text(f, p, o);
    break;
  case PF_JSON:
    prof_write_json(f, p);
    break;
  case PF_CSV:
    prof_write_csv(f, p);
    break;
  case PF_TRACE:
    return prof_write_trace(f, p);
  case PF_HTML:
    prof_write_html(f, p, o);
    break;
  }
  return 0;
}

/* Gives a complete file its name, never replacing a file of that name: a
   profile is never seen half-written (the process may be killed while it
   writes, by a second signal).  0, or the errno. */
static int publish(const char *tmp, const char *path) {
  if (renameat2(AT_FDCWD, tmp, AT_FDCWD, path, RENAME_NOREPLACE) == 0)
    return 0;
  if (errno != EINVAL && errno != ENOSYS)
    return errno;
  /* a file system without RENAME_NOREPLACE: a hard link is as exclusive */
  if (link(tmp, path) != 0)
    return errno;
  unlink(tmp);
  return 0;
}

static int write_files(const prof_profile *p, const char *dir, const char *base,
                       int fmts, const prof_report_opts *o, FILE *err,
                       const char *text, size_t text_len);

int prof_write_all(const prof_profile *p, const char *dir, const char *base,
                   int fmts, const prof_report_opts *o, FILE *err,
                   int stderr_report) {
  char *text = NULL;
  size_t text_len = 0;
  if (stderr_report && err != NULL) {
    FILE *m = open_memstream(&text, &text_len);
    if (m != NULL) {
      prof_write_text(m, p, o);
      if (fclose(m) != 0) {
        free(text);
        text = NULL;
      }
    }
    fputc('\n', err);
    if (text != NULL)
      fwrite(text, 1, text_len, err);
    else
      prof_write_text(err, p, o);
    prof_phase("report");
  }
  int rc = write_files(p, dir, base, fmts, o, err, text, text_len);
  free(text);
  return rc;
}

static int write_files(const prof_profile *p, const char *dir, const char *base,
                       int fmts, const prof_report_opts *o, FILE *err,
                       const char *text, size_t text_len) {
  if (p->timeline == NULL)
    fmts &= ~PF_TRACE; /* no timeline recorded */
  if (fmts == 0)
    return 0;
  const char *where = dir && dir[0] ? dir : ".";
  char fallback[64] = ".";
  if (make_dir(where) != 0) {
    if (err)
      fprintf(err,
              "pompt-prof: cannot create directory '%s' (%s); writing "
              "to the current directory\n",
              where, strerror(errno));
    where = fallback;
  }
  char stem[1400], path[1600], tmp[1700];
  int rc = 0;
  for (int attempt = 0; attempt < 1000; attempt++) {
    if (attempt == 0)
      snprintf(stem, sizeof stem, "%s/%s", where, base);
    else
      snprintf(stem, sizeof stem, "%s/%s.%d", where, base, attempt);
    int taken = 0;
    for (int i = 0; i < NFORMATS && !taken; i++) {
      if (!(fmts & formats[i].bit))
        continue;
      snprintf(path, sizeof path, "%s.%s", stem, formats[i].ext);
      taken = access(path, F_OK) == 0;
    }
    if (taken)
      continue;
    int done = 0, clash = 0;
    for (int w = 0; w < NFORMATS; w++) {
      int i = write_order[w];
      if (!(fmts & formats[i].bit))
        continue;
      snprintf(path, sizeof path, "%s.%s", stem, formats[i].ext);
      snprintf(tmp, sizeof tmp, "%s.partial", path);
      int fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
      if (fd < 0) {
        if (errno == EEXIST) {
          clash = 1;
          break;
        }
        if (err)
          fprintf(err, "pompt-prof: cannot write %s: %s\n", path,
                  strerror(errno));
        rc = -1;
        continue;
      }
      FILE *f = fdopen(fd, "w");
      if (f == NULL) {
        close(fd);
        rc = -1;
        continue;
      }
      setvbuf(f, NULL, _IOFBF, 1 << 16); /* a trace is megabytes */
      int wr = write_one(f, formats[i].bit, p, o, text, text_len);
      if (fclose(f) != 0 || wr != 0) {
        if (err)
          fprintf(err, "pompt-prof: error writing %s\n", path);
        unlink(tmp);
        rc = -1;
        continue;
      }
      int pr = publish(tmp, path);
      prof_phase(formats[i].ext);
      if (pr != 0) {
        unlink(tmp);
        if (pr == EEXIST) {
          clash = 1;
          break;
        }
        if (err)
          fprintf(err, "pompt-prof: cannot write %s: %s\n", path, strerror(pr));
        rc = -1;
        continue;
      }
      done |= formats[i].bit;
    }
    if (clash)
      continue; /* another process took this name meanwhile */
    char written[1024] = "";
    size_t wl = 0;
    for (int i = 0; i < NFORMATS; i++) {
      if (!(done & formats[i].bit))
        continue;
      int n = snprintf(written + wl, sizeof written - wl, "%s%s", wl ? "," : "",
                       formats[i].ext);
      if (n > 0 && (size_t)n < sizeof written - wl)
        wl += (size_t)n;
    }
    if (err && wl > 0)
      fprintf(err, "pompt-prof: wrote %s.{%s}\n", stem, written);
    return rc;
  }
  if (err)
    fprintf(err, "pompt-prof: no free file name for %s/%s\n", where, base);
  return -1;
}
