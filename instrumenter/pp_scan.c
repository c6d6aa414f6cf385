/*
 * pp_scan.c -- see pp_scan.h.
 */
#include "pp_scan.h"

#include <string.h>

static bool ident_start(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

static bool ident_char(char c) {
  return ident_start(c) || (c >= '0' && c <= '9');
}

static const char *skip_blanks(const char *p, const char *end) {
  while (p < end && (*p == ' ' || *p == '\t'))
    p++;
  return p;
}

/* Whether the word at p (up to end) is exactly w. */
static bool word_is(const char *p, const char *end, const char *w) {
  size_t n = strlen(w);
  return (size_t)(end - p) >= n && memcmp(p, w, n) == 0 &&
         (p + n == end || !ident_char(p[n]));
}

/* A line marker, "# 12 "file" 1 3 4": whether its flags say system header.
 * p is after the '#' and the blanks that follow it. */
static bool marker_is_system(const char *p, const char *end) {
  while (p < end && *p >= '0' && *p <= '9')
    p++;
  p = skip_blanks(p, end);
  if (p == end || *p != '"')
    return false;
  for (p++; p < end && *p != '"'; p++)
    if (*p == '\\' && p + 1 < end)
      p++;
  for (p++; p < end; p++) {
    p = skip_blanks(p, end);
    if (p < end && *p == '3' && (p + 1 == end || p[1] == ' ' || p[1] == '\t'))
      return true;
  }
  return false;
}

/* Whether the line [p, end) holds one of the identifiers that pp_scan.h
 * lists. */
static bool line_has_openmp_word(const char *p, const char *end) {
  while (p < end) {
    if (!ident_start(*p)) {
      p++;
      continue;
    }
    const char *w = p;
    while (p < end && ident_char(*p))
      p++;
    size_t n = (size_t)(p - w);
    if ((n == 3 && memcmp(w, "omp", 3) == 0) ||
        (n > 4 && memcmp(w, "omp_", 4) == 0) ||
        (n == 7 && memcmp(w, "_Pragma", 7) == 0))
      return true;
  }
  return false;
}

bool pp_unit_may_need_instrumentation(const char *text, size_t len) {
  const char *end = text + len;
  bool system = false;
  for (const char *line = text; line < end;) {
    const char *eol = memchr(line, '\n', (size_t)(end - line));
    if (!eol)
      eol = end;
    const char *p = skip_blanks(line, eol);
    if (p < eol && *p == '#') {
      const char *d = skip_blanks(p + 1, eol);
      if (d < eol && *d >= '0' && *d <= '9') {
        system = marker_is_system(d, eol);
        line = eol + 1;
        continue;
      }
      if (!system && word_is(d, eol, "pragma")) {
        const char *w = skip_blanks(d + 6, eol);
        if (word_is(w, eol, "omp") || word_is(w, eol, "pomp"))
          return true;
      }
      /* "#line N" carries no flags: what follows may be anything. */
      if (word_is(d, eol, "line"))
        system = false;
    }
    if (!system && line_has_openmp_word(p, eol))
      return true;
    line = eol + 1;
  }
  return false;
}
