/*
 * instr_rewrite.c -- locate the OpenMP constructs of a preprocessed unit and
 * wrap them in POMP monitoring calls (doc/instrumentation.md).
 *
 * The unit is never re-printed from an AST: every change is an edit (an
 * insertion, or the replacement of one pragma line) at a byte offset of the
 * input, and all edits are applied in one pass at the end.  At equal offsets
 * closing insertions come first (inner before outer), then opening ones
 * (outer before inner), then the replacement of the text at that offset.
 *
 * libclang parses the unit without -fopenmp, so that every structured block
 * is an ordinary statement; the pragma lines themselves are found in the
 * text and parsed by the clause grammar (omp_directive.h).
 *
 * Details the specification leaves to the implementation:
 *  - The thread id is written as -1, POMP_THREAD_SELF's value: the output
 *    is compiled as cpp-output, without macro expansion.
 *  - A region whose default clause is not default(shared) (parallel, and
 *    pass-through constructs such as task) also shares the handles and CTC
 *    strings of the instrumented constructs inside it: GCC requires static
 *    variables referenced in such a region to be listed.
 *  - Constructs inside target regions (and declare target blocks) are not
 *    instrumented: their code may run on a device.
 *  - Loop bounds are passed as int64_t casts, so that -Wconversion stays
 *    quiet.
 */
#define _XOPEN_SOURCE 700

#include "instr_rewrite.h"

#include <clang-c/Index.h>
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "instr_ctc.h"
#include "omp_directive.h"

/* The thread id every inserted event passes: POMP_THREAD_SELF.  The output
 * is compiled without a preprocessor run (-x cpp-output), so the macro's
 * value is written, not its name. */
#define T_SELF "-1"
/* Written after an event call that may end a function (an outlined parallel
 * region's body, a user function whose last statement is a construct): an
 * empty volatile asm keeps the compiler from turning the call into a tail
 * call, which would make the library's return address (codeptr_ra) point
 * into the caller's caller instead of the construct. */
#define NO_TAIL " __asm__ __volatile__(\"\");"

/* ---- Data ---------------------------------------------------------------- */

struct src_file {
  char *raw;  /* the name as spelled in line markers (escapes kept) */
  char *name; /* unescaped */
};

struct line_rec {
  int32_t file;  /* index into unit.files */
  uint32_t line; /* presumed line number */
  uint8_t sys;   /* from a system header (line-marker flag 3) */
  uint8_t marker;
};

struct stmt_rec {
  size_t begin, end;
  CXCursor cur;
};

struct diag_rec {
  size_t off;
  char *msg;
  int reported;
};

struct section_rec {
  size_t sbegin, send;
  int depth;
};

struct pragma {
  size_t line;   /* line index */
  size_t lbegin; /* start of the pragma line */
  size_t lend;   /* end of the pragma line, newline excluded */
  size_t tbegin; /* start of the directive text (after "omp") */
  size_t tend;   /* end of the directive text, trailing blanks excluded */
  /* The clauses, kept for instrumented kinds and default clauses. */
  struct omp_clause *clauses;
  int has_critical_name;
  struct omp_span critical_name;
  enum omp_directive_kind kind;
  char dname[64]; /* directive name, for messages */
  int standalone; /* takes no structured block */
  int declarative;
  size_t nclauses;
  int target;      /* a target construct with a block */
  int block_state; /* 0: not yet, 1: computing, 2: found, -1: not found */
  size_t sbegin, send;
  int instrument;
  int number;
  int depth;
  int default_private; /* has a default clause other than default(shared) */
  struct section_rec *secs;
  size_t nsecs;
  char *ctc;
};

struct edit {
  size_t begin, end; /* end > begin: the text [begin, end) is replaced */
  int close;
  int depth;
  size_t seq;
  char *text;
};

struct unit {
  const char *path;
  const char *text;
  size_t len;
  enum instr_lang lang;

  size_t nlines;
  size_t *lstart; /* nlines + 1 entries */
  struct line_rec *lines;
  struct src_file *files;
  size_t nfiles;
  int main_file;
  size_t defs_at; /* offset where the handle definitions go */
  int defs_file;  /* the presumed position there, restored after them */
  uint32_t defs_line;
  int defs_marker; /* defs_at follows the main file's first line marker */

  struct pragma *pragmas;
  size_t npragmas;
  int32_t *pragma_of_line; /* line index -> pragma index or -1 */

  CXIndex index;
  CXTranslationUnit tu;
  struct stmt_rec *stmts;
  size_t nstmts, capstmts;
  struct diag_rec *diags;
  size_t ndiags;

  struct edit *edits;
  size_t nedits, capedits;

  char **warned; /* "file\ndirective" keys already warned about */
  size_t nwarned;
  int warned_target;

  int errors;
};

/* ---- Small text helpers -------------------------------------------------- */

static int is_blank(char c) {
  return c == ' ' || c == '\t' || c == '\f' || c == '\v' || c == '\r';
}
static int is_space(char c) {
  return is_blank(c) || c == '\n';
}
static int is_idch(char c) {
  return isalnum((unsigned char)c) || c == '_' || c == '$';
}

static size_t line_of(const struct unit *u, size_t off) {
  if (u->nlines == 0)
    return 0;
  size_t lo = 0, hi = u->nlines; /* lstart[lo] <= off < lstart[hi] */
  while (hi - lo > 1) {
    size_t mid = lo + (hi - lo) / 2;
    if (u->lstart[mid] <= off)
      lo = mid;
    else
      hi = mid;
  }
  return lo;
}

/* End of line li, newline excluded. */
static size_t line_end(const struct unit *u, size_t li) {
  size_t e = u->lstart[li + 1];
  if (e > u->lstart[li] && u->text[e - 1] == '\n')
    e--;
  return e;
}

/* Offset of the first non-blank character of line li. */
static size_t line_first(const struct unit *u, size_t li) {
  size_t p = u->lstart[li], e = line_end(u, li);
  while (p < e && is_blank(u->text[p]))
    p++;
  return p;
}

static int line_is_directive(const struct unit *u, size_t li) {
  size_t p = line_first(u, li);
  return p < line_end(u, li) && u->text[p] == '#';
}

static const struct line_rec *rec_at(const struct unit *u, size_t off) {
  static const struct line_rec none = {0, 1, 0, 0};
  if (u->nlines == 0)
    return &none;
  return &u->lines[line_of(u, off)];
}

static unsigned col_at(const struct unit *u, size_t off) {
  if (u->nlines == 0)
    return (unsigned)off + 1;
  return (unsigned)(off - u->lstart[line_of(u, off)] + 1);
}

static void vdiag(struct unit *u, size_t off, const char *sev, const char *fmt,
                  va_list ap) {
  const struct line_rec *r = rec_at(u, off);
  fprintf(stderr, "%s:%u:%u: %s: ", u->files[r->file].name, (unsigned)r->line,
          col_at(u, off), sev);
  vfprintf(stderr, fmt, ap);
  fputc('\n', stderr);
}

__attribute__((format(printf, 3, 4))) static void
error_at(struct unit *u, size_t off, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vdiag(u, off, "error", fmt, ap);
  va_end(ap);
  u->errors++;
}

__attribute__((format(printf, 3, 4))) static void
warning_at(struct unit *u, size_t off, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vdiag(u, off, "warning", fmt, ap);
  va_end(ap);
}

/* Appends a line marker that gives the line holding offset off its own
 * presumed number: "# 12 \"foo.c\"\n". */
static void emit_marker(const struct unit *u, struct instr_buf *b, size_t off) {
  const struct line_rec *r = rec_at(u, off);
  instr_buf_printf(b, "# %u \"%s\"\n", (unsigned)r->line,
                   u->files[r->file].raw);
}

/* Skips blanks, newlines, comments and line-marker lines from off. */
static size_t skip_blank(const struct unit *u, size_t off) {
  size_t p = off;
  for (;;) {
    while (p < u->len && is_space(u->text[p]))
      p++;
    if (p >= u->len)
      return u->len;
    if (u->text[p] == '/' && p + 1 < u->len && u->text[p + 1] == '*') {
      const char *e = strstr(u->text + p + 2, "*/");
      p = e ? (size_t)(e - u->text) + 2 : u->len;
      continue;
    }
    if (u->text[p] == '/' && p + 1 < u->len && u->text[p + 1] == '/') {
      while (p < u->len && u->text[p] != '\n')
        p++;
      continue;
    }
    if (u->text[p] == '#') {
      size_t li = line_of(u, p);
      if (u->lines[li].marker && line_first(u, li) == p) {
        p = u->lstart[li + 1];
        continue;
      }
    }
    return p;
  }
}

/* ---- Line markers ----------------------------------------------------------
 */

/* Undoes the escapes GCC writes in line-marker file names. */
static char *unescape_name(const char *s, size_t n) {
  char *out = instr_xmalloc(n + 1);
  size_t o = 0;
  for (size_t i = 0; i < n; i++) {
    if (s[i] != '\\' || i + 1 >= n) {
      out[o++] = s[i];
      continue;
    }
    char c = s[++i];
    if (c >= '0' && c <= '7') {
      int v = 0, k = 0;
      while (k < 3 && i < n && s[i] >= '0' && s[i] <= '7') {
        v = v * 8 + (s[i] - '0');
        i++;
        k++;
      }
      i--;
      out[o++] = (char)v;
    } else {
      switch (c) {
      case 'n':
        out[o++] = '\n';
        break;
      case 't':
        out[o++] = '\t';
        break;
      case 'r':
        out[o++] = '\r';
        break;
      default:
        out[o++] = c;
        break;
      }
    }
  }
  out[o] = '\0';
  return out;
}

static int intern_file(struct unit *u, const char *raw, size_t n) {
  /* Most markers name the file of the previous one or one near it. */
  for (size_t k = u->nfiles; k-- > 0;) {
    if (strlen(u->files[k].raw) == n && memcmp(u->files[k].raw, raw, n) == 0)
      return (int)k;
  }
  u->files = instr_xrealloc(u->files, (u->nfiles + 1) * sizeof *u->files);
  u->files[u->nfiles].raw = instr_xstrndup(raw, n);
  u->files[u->nfiles].name = unescape_name(raw, n);
  return (int)u->nfiles++;
}

/* Recognises "# 12 "file" 1 3" and "#line 12 "file"" on line li. */
static int parse_marker(const struct unit *u, size_t li, unsigned long *lineno,
                        const char **fname, size_t *fname_len, int *flags) {
  const char *t = u->text;
  size_t p = u->lstart[li], e = line_end(u, li);
  while (p < e && is_blank(t[p]))
    p++;
  if (p >= e || t[p] != '#')
    return 0;
  p++;
  while (p < e && is_blank(t[p]))
    p++;
  if (e - p >= 4 && memcmp(t + p, "line", 4) == 0 &&
      (p + 4 < e && is_blank(t[p + 4]))) {
    p += 4;
    while (p < e && is_blank(t[p]))
      p++;
  }
  if (p >= e || !isdigit((unsigned char)t[p]))
    return 0;
  unsigned long n = 0;
  while (p < e && isdigit((unsigned char)t[p]))
    n = n * 10 + (unsigned long)(t[p++] - '0');
  *lineno = n;
  *fname = NULL;
  *fname_len = 0;
  *flags = 0;
  while (p < e && is_blank(t[p]))
    p++;
  if (p < e && t[p] == '"') {
    size_t b = ++p;
    while (p < e && t[p] != '"') {
      if (t[p] == '\\' && p + 1 < e)
        p++;
      p++;
    }
    *fname = t + b;
    *fname_len = p - b;
    if (p < e)
      p++;
    for (;;) {
      while (p < e && is_blank(t[p]))
        p++;
      if (p >= e || !isdigit((unsigned char)t[p]))
        break;
      int f = 0;
      while (p < e && isdigit((unsigned char)t[p]))
        f = f * 10 + (t[p++] - '0');
      if (f > 0 && f < 16)
        *flags |= 1 << f;
    }
  }
  return 1;
}

static void build_lines(struct unit *u) {
  size_t n = 0;
  for (size_t i = 0; i < u->len; i++)
    if (u->text[i] == '\n')
      n++;
  if (u->len > 0 && u->text[u->len - 1] != '\n')
    n++;
  u->nlines = n;
  u->lstart = instr_xmalloc((n + 1) * sizeof *u->lstart);
  u->lines = instr_xmalloc((n ? n : 1) * sizeof *u->lines);
  size_t li = 0;
  u->lstart[0] = 0;
  for (size_t i = 0; i < u->len; i++)
    if (u->text[i] == '\n' && li + 1 <= n)
      u->lstart[++li] = i + 1;
  u->lstart[n] = u->len;

  /* File 0 stands for the input itself until the first marker. */
  intern_file(u, u->path, strlen(u->path));
  int32_t cur_file = 0;
  uint32_t cur_line = 1;
  uint8_t cur_sys = 0;
  int first_marker = 1;
  size_t main_marker_line = SIZE_MAX, first_main_line = SIZE_MAX;
  uint32_t main_marker_no = 1, first_main_no = 1;
  int seen_cmdline = 0;
  u->main_file = 0;
  for (li = 0; li < n; li++) {
    unsigned long ln;
    const char *fname;
    size_t flen;
    int flags;
    struct line_rec *r = &u->lines[li];
    r->file = cur_file;
    r->line = cur_line;
    r->sys = cur_sys;
    r->marker = 0;
    if (u->text[line_first(u, li)] == '#' &&
        parse_marker(u, li, &ln, &fname, &flen, &flags)) {
      r->marker = 1;
      if (fname) {
        cur_file = intern_file(u, fname, flen);
        cur_sys = (flags & (1 << 3)) ? 1 : 0;
        if (first_marker)
          u->main_file = cur_file;
        first_marker = 0;
        const char *nm = u->files[cur_file].name;
        if (strcmp(nm, "<command-line>") == 0)
          seen_cmdline = 1;
        if (cur_file == u->main_file && ln == 1 && seen_cmdline &&
            main_marker_line == SIZE_MAX) {
          main_marker_line = li;
          main_marker_no = (uint32_t)ln;
        }
        if (cur_file == u->main_file && first_main_line == SIZE_MAX) {
          first_main_line = li;
          first_main_no = (uint32_t)ln;
        }
      }
      cur_line = (uint32_t)ln;
      continue;
    }
    cur_line++;
  }
  if (main_marker_line == SIZE_MAX) {
    main_marker_line = first_main_line;
    main_marker_no = first_main_no;
  }
  u->defs_file = u->main_file;
  u->defs_line = main_marker_no;
  u->defs_at =
      main_marker_line == SIZE_MAX ? 0 : u->lstart[main_marker_line + 1];
  u->defs_marker = main_marker_line != SIZE_MAX;
  if (main_marker_line == SIZE_MAX)
    u->defs_line = 1;
}

/* ---- Pragma lines ----------------------------------------------------------
 */

/* If line li is "#pragma omp ...", returns 1 and the offset of the text after
 * "omp". */
static int is_omp_pragma(const struct unit *u, size_t li, size_t *text_off) {
  const char *t = u->text;
  size_t p = line_first(u, li), e = line_end(u, li);
  if (p >= e || t[p] != '#')
    return 0;
  p++;
  while (p < e && is_blank(t[p]))
    p++;
  if (e - p < 6 || memcmp(t + p, "pragma", 6) != 0 || !is_blank(t[p + 6]))
    return 0;
  p += 6;
  while (p < e && is_blank(t[p]))
    p++;
  if (e - p < 3 || memcmp(t + p, "omp", 3) != 0 ||
      (p + 3 < e && !is_blank(t[p + 3])))
    return 0;
  *text_off = p + 3;
  return 1;
}

/* Word k (0-based) of the directive text, words being identifiers separated
 * by blanks; stops at anything else. */
static int directive_word(const char *s, size_t n, int k, size_t *wb,
                          size_t *we) {
  size_t p = 0;
  for (int i = 0;; i++) {
    while (p < n && is_blank(s[p]))
      p++;
    size_t b = p;
    while (p < n && is_idch(s[p]))
      p++;
    if (p == b)
      return 0;
    if (i == k) {
      *wb = b;
      *we = p;
      return 1;
    }
  }
}

/* Offset of the directive name of a pragma, for diagnostics. */
static size_t name_offset(const struct unit *u, const struct pragma *p) {
  size_t b, e;
  return directive_word(u->text + p->tbegin, p->tend - p->tbegin, 0, &b, &e)
             ? p->tbegin + b
             : p->tbegin;
}

/* Sets standalone / declarative / target from the directive kind. */
static void classify(struct pragma *p, const struct omp_directive *d) {
  switch (p->kind) {
  case OMP_DIR_THREADPRIVATE:
  case OMP_DIR_DECLARE_REDUCTION:
  case OMP_DIR_DECLARE_MAPPER:
  case OMP_DIR_DECLARE_SIMD:
  case OMP_DIR_DECLARE_TARGET:
  case OMP_DIR_BEGIN_DECLARE_TARGET:
  case OMP_DIR_END_DECLARE_TARGET:
  case OMP_DIR_DECLARE_VARIANT:
  case OMP_DIR_BEGIN_DECLARE_VARIANT:
  case OMP_DIR_END_DECLARE_VARIANT:
  case OMP_DIR_REQUIRES:
  case OMP_DIR_ALLOCATE:
  case OMP_DIR_ASSUMES:
  case OMP_DIR_BEGIN_ASSUMES:
  case OMP_DIR_END_ASSUMES:
  case OMP_DIR_BEGIN_METADIRECTIVE:
  case OMP_DIR_END_METADIRECTIVE:
    p->declarative = 1;
    p->standalone = 1;
    break;
  case OMP_DIR_BARRIER:
  case OMP_DIR_TASKWAIT:
  case OMP_DIR_TASKYIELD:
  case OMP_DIR_FLUSH:
  case OMP_DIR_SCAN:
  case OMP_DIR_DEPOBJ:
  case OMP_DIR_TARGET_ENTER_DATA:
  case OMP_DIR_TARGET_EXIT_DATA:
  case OMP_DIR_TARGET_UPDATE:
  case OMP_DIR_CANCEL:
  case OMP_DIR_CANCELLATION_POINT:
  case OMP_DIR_ERROR:
  case OMP_DIR_NOTHING:
  case OMP_DIR_INTEROP:
  case OMP_DIR_METADIRECTIVE:
    p->standalone = 1;
    break;
  case OMP_DIR_ORDERED:
    if (omp_directive_find(d, OMP_CLAUSE_DEPEND) ||
        omp_directive_find(d, OMP_CLAUSE_DOACROSS))
      p->standalone = 1;
    break;
  case OMP_DIR_TARGET:
  case OMP_DIR_TARGET_PARALLEL:
  case OMP_DIR_TARGET_PARALLEL_FOR:
  case OMP_DIR_TARGET_PARALLEL_FOR_SIMD:
  case OMP_DIR_TARGET_PARALLEL_LOOP:
  case OMP_DIR_TARGET_SIMD:
  case OMP_DIR_TARGET_TEAMS:
  case OMP_DIR_TARGET_TEAMS_DISTRIBUTE:
  case OMP_DIR_TARGET_TEAMS_DISTRIBUTE_SIMD:
  case OMP_DIR_TARGET_TEAMS_DISTRIBUTE_PARALLEL_FOR:
  case OMP_DIR_TARGET_TEAMS_DISTRIBUTE_PARALLEL_FOR_SIMD:
  case OMP_DIR_TARGET_TEAMS_LOOP:
    p->target = 1; /* its block runs on the device */
    break;
  default:
    break;
  }
}

static void set_dname(struct unit *u, struct pragma *p,
                      const struct omp_directive *d) {
  const char *s = u->text + p->tbegin;
  size_t b = 0, e = 0;
  if (d->kind != OMP_DIR_UNKNOWN) {
    snprintf(p->dname, sizeof p->dname, "%s", omp_directive_kind_name(d->kind));
    return;
  }
  if (d->name.end > d->name.begin) {
    b = d->name.begin;
    e = d->name.end;
  } else {
    directive_word(s, p->tend - p->tbegin, 0, &b, &e);
  }
  size_t o = 0;
  for (size_t i = b; i < e && o + 1 < sizeof p->dname; i++) {
    if (is_space(s[i]) || s[i] == '\\') {
      if (o > 0 && p->dname[o - 1] != ' ')
        p->dname[o++] = ' ';
    } else {
      p->dname[o++] = s[i];
    }
  }
  while (o > 0 && p->dname[o - 1] == ' ')
    o--;
  p->dname[o] = '\0';
}

static int is_instrumented_kind(enum omp_directive_kind k) {
  switch (k) {
  case OMP_DIR_PARALLEL:
  case OMP_DIR_FOR:
  case OMP_DIR_PARALLEL_FOR:
  case OMP_DIR_SECTIONS:
  case OMP_DIR_PARALLEL_SECTIONS:
  case OMP_DIR_SINGLE:
  case OMP_DIR_MASTER:
  case OMP_DIR_CRITICAL:
  case OMP_DIR_BARRIER:
    return 1;
  default:
    return 0;
  }
}

static int is_parallel_kind(enum omp_directive_kind k) {
  return k == OMP_DIR_PARALLEL || k == OMP_DIR_PARALLEL_FOR ||
         k == OMP_DIR_PARALLEL_SECTIONS;
}

/* The grammar counts columns from the start of the directive text; the
 * user sees the pragma line, so "column N" is shifted by the text's offset
 * in the line. */
static void grammar_message(char *out, size_t size, const char *msg,
                            size_t shift) {
  const char *c = strstr(msg, "column ");
  char *end;
  unsigned long col = c ? strtoul(c + 7, &end, 10) : 0;
  if (!c || end == c + 7) {
    snprintf(out, size, "%s", msg);
    return;
  }
  snprintf(out, size, "%.*scolumn %lu%s", (int)(c - msg), msg,
           col + (unsigned long)shift, end);
}

static void scan_pragmas(struct unit *u) {
  u->pragma_of_line =
      instr_xmalloc((u->nlines ? u->nlines : 1) * sizeof *u->pragma_of_line);
  size_t cap = 0;
  struct omp_directive *d = instr_xmalloc(sizeof *d);
  for (size_t li = 0; li < u->nlines; li++) {
    u->pragma_of_line[li] = -1;
    size_t tb;
    if (u->lines[li].sys || u->lines[li].marker || !is_omp_pragma(u, li, &tb))
      continue;
    if (u->npragmas == cap) {
      cap = cap ? cap * 2 : 16;
      u->pragmas = instr_xrealloc(u->pragmas, cap * sizeof *u->pragmas);
    }
    struct pragma *p = &u->pragmas[u->npragmas];
    memset(p, 0, sizeof *p);
    p->line = li;
    p->lbegin = u->lstart[li];
    p->lend = line_end(u, li);
    p->tbegin = tb;
    p->tend = p->lend;
    while (p->tend > p->tbegin && is_space(u->text[p->tend - 1]))
      p->tend--;
    u->pragma_of_line[li] = (int32_t)u->npragmas++;

    memset(d, 0, sizeof *d);
    if (omp_directive_parse(u->text + p->tbegin, p->tend - p->tbegin, d) != 0) {
      size_t off =
          p->tbegin +
          (d->error_offset <= p->tend - p->tbegin ? d->error_offset : 0);
      char msg[sizeof d->error + 32];
      grammar_message(msg, sizeof msg,
                      d->error[0] ? d->error : "malformed OpenMP directive",
                      p->tbegin - p->lbegin);
      error_at(u, off, "%s", msg);
      p->kind = OMP_DIR_UNKNOWN;
      p->standalone = 1;
      p->declarative = 1;
      continue;
    }
    p->kind = d->kind;
    p->nclauses = d->n_clauses;
    set_dname(u, p, d);
    const struct omp_clause *def = omp_directive_find(d, OMP_CLAUSE_DEFAULT);
    if (def && def->has_args) {
      const char *a = u->text + p->tbegin + def->args.begin;
      size_t an = def->args.end - def->args.begin;
      while (an > 0 && is_space(*a)) {
        a++;
        an--;
      }
      while (an > 0 && is_space(a[an - 1]))
        an--;
      p->default_private = !(an == 6 && memcmp(a, "shared", 6) == 0);
    }
    classify(p, d);
    if ((is_instrumented_kind(p->kind) || p->default_private) &&
        d->n_clauses > 0) {
      p->clauses = instr_xmalloc(d->n_clauses * sizeof *p->clauses);
      memcpy(p->clauses, d->clauses, d->n_clauses * sizeof *p->clauses);
    }
    p->has_critical_name = d->has_critical_name;
    p->critical_name = d->critical_name;
  }
  free(d);
}

/* ---- libclang ------------------------------------------------------------ */

static enum CXChildVisitResult collect_stmts(CXCursor c, CXCursor parent,
                                             CXClientData data) {
  (void)parent;
  struct unit *u = data;
  CXSourceLocation loc = clang_getCursorLocation(c);
  if (clang_Location_isInSystemHeader(loc))
    return CXChildVisit_Continue;
  enum CXCursorKind k = clang_getCursorKind(c);
  if (clang_isStatement(k) || clang_isExpression(k)) {
    CXSourceRange r = clang_getCursorExtent(c);
    CXFile f1 = NULL, f2 = NULL;
    unsigned b = 0, e = 0;
    clang_getSpellingLocation(clang_getRangeStart(r), &f1, NULL, NULL, &b);
    clang_getSpellingLocation(clang_getRangeEnd(r), &f2, NULL, NULL, &e);
    if (f1 && f2 && e > b && e <= u->len) {
      if (u->nstmts == u->capstmts) {
        u->capstmts = u->capstmts ? u->capstmts * 2 : 1024;
        u->stmts = instr_xrealloc(u->stmts, u->capstmts * sizeof *u->stmts);
      }
      u->stmts[u->nstmts].begin = b;
      u->stmts[u->nstmts].end = e;
      u->stmts[u->nstmts].cur = c;
      u->nstmts++;
    }
  }
  return CXChildVisit_Recurse;
}

static int stmt_cmp(const void *a, const void *b) {
  const struct stmt_rec *x = a, *y = b;
  if (x->begin != y->begin)
    return x->begin < y->begin ? -1 : 1;
  if (x->end != y->end)
    return x->end > y->end ? -1 : 1;
  return 0;
}

static int diag_cmp(const void *a, const void *b) {
  const struct diag_rec *x = a, *y = b;
  return x->off < y->off ? -1 : x->off > y->off;
}

static int parse_with_clang(struct unit *u, const struct instr_options *o) {
  const char **args = instr_xmalloc((o->n_clang_args + 8) * sizeof *args);
  size_t na = 0;
  args[na++] = "-x";
  args[na++] = u->lang == INSTR_LANG_CXX ? "c++" : "c";
  struct instr_buf stdarg = {0};
  if (o->std) {
    instr_buf_printf(&stdarg, "-std=%s", o->std);
    args[na++] = stdarg.data;
  }
  args[na++] = "-ferror-limit=0";
  args[na++] = "-Wno-unknown-pragmas";
  args[na++] = "-w";
  args[na++] = "-fno-spell-checking";
  for (size_t i = 0; i < o->n_clang_args; i++)
    args[na++] = o->clang_args[i];

  struct CXUnsavedFile unsaved = {u->path, u->text, (unsigned long)u->len};
  u->index = clang_createIndex(0, 0);
  unsigned flags = CXTranslationUnit_KeepGoing;
  enum CXErrorCode ec = clang_parseTranslationUnit2(
      u->index, u->path, args, (int)na, &unsaved, 1, flags, &u->tu);
  if (ec != CXError_Success || !u->tu) {
    fprintf(stderr,
            "%s: error: libclang could not parse the unit (error code %d); its "
            "arguments were:",
            u->path, (int)ec);
    for (size_t i = 0; i < na; i++)
      fprintf(stderr, " %s", args[i]);
    fputc('\n', stderr);
    instr_buf_free(&stdarg);
    free(args);
    u->errors++;
    return -1;
  }
  instr_buf_free(&stdarg);
  free(args);

  clang_visitChildren(clang_getTranslationUnitCursor(u->tu), collect_stmts, u);
  if (u->nstmts)
    qsort(u->stmts, u->nstmts, sizeof *u->stmts, stmt_cmp);

  unsigned nd = clang_getNumDiagnostics(u->tu);
  u->diags = instr_xmalloc((nd ? nd : 1) * sizeof *u->diags);
  for (unsigned i = 0; i < nd; i++) {
    CXDiagnostic dg = clang_getDiagnostic(u->tu, i);
    enum CXDiagnosticSeverity sev = clang_getDiagnosticSeverity(dg);
    CXSourceLocation loc = clang_getDiagnosticLocation(dg);
    CXFile f = NULL;
    unsigned off = 0;
    clang_getSpellingLocation(loc, &f, NULL, NULL, &off);
    if (sev >= CXDiagnostic_Error && !f) {
      /* No location: about the arguments ("unknown argument"). */
      CXString s = clang_getDiagnosticSpelling(dg);
      fprintf(stderr, "pomp-instr: warning: libclang: %s\n",
              clang_getCString(s));
      clang_disposeString(s);
    }
    if (sev >= CXDiagnostic_Error && f &&
        !clang_Location_isInSystemHeader(loc) && off <= u->len &&
        !rec_at(u, off)->sys) {
      CXString s = clang_getDiagnosticSpelling(dg);
      u->diags[u->ndiags].off = off;
      u->diags[u->ndiags].msg =
          instr_xstrndup(clang_getCString(s), strlen(clang_getCString(s)));
      u->diags[u->ndiags].reported = 0;
      u->ndiags++;
      clang_disposeString(s);
    }
    clang_disposeDiagnostic(dg);
  }
  if (u->ndiags)
    qsort(u->diags, u->ndiags, sizeof *u->diags, diag_cmp);
  return 0;
}

/* The outermost statement or expression that starts exactly at off. */
static const struct stmt_rec *stmt_at(const struct unit *u, size_t off) {
  size_t lo = 0, hi = u->nstmts;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (u->stmts[mid].begin < off)
      lo = mid + 1;
    else
      hi = mid;
  }
  if (lo < u->nstmts && u->stmts[lo].begin == off)
    return &u->stmts[lo];
  return NULL;
}

/* ---- Structured blocks ----------------------------------------------------
 */

static int pragma_block(struct unit *u, struct pragma *p);

/* The structured block that starts at the first token at or after off:
 * [*sb, *se).  A block that starts with a pragma line (a nested construct or
 * a "#pragma GCC unroll") starts at that line and includes it. */
static int block_after(struct unit *u, size_t off, size_t *sb, size_t *se) {
  size_t p = skip_blank(u, off);
  if (p >= u->len)
    return -1;
  size_t li = line_of(u, p);
  if (u->text[p] == '#' && line_first(u, li) == p) {
    int32_t pi = u->pragma_of_line[li];
    if (pi >= 0) {
      struct pragma *q = &u->pragmas[pi];
      if (q->standalone || pragma_block(u, q) < 0)
        return -1;
      *sb = u->lstart[li];
      *se = q->send;
      return 0;
    }
    size_t b2, e2;
    if (li + 1 >= u->nlines || block_after(u, u->lstart[li + 1], &b2, &e2) < 0)
      return -1;
    *sb = u->lstart[li];
    *se = e2;
    return 0;
  }
  const struct stmt_rec *s = stmt_at(u, p);
  if (!s)
    return -1;
  size_t e = s->end;
  if (u->text[e - 1] != '}' && u->text[e - 1] != ';') {
    size_t q = skip_blank(u, e);
    if (q < u->len && u->text[q] == ';')
      e = q + 1;
  }
  *sb = p;
  *se = e;
  return 0;
}

static int pragma_block(struct unit *u, struct pragma *p) {
  if (p->block_state == 2)
    return 0;
  if (p->block_state != 0)
    return -1;
  p->block_state = 1;
  if (p->standalone || p->line + 1 >= u->nlines) {
    p->block_state = -1;
    return -1;
  }
  size_t sb, se;
  if (block_after(u, u->lstart[p->line + 1], &sb, &se) < 0) {
    p->block_state = -1;
    return -1;
  }
  p->sbegin = sb;
  p->send = se;
  p->block_state = 2;
  return 0;
}

/* Reports a construct whose block cannot be located; a clang error between
 * the pragma and the next one usually says why. */
static void block_not_found(struct unit *u, struct pragma *p) {
  size_t limit = u->len;
  for (size_t li = p->line + 1; li < u->nlines; li++) {
    if (u->pragma_of_line[li] >= 0) {
      limit = u->lstart[li];
      break;
    }
  }
  for (size_t i = 0; i < u->ndiags; i++) {
    if (u->diags[i].off >= p->lbegin && u->diags[i].off < limit &&
        !u->diags[i].reported) {
      error_at(u, u->diags[i].off, "%s", u->diags[i].msg);
      u->diags[i].reported = 1;
      return;
    }
  }
  error_at(u, name_offset(u, p),
           "cannot find the structured block of '#pragma omp %s'", p->dname);
}

static int find_sections(struct unit *u, struct pragma *p) {
  if (u->text[p->sbegin] != '{' || u->text[p->send - 1] != '}') {
    error_at(u, p->sbegin,
             "the block of '#pragma omp %s' must be a compound statement",
             p->dname);
    return -1;
  }
  size_t pos = p->sbegin + 1, close = p->send - 1;
  size_t cap = 0;
  for (;;) {
    pos = skip_blank(u, pos);
    if (pos >= close)
      break;
    size_t li = line_of(u, pos);
    int32_t pi = u->text[pos] == '#' && line_first(u, li) == pos
                     ? u->pragma_of_line[li]
                     : -1;
    size_t sb, se;
    if (pi >= 0 && u->pragmas[pi].kind == OMP_DIR_SECTION) {
      struct pragma *q = &u->pragmas[pi];
      if (pragma_block(u, q) < 0) {
        block_not_found(u, q);
        return -1;
      }
      sb = q->sbegin;
      se = q->send;
    } else if (p->nsecs == 0) {
      if (block_after(u, pos, &sb, &se) < 0) {
        error_at(u, pos, "cannot find the first section of '#pragma omp %s'",
                 p->dname);
        return -1;
      }
    } else {
      error_at(u, pos, "statement in '#pragma omp %s' that is not a section",
               p->dname);
      return -1;
    }
    if (se > close) {
      error_at(u, pos, "section extends past the end of '#pragma omp %s'",
               p->dname);
      return -1;
    }
    if (p->nsecs == cap) {
      cap = cap ? cap * 2 : 8;
      p->secs = instr_xrealloc(p->secs, cap * sizeof *p->secs);
    }
    p->secs[p->nsecs].sbegin = sb;
    p->secs[p->nsecs].send = se;
    p->nsecs++;
    pos = se;
  }
  return 0;
}

/* ---- Loop bounds ------------------------------------------------------------
 */

struct cursor_list {
  CXCursor c[8];
  size_t n;
};

static enum CXChildVisitResult collect_children(CXCursor c, CXCursor parent,
                                                CXClientData data) {
  (void)parent;
  struct cursor_list *l = data;
  if (l->n < 8)
    l->c[l->n] = c;
  l->n++;
  return CXChildVisit_Continue;
}

static struct cursor_list children_of(CXCursor c) {
  struct cursor_list l;
  l.n = 0;
  clang_visitChildren(c, collect_children, &l);
  return l;
}

static void cursor_span(CXCursor c, size_t *b, size_t *e) {
  CXSourceRange r = clang_getCursorExtent(c);
  unsigned ob = 0, oe = 0;
  clang_getSpellingLocation(clang_getRangeStart(r), NULL, NULL, NULL, &ob);
  clang_getSpellingLocation(clang_getRangeEnd(r), NULL, NULL, NULL, &oe);
  *b = ob;
  *e = oe;
}

/* Removes parentheses and implicit conversions. */
static CXCursor strip(CXCursor c) {
  for (;;) {
    enum CXCursorKind k = clang_getCursorKind(c);
    if (k != CXCursor_ParenExpr && k != CXCursor_UnexposedExpr)
      return c;
    struct cursor_list l = children_of(c);
    if (l.n != 1)
      return c;
    c = l.c[0];
  }
}

static int refers_to(CXCursor c, CXCursor var) {
  c = strip(c);
  return clang_getCursorKind(c) == CXCursor_DeclRefExpr &&
         clang_equalCursors(clang_getCursorReferenced(c), var);
}

/* The operator of a binary or compound-assignment expression, read from the
 * text between the operands. */
static void binary_operator(const struct unit *u, CXCursor c, char op[4]) {
  struct cursor_list l = children_of(c);
  op[0] = '\0';
  if (l.n != 2)
    return;
  size_t lb, le, rb, re;
  cursor_span(l.c[0], &lb, &le);
  cursor_span(l.c[1], &rb, &re);
  size_t p = le;
  while (p < rb && p < u->len && is_space(u->text[p]))
    p++;
  size_t o = 0;
  while (p < rb && o < 3 && strchr("+-*/%<>=!&|^,", u->text[p]))
    op[o++] = u->text[p++];
  op[o] = '\0';
}

static int is_integer_type(CXType t) {
  t = clang_getCanonicalType(t);
  return (t.kind >= CXType_Char_U && t.kind <= CXType_UInt128) ||
         (t.kind >= CXType_Char_S && t.kind <= CXType_Int128) ||
         t.kind == CXType_Enum;
}

/* 1 if the expression reads only literals, variables (other than var),
 * members and array elements, through casts and arithmetic. */
static int side_effect_free(const struct unit *u, CXCursor c, CXCursor var) {
  enum CXCursorKind k = clang_getCursorKind(c);
  switch (k) {
  case CXCursor_IntegerLiteral:
  case CXCursor_CharacterLiteral:
  case CXCursor_CXXBoolLiteralExpr:
  case CXCursor_CXXThisExpr:
  case CXCursor_TypeRef:
  case CXCursor_NamespaceRef:
  case CXCursor_TemplateRef:
    return 1;
  case CXCursor_DeclRefExpr: {
    CXCursor d = clang_getCursorReferenced(c);
    enum CXCursorKind dk = clang_getCursorKind(d);
    if (dk != CXCursor_VarDecl && dk != CXCursor_ParmDecl &&
        dk != CXCursor_EnumConstantDecl &&
        dk != CXCursor_NonTypeTemplateParameter)
      return 0;
    if (clang_equalCursors(d, var))
      return 0;
    if (clang_isVolatileQualifiedType(clang_getCursorType(c)))
      return 0;
    break;
  }
  case CXCursor_MemberRefExpr: {
    CXCursor d = clang_getCursorReferenced(c);
    if (clang_getCursorKind(d) != CXCursor_FieldDecl)
      return 0;
    if (clang_isVolatileQualifiedType(clang_getCursorType(c)))
      return 0;
    break;
  }
  case CXCursor_ArraySubscriptExpr:
  case CXCursor_ParenExpr:
  case CXCursor_CStyleCastExpr:
  case CXCursor_CXXStaticCastExpr:
  case CXCursor_CXXFunctionalCastExpr:
  case CXCursor_ConditionalOperator:
    break;
  case CXCursor_UnexposedExpr:
    if (children_of(c).n == 0)
      return 0;
    break;
  case CXCursor_UnaryExpr: { /* sizeof, alignof: operands are not evaluated */
    size_t b, e;
    cursor_span(c, &b, &e);
    static const char *const ops[] = {"sizeof",      "_Alignof",  "alignof",
                                      "__alignof__", "__alignof", NULL};
    int found = 0;
    for (int i = 0; ops[i]; i++) {
      size_t n = strlen(ops[i]);
      if (e - b > n && memcmp(u->text + b, ops[i], n) == 0 &&
          !is_idch(u->text[b + n]))
        found = 1;
    }
    if (!found)
      return 0;
    break;
  }
  case CXCursor_BinaryOperator: {
    char op[4];
    binary_operator(u, c, op);
    static const char *const ok[] = {
        "+", "-", "*",  "/",  "%",  "<<", ">>", "&",  "|", "^",
        "<", ">", "<=", ">=", "==", "!=", "&&", "||", NULL};
    int found = 0;
    for (int i = 0; ok[i]; i++)
      if (strcmp(op, ok[i]) == 0)
        found = 1;
    if (!found)
      return 0;
    break;
  }
  case CXCursor_UnaryOperator: {
    size_t b, e;
    cursor_span(c, &b, &e);
    if (b >= u->len)
      return 0;
    char ch = u->text[b];
    if (!(ch == '-' || ch == '+' || ch == '~' || ch == '!'))
      return 0;
    if (b + 1 < u->len && (u->text[b + 1] == '-' || u->text[b + 1] == '+'))
      return 0;
    break;
  }
  default:
    return 0;
  }
  struct cursor_list l = children_of(c);
  if (l.n > 8)
    return 0;
  for (size_t i = 0; i < l.n; i++)
    if (!side_effect_free(u, l.c[i], var))
      return 0;
  return 1;
}

/* Appends text[sb, se) as an int64_t argument, on one line: as written if
 * it is a decimal literal, else converted explicitly ("(int64_t)n",
 * "(int64_t)(n / 2)"), which keeps -Wconversion quiet. */
static void append_int64(struct instr_buf *b, const char *t, size_t sb,
                         size_t se) {
  int digits = se > sb, ident = se > sb;
  for (size_t i = sb; i < se; i++) {
    if (!isdigit((unsigned char)t[i]))
      digits = 0;
    if (!is_idch(t[i]))
      ident = 0;
  }
  if (digits) {
    instr_buf_add(b, t + sb, se - sb);
    return;
  }
  instr_buf_puts(b, ident ? "(int64_t)" : "(int64_t)(");
  for (size_t i = sb; i < se; i++)
    instr_buf_putc(b, is_space(t[i]) ? ' ' : t[i]);
  if (!ident)
    instr_buf_putc(b, ')');
}

static void append_expr(const struct unit *u, struct instr_buf *b, CXCursor c) {
  size_t sb, se;
  cursor_span(c, &sb, &se);
  append_int64(b, u->text, sb, se);
}

static int expr_ok(const struct unit *u, CXCursor c, CXCursor var) {
  return is_integer_type(clang_getCursorType(c)) && side_effect_free(u, c, var);
}

/* Fills "init, final, incr" for a canonical loop with side-effect-free
 * bounds; returns 0 (and leaves b untouched) otherwise. */
static int loop_bounds(const struct unit *u, const struct stmt_rec *loop,
                       struct instr_buf *b) {
  if (clang_getCursorKind(loop->cur) != CXCursor_ForStmt)
    return 0;
  /* Find the two top-level ';' and the ')' of the loop header. */
  const char *t = u->text;
  size_t p = loop->begin + 3;
  while (p < loop->end && is_space(t[p]))
    p++;
  if (p >= loop->end || t[p] != '(')
    return 0;
  size_t semi[2] = {0, 0}, nsemi = 0, rparen = 0;
  int depth = 0;
  for (; p < loop->end; p++) {
    char ch = t[p];
    if (ch == '"' || ch == '\'') {
      for (p++; p < loop->end && t[p] != ch; p++)
        if (t[p] == '\\')
          p++;
      continue;
    }
    if (ch == '(' || ch == '[' || ch == '{')
      depth++;
    else if (ch == ')' || ch == ']' || ch == '}') {
      if (--depth == 0) {
        rparen = p;
        break;
      }
    } else if (ch == ';' && depth == 1 && nsemi < 2)
      semi[nsemi++] = p;
  }
  if (nsemi != 2 || rparen == 0)
    return 0;

  struct cursor_list l = children_of(loop->cur);
  CXCursor init = clang_getNullCursor(), cond = init, inc = init;
  int have_init = 0, have_cond = 0, have_inc = 0;
  for (size_t i = 0; i < l.n && i < 8; i++) {
    size_t cb, ce;
    cursor_span(l.c[i], &cb, &ce);
    if (cb < semi[0] && !have_init) {
      init = l.c[i];
      have_init = 1;
    } else if (cb > semi[0] && cb < semi[1] && !have_cond) {
      cond = l.c[i];
      have_cond = 1;
    } else if (cb > semi[1] && cb < rparen && !have_inc) {
      inc = l.c[i];
      have_inc = 1;
    }
  }
  if (!have_init || !have_cond || !have_inc)
    return 0;

  /* init: "v = a" or "T v = a" */
  CXCursor var, a;
  if (clang_getCursorKind(init) == CXCursor_DeclStmt) {
    struct cursor_list d = children_of(init);
    if (d.n != 1 || clang_getCursorKind(d.c[0]) != CXCursor_VarDecl)
      return 0;
    var = d.c[0];
    a = clang_Cursor_getVarDeclInitializer(var);
    if (clang_Cursor_isNull(a))
      return 0;
  } else {
    CXCursor e = strip(init);
    char op[4];
    if (clang_getCursorKind(e) != CXCursor_BinaryOperator)
      return 0;
    binary_operator(u, e, op);
    struct cursor_list ch = children_of(e);
    if (strcmp(op, "=") != 0 || ch.n != 2)
      return 0;
    CXCursor lhs = strip(ch.c[0]);
    if (clang_getCursorKind(lhs) != CXCursor_DeclRefExpr)
      return 0;
    var = clang_getCursorReferenced(lhs);
    a = ch.c[1];
  }
  if (clang_getCursorKind(var) != CXCursor_VarDecl &&
      clang_getCursorKind(var) != CXCursor_ParmDecl)
    return 0;
  if (!is_integer_type(clang_getCursorType(var)) ||
      clang_isVolatileQualifiedType(clang_getCursorType(var)))
    return 0;

  /* cond: "v < b", "v <= b", "v > b", "v >= b" or the mirrored forms */
  CXCursor ce = strip(cond), bnd;
  char cop[4];
  if (clang_getCursorKind(ce) != CXCursor_BinaryOperator)
    return 0;
  binary_operator(u, ce, cop);
  struct cursor_list cc = children_of(ce);
  if (cc.n != 2)
    return 0;
  int lt, inclusive;
  if (strcmp(cop, "<") == 0) {
    lt = 1;
    inclusive = 0;
  } else if (strcmp(cop, "<=") == 0) {
    lt = 1;
    inclusive = 1;
  } else if (strcmp(cop, ">") == 0) {
    lt = 0;
    inclusive = 0;
  } else if (strcmp(cop, ">=") == 0) {
    lt = 0;
    inclusive = 1;
  } else {
    return 0;
  }
  if (refers_to(cc.c[0], var)) {
    bnd = cc.c[1];
  } else if (refers_to(cc.c[1], var)) {
    bnd = cc.c[0];
    lt = !lt;
  } else {
    return 0;
  }

  /* incr: "v++", "++v", "v--", "--v", "v += c", "v -= c", "v = v + c",
   * "v = c + v", "v = v - c" */
  CXCursor ie = strip(inc), step = clang_getNullCursor();
  int neg = 0, unit_step = 0;
  enum CXCursorKind ik = clang_getCursorKind(ie);
  struct cursor_list ic = children_of(ie);
  if (ik == CXCursor_UnaryOperator) {
    size_t ib, iend;
    cursor_span(ie, &ib, &iend);
    if (ic.n != 1 || !refers_to(ic.c[0], var) || iend < ib + 2)
      return 0;
    const char *s1 = t + ib, *s2 = t + iend - 2;
    if (memcmp(s1, "++", 2) == 0 || memcmp(s2, "++", 2) == 0)
      unit_step = 1;
    else if (memcmp(s1, "--", 2) == 0 || memcmp(s2, "--", 2) == 0)
      unit_step = -1;
    else
      return 0;
  } else if (ik == CXCursor_CompoundAssignOperator) {
    char op[4];
    binary_operator(u, ie, op);
    if (ic.n != 2 || !refers_to(ic.c[0], var))
      return 0;
    if (strcmp(op, "+=") == 0)
      neg = 0;
    else if (strcmp(op, "-=") == 0)
      neg = 1;
    else
      return 0;
    step = ic.c[1];
  } else if (ik == CXCursor_BinaryOperator) {
    char op[4], op2[4];
    binary_operator(u, ie, op);
    if (ic.n != 2 || strcmp(op, "=") != 0 || !refers_to(ic.c[0], var))
      return 0;
    CXCursor rhs = strip(ic.c[1]);
    struct cursor_list rc = children_of(rhs);
    if (clang_getCursorKind(rhs) != CXCursor_BinaryOperator || rc.n != 2)
      return 0;
    binary_operator(u, rhs, op2);
    if (strcmp(op2, "+") == 0 && refers_to(rc.c[0], var))
      step = rc.c[1];
    else if (strcmp(op2, "+") == 0 && refers_to(rc.c[1], var))
      step = rc.c[0];
    else if (strcmp(op2, "-") == 0 && refers_to(rc.c[0], var)) {
      step = rc.c[1];
      neg = 1;
    } else
      return 0;
  } else {
    return 0;
  }

  if (!expr_ok(u, a, var) || !expr_ok(u, bnd, var))
    return 0;
  if (!unit_step && !expr_ok(u, step, var))
    return 0;

  append_expr(u, b, a);
  instr_buf_puts(b, ", ");
  append_expr(u, b, bnd);
  if (!inclusive)
    instr_buf_puts(b, lt ? " - 1" : " + 1");
  instr_buf_puts(b, ", ");
  if (unit_step) {
    instr_buf_puts(b, unit_step > 0 ? "1" : "-1");
  } else {
    if (neg)
      instr_buf_putc(b, '-');
    append_expr(u, b, step);
  }
  return 1;
}

/* ---- Clause helpers
 * ---------------------------------------------------------- */

static const char *ptext(const struct unit *u, const struct pragma *p) {
  return u->text + p->tbegin;
}

static const struct omp_clause *find_clause(const struct pragma *p,
                                            enum omp_clause_kind k) {
  for (size_t i = 0; p->clauses && i < p->nclauses; i++)
    if (p->clauses[i].kind == k)
      return &p->clauses[i];
  return NULL;
}

/* The expression of an if / num_threads clause: from the first item to the
 * last (a top-level comma is part of the expression). */
static int clause_expr(const struct omp_clause *c, size_t *b, size_t *e) {
  if (!c->has_args || c->n_items == 0)
    return 0;
  size_t n = c->n_items < OMP_MAX_ITEMS ? c->n_items : OMP_MAX_ITEMS;
  *b = c->items[0].begin;
  *e = c->items[n - 1].end;
  return *e > *b;
}

/* Is an integer literal (decimal, octal, hex, with u/l suffixes)? */
static int is_int_literal(const char *s, size_t n, long long *value) {
  if (n == 0 || !isdigit((unsigned char)s[0]) || n >= 64)
    return 0;
  char buf[64];
  memcpy(buf, s, n);
  buf[n] = '\0';
  size_t e = n;
  while (e > 0 && strchr("uUlL", buf[e - 1]))
    e--;
  buf[e] = '\0';
  char *end;
  errno = 0;
  long long v = strtoll(buf, &end, 0);
  if (*end || errno)
    return 0;
  *value = v;
  return 1;
}

/* A chunk-size expression that is safe to evaluate once more: identifiers,
 * numbers, member and element accesses, casts and arithmetic, no calls, no
 * assignments, no increments. */
static int chunk_is_simple(const char *s, size_t n) {
  for (size_t i = 0; i < n; i++) {
    char c = s[i];
    if (is_idch(c) || is_space(c) || strchr("+-*/%.[]()<>&|^~", c)) {
      if (c == '(') {
        size_t k = i;
        while (k > 0 && is_space(s[k - 1]))
          k--;
        if (k > 0 && (is_idch(s[k - 1]) || s[k - 1] == ')' || s[k - 1] == ']'))
          return 0;
      }
      if ((c == '+' || c == '-') && i + 1 < n && s[i + 1] == c)
        return 0;
      continue;
    }
    return 0;
  }
  return n > 0;
}

/* The base identifier of a list item ("a" for "a[0:n]" or "a.b"). */
static int item_base(const char *t, struct omp_span it, size_t *b, size_t *e) {
  size_t p = it.begin;
  while (p < it.end && is_space(t[p]))
    p++;
  size_t q = p;
  while (q < it.end && is_idch(t[q]))
    q++;
  if (q == p)
    return 0;
  *b = p;
  *e = q;
  return 1;
}

/* A list of names for a shared(...) clause, without duplicates. */
struct name_list {
  char **v;
  size_t n;
};

static int name_list_has(const struct name_list *l, const char *s, size_t n) {
  for (size_t i = 0; i < l->n; i++)
    if (strlen(l->v[i]) == n && memcmp(l->v[i], s, n) == 0)
      return 1;
  return 0;
}

static void name_list_add(struct name_list *l, const char *s, size_t n) {
  if (name_list_has(l, s, n))
    return;
  l->v = instr_xrealloc(l->v, (l->n + 1) * sizeof *l->v);
  l->v[l->n++] = instr_xstrndup(s, n);
}

static void name_list_free(struct name_list *l) {
  for (size_t i = 0; i < l->n; i++)
    free(l->v[i]);
  free(l->v);
  l->v = NULL;
  l->n = 0;
}

/* Adds the list items (base names) of every clause of kind k. */
static void add_items(struct name_list *l, const struct unit *u,
                      const struct pragma *p, enum omp_clause_kind k) {
  if (!p->clauses)
    return;
  const char *t = ptext(u, p);
  for (size_t i = 0; p->clauses && i < p->nclauses; i++) {
    const struct omp_clause *c = &p->clauses[i];
    if (c->kind != k)
      continue;
    size_t n = c->n_items < OMP_MAX_ITEMS ? c->n_items : OMP_MAX_ITEMS;
    for (size_t j = 0; j < n; j++) {
      size_t b, e;
      if (item_base(t, c->items[j], &b, &e))
        name_list_add(l, t + b, e - b);
    }
  }
}

/* Handles and CTC strings of the instrumented constructs inside
 * [from, to): a region with default(none) must share them. */
static void add_nested_handles(struct name_list *l, const struct unit *u,
                               size_t from, size_t to) {
  char name[48];
  for (size_t i = 0; i < u->npragmas; i++) {
    const struct pragma *q = &u->pragmas[i];
    if (!q->instrument || q->lbegin < from || q->lbegin >= to)
      continue;
    snprintf(name, sizeof name, "pompt_h_%d", q->number);
    name_list_add(l, name, strlen(name));
    snprintf(name, sizeof name, "pompt_ctc_%d", q->number);
    name_list_add(l, name, strlen(name));
  }
}

/* ---- Edits -----------------------------------------------------------------
 */

static void add_edit(struct unit *u, size_t begin, size_t end, int close,
                     int depth, struct instr_buf *text) {
  if (u->nedits == u->capedits) {
    u->capedits = u->capedits ? u->capedits * 2 : 64;
    u->edits = instr_xrealloc(u->edits, u->capedits * sizeof *u->edits);
  }
  struct edit *e = &u->edits[u->nedits];
  e->begin = begin;
  e->end = end;
  e->close = close;
  e->depth = depth;
  e->seq = u->nedits;
  e->text = instr_buf_take(text);
  u->nedits++;
}

static int edit_cmp(const void *a, const void *b) {
  const struct edit *x = a, *y = b;
  if (x->begin != y->begin)
    return x->begin < y->begin ? -1 : 1;
  int rx = x->end > x->begin, ry = y->end > y->begin;
  if (rx != ry)
    return rx - ry; /* insertions before the replacement */
  if (x->close != y->close)
    return y->close - x->close; /* closing before opening */
  if (x->depth != y->depth)
    return x->close ? (y->depth > x->depth ? 1 : -1)
                    : (x->depth > y->depth ? 1 : -1);
  return x->seq < y->seq ? -1 : (x->seq > y->seq);
}

/* ---- Construct rewrites
 * -------------------------------------------------------- */

enum clause_side { SIDE_PAR, SIDE_WS };

/* Appends clause c's text, with the if/num_threads expression replaced by
 * the variable that holds its value when the construct is a parallel one. */
static void append_clause(const struct unit *u, const struct pragma *p,
                          struct instr_buf *b, const struct omp_clause *c) {
  const char *t = ptext(u, p);
  size_t eb, ee;
  if (is_parallel_kind(p->kind) &&
      (c->kind == OMP_CLAUSE_IF || c->kind == OMP_CLAUSE_NUM_THREADS) &&
      clause_expr(c, &eb, &ee)) {
    instr_buf_add(b, t + c->whole.begin, eb - c->whole.begin);
    instr_buf_printf(b, "%s_%d",
                     c->kind == OMP_CLAUSE_IF ? "pompt_if" : "pompt_nt",
                     p->number);
    instr_buf_add(b, t + ee, c->whole.end - ee);
    return;
  }
  instr_buf_add(b, t + c->whole.begin, c->whole.end - c->whole.begin);
}

/* Appends the directive text with if/num_threads replaced (all clauses stay
 * where they are, bytes between them copied). */
static void append_directive_text(const struct unit *u, const struct pragma *p,
                                  struct instr_buf *b) {
  const char *t = ptext(u, p);
  size_t n = p->tend - p->tbegin, pos = 0;
  for (size_t i = 0; p->clauses && i < p->nclauses; i++) {
    const struct omp_clause *c = &p->clauses[i];
    instr_buf_add(b, t + pos, c->whole.begin - pos);
    append_clause(u, p, b, c);
    pos = c->whole.end;
  }
  instr_buf_add(b, t + pos, n - pos);
}

static void append_shared(struct instr_buf *b, const struct name_list *l) {
  if (l->n == 0)
    return;
  instr_buf_puts(b, " shared(");
  for (size_t i = 0; i < l->n; i++)
    instr_buf_printf(b, "%s%s", i ? ", " : "", l->v[i]);
  instr_buf_putc(b, ')');
}

static int lastprivate_has(const struct unit *u, const struct pragma *p,
                           const char *s, size_t n) {
  struct name_list l = {0};
  add_items(&l, u, p, OMP_CLAUSE_LASTPRIVATE);
  int r = name_list_has(&l, s, n);
  name_list_free(&l);
  return r;
}

/* Which part of a combined construct a clause belongs to. */
static enum clause_side clause_side(const struct omp_clause *c) {
  switch (c->kind) {
  case OMP_CLAUSE_SCHEDULE:
  case OMP_CLAUSE_ORDERED:
  case OMP_CLAUSE_COLLAPSE:
  case OMP_CLAUSE_LASTPRIVATE:
  case OMP_CLAUSE_REDUCTION:
  case OMP_CLAUSE_LINEAR:
  case OMP_CLAUSE_ORDER:
  case OMP_CLAUSE_NOWAIT:
  case OMP_CLAUSE_COPYPRIVATE:
    return SIDE_WS;
  default:
    return SIDE_PAR;
  }
}

/* Appends the clauses of one side of a combined construct.  firstprivate
 * items that are also lastprivate go to the worksharing side; moved names
 * are collected in moved. */
static void append_side(const struct unit *u, const struct pragma *p,
                        struct instr_buf *b, enum clause_side side,
                        struct name_list *moved) {
  const char *t = ptext(u, p);
  for (size_t i = 0; p->clauses && i < p->nclauses; i++) {
    const struct omp_clause *c = &p->clauses[i];
    if (c->kind == OMP_CLAUSE_FIRSTPRIVATE) {
      size_t n = c->n_items < OMP_MAX_ITEMS ? c->n_items : OMP_MAX_ITEMS;
      size_t nws = 0;
      for (size_t j = 0; j < n; j++) {
        size_t ib, ie;
        if (item_base(t, c->items[j], &ib, &ie) &&
            lastprivate_has(u, p, t + ib, ie - ib))
          nws++;
      }
      if (nws == 0 || nws == n) {
        if ((nws == n && n > 0) == (side == SIDE_WS)) {
          instr_buf_putc(b, ' ');
          append_clause(u, p, b, c);
        }
        if (nws == n && n > 0 && moved)
          for (size_t j = 0; j < n; j++) {
            size_t ib, ie;
            if (item_base(t, c->items[j], &ib, &ie))
              name_list_add(moved, t + ib, ie - ib);
          }
        continue;
      }
      /* Mixed: one firstprivate clause per side. */
      int first = 1;
      for (size_t j = 0; j < n; j++) {
        size_t ib, ie;
        int ws = item_base(t, c->items[j], &ib, &ie) &&
                 lastprivate_has(u, p, t + ib, ie - ib);
        if (ws != (side == SIDE_WS))
          continue;
        instr_buf_puts(b, first ? " firstprivate(" : ", ");
        instr_buf_add(b, t + c->items[j].begin,
                      c->items[j].end - c->items[j].begin);
        first = 0;
        if (ws && moved)
          name_list_add(moved, t + ib, ie - ib);
      }
      if (!first)
        instr_buf_putc(b, ')');
      continue;
    }
    if (c->kind == OMP_CLAUSE_ALLOCATE) {
      /* With its list items when they are privatised on the worksharing
       * side, on the parallel side otherwise. */
      struct name_list ws = {0};
      add_items(&ws, u, p, OMP_CLAUSE_LASTPRIVATE);
      add_items(&ws, u, p, OMP_CLAUSE_REDUCTION);
      add_items(&ws, u, p, OMP_CLAUSE_LINEAR);
      size_t n = c->n_items < OMP_MAX_ITEMS ? c->n_items : OMP_MAX_ITEMS;
      int all = n > 0;
      for (size_t j = 0; j < n; j++) {
        size_t ib, ie;
        if (!item_base(t, c->items[j], &ib, &ie) ||
            !name_list_has(&ws, t + ib, ie - ib))
          all = 0;
      }
      name_list_free(&ws);
      if (all == (side == SIDE_WS)) {
        instr_buf_putc(b, ' ');
        append_clause(u, p, b, c);
      }
      continue;
    }
    if (clause_side(c) != side)
      continue;
    instr_buf_putc(b, ' ');
    append_clause(u, p, b, c);
  }
}

/* The names a parallel construct adds to its shared clause. */
static void parallel_shared(const struct unit *u, const struct pragma *p,
                            struct name_list *l,
                            const struct name_list *moved) {
  char name[48];
  snprintf(name, sizeof name, "pompt_team_%d", p->number);
  name_list_add(l, name, strlen(name));
  if (!p->default_private)
    return;
  snprintf(name, sizeof name, "pompt_h_%d", p->number);
  name_list_add(l, name, strlen(name));
  snprintf(name, sizeof name, "pompt_ctc_%d", p->number);
  name_list_add(l, name, strlen(name));
  add_nested_handles(l, u, p->sbegin, p->send);
  if (p->kind == OMP_DIR_PARALLEL)
    return;
  /* Combined: the list items that move to the worksharing part must stay
   * shared in the region, unless the user gave them an attribute there. */
  struct name_list have = {0}, want = {0};
  add_items(&have, u, p, OMP_CLAUSE_SHARED);
  add_items(&have, u, p, OMP_CLAUSE_PRIVATE);
  add_items(&want, u, p, OMP_CLAUSE_LASTPRIVATE);
  add_items(&want, u, p, OMP_CLAUSE_REDUCTION);
  for (size_t i = 0; moved && i < moved->n; i++)
    name_list_add(&want, moved->v[i], strlen(moved->v[i]));
  /* firstprivate items that stay on the parallel side keep their clause. */
  const char *t = ptext(u, p);
  for (size_t i = 0; p->clauses && i < p->nclauses; i++) {
    const struct omp_clause *c = &p->clauses[i];
    if (c->kind != OMP_CLAUSE_FIRSTPRIVATE)
      continue;
    size_t n = c->n_items < OMP_MAX_ITEMS ? c->n_items : OMP_MAX_ITEMS;
    for (size_t j = 0; j < n; j++) {
      size_t ib, ie;
      if (item_base(t, c->items[j], &ib, &ie) &&
          !lastprivate_has(u, p, t + ib, ie - ib))
        name_list_add(&have, t + ib, ie - ib);
    }
  }
  for (size_t i = 0; i < want.n; i++)
    if (!name_list_has(&have, want.v[i], strlen(want.v[i])))
      name_list_add(l, want.v[i], strlen(want.v[i]));
  name_list_free(&have);
  name_list_free(&want);
}

/* "chunk, init, final, incr" for POMP_Loop_enter. */
static void loop_args(const struct unit *u, const struct pragma *p,
                      struct instr_buf *b) {
  const char *t = ptext(u, p);
  const struct omp_clause *s = find_clause(p, OMP_CLAUSE_SCHEDULE);
  if (s && s->n_items >= 2 &&
      chunk_is_simple(t + s->items[1].begin,
                      s->items[1].end - s->items[1].begin))
    append_int64(b, t, s->items[1].begin, s->items[1].end);
  else
    instr_buf_puts(b, "-1");
  instr_buf_puts(b, ", ");

  const struct omp_clause *col = find_clause(p, OMP_CLAUSE_COLLAPSE);
  long long cv = 1;
  int collapsed =
      col && !(col->n_items == 1 &&
               is_int_literal(t + col->items[0].begin,
                              col->items[0].end - col->items[0].begin, &cv) &&
               cv == 1);
  if (!collapsed && u->tu) {
    /* The loop: the first statement of the block, past pragma lines. */
    size_t pos = p->sbegin;
    for (;;) {
      pos = skip_blank(u, pos);
      if (pos >= u->len)
        break;
      size_t li = line_of(u, pos);
      if (u->text[pos] == '#' && line_first(u, li) == pos &&
          li + 1 < u->nlines) {
        pos = u->lstart[li + 1];
        continue;
      }
      break;
    }
    const struct stmt_rec *loop = pos < u->len ? stmt_at(u, pos) : NULL;
    if (loop && loop_bounds(u, loop, b))
      return;
  }
  instr_buf_puts(b, "0, 0, 0");
}

static void append_implicit_barrier(const struct unit *u,
                                    const struct pragma *p, struct instr_buf *b,
                                    size_t at) {
  int n = p->number;
  instr_buf_printf(b,
                   " POMP_Implicit_barrier_enter(&pompt_h_%d, " T_SELF
                   ", pompt_ctc_%d);\n"
                   "#pragma omp barrier\n"
                   " POMP_Implicit_barrier_exit(pompt_h_%d, " T_SELF ");" NO_TAIL " }\n",
                   n, n, n);
  emit_marker(u, b, at);
}

static void rewrite_sections_list(struct unit *u, struct pragma *p) {
  int n = p->number;
  for (size_t k = 0; k < p->nsecs; k++) {
    struct instr_buf b = {0};
    instr_buf_printf(&b, "{ POMP_Section_begin(pompt_h_%d, %zu, " T_SELF "); ",
                     n, k + 1);
    add_edit(u, p->secs[k].sbegin, p->secs[k].sbegin, 0, p->secs[k].depth, &b);
    instr_buf_printf(&b, " POMP_Section_end(pompt_h_%d, " T_SELF ");" NO_TAIL " }", n);
    add_edit(u, p->secs[k].send, p->secs[k].send, 1, p->secs[k].depth, &b);
  }
}

static void rewrite_parallel(struct unit *u, struct pragma *p) {
  int n = p->number;
  const char *t = ptext(u, p);
  struct instr_buf b = {0};
  const struct omp_clause *cif = find_clause(p, OMP_CLAUSE_IF);
  const struct omp_clause *cnt = find_clause(p, OMP_CLAUSE_NUM_THREADS);
  size_t eb, ee;

  /* Before the pragma: evaluate if/num_threads once, enter. */
  instr_buf_puts(&b, "{ ");
  int have_if = cif && clause_expr(cif, &eb, &ee);
  if (have_if) {
    instr_buf_printf(&b, "int pompt_if_%d = (", n);
    instr_buf_add(&b, t + eb, ee - eb);
    instr_buf_puts(&b, ") ? 1 : 0; ");
  }
  int have_nt = cnt && clause_expr(cnt, &eb, &ee);
  if (have_nt) {
    instr_buf_printf(&b, "int pompt_nt_%d = (int)(", n);
    instr_buf_add(&b, t + eb, ee - eb);
    instr_buf_puts(&b, "); ");
  }
  instr_buf_printf(&b, "POMP_Team_t pompt_team_%d; ", n);
  instr_buf_printf(&b, "POMP_Parallel_enter_team(&pompt_h_%d, " T_SELF ", ", n);
  if (have_nt)
    instr_buf_printf(&b, "pompt_nt_%d, ", n);
  else
    instr_buf_puts(&b, "-1, ");
  if (have_if)
    instr_buf_printf(&b, "pompt_if_%d, ", n);
  else
    instr_buf_puts(&b, "-1, ");
  instr_buf_printf(&b, "&pompt_team_%d, pompt_ctc_%d);\n", n, n);
  emit_marker(u, &b, p->lbegin);
  add_edit(u, p->lbegin, p->lbegin, 0, p->depth, &b);

  /* The pragma line(s). */
  struct name_list shared = {0}, moved = {0};
  struct instr_buf ws = {0};
  instr_buf_add(&b, u->text + p->lbegin, p->tbegin - p->lbegin);
  if (p->kind == OMP_DIR_PARALLEL) {
    append_directive_text(u, p, &b);
  } else {
    int is_for = p->kind == OMP_DIR_PARALLEL_FOR;
    instr_buf_puts(&b, " parallel");
    append_side(u, p, &b, SIDE_PAR, NULL);
    instr_buf_add(&ws, u->text + p->lbegin, p->tbegin - p->lbegin);
    instr_buf_puts(&ws, is_for ? " for" : " sections");
    append_side(u, p, &ws, SIDE_WS, &moved);
    if (!find_clause(p, OMP_CLAUSE_NOWAIT))
      instr_buf_puts(&ws, " nowait");
  }
  parallel_shared(u, p, &shared, &moved);
  append_shared(&b, &shared);
  name_list_free(&shared);
  name_list_free(&moved);

  struct instr_buf open = {0};
  instr_buf_printf(&open,
                   "{ POMP_Parallel_begin_team(pompt_h_%d, " T_SELF
                   ", &pompt_team_%d); ",
                   n, n);
  if (p->kind == OMP_DIR_PARALLEL) {
    add_edit(u, p->lbegin, p->lend, 0, p->depth, &b);
    add_edit(u, p->sbegin, p->sbegin, 0, p->depth, &open);
  } else {
    /* The worksharing part follows on a line of its own, with the same
     * line number as the user's pragma. */
    instr_buf_putc(&b, '\n');
    instr_buf_add(&b, open.data, open.len);
    instr_buf_free(&open);
    if (p->kind == OMP_DIR_PARALLEL_FOR) {
      instr_buf_printf(&b, "POMP_Loop_enter(&pompt_h_%d, " T_SELF ", ", n);
      loop_args(u, p, &b);
      instr_buf_printf(&b, ", pompt_ctc_%d);\n", n);
    } else {
      instr_buf_printf(
          &b, "POMP_Sections_enter(&pompt_h_%d, " T_SELF ", pompt_ctc_%d);\n",
          n, n);
    }
    emit_marker(u, &b, p->lbegin);
    instr_buf_add(&b, ws.data, ws.len);
    add_edit(u, p->lbegin, p->lend, 0, p->depth, &b);
  }
  instr_buf_free(&ws);

  /* After the block. */
  if (p->kind == OMP_DIR_PARALLEL_FOR)
    instr_buf_printf(&b, " POMP_Loop_exit(pompt_h_%d, " T_SELF ");", n);
  else if (p->kind == OMP_DIR_PARALLEL_SECTIONS)
    instr_buf_printf(&b, " POMP_Sections_exit(pompt_h_%d, " T_SELF ");", n);
  instr_buf_printf(
      &b,
      " POMP_Parallel_end_team(pompt_h_%d, " T_SELF ", &pompt_team_%d);" NO_TAIL " }"
      " POMP_Parallel_exit_team(pompt_h_%d, " T_SELF ", &pompt_team_%d);" NO_TAIL " }",
      n, n, n, n);
  add_edit(u, p->send, p->send, 1, p->depth, &b);
  if (p->kind == OMP_DIR_PARALLEL_SECTIONS)
    rewrite_sections_list(u, p);
}

/* for, sections, single */
static void rewrite_worksharing(struct unit *u, struct pragma *p) {
  int n = p->number;
  struct instr_buf b = {0};
  int user_nowait = find_clause(p, OMP_CLAUSE_NOWAIT) != NULL;
  int barrier = !user_nowait && !(p->kind == OMP_DIR_SINGLE &&
                                  find_clause(p, OMP_CLAUSE_COPYPRIVATE));

  if (p->kind == OMP_DIR_FOR) {
    instr_buf_printf(&b, "{ POMP_Loop_enter(&pompt_h_%d, " T_SELF ", ", n);
    loop_args(u, p, &b);
    instr_buf_printf(&b, ", pompt_ctc_%d);\n", n);
  } else if (p->kind == OMP_DIR_SECTIONS) {
    instr_buf_printf(
        &b, "{ POMP_Sections_enter(&pompt_h_%d, " T_SELF ", pompt_ctc_%d);\n",
        n, n);
  } else {
    instr_buf_printf(
        &b, "{ POMP_Single_enter(&pompt_h_%d, " T_SELF ", pompt_ctc_%d);\n", n,
        n);
  }
  emit_marker(u, &b, p->lbegin);
  add_edit(u, p->lbegin, p->lbegin, 0, p->depth, &b);

  if (barrier) {
    instr_buf_add(&b, u->text + p->lbegin, p->tend - p->lbegin);
    instr_buf_puts(&b, " nowait");
    add_edit(u, p->lbegin, p->lend, 0, p->depth, &b);
  }

  if (p->kind == OMP_DIR_SINGLE) {
    instr_buf_printf(&b, "{ POMP_Single_begin(pompt_h_%d, " T_SELF "); ", n);
    add_edit(u, p->sbegin, p->sbegin, 0, p->depth, &b);
    instr_buf_printf(&b,
                     " POMP_Single_end(pompt_h_%d, " T_SELF
                     ");" NO_TAIL " } POMP_Single_exit(pompt_h_%d, " T_SELF ");",
                     n, n);
  } else if (p->kind == OMP_DIR_FOR) {
    instr_buf_printf(&b, " POMP_Loop_exit(pompt_h_%d, " T_SELF ");", n);
  } else {
    instr_buf_printf(&b, " POMP_Sections_exit(pompt_h_%d, " T_SELF ");", n);
  }
  if (barrier)
    append_implicit_barrier(u, p, &b, p->send);
  else
    instr_buf_puts(&b, NO_TAIL " }");
  add_edit(u, p->send, p->send, 1, p->depth, &b);
  if (p->kind == OMP_DIR_SECTIONS)
    rewrite_sections_list(u, p);
}

static void rewrite_sync(struct unit *u, struct pragma *p) {
  int n = p->number;
  struct instr_buf b = {0};
  switch (p->kind) {
  case OMP_DIR_MASTER:
    instr_buf_printf(
        &b, "{ POMP_Master_begin(&pompt_h_%d, " T_SELF ", pompt_ctc_%d); ", n,
        n);
    add_edit(u, p->sbegin, p->sbegin, 0, p->depth, &b);
    instr_buf_printf(&b, " POMP_Master_end(pompt_h_%d, " T_SELF ");" NO_TAIL " }", n);
    add_edit(u, p->send, p->send, 1, p->depth, &b);
    break;
  case OMP_DIR_CRITICAL:
    instr_buf_printf(
        &b, "{ POMP_Critical_enter(&pompt_h_%d, " T_SELF ", pompt_ctc_%d);\n",
        n, n);
    emit_marker(u, &b, p->lbegin);
    add_edit(u, p->lbegin, p->lbegin, 0, p->depth, &b);
    instr_buf_printf(&b, "{ POMP_Critical_begin(pompt_h_%d, " T_SELF "); ", n);
    add_edit(u, p->sbegin, p->sbegin, 0, p->depth, &b);
    instr_buf_printf(&b,
                     " POMP_Critical_end(pompt_h_%d, " T_SELF
                     ");" NO_TAIL " } POMP_Critical_exit(pompt_h_%d, " T_SELF ");" NO_TAIL " }",
                     n, n);
    add_edit(u, p->send, p->send, 1, p->depth, &b);
    break;
  case OMP_DIR_BARRIER: {
    instr_buf_printf(
        &b, "{ POMP_Barrier_enter(&pompt_h_%d, " T_SELF ", pompt_ctc_%d);\n", n,
        n);
    emit_marker(u, &b, p->lbegin);
    add_edit(u, p->lbegin, p->lbegin, 0, p->depth, &b);
    size_t at = p->line + 1 < u->nlines ? u->lstart[p->line + 1] : u->len;
    if (at == u->len && (u->len == 0 || u->text[u->len - 1] != '\n'))
      instr_buf_putc(&b, '\n');
    instr_buf_printf(&b, " POMP_Barrier_exit(pompt_h_%d, " T_SELF ");" NO_TAIL " }\n", n);
    if (at < u->len)
      emit_marker(u, &b, at);
    add_edit(u, at, at, 1, p->depth, &b);
    break;
  }
  default:
    break;
  }
}

/* A pass-through directive with default(none) (or private/firstprivate)
 * around instrumented constructs must share their handles. */
static void rewrite_default_clause(struct unit *u, struct pragma *p) {
  struct name_list l = {0};
  add_nested_handles(&l, u, p->sbegin, p->send);
  if (l.n) {
    struct instr_buf b = {0};
    instr_buf_add(&b, u->text + p->lbegin, p->tend - p->lbegin);
    append_shared(&b, &l);
    add_edit(u, p->lbegin, p->lend, 0, p->depth, &b);
  }
  name_list_free(&l);
}

/* ---- CTC strings
 * --------------------------------------------------------------- */

static const char *ctc_type(enum omp_directive_kind k) {
  switch (k) {
  case OMP_DIR_PARALLEL:
    return "parallel";
  case OMP_DIR_FOR:
    return "for";
  case OMP_DIR_PARALLEL_FOR:
    return "parallelfor";
  case OMP_DIR_SECTIONS:
    return "sections";
  case OMP_DIR_PARALLEL_SECTIONS:
    return "parallelsections";
  case OMP_DIR_SECTION:
    return "section";
  case OMP_DIR_SINGLE:
    return "single";
  case OMP_DIR_MASTER:
    return "master";
  case OMP_DIR_CRITICAL:
    return "critical";
  case OMP_DIR_BARRIER:
    return "barrier";
  default:
    return "unknown";
  }
}

static void build_ctc(struct unit *u, struct pragma *p) {
  struct ctc_builder c = {0};
  const char *t = ptext(u, p);
  const struct line_rec *r = rec_at(u, p->lbegin);
  unsigned last = r->line;
  if (!p->standalone && p->send > p->sbegin)
    last = rec_at(u, p->send - 1)->line;
  ctc_add_str(&c, "type", ctc_type(p->kind));
  ctc_add_str(&c, "file", u->files[r->file].name);
  ctc_add_lines(&c, r->line, last);
  if (p->kind == OMP_DIR_CRITICAL && p->has_critical_name) {
    size_t b = p->critical_name.begin, e = p->critical_name.end;
    while (b < e && is_space(t[b]))
      b++;
    while (e > b && is_space(t[e - 1]))
      e--;
    ctc_add(&c, "name", t + b, e - b);
  }
  const struct omp_clause *s = find_clause(p, OMP_CLAUSE_SCHEDULE);
  if (s && s->n_items >= 1) {
    ctc_add(&c, "schedule", t + s->items[0].begin,
            s->items[0].end - s->items[0].begin);
    long long v;
    if (s->n_items >= 2 &&
        is_int_literal(t + s->items[1].begin,
                       s->items[1].end - s->items[1].begin, &v))
      ctc_add_int(&c, "chunk", v);
  }
  static const struct {
    enum omp_clause_kind k;
    const char *attr;
  } flags[] = {
      {OMP_CLAUSE_NOWAIT, "hasNowait"},
      {OMP_CLAUSE_REDUCTION, "hasReduction"},
      {OMP_CLAUSE_FIRSTPRIVATE, "hasFirstPrivate"},
      {OMP_CLAUSE_LASTPRIVATE, "hasLastprivate"},
      {OMP_CLAUSE_COPYIN, "hasCopyin"},
      {OMP_CLAUSE_ORDERED, "hasOrdered"},
      {OMP_CLAUSE_COPYPRIVATE, "hasCopyprivate"},
      {OMP_CLAUSE_IF, "hasIf"},
      {OMP_CLAUSE_NUM_THREADS, "hasNumThreads"},
      {OMP_CLAUSE_COLLAPSE, "hasCollapse"},
  };
  for (size_t i = 0; i < sizeof flags / sizeof flags[0]; i++)
    if (find_clause(p, flags[i].k))
      ctc_add_str(&c, flags[i].attr, "1");
  p->ctc = ctc_finish(&c);
}

/* ---- Driver
 * ------------------------------------------------------------------- */

static void warn_once(struct unit *u, struct pragma *p, const char *fmt) {
  const struct line_rec *r = rec_at(u, p->lbegin);
  struct instr_buf key = {0};
  instr_buf_printf(&key, "%d\n%s", (int)r->file, p->dname);
  for (size_t i = 0; i < u->nwarned; i++) {
    if (strcmp(u->warned[i], key.data) == 0) {
      instr_buf_free(&key);
      return;
    }
  }
  u->warned = instr_xrealloc(u->warned, (u->nwarned + 1) * sizeof *u->warned);
  u->warned[u->nwarned++] = instr_buf_take(&key);
  warning_at(u, name_offset(u, p), fmt, p->dname);
}

static char *absolute_path(const char *name) {
  char *r = realpath(name, NULL);
  if (r)
    return r;
  if (name[0] == '/')
    return instr_xstrndup(name, strlen(name));
  char cwd[4096];
  if (!getcwd(cwd, sizeof cwd))
    return instr_xstrndup(name, strlen(name));
  struct instr_buf b = {0};
  instr_buf_printf(&b, "%s/%s", cwd, name);
  return instr_buf_take(&b);
}

static enum instr_lang lang_of(const char *name) {
  const char *dot = strrchr(name, '.');
  if (!dot)
    return INSTR_LANG_C;
  static const char *const cxx[] = {".cc",  ".cp", ".cxx", ".cpp", ".CPP",
                                    ".c++", ".C",  ".ii",  ".hh",  ".hpp",
                                    ".hxx", ".H",  ".tcc", NULL};
  for (int i = 0; cxx[i]; i++)
    if (strcmp(dot, cxx[i]) == 0)
      return INSTR_LANG_CXX;
  return INSTR_LANG_C;
}

static enum CXChildVisitResult find_toplevel(CXCursor c, CXCursor parent,
                                             CXClientData data) {
  (void)parent;
  size_t *off = data, b, e;
  cursor_span(c, &b, &e);
  if (b <= off[0] && off[0] < e) {
    off[1] = b;
    return CXChildVisit_Break;
  }
  return CXChildVisit_Continue;
}

static int declares_pomp(const struct unit *u, size_t limit) {
  static const char api[] = "POMP_Parallel_enter_team";
  const char *p = strstr(u->text, api);
  return p && (size_t)(p - u->text) + sizeof api - 1 <= limit;
}

/* Where the handle and CTC definitions go: before the main file's first
 * line (after the -include'd pomp.h).  When the POMP declarations come
 * later (pomp.h included by the source itself, or a unit without line
 * markers), before the top-level declaration that holds the first
 * construct.  -1 if the POMP API is not declared before that either. */
static int place_definitions(struct unit *u) {
  if (u->defs_marker && declares_pomp(u, u->defs_at))
    return 0;
  size_t first = SIZE_MAX;
  for (size_t i = 0; i < u->npragmas && first == SIZE_MAX; i++)
    if (u->pragmas[i].instrument)
      first = u->pragmas[i].lbegin;
  size_t off[2] = {first, SIZE_MAX};
  if (first != SIZE_MAX && u->tu)
    clang_visitChildren(clang_getTranslationUnitCursor(u->tu), find_toplevel,
                        off);
  if (off[1] == SIZE_MAX || off[1] > u->len)
    return -1;
  size_t at = u->lstart[line_of(u, off[1])];
  if (!declares_pomp(u, at))
    return -1;
  u->defs_at = at;
  u->defs_marker = 0;
  return 0;
}

/* Nesting depth of the construct or section anchored at off: the number of
 * instrumented blocks (constructs' and sections') that contain it. */
static int depth_at(const struct unit *u, size_t off, size_t self_b,
                    size_t self_e) {
  int d = 0;
  for (size_t i = 0; i < u->npragmas; i++) {
    const struct pragma *q = &u->pragmas[i];
    if ((!q->instrument && !q->default_private) || q->block_state != 2)
      continue;
    if (q->sbegin <= off && off < q->send &&
        !(q->sbegin == self_b && q->send == self_e))
      d++;
    for (size_t k = 0; q->instrument && k < q->nsecs; k++) {
      const struct section_rec *s = &q->secs[k];
      if (s->sbegin <= off && off < s->send &&
          !(s->sbegin == self_b && s->send == self_e))
        d++;
    }
  }
  return d;
}

static void apply_edits(struct unit *u, struct instr_buf *out) {
  if (u->nedits)
    qsort(u->edits, u->nedits, sizeof *u->edits, edit_cmp);
  size_t pos = 0;
  size_t i = 0;
  while (i < u->nedits) {
    size_t at = u->edits[i].begin;
    if (at < pos) {
      /* Overlapping edits cannot happen for well-formed input; keep the
       * earlier one. */
      free(u->edits[i].text);
      u->edits[i].text = NULL;
      i++;
      continue;
    }
    instr_buf_add(out, u->text + pos, at - pos);
    pos = at;
    int inserted = 0;
    for (; i < u->nedits && u->edits[i].begin == at && u->edits[i].end == at;
         i++) {
      instr_buf_puts(out, u->edits[i].text);
      inserted = 1;
    }
    /* Text before a directive line ends with a newline and a marker. */
    if (inserted && out->len > 0 && out->data[out->len - 1] != '\n' &&
        at < u->len) {
      size_t li = line_of(u, at);
      if (u->lstart[li] == at && line_is_directive(u, li)) {
        instr_buf_putc(out, '\n');
        emit_marker(u, out, at);
      }
    }
    if (i < u->nedits && u->edits[i].begin == at) {
      instr_buf_puts(out, u->edits[i].text);
      pos = u->edits[i].end;
      i++;
    }
  }
  instr_buf_add(out, u->text + pos, u->len - pos);
}

static void free_unit(struct unit *u) {
  for (size_t i = 0; i < u->nfiles; i++) {
    free(u->files[i].raw);
    free(u->files[i].name);
  }
  free(u->files);
  free(u->lstart);
  free(u->lines);
  for (size_t i = 0; i < u->npragmas; i++) {
    free(u->pragmas[i].clauses);
    free(u->pragmas[i].secs);
    free(u->pragmas[i].ctc);
  }
  free(u->pragmas);
  free(u->pragma_of_line);
  free(u->stmts);
  for (size_t i = 0; i < u->ndiags; i++)
    free(u->diags[i].msg);
  free(u->diags);
  for (size_t i = 0; i < u->nedits; i++)
    free(u->edits[i].text);
  free(u->edits);
  for (size_t i = 0; i < u->nwarned; i++)
    free(u->warned[i]);
  free(u->warned);
  if (u->tu)
    clang_disposeTranslationUnit(u->tu);
  if (u->index)
    clang_disposeIndex(u->index);
}

int instr_rewrite_unit(const char *input_path, const char *text, size_t len,
                       const struct instr_options *opts,
                       struct instr_buf *out) {
  struct unit u;
  memset(&u, 0, sizeof u);
  u.path = input_path;
  u.text = text;
  u.len = len;
  int rc = -1;

  build_lines(&u);
  const char *main_name = u.files[u.main_file].name;
  u.lang = opts->lang != INSTR_LANG_AUTO ? opts->lang : lang_of(main_name);

  scan_pragmas(&u);
  if (u.errors)
    goto done;

  int need_ast = 0;
  for (size_t i = 0; i < u.npragmas; i++)
    if (is_instrumented_kind(u.pragmas[i].kind))
      need_ast = 1;
  if (need_ast) {
    if (parse_with_clang(&u, opts) < 0)
      goto done;
  }

  /* Blocks of every construct, and the target regions. */
  size_t declare_target_begin = SIZE_MAX;
  struct {
    size_t b, e;
  } *targets = NULL;
  size_t ntargets = 0;
  for (size_t i = 0; i < u.npragmas && need_ast; i++) {
    struct pragma *p = &u.pragmas[i];
    /* "begin declare target", or "declare target" without clauses, opens
     * a region of device functions that "end declare target" closes. */
    if ((p->kind == OMP_DIR_BEGIN_DECLARE_TARGET ||
         (p->kind == OMP_DIR_DECLARE_TARGET && p->nclauses == 0)) &&
        declare_target_begin == SIZE_MAX)
      declare_target_begin = p->lend;
    if (p->kind == OMP_DIR_END_DECLARE_TARGET &&
        declare_target_begin != SIZE_MAX) {
      targets = instr_xrealloc(targets, (ntargets + 1) * sizeof *targets);
      targets[ntargets].b = declare_target_begin;
      targets[ntargets].e = p->lbegin;
      ntargets++;
      declare_target_begin = SIZE_MAX;
    }
    if (p->standalone)
      continue;
    if (pragma_block(&u, p) < 0) {
      if (is_instrumented_kind(p->kind))
        block_not_found(&u, p);
      continue;
    }
    if (p->target) {
      targets = instr_xrealloc(targets, (ntargets + 1) * sizeof *targets);
      targets[ntargets].b = p->sbegin;
      targets[ntargets].e = p->send;
      ntargets++;
    }
  }
  if (u.errors) {
    free(targets);
    goto done;
  }

  /* Which constructs are instrumented, and their numbers. */
  int number = 0;
  for (size_t i = 0; i < u.npragmas; i++) {
    struct pragma *p = &u.pragmas[i];
    if (is_instrumented_kind(p->kind)) {
      int in_target = 0;
      for (size_t k = 0; k < ntargets; k++)
        if (targets[k].b <= p->lbegin && p->lbegin < targets[k].e)
          in_target = 1;
      if (in_target) {
        if (!u.warned_target)
          warning_at(&u, name_offset(&u, p),
                     "constructs inside target regions are not instrumented; "
                     "passed through");
        u.warned_target = 1;
        continue;
      }
      p->instrument = 1;
      p->number = ++number;
    } else if (p->kind != OMP_DIR_SECTION && !p->declarative) {
      warn_once(&u, p, "'%s' is not instrumented; passed through");
    }
  }
  free(targets);

  /* Sections, nesting depths, clang errors inside constructs. */
  for (size_t i = 0; i < u.npragmas; i++) {
    struct pragma *p = &u.pragmas[i];
    if (p->instrument &&
        (p->kind == OMP_DIR_SECTIONS || p->kind == OMP_DIR_PARALLEL_SECTIONS))
      find_sections(&u, p);
  }
  if (u.errors)
    goto done;
  for (size_t i = 0; i < u.npragmas; i++) {
    struct pragma *p = &u.pragmas[i];
    if (!p->instrument)
      continue;
    size_t end = p->standalone ? p->lend : p->send;
    for (size_t k = 0; k < u.ndiags; k++) {
      if (u.diags[k].off >= p->lbegin && u.diags[k].off < end &&
          !u.diags[k].reported) {
        error_at(&u, u.diags[k].off, "%s", u.diags[k].msg);
        u.diags[k].reported = 1;
      }
    }
  }
  if (u.errors)
    goto done;
  if (number > 0 && place_definitions(&u) < 0) {
    fprintf(stderr,
            "%s: error: the unit does not declare the POMP API before its "
            "first OpenMP "
            "construct; preprocess it with -include pomp.h (pomp-cc does)\n",
            input_path);
    u.errors++;
    goto done;
  }
  for (size_t i = 0; i < u.npragmas; i++) {
    struct pragma *p = &u.pragmas[i];
    if (!p->instrument && !p->default_private)
      continue;
    p->depth = depth_at(&u, p->lbegin, SIZE_MAX, SIZE_MAX);
    for (size_t k = 0; k < p->nsecs; k++)
      p->secs[k].depth =
          depth_at(&u, p->secs[k].sbegin, p->secs[k].sbegin, p->secs[k].send);
  }

  /* The rewrites. */
  for (size_t i = 0; i < u.npragmas; i++) {
    struct pragma *p = &u.pragmas[i];
    if (!p->instrument) {
      if (p->default_private && p->block_state == 2)
        rewrite_default_clause(&u, p);
      continue;
    }
    build_ctc(&u, p);
    switch (p->kind) {
    case OMP_DIR_PARALLEL:
    case OMP_DIR_PARALLEL_FOR:
    case OMP_DIR_PARALLEL_SECTIONS:
      rewrite_parallel(&u, p);
      break;
    case OMP_DIR_FOR:
    case OMP_DIR_SECTIONS:
    case OMP_DIR_SINGLE:
      rewrite_worksharing(&u, p);
      break;
    default:
      rewrite_sync(&u, p);
      break;
    }
  }

  /* Handle and CTC definitions before the main file's own text. */
  struct instr_buf defs = {0};
  for (size_t i = 0; i < u.npragmas; i++) {
    struct pragma *p = &u.pragmas[i];
    if (!p->instrument)
      continue;
    instr_buf_printf(&defs, "static POMP_Handle_t pompt_h_%d;\n", p->number);
    instr_buf_printf(&defs, "static const char pompt_ctc_%d[] = ", p->number);
    ctc_emit_c_literal(&defs, p->ctc);
    instr_buf_puts(&defs, ";\n");
  }
  if (defs.len) {
    if (u.defs_marker)
      instr_buf_printf(&defs, "# %u \"%s\"\n", (unsigned)u.defs_line,
                       u.files[u.defs_file].raw);
    else
      emit_marker(&u, &defs, u.defs_at);
    add_edit(&u, u.defs_at, u.defs_at, 0, INT_MIN, &defs);
  }
  instr_buf_free(&defs);

  apply_edits(&u, out);

  /* The per-file init function. */
  char *abs = absolute_path(main_name);
  uint64_t id = fnv1a64(FNV1A64_INIT, abs, strlen(abs) + 1);
  id = fnv1a64(id, text, len);
  free(abs);
  if (out->len > 0 && out->data[out->len - 1] != '\n')
    instr_buf_putc(out, '\n');
  const char *linkage = u.lang == INSTR_LANG_CXX ? "extern \"C\" " : "";
  instr_buf_printf(out, "%svoid POMP_Init_%016llx(void);\n", linkage,
                   (unsigned long long)id);
  instr_buf_printf(out, "%svoid POMP_Init_%016llx(void) {\n", linkage,
                   (unsigned long long)id);
  for (int k = 1; k <= number; k++)
    instr_buf_printf(out, "  POMP_Get_handle(&pompt_h_%d, pompt_ctc_%d);\n", k,
                     k);
  instr_buf_puts(out, "}\n");
  rc = 0;

done:
  if (u.errors)
    rc = -1;
  free_unit(&u);
  return rc;
}
