/*
 * omp_directive.c -- run the clause grammar over one directive and turn its
 * elements into a directive kind, an optional directive argument and the
 * clauses (see omp_directive.h).
 */
#include "omp_directive.h"

#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "omp_clause_parser.h"
#define YYSTYPE OMPCLSTYPE
#include "omp_clause_lexer.h"

static const char *const directive_names[OMP_DIR_COUNT] = {[OMP_DIR_UNKNOWN] =
                                                               "unknown",
#define X(id, text) [OMP_DIR_##id] = text,
                                                           OMP_DIRECTIVE_LIST(X)
#undef X
};

static const char *const clause_names[OMP_CLAUSE_COUNT] = {[OMP_CLAUSE_OTHER] =
                                                               "other",
#define X(id, text) [OMP_CLAUSE_##id] = text,
                                                           OMP_CLAUSE_LIST(X)
#undef X
};

const char *omp_directive_kind_name(enum omp_directive_kind kind) {
  if ((unsigned)kind >= OMP_DIR_COUNT)
    return "unknown";
  return directive_names[kind];
}

const char *omp_clause_kind_name(enum omp_clause_kind kind) {
  if ((unsigned)kind >= OMP_CLAUSE_COUNT)
    return "other";
  return clause_names[kind];
}

const struct omp_clause *omp_directive_find(const struct omp_directive *d,
                                            enum omp_clause_kind kind) {
  for (size_t i = 0; i < d->n_clauses; i++)
    if (d->clauses[i].kind == kind)
      return &d->clauses[i];
  return NULL;
}

/* Directives whose name may be followed by a parenthesised argument. */
static int takes_argument(enum omp_directive_kind kind) {
  switch (kind) {
  case OMP_DIR_CRITICAL:
  case OMP_DIR_FLUSH:
  case OMP_DIR_THREADPRIVATE:
  case OMP_DIR_ALLOCATE:
  case OMP_DIR_DEPOBJ:
  case OMP_DIR_DECLARE_REDUCTION:
  case OMP_DIR_DECLARE_MAPPER:
  case OMP_DIR_DECLARE_VARIANT:
  case OMP_DIR_DECLARE_TARGET:
    return 1;
  default:
    return 0;
  }
}

static int span_is(const char *text, struct omp_span s, const char *word,
                   size_t n) {
  return s.end - s.begin == n && memcmp(text + s.begin, word, n) == 0;
}

static enum omp_clause_kind clause_kind(const char *text, struct omp_span s) {
  size_t n = s.end - s.begin;
  /* The longest clause name has 24 characters; the DIRECTIVE_ARG entry's
   * text starts with '(' and never matches. */
  if (n == 0 || n > 32)
    return OMP_CLAUSE_OTHER;
  for (int k = 1; k < OMP_CLAUSE_COUNT; k++) {
    const char *name = clause_names[k];
    if (name[0] == text[s.begin] && strlen(name) == n &&
        memcmp(name, text + s.begin, n) == 0)
      return (enum omp_clause_kind)k;
  }
  return OMP_CLAUSE_OTHER;
}

/* How many of the words w[0..n) the table entry `name` (words separated by
 * one blank) spells out, or 0 if it does not match a prefix of them. */
static size_t match_entry(const char *text, const struct omp_span *w, size_t n,
                          const char *name) {
  size_t used = 0;
  while (*name) {
    const char *end = strchr(name, ' ');
    size_t len = end ? (size_t)(end - name) : strlen(name);
    if (used == n || !span_is(text, w[used], name, len))
      return 0;
    used++;
    name += len;
    if (*name == ' ')
      name++;
  }
  return used;
}

/* Copy a clause, items in use only. */
static void copy_clause(struct omp_clause *dst, const struct omp_clause *src) {
  size_t n = src->n_items < OMP_MAX_ITEMS ? src->n_items : OMP_MAX_ITEMS;
  memcpy(dst, src, offsetof(struct omp_clause, items));
  memcpy(dst->items, src->items, n * sizeof src->items[0]);
}

/* Decide the directive name from the leading words (and the argument element
 * after them) and move what is left into the clause list. */
static int finish(struct omp_parse_ctx *ctx) {
  struct omp_directive *out = ctx->out;
  const char *text = ctx->text;
  struct omp_span w[OMP_PARSE_MAX_WORDS + 1];
  size_t nw = ctx->n_words, nc = nw;
  size_t best = 0;
  enum omp_directive_kind kind = OMP_DIR_UNKNOWN;

  memcpy(w, ctx->words, nw * sizeof w[0]);
  if (ctx->has_head_arg)
    w[nc++] = ctx->head_arg.name;

  for (int k = 1; k < OMP_DIR_COUNT; k++) {
    if (directive_names[k][0] != text[w[0].begin])
      continue;
    size_t m = match_entry(text, w, nc, directive_names[k]);
    if (m > nw && !takes_argument((enum omp_directive_kind)k))
      continue;
    if (m > best) {
      best = m;
      kind = (enum omp_directive_kind)k;
    }
  }
  /* An unknown directive is named by its first word. */
  if (best == 0)
    best = 1;
  int arg_used = best > nw; /* the argument element names the directive */
  size_t leftover = nw - (arg_used ? nw : best);
  int arg_clause = ctx->has_head_arg && !(arg_used && kind == OMP_DIR_CRITICAL);

  out->kind = kind;
  out->name.begin = w[0].begin;
  out->name.end = w[best - 1].end;

  /* Final clauses: leftover words, the argument element, the rest. */
  size_t shift = leftover + (size_t)arg_clause;
  size_t n_rest = out->n_clauses;
  if (n_rest + shift > OMP_MAX_CLAUSES) {
    size_t i = OMP_MAX_CLAUSES; /* the first clause too many */
    if (i < leftover)
      out->error_offset = w[best + i].begin;
    else if (i < shift)
      out->error_offset = ctx->head_arg.whole.begin;
    else
      out->error_offset = out->clauses[i - shift].whole.begin;
    snprintf(out->error, sizeof out->error, "too many clauses (at most %d)",
             OMP_MAX_CLAUSES);
    out->kind = OMP_DIR_UNKNOWN;
    out->name.begin = out->name.end = 0;
    out->n_clauses = 0;
    return -1;
  }
  if (shift > 0 && n_rest > 0)
    memmove(out->clauses + shift, out->clauses,
            n_rest * sizeof out->clauses[0]);
  for (size_t i = 0; i < leftover; i++) {
    struct omp_clause *c = &out->clauses[i];
    c->name = c->whole = w[best + i];
    c->has_args = 0;
    c->args.begin = c->args.end = c->name.end;
    c->modifier = c->args;
    c->n_items = 0;
  }
  if (arg_clause)
    copy_clause(&out->clauses[leftover], &ctx->head_arg);
  out->n_clauses = n_rest + shift;

  for (size_t i = 0; i < out->n_clauses; i++)
    out->clauses[i].kind = clause_kind(text, out->clauses[i].name);

  if (ctx->has_head_arg && arg_used) {
    if (kind == OMP_DIR_CRITICAL) {
      out->has_critical_name = 1;
      out->critical_name = ctx->head_arg.args;
    } else {
      struct omp_clause *c = &out->clauses[0];
      c->kind = OMP_CLAUSE_DIRECTIVE_ARG;
      c->name.begin = c->name.end = ctx->head_lparen;
      c->whole.begin = ctx->head_lparen;
    }
  }
  return 0;
}

int omp_directive_parse(const char *text, size_t len,
                        struct omp_directive *out) {
  struct omp_parse_ctx ctx;
  yyscan_t scanner;
  int rc;

  out->kind = OMP_DIR_UNKNOWN;
  out->name.begin = out->name.end = 0;
  out->has_critical_name = 0;
  out->critical_name.begin = out->critical_name.end = 0;
  out->n_clauses = 0;
  out->error_offset = 0;
  out->error[0] = '\0';

  if (len > INT_MAX) {
    snprintf(out->error, sizeof out->error, "directive too long");
    return -1;
  }

  memset(&ctx, 0, offsetof(struct omp_parse_ctx, nest_char));
  ctx.text = text;
  ctx.len = len;
  ctx.out = out;

  if (ompcllex_init_extra(&ctx, &scanner) != 0) {
    snprintf(out->error, sizeof out->error, "out of memory");
    return -1;
  }
  YY_BUFFER_STATE buf = ompcl_scan_bytes(text, (int)len, scanner);
  rc = ompclparse(scanner, &ctx);
  ompcl_delete_buffer(buf, scanner);
  ompcllex_destroy(scanner);

  if (rc != 0 || ctx.failed) {
    if (!ctx.failed) {
      out->error_offset = ctx.last.begin;
      snprintf(out->error, sizeof out->error, "syntax error");
    }
    out->kind = OMP_DIR_UNKNOWN;
    out->n_clauses = 0;
    out->has_critical_name = 0;
    return -1;
  }
  return finish(&ctx);
}
