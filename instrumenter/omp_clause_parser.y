/*
 * omp_clause_parser.y -- the grammar of one OpenMP directive: a sequence of
 * elements, each a bare name ("nowait") or a name with a parenthesised,
 * balanced token sequence ("reduction(+: a, b)"), optionally separated by
 * commas.  Which leading bare names form the directive name is decided after
 * the parse, by omp_directive.c, against the directive table.
 *
 * The actions only record byte spans: the leading bare words, the argument
 * element that directly follows them (a candidate for "critical(name)",
 * "flush(list)", ...), and the clauses after that, which are built in place
 * in the caller's struct omp_directive.  Inside a clause's parentheses the
 * tokens at depth 1 (as counted by the scanner) are split into a modifier
 * (before the first top-level ':' that does not complete a '?') and
 * comma-separated items.
 *
 * Pure parser, reentrant scanner: no global state.
 */

%define api.pure full
%define api.prefix {ompcl}
%define api.token.prefix {TK_}
%define api.value.type {struct omp_tok}
%define parse.error custom

%lex-param {yyscan_t scanner}
%parse-param {yyscan_t scanner} {struct omp_parse_ctx *ctx}

%code requires {
#include <stddef.h>

#include "omp_directive.h"

#ifndef YY_TYPEDEF_YY_SCANNER_T
#define YY_TYPEDEF_YY_SCANNER_T
typedef void *yyscan_t;
#endif

/* One token: its bytes [begin, end) in the directive text, and how many
 * brackets enclose it (an opening or closing bracket counts the brackets
 * around the pair). */
struct omp_tok {
  size_t begin, end;
  int depth;
};

/* Deepest bracket nesting the scanner accepts. */
#define OMP_PARSE_MAX_NEST 128
/* Leading bare words kept as directive-name candidates; more than the
 * longest directive name (6 words). */
#define OMP_PARSE_MAX_WORDS 8

/* The state of one parse, shared by scanner, parser and omp_directive.c.
 * Everything before nest_char starts zeroed. */
struct omp_parse_ctx {
  const char *text;
  size_t len;
  struct omp_directive *out;

  /* Scanner. */
  size_t pos;            /* offset of the next byte to scan */
  int nest;              /* open brackets: nest_char/nest_at[0..nest) */
  int last_kind;         /* kind of the last token returned (0 at the end) */
  struct omp_tok last;   /* ... and its span */
  const char *lex_error; /* message for a TK_LEXERROR token */

  /* Parser. */
  size_t n_words; /* leading bare words: words[0..n_words) */
  int head_done;    /* the leading words have ended */
  int has_head_arg; /* the element after them has an argument: head_arg */
  size_t head_lparen;       /* offset of head_arg's '(' */
  size_t n_elements;        /* elements seen, for error messages */
  struct omp_clause *cur;   /* the clause whose argument is being read */
  int cur_tokens;           /* tokens seen in cur's argument */
  int cur_split;            /* cur's modifier ':' has been seen */
  int cur_questions;        /* top-level '?' awaiting their ':' */
  int cur_item_open;        /* the current item has a token */
  int cur_after_comma;      /* the last top-level token was ',' */
  size_t cur_prev_end;      /* end of the last top-level token */
  size_t cur_item_begin, cur_item_end;
  int failed;               /* an error has been written to out->error */

  /* Written before they are read. */
  char nest_char[OMP_PARSE_MAX_NEST];
  size_t nest_at[OMP_PARSE_MAX_NEST];
  struct omp_span words[OMP_PARSE_MAX_WORDS];
  struct omp_clause head_arg;
};
}

%code {
#include <stdio.h>
#include <string.h>

#include "omp_clause_lexer.h"

static void yyerror(yyscan_t scanner, struct omp_parse_ctx *ctx,
                    const char *msg);
static int element_bare(struct omp_parse_ctx *ctx, struct omp_tok name);
static int element_open(struct omp_parse_ctx *ctx, struct omp_tok name,
                        struct omp_tok lparen);
static void element_close(struct omp_parse_ctx *ctx, struct omp_tok name,
                          struct omp_tok rparen);
static void note(struct omp_parse_ctx *ctx, struct omp_tok t, int kind);
}

%token IDENT NUMBER STRING CHARLIT SCOPE OTHER
%token LEXERROR
/* Punctuation is returned as the character itself: ( ) [ ] { } , : ? */

%%

directive:
    element
  | directive element
  | directive ',' { ctx->head_done = 1; }
  ;

element:
    IDENT                       { if (element_bare(ctx, $1)) YYABORT; }
  | IDENT '('                   { if (element_open(ctx, $1, $2)) YYABORT; }
    balanced ')'                { element_close(ctx, $1, $5); }
  ;

balanced:
    %empty
  | balanced token
  ;

token:
    IDENT       { note(ctx, $1, 0); }
  | NUMBER      { note(ctx, $1, 0); }
  | STRING      { note(ctx, $1, 0); }
  | CHARLIT     { note(ctx, $1, 0); }
  | SCOPE       { note(ctx, $1, 0); }
  | OTHER       { note(ctx, $1, 0); }
  | ','         { note(ctx, $1, ','); }
  | ':'         { note(ctx, $1, ':'); }
  | '?'         { note(ctx, $1, '?'); }
  | group       { note(ctx, $1, 0); }
  ;

group:
    '(' balanced ')' { $$ = $1; $$.end = $3.end; }
  | '[' balanced ']' { $$ = $1; $$.end = $3.end; }
  | '{' balanced '}' { $$ = $1; $$.end = $3.end; }
  ;

%%

static void fail(struct omp_parse_ctx *ctx, size_t offset, const char *msg) {
  if (ctx->failed)
    return;
  ctx->failed = 1;
  ctx->out->error_offset = offset;
  snprintf(ctx->out->error, sizeof ctx->out->error, "%s", msg);
}

static void yyerror(yyscan_t scanner, struct omp_parse_ctx *ctx,
                    const char *msg) {
  (void)scanner;
  /* Only "memory exhausted" reaches here; syntax errors are reported by
   * yyreport_syntax_error. */
  fail(ctx, ctx->last.begin, msg);
}

static const char *closer_of(char open) {
  return open == '(' ? ")" : open == '[' ? "]" : "}";
}

/* "<prefix>'x'" for the token t, with unprintable bytes escaped and long
 * text cut. */
static void describe(const struct omp_parse_ctx *ctx, struct omp_tok t,
                     char *buf, size_t size, const char *prefix) {
  size_t n = strlen(prefix);
  memcpy(buf, prefix, n);
  buf[n++] = '\'';
  for (size_t i = t.begin; i < t.end && n + 8 < size; i++) {
    unsigned char c = (unsigned char)ctx->text[i];
    if (i - t.begin == 24) {
      memcpy(buf + n, "...", 3);
      n += 3;
      break;
    }
    if (c >= 0x20 && c < 0x7f && c != '\\') {
      buf[n++] = (char)c;
    } else {
      snprintf(buf + n, size - n, "\\x%02x", c);
      n += 4;
    }
  }
  buf[n++] = '\'';
  buf[n] = '\0';
}

static int yyreport_syntax_error(const yypcontext_t *yyctx, yyscan_t scanner,
                                 struct omp_parse_ctx *ctx) {
  (void)yyctx;
  (void)scanner;
  (void)yypcontext_expected_tokens; /* the message does not list them */
  struct omp_directive *out = ctx->out;
  int k = ctx->last_kind;
  struct omp_tok t = ctx->last;
  char what[96];

  ctx->failed = 1;
  out->error_offset = t.begin;
  if (k == TK_LEXERROR) {
    snprintf(out->error, sizeof out->error, "%s", ctx->lex_error);
    return 0;
  }
  if ((k == 0 || k == ')' || k == ']' || k == '}') && ctx->nest > 0) {
    int i = ctx->nest - 1;
    if (k == 0) {
      snprintf(out->error, sizeof out->error,
               "expected '%s' to close '%c' opened at column %zu",
               closer_of(ctx->nest_char[i]), ctx->nest_char[i],
               ctx->nest_at[i] + 1);
    } else {
      snprintf(out->error, sizeof out->error,
               "expected '%s' to close '%c' opened at column %zu, found '%c'",
               closer_of(ctx->nest_char[i]), ctx->nest_char[i],
               ctx->nest_at[i] + 1, k);
    }
    return 0;
  }
  if (k == ')' || k == ']' || k == '}') {
    snprintf(out->error, sizeof out->error, "unmatched '%c'", k);
    return 0;
  }
  if (k == 0) {
    snprintf(out->error, sizeof out->error, "expected a directive name");
    return 0;
  }
  if (k == TK_STRING)
    snprintf(what, sizeof what, "a string literal");
  else if (k == TK_CHARLIT)
    snprintf(what, sizeof what, "a character constant");
  else
    describe(ctx, t, what, sizeof what, k == TK_NUMBER ? "number " : "");
  snprintf(out->error, sizeof out->error, "expected a %s name, found %s",
           ctx->n_elements == 0 ? "directive" : "clause", what);
  return 0;
}

static struct omp_clause *new_clause(struct omp_parse_ctx *ctx,
                                     struct omp_tok name) {
  struct omp_directive *out = ctx->out;
  if (out->n_clauses >= OMP_MAX_CLAUSES) {
    char msg[64];
    snprintf(msg, sizeof msg, "too many clauses (at most %d)",
             OMP_MAX_CLAUSES);
    fail(ctx, name.begin, msg);
    return NULL;
  }
  return &out->clauses[out->n_clauses++];
}

static void init_clause(struct omp_clause *c, struct omp_tok name) {
  c->kind = OMP_CLAUSE_OTHER;
  c->whole.begin = c->name.begin = name.begin;
  c->whole.end = c->name.end = name.end;
  c->has_args = 0;
  c->args.begin = c->args.end = name.end;
  c->modifier.begin = c->modifier.end = name.end;
  c->n_items = 0;
}

static int element_bare(struct omp_parse_ctx *ctx, struct omp_tok name) {
  ctx->n_elements++;
  if (!ctx->head_done && ctx->n_words < OMP_PARSE_MAX_WORDS) {
    ctx->words[ctx->n_words].begin = name.begin;
    ctx->words[ctx->n_words].end = name.end;
    ctx->n_words++;
    return 0;
  }
  ctx->head_done = 1;
  struct omp_clause *c = new_clause(ctx, name);
  if (!c)
    return 1;
  init_clause(c, name);
  return 0;
}

static int element_open(struct omp_parse_ctx *ctx, struct omp_tok name,
                        struct omp_tok lparen) {
  struct omp_clause *c;
  ctx->n_elements++;
  if (!ctx->head_done) {
    ctx->head_done = 1;
    ctx->has_head_arg = 1;
    ctx->head_lparen = lparen.begin;
    c = &ctx->head_arg;
  } else {
    c = new_clause(ctx, name);
    if (!c)
      return 1;
  }
  init_clause(c, name);
  c->has_args = 1;
  ctx->cur = c;
  ctx->cur_tokens = 0;
  ctx->cur_split = 0;
  ctx->cur_questions = 0;
  ctx->cur_item_open = 0;
  ctx->cur_after_comma = 0;
  return 0;
}

static void add_item(struct omp_parse_ctx *ctx, size_t begin, size_t end) {
  struct omp_clause *c = ctx->cur;
  if (c->n_items < OMP_MAX_ITEMS) {
    c->items[c->n_items].begin = begin;
    c->items[c->n_items].end = end;
  }
  c->n_items++;
}

/* A token (or a whole bracketed group) inside a clause's parentheses. */
static void note(struct omp_parse_ctx *ctx, struct omp_tok t, int kind) {
  struct omp_clause *c = ctx->cur;
  if (t.depth != 1)
    return;
  if (ctx->cur_tokens++ == 0)
    c->args.begin = t.begin;
  if (kind == ':' && !ctx->cur_split && ctx->cur_questions == 0) {
    ctx->cur_split = 1;
    c->modifier.begin = c->args.begin;
    c->modifier.end = ctx->cur_tokens == 1 ? t.begin : ctx->cur_prev_end;
    c->n_items = 0;
    ctx->cur_item_open = 0;
    ctx->cur_after_comma = 0;
  } else if (kind == ',') {
    if (ctx->cur_item_open)
      add_item(ctx, ctx->cur_item_begin, ctx->cur_item_end);
    else
      add_item(ctx, t.begin, t.begin);
    ctx->cur_item_open = 0;
    ctx->cur_after_comma = 1;
  } else {
    if (kind == '?')
      ctx->cur_questions++;
    else if (kind == ':' && ctx->cur_questions > 0)
      ctx->cur_questions--;
    if (!ctx->cur_item_open) {
      ctx->cur_item_open = 1;
      ctx->cur_item_begin = t.begin;
    }
    ctx->cur_item_end = t.end;
    ctx->cur_after_comma = 0;
  }
  ctx->cur_prev_end = t.end;
}

static void element_close(struct omp_parse_ctx *ctx, struct omp_tok name,
                          struct omp_tok rparen) {
  struct omp_clause *c = ctx->cur;
  if (ctx->cur_item_open)
    add_item(ctx, ctx->cur_item_begin, ctx->cur_item_end);
  else if (ctx->cur_after_comma)
    add_item(ctx, rparen.begin, rparen.begin);
  if (ctx->cur_tokens == 0)
    c->args.begin = rparen.begin;
  c->args.end = ctx->cur_tokens == 0 ? rparen.begin : ctx->cur_prev_end;
  if (!ctx->cur_split)
    c->modifier.begin = c->modifier.end = c->args.begin;
  c->whole.begin = name.begin;
  c->whole.end = rparen.end;
  ctx->cur = NULL;
}
