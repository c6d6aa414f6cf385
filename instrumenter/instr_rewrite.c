/*
 * instr_rewrite.c -- locate the OpenMP constructs of a preprocessed unit and
 * wrap them in POMP monitoring calls (doc/instrumentation.md).
 *
 * The unit is never re-printed from an AST: every change is an edit (an
 * insertion, or the replacement of one pragma line or of a routine name) at
 * a byte offset of the input, and all edits are applied in one pass at the
 * end.  At equal offsets closing insertions come first (inner before
 * outer), then opening ones (outer before inner), then the replacement of
 * the text at that offset.
 *
 * libclang parses the unit without -fopenmp, so that every structured block
 * is an ordinary statement; the pragma lines themselves are found in the
 * text and parsed by the clause grammar (omp_directive.h).  Calls of OpenMP
 * API routines are found in the AST.
 *
 * Every instrumented construct is a chain of one to three leaf constructs
 * (a combined construct such as "parallel master taskloop" is split into
 * "parallel", "master" and "taskloop"); each leaf contributes text before
 * its pragma line, its pragma line, text around the structured block and
 * text after it.
 *
 * Details the specification leaves to the implementation:
 *  - The thread id is written as -1, POMP_THREAD_SELF's value: the output
 *    is compiled as cpp-output, without macro expansion.
 *  - A region whose default clause is not default(shared) (parallel, task,
 *    taskloop, and pass-through constructs such as teams) also shares the
 *    handles and CTC strings of the instrumented constructs inside it: GCC
 *    requires static variables referenced in such a region to be listed.
 *  - Constructs inside target regions (and declare target blocks) are not
 *    instrumented: their code may run on a device.  Nothing is inserted
 *    into the body of a simd or loop construct either (no calls there).
 *  - Loop bounds are passed as int64_t casts, so that -Wconversion stays
 *    quiet.
 *  - Nothing passes quadratic time: nesting depths and region membership
 *    are computed in one sweep over the pragmas, sorted offsets are
 *    searched by bisection.
 */
#define _XOPEN_SOURCE 700

#include "instr_rewrite.h"
#include "instr_gxx_compat.h"

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

#include "gomp_loop_entries.h"
#include "instr_ctc.h"
#include "omp_directive.h"

/* The thread id every inserted seed-style event passes: POMP_THREAD_SELF
 * (the compact POMPT_* events that parallel, worksharing and
 * synchronisation constructs get have none: every argument of an inserted
 * call costs compile time, doc/performance.md).  The output is compiled
 * without a preprocessor run (-x cpp-output), so the macro's value is
 * written, not its name. */
#define T_SELF "-1"
/* Written after an event call that may end a function (an outlined parallel
 * region's body, a user function whose last statement is a construct): an
 * empty volatile asm keeps the compiler from turning the call into a tail
 * call, which would make the library's return address (codeptr_ra) point
 * into the caller's caller instead of the construct. */
#define NO_TAIL " __asm__ __volatile__(\"\");"
/* Not written where a call always follows in the same function, which
 * keeps the event's call from being a tail call anyway (each guard is a
 * statement GCC compiles: about 0.5 % of a construct-dense unit's compile
 * for those): after a section's end (GCC's GOMP_sections_next), a critical
 * region's release (GOMP_critical_end) and a single's block end (the
 * single's exit event). */
/* An inline event of pomp.h ("The lane"), where a tool may be active: its
 * codeptr_ra is the call's return address, in the construct's own code and
 * on its line (as a native runtime's entry's is).  A closing event is
 * followed by NO_TAIL. */
#define LANE_EVENT(event) "if (POMPT_on()) " event "(&pompt_d_%d);"

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
  int gcc_accepts; /* an error of clang's only (gcc_accepts_diag) */
};

/* Errors clang reports on code GCC compiles as intended: GCC's
 * <stdatomic.h> expands the C11 atomic operations to __atomic builtins on
 * the _Atomic object itself, and ATOMIC_FLAG_INIT to a brace initializer of
 * an _Atomic struct, both of which clang refuses.  Such an error inside a
 * construct is not the program's; the statement it drops from clang's tree
 * is found in the text (expr_stmt_after). */
static int gcc_accepts_diag(const char *msg) {
  static const char *const prefixes[] = {
      "address argument to atomic operation must be a pointer to",
      "illegal initializer type"};
  if (!strstr(msg, "_Atomic"))
    return 0;
  for (size_t k = 0; k < sizeof prefixes / sizeof *prefixes; k++)
    if (strncmp(msg, prefixes[k], strlen(prefixes[k])) == 0)
      return 1;
  return 0;
}

struct section_rec {
  size_t sbegin, send;
  int depth;
};

/* Leaf constructs: what a combined construct is split into. */
enum leaf_kind {
  LK_PARALLEL,
  LK_FOR,
  LK_FOR_SIMD,
  LK_SECTIONS,
  LK_SINGLE,
  LK_LOOP,
  LK_SCOPE,
  LK_MASTER,
  LK_MASKED,
  LK_CRITICAL,
  LK_ORDERED,
  LK_ATOMIC,
  LK_SIMD,
  LK_TASK,
  LK_TASKLOOP,
  LK_TASKLOOP_SIMD,
  LK_TASKGROUP,
  LK_BARRIER,
  LK_TASKWAIT,
  LK_TASKYIELD,
  LK_FLUSH,
  LK_CANCEL,
  LK_CANCELLATION_POINT,
  LK_ERROR,
  /* the target family (doc/target.md) */
  LK_TARGET_ENTER_DATA,
  LK_TARGET_EXIT_DATA,
  LK_TARGET_UPDATE,
  LK_TARGET,
  LK_TARGET_DATA,
  LK_TEAMS,
  LK_DISTRIBUTE,
  LK_DISTRIBUTE_SIMD,
  LK_DISTRIBUTE_PAR_FOR,
  LK_DISTRIBUTE_PAR_FOR_SIMD,
  LK_COUNT
};

#define MAX_LEAVES 3

/* #pragma pomp directives (seed 004, sections 3.6, 3.8, 3.9). */
enum pomp_dir {
  PD_NONE = 0,
  PD_BEGIN,
  PD_END,
  PD_EVENT,
  PD_INIT,
  PD_FINALIZE,
  PD_ON,
  PD_OFF,
  PD_NOINSTRUMENT,
  PD_INSTRUMENT
};

struct pragma {
  size_t line;   /* line index */
  size_t lbegin; /* start of the pragma line */
  size_t lend;   /* end of the pragma line, newline excluded */
  size_t tbegin; /* start of the directive text (after "omp") */
  size_t tend;   /* end of the directive text, trailing blanks excluded */
  /* The clauses (all of them; NULL when there are none). */
  struct omp_clause *clauses;
  int has_critical_name;
  struct omp_span critical_name;
  enum omp_directive_kind kind;
  char dname[64]; /* directive name, for messages */
  int standalone; /* takes no structured block */
  int declarative;
  size_t nclauses;
  int target;      /* a target construct with a block */
  int quiet;       /* a simd or loop construct: nothing goes into its block */
  int block_state; /* 0: not yet, 1: computing, 2: found, -1: not found */
  size_t sbegin, send;
  int instrument;
  int number;
  int depth; /* 2 x the number of blocks that contain the pragma line */
  int default_private; /* has a default clause other than default(shared) */
  int cancel_inside;   /* a cancel for/sections binds to this construct */
  struct section_rec *secs;
  size_t nsecs;
  char *ctc;
  /* The leaves of the construct (nleaves 0: not instrumented). */
  enum leaf_kind leaves[MAX_LEAVES];
  int nleaves;
  unsigned leaf_on; /* bit i: leaf i emits events */
  char **repl;      /* per clause: the variable replacing its expression */
  int nmaps;        /* target family: items in pompt_map_N */
  /* #pragma pomp */
  enum pomp_dir pomp;
  size_t uname_b, uname_e; /* user region name */
  int partner;             /* end: index of its begin pragma */
  /* A parallel construct whose block is one worksharing construct: index
   * + 1 of that construct, whose reduction clauses it takes over
   * (hoist_reductions); hoisted: this construct's went there. */
  int hoist_from;
  int hoisted;
};

/* A call of an OpenMP API routine that is rewritten. */
struct api_call {
  size_t begin;          /* start of the call expression */
  size_t name_b, name_e; /* the routine's name */
  size_t args;           /* just after the '(' */
  int nargs;
  int routine; /* index into api_routines[] */
  int number;
  char *ctc;
};

/* An instrumented place with a handle: a pragma or an API call. */
struct site {
  size_t off;
  int is_call;
  size_t index;
};

struct interval {
  size_t b, e;
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
  const struct instr_options *opts;

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
  struct api_call *calls;
  size_t ncalls, capcalls;
  /* pomp.h's inline events can be emitted (pomp.h, "The lane": its
   * x86-64 marker is in the preprocessed unit). */
  int lane;
  /* The events that wait themselves can be emitted (pomp.h,
   * POMPT_gomp_x86_64: GCC, OpenMP, x86-64), and barriers may use them:
   * no cancel or cancellation point of a parallel region in the unit (GCC
   * then makes the barriers of such a region cancellable). */
  int gomp_calls;
  int cancel_parallel;

  struct site *sites; /* sorted by offset */
  size_t nsites;
  struct interval *target_iv, *quiet_iv; /* sorted, disjoint */
  size_t ntarget_iv, nquiet_iv;

  struct edit *edits;
  size_t nedits, capedits;

  char **warned; /* "file\ndirective" keys already warned about */
  size_t nwarned;
  int warned_target;

  int errors;
  int chunk_aliases; /* a loop's chunks come from libgomp's hand-out */
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

/* If line li is "#pragma <word> ...", returns 1 and the offset of the text
 * after the word. */
static int is_pragma_of(const struct unit *u, size_t li, const char *word,
                        size_t *text_off) {
  const char *t = u->text;
  size_t n = strlen(word);
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
  if (e - p < n || memcmp(t + p, word, n) != 0 ||
      (p + n < e && !is_blank(t[p + n])))
    return 0;
  *text_off = p + n;
  return 1;
}

static int is_omp_pragma(const struct unit *u, size_t li, size_t *text_off) {
  return is_pragma_of(u, li, "omp", text_off);
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

/* The leaves of an instrumented directive kind; 0 for other kinds. */
static int chain_of(enum omp_directive_kind k, enum leaf_kind out[MAX_LEAVES]) {
  switch (k) {
#define C1(d, a)                                                               \
  case OMP_DIR_##d:                                                            \
    out[0] = a;                                                                \
    return 1;
#define C2(d, a, b)                                                            \
  case OMP_DIR_##d:                                                            \
    out[0] = a;                                                                \
    out[1] = b;                                                                \
    return 2;
#define C3(d, a, b, c)                                                         \
  case OMP_DIR_##d:                                                            \
    out[0] = a;                                                                \
    out[1] = b;                                                                \
    out[2] = c;                                                                \
    return 3;
    C1(PARALLEL, LK_PARALLEL)
    C1(FOR, LK_FOR)
    C1(FOR_SIMD, LK_FOR_SIMD)
    C1(SECTIONS, LK_SECTIONS)
    C1(SINGLE, LK_SINGLE)
    C1(LOOP, LK_LOOP)
    C1(SCOPE, LK_SCOPE)
    C1(MASTER, LK_MASTER)
    C1(MASKED, LK_MASKED)
    C1(CRITICAL, LK_CRITICAL)
    C1(ORDERED, LK_ORDERED)
    C1(ATOMIC, LK_ATOMIC)
    C1(SIMD, LK_SIMD)
    C1(TASK, LK_TASK)
    C1(TASKLOOP, LK_TASKLOOP)
    C1(TASKLOOP_SIMD, LK_TASKLOOP_SIMD)
    C1(TASKGROUP, LK_TASKGROUP)
    C1(BARRIER, LK_BARRIER)
    C1(TASKWAIT, LK_TASKWAIT)
    C1(TASKYIELD, LK_TASKYIELD)
    C1(FLUSH, LK_FLUSH)
    C1(CANCEL, LK_CANCEL)
    C1(CANCELLATION_POINT, LK_CANCELLATION_POINT)
    C1(ERROR, LK_ERROR)
    C1(TARGET, LK_TARGET)
    C1(TARGET_PARALLEL, LK_TARGET)
    C1(TARGET_PARALLEL_FOR, LK_TARGET)
    C1(TARGET_PARALLEL_FOR_SIMD, LK_TARGET)
    C1(TARGET_PARALLEL_LOOP, LK_TARGET)
    C1(TARGET_SIMD, LK_TARGET)
    C1(TARGET_TEAMS, LK_TARGET)
    C1(TARGET_TEAMS_DISTRIBUTE, LK_TARGET)
    C1(TARGET_TEAMS_DISTRIBUTE_SIMD, LK_TARGET)
    C1(TARGET_TEAMS_DISTRIBUTE_PARALLEL_FOR, LK_TARGET)
    C1(TARGET_TEAMS_DISTRIBUTE_PARALLEL_FOR_SIMD, LK_TARGET)
    C1(TARGET_TEAMS_LOOP, LK_TARGET)
    C1(TARGET_DATA, LK_TARGET_DATA)
    C1(TARGET_ENTER_DATA, LK_TARGET_ENTER_DATA)
    C1(TARGET_EXIT_DATA, LK_TARGET_EXIT_DATA)
    C1(TARGET_UPDATE, LK_TARGET_UPDATE)
    C1(TEAMS, LK_TEAMS)
    C1(DISTRIBUTE, LK_DISTRIBUTE)
    C1(DISTRIBUTE_SIMD, LK_DISTRIBUTE_SIMD)
    C1(DISTRIBUTE_PARALLEL_FOR, LK_DISTRIBUTE_PAR_FOR)
    C1(DISTRIBUTE_PARALLEL_FOR_SIMD, LK_DISTRIBUTE_PAR_FOR_SIMD)
    C2(TEAMS_DISTRIBUTE, LK_TEAMS, LK_DISTRIBUTE)
    C2(TEAMS_DISTRIBUTE_SIMD, LK_TEAMS, LK_DISTRIBUTE_SIMD)
    C2(TEAMS_DISTRIBUTE_PARALLEL_FOR, LK_TEAMS, LK_DISTRIBUTE_PAR_FOR)
    C2(TEAMS_DISTRIBUTE_PARALLEL_FOR_SIMD, LK_TEAMS, LK_DISTRIBUTE_PAR_FOR_SIMD)
    C2(TEAMS_LOOP, LK_TEAMS, LK_LOOP)
    C2(PARALLEL_FOR, LK_PARALLEL, LK_FOR)
    C2(PARALLEL_FOR_SIMD, LK_PARALLEL, LK_FOR_SIMD)
    C2(PARALLEL_SECTIONS, LK_PARALLEL, LK_SECTIONS)
    C2(PARALLEL_LOOP, LK_PARALLEL, LK_LOOP)
    C2(PARALLEL_MASTER, LK_PARALLEL, LK_MASTER)
    C2(PARALLEL_MASKED, LK_PARALLEL, LK_MASKED)
    C2(MASTER_TASKLOOP, LK_MASTER, LK_TASKLOOP)
    C2(MASTER_TASKLOOP_SIMD, LK_MASTER, LK_TASKLOOP_SIMD)
    C2(MASKED_TASKLOOP, LK_MASKED, LK_TASKLOOP)
    C2(MASKED_TASKLOOP_SIMD, LK_MASKED, LK_TASKLOOP_SIMD)
    C3(PARALLEL_MASTER_TASKLOOP, LK_PARALLEL, LK_MASTER, LK_TASKLOOP)
    C3(PARALLEL_MASTER_TASKLOOP_SIMD, LK_PARALLEL, LK_MASTER, LK_TASKLOOP_SIMD)
    C3(PARALLEL_MASKED_TASKLOOP, LK_PARALLEL, LK_MASKED, LK_TASKLOOP)
    C3(PARALLEL_MASKED_TASKLOOP_SIMD, LK_PARALLEL, LK_MASKED, LK_TASKLOOP_SIMD)
#undef C1
#undef C2
#undef C3
  default:
    return 0;
  }
}

static const struct {
  const char *name; /* as written in a split construct's pragma */
  unsigned group;
} leaf_info[LK_COUNT] = {
    [LK_PARALLEL] = {"parallel", INSTR_GROUP_PARALLEL},
    [LK_FOR] = {"for", INSTR_GROUP_LOOP},
    [LK_FOR_SIMD] = {"for simd", INSTR_GROUP_LOOP},
    [LK_SECTIONS] = {"sections", INSTR_GROUP_WORKSHARE},
    [LK_SINGLE] = {"single", INSTR_GROUP_WORKSHARE},
    [LK_LOOP] = {"loop", INSTR_GROUP_LOOP},
    [LK_SCOPE] = {"scope", INSTR_GROUP_WORKSHARE},
    [LK_MASTER] = {"master", INSTR_GROUP_SYNC},
    [LK_MASKED] = {"masked", INSTR_GROUP_SYNC},
    [LK_CRITICAL] = {"critical", INSTR_GROUP_SYNC},
    [LK_ORDERED] = {"ordered", INSTR_GROUP_SYNC},
    [LK_ATOMIC] = {"atomic", INSTR_GROUP_SYNC},
    [LK_SIMD] = {"simd", INSTR_GROUP_LOOP},
    [LK_TASK] = {"task", INSTR_GROUP_TASK},
    [LK_TASKLOOP] = {"taskloop", INSTR_GROUP_TASK},
    [LK_TASKLOOP_SIMD] = {"taskloop simd", INSTR_GROUP_TASK},
    [LK_TASKGROUP] = {"taskgroup", INSTR_GROUP_TASK},
    [LK_BARRIER] = {"barrier", INSTR_GROUP_SYNC},
    [LK_TASKWAIT] = {"taskwait", INSTR_GROUP_TASK},
    [LK_TASKYIELD] = {"taskyield", INSTR_GROUP_TASK},
    [LK_FLUSH] = {"flush", INSTR_GROUP_SYNC},
    [LK_CANCEL] = {"cancel", INSTR_GROUP_SYNC},
    [LK_CANCELLATION_POINT] = {"cancellation point", INSTR_GROUP_SYNC},
    [LK_ERROR] = {"error", INSTR_GROUP_SYNC},
    [LK_TARGET_ENTER_DATA] = {"target enter data", INSTR_GROUP_TARGET},
    [LK_TARGET_EXIT_DATA] = {"target exit data", INSTR_GROUP_TARGET},
    [LK_TARGET_UPDATE] = {"target update", INSTR_GROUP_TARGET},
    [LK_TARGET] = {"target", INSTR_GROUP_TARGET},
    [LK_TARGET_DATA] = {"target data", INSTR_GROUP_TARGET},
    [LK_TEAMS] = {"teams", INSTR_GROUP_PARALLEL},
    [LK_DISTRIBUTE] = {"distribute", INSTR_GROUP_LOOP},
    [LK_DISTRIBUTE_SIMD] = {"distribute simd", INSTR_GROUP_LOOP},
    [LK_DISTRIBUTE_PAR_FOR] = {"distribute parallel for", INSTR_GROUP_LOOP},
    [LK_DISTRIBUTE_PAR_FOR_SIMD] = {"distribute parallel for simd",
                                    INSTR_GROUP_LOOP},
};

/* A directive whose block gets no inserted calls: simd (any construct
 * whose name has the word simd) and loop (a name that ends in the word
 * loop, which is not taskloop).  Their bodies are restricted regions. */
static int is_quiet_kind(enum omp_directive_kind k) {
  if (k == OMP_DIR_UNKNOWN || k == OMP_DIR_DECLARE_SIMD)
    return 0;
  const char *n = omp_directive_kind_name(k);
  size_t len = strlen(n);
  const char *w = strstr(n, "simd");
  if (w && (w == n || w[-1] == ' ') && (w[4] == '\0' || w[4] == ' '))
    return 1;
  return len >= 4 && strcmp(n + len - 4, "loop") == 0 &&
         (len == 4 || n[len - 5] == ' ');
}

/* The text of the item list / argument of a clause, trimmed. */
static int clause_is_word(const char *t, const struct omp_clause *c,
                          const char *word) {
  size_t n = strlen(word);
  size_t b = c->args.begin, e = c->args.end;
  while (b < e && is_space(t[b]))
    b++;
  while (e > b && is_space(t[e - 1]))
    e--;
  return e - b == n && memcmp(t + b, word, n) == 0;
}

/* ---- #pragma pomp -------------------------------------------------------- */

static int is_pomp_pragma(const struct unit *u, size_t li, size_t *text_off) {
  return is_pragma_of(u, li, "pomp", text_off);
}

/* Parses the text of a "#pragma pomp" line:
 *   inst begin(name) | inst end(name) | inst event(name)
 *   inst init | inst finalize | inst on | inst off
 *   noinstrument | instrument
 * Returns 0 (p->pomp set), 1 for a directive this version does not know
 * (warning), -1 on a malformed one (error reported). */
static int parse_pomp(struct unit *u, struct pragma *p) {
  const char *t = u->text;
  size_t pos = p->tbegin, e = p->tend;
  size_t w1b, w1e, w2b, w2e;
#define SKIP()                                                                 \
  while (pos < e && is_blank(t[pos]))                                          \
  pos++
  SKIP();
  w1b = pos;
  while (pos < e && is_idch(t[pos]))
    pos++;
  w1e = pos;
  if (w1e - w1b == 12 && memcmp(t + w1b, "noinstrument", 12) == 0) {
    p->pomp = PD_NOINSTRUMENT;
  } else if (w1e - w1b == 10 && memcmp(t + w1b, "instrument", 10) == 0) {
    p->pomp = PD_INSTRUMENT;
  } else if (w1e - w1b == 4 && memcmp(t + w1b, "inst", 4) == 0) {
    SKIP();
    w2b = pos;
    while (pos < e && is_idch(t[pos]))
      pos++;
    w2e = pos;
    static const struct {
      const char *w;
      enum pomp_dir d;
    } words[] = {
        {"begin", PD_BEGIN}, {"end", PD_END},           {"event", PD_EVENT},
        {"init", PD_INIT},   {"finalize", PD_FINALIZE}, {"on", PD_ON},
        {"off", PD_OFF}};
    for (size_t i = 0; i < sizeof words / sizeof words[0]; i++)
      if (strlen(words[i].w) == w2e - w2b &&
          memcmp(t + w2b, words[i].w, w2e - w2b) == 0)
        p->pomp = words[i].d;
    if (p->pomp == PD_NONE) {
      error_at(u, w2b < e ? w2b : p->tbegin,
               "malformed '#pragma pomp inst': expected begin(name), "
               "end(name), event(name), init, finalize, on or off");
      return -1;
    }
    if (p->pomp == PD_BEGIN || p->pomp == PD_END || p->pomp == PD_EVENT) {
      SKIP();
      if (pos >= e || t[pos] != '(') {
        error_at(u, pos,
                 "expected '(' and a region name after "
                 "'#pragma pomp inst %.*s'",
                 (int)(w2e - w2b), t + w2b);
        return -1;
      }
      size_t nb = ++pos;
      int depth = 1;
      while (pos < e && depth > 0) {
        if (t[pos] == '(')
          depth++;
        else if (t[pos] == ')')
          depth--;
        if (depth > 0)
          pos++;
      }
      if (depth > 0) {
        error_at(u, nb - 1, "expected ')' to close '(' of the region name");
        return -1;
      }
      size_t ne = pos++;
      while (nb < ne && is_space(t[nb]))
        nb++;
      while (ne > nb && is_space(t[ne - 1]))
        ne--;
      if (ne == nb) {
        error_at(u, nb, "empty region name in '#pragma pomp inst %.*s'",
                 (int)(w2e - w2b), t + w2b);
        return -1;
      }
      p->uname_b = nb;
      p->uname_e = ne;
    }
  } else {
    return 1;
  }
  SKIP();
  if (pos < e) {
    error_at(u, pos, "unexpected text after '#pragma pomp' directive");
    p->pomp = PD_NONE;
    return -1;
  }
#undef SKIP
  return 0;
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
    int is_pomp = 0;
    if (u->lines[li].sys || u->lines[li].marker)
      continue;
    if (!is_omp_pragma(u, li, &tb)) {
      if (!is_pomp_pragma(u, li, &tb))
        continue;
      is_pomp = 1;
    }
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
    p->partner = -1;

    if (is_pomp) {
      p->kind = OMP_DIR_UNKNOWN;
      p->standalone = 1;
      p->declarative = 1;
      snprintf(p->dname, sizeof p->dname, "pomp");
      if (parse_pomp(u, p) > 0)
        warning_at(u, p->tbegin,
                   "unknown '#pragma pomp' directive; passed through");
      continue;
    }

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
    p->nleaves = chain_of(p->kind, p->leaves);
    p->quiet = is_quiet_kind(p->kind);
    if (p->kind == OMP_DIR_ORDERED && p->standalone)
      p->nleaves = 0; /* doacross: no block, no event */
    if (p->kind == OMP_DIR_ERROR) {
      /* Only at(execution) does anything at run time. */
      const struct omp_clause *at = omp_directive_find(d, OMP_CLAUSE_AT);
      if (!at || !clause_is_word(u->text + p->tbegin, at, "execution"))
        p->nleaves = 0;
    }
    if ((p->nleaves > 0 || p->default_private) && d->n_clauses > 0) {
      p->clauses = instr_xmalloc(d->n_clauses * sizeof *p->clauses);
      memcpy(p->clauses, d->clauses, d->n_clauses * sizeof *p->clauses);
    }
    p->has_critical_name = d->has_critical_name;
    p->critical_name = d->critical_name;
  }
  free(d);
}

/* ---- libclang ------------------------------------------------------------ */

/* The OpenMP API routines whose calls are rewritten (seed 004, section 3.4;
 * pomp.h declares a POMP_Api_<name> wrapper for each). */
static const char *const api_routines[] = {"omp_init_lock",
                                           "omp_init_lock_with_hint",
                                           "omp_destroy_lock",
                                           "omp_set_lock",
                                           "omp_unset_lock",
                                           "omp_test_lock",
                                           "omp_init_nest_lock",
                                           "omp_init_nest_lock_with_hint",
                                           "omp_destroy_nest_lock",
                                           "omp_set_nest_lock",
                                           "omp_unset_nest_lock",
                                           "omp_test_nest_lock",
                                           "omp_set_num_threads",
                                           "omp_get_num_threads",
                                           "omp_get_max_threads",
                                           "omp_get_thread_num",
                                           "omp_get_num_procs",
                                           "omp_in_parallel",
                                           "omp_set_dynamic",
                                           "omp_get_dynamic",
                                           "omp_set_nested",
                                           "omp_get_nested",
                                           "omp_control_tool",
                                           "omp_fulfill_event",
                                           NULL};

static int api_routine(const char *name) {
  if (strncmp(name, "omp_", 4) != 0)
    return -1;
  for (int i = 0; api_routines[i]; i++)
    if (strcmp(api_routines[i], name) == 0)
      return i;
  return -1;
}

static void cursor_span(CXCursor c, size_t *b, size_t *e);

/* A declaration of the routine as the OpenMP runtime has it: a function at
 * global scope (not a member, not in a namespace) that this unit does not
 * define outside system headers (a user's own definition, a shim, keeps
 * its calls). */
static int is_runtime_routine(CXCursor decl) {
  if (clang_getCursorKind(decl) != CXCursor_FunctionDecl)
    return 0;
  CXCursor parent = clang_getCursorSemanticParent(decl);
  enum CXCursorKind pk = clang_getCursorKind(parent);
  if (pk != CXCursor_TranslationUnit && pk != CXCursor_LinkageSpec &&
      pk != CXCursor_UnexposedDecl)
    return 0;
  CXCursor def = clang_getCursorDefinition(decl);
  if (!clang_Cursor_isNull(def) &&
      !clang_Location_isInSystemHeader(clang_getCursorLocation(def)))
    return 0;
  return 1;
}

static enum CXChildVisitResult first_child(CXCursor c, CXCursor parent,
                                           CXClientData data) {
  (void)parent;
  *(CXCursor *)data = c;
  return CXChildVisit_Break;
}

/* Records a call of an OpenMP API routine that is to be rewritten. */
static void check_api_call(struct unit *u, CXCursor call) {
  /* The callee expression: the call's first child. */
  CXCursor callee = clang_getNullCursor();
  clang_visitChildren(call, first_child, &callee);
  if (clang_Cursor_isNull(callee))
    return;
  /* Through implicit conversions to the reference of the routine. */
  CXCursor ref = callee;
  for (int guard = 0; guard < 4; guard++) {
    enum CXCursorKind k = clang_getCursorKind(ref);
    if (k == CXCursor_DeclRefExpr || k == CXCursor_OverloadedDeclRef)
      break;
    if (k != CXCursor_UnexposedExpr && k != CXCursor_ParenExpr)
      return;
    CXCursor inner = clang_getNullCursor();
    clang_visitChildren(ref, first_child, &inner);
    if (clang_Cursor_isNull(inner))
      return;
    ref = inner;
  }
  enum CXCursorKind rk = clang_getCursorKind(ref);
  if (rk != CXCursor_DeclRefExpr && rk != CXCursor_OverloadedDeclRef)
    return;
  CXCursor decl = clang_getCursorReferenced(ref);
  if (clang_getCursorKind(decl) == CXCursor_OverloadedDeclRef) {
    /* A call with dependent arguments in a template: every candidate must
     * be the runtime's routine. */
    unsigned n = clang_getNumOverloadedDecls(decl);
    if (n == 0)
      return;
    for (unsigned i = 0; i < n; i++)
      if (!is_runtime_routine(clang_getOverloadedDecl(decl, i)))
        return;
    decl = clang_getOverloadedDecl(decl, 0);
  } else if (!is_runtime_routine(decl)) {
    return;
  }
  CXString name = clang_getCursorSpelling(decl);
  int routine = api_routine(clang_getCString(name));
  clang_disposeString(name);
  if (routine < 0)
    return;

  size_t cb, ce, rb, re;
  cursor_span(call, &cb, &ce);
  cursor_span(ref, &rb, &re);
  const char *rname = api_routines[routine];
  size_t rn = strlen(rname);
  if (re > u->len || re < rb + rn || memcmp(u->text + re - rn, rname, rn) != 0)
    return; /* not spelled as the plain name: left alone */
  /* The '(' of the argument list follows the callee expression (which
   * may be parenthesised: "(omp_set_lock)(l)"). */
  size_t callee_b, callee_e;
  cursor_span(callee, &callee_b, &callee_e);
  size_t q = skip_blank(u, callee_e > re ? callee_e : re);
  if (q >= u->len || u->text[q] != '(')
    return;
  if (u->ncalls == u->capcalls) {
    u->capcalls = u->capcalls ? u->capcalls * 2 : 64;
    u->calls = instr_xrealloc(u->calls, u->capcalls * sizeof *u->calls);
  }
  struct api_call *a = &u->calls[u->ncalls++];
  memset(a, 0, sizeof *a);
  a->begin = cb;
  a->name_b = re - rn;
  a->name_e = re;
  a->args = q + 1;
  a->nargs = clang_Cursor_getNumArguments(call);
  a->routine = routine;
}

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
    if (k == CXCursor_CallExpr && !(u->opts->disabled & INSTR_GROUP_RUNTIME))
      check_api_call(u, c);
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
  const char **args = instr_xmalloc((o->n_clang_args + 10) * sizeof *args);
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

  /* g++'s choices in the C++ library, made parseable (instr_gxx_compat.h):
   * the copy has the text's offsets, its prelude is a file of its own. */
  static const char prelude_path[] = "/pompt-gxx-compat.h";
  const char *prelude = NULL;
  char *compat = u->lang == INSTR_LANG_CXX
                     ? instr_gxx_compat_text(u->text, u->len, &prelude)
                     : NULL;
  struct CXUnsavedFile unsaved[2] = {
      {u->path, compat ? compat : u->text, (unsigned long)u->len},
      {prelude_path, prelude ? prelude : "", prelude ? strlen(prelude) : 0}};
  if (compat) {
    args[na++] = "-include";
    args[na++] = prelude_path;
  }
  u->index = clang_createIndex(0, 0);
  unsigned flags = CXTranslationUnit_KeepGoing;
  enum CXErrorCode ec = clang_parseTranslationUnit2(
      u->index, u->path, args, (int)na, unsaved, compat ? 2 : 1, flags, &u->tu);
  free(compat);
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
      u->diags[u->ndiags].gcc_accepts = gcc_accepts_diag(clang_getCString(s));
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

/* Whether a stand-alone directive of this kind is an executable statement
 * that OpenMP forbids as the substatement of if/else, a loop, switch or a
 * label (5.2, 3.1: it must not be used in place of such a statement). */
static int needs_compound(const struct pragma *p) {
  switch (p->kind) {
  case OMP_DIR_BARRIER:
  case OMP_DIR_TASKWAIT:
  case OMP_DIR_TASKYIELD:
  case OMP_DIR_FLUSH:
  case OMP_DIR_DEPOBJ:
  case OMP_DIR_TARGET_ENTER_DATA:
  case OMP_DIR_TARGET_EXIT_DATA:
  case OMP_DIR_TARGET_UPDATE:
  case OMP_DIR_CANCEL:
  case OMP_DIR_CANCELLATION_POINT:
  case OMP_DIR_INTEROP:
    return 1;
  case OMP_DIR_ORDERED:
    return p->standalone;
  case OMP_DIR_ERROR:
    return p->nleaves > 0; /* at(execution) */
  default:
    return 0;
  }
}

/* Whether the pragma line at off is the substatement of a selection,
 * iteration or labeled statement.  libclang parses without -fopenmp, so the
 * line sits between such a statement's head and its body: the innermost
 * statement that contains it is that statement, not a compound one. */
static int is_substatement(const struct unit *u, size_t off) {
  /* The records are sorted by begin, outer first on a tie: walking back from
   * the last one that begins at or before off, the first that ends after it
   * is the innermost. */
  size_t lo = 0, hi = u->nstmts;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (u->stmts[mid].begin <= off)
      lo = mid + 1;
    else
      hi = mid;
  }
  const struct stmt_rec *in = NULL;
  while (lo > 0 && !in) {
    lo--;
    if (u->stmts[lo].end > off)
      in = &u->stmts[lo];
  }
  if (!in)
    return 0;
  switch (clang_getCursorKind(in->cur)) {
  case CXCursor_IfStmt:
  case CXCursor_SwitchStmt:
  case CXCursor_WhileStmt:
  case CXCursor_DoStmt:
  case CXCursor_ForStmt:
  case CXCursor_CXXForRangeStmt:
  case CXCursor_LabelStmt:
  case CXCursor_CaseStmt:
  case CXCursor_DefaultStmt:
    return 1;
  default:
    return 0;
  }
}

/* Whether reduction clause c names the reduction-modifier word (task,
 * inscan) before its identifier: "reduction(task, +: x)". */
static int reduction_modifier_is(const struct unit *u, const struct pragma *p,
                                 const struct omp_clause *c, const char *word) {
  const char *t = u->text + p->tbegin;
  size_t n = strlen(word), b = c->modifier.begin, e = c->modifier.end;
  while (b < e) { /* each word of the modifier list */
    while (b < e && !is_idch(t[b]))
      b++;
    size_t w = b;
    while (w < e && is_idch(t[w]))
      w++;
    if (w - b == n && memcmp(t + b, word, n) == 0)
      return 1;
    b = w;
  }
  return 0;
}

/* Whether a reduction clause of p has that modifier. */
static int any_reduction_modifier(const struct unit *u, const struct pragma *p,
                                  const char *word) {
  for (size_t i = 0; p->clauses && i < p->nclauses; i++)
    if (p->clauses[i].kind == OMP_CLAUSE_REDUCTION &&
        reduction_modifier_is(u, p, &p->clauses[i], word))
      return 1;
  return 0;
}

static int has_task_reduction(const struct unit *u, const struct pragma *p) {
  return any_reduction_modifier(u, p, "task");
}

/* ---- Structured blocks ----------------------------------------------------
 */

static int pragma_block(struct unit *u, struct pragma *p);

/* An expression statement at p that clang left out of its tree: GCC
 * accepts what clang rejects there (GCC's <stdatomic.h> operations on
 * _Atomic objects expand to __atomic builtins that clang refuses on
 * them), and a statement clang cannot analyse has no node (nor always an
 * error of its own: clang reports such a builtin's misuse once).  Its
 * extent is taken from the text: up to the first ';' outside brackets,
 * literals and line markers.  Statements that hold statements (if, loops,
 * switch, blocks) are never taken so. */
static int expr_stmt_after(const struct unit *u, size_t p, size_t *sb,
                           size_t *se) {
  static const char *const compound[] = {"if",     "for",  "while", "do",
                                         "switch", "else", "case",  "default"};
  const char *t = u->text;
  if (t[p] == '{')
    return -1;
  size_t w = p;
  while (w < u->len && is_idch(t[w]))
    w++;
  for (size_t k = 0; k < sizeof compound / sizeof *compound; k++)
    if (w - p == strlen(compound[k]) && memcmp(t + p, compound[k], w - p) == 0)
      return -1;
  int depth = 0;
  for (size_t q = p; q < u->len; q++) {
    char c = t[q];
    if (c == '#' && line_first(u, line_of(u, q)) == q) { /* a line marker */
      size_t li = line_of(u, q);
      if (li + 1 >= u->nlines)
        return -1;
      q = u->lstart[li + 1] - 1;
    } else if (c == '"' || c == '\'') {
      for (q++; q < u->len && t[q] != c; q++)
        if (t[q] == '\\')
          q++;
    } else if (c == '(' || c == '[' || c == '{') {
      depth++;
    } else if (c == ')' || c == ']' || c == '}') {
      if (--depth < 0)
        return -1;
    } else if (c == ';' && depth == 0) {
      *sb = p;
      *se = q + 1;
      return 0;
    }
  }
  return -1;
}

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
    /* A metadirective is not instrumented; when it stands for a construct,
     * its block follows it (as after "#pragma GCC unroll" below). */
    if (pi >= 0 && u->pragmas[pi].kind == OMP_DIR_METADIRECTIVE)
      pi = -1;
    if (pi >= 0 && !u->pragmas[pi].pomp) {
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
    return expr_stmt_after(u, p, sb, se);
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
 * it is a decimal literal, else converted explicitly ("(POMPT_Int64_t)(n /
 * 2)": pomp.h's name for int64_t, which the unit may not declare,
 * static_cast in C++ so that -Wold-style-cast stays quiet), which keeps
 * -Wconversion quiet. */
static void append_int64(struct instr_buf *b, enum instr_lang lang,
                         const char *t, size_t sb, size_t se) {
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
  int cxx = lang == INSTR_LANG_CXX;
  instr_buf_puts(b, cxx     ? "static_cast<POMPT_Int64_t>("
                    : ident ? "(POMPT_Int64_t)"
                            : "(POMPT_Int64_t)(");
  for (size_t i = sb; i < se; i++)
    instr_buf_putc(b, is_space(t[i]) ? ' ' : t[i]);
  if (cxx || !ident)
    instr_buf_putc(b, ')');
}

static void append_expr(const struct unit *u, struct instr_buf *b, CXCursor c) {
  size_t sb, se;
  cursor_span(c, &sb, &se);
  append_int64(b, u->lang, u->text, sb, se);
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

/* The expression of an if / num_threads / final / ... clause.  Several
 * items are one expression only in C++, where a template argument list is
 * split at its commas; otherwise ("num_threads(8, 2)", OpenMP 6.0's list, or
 * any list in C, which the compiler rejects) hoisting would turn the list
 * into a comma expression: such a clause stays as written and the compiler
 * decides. */
static int clause_expr(const struct unit *u, const struct omp_clause *c,
                       size_t *b, size_t *e) {
  if (!c->has_args || c->n_items == 0)
    return 0;
  if (c->n_items > 1 &&
      (u->lang != INSTR_LANG_CXX || c->kind == OMP_CLAUSE_NUM_THREADS))
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
static void site_names(const struct unit *u, const struct site *st,
                       int *number) {
  *number =
      st->is_call ? u->calls[st->index].number : u->pragmas[st->index].number;
}

/* Handles and CTC strings of the instrumented constructs and call sites
 * inside [from, to): a region with default(none) must share them. */
static void add_nested_handles(struct name_list *l, const struct unit *u,
                               size_t from, size_t to) {
  char name[48];
  size_t lo = 0, hi = u->nsites;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (u->sites[mid].off < from)
      lo = mid + 1;
    else
      hi = mid;
  }
  /* Site names are unique and never a user's: appended without the
   * (linear) duplicate check, so that a large region stays linear. */
  for (size_t i = lo; i < u->nsites && u->sites[i].off < to; i++) {
    int n;
    site_names(u, &u->sites[i], &n);
    l->v = instr_xrealloc(l->v, (l->n + 2) * sizeof *l->v);
    snprintf(name, sizeof name, "pompt_d_%d", n);
    l->v[l->n++] = instr_xstrndup(name, strlen(name));
    snprintf(name, sizeof name, "pompt_ctc_%d", n);
    l->v[l->n++] = instr_xstrndup(name, strlen(name));
  }
}

/* ---- Edits -----------------------------------------------------------------
 */

static void add_edit(struct unit *u, size_t begin, size_t end, int close,
                     int depth, struct instr_buf *text);

/* A closing insertion right after a statement that does not end in '}' (an
 * unbraced loop body, an expression statement) goes on a line of its own,
 * followed by a line marker: on the statement's line, compilers would read
 * it as misleadingly indented (-Wmisleading-indentation).  site: NO_SITE,
 * or an offset whose line that line is given (a construct's pragma line):
 * the line after the statement, which it has otherwise, may be the next
 * construct's, and the codeptr_ra of the events there (a loop's implicit
 * barrier, a single's end) would be taken for that construct's by every
 * tool that reads source lines from it. */
#define NO_SITE ((size_t)-1)
static void add_close_edit(struct unit *u, size_t at, int depth,
                           struct instr_buf *text, size_t site) {
  size_t p = at;
  while (p > 0 && is_space(u->text[p - 1]))
    p--;
  if (p == 0 || u->text[p - 1] == '}' || text->len == 0 ||
      text->data[0] == '\n') {
    add_edit(u, at, at, 1, depth, text);
    return;
  }
  struct instr_buf b = {0};
  instr_buf_putc(&b, '\n');
  if (site != NO_SITE)
    emit_marker(u, &b, site);
  instr_buf_add(&b, text->data, text->len);
  if (text->data[text->len - 1] != '\n') {
    instr_buf_putc(&b, '\n');
    if (at < u->len)
      emit_marker(u, &b, at);
  }
  instr_buf_free(text);
  add_edit(u, at, at, 1, depth, &b);
}

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

/* ---- Clause text ------------------------------------------------------------
 */

/* The variable that replaces clause c's expression, or NULL. */
static const char *repl_of(const struct pragma *p, const struct omp_clause *c) {
  if (!p->repl)
    return NULL;
  return p->repl[c - p->clauses];
}

/* Clause c's expression is evaluated before the construct into
 * "<prefix>_<number>", which the clause then names. */
static void set_repl(struct pragma *p, const struct omp_clause *c,
                     const char *prefix) {
  if (!p->repl) {
    p->repl = instr_xmalloc(p->nclauses * sizeof *p->repl);
    memset(p->repl, 0, p->nclauses * sizeof *p->repl);
  }
  size_t i = (size_t)(c - p->clauses);
  struct instr_buf b = {0};
  instr_buf_printf(&b, "%s_%d", prefix, p->number);
  free(p->repl[i]);
  p->repl[i] = instr_buf_take(&b);
}

/* Appends clause c's text, its expression replaced when set_repl said so. */
static void append_clause(const struct unit *u, const struct pragma *p,
                          struct instr_buf *b, const struct omp_clause *c) {
  const char *t = ptext(u, p);
  const char *r = repl_of(p, c);
  size_t eb, ee;
  if (r && clause_expr(u, c, &eb, &ee)) {
    instr_buf_add(b, t + c->whole.begin, eb - c->whole.begin);
    instr_buf_puts(b, r);
    instr_buf_add(b, t + ee, c->whole.end - ee);
    return;
  }
  instr_buf_add(b, t + c->whole.begin, c->whole.end - c->whole.begin);
}

/* Appends the directive text with the replaced expressions (all clauses
 * stay where they are, the bytes between them copied). */
static void append_directive_text(const struct unit *u, const struct pragma *p,
                                  struct instr_buf *b) {
  const char *t = ptext(u, p);
  size_t n = p->tend - p->tbegin, pos = 0;
  for (size_t i = 0; p->clauses && i < p->nclauses; i++) {
    const struct omp_clause *c = &p->clauses[i];
    int dropped = p->hoisted && c->kind == OMP_CLAUSE_REDUCTION;
    size_t e = c->whole.begin; /* a dropped clause takes its blanks along */
    while (dropped && e > pos && is_space(t[e - 1]))
      e--;
    instr_buf_add(b, t + pos, e - pos);
    if (!dropped)
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

/* The modifier of a clause, trimmed; empty span if none. */
static int modifier_is(const struct unit *u, const struct pragma *p,
                       const struct omp_clause *c, const char *word) {
  const char *t = ptext(u, p);
  size_t b = c->modifier.begin, e = c->modifier.end;
  while (b < e && is_space(t[b]))
    b++;
  while (e > b && is_space(t[e - 1]))
    e--;
  if (!word)
    return e == b;
  size_t n = strlen(word);
  return e - b == n && memcmp(t + b, word, n) == 0;
}

/* The first clause of kind k that applies to the leaf named by an if
 * clause's directive-name modifier (NULL: no modifier only). */
static const struct omp_clause *
find_if(const struct unit *u, const struct pragma *p, const char *leaf) {
  for (size_t i = 0; p->clauses && i < p->nclauses; i++) {
    const struct omp_clause *c = &p->clauses[i];
    if (c->kind != OMP_CLAUSE_IF)
      continue;
    if (modifier_is(u, p, c, NULL) || (leaf && modifier_is(u, p, c, leaf)))
      return c;
  }
  return NULL;
}

/* ---- Splitting combined constructs -------------------------------------- */

static int in_set(enum omp_clause_kind k, const enum omp_clause_kind *set) {
  for (; *set != OMP_CLAUSE_OTHER; set++)
    if (*set == k)
      return 1;
  return 0;
}

/* Whether a reduction clause of `parallel for` / `parallel sections` goes
 * on the parallel leaf.  OpenMP 5.2 puts it on the worksharing leaf (the
 * list items shared in the region); in the combined construct nothing of
 * the region's runs after the loop or sections, so the outcome is the
 * same, but GCC then combines the partial results after the region's
 * block, where libpompt sees the combining (doc/ompt-mapping.md,
 * *Reductions*) instead of inside the worksharing leaf's code.  Not for
 * inscan (the scan needs the loop's) and task (libgomp keeps it with the
 * region) modifiers, nor for composites with simd. */
static int reduction_movable(const struct unit *u, const struct pragma *p,
                             const struct omp_clause *c);
static int reduction_on_parallel(const struct unit *u, const struct pragma *p,
                                 const struct omp_clause *c) {
  if (c->kind != OMP_CLAUSE_REDUCTION || p->nleaves != 2 ||
      p->leaves[0] != LK_PARALLEL ||
      (p->leaves[1] != LK_FOR && p->leaves[1] != LK_SECTIONS))
    return 0;
  return reduction_movable(u, p, c);
}

/* A reduction clause with no modifier that ties it to its construct
 * (inscan: the scan needs the loop's; task: libgomp keeps it with the
 * region). */
static int reduction_movable(const struct unit *u, const struct pragma *p,
                             const struct omp_clause *c) {
  return !reduction_modifier_is(u, p, c, "inscan") &&
         !reduction_modifier_is(u, p, c, "task");
}

/* The clauses a leaf accepts (OpenMP 5.2), for distributing the clauses of
 * a combined construct. */
static int leaf_accepts(enum leaf_kind l, enum omp_clause_kind k) {
  static const enum omp_clause_kind par[] = {
      OMP_CLAUSE_IF,       OMP_CLAUSE_NUM_THREADS,  OMP_CLAUSE_DEFAULT,
      OMP_CLAUSE_PRIVATE,  OMP_CLAUSE_FIRSTPRIVATE, OMP_CLAUSE_SHARED,
      OMP_CLAUSE_COPYIN,   OMP_CLAUSE_REDUCTION,    OMP_CLAUSE_PROC_BIND,
      OMP_CLAUSE_ALLOCATE, OMP_CLAUSE_OTHER};
  static const enum omp_clause_kind wsfor[] = {
      OMP_CLAUSE_PRIVATE,  OMP_CLAUSE_FIRSTPRIVATE, OMP_CLAUSE_LASTPRIVATE,
      OMP_CLAUSE_LINEAR,   OMP_CLAUSE_REDUCTION,    OMP_CLAUSE_SCHEDULE,
      OMP_CLAUSE_COLLAPSE, OMP_CLAUSE_ORDERED,      OMP_CLAUSE_NOWAIT,
      OMP_CLAUSE_ALLOCATE, OMP_CLAUSE_ORDER,        OMP_CLAUSE_OTHER};
  static const enum omp_clause_kind simd[] = {
      OMP_CLAUSE_IF,        OMP_CLAUSE_SAFELEN,     OMP_CLAUSE_SIMDLEN,
      OMP_CLAUSE_ALIGNED,   OMP_CLAUSE_NONTEMPORAL, OMP_CLAUSE_LINEAR,
      OMP_CLAUSE_ORDER,     OMP_CLAUSE_PRIVATE,     OMP_CLAUSE_LASTPRIVATE,
      OMP_CLAUSE_REDUCTION, OMP_CLAUSE_COLLAPSE,    OMP_CLAUSE_OTHER};
  static const enum omp_clause_kind sections[] = {
      OMP_CLAUSE_PRIVATE,   OMP_CLAUSE_FIRSTPRIVATE, OMP_CLAUSE_LASTPRIVATE,
      OMP_CLAUSE_REDUCTION, OMP_CLAUSE_ALLOCATE,     OMP_CLAUSE_NOWAIT,
      OMP_CLAUSE_OTHER};
  static const enum omp_clause_kind loop[] = {
      OMP_CLAUSE_BIND,    OMP_CLAUSE_COLLAPSE,    OMP_CLAUSE_ORDER,
      OMP_CLAUSE_PRIVATE, OMP_CLAUSE_LASTPRIVATE, OMP_CLAUSE_REDUCTION,
      OMP_CLAUSE_OTHER};
  static const enum omp_clause_kind masked[] = {OMP_CLAUSE_FILTER,
                                                OMP_CLAUSE_OTHER};
  static const enum omp_clause_kind taskloop[] = {
      OMP_CLAUSE_IF,           OMP_CLAUSE_SHARED,      OMP_CLAUSE_PRIVATE,
      OMP_CLAUSE_FIRSTPRIVATE, OMP_CLAUSE_LASTPRIVATE, OMP_CLAUSE_REDUCTION,
      OMP_CLAUSE_IN_REDUCTION, OMP_CLAUSE_DEFAULT,     OMP_CLAUSE_GRAINSIZE,
      OMP_CLAUSE_NUM_TASKS,    OMP_CLAUSE_COLLAPSE,    OMP_CLAUSE_FINAL,
      OMP_CLAUSE_PRIORITY,     OMP_CLAUSE_UNTIED,      OMP_CLAUSE_MERGEABLE,
      OMP_CLAUSE_NOGROUP,      OMP_CLAUSE_ALLOCATE,    OMP_CLAUSE_OTHER};
  static const enum omp_clause_kind teams[] = {
      OMP_CLAUSE_NUM_TEAMS, OMP_CLAUSE_THREAD_LIMIT, OMP_CLAUSE_DEFAULT,
      OMP_CLAUSE_PRIVATE,   OMP_CLAUSE_FIRSTPRIVATE, OMP_CLAUSE_SHARED,
      OMP_CLAUSE_REDUCTION, OMP_CLAUSE_ALLOCATE,     OMP_CLAUSE_OTHER};
  static const enum omp_clause_kind dist[] = {
      OMP_CLAUSE_PRIVATE,  OMP_CLAUSE_FIRSTPRIVATE,  OMP_CLAUSE_LASTPRIVATE,
      OMP_CLAUSE_COLLAPSE, OMP_CLAUSE_DIST_SCHEDULE, OMP_CLAUSE_ALLOCATE,
      OMP_CLAUSE_ORDER,    OMP_CLAUSE_OTHER};
  switch (l) {
  case LK_TEAMS:
    return in_set(k, teams);
  case LK_DISTRIBUTE:
    return in_set(k, dist);
  case LK_DISTRIBUTE_SIMD:
    return in_set(k, dist) || in_set(k, simd);
  case LK_DISTRIBUTE_PAR_FOR:
    return in_set(k, dist) || in_set(k, par) || in_set(k, wsfor);
  case LK_DISTRIBUTE_PAR_FOR_SIMD:
    return in_set(k, dist) || in_set(k, par) || in_set(k, wsfor) ||
           in_set(k, simd);
  case LK_PARALLEL:
    return in_set(k, par);
  case LK_FOR:
    return in_set(k, wsfor);
  case LK_FOR_SIMD:
    return in_set(k, wsfor) || in_set(k, simd);
  case LK_SECTIONS:
    return in_set(k, sections);
  case LK_LOOP:
    return in_set(k, loop);
  case LK_MASKED:
    return in_set(k, masked);
  case LK_TASKLOOP:
    return in_set(k, taskloop);
  case LK_TASKLOOP_SIMD:
    return in_set(k, taskloop) || in_set(k, simd);
  default:
    return 0;
  }
}

static int leaf_index(const struct pragma *p, int (*pred)(enum leaf_kind)) {
  for (int i = 0; i < p->nleaves; i++)
    if (pred(p->leaves[i]))
      return i;
  return -1;
}
/* The leaf that creates the threads (or the league) of a split construct:
 * list items moved off it must be shared into it. */
static int is_par_leaf(enum leaf_kind k) {
  return k == LK_PARALLEL || k == LK_TEAMS;
}
static int is_taskloop_leaf(enum leaf_kind k) {
  return k == LK_TASKLOOP || k == LK_TASKLOOP_SIMD;
}
static int is_simd_leaf(enum leaf_kind k) {
  return k == LK_FOR_SIMD || k == LK_TASKLOOP_SIMD;
}
static int is_split_ws_leaf(enum leaf_kind k) {
  return k == LK_FOR || k == LK_FOR_SIMD || k == LK_SECTIONS || k == LK_LOOP;
}

/* The leaves (bit i: leaf i) that clause c of a combined construct goes to
 * (OpenMP 5.2, "Clauses on Combined and Composite Constructs"); 0 for
 * firstprivate and allocate next to a worksharing leaf, which are split
 * per list item by append_leaf_clauses. */
static unsigned clause_leaves(const struct unit *u, const struct pragma *p,
                              const struct omp_clause *c) {
  unsigned all = 0;
  int inner = -1, outer = -1;
  for (int i = 0; i < p->nleaves; i++)
    if (leaf_accepts(p->leaves[i], c->kind)) {
      all |= 1u << i;
      inner = i;
      if (outer < 0)
        outer = i;
    }
  int par = leaf_index(p, is_par_leaf), tl = leaf_index(p, is_taskloop_leaf);
  int ws = leaf_index(p, is_split_ws_leaf);
  switch (c->kind) {
  case OMP_CLAUSE_IF: {
    if (modifier_is(u, p, c, NULL))
      return all ? all : 1u;
    int i = -1;
    if (modifier_is(u, p, c, "parallel"))
      i = par;
    else if (modifier_is(u, p, c, "taskloop"))
      i = tl;
    else if (modifier_is(u, p, c, "simd"))
      i = leaf_index(p, is_simd_leaf);
    return i >= 0 ? 1u << i : 1u;
  }
  case OMP_CLAUSE_DEFAULT:
  case OMP_CLAUSE_SHARED:
  case OMP_CLAUSE_COLLAPSE:
  case OMP_CLAUSE_ORDER:
  case OMP_CLAUSE_LASTPRIVATE:
    return all ? all : 1u;
  case OMP_CLAUSE_PRIVATE:
    if (tl >= 0)
      return 1u << tl;
    if (par >= 0)
      return 1u << par;
    return inner >= 0 ? 1u << inner : 1u;
  case OMP_CLAUSE_FIRSTPRIVATE:
    if (tl >= 0)
      return 1u << tl;
    if (ws >= 0 && leaf_accepts(p->leaves[ws], c->kind))
      return 0; /* per item */
    return par >= 0 ? 1u << par : 1u;
  case OMP_CLAUSE_ALLOCATE:
    if (tl >= 0)
      return 1u << tl;
    if (ws >= 0 && leaf_accepts(p->leaves[ws], c->kind))
      return 0; /* per item */
    return par >= 0 ? 1u << par : 1u;
  case OMP_CLAUSE_REDUCTION: {
    if (par >= 0 && reduction_on_parallel(u, p, c))
      return 1u << par;
    /* Not on parallel when combined with a worksharing leaf; not on teams
     * when combined with loop (both leaves accept it otherwise). */
    int drop = par >= 0 && (p->leaves[par] == LK_PARALLEL ||
                            p->leaves[p->nleaves - 1] == LK_LOOP);
    unsigned m = all & ~(drop ? 1u << par : 0u);
    return m ? m : (all ? all : 1u);
  }
  case OMP_CLAUSE_NOWAIT:
    return outer >= 0 ? 1u << outer : 1u;
  default:
    return inner >= 0 ? 1u << inner : 1u;
  }
}

/* Appends the clauses of leaf li of a combined construct.  firstprivate
 * items that are also lastprivate go to the worksharing leaf, the others
 * to parallel; allocate goes with the leaf that privatises its items. */
static void append_leaf_clauses(const struct unit *u, const struct pragma *p,
                                struct instr_buf *b, int li) {
  const char *t = ptext(u, p);
  int ws = leaf_index(p, is_split_ws_leaf);
  for (size_t i = 0; p->clauses && i < p->nclauses; i++) {
    const struct omp_clause *c = &p->clauses[i];
    unsigned m = clause_leaves(u, p, c);
    if (m) {
      if (m & (1u << li)) {
        instr_buf_putc(b, ' ');
        append_clause(u, p, b, c);
      }
      continue;
    }
    int side_ws = li == ws;
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
        if ((nws == n && n > 0) == side_ws &&
            (side_ws || p->leaves[li] == LK_PARALLEL)) {
          instr_buf_putc(b, ' ');
          append_clause(u, p, b, c);
        }
        continue;
      }
      if (!side_ws && p->leaves[li] != LK_PARALLEL)
        continue;
      /* Mixed: one firstprivate clause per leaf. */
      int first = 1;
      for (size_t j = 0; j < n; j++) {
        size_t ib, ie;
        int w = item_base(t, c->items[j], &ib, &ie) &&
                lastprivate_has(u, p, t + ib, ie - ib);
        if (w != side_ws)
          continue;
        instr_buf_puts(b, first ? " firstprivate(" : ", ");
        instr_buf_add(b, t + c->items[j].begin,
                      c->items[j].end - c->items[j].begin);
        first = 0;
      }
      if (!first)
        instr_buf_putc(b, ')');
      continue;
    }
    /* allocate: with its list items when they are privatised on the
     * worksharing leaf, on parallel otherwise. */
    struct name_list wsl = {0};
    add_items(&wsl, u, p, OMP_CLAUSE_LASTPRIVATE);
    for (size_t k = 0; k < p->nclauses; k++) {
      const struct omp_clause *r = &p->clauses[k];
      size_t nr = r->n_items < OMP_MAX_ITEMS ? r->n_items : OMP_MAX_ITEMS;
      for (size_t j = 0; r->kind == OMP_CLAUSE_REDUCTION &&
                         !reduction_on_parallel(u, p, r) && j < nr;
           j++) {
        size_t ib, ie;
        if (item_base(t, r->items[j], &ib, &ie))
          name_list_add(&wsl, t + ib, ie - ib);
      }
    }
    add_items(&wsl, u, p, OMP_CLAUSE_LINEAR);
    size_t n = c->n_items < OMP_MAX_ITEMS ? c->n_items : OMP_MAX_ITEMS;
    int allws = n > 0;
    for (size_t j = 0; j < n; j++) {
      size_t ib, ie;
      if (!item_base(t, c->items[j], &ib, &ie) ||
          !name_list_has(&wsl, t + ib, ie - ib))
        allws = 0;
    }
    name_list_free(&wsl);
    if (allws ? side_ws : p->leaves[li] == LK_PARALLEL) {
      instr_buf_putc(b, ' ');
      append_clause(u, p, b, c);
    }
  }
}

/* The list items of clauses that a split moves off the parallel leaf: the
 * parallel region must share them under default(none) (OpenMP 5.2 does so
 * for the combined construct). */
static void moved_items(const struct unit *u, const struct pragma *p, int par,
                        struct name_list *want, struct name_list *have) {
  const char *t = ptext(u, p);
  static const enum omp_clause_kind order[] = {
      OMP_CLAUSE_LASTPRIVATE, OMP_CLAUSE_REDUCTION, OMP_CLAUSE_FIRSTPRIVATE,
      OMP_CLAUSE_PRIVATE,     OMP_CLAUSE_LINEAR,    OMP_CLAUSE_IN_REDUCTION,
      OMP_CLAUSE_OTHER};
  for (const enum omp_clause_kind *k = order; *k != OMP_CLAUSE_OTHER; k++) {
    for (size_t i = 0; p->clauses && i < p->nclauses; i++) {
      const struct omp_clause *c = &p->clauses[i];
      if (c->kind != *k)
        continue;
      unsigned m = clause_leaves(u, p, c);
      size_t n = c->n_items < OMP_MAX_ITEMS ? c->n_items : OMP_MAX_ITEMS;
      for (size_t j = 0; j < n; j++) {
        size_t ib, ie;
        if (!item_base(t, c->items[j], &ib, &ie))
          continue;
        int on_par;
        if (m)
          on_par = (m >> par) & 1u;
        else /* firstprivate split per item */
          on_par = !lastprivate_has(u, p, t + ib, ie - ib);
        name_list_add(on_par ? have : want, t + ib, ie - ib);
      }
    }
  }
  for (size_t i = 0; p->clauses && i < p->nclauses; i++) {
    const struct omp_clause *c = &p->clauses[i];
    if (c->kind == OMP_CLAUSE_SHARED) {
      size_t n = c->n_items < OMP_MAX_ITEMS ? c->n_items : OMP_MAX_ITEMS;
      for (size_t j = 0; j < n; j++) {
        size_t ib, ie;
        if (item_base(t, c->items[j], &ib, &ie))
          name_list_add(have, t + ib, ie - ib);
      }
    }
  }
}

/* ---- Leaves ------------------------------------------------------------- */

/* What one leaf adds.  dir: its directive text after "omp"; decl and pre:
 * declarations and statements before its pragma line; open and close:
 * around its structured block (empty for loops); post: statements after
 * the block; barrier: the implicit barrier is exposed after post. */
struct leaf_out {
  struct instr_buf dir, decl, pre, open, close, post;
  /* A standalone directive's replacement: one event that makes the
   * construct itself (pomp.h, POMPT_Barrier, POMPT_Taskwait). */
  struct instr_buf call;
  int barrier;
  /* 1: post ends with the implicit barrier's enter; 2: post's exit event
   * is the barrier itself (POMPT_*_exit_wait) */
  int barrier_merged;
  int post_newline; /* post has line breaks: restore the numbering */
};

static void leaf_out_free(struct leaf_out *lo) {
  instr_buf_free(&lo->dir);
  instr_buf_free(&lo->decl);
  instr_buf_free(&lo->pre);
  instr_buf_free(&lo->open);
  instr_buf_free(&lo->close);
  instr_buf_free(&lo->post);
  instr_buf_free(&lo->call);
}

/* The loop statement of a loop construct: the first statement of its
 * block, past pragma lines. */
static const struct stmt_rec *construct_loop(const struct unit *u,
                                             const struct pragma *p) {
  if (!u->tu || p->block_state != 2)
    return NULL;
  size_t pos = p->sbegin;
  for (;;) {
    pos = skip_blank(u, pos);
    if (pos >= u->len)
      return NULL;
    size_t li = line_of(u, pos);
    if (u->text[pos] == '#' && line_first(u, li) == pos && li + 1 < u->nlines) {
      pos = u->lstart[li + 1];
      continue;
    }
    break;
  }
  return stmt_at(u, pos);
}

static int collapse_count(const struct unit *u, const struct pragma *p) {
  const struct omp_clause *col = find_clause(p, OMP_CLAUSE_COLLAPSE);
  long long cv = 1;
  if (!col)
    return 1;
  if (col->n_items == 1 &&
      is_int_literal(ptext(u, p) + col->items[0].begin,
                     col->items[0].end - col->items[0].begin, &cv) &&
      cv >= 1 && cv <= 16)
    return (int)cv;
  return -1;
}

/* "init, final, incr" of the construct's loop, or the NA values. */
static void bounds_args(const struct unit *u, const struct pragma *p,
                        struct instr_buf *b) {
  if (collapse_count(u, p) == 1) {
    const struct stmt_rec *loop = construct_loop(u, p);
    if (loop && loop_bounds(u, loop, b))
      return;
  }
  instr_buf_puts(b, "0, 0, 0");
}

/* "chunk, init, final, incr" for POMP_Loop_enter. */
static void loop_args(const struct unit *u, const struct pragma *p,
                      struct instr_buf *b) {
  const char *t = ptext(u, p);
  const struct omp_clause *s = find_clause(p, OMP_CLAUSE_SCHEDULE);
  if (s && s->n_items >= 2 &&
      chunk_is_simple(t + s->items[1].begin,
                      s->items[1].end - s->items[1].begin))
    append_int64(b, u->lang, t, s->items[1].begin, s->items[1].end);
  else
    instr_buf_puts(b, "-1");
  instr_buf_puts(b, ", ");
  bounds_args(u, p, b);
}

/* Values of POMP_CHUNKS_* (pomp.h): who decides a loop's chunks. */
enum { CHUNKS_NONE = 0, CHUNKS_STATIC = 1, CHUNKS_RUNTIME = 2 };

static int has_inscan(const struct unit *u, const struct pragma *p);

/* Whether the chunks of p's loop can be computed again: one loop (no
 * collapse) whose bounds loop_bounds can state. */
static int bounds_evaluable(const struct unit *u, const struct pragma *p) {
  struct instr_buf tmp = {0};
  const struct stmt_rec *loop = construct_loop(u, p);
  int ok = collapse_count(u, p) == 1 && loop && loop_bounds(u, loop, &tmp);
  instr_buf_free(&tmp);
  return ok;
}

/* --loop-level=chunks: how the chunks of the loop of leaf k are found
 * (doc/instrumentation.md); *check: the loop body must ask for each chunk
 * (a static schedule with a chunk size). */
static int chunk_schedule(const struct unit *u, const struct pragma *p,
                          enum leaf_kind k, int *check) {
  const char *t = ptext(u, p);
  *check = 0;
  if (find_clause(p, OMP_CLAUSE_ORDERED))
    return CHUNKS_RUNTIME; /* libgomp hands out the chunks of ordered loops */
  const struct omp_clause *s = find_clause(p, OMP_CLAUSE_SCHEDULE);
  int chunked = 0;
  if (s && s->n_items >= 1) {
    size_t b = s->items[0].begin, e = s->items[0].end;
    while (b < e && is_space(t[b]))
      b++;
    while (e > b && is_space(t[e - 1]))
      e--;
    if ((e - b == 7 && memcmp(t + b, "dynamic", 7) == 0) ||
        (e - b == 6 && memcmp(t + b, "guided", 6) == 0) ||
        (e - b == 7 && memcmp(t + b, "runtime", 7) == 0))
      return CHUNKS_RUNTIME;
    if (!(e - b == 6 && memcmp(t + b, "static", 6) == 0) &&
        !(e - b == 4 && memcmp(t + b, "auto", 4) == 0))
      return CHUNKS_NONE;
    for (size_t q = s->modifier.begin; q + 4 <= s->modifier.end; q++)
      if (memcmp(t + q, "simd", 4) == 0)
        return CHUNKS_NONE; /* chunk sizes rounded to the vector length */
    if (s->n_items >= 2) {
      if (!chunk_is_simple(t + s->items[1].begin,
                           s->items[1].end - s->items[1].begin))
        return CHUNKS_NONE;
      chunked = 1;
    }
  }
  /* A static schedule is computed from the bounds; a chunked one needs a
   * call at the start of each chunk, in the body. */
  if (!bounds_evaluable(u, p))
    return CHUNKS_NONE;
  if (chunked) {
    if (k != LK_FOR || has_inscan(u, p))
      return CHUNKS_NONE;
    *check = 1;
  }
  return CHUNKS_STATIC;
}

/* POMP_CHUNKS_REGIONS (pomp.h): a distribute parallel for's chunks are
 * its parallel regions. */
enum { CHUNKS_REGIONS = 3 };

/* --loop-level=chunks: how the chunks of a distribute leaf k are found
 * (doc/instrumentation.md); *check as for chunk_schedule.  par_leaf: the
 * parallel leaf of a distribute parallel for is reported (its regions are
 * seen). */
static int distribute_chunk_schedule(const struct unit *u,
                                     const struct pragma *p, enum leaf_kind k,
                                     int par_leaf, int *check) {
  const char *t = ptext(u, p);
  *check = 0;
  const struct omp_clause *ds = find_clause(p, OMP_CLAUSE_DIST_SCHEDULE);
  int chunked = 0;
  if (ds && ds->n_items >= 2) {
    if (!chunk_is_simple(t + ds->items[1].begin,
                         ds->items[1].end - ds->items[1].begin))
      return CHUNKS_NONE;
    chunked = 1;
  }
  if (!bounds_evaluable(u, p))
    return CHUNKS_NONE;
  if (!chunked)
    return CHUNKS_STATIC; /* one chunk per team, reported at the enter */
  if (k == LK_DISTRIBUTE) {
    *check = 1;
    return CHUNKS_STATIC;
  }
  if ((k == LK_DISTRIBUTE_PAR_FOR || k == LK_DISTRIBUTE_PAR_FOR_SIMD) &&
      par_leaf)
    return CHUNKS_REGIONS;
  return CHUNKS_NONE; /* nothing goes into a simd body */
}

/* The names a parallel leaf adds to its shared clause. */
static void parallel_shared(const struct unit *u, const struct pragma *p,
                            int li, int on, struct name_list *l) {
  char name[48];
  if (on) {
    snprintf(name, sizeof name, "pompt_team_%d", p->number);
    name_list_add(l, name, strlen(name));
  }
  if (!p->default_private)
    return;
  snprintf(name, sizeof name, "pompt_d_%d", p->number);
  name_list_add(l, name, strlen(name));
  snprintf(name, sizeof name, "pompt_ctc_%d", p->number);
  name_list_add(l, name, strlen(name));
  add_nested_handles(l, u, p->sbegin, p->send);
  if (p->nleaves == 1)
    return;
  /* The if value is read again by inner leaves. */
  const struct omp_clause *cif = find_if(u, p, NULL);
  if (cif && repl_of(p, cif) && (clause_leaves(u, p, cif) & ~(1u << li)))
    name_list_add(l, repl_of(p, cif), strlen(repl_of(p, cif)));
  struct name_list have = {0}, want = {0};
  moved_items(u, p, li, &want, &have);
  for (size_t i = 0; i < want.n; i++)
    if (!name_list_has(&have, want.v[i], strlen(want.v[i])))
      name_list_add(l, want.v[i], strlen(want.v[i]));
  name_list_free(&have);
  name_list_free(&want);
}

/* A task-generating leaf with a default clause other than shared shares
 * the handles that its block uses. */
static void task_shared(const struct unit *u, const struct pragma *p,
                        struct instr_buf *b) {
  if (!p->default_private)
    return;
  struct name_list l = {0};
  char name[48];
  snprintf(name, sizeof name, "pompt_d_%d", p->number);
  name_list_add(&l, name, strlen(name));
  snprintf(name, sizeof name, "pompt_ctc_%d", p->number);
  name_list_add(&l, name, strlen(name));
  add_nested_handles(&l, u, p->sbegin, p->send);
  append_shared(b, &l);
  name_list_free(&l);
}

/* Evaluates clause c's expression once: "T name = (E)...; " into decl. */
static void eval_once(const struct unit *u, struct pragma *p,
                      const struct omp_clause *c, const char *prefix,
                      const char *type, const char *conv_open,
                      const char *conv_close, struct instr_buf *decl) {
  size_t eb, ee;
  if (!c || !clause_expr(u, c, &eb, &ee))
    return;
  set_repl(p, c, prefix);
  instr_buf_printf(decl, "%s %s_%d = %s", type, prefix, p->number, conv_open);
  instr_buf_add(decl, ptext(u, p) + eb, ee - eb);
  instr_buf_printf(decl, "%s; ", conv_close);
}

/* The same for an int expression, unless it is a number already. */
static void eval_int_once(const struct unit *u, struct pragma *p,
                          const struct omp_clause *c, const char *prefix,
                          struct instr_buf *decl) {
  size_t eb, ee;
  long long v;
  if (c && clause_expr(u, c, &eb, &ee) &&
      !is_int_literal(ptext(u, p) + eb, ee - eb, &v))
    eval_once(u, p, c, prefix, "int", "(int)(", ")", decl);
}

/* ---- Dependences -------------------------------------------------------- */

static int dependence_type(const char *s, size_t n) {
  static const struct {
    const char *w;
    int v;
  } types[] = {{"in", 1},
               {"out", 2},
               {"inout", 3},
               {"mutexinoutset", 4},
               {"source", 5},
               {"sink", 6},
               {"inoutset", 7},
               /* the object itself, read by the library (pomp.h) */
               {"depobj", 256}};
  for (size_t i = 0; i < sizeof types / sizeof types[0]; i++)
    if (strlen(types[i].w) == n && memcmp(types[i].w, s, n) == 0)
      return types[i].v;
  return 0;
}

/* The address of a depend list item, as a C expression: array sections
 * become their first element ("a[lo:len]" -> "a[lo]", "a[:n]" ->
 * "a[0]"), an array-shaping expression "([n][m])p" its pointer. */
static void dependence_address(const struct unit *u, const char *t, size_t b,
                               size_t e, struct instr_buf *out) {
  while (b < e && is_space(t[b]))
    b++;
  while (e > b && is_space(t[e - 1]))
    e--;
  if (e - b == 14 && memcmp(t + b, "omp_all_memory", 14) == 0) {
    instr_buf_puts(out, "(const void *)0");
    return;
  }
  if (e - b > 2 && t[b] == '(' && t[b + 1] == '[') {
    int depth = 0;
    size_t q = b;
    for (; q < e; q++) {
      if (t[q] == '(' || t[q] == '[')
        depth++;
      else if ((t[q] == ')' || t[q] == ']') && --depth == 0)
        break;
    }
    if (q < e) {
      instr_buf_puts(out, "(const void *)(");
      instr_buf_add(out, t + q + 1, e - q - 1);
      instr_buf_putc(out, ')');
      return;
    }
  }
  instr_buf_puts(out, u->lang == INSTR_LANG_CXX
                          ? "(const void *)__builtin_addressof("
                          : "(const void *)&(");
  size_t q = b;
  while (q < e) {
    char ch = t[q];
    if (ch == '"' || ch == '\'') {
      size_t s = q++;
      while (q < e && t[q] != ch) {
        if (t[q] == '\\')
          q++;
        q++;
      }
      q = q < e ? q + 1 : e;
      instr_buf_add(out, t + s, q - s);
      continue;
    }
    if (ch != '[') {
      instr_buf_putc(out, ch);
      q++;
      continue;
    }
    /* A subscript: find its ']' and a top-level ':' in it. */
    size_t open = q, colon = 0;
    int depth = 0, questions = 0;
    for (; q < e; q++) {
      char c2 = t[q];
      if (c2 == '(' || c2 == '[' || c2 == '{')
        depth++;
      else if (c2 == ')' || c2 == ']' || c2 == '}') {
        if (--depth == 0)
          break;
      } else if (depth == 1 && c2 == '?')
        questions++;
      else if (depth == 1 && c2 == ':') {
        if (q + 1 < e && t[q + 1] == ':') {
          q++;
          continue;
        }
        if (questions > 0)
          questions--;
        else if (!colon)
          colon = q;
      }
    }
    if (q >= e) { /* unbalanced: copy the rest */
      instr_buf_add(out, t + open, e - open);
      break;
    }
    if (colon) {
      size_t lb = open + 1, le = colon;
      while (lb < le && is_space(t[lb]))
        lb++;
      while (le > lb && is_space(t[le - 1]))
        le--;
      instr_buf_putc(out, '[');
      if (le > lb)
        instr_buf_add(out, t + lb, le - lb);
      else
        instr_buf_putc(out, '0');
      instr_buf_putc(out, ']');
    } else {
      instr_buf_add(out, t + open, q + 1 - open);
    }
    q++;
  }
  instr_buf_putc(out, ')');
}

static void warn_once_key(struct unit *u, size_t off, const char *key,
                          const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* The POMP_Dependence_t initialisers of the depend clauses; returns how
 * many items it wrote. */
static int dependences(struct unit *u, const struct pragma *p,
                       struct instr_buf *init) {
  const char *t = ptext(u, p);
  int count = 0;
  for (size_t i = 0; p->clauses && i < p->nclauses; i++) {
    const struct omp_clause *c = &p->clauses[i];
    if (c->kind != OMP_CLAUSE_DEPEND)
      continue;
    /* The modifier: "[iterator(...),] type". */
    size_t mb = c->modifier.begin, me = c->modifier.end;
    while (me > mb && is_space(t[me - 1]))
      me--;
    size_t wb = me;
    while (wb > mb && is_idch(t[wb - 1]))
      wb--;
    int type = dependence_type(t + wb, me - wb);
    int iterator = 0;
    for (size_t q = mb; q + 8 <= wb; q++)
      if (memcmp(t + q, "iterator", 8) == 0)
        iterator = 1;
    if (type == 0 || iterator) {
      warn_once_key(u, p->tbegin + c->whole.begin, "depend",
                    "%s depend clause is not passed to the monitoring "
                    "library (reduced detail)",
                    iterator ? "an iterator-modified" : "this kind of");
      continue;
    }
    size_t n = c->n_items < OMP_MAX_ITEMS ? c->n_items : OMP_MAX_ITEMS;
    for (size_t j = 0; j < n; j++) {
      if (c->items[j].end <= c->items[j].begin)
        continue;
      instr_buf_puts(init, count ? ", {" : "{");
      dependence_address(u, t, c->items[j].begin, c->items[j].end, init);
      instr_buf_printf(init, ", %d}", type);
      count++;
    }
  }
  return count;
}

/* ---- Target constructs (doc/target.md) ------------------------------------
 */

/* An expression that is safe to evaluate once more: no call, no
 * assignment, no increment or decrement. */
static int no_side_effects(const char *t, size_t b, size_t e) {
  for (size_t i = b; i < e; i++) {
    char c = t[i];
    if (c == '"' || c == '\'') {
      char q = c;
      for (i++; i < e && t[i] != q; i++)
        if (t[i] == '\\')
          i++;
      continue;
    }
    if (c == '(') {
      size_t k = i;
      while (k > b && is_space(t[k - 1]))
        k--;
      if (k > b && (is_idch(t[k - 1]) || t[k - 1] == ')' || t[k - 1] == ']'))
        return 0; /* a call */
    }
    if ((c == '+' || c == '-') && i + 1 < e && t[i + 1] == c)
      return 0;
    if (c == '=') {
      char prev = i > b ? t[i - 1] : ' ';
      char next = i + 1 < e ? t[i + 1] : ' ';
      if (next == '=') {
        i++;
        continue;
      }
      if (!(prev == '=' || prev == '!' || prev == '<' || prev == '>'))
        return 0; /* an assignment */
    }
  }
  return 1;
}

/* One subscript of a map list item: "[lo:len]" or "[i]". */
struct subscript {
  size_t open, close; /* offsets of '[' and ']' */
  size_t colon;       /* first top-level ':' or 0 */
  size_t colon2;      /* second top-level ':' (a stride) or 0 */
};

static void append_trimmed(struct instr_buf *b, const char *t, size_t s,
                           size_t e) {
  while (s < e && is_space(t[s]))
    s++;
  while (e > s && is_space(t[e - 1]))
    e--;
  for (size_t i = s; i < e; i++)
    instr_buf_putc(b, is_space(t[i]) ? ' ' : t[i]);
}

/* Appends "{address, size, flags, 0}" for map list item t[b, e); returns 0
 * (appending nothing) when the item cannot be described. */
static int map_item(const struct unit *u, const char *t, size_t b, size_t e,
                    unsigned flags, struct instr_buf *out) {
  while (b < e && is_space(t[b]))
    b++;
  while (e > b && is_space(t[e - 1]))
    e--;
  if (e == b || !no_side_effects(t, b, e) || t[b] == '(')
    return 0;
  /* The trailing subscripts, from the last one back. */
  struct subscript sub[8];
  int nsub = 0;
  size_t base_end = e;
  while (base_end > b && t[base_end - 1] == ']') {
    int depth = 0;
    size_t q = base_end;
    while (q > b) {
      q--;
      if (t[q] == ']' || t[q] == ')' || t[q] == '}')
        depth++;
      else if ((t[q] == '[' || t[q] == '(' || t[q] == '{') && --depth == 0)
        break;
    }
    if (depth != 0 || t[q] != '[' || nsub == 8)
      return 0;
    struct subscript s1 = {q, base_end - 1, 0, 0};
    int d2 = 0, questions = 0;
    for (size_t k = q + 1; k < base_end - 1; k++) {
      char c = t[k];
      if (c == '(' || c == '[' || c == '{')
        d2++;
      else if (c == ')' || c == ']' || c == '}')
        d2--;
      else if (d2 == 0 && c == '?')
        questions++;
      else if (d2 == 0 && c == ':') {
        if (k + 1 < base_end - 1 && t[k + 1] == ':') {
          k++;
          continue;
        }
        if (k > q + 1 && t[k - 1] == ':')
          continue;
        if (questions > 0)
          questions--;
        else if (!s1.colon)
          s1.colon = k;
        else if (!s1.colon2)
          s1.colon2 = k;
      }
    }
    sub[nsub++] = s1;
    base_end = q;
  }
  /* sub[] runs from the last subscript back; the sections are the
   * trailing run of subscripts with a ':'. */
  int nsec = 0;
  while (nsec < nsub && sub[nsec].colon)
    nsec++;
  for (int i = nsec; i < nsub; i++)
    if (sub[i].colon)
      return 0; /* a section followed by a plain subscript */
  for (int i = 0; i < nsec; i++)
    if (sub[i].colon2)
      return 0; /* a stride: not contiguous */
  if (base_end == b)
    return 0;
  int cxx = u->lang == INSTR_LANG_CXX;
  const char *addr_open =
      cxx ? "(const void *)__builtin_addressof(" : "(const void *)&(";
  /* base: the item up to its first section (plain subscripts included). */
  size_t bend = nsec > 0 ? sub[nsec - 1].open : e;
  instr_buf_putc(out, '{');
  if (nsec == 0) {
    instr_buf_puts(out, addr_open);
    instr_buf_add(out, t + b, e - b);
    instr_buf_puts(out, "), sizeof(");
    instr_buf_add(out, t + b, e - b);
    instr_buf_putc(out, ')');
  } else {
    struct instr_buf base = {0}, first = {0};
    instr_buf_putc(&base, '(');
    append_trimmed(&base, t, b, bend);
    instr_buf_putc(&base, ')');
    /* base[lo1][lo2]... */
    instr_buf_add(&first, base.data, base.len);
    for (int i = nsec - 1; i >= 0; i--) {
      instr_buf_putc(&first, '[');
      int has_lo = 0;
      for (size_t k = sub[i].open + 1; k < sub[i].colon; k++)
        if (!is_space(t[k]))
          has_lo = 1;
      if (has_lo)
        append_trimmed(&first, t, sub[i].open + 1, sub[i].colon);
      else
        instr_buf_putc(&first, '0');
      instr_buf_putc(&first, ']');
    }
    instr_buf_puts(out, addr_open);
    instr_buf_add(out, first.data, first.len);
    instr_buf_puts(out, "), ");
    int ok = 1;
    if (nsec == 1) {
      size_t lb = sub[0].colon + 1, le = sub[0].close;
      int has_len = 0;
      for (size_t k = lb; k < le; k++)
        if (!is_space(t[k]))
          has_len = 1;
      if (has_len) {
        instr_buf_puts(out, "(POMPT_Uint64_t)(");
        append_trimmed(out, t, lb, le);
        instr_buf_printf(out, ") * sizeof(%s[0])", base.data);
      } else {
        /* a[lo:]: to the end of an array */
        instr_buf_printf(out, "(sizeof(%s) / sizeof(%s[0]) - (POMPT_Uint64_t)(",
                         base.data, base.data);
        int has_lo = 0;
        for (size_t k = sub[0].open + 1; k < sub[0].colon; k++)
          if (!is_space(t[k]))
            has_lo = 1;
        if (has_lo)
          append_trimmed(out, t, sub[0].open + 1, sub[0].colon);
        else
          instr_buf_putc(out, '0');
        instr_buf_printf(out, ")) * sizeof(%s[0])", base.data);
      }
    } else {
      /* From the first element to one past the last one. */
      struct instr_buf last = {0};
      instr_buf_add(&last, base.data, base.len);
      for (int i = nsec - 1; i >= 0 && ok; i--) {
        size_t lb = sub[i].colon + 1, le = sub[i].close;
        int has_len = 0, has_lo = 0;
        for (size_t k = lb; k < le; k++)
          if (!is_space(t[k]))
            has_len = 1;
        for (size_t k = sub[i].open + 1; k < sub[i].colon; k++)
          if (!is_space(t[k]))
            has_lo = 1;
        if (!has_len) {
          ok = 0;
          break;
        }
        instr_buf_puts(&last, "[(");
        if (has_lo)
          append_trimmed(&last, t, sub[i].open + 1, sub[i].colon);
        else
          instr_buf_putc(&last, '0');
        instr_buf_puts(&last, ") + (");
        append_trimmed(&last, t, lb, le);
        instr_buf_puts(&last, ") - 1]");
      }
      if (ok)
        instr_buf_printf(out,
                         "(POMPT_Uint64_t)((const char *)(&%s + 1) - "
                         "(const char *)&%s)",
                         last.data, first.data);
      instr_buf_free(&last);
    }
    instr_buf_free(&base);
    instr_buf_free(&first);
    if (!ok)
      return 0; /* the caller drops what was appended */
  }
  instr_buf_printf(out, ", 0x%x, 0}", flags);
  return 1;
}

/* The map flags of a map clause's modifier text ("always, close, to"), or
 * -1 for a modifier this version does not describe (mapper, iterator). */
static int map_flags(const char *t, size_t b, size_t e, int motion,
                     unsigned *flags) {
  static const struct {
    const char *w;
    unsigned type, mod;
  } words[] = {{"to", 0x1, 0},      {"from", 0x2, 0},     {"tofrom", 0x3, 0},
               {"alloc", 0x4, 0},   {"release", 0x8, 0},  {"delete", 0x10, 0},
               {"always", 0, 0x40}, {"present", 0, 0x80}, {"close", 0, 0x100},
               {"ompx_hold", 0, 0}};
  unsigned type = 0, mod = 0;
  size_t q = b;
  while (q < e) {
    while (q < e && (is_space(t[q]) || t[q] == ','))
      q++;
    size_t wb = q;
    while (q < e && is_idch(t[q]))
      q++;
    if (q == wb) {
      if (q < e)
        return -1;
      break;
    }
    size_t n = q - wb;
    size_t r = q;
    while (r < e && is_space(t[r]))
      r++;
    if (r < e && t[r] == '(')
      return -1; /* mapper(...), iterator(...) */
    int found = 0;
    for (size_t i = 0; i < sizeof words / sizeof words[0]; i++)
      if (strlen(words[i].w) == n && memcmp(words[i].w, t + wb, n) == 0) {
        if (words[i].type)
          type = words[i].type;
        mod |= words[i].mod;
        found = 1;
      }
    if (!found)
      return -1;
  }
  if (!motion && type == 0)
    type = 0x3;
  *flags = type | mod;
  return 0;
}

/* The map list of a target-family construct: one initialiser per item of
 * its map clauses (motion clauses to/from for target update); returns the
 * number of items. */
static int map_list(struct unit *u, const struct pragma *p,
                    struct instr_buf *init) {
  const char *t = ptext(u, p);
  int update = p->kind == OMP_DIR_TARGET_UPDATE;
  int count = 0;
  for (size_t i = 0; p->clauses && i < p->nclauses; i++) {
    const struct omp_clause *c = &p->clauses[i];
    unsigned flags = 0;
    if (update) {
      if (c->kind != OMP_CLAUSE_TO && c->kind != OMP_CLAUSE_FROM)
        continue;
      if (map_flags(t, c->modifier.begin, c->modifier.end, 1, &flags) < 0)
        flags = ~0u;
      else
        flags |= c->kind == OMP_CLAUSE_TO ? 0x1 : 0x2;
    } else {
      if (c->kind != OMP_CLAUSE_MAP)
        continue;
      if (map_flags(t, c->modifier.begin, c->modifier.end, 0, &flags) < 0)
        flags = ~0u;
    }
    size_t n = c->n_items < OMP_MAX_ITEMS ? c->n_items : OMP_MAX_ITEMS;
    for (size_t j = 0; j < n; j++) {
      size_t mark = init->len;
      if (count)
        instr_buf_puts(init, ", ");
      if (flags == ~0u ||
          !map_item(u, t, c->items[j].begin, c->items[j].end, flags, init)) {
        init->len = mark;
        if (init->data)
          init->data[mark] = '\0';
        warn_once_key(u, p->tbegin + c->items[j].begin, "map-item",
                      "map item not reported (a modifier, a stride or an "
                      "expression with side effects; reduced detail)");
        continue;
      }
      count++;
    }
  }
  return count;
}

/* The if clause of a target-family construct: no modifier, or one naming
 * a target construct ("target", "target data", "target update", ...). */
static const struct omp_clause *find_target_if(const struct unit *u,
                                               const struct pragma *p) {
  const char *t = ptext(u, p);
  for (size_t i = 0; p->clauses && i < p->nclauses; i++) {
    const struct omp_clause *c = &p->clauses[i];
    if (c->kind != OMP_CLAUSE_IF)
      continue;
    if (modifier_is(u, p, c, NULL))
      return c;
    size_t b = c->modifier.begin;
    while (b < c->modifier.end && is_space(t[b]))
      b++;
    if (c->modifier.end - b >= 6 && memcmp(t + b, "target", 6) == 0 &&
        (b + 6 == c->modifier.end || !is_idch(t[b + 6])))
      return c;
  }
  return NULL;
}

static const char *const target_events[] = {
    [LK_TARGET] = "Target",
    [LK_TARGET_DATA] = "Target_data",
    [LK_TARGET_ENTER_DATA] = "Target_enter_data",
    [LK_TARGET_EXIT_DATA] = "Target_exit_data",
    [LK_TARGET_UPDATE] = "Target_update",
};

/* Declarations of a target-family leaf: device and if values, the
 * instance, the map list. */
static void target_decls(struct unit *u, struct pragma *p,
                         struct leaf_out *lo) {
  const char *t = ptext(u, p);
  int n = p->number;
  const struct omp_clause *dev = find_clause(p, OMP_CLAUSE_DEVICE);
  if (dev && !modifier_is(u, p, dev, "ancestor"))
    eval_once(u, p, dev, "pompt_dev", "int", "(int)(", ")", &lo->decl);
  eval_once(u, p, find_target_if(u, p), "pompt_if", "int", "(", ") ? 1 : 0",
            &lo->decl);
  instr_buf_printf(&lo->decl, "POMP_Target_t pompt_tgt_%d; ", n);
  struct instr_buf maps = {0};
  int nmaps = map_list(u, p, &maps);
  if (nmaps > 0)
    instr_buf_printf(&lo->decl, "POMP_Map_t pompt_map_%d[%d] = {%s}; ", n,
                     nmaps, maps.data);
  instr_buf_free(&maps);
  p->nmaps = nmaps;
  (void)t;
}

/* The enter event's arguments after the instance: device, flags, maps. */
static void target_args(const struct unit *u, const struct pragma *p,
                        struct instr_buf *b) {
  int n = p->number;
  const struct omp_clause *dev = find_clause(p, OMP_CLAUSE_DEVICE);
  if (dev && repl_of(p, dev))
    instr_buf_printf(b, "pompt_dev_%d, ", n);
  else
    instr_buf_puts(b, "(-2147483647 - 1), ");
  unsigned flags = 0;
  if (find_clause(p, OMP_CLAUSE_NOWAIT))
    flags |= 0x1;
  if (find_clause(p, OMP_CLAUSE_DEPEND))
    flags |= 0x4;
  const struct omp_clause *cif = find_target_if(u, p);
  if (cif && repl_of(p, cif)) {
    if (flags)
      instr_buf_printf(b, "0x%x | ", flags);
    instr_buf_printf(b, "(pompt_if_%d ? 0 : 2), ", n);
  } else {
    instr_buf_printf(b, "0x%x, ", flags);
  }
  if (p->nmaps > 0)
    instr_buf_printf(b, "pompt_map_%d, %d, ", n, p->nmaps);
  else
    instr_buf_puts(b, "(const POMP_Map_t *)0, 0, ");
}

/* Builds a target-family leaf.  A nowait construct gets a dependence on a
 * byte of its instance and is followed by the completion task. */
static void build_target_leaf(struct unit *u, struct pragma *p,
                              enum leaf_kind k, struct leaf_out *lo) {
  int n = p->number;
  const char *ev = target_events[k];
  int nowait = k != LK_TARGET_DATA && find_clause(p, OMP_CLAUSE_NOWAIT);
  instr_buf_printf(
      &lo->pre, "POMP_%s_enter(&pompt_d_%d.handle, " T_SELF ", &pompt_tgt_%d, ",
      ev, n, n);
  target_args(u, p, &lo->pre);
  instr_buf_printf(&lo->pre, "pompt_ctc_%d);", n);
  if (nowait)
    instr_buf_printf(&lo->dir, " depend(out: pompt_tgt_%d.pomp_dep[0])", n);
  /* A combined target construct under defaultmap: the if value is also
   * read on the device. */
  const struct omp_clause *cif = find_target_if(u, p);
  if (k == LK_TARGET && p->kind != OMP_DIR_TARGET && cif && repl_of(p, cif) &&
      find_clause(p, OMP_CLAUSE_DEFAULTMAP))
    instr_buf_printf(&lo->dir, " firstprivate(pompt_if_%d)", n);
  if (k == LK_TARGET_DATA) {
    instr_buf_printf(&lo->open,
                     "{ POMP_Target_data_begin(pompt_d_%d.handle, " T_SELF
                     ", &pompt_tgt_%d); ",
                     n, n);
    instr_buf_printf(&lo->close,
                     " POMP_Target_data_end(pompt_d_%d.handle, " T_SELF
                     ", &pompt_tgt_%d);" NO_TAIL " }",
                     n, n);
  }
  if (nowait) {
    /* Starts on a line of its own: after the block (target), or at the
     * start of the line after the directive (stand-alone ones). */
    if (k == LK_TARGET)
      instr_buf_putc(&lo->post, '\n');
    instr_buf_printf(&lo->post,
                     "#pragma omp task depend(in: pompt_tgt_%d.pomp_dep[0]) "
                     "firstprivate(pompt_tgt_%d",
                     n, n);
    if (p->nmaps > 0)
      instr_buf_printf(&lo->post, ", pompt_map_%d", n);
    instr_buf_printf(&lo->post,
                     ")\n POMP_Target_complete(pompt_d_%d.handle, " T_SELF
                     ", &pompt_tgt_%d, ",
                     n, n);
    if (p->nmaps > 0)
      instr_buf_printf(&lo->post, "pompt_map_%d, %d);\n", n, p->nmaps);
    else
      instr_buf_puts(&lo->post, "(const POMP_Map_t *)0, 0);\n");
    lo->post_newline = k == LK_TARGET;
  }
  instr_buf_printf(
      &lo->post, " POMP_%s_exit(pompt_d_%d.handle, " T_SELF ", &pompt_tgt_%d);",
      ev, n, n);
}

/* ---- Building the leaves ------------------------------------------------ */

static enum CXChildVisitResult find_call(CXCursor c, CXCursor parent,
                                         CXClientData data) {
  (void)parent;
  if (clang_getCursorKind(c) == CXCursor_CallExpr) {
    *(int *)data = 1;
    return CXChildVisit_Break;
  }
  return CXChildVisit_Recurse;
}

/* Whether two spans hold the same text, blanks ignored. */
static int same_text(const struct unit *u, size_t ab, size_t ae, size_t bb,
                     size_t be) {
  for (;;) {
    while (ab < ae && is_space(u->text[ab]))
      ab++;
    while (bb < be && is_space(u->text[bb]))
      bb++;
    if (ab == ae || bb == be)
      return ab == ae && bb == be;
    if (u->text[ab++] != u->text[bb++])
      return 0;
  }
}

/* The expr of an atomic update "x op= expr;", "x = x op expr;" or
 * "x = expr op x;" when it calls a function: [*eb, *ee) and its type, a
 * builtin arithmetic type (spelled in canonical form).  OpenMP evaluates
 * expr outside the atomic operation; the call may even reach the same
 * atomic again (a recursion), which must not happen between the atomic's
 * enter and exit events. */
static int atomic_call_operand(const struct unit *u, const struct pragma *p,
                               size_t *eb, size_t *ee, CXType *type) {
  static const enum omp_clause_kind other_forms[] = {
      OMP_CLAUSE_READ, OMP_CLAUSE_WRITE, OMP_CLAUSE_CAPTURE,
      OMP_CLAUSE_COMPARE};
  for (size_t i = 0; i < sizeof other_forms / sizeof other_forms[0]; i++)
    if (find_clause(p, other_forms[i]))
      return 0;
  const struct stmt_rec *st = stmt_at(u, p->sbegin);
  if (!st)
    return 0;
  CXCursor s = st->cur, expr;
  enum CXCursorKind k = clang_getCursorKind(s);
  struct cursor_list l = children_of(s);
  if (l.n != 2)
    return 0;
  if (k == CXCursor_CompoundAssignOperator) {
    expr = l.c[1];
  } else if (k == CXCursor_BinaryOperator) {
    char op[4];
    binary_operator(u, s, op);
    if (strcmp(op, "=") != 0)
      return 0;
    CXCursor rhs = strip(l.c[1]);
    struct cursor_list r = children_of(rhs);
    if (clang_getCursorKind(rhs) != CXCursor_BinaryOperator || r.n != 2)
      return 0;
    size_t xb, xe, ab, ae, bb, be;
    cursor_span(l.c[0], &xb, &xe);
    cursor_span(r.c[0], &ab, &ae);
    cursor_span(r.c[1], &bb, &be);
    if (same_text(u, xb, xe, ab, ae))
      expr = r.c[1];
    else if (same_text(u, xb, xe, bb, be))
      expr = r.c[0];
    else
      return 0;
  } else {
    return 0;
  }
  int calls = 0;
  if (clang_getCursorKind(expr) == CXCursor_CallExpr)
    calls = 1;
  else
    clang_visitChildren(expr, find_call, &calls);
  if (!calls)
    return 0;
  CXType t = clang_getCanonicalType(clang_getCursorType(expr));
  if (t.kind < CXType_Bool || t.kind > CXType_LongDouble)
    return 0;
  cursor_span(expr, eb, ee);
  if (*ee <= *eb || *eb <= p->sbegin || *ee >= p->send)
    return 0;
  /* The expression must be plain text: no rewritten API call and no pragma
   * line (a lambda's) inside it. */
  for (size_t i = 0; i < u->ncalls; i++)
    if (u->calls[i].routine >= 0 && u->calls[i].begin >= *eb &&
        u->calls[i].begin < *ee)
      return 0;
  for (size_t li = line_of(u, *eb); li < u->nlines && u->lstart[li] < *ee; li++)
    if (u->pragma_of_line[li] >= 0)
      return 0;
  *type = t;
  return 1;
}

/* Evaluates an atomic update's function-calling expr before the atomic
 * events, into a temporary of its own type that the statement then uses
 * (its line breaks kept, so the lines after it keep their numbers). */
static void hoist_atomic_operand(struct unit *u, struct pragma *p,
                                 struct leaf_out *lo) {
  size_t eb, ee;
  CXType t;
  if (!atomic_call_operand(u, p, &eb, &ee, &t))
    return;
  CXString ts = clang_getTypeSpelling(t);
  instr_buf_printf(&lo->decl, "%s pompt_ax_%d = (", clang_getCString(ts),
                   p->number);
  clang_disposeString(ts);
  instr_buf_add(&lo->decl, u->text + eb, ee - eb);
  instr_buf_puts(&lo->decl, "); ");
  struct instr_buf b = {0};
  instr_buf_printf(&b, "pompt_ax_%d", p->number);
  for (size_t i = eb; i < ee; i++)
    if (u->text[i] == '\n')
      instr_buf_putc(&b, '\n');
  add_edit(u, eb, ee, 0, INT_MAX, &b);
}

/* Whether a task construct hands its tasks to libpompt's GOMP_task whole
 * (pomp.h, POMPT_Task_hand): GCC's unit for x86-64, whose every task
 * reaches that entry; no depend or detach clause (their dependences and
 * detached end take the instance); and no clause expression that GCC
 * evaluates between the hand-over and its call of GOMP_task and that could
 * run another task construct first (a call: "(" in it, as an affinity or
 * allocate clause may have; the if, final and priority expressions are
 * evaluated before, into variables of their own). */
static int task_handed(const struct unit *u, const struct pragma *p) {
  if (!u->gomp_calls || find_clause(p, OMP_CLAUSE_DEPEND) ||
      find_clause(p, OMP_CLAUSE_DETACH))
    return 0;
  const char *t = ptext(u, p);
  for (size_t i = 0; p->clauses && i < p->nclauses; i++) {
    const struct omp_clause *c = &p->clauses[i];
    if (c->has_args && !repl_of(p, c) &&
        memchr(t + c->args.begin, '(', c->args.end - c->args.begin))
      return 0;
  }
  return 1;
}

/* Sets the clause replacements of every leaf (an if clause can be shared
 * by several leaves, so this happens before any text is built). */
static void leaf_decls(struct unit *u, struct pragma *p, int li,
                       struct leaf_out *lo) {
  enum leaf_kind k = p->leaves[li];
  int on = (p->leaf_on >> li) & 1u;
  int n = p->number;
  const char *t = ptext(u, p);
  if (!on)
    return;
  switch (k) {
  case LK_PARALLEL:
    eval_once(u, p, find_if(u, p, "parallel"), "pompt_if", "int", "(",
              ") ? 1 : 0", &lo->decl);
    eval_once(u, p, find_clause(p, OMP_CLAUSE_NUM_THREADS), "pompt_nt", "int",
              "(int)(", ")", &lo->decl);
    instr_buf_printf(&lo->decl, "POMPT_Team_t pompt_team_%d; ", n);
    break;
  case LK_MASKED:
    eval_int_once(u, p, find_clause(p, OMP_CLAUSE_FILTER), "pompt_filter",
                  &lo->decl);
    break;
  case LK_TASK:
    eval_once(u, p, find_if(u, p, "task"), "pompt_if", "int", "(", ") ? 1 : 0",
              &lo->decl);
    eval_once(u, p, find_clause(p, OMP_CLAUSE_FINAL), "pompt_final", "int", "(",
              ") ? 1 : 0", &lo->decl);
    /* Before the construct's event too: GCC evaluates it between the
     * construct's start and its call of GOMP_task, where a task it creates
     * would take the creation that the event began (or the hand-over). */
    eval_int_once(u, p, find_clause(p, OMP_CLAUSE_PRIORITY), "pompt_prio",
                  &lo->decl);
    if (!task_handed(u, p))
      instr_buf_printf(&lo->decl, "POMPT_Task_t pompt_task_%d = 0; ", n);
    break;
  case LK_CANCEL:
    eval_once(u, p, find_if(u, p, "cancel"), "pompt_if", "int", "(",
              ") ? 1 : 0", &lo->decl);
    break;
  case LK_ERROR: {
    const struct omp_clause *m = find_clause(p, OMP_CLAUSE_MESSAGE);
    size_t eb, ee;
    if (m && clause_expr(u, m, &eb, &ee) && t[eb] != '"')
      eval_once(u, p, m, "pompt_msg", "const char *", "(", ")", &lo->decl);
    break;
  }
  case LK_TARGET:
  case LK_TARGET_DATA:
  case LK_TARGET_ENTER_DATA:
  case LK_TARGET_EXIT_DATA:
  case LK_TARGET_UPDATE:
    target_decls(u, p, lo);
    break;
  case LK_FOR:
  case LK_FOR_SIMD:
  case LK_DISTRIBUTE:
  case LK_DISTRIBUTE_SIMD:
  case LK_DISTRIBUTE_PAR_FOR:
  case LK_DISTRIBUTE_PAR_FOR_SIMD:
    if (u->opts->loop_level == INSTR_LOOP_CHUNKS)
      instr_buf_printf(&lo->decl, "POMP_Chunks_t pompt_ch_%d; ", n);
    break;
  case LK_ATOMIC:
    hoist_atomic_operand(u, p, lo);
    break;
  case LK_TEAMS:
    eval_once(u, p, find_clause(p, OMP_CLAUSE_NUM_TEAMS), "pompt_nteams", "int",
              "(int)(", ")", &lo->decl);
    eval_once(u, p, find_clause(p, OMP_CLAUSE_THREAD_LIMIT), "pompt_tl", "int",
              "(int)(", ")", &lo->decl);
    instr_buf_printf(&lo->decl, "POMP_Team_t pompt_team_%d; ", n);
    break;
  default:
    break;
  }
}

/* Whether a barrier of the unit is one event that waits itself (pomp.h,
 * POMPT_Barrier, POMPT_*_exit_wait) rather than events around GCC's. */
static int barrier_call(const struct unit *u) {
  return u->gomp_calls && !u->cancel_parallel;
}

/* merged: 1, the construct's exit event has entered the barrier already
 * (POMPT_*_exit_barrier); 2, the exit event is the barrier
 * (POMPT_*_exit_wait). */
static void implicit_barrier_text(const struct unit *u, const struct pragma *p,
                                  int merged, struct instr_buf *b) {
  int n = p->number;
  if (merged == 2) { /* the exit event waited */
    instr_buf_puts(b, NO_TAIL " }");
    return;
  }
  if (!merged)
    instr_buf_printf(b,
                     " POMP_Implicit_barrier_enter(&pompt_d_%d.handle, " T_SELF
                     ", pompt_ctc_%d);",
                     n, n);
  instr_buf_printf(b,
                   "\n#pragma omp barrier\n"
                   " POMPT_Implicit_barrier_exit(&pompt_d_%d);" NO_TAIL " }\n",
                   n);
  emit_marker(u, b, p->send);
}

/* The inner leaf whose first and last events the parallel leaf li merges
 * into its own begin and end (parallel for, parallel sections): LK_COUNT
 * when none. */
static enum leaf_kind merged_inner(const struct unit *u, const struct pragma *p,
                                   int li) {
  if (li + 1 >= p->nleaves || !((p->leaf_on >> li) & 1u) ||
      !((p->leaf_on >> (li + 1)) & 1u))
    return LK_COUNT;
  enum leaf_kind k = p->leaves[li + 1];
  if (k == LK_SECTIONS)
    return k;
  if ((k == LK_FOR || k == LK_FOR_SIMD) &&
      u->opts->loop_level == INSTR_LOOP_ENTEREXIT)
    return k;
  return LK_COUNT;
}

/* Builds leaf li: its directive text and the text around it. */
static void build_leaf(struct unit *u, struct pragma *p, int li,
                       struct leaf_out *lo) {
  enum leaf_kind k = p->leaves[li];
  int on = (p->leaf_on >> li) & 1u;
  int n = p->number;
  int inner = li > 0;
  int user_nowait = find_clause(p, OMP_CLAUSE_NOWAIT) != NULL;
  const char *t = ptext(u, p);

  /* The directive text. */
  if (p->nleaves == 1) {
    append_directive_text(u, p, &lo->dir);
  } else {
    instr_buf_putc(&lo->dir, ' ');
    instr_buf_puts(&lo->dir, leaf_info[k].name);
    append_leaf_clauses(u, p, &lo->dir, li);
  }

  switch (k) {
  case LK_PARALLEL: {
    if (p->hoist_from) { /* the reduction clauses of its one construct */
      const struct pragma *q = &u->pragmas[p->hoist_from - 1];
      for (size_t i = 0; i < q->nclauses; i++)
        if (q->clauses[i].kind == OMP_CLAUSE_REDUCTION) {
          instr_buf_putc(&lo->dir, ' ');
          append_clause(u, q, &lo->dir, &q->clauses[i]);
        }
    }
    struct name_list shared = {0};
    parallel_shared(u, p, li, on, &shared);
    append_shared(&lo->dir, &shared);
    name_list_free(&shared);
    if (!on)
      break;
    const struct omp_clause *cif = find_if(u, p, "parallel");
    const struct omp_clause *cnt = find_clause(p, OMP_CLAUSE_NUM_THREADS);
    int has_nt = cnt && repl_of(p, cnt), has_if = cif && repl_of(p, cif);
    if (has_nt || has_if) {
      instr_buf_printf(&lo->pre, "POMPT_Parallel_enter(&pompt_d_%d, ", n);
      if (has_nt)
        instr_buf_printf(&lo->pre, "pompt_nt_%d, ", n);
      else
        instr_buf_puts(&lo->pre, "-1, ");
      if (has_if)
        instr_buf_printf(&lo->pre, "pompt_if_%d, ", n);
      else
        instr_buf_puts(&lo->pre, "-1, ");
      instr_buf_printf(&lo->pre, "&pompt_team_%d);", n);
    } else {
      instr_buf_printf(
          &lo->pre, "POMPT_Parallel_fork(&pompt_d_%d, &pompt_team_%d);", n, n);
    }
    /* parallel for / parallel sections: the inner leaf's enter and exit
     * are merged into the region's begin and end (build_leaf of the inner
     * leaf leaves them out). */
    enum leaf_kind inner_k = merged_inner(u, p, li);
    if (inner_k == LK_SECTIONS) {
      instr_buf_printf(
          &lo->open, "{ POMPT_Parallel_begin_sections_enter(&pompt_team_%d); ",
          n);
      instr_buf_printf(
          &lo->close,
          " POMPT_Sections_exit_parallel_end(&pompt_team_%d);" NO_TAIL " }", n);
    } else if (inner_k != LK_COUNT) {
      instr_buf_printf(&lo->open,
                       "{ POMPT_Parallel_begin_loop_enter(&pompt_team_%d, ", n);
      bounds_args(u, p, &lo->open);
      instr_buf_puts(&lo->open, "); ");
      instr_buf_printf(
          &lo->close,
          " POMPT_Loop_exit_parallel_end(&pompt_team_%d);" NO_TAIL " }", n);
    } else {
      instr_buf_printf(&lo->open, "{ POMPT_Parallel_begin(&pompt_team_%d); ",
                       n);
      instr_buf_printf(&lo->close,
                       " POMPT_Parallel_end(&pompt_team_%d);" NO_TAIL " }", n);
    }
    instr_buf_printf(&lo->post, " POMPT_Parallel_exit(&pompt_team_%d);", n);
    break;
  }
  case LK_FOR:
  case LK_FOR_SIMD:
  case LK_SECTIONS:
  case LK_SINGLE:
  case LK_SCOPE: {
    int copyprivate = find_clause(p, OMP_CLAUSE_COPYPRIVATE) != NULL;
    /* A task reduction completes at the construct's own barrier, and
     * nowait is not allowed with it: that barrier stays. */
    int task_red = has_task_reduction(u, p);
    /* The implicit barrier is exposed by nowait plus an explicit barrier
     * (doc/instrumentation.md says why that keeps the semantics).  Inside
     * a split parallel, the region's own barrier follows at once. */
    lo->barrier = on && !inner && !user_nowait && !copyprivate &&
                  !p->cancel_inside && !task_red;
    if ((lo->barrier || inner) && !user_nowait && !p->cancel_inside &&
        !task_red)
      instr_buf_puts(&lo->dir, " nowait");
    if (!on)
      break;
    if ((k == LK_FOR || k == LK_FOR_SIMD) &&
        u->opts->loop_level == INSTR_LOOP_CHUNKS) {
      int check;
      int sched = chunk_schedule(u, p, k, &check);
      if (sched == CHUNKS_RUNTIME)
        u->chunk_aliases = 1;
      instr_buf_printf(&lo->pre,
                       "POMP_Loop_chunks_enter(&pompt_d_%d.handle, " T_SELF
                       ", &pompt_ch_%d, %d, ",
                       n, n, sched);
      loop_args(u, p, &lo->pre);
      instr_buf_printf(&lo->pre, ", pompt_ctc_%d);", n);
      instr_buf_printf(&lo->post,
                       " POMP_Loop_chunks_exit(pompt_d_%d.handle, " T_SELF
                       ", &pompt_ch_%d);",
                       n, n);
    } else if (inner && merged_inner(u, p, li - 1) == k) {
      /* The enclosing parallel leaf's begin and end are this leaf's enter
       * and exit too. */
    } else if (k == LK_FOR || k == LK_FOR_SIMD || k == LK_SECTIONS ||
               k == LK_SINGLE) {
      const char *ev = k == LK_SECTIONS ? "Sections"
                       : k == LK_SINGLE ? "Single"
                                        : "Loop";
      instr_buf_printf(&lo->pre, "POMPT_%s_enter(&pompt_d_%d", ev, n);
      if (k != LK_SECTIONS && k != LK_SINGLE) {
        instr_buf_puts(&lo->pre, ", ");
        bounds_args(u, p, &lo->pre);
      }
      instr_buf_puts(&lo->pre, ");");
      lo->barrier_merged = lo->barrier ? 1 + barrier_call(u) : 0;
      instr_buf_printf(&lo->post, " POMPT_%s_exit%s(&pompt_d_%d);", ev,
                       lo->barrier_merged == 2   ? "_wait"
                       : lo->barrier_merged == 1 ? "_barrier"
                                                 : "",
                       n);
    } else {
      instr_buf_printf(&lo->pre,
                       "POMP_Scope_enter(&pompt_d_%d.handle, " T_SELF
                       ", pompt_ctc_%d);",
                       n, n);
      instr_buf_printf(&lo->post,
                       " POMP_Scope_exit(pompt_d_%d.handle, " T_SELF ");", n);
    }
    if (k == LK_SINGLE) {
      instr_buf_printf(&lo->open, "{ POMPT_Single_begin(&pompt_d_%d); ", n);
      instr_buf_printf(&lo->close, " POMPT_Single_end(&pompt_d_%d); }", n);
    }
    break;
  }
  case LK_LOOP:
    if (!on)
      break;
    instr_buf_printf(&lo->pre,
                     "POMP_Loop_enter(&pompt_d_%d.handle, " T_SELF ", -1, ", n);
    bounds_args(u, p, &lo->pre);
    instr_buf_printf(&lo->pre, ", pompt_ctc_%d);", n);
    instr_buf_printf(&lo->post,
                     " POMP_Loop_exit(pompt_d_%d.handle, " T_SELF ");", n);
    break;
  case LK_MASTER:
    if (!on)
      break;
    /* Inline events (pomp.h, "The lane"): without a tool a master region
     * costs the program a thread number's test and no call; with one, the
     * tool's callbacks and no call into libpompt. */
    if (u->lane) {
      instr_buf_printf(&lo->open, "{ " LANE_EVENT("POMPT_Master_enter") " ", n);
      instr_buf_printf(&lo->close,
                       " " LANE_EVENT("POMPT_Master_leave") NO_TAIL " }", n);
      break;
    }
    instr_buf_printf(&lo->open,
                     "{ if (POMPT_on()) POMPT_Master_begin(&pompt_d_%d); ", n);
    instr_buf_printf(
        &lo->close,
        " if (POMPT_on()) POMPT_Master_end(&pompt_d_%d);" NO_TAIL " }", n);
    break;
  case LK_MASKED: {
    if (!on)
      break;
    const struct omp_clause *f = find_clause(p, OMP_CLAUSE_FILTER);
    size_t eb, ee;
    instr_buf_printf(&lo->open,
                     "{ POMP_Masked_begin(&pompt_d_%d.handle, " T_SELF ", ", n);
    if (f && repl_of(p, f))
      instr_buf_puts(&lo->open, repl_of(p, f));
    else if (f && clause_expr(u, f, &eb, &ee))
      instr_buf_add(&lo->open, t + eb, ee - eb);
    else
      instr_buf_puts(&lo->open, "0");
    instr_buf_printf(&lo->open, ", pompt_ctc_%d); ", n);
    instr_buf_printf(
        &lo->close,
        " POMP_Masked_end(pompt_d_%d.handle, " T_SELF ");" NO_TAIL " }", n);
    break;
  }
  case LK_CRITICAL:
  case LK_ORDERED:
  case LK_TASKGROUP: {
    if (!on)
      break;
    const char *ev = k == LK_CRITICAL  ? "Critical"
                     : k == LK_ORDERED ? "Ordered"
                                       : "Taskgroup";
    if (k == LK_CRITICAL && u->lane) {
      /* The inline events (pomp.h, "The lane"): the acquire before the
       * construct, acquired and released in its block; no exit (the block
       * has no way out but its end).  Unguarded: they test POMPT_on()
       * themselves, their return address is the codeptr_ra. */
      instr_buf_printf(&lo->pre, "POMPT_Critical_wait(&pompt_d_%d);", n);
      instr_buf_printf(&lo->open, "{ POMPT_Critical_held(&pompt_d_%d); ", n);
      instr_buf_printf(&lo->close, " POMPT_Critical_release(&pompt_d_%d); }",
                       n);
      break;
    }
    if (k == LK_CRITICAL) {
      /* Not guarded by POMPT_on() as atomic is: four guards per construct
       * made construct-dense sources 2 % slower to compile (pomp-cc's
       * target is 1.25 x gcc), for 27 instructions of a critical region
       * without a tool (doc/performance.md). */
      instr_buf_printf(&lo->pre, "POMPT_Critical_enter(&pompt_d_%d);", n);
      instr_buf_printf(&lo->open, "{ POMPT_Critical_begin(&pompt_d_%d); ", n);
      instr_buf_printf(&lo->close, " POMPT_Critical_end(&pompt_d_%d); }", n);
      instr_buf_printf(&lo->post, " POMPT_Critical_exit(&pompt_d_%d);", n);
      break;
    }
    instr_buf_printf(&lo->pre,
                     "POMP_%s_enter(&pompt_d_%d.handle, " T_SELF
                     ", pompt_ctc_%d);",
                     ev, n, n);
    instr_buf_printf(&lo->open,
                     "{ POMP_%s_begin(pompt_d_%d.handle, " T_SELF "); ", ev, n);
    instr_buf_printf(
        &lo->close, " POMP_%s_end(pompt_d_%d.handle, " T_SELF ");" NO_TAIL " }",
        ev, n);
    instr_buf_printf(&lo->post, " POMP_%s_exit(pompt_d_%d.handle, " T_SELF ");",
                     ev, n);
    break;
  }
  case LK_ATOMIC:
    if (!on)
      break;
    /* Inline events (pomp.h, "The lane"): without a tool no call; with
     * one, an atomic instruction's callbacks and no call into libpompt. */
    if (u->lane) {
      instr_buf_printf(&lo->pre, LANE_EVENT("POMPT_Atomic_begin"), n);
      instr_buf_printf(&lo->post, " " LANE_EVENT("POMPT_Atomic_end"), n);
      break;
    }
    instr_buf_printf(&lo->pre,
                     "if (POMPT_on()) POMPT_Atomic_enter(&pompt_d_%d);", n);
    instr_buf_printf(&lo->post,
                     " if (POMPT_on()) POMPT_Atomic_exit(&pompt_d_%d);", n);
    break;
  case LK_SIMD:
    break;
  case LK_TASK: {
    if (!on)
      break;
    int handed = task_handed(u, p);
    if (!handed)
      instr_buf_printf(&lo->dir, " firstprivate(pompt_task_%d)", n);
    task_shared(u, p, &lo->dir);
    unsigned flags = 0;
    if (find_clause(p, OMP_CLAUSE_UNTIED))
      flags |= 0x4;
    if (find_clause(p, OMP_CLAUSE_MERGEABLE))
      flags |= 0x8;
    if (find_clause(p, OMP_CLAUSE_DEPEND))
      flags |= 0x10;
    if (find_clause(p, OMP_CLAUSE_DETACH))
      flags |= 0x20;
    struct instr_buf deps = {0};
    int ndeps = dependences(u, p, &deps);
    if (ndeps > 0)
      instr_buf_printf(&lo->decl,
                       "POMP_Dependence_t pompt_deps_%d[%d] = {%s}; ", n, ndeps,
                       deps.data);
    instr_buf_free(&deps);
    /* No call at all when no tool can be active (doc/performance.md, "A
     * task with no tool").  A construct whose tasks libpompt's GOMP_task
     * takes whole (task_handed) leaves its descriptor in the lane, and its
     * block stays as written; the others use the compact family (pomp.h),
     * a one-word instance carried into the task. */
    if (handed)
      instr_buf_printf(&lo->pre,
                       "if (POMPT_on()) POMPT_Task_hand(&pompt_d_%d, ", n);
    else
      instr_buf_printf(&lo->pre,
                       "if (POMPT_on()) pompt_task_%d = "
                       "POMPT_Task_create_begin(&pompt_d_%d, ",
                       n, n);
    const struct omp_clause *cif = find_if(u, p, "task");
    const struct omp_clause *cfi = find_clause(p, OMP_CLAUSE_FINAL);
    int terms = 0;
    if (flags || (!(cif && repl_of(p, cif)) && !(cfi && repl_of(p, cfi)))) {
      instr_buf_printf(&lo->pre, "0x%x", flags);
      terms++;
    }
    if (cif && repl_of(p, cif))
      instr_buf_printf(&lo->pre, "%s(pompt_if_%d ? 0 : 1)",
                       terms++ ? " | " : "", n);
    if (cfi && repl_of(p, cfi))
      instr_buf_printf(&lo->pre, "%s(pompt_final_%d ? 2 : 0)",
                       terms++ ? " | " : "", n);
    instr_buf_printf(&lo->pre, ");");
    if (ndeps > 0)
      instr_buf_printf(&lo->pre,
                       " if (pompt_task_%d) POMPT_Task_dependences("
                       "pompt_task_%d, pompt_deps_%d, %d);",
                       n, n, n, ndeps);
    if (handed) {
      /* No event ends the block, so its last call (a lock routine's
       * wrapper) would be a tail call out of the task's function at -O2,
       * and its codeptr_ra libpompt's trampoline's. */
      instr_buf_puts(&lo->open, "{ ");
      instr_buf_puts(&lo->close, NO_TAIL " }");
      break;
    }
    instr_buf_printf(&lo->open,
                     "{ if (pompt_task_%d) POMPT_Task_begin(pompt_task_%d); ",
                     n, n);
    instr_buf_printf(
        &lo->close,
        " if (pompt_task_%d) POMPT_Task_end(pompt_task_%d);" NO_TAIL " }", n,
        n);
    instr_buf_printf(&lo->post, " if (pompt_task_%d) POMPT_Task_create_end();",
                     n);
    break;
  }
  case LK_TASKLOOP:
  case LK_TASKLOOP_SIMD:
    task_shared(u, p, &lo->dir);
    if (!on)
      break;
    /* Its tasks are reported by libpompt (bridge_taskloop.c). */
    instr_buf_printf(&lo->pre,
                     "POMP_Taskloop_enter(&pompt_d_%d.handle, " T_SELF ", ", n);
    bounds_args(u, p, &lo->pre);
    instr_buf_printf(&lo->pre, ", pompt_ctc_%d);", n);
    instr_buf_printf(&lo->post,
                     " POMP_Taskloop_exit(pompt_d_%d.handle, " T_SELF ");", n);
    break;
  case LK_BARRIER:
  case LK_TASKWAIT:
  case LK_TASKYIELD: {
    if (!on)
      break;
    const char *ev = k == LK_BARRIER    ? "Barrier"
                     : k == LK_TASKWAIT ? "Taskwait"
                                        : "Taskyield";
    if (k == LK_TASKWAIT && find_clause(p, OMP_CLAUSE_DEPEND)) {
      /* OpenMP 5.2: the dependences of an empty task it waits for. */
      struct instr_buf deps = {0};
      int ndeps = dependences(u, p, &deps);
      instr_buf_printf(&lo->decl,
                       "POMP_Task_t pompt_task_%d; POMP_Dependence_t "
                       "pompt_deps_%d[%d] = {%s}; ",
                       n, n, ndeps > 0 ? ndeps : 1,
                       ndeps > 0 ? deps.data : "{0, 0}");
      instr_buf_free(&deps);
      instr_buf_printf(&lo->pre,
                       "POMP_Taskwait_depend_enter(&pompt_d_%d.handle, " T_SELF
                       ", &pompt_task_%d, pompt_deps_%d, %d, %d, "
                       "pompt_ctc_%d);",
                       n, n, n, ndeps, user_nowait ? 1 : 0, n);
      instr_buf_printf(&lo->post,
                       " POMP_Taskwait_depend_exit(pompt_d_%d.handle, " T_SELF
                       ", &pompt_task_%d);",
                       n, n);
      break;
    }
    if (k == LK_BARRIER && barrier_call(u)) {
      instr_buf_printf(&lo->call, "POMPT_Barrier(&pompt_d_%d);", n);
      break;
    }
    if (k == LK_TASKWAIT && u->gomp_calls && p->nclauses == 0) {
      instr_buf_printf(&lo->call, "POMPT_Taskwait(&pompt_d_%d);", n);
      break;
    }
    if (k == LK_BARRIER) {
      instr_buf_printf(&lo->pre, "POMPT_Barrier_enter(&pompt_d_%d);", n);
      instr_buf_printf(&lo->post, " POMPT_Barrier_exit(&pompt_d_%d);", n);
      break;
    }
    /* taskwait: no call when no tool can be active (pomp.h,
     * POMPT_on; doc/performance.md, "A task with no tool"). */
    const char *guard = k == LK_TASKWAIT ? "if (POMPT_on()) " : "";
    instr_buf_printf(&lo->pre,
                     "%sPOMP_%s_enter(&pompt_d_%d.handle, " T_SELF
                     ", pompt_ctc_%d);",
                     guard, ev, n, n);
    instr_buf_printf(&lo->post,
                     " %sPOMP_%s_exit(pompt_d_%d.handle, " T_SELF ");", guard,
                     ev, n);
    break;
  }
  case LK_FLUSH:
    if (!on)
      break;
    instr_buf_printf(&lo->post,
                     " POMP_Flush_event(&pompt_d_%d.handle, " T_SELF
                     ", pompt_ctc_%d);",
                     n, n);
    break;
  case LK_CANCEL: {
    if (!on)
      break;
    const struct omp_clause *cif = find_if(u, p, "cancel");
    instr_buf_printf(&lo->pre,
                     "POMP_Cancel_event(&pompt_d_%d.handle, " T_SELF ", ", n);
    if (cif && repl_of(p, cif))
      instr_buf_printf(&lo->pre, "pompt_if_%d", n);
    else
      instr_buf_puts(&lo->pre, "1");
    instr_buf_printf(&lo->pre, ", pompt_ctc_%d);", n);
    break;
  }
  case LK_CANCELLATION_POINT:
    if (!on)
      break;
    instr_buf_printf(&lo->pre,
                     "POMP_Cancellation_point_event(&pompt_d_%d.handle, " T_SELF
                     ", pompt_ctc_%d);",
                     n, n);
    break;
  case LK_ERROR: {
    if (!on)
      break;
    const struct omp_clause *sev = find_clause(p, OMP_CLAUSE_SEVERITY);
    const struct omp_clause *m = find_clause(p, OMP_CLAUSE_MESSAGE);
    size_t eb, ee;
    int severity = sev && clause_is_word(t, sev, "warning") ? 1 : 2;
    instr_buf_printf(&lo->pre,
                     "POMP_Error_event(&pompt_d_%d.handle, " T_SELF ", %d, ", n,
                     severity);
    if (m && repl_of(p, m))
      instr_buf_puts(&lo->pre, repl_of(p, m));
    else if (m && clause_expr(u, m, &eb, &ee))
      instr_buf_add(&lo->pre, t + eb, ee - eb);
    else
      instr_buf_puts(&lo->pre, "(const char *)0");
    instr_buf_printf(&lo->pre, ", pompt_ctc_%d);", n);
    break;
  }
  case LK_TARGET:
  case LK_TARGET_DATA:
  case LK_TARGET_ENTER_DATA:
  case LK_TARGET_EXIT_DATA:
  case LK_TARGET_UPDATE:
    if (on)
      build_target_leaf(u, p, k, lo);
    break;
  case LK_TEAMS: {
    struct name_list shared = {0};
    parallel_shared(u, p, li, on, &shared);
    append_shared(&lo->dir, &shared);
    name_list_free(&shared);
    if (!on)
      break;
    const struct omp_clause *nt = find_clause(p, OMP_CLAUSE_NUM_TEAMS);
    const struct omp_clause *tl = find_clause(p, OMP_CLAUSE_THREAD_LIMIT);
    instr_buf_printf(&lo->pre,
                     "POMP_Teams_enter(&pompt_d_%d.handle, " T_SELF ", ", n);
    if (nt && repl_of(p, nt))
      instr_buf_printf(&lo->pre, "pompt_nteams_%d, ", n);
    else
      instr_buf_puts(&lo->pre, "-1, ");
    if (tl && repl_of(p, tl))
      instr_buf_printf(&lo->pre, "pompt_tl_%d, ", n);
    else
      instr_buf_puts(&lo->pre, "-1, ");
    instr_buf_printf(&lo->pre, "&pompt_team_%d, pompt_ctc_%d);", n, n);
    instr_buf_printf(&lo->open,
                     "{ POMP_Teams_begin(pompt_d_%d.handle, " T_SELF
                     ", &pompt_team_%d); ",
                     n, n);
    instr_buf_printf(&lo->close,
                     " POMP_Teams_end(pompt_d_%d.handle, " T_SELF
                     ", &pompt_team_%d);" NO_TAIL " }",
                     n, n);
    instr_buf_printf(&lo->post,
                     " POMP_Teams_exit(pompt_d_%d.handle, " T_SELF
                     ", &pompt_team_%d);",
                     n, n);
    break;
  }
  case LK_DISTRIBUTE:
  case LK_DISTRIBUTE_SIMD:
  case LK_DISTRIBUTE_PAR_FOR:
  case LK_DISTRIBUTE_PAR_FOR_SIMD: {
    if (!on)
      break;
    /* The parallel and worksharing-loop leaves of a composite
     * distribute parallel for happen inside the runtime: libpompt reports
     * them between these two events (bridge_gomp.c). */
    int par_leaf =
        (k == LK_DISTRIBUTE_PAR_FOR || k == LK_DISTRIBUTE_PAR_FOR_SIMD) &&
        !(u->opts->disabled & INSTR_GROUP_PARALLEL);
    const struct omp_clause *ds = find_clause(p, OMP_CLAUSE_DIST_SCHEDULE);
    int chunks = u->opts->loop_level == INSTR_LOOP_CHUNKS;
    if (chunks) {
      int check;
      instr_buf_printf(
          &lo->pre,
          "POMP_Distribute_chunks_enter(&pompt_d_%d.handle, " T_SELF
          ", &pompt_ch_%d, %d, ",
          n, n, distribute_chunk_schedule(u, p, k, par_leaf, &check));
    } else {
      instr_buf_printf(&lo->pre,
                       "POMP_Distribute_enter(&pompt_d_%d.handle, " T_SELF ", ",
                       n);
    }
    if (ds && ds->n_items >= 2 &&
        chunk_is_simple(t + ds->items[1].begin,
                        ds->items[1].end - ds->items[1].begin))
      append_int64(&lo->pre, u->lang, t, ds->items[1].begin, ds->items[1].end);
    else
      instr_buf_puts(&lo->pre, "-1");
    instr_buf_puts(&lo->pre, ", ");
    bounds_args(u, p, &lo->pre);
    instr_buf_printf(&lo->pre, ", pompt_ctc_%d);", n);
    if (par_leaf) {
      instr_buf_printf(
          &lo->pre,
          " POMP_Distribute_parallel_enter(pompt_d_%d.handle, " T_SELF ");", n);
      instr_buf_printf(
          &lo->post,
          " POMP_Distribute_parallel_exit(pompt_d_%d.handle, " T_SELF ");", n);
    }
    if (chunks)
      instr_buf_printf(&lo->post,
                       " POMP_Distribute_chunks_exit(pompt_d_%d.handle, " T_SELF
                       ", &pompt_ch_%d);",
                       n, n);
    else
      instr_buf_printf(&lo->post,
                       " POMP_Distribute_exit(pompt_d_%d.handle, " T_SELF ");",
                       n);
    break;
  }
  case LK_COUNT:
    break;
  }
}

/* ---- Composing the edits of a construct --------------------------------- */

static int is_standalone_leaf(enum leaf_kind k) {
  return k >= LK_BARRIER && k <= LK_TARGET_UPDATE;
}

/* Adds the replacement of the pragma line unless the text is unchanged. */
static void replace_pragma_line(struct unit *u, struct pragma *p,
                                struct instr_buf *line) {
  size_t n = p->tend - p->lbegin;
  if (line->len == n && memcmp(line->data, u->text + p->lbegin, n) == 0) {
    instr_buf_free(line);
    return;
  }
  add_edit(u, p->lbegin, p->lend, 0, p->depth, line);
}

static void emit_standalone(struct unit *u, struct pragma *p,
                            struct leaf_out *lo) {
  struct instr_buf b = {0};
  if (lo->call.len) { /* the directive's line becomes the call */
    instr_buf_puts(&b, "{ ");
    instr_buf_add(&b, lo->call.data, lo->call.len);
    instr_buf_puts(&b, NO_TAIL " }");
    replace_pragma_line(u, p, &b);
    return;
  }
  instr_buf_puts(&b, "{ ");
  instr_buf_add(&b, lo->decl.data, lo->decl.len);
  instr_buf_add(&b, lo->pre.data, lo->pre.len);
  instr_buf_putc(&b, '\n');
  emit_marker(u, &b, p->lbegin);
  add_edit(u, p->lbegin, p->lbegin, 0, p->depth, &b);

  instr_buf_add(&b, u->text + p->lbegin, p->tbegin - p->lbegin);
  instr_buf_add(&b, lo->dir.data, lo->dir.len);
  replace_pragma_line(u, p, &b);

  size_t at = p->line + 1 < u->nlines ? u->lstart[p->line + 1] : u->len;
  if (at == u->len && (u->len == 0 || u->text[u->len - 1] != '\n'))
    instr_buf_putc(&b, '\n');
  instr_buf_add(&b, lo->post.data, lo->post.len);
  if (lo->post.len)
    instr_buf_puts(&b, NO_TAIL);
  instr_buf_puts(&b, " }\n");
  if (at < u->len)
    emit_marker(u, &b, at);
  add_edit(u, at, at, 1, p->depth, &b);
}

/* Text before the pragma line, the pragma line(s) of every leaf, text at
 * the block's start and after its end. */
/* The text at the start of a construct's statement.  Its events (a single's
 * or master's begin, a critical region's acquisition) go on a line of
 * their own with the pragma's line, as the runtime calls of a native
 * compiler's code for the construct have it; the statement keeps its line
 * and its column. */
static void add_open_edit(struct unit *u, struct pragma *p,
                          struct instr_buf *text) {
  size_t at = p->sbegin;
  if (!memchr(text->data, '(', text->len)) { /* no call: a brace */
    struct instr_buf b = {0};
    instr_buf_add(&b, text->data, text->len);
    add_edit(u, at, at, 0, p->depth, &b);
    return;
  }
  struct instr_buf b = {0};
  instr_buf_putc(&b, '\n');
  emit_marker(u, &b, p->lbegin);
  instr_buf_add(&b, text->data, text->len);
  instr_buf_putc(&b, '\n');
  emit_marker(u, &b, at);
  for (size_t i = u->lstart[line_of(u, at)]; i < at; i++)
    instr_buf_putc(&b, u->text[i] == '\t' ? '\t' : ' ');
  add_edit(u, at, at, 0, p->depth, &b);
}

static void emit_block_chain(struct unit *u, struct pragma *p,
                             struct leaf_out *lo) {
  int k = p->nleaves;
  int brace[MAX_LEAVES];
  for (int i = 0; i < k; i++) {
    brace[i] = lo[i].decl.len > 0 ||
               (i == 0 && (lo[i].pre.len || lo[i].post.len || lo[i].barrier));
    /* An outer leaf's block holds the next leaf and its statements. */
    if (i + 1 < k && lo[i].open.len == 0) {
      instr_buf_puts(&lo[i].open, "{ ");
      instr_buf_puts(&lo[i].close, " }");
    }
  }
  struct instr_buf b = {0};
  if (brace[0] || lo[0].pre.len) {
    if (brace[0])
      instr_buf_puts(&b, "{ ");
    instr_buf_add(&b, lo[0].decl.data, lo[0].decl.len);
    instr_buf_add(&b, lo[0].pre.data, lo[0].pre.len);
    instr_buf_putc(&b, '\n');
    emit_marker(u, &b, p->lbegin);
    add_edit(u, p->lbegin, p->lbegin, 0, p->depth, &b);
  }

  instr_buf_add(&b, u->text + p->lbegin, p->tbegin - p->lbegin);
  instr_buf_add(&b, lo[0].dir.data, lo[0].dir.len);
  for (int i = 1; i < k; i++) {
    /* The next leaf follows on a line of its own, with the same line
     * number as the user's pragma. */
    instr_buf_putc(&b, '\n');
    instr_buf_add(&b, lo[i - 1].open.data, lo[i - 1].open.len);
    if (brace[i])
      instr_buf_puts(&b, "{ ");
    instr_buf_add(&b, lo[i].decl.data, lo[i].decl.len);
    instr_buf_add(&b, lo[i].pre.data, lo[i].pre.len);
    instr_buf_putc(&b, '\n');
    emit_marker(u, &b, p->lbegin);
    instr_buf_add(&b, u->text + p->lbegin, p->tbegin - p->lbegin);
    instr_buf_add(&b, lo[i].dir.data, lo[i].dir.len);
  }
  replace_pragma_line(u, p, &b);

  if (lo[k - 1].open.len)
    add_open_edit(u, p, &lo[k - 1].open);

  for (int i = k - 1; i >= 0; i--) {
    instr_buf_add(&b, lo[i].close.data, lo[i].close.len);
    instr_buf_add(&b, lo[i].post.data, lo[i].post.len);
    if (lo[i].barrier) {
      implicit_barrier_text(u, p, lo[i].barrier_merged, &b);
    } else if (brace[i]) {
      if (lo[i].post.len)
        instr_buf_puts(&b, NO_TAIL);
      instr_buf_puts(&b, " }");
    }
    if (lo[i].post_newline) {
      instr_buf_putc(&b, '\n');
      emit_marker(u, &b, p->send);
    }
  }
  if (b.len)
    add_close_edit(u, p->send, p->depth, &b, p->lbegin);
  else
    instr_buf_free(&b);
}

static void rewrite_sections_list(struct unit *u, struct pragma *p) {
  int n = p->number;
  for (size_t k = 0; k < p->nsecs; k++) {
    struct instr_buf b = {0};
    instr_buf_printf(&b, "{ POMPT_Section_begin(&pompt_d_%d, %zu); ", n, k + 1);
    add_edit(u, p->secs[k].sbegin, p->secs[k].sbegin, 0, p->secs[k].depth, &b);
    instr_buf_printf(&b, " POMPT_Section_end(&pompt_d_%d); }", n);
    add_close_edit(u, p->secs[k].send, p->secs[k].depth, &b, NO_SITE);
  }
}

/* ---- Loop iterations ----------------------------------------------------- */

/* The ')' that ends the header of the for statement at loop. */
static int for_header_end(const struct unit *u, const struct stmt_rec *loop,
                          size_t *rparen) {
  const char *t = u->text;
  size_t p = loop->begin + 3;
  while (p < loop->end && is_space(t[p]))
    p++;
  if (p >= loop->end || t[p] != '(')
    return 0;
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
    else if ((ch == ')' || ch == ']' || ch == '}') && --depth == 0) {
      *rparen = p;
      return 1;
    }
  }
  return 0;
}

/* The loop variable of a canonical for statement, when it has an integer
 * type; NULL otherwise (a pointer, an iterator, a range-based for). */
static char *loop_variable(const struct unit *u, const struct stmt_rec *loop) {
  if (clang_getCursorKind(loop->cur) != CXCursor_ForStmt)
    return NULL;
  struct cursor_list l = children_of(loop->cur);
  if (l.n == 0)
    return NULL;
  CXCursor init = l.c[0], var = clang_getNullCursor();
  size_t ib, ie;
  cursor_span(init, &ib, &ie);
  if (ib < loop->begin || ib >= loop->end)
    return NULL;
  if (clang_getCursorKind(init) == CXCursor_DeclStmt) {
    struct cursor_list d = children_of(init);
    if (d.n == 1 && clang_getCursorKind(d.c[0]) == CXCursor_VarDecl)
      var = d.c[0];
  } else {
    CXCursor e = strip(init);
    char op[4];
    struct cursor_list ch = children_of(e);
    if (clang_getCursorKind(e) == CXCursor_BinaryOperator && ch.n == 2) {
      binary_operator(u, e, op);
      CXCursor lhs = strip(ch.c[0]);
      if (strcmp(op, "=") == 0 &&
          clang_getCursorKind(lhs) == CXCursor_DeclRefExpr)
        var = clang_getCursorReferenced(lhs);
    }
  }
  if (clang_Cursor_isNull(var) || !is_integer_type(clang_getCursorType(var)))
    return NULL;
  CXString s = clang_getCursorSpelling(var);
  const char *cs = clang_getCString(s);
  char *r = cs && *cs ? instr_xstrndup(cs, strlen(cs)) : NULL;
  clang_disposeString(s);
  return r;
}

/* The body of the construct's loop (the innermost of collapsed loops):
 * the for statement in *loop, the body's span in [*bb, *be).  0 when the
 * loops cannot be followed (a non-constant collapse, a loop that is not a
 * for statement). */
static int loop_body(struct unit *u, struct pragma *p,
                     const struct stmt_rec **loopp, size_t *bb, size_t *be) {
  int levels = collapse_count(u, p);
  const struct stmt_rec *loop = construct_loop(u, p);
  if (levels < 1 || !loop)
    return 0;
  for (int k = 0; k < levels; k++) {
    enum CXCursorKind ck = clang_getCursorKind(loop->cur);
    size_t rp;
    if ((ck != CXCursor_ForStmt && ck != CXCursor_CXXForRangeStmt) ||
        !for_header_end(u, loop, &rp) || block_after(u, rp + 1, bb, be) < 0)
      return 0;
    if (k + 1 < levels) {
      size_t q = skip_blank(u, *bb);
      if (q < u->len && u->text[q] == '{')
        q = skip_blank(u, q + 1);
      loop = stmt_at(u, q);
      if (!loop)
        return 0;
    }
  }
  *loopp = loop;
  return 1;
}

/* --loop-level=iterations: POMP_Loop_iter_begin / _end around the body of
 * the construct's loop (the innermost of collapsed loops), inside a
 * do { } while (0) so that a continue still reaches the end event. */
static void rewrite_iterations(struct unit *u, struct pragma *p) {
  const struct stmt_rec *loop;
  size_t bb, be;
  if (collapse_count(u, p) < 1 || !construct_loop(u, p)) {
    warn_once_key(u, name_offset(u, p), "iterations",
                  "iteration events need a loop with a constant collapse "
                  "depth; none inserted here (reduced detail)");
    return;
  }
  if (!loop_body(u, p, &loop, &bb, &be))
    return;
  char *var = loop_variable(u, loop);
  int n = p->number;
  struct instr_buf b = {0};
  instr_buf_printf(&b, "{ POMP_Loop_iter_begin(pompt_d_%d.handle, " T_SELF ", ",
                   n);
  if (var)
    instr_buf_printf(&b,
                     u->lang == INSTR_LANG_CXX
                         ? "static_cast<POMPT_Int64_t>(%s)"
                         : "(POMPT_Int64_t)(%s)",
                     var);
  else
    instr_buf_puts(&b, "0");
  instr_buf_puts(&b, "); do { ");
  add_edit(u, bb, bb, 0, p->depth + 1, &b);
  instr_buf_printf(
      &b, " } while (0); POMP_Loop_iter_end(pompt_d_%d.handle, " T_SELF "); }",
      n);
  add_close_edit(u, be, p->depth + 1, &b, NO_SITE);
  free(var);
}

/* --loop-level=chunks, static schedule with a chunk size: the body asks
 * for the thread's (or the team's, ev "Distribute") next chunk when the
 * current one is used up (one decrement and a branch per iteration; the
 * call once per chunk). */
static void rewrite_chunk_check(struct unit *u, struct pragma *p,
                                const char *ev) {
  const struct stmt_rec *loop;
  size_t bb, be;
  if (!loop_body(u, p, &loop, &bb, &be))
    return;
  int n = p->number;
  struct instr_buf b = {0};
  instr_buf_printf(&b,
                   "{ if (--pompt_ch_%d.pomp_left < 0) "
                   "POMP_%s_chunk_next(pompt_d_%d.handle, " T_SELF
                   ", &pompt_ch_%d); ",
                   n, ev, n, n);
  add_edit(u, bb, bb, 0, p->depth + 1, &b);
  instr_buf_puts(&b, " }");
  add_close_edit(u, be, p->depth + 1, &b, NO_SITE);
}

/* --loop-level=chunks: the chunks of dynamic, guided, runtime and ordered
 * loops come from libgomp's GOMP_loop_*_start / _next.  The unit's calls
 * of them go to libpompt's pompt_GOMP_loop_* instead, which report each
 * chunk: an assembler alias per entry, so that GCC's calls (it emits them
 * itself, past any declaration) name libpompt's, and only in this unit.
 * The list is bridge_loop.c's. */
static const char *const chunk_entries[] = {
#define LOOP_ENTRY_NAME(family, name) #name,
    GOMP_LOOP_ENTRIES(LOOP_ENTRY_NAME)
#undef LOOP_ENTRY_NAME
};

static void append_chunk_aliases(const struct unit *u, struct instr_buf *out) {
  if (!u->chunk_aliases)
    return;
  if (out->len > 0 && out->data[out->len - 1] != '\n')
    instr_buf_putc(out, '\n');
  instr_buf_puts(out, "__asm__(");
  for (size_t i = 0; i < sizeof chunk_entries / sizeof chunk_entries[0]; i++)
    instr_buf_printf(out, "%s\".set GOMP_loop_%s, pompt_GOMP_loop_%s\\n\"",
                     i ? "\n        " : "", chunk_entries[i], chunk_entries[i]);
  instr_buf_puts(out, ");\n");
}

static int has_inscan(const struct unit *u, const struct pragma *p) {
  return any_reduction_modifier(u, p, "inscan");
}

/* The construct whose pragma line starts the block [b, e) of a construct
 * and that is all of it (a block without braces, or braces around it
 * alone), else NULL. */
static struct pragma *sole_construct(struct unit *u, size_t b, size_t e) {
  size_t q = skip_blank(u, b);
  int braced = q < e && u->text[q] == '{';
  if (braced)
    q = skip_blank(u, q + 1);
  if (q >= e)
    return NULL;
  size_t li = line_of(u, q);
  if (u->text[q] != '#' || line_first(u, li) != q || u->pragma_of_line[li] < 0)
    return NULL;
  struct pragma *in = &u->pragmas[u->pragma_of_line[li]];
  if (in->block_state != 2)
    return NULL;
  size_t after = skip_blank(u, in->send);
  if (braced ? !(after < e && u->text[after] == '}' && after + 1 == e)
             : after < e)
    return NULL;
  return in;
}

/* A parallel construct whose block is one worksharing loop or sections
 * construct with reduction clauses (#pragma omp parallel, then #pragma omp
 * for reduction(...)) means what the combined construct means, whose
 * clauses go on the parallel leaf (reduction_on_parallel): the
 * worksharing construct's are moved there, so that GCC combines after the
 * region's block, where libpompt sees it.  Only where nothing changes:
 * no modifier but a reduction operator, the region's default data-sharing
 * shared, and no clause of the parallel construct naming a list item. */
static void hoist_reductions(struct unit *u, struct pragma *p) {
  if (p->nleaves != 1 || p->leaves[0] != LK_PARALLEL || !p->instrument ||
      p->block_state != 2 || p->default_private ||
      find_clause(p, OMP_CLAUSE_REDUCTION))
    return;
  struct pragma *q = sole_construct(u, p->sbegin, p->send);
  if (!q || !q->instrument || q->nleaves != 1 || q->cancel_inside ||
      (q->leaves[0] != LK_FOR && q->leaves[0] != LK_SECTIONS) ||
      !find_clause(q, OMP_CLAUSE_REDUCTION))
    return;
  struct name_list items = {0}, named = {0};
  int movable = 1;
  for (size_t i = 0; i < q->nclauses; i++)
    if (q->clauses[i].kind == OMP_CLAUSE_REDUCTION &&
        !reduction_movable(u, q, &q->clauses[i]))
      movable = 0;
  add_items(&items, u, q, OMP_CLAUSE_REDUCTION);
  static const enum omp_clause_kind naming[] = {
      OMP_CLAUSE_PRIVATE, OMP_CLAUSE_FIRSTPRIVATE, OMP_CLAUSE_SHARED,
      OMP_CLAUSE_COPYIN,  OMP_CLAUSE_ALLOCATE,     OMP_CLAUSE_LASTPRIVATE,
      OMP_CLAUSE_LINEAR,  OMP_CLAUSE_OTHER};
  for (const enum omp_clause_kind *k = naming; *k != OMP_CLAUSE_OTHER; k++)
    add_items(&named, u, p, *k);
  for (size_t i = 0; movable && i < items.n; i++)
    if (name_list_has(&named, items.v[i], strlen(items.v[i])))
      movable = 0;
  if (movable && items.n > 0) {
    p->hoist_from = (int)(q - u->pragmas) + 1;
    q->hoisted = 1;
  }
  name_list_free(&items);
  name_list_free(&named);
}

static void rewrite_construct(struct unit *u, struct pragma *p) {
  struct leaf_out lo[MAX_LEAVES];
  memset(lo, 0, sizeof lo);
  for (int i = 0; i < p->nleaves; i++)
    leaf_decls(u, p, i, &lo[i]);
  for (int i = 0; i < p->nleaves; i++)
    build_leaf(u, p, i, &lo[i]);
  if (is_standalone_leaf(p->leaves[0]))
    emit_standalone(u, p, &lo[0]);
  else
    emit_block_chain(u, p, lo);
  for (int i = 0; i < p->nleaves; i++)
    leaf_out_free(&lo[i]);

  enum leaf_kind last = p->leaves[p->nleaves - 1];
  if (last == LK_SECTIONS && ((p->leaf_on >> (p->nleaves - 1)) & 1u))
    rewrite_sections_list(u, p);
  int last_on = (p->leaf_on >> (p->nleaves - 1)) & 1u;
  if (u->opts->loop_level == INSTR_LOOP_CHUNKS && last == LK_FOR && last_on) {
    int check;
    chunk_schedule(u, p, last, &check);
    if (check)
      rewrite_chunk_check(u, p, "Loop");
  }
  if (u->opts->loop_level == INSTR_LOOP_CHUNKS && last == LK_DISTRIBUTE &&
      last_on) {
    int check;
    distribute_chunk_schedule(u, p, last, 0, &check);
    if (check)
      rewrite_chunk_check(u, p, "Distribute");
  }
  if (u->opts->loop_level == INSTR_LOOP_ITERATIONS &&
      (last == LK_FOR || last == LK_TASKLOOP) && last_on) {
    if (has_inscan(u, p))
      warn_once_key(u, name_offset(u, p), "inscan",
                    "no iteration events in a loop with an inscan reduction "
                    "(reduced detail)");
    else
      rewrite_iterations(u, p);
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

/* ---- User directives and API calls ----------------------------------------
 */

/* After a #pragma pomp line: the call it stands for. */
static void rewrite_pomp(struct unit *u, struct pragma *p) {
  struct instr_buf b = {0};
  int n = p->pomp == PD_END ? u->pragmas[p->partner].number : p->number;
  switch (p->pomp) {
  case PD_BEGIN:
    instr_buf_printf(&b,
                     " POMP_User_region_begin(&pompt_d_%d.handle, " T_SELF
                     ", pompt_ctc_%d);",
                     n, n);
    break;
  case PD_END:
    instr_buf_printf(
        &b, " POMP_User_region_end(pompt_d_%d.handle, " T_SELF ");" NO_TAIL, n);
    break;
  case PD_EVENT:
    instr_buf_printf(
        &b, " POMP_User_event(&pompt_d_%d.handle, " T_SELF ", pompt_ctc_%d);",
        n, n);
    break;
  case PD_INIT:
    instr_buf_puts(&b, " POMP_Init();");
    break;
  case PD_FINALIZE:
    instr_buf_puts(&b, " POMP_Finalize();");
    break;
  case PD_ON:
    instr_buf_puts(&b, " POMP_On();");
    break;
  case PD_OFF:
    instr_buf_puts(&b, " POMP_Off();");
    break;
  default:
    return;
  }
  size_t at = p->line + 1 < u->nlines ? u->lstart[p->line + 1] : u->len;
  if (at == u->len && (u->len == 0 || u->text[u->len - 1] != '\n')) {
    struct instr_buf nl = {0};
    instr_buf_putc(&nl, '\n');
    instr_buf_add(&nl, b.data, b.len);
    instr_buf_free(&b);
    b = nl;
  }
  instr_buf_putc(&b, '\n');
  if (at < u->len)
    emit_marker(u, &b, at);
  add_edit(u, at, at, 1, p->depth, &b);
}

/* omp_set_lock(l) -> POMP_Api_omp_set_lock(&pompt_d_N.handle, pompt_ctc_N,
 * l). */
static void rewrite_call(struct unit *u, struct api_call *a) {
  struct instr_buf b = {0};
  instr_buf_printf(&b, "POMP_Api_%s", api_routines[a->routine]);
  add_edit(u, a->name_b, a->name_e, 0, INT_MAX, &b);
  instr_buf_printf(&b, "&pompt_d_%d.handle, pompt_ctc_%d%s", a->number,
                   a->number, a->nargs > 0 ? ", " : "");
  add_edit(u, a->args, a->args, 0, INT_MAX, &b);
}

/* ---- CTC strings
 * --------------------------------------------------------------- */

/* "parallel for" -> "parallelfor". */
static void ctc_type_of(const struct pragma *p, char *out, size_t size) {
  const char *n = omp_directive_kind_name(p->kind);
  size_t o = 0;
  for (; *n && o + 1 < size; n++)
    if (*n != ' ')
      out[o++] = *n;
  out[o] = '\0';
}

static void ctc_trimmed(struct ctc_builder *c, const char *key, const char *t,
                        size_t b, size_t e) {
  while (b < e && is_space(t[b]))
    b++;
  while (e > b && is_space(t[e - 1]))
    e--;
  /* Blanks inside (a line continuation) become one blank. */
  struct instr_buf v = {0};
  for (size_t i = b; i < e; i++) {
    if (is_space(t[i]) ||
        (t[i] == '\\' && i + 1 < e && (t[i + 1] == '\n' || t[i + 1] == '\r'))) {
      if (v.len && v.data[v.len - 1] != ' ')
        instr_buf_putc(&v, ' ');
    } else {
      instr_buf_putc(&v, t[i]);
    }
  }
  ctc_add(c, key, v.data ? v.data : "", v.len);
  instr_buf_free(&v);
}

static void build_ctc(struct unit *u, struct pragma *p) {
  struct ctc_builder c = {0};
  const char *t = ptext(u, p);
  const struct line_rec *r = rec_at(u, p->lbegin);
  unsigned last = r->line;
  if (!p->standalone && p->block_state == 2 && p->send > p->sbegin)
    last = rec_at(u, p->send - 1)->line;
  if (p->pomp) {
    ctc_add_str(&c, "type", "region");
    ctc_add_str(&c, "file", u->files[r->file].name);
    if (p->partner >= 0)
      last = rec_at(u, u->pragmas[p->partner].lbegin)->line;
    ctc_add_lines(&c, r->line, last);
    ctc_trimmed(&c, "name", t, p->uname_b - p->tbegin, p->uname_e - p->tbegin);
    p->ctc = ctc_finish(&c);
    return;
  }
  char type[64];
  ctc_type_of(p, type, sizeof type);
  int combined_target =
      p->nleaves > 0 && p->leaves[0] == LK_TARGET && p->kind != OMP_DIR_TARGET;
  ctc_add_str(&c, "type", combined_target ? "target" : type);
  ctc_add_str(&c, "file", u->files[r->file].name);
  ctc_add_lines(&c, r->line, last);
  if (combined_target)
    ctc_add_str(&c, "construct", omp_directive_kind_name(p->kind));
  if (p->kind == OMP_DIR_CRITICAL && p->has_critical_name)
    ctc_trimmed(&c, "name", t, p->critical_name.begin, p->critical_name.end);
  const struct omp_clause *s = find_clause(p, OMP_CLAUSE_SCHEDULE);
  if (!s && p->nleaves > 0 && p->leaves[p->nleaves - 1] >= LK_DISTRIBUTE)
    s = find_clause(p, OMP_CLAUSE_DIST_SCHEDULE);
  if (s && s->n_items >= 1) {
    ctc_trimmed(&c, "schedule", t, s->items[0].begin, s->items[0].end);
    long long v;
    if (s->n_items >= 2 &&
        is_int_literal(t + s->items[1].begin,
                       s->items[1].end - s->items[1].begin, &v))
      ctc_add_int(&c, "chunk", v);
  }
  /* sections: how many there are, the count of its work region (OpenMP
   * 5.2: work(ompt_work_sections) reports the number of sections). */
  if (p->nleaves > 0 && p->leaves[p->nleaves - 1] == LK_SECTIONS)
    ctc_add_int(&c, "numSections", (long long)p->nsecs);
  /* Valued attributes of the constructs that came after the seed. */
  if (p->kind == OMP_DIR_CANCEL || p->kind == OMP_DIR_CANCELLATION_POINT) {
    static const enum omp_clause_kind ct[] = {
        OMP_CLAUSE_PARALLEL, OMP_CLAUSE_FOR, OMP_CLAUSE_SECTIONS,
        OMP_CLAUSE_TASKGROUP};
    for (size_t i = 0; i < sizeof ct / sizeof ct[0]; i++)
      if (find_clause(p, ct[i]))
        ctc_add_str(&c, "constructType", omp_clause_kind_name(ct[i]));
  }
  const struct omp_clause *f = find_clause(p, OMP_CLAUSE_FILTER);
  if (f && f->n_items >= 1) {
    long long v;
    if (is_int_literal(t + f->items[0].begin,
                       f->items[0].end - f->items[0].begin, &v))
      ctc_add_int(&c, "filter", v);
  }
  if (p->kind == OMP_DIR_ATOMIC) {
    static const enum omp_clause_kind ops[] = {
        OMP_CLAUSE_READ, OMP_CLAUSE_WRITE, OMP_CLAUSE_UPDATE,
        OMP_CLAUSE_CAPTURE, OMP_CLAUSE_COMPARE};
    struct instr_buf v = {0};
    for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++)
      if (find_clause(p, ops[i])) {
        if (v.len)
          instr_buf_putc(&v, ',');
        instr_buf_puts(&v, omp_clause_kind_name(ops[i]));
      }
    ctc_add_str(&c, "atomic", v.len ? v.data : "update");
    instr_buf_free(&v);
    static const enum omp_clause_kind mo[] = {
        OMP_CLAUSE_SEQ_CST, OMP_CLAUSE_ACQ_REL, OMP_CLAUSE_RELEASE,
        OMP_CLAUSE_ACQUIRE, OMP_CLAUSE_RELAXED};
    for (size_t i = 0; i < sizeof mo / sizeof mo[0]; i++)
      if (find_clause(p, mo[i]))
        ctc_add_str(&c, "memoryOrder", omp_clause_kind_name(mo[i]));
  }
  if (p->kind == OMP_DIR_ERROR) {
    const struct omp_clause *sev = find_clause(p, OMP_CLAUSE_SEVERITY);
    ctc_add_str(&c, "severity",
                sev && clause_is_word(t, sev, "warning") ? "warning" : "fatal");
  }
  const struct omp_clause *pb = find_clause(p, OMP_CLAUSE_PROC_BIND);
  if (pb && pb->n_items >= 1)
    ctc_trimmed(&c, "procBind", t, pb->items[0].begin, pb->items[0].end);
  static const struct {
    enum omp_clause_kind k;
    const char *attr;
  } flags[] = {
      /* seed 004, section 3.2, and the first version of this product */
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
      /* tasks */
      {OMP_CLAUSE_UNTIED, "hasUntied"},
      {OMP_CLAUSE_FINAL, "hasFinal"},
      {OMP_CLAUSE_MERGEABLE, "hasMergeable"},
      {OMP_CLAUSE_PRIORITY, "hasPriority"},
      {OMP_CLAUSE_DEPEND, "hasDepend"},
      {OMP_CLAUSE_DETACH, "hasDetach"},
      {OMP_CLAUSE_AFFINITY, "hasAffinity"},
      {OMP_CLAUSE_IN_REDUCTION, "hasInReduction"},
      {OMP_CLAUSE_TASK_REDUCTION, "hasTaskReduction"},
      {OMP_CLAUSE_GRAINSIZE, "hasGrainsize"},
      {OMP_CLAUSE_NUM_TASKS, "hasNumTasks"},
      {OMP_CLAUSE_NOGROUP, "hasNogroup"},
      /* others */
      {OMP_CLAUSE_PROC_BIND, "hasProcBind"},
      {OMP_CLAUSE_FILTER, "hasFilter"},
      {OMP_CLAUSE_HINT, "hasHint"},
      {OMP_CLAUSE_LINEAR, "hasLinear"},
      {OMP_CLAUSE_SAFELEN, "hasSafelen"},
      {OMP_CLAUSE_SIMDLEN, "hasSimdlen"},
      {OMP_CLAUSE_ALIGNED, "hasAligned"},
      {OMP_CLAUSE_ORDER, "hasOrder"},
      {OMP_CLAUSE_BIND, "hasBind"},
      {OMP_CLAUSE_ALLOCATE, "hasAllocate"},
      {OMP_CLAUSE_THREADS, "hasThreads"},
      {OMP_CLAUSE_SIMD, "hasSimd"},
      {OMP_CLAUSE_MESSAGE, "hasMessage"},
      /* the target family */
      {OMP_CLAUSE_DEVICE, "hasDevice"},
      {OMP_CLAUSE_MAP, "hasMap"},
      {OMP_CLAUSE_NUM_TEAMS, "hasNumTeams"},
      {OMP_CLAUSE_THREAD_LIMIT, "hasThreadLimit"},
      {OMP_CLAUSE_DIST_SCHEDULE, "hasDistSchedule"},
  };
  for (size_t i = 0; i < sizeof flags / sizeof flags[0]; i++)
    if (find_clause(p, flags[i].k))
      ctc_add_str(&c, flags[i].attr, "1");
  /* A reduction on the parallel leaf of a parallel construct or its
   * combined form: GCC combines after the region's block, which libpompt
   * can bracket (doc/ompt-mapping.md, *Reductions*). */
  int par_leaf = p->nleaves > 0 && p->leaves[0] == LK_PARALLEL;
  if (p->hoist_from)
    ctc_add_str(&c, "parallelReduction", "1");
  for (size_t i = 0;
       !p->hoist_from && par_leaf && p->clauses && i < p->nclauses; i++)
    if (p->clauses[i].kind == OMP_CLAUSE_REDUCTION &&
        (p->nleaves == 1 || reduction_on_parallel(u, p, &p->clauses[i]))) {
      ctc_add_str(&c, "parallelReduction", "1");
      break;
    }
  p->ctc = ctc_finish(&c);
}

static void build_call_ctc(struct unit *u, struct api_call *a) {
  struct ctc_builder c = {0};
  const struct line_rec *r = rec_at(u, a->begin);
  ctc_add_str(&c, "type", "runtime");
  ctc_add_str(&c, "file", u->files[r->file].name);
  ctc_add_lines(&c, r->line, r->line);
  ctc_add_str(&c, "name", api_routines[a->routine]);
  a->ctc = ctc_finish(&c);
}

/* ---- Driver
 * ------------------------------------------------------------------- */

/* Warns once per file and key. */
static void warn_once_key(struct unit *u, size_t off, const char *key,
                          const char *fmt, ...) {
  const struct line_rec *r = rec_at(u, off);
  struct instr_buf k = {0};
  instr_buf_printf(&k, "%d\n%s", (int)r->file, key);
  for (size_t i = 0; i < u->nwarned; i++) {
    if (strcmp(u->warned[i], k.data) == 0) {
      instr_buf_free(&k);
      return;
    }
  }
  u->warned = instr_xrealloc(u->warned, (u->nwarned + 1) * sizeof *u->warned);
  u->warned[u->nwarned++] = instr_buf_take(&k);
  va_list ap;
  va_start(ap, fmt);
  vdiag(u, off, "warning", fmt, ap);
  va_end(ap);
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
 * instrumented place.  -1 if the POMP API is not declared before that
 * either. */
static int place_definitions(struct unit *u) {
  if (u->defs_marker && declares_pomp(u, u->defs_at))
    return 0;
  size_t first = u->nsites ? u->sites[0].off : SIZE_MAX;
  for (size_t i = 0; i < u->npragmas; i++)
    if (u->pragmas[i].pomp && u->pragmas[i].lbegin < first)
      first = u->pragmas[i].lbegin;
  size_t off[2] = {first, SIZE_MAX};
  if (first != SIZE_MAX && u->tu)
    clang_visitChildren(clang_getTranslationUnitCursor(u->tu), find_toplevel,
                        off);
  if (off[1] == SIZE_MAX && first != SIZE_MAX && !u->tu)
    off[1] = first; /* no AST: a #pragma pomp line at file scope */
  if (off[1] == SIZE_MAX || off[1] > u->len)
    return -1;
  size_t at = u->lstart[line_of(u, off[1])];
  if (!declares_pomp(u, at))
    return -1;
  u->defs_at = at;
  u->defs_marker = 0;
  return 0;
}

/* Does section list secs[0..n) of q contain off (excluding the section
 * that starts at self)? */
static int in_section(const struct pragma *q, size_t off) {
  size_t lo = 0, hi = q->nsecs;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (q->secs[mid].send <= off)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo < q->nsecs && q->secs[lo].sbegin <= off && off < q->secs[lo].send;
}

static int counts_as_block(const struct pragma *q) {
  return (q->instrument || q->default_private) && q->block_state == 2;
}

/* Nesting depths, in one sweep: twice the number of instrumented blocks
 * (constructs' and sections') that contain each pragma line, so that the
 * events of a loop's iterations (depth + 1) sort between a construct and
 * the constructs inside its loop. */
static void compute_depths(struct unit *u) {
  size_t *stack = instr_xmalloc((u->npragmas + 1) * sizeof *stack);
  size_t sp = 0;
  for (size_t i = 0; i < u->npragmas; i++) {
    struct pragma *p = &u->pragmas[i];
    while (sp > 0 && u->pragmas[stack[sp - 1]].send <= p->lbegin)
      sp--;
    int d = 0;
    for (size_t k = 0; k < sp; k++) {
      const struct pragma *q = &u->pragmas[stack[k]];
      d += 2;
      if (q->instrument && q->nsecs && in_section(q, p->lbegin))
        d += 2;
    }
    p->depth = d;
    for (size_t k = 0; k < p->nsecs; k++)
      p->secs[k].depth = d + 2;
    if ((p->kind == OMP_DIR_CANCEL || p->kind == OMP_DIR_CANCELLATION_POINT) &&
        find_clause(p, OMP_CLAUSE_PARALLEL))
      u->cancel_parallel = 1;
    /* A cancel for / cancel sections binds to the innermost enclosing
     * loop / sections construct, whose implicit barrier must stay. */
    int cfor = p->kind == OMP_DIR_CANCEL && find_clause(p, OMP_CLAUSE_FOR);
    int csec = p->kind == OMP_DIR_CANCEL && find_clause(p, OMP_CLAUSE_SECTIONS);
    for (size_t k = sp; (cfor || csec) && k-- > 0;) {
      struct pragma *q = &u->pragmas[stack[k]];
      enum leaf_kind last = q->nleaves ? q->leaves[q->nleaves - 1] : LK_COUNT;
      if ((cfor && (last == LK_FOR || last == LK_FOR_SIMD)) ||
          (csec && last == LK_SECTIONS)) {
        q->cancel_inside = 1;
        break;
      }
    }
    if (counts_as_block(p))
      stack[sp++] = i;
  }
  free(stack);
}

static int interval_cmp(const void *a, const void *b) {
  const struct interval *x = a, *y = b;
  return x->b < y->b ? -1 : x->b > y->b;
}

/* Sorts and merges the intervals into disjoint ones. */
static size_t merge_intervals(struct interval *v, size_t n) {
  if (n == 0)
    return 0;
  qsort(v, n, sizeof *v, interval_cmp);
  size_t o = 0;
  for (size_t i = 1; i < n; i++) {
    if (v[i].b < v[o].e) {
      if (v[i].e > v[o].e)
        v[o].e = v[i].e;
    } else {
      v[++o] = v[i];
    }
  }
  return o + 1;
}

static int in_intervals(const struct interval *v, size_t n, size_t off) {
  size_t lo = 0, hi = n;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (v[mid].e <= off)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo < n && v[lo].b <= off && off < v[lo].e;
}

static void push_interval(struct interval **v, size_t *n, size_t *cap, size_t b,
                          size_t e) {
  if (*n == *cap) {
    *cap = *cap ? *cap * 2 : 16;
    *v = instr_xrealloc(*v, *cap * sizeof **v);
  }
  (*v)[*n].b = b;
  (*v)[*n].e = e;
  (*n)++;
}

static int site_cmp(const void *a, const void *b) {
  const struct site *x = a, *y = b;
  return x->off < y->off ? -1 : x->off > y->off;
}

static int call_cmp(const void *a, const void *b) {
  const struct api_call *x = a, *y = b;
  return x->begin < y->begin ? -1 : x->begin > y->begin;
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
    struct pragma *p = &u->pragmas[i];
    if (p->repl)
      for (size_t k = 0; k < p->nclauses; k++)
        free(p->repl[k]);
    free(p->repl);
    free(p->clauses);
    free(p->secs);
    free(p->ctc);
  }
  free(u->pragmas);
  free(u->pragma_of_line);
  free(u->stmts);
  for (size_t i = 0; i < u->ndiags; i++)
    free(u->diags[i].msg);
  free(u->diags);
  for (size_t i = 0; i < u->ncalls; i++)
    free(u->calls[i].ctc);
  free(u->calls);
  free(u->sites);
  free(u->target_iv);
  free(u->quiet_iv);
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

int instr_parse_groups(const char *list, unsigned *mask, const char **bad) {
  static const struct {
    const char *name;
    unsigned bit;
  } groups[] = {
      {"parallel", INSTR_GROUP_PARALLEL},   {"loop", INSTR_GROUP_LOOP},
      {"workshare", INSTR_GROUP_WORKSHARE}, {"sync", INSTR_GROUP_SYNC},
      {"task", INSTR_GROUP_TASK},           {"runtime", INSTR_GROUP_RUNTIME},
      {"user", INSTR_GROUP_USER},           {"target", INSTR_GROUP_TARGET}};
  const char *p = list;
  for (;;) {
    const char *e = strchr(p, ',');
    size_t n = e ? (size_t)(e - p) : strlen(p);
    int found = 0;
    for (size_t i = 0; i < sizeof groups / sizeof groups[0]; i++)
      if (strlen(groups[i].name) == n && strncmp(groups[i].name, p, n) == 0) {
        *mask |= groups[i].bit;
        found = 1;
      }
    if (!found && n > 0) {
      *bad = p;
      return -1;
    }
    if (!e)
      return 0;
    p = e + 1;
  }
}

/* Pairs the user regions and marks the noinstrument ranges. */
static void user_directives(struct unit *u, struct interval **quiet, size_t *nq,
                            size_t *capq) {
  size_t *open = instr_xmalloc((u->npragmas + 1) * sizeof *open);
  size_t nopen = 0, noinst_from = SIZE_MAX;
  for (size_t i = 0; i < u->npragmas; i++) {
    struct pragma *p = &u->pragmas[i];
    switch (p->pomp) {
    case PD_BEGIN:
      open[nopen++] = i;
      break;
    case PD_END: {
      if (nopen == 0) {
        error_at(u, p->uname_b,
                 "'#pragma pomp inst end(%.*s)' without a matching "
                 "'#pragma pomp inst begin'",
                 (int)(p->uname_e - p->uname_b), u->text + p->uname_b);
        break;
      }
      struct pragma *b = &u->pragmas[open[nopen - 1]];
      size_t bn = b->uname_e - b->uname_b, en = p->uname_e - p->uname_b;
      if (bn != en || memcmp(u->text + b->uname_b, u->text + p->uname_b, bn)) {
        error_at(u, p->uname_b,
                 "'#pragma pomp inst end(%.*s)' does not match the open user "
                 "region '%.*s' (line %u)",
                 (int)en, u->text + p->uname_b, (int)bn, u->text + b->uname_b,
                 (unsigned)rec_at(u, b->lbegin)->line);
        break;
      }
      p->partner = (int)open[--nopen];
      b->partner = (int)i;
      break;
    }
    case PD_NOINSTRUMENT:
      if (noinst_from == SIZE_MAX)
        noinst_from = p->lend;
      break;
    case PD_INSTRUMENT:
      if (noinst_from != SIZE_MAX)
        push_interval(quiet, nq, capq, noinst_from, p->lbegin);
      noinst_from = SIZE_MAX;
      break;
    default:
      break;
    }
  }
  if (noinst_from != SIZE_MAX)
    push_interval(quiet, nq, capq, noinst_from, u->len);
  for (size_t k = 0; k < nopen; k++) {
    struct pragma *b = &u->pragmas[open[k]];
    error_at(u, b->uname_b,
             "'#pragma pomp inst begin(%.*s)' has no matching "
             "'#pragma pomp inst end'",
             (int)(b->uname_e - b->uname_b), u->text + b->uname_b);
  }
  free(open);
}

/* Is there an identifier starting with "omp_" in a line outside system
 * headers?  (Without one there are no API calls to look for.) */
static int mentions_api(const struct unit *u) {
  for (size_t li = 0; li < u->nlines; li++) {
    if (u->lines[li].sys || u->lines[li].marker)
      continue;
    const char *b = u->text + u->lstart[li], *e = u->text + line_end(u, li);
    for (const char *q = b; q + 4 <= e; q++) {
      q = memchr(q, 'o', (size_t)(e - q));
      if (!q || q + 4 > e)
        break;
      if (memcmp(q, "omp_", 4) == 0 && (q == b || !is_idch(q[-1])))
        return 1;
    }
  }
  return 0;
}

/* Whether text holds word (a whole identifier). */
static int has_token(const char *text, size_t len, const char *word) {
  size_t n = strlen(word);
  for (size_t i = 0; i + n <= len; i++)
    if (text[i] == word[0] && memcmp(text + i, word, n) == 0 &&
        (i == 0 || !is_idch(text[i - 1])) &&
        (i + n == len || !is_idch(text[i + n])))
      return 1;
  return 0;
}

int instr_rewrite_unit(const char *input_path, const char *text, size_t len,
                       const struct instr_options *opts,
                       struct instr_buf *out) {
  struct unit u;
  memset(&u, 0, sizeof u);
  u.path = input_path;
  u.text = text;
  u.len = len;
  u.opts = opts;
  u.lane = has_token(text, len, "POMPT_lane_x86_64");
  u.gomp_calls = has_token(text, len, "POMPT_gomp_x86_64");
  int rc = -1;
  struct interval *targets = NULL, *quiet = NULL;
  size_t ntargets = 0, captargets = 0, nquiet = 0, capquiet = 0;

  build_lines(&u);
  const char *main_name = u.files[u.main_file].name;
  u.lang = opts->lang != INSTR_LANG_AUTO ? opts->lang : lang_of(main_name);

  scan_pragmas(&u);
  if (u.errors)
    goto done;
  user_directives(&u, &quiet, &nquiet, &capquiet);
  if (u.errors)
    goto done;

  int need_ast = 0;
  for (size_t i = 0; i < u.npragmas && !need_ast; i++)
    if (u.pragmas[i].nleaves > 0)
      need_ast = 1;
  if (!need_ast && !(opts->disabled & INSTR_GROUP_RUNTIME) && mentions_api(&u))
    need_ast = 1;
  if (need_ast) {
    if (parse_with_clang(&u, opts) < 0)
      goto done;
    if (u.ncalls)
      qsort(u.calls, u.ncalls, sizeof *u.calls, call_cmp);
  }

  /* Blocks of every construct, the target regions and the quiet ones. */
  size_t declare_target_begin = SIZE_MAX;
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
      push_interval(&targets, &ntargets, &captargets, declare_target_begin,
                    p->lbegin);
      declare_target_begin = SIZE_MAX;
    }
    if (p->standalone) {
      if (needs_compound(p) && is_substatement(&u, p->lbegin))
        error_at(&u, name_offset(&u, p),
                 "'#pragma omp %s' may only be used in compound statements",
                 p->dname);
      continue;
    }
    if (pragma_block(&u, p) < 0) {
      if (p->nleaves > 0)
        block_not_found(&u, p);
      continue;
    }
    if (p->target)
      push_interval(&targets, &ntargets, &captargets, p->sbegin, p->send);
    if (p->quiet)
      push_interval(&quiet, &nquiet, &capquiet, p->sbegin, p->send);
  }
  if (u.errors)
    goto done;
  ntargets = merge_intervals(targets, ntargets);
  nquiet = merge_intervals(quiet, nquiet);

  /* Which constructs are instrumented. */
  size_t nsites = 0;
  for (size_t i = 0; i < u.npragmas; i++) {
    struct pragma *p = &u.pragmas[i];
    int in_target = in_intervals(targets, ntargets, p->lbegin);
    int in_quiet = in_intervals(quiet, nquiet, p->lbegin);
    if (p->pomp) {
      if ((p->pomp == PD_BEGIN || p->pomp == PD_EVENT) && !in_target &&
          !in_quiet && !(opts->disabled & INSTR_GROUP_USER)) {
        p->instrument = 1;
        nsites++;
      }
      continue;
    }
    if (p->nleaves > 0) {
      if (in_target) {
        if (!u.warned_target)
          warning_at(&u, name_offset(&u, p),
                     "constructs inside target regions are not instrumented; "
                     "passed through");
        u.warned_target = 1;
        continue;
      }
      if (in_quiet)
        continue;
      for (int k = 0; k < p->nleaves; k++)
        if (!(opts->disabled & leaf_info[p->leaves[k]].group))
          p->leaf_on |= 1u << k;
      if (p->leaf_on) {
        p->instrument = 1;
        nsites++;
      }
      continue;
    }
    if (p->declarative || in_target || in_quiet)
      continue;
    if (p->kind == OMP_DIR_SECTION || p->kind == OMP_DIR_SCAN ||
        p->kind == OMP_DIR_NOTHING || p->kind == OMP_DIR_ERROR)
      continue;
    /* Loop transformations and assumptions change no run-time behaviour a
     * tool observes (OMPT has no event for them): nothing is lost. */
    if (p->kind == OMP_DIR_UNROLL || p->kind == OMP_DIR_TILE ||
        p->kind == OMP_DIR_ASSUME)
      continue;
    /* A stand-alone (doacross) ordered needs no event: libpompt reports
     * its dependences from the libgomp entries GCC calls for it. */
    if (p->kind == OMP_DIR_ORDERED)
      continue;
    warn_once_key(&u, name_offset(&u, p), p->dname,
                  "'%s' is not instrumented; passed through", p->dname);
  }
  for (size_t i = 0; i < u.ncalls; i++)
    if (!in_intervals(targets, ntargets, u.calls[i].begin) &&
        !in_intervals(quiet, nquiet, u.calls[i].begin))
      nsites++;
    else
      u.calls[i].routine = -1;

  /* Sections, clang errors inside constructs. */
  for (size_t i = 0; i < u.npragmas; i++) {
    struct pragma *p = &u.pragmas[i];
    if (p->instrument && p->nleaves > 0 &&
        p->leaves[p->nleaves - 1] == LK_SECTIONS)
      find_sections(&u, p);
  }
  if (u.errors)
    goto done;
  for (size_t i = 0; i < u.npragmas; i++) {
    struct pragma *p = &u.pragmas[i];
    if (!p->instrument || p->pomp)
      continue;
    size_t end = p->standalone ? p->lend : p->send;
    size_t lo = 0, hi = u.ndiags; /* the first diagnostic at or after */
    while (lo < hi) {
      size_t mid = lo + (hi - lo) / 2;
      if (u.diags[mid].off < p->lbegin)
        lo = mid + 1;
      else
        hi = mid;
    }
    for (size_t k = lo; k < u.ndiags && u.diags[k].off < end; k++) {
      if (!u.diags[k].reported && !u.diags[k].gcc_accepts) {
        error_at(&u, u.diags[k].off, "%s", u.diags[k].msg);
        u.diags[k].reported = 1;
      }
    }
  }
  if (u.errors)
    goto done;

  /* The sites, numbered in source order. */
  u.sites = instr_xmalloc((nsites ? nsites : 1) * sizeof *u.sites);
  {
    size_t pi = 0, ci = 0;
    int number = 0;
    for (;;) {
      while (pi < u.npragmas && !u.pragmas[pi].instrument)
        pi++;
      while (ci < u.ncalls && u.calls[ci].routine < 0)
        ci++;
      if (pi >= u.npragmas && ci >= u.ncalls)
        break;
      int take_call =
          pi >= u.npragmas ||
          (ci < u.ncalls && u.calls[ci].begin < u.pragmas[pi].lbegin);
      struct site *st = &u.sites[u.nsites++];
      st->is_call = take_call;
      if (take_call) {
        st->off = u.calls[ci].begin;
        st->index = ci;
        u.calls[ci++].number = ++number;
      } else {
        st->off = u.pragmas[pi].lbegin;
        st->index = pi;
        u.pragmas[pi++].number = ++number;
      }
    }
  }
  qsort(u.sites, u.nsites, sizeof *u.sites, site_cmp);

  int have_pomp_lines = 0;
  for (size_t i = 0; i < u.npragmas; i++)
    if (u.pragmas[i].pomp >= PD_INIT && u.pragmas[i].pomp <= PD_OFF)
      have_pomp_lines = 1;
  if ((u.nsites > 0 || have_pomp_lines) && place_definitions(&u) < 0) {
    fprintf(stderr,
            "%s: error: the unit does not declare the POMP API before its "
            "first OpenMP "
            "construct; preprocess it with -include pomp.h (pomp-cc does)\n",
            input_path);
    u.errors++;
    goto done;
  }
  compute_depths(&u);

  for (size_t i = 0; i < u.npragmas; i++)
    if (!u.pragmas[i].pomp)
      hoist_reductions(&u, &u.pragmas[i]);

  /* The rewrites. */
  for (size_t i = 0; i < u.npragmas; i++) {
    struct pragma *p = &u.pragmas[i];
    if (p->pomp) {
      int user =
          p->pomp == PD_BEGIN || p->pomp == PD_END || p->pomp == PD_EVENT;
      if (p->pomp == PD_END && p->partner >= 0 &&
          u.pragmas[p->partner].instrument)
        rewrite_pomp(&u, p);
      else if (user && p->instrument)
        rewrite_pomp(&u, p);
      else if (!user && p->pomp != PD_NOINSTRUMENT &&
               p->pomp != PD_INSTRUMENT &&
               !in_intervals(targets, ntargets, p->lbegin))
        rewrite_pomp(&u, p);
      if (p->instrument)
        build_ctc(&u, p);
      continue;
    }
    if (!p->instrument) {
      if (p->default_private && p->block_state == 2)
        rewrite_default_clause(&u, p);
      continue;
    }
    build_ctc(&u, p);
    rewrite_construct(&u, p);
  }
  for (size_t i = 0; i < u.ncalls; i++) {
    if (u.calls[i].routine < 0)
      continue;
    build_call_ctc(&u, &u.calls[i]);
    rewrite_call(&u, &u.calls[i]);
  }

  /* Handle and CTC definitions before the main file's own text. */
  struct instr_buf defs = {0};
  for (size_t i = 0; i < u.nsites; i++) {
    const struct site *st = &u.sites[i];
    int n;
    site_names(&u, st, &n);
    const char *ctc =
        st->is_call ? u.calls[st->index].ctc : u.pragmas[st->index].ctc;
    instr_buf_printf(&defs, "static const char pompt_ctc_%d[] = ", n);
    ctc_emit_c_literal(&defs, ctc);
    /* In C++ the null handle is value-initialised (no literal 0 for a
     * pointer: -Wzero-as-null-pointer-constant; nullptr is C++11). */
    instr_buf_printf(&defs,
                     ";\nstatic POMPT_Desc_t pompt_d_%d = {%s, pompt_ctc_%d, "
                     "0};\n",
                     n, u.lang == INSTR_LANG_CXX ? "POMP_Handle_t()" : "0", n);
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
  append_chunk_aliases(&u, out);

  /* The per-file init function. */
  char *abs = absolute_path(main_name);
  uint64_t id = fnv1a64(FNV1A64_INIT, abs, strlen(abs) + 1);
  id = fnv1a64(id, text, len);
  free(abs);
  if (out->len > 0 && out->data[out->len - 1] != '\n')
    instr_buf_putc(out, '\n');
  const char *linkage = u.lang == INSTR_LANG_CXX ? "extern \"C\" " : "";
  /* Table-driven: a loop over one constant table of the descriptors costs
   * the compiler almost nothing, where one call per handle made this
   * function the most expensive one of a construct-dense unit to optimise
   * (doc/performance.md, "Compile time"). */
  if (u.nsites > 0) {
    instr_buf_puts(out, "static POMPT_Desc_t *const pompt_init_d[] = {");
    for (size_t k = 1; k <= u.nsites; k++) {
      const char *sep = k == 1 ? "" : k % 8 == 1 ? ",\n  " : ", ";
      instr_buf_printf(out, "%s&pompt_d_%zu", sep, k);
    }
    instr_buf_puts(out, "};\n");
  }
  instr_buf_printf(out, "%svoid POMP_Init_%016llx(void);\n", linkage,
                   (unsigned long long)id);
  instr_buf_printf(out, "%svoid POMP_Init_%016llx(void) {\n", linkage,
                   (unsigned long long)id);
  if (u.nsites > 0)
    instr_buf_printf(out,
                     "  unsigned long pompt_k;\n"
                     "  for (pompt_k = 0; pompt_k < %zuu; pompt_k++)\n"
                     "    POMP_Get_handle(&pompt_init_d[pompt_k]->handle, "
                     "pompt_init_d[pompt_k]->ctc);\n",
                     u.nsites);
  instr_buf_puts(out, "}\n");
  rc = 0;

done:
  free(targets);
  free(quiet);
  if (u.errors)
    rc = -1;
  free_unit(&u);
  return rc;
}
