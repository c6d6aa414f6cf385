/*
 * instr_ctc.c -- growable buffers, CTC strings and the FNV-1a file id.
 */
#include "instr_ctc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void out_of_memory(void) {
  fputs("pomp-instr: error: out of memory\n", stderr);
  exit(1);
}

void *instr_xmalloc(size_t n) {
  void *p = malloc(n ? n : 1);
  if (!p)
    out_of_memory();
  return p;
}

void *instr_xrealloc(void *p, size_t n) {
  void *q = realloc(p, n ? n : 1);
  if (!q)
    out_of_memory();
  return q;
}

char *instr_xstrndup(const char *s, size_t n) {
  char *p = instr_xmalloc(n + 1);
  memcpy(p, s, n);
  p[n] = '\0';
  return p;
}

/* ---- instr_buf --------------------------------------------------------- */

void instr_buf_reserve(struct instr_buf *b, size_t extra) {
  size_t need = b->len + extra + 1;
  if (need <= b->cap)
    return;
  size_t cap = b->cap ? b->cap : 64;
  while (cap < need)
    cap *= 2;
  b->data = instr_xrealloc(b->data, cap);
  b->cap = cap;
}

void instr_buf_add(struct instr_buf *b, const char *s, size_t n) {
  instr_buf_reserve(b, n);
  if (n)
    memcpy(b->data + b->len, s, n);
  b->len += n;
  b->data[b->len] = '\0';
}

void instr_buf_puts(struct instr_buf *b, const char *s) {
  instr_buf_add(b, s, strlen(s));
}

void instr_buf_putc(struct instr_buf *b, char c) {
  instr_buf_add(b, &c, 1);
}

void instr_buf_vprintf(struct instr_buf *b, const char *fmt, va_list ap) {
  char small[256];
  va_list ap2;
  va_copy(ap2, ap);
  int n = vsnprintf(small, sizeof small, fmt, ap2);
  va_end(ap2);
  if (n < 0) {
    fputs("pomp-instr: error: formatting failed\n", stderr);
    exit(1);
  }
  if ((size_t)n < sizeof small) {
    instr_buf_add(b, small, (size_t)n);
    return;
  }
  instr_buf_reserve(b, (size_t)n);
  vsnprintf(b->data + b->len, (size_t)n + 1, fmt, ap);
  b->len += (size_t)n;
}

void instr_buf_printf(struct instr_buf *b, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  instr_buf_vprintf(b, fmt, ap);
  va_end(ap);
}

char *instr_buf_take(struct instr_buf *b) {
  char *p = b->data;
  if (!p)
    p = instr_xstrndup("", 0);
  b->data = NULL;
  b->len = b->cap = 0;
  return p;
}

void instr_buf_free(struct instr_buf *b) {
  free(b->data);
  b->data = NULL;
  b->len = b->cap = 0;
}

/* ---- CTC strings ------------------------------------------------------- */

void ctc_add(struct ctc_builder *c, const char *key, const char *value,
             size_t n) {
  instr_buf_putc(&c->fields, '*');
  instr_buf_puts(&c->fields, key);
  instr_buf_putc(&c->fields, '=');
  for (size_t i = 0; i < n; i++) {
    if (value[i] == '*' || value[i] == '\\')
      instr_buf_putc(&c->fields, '\\');
    instr_buf_putc(&c->fields, value[i]);
  }
}

void ctc_add_str(struct ctc_builder *c, const char *key, const char *value) {
  ctc_add(c, key, value, strlen(value));
}

void ctc_add_int(struct ctc_builder *c, const char *key, long long value) {
  char num[32];
  snprintf(num, sizeof num, "%lld", value);
  ctc_add_str(c, key, num);
}

void ctc_add_lines(struct ctc_builder *c, unsigned first, unsigned last) {
  char num[48];
  snprintf(num, sizeof num, "%u,%u", first, last);
  ctc_add_str(c, "lines", num);
}

char *ctc_finish(struct ctc_builder *c) {
  /* The fields, then the empty terminating field: "...*" + "*". */
  instr_buf_puts(&c->fields, "**");
  struct instr_buf out = {0};
  /* From the first '*' to the last, inclusive: the whole field text. */
  instr_buf_printf(&out, "%zu", c->fields.len);
  instr_buf_add(&out, c->fields.data, c->fields.len);
  instr_buf_free(&c->fields);
  return instr_buf_take(&out);
}

void ctc_emit_c_literal(struct instr_buf *out, const char *s) {
  instr_buf_putc(out, '"');
  for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
    unsigned char ch = *p;
    if (ch == '"' || ch == '\\') {
      instr_buf_putc(out, '\\');
      instr_buf_putc(out, (char)ch);
    } else if (ch == '?' && p[1] == '?') {
      /* Keep trigraph-like sequences inert under -trigraphs. */
      instr_buf_puts(out, "?\\");
    } else if (ch < 0x20 || ch >= 0x7f) {
      instr_buf_printf(out, "\\%03o", ch);
    } else {
      instr_buf_putc(out, (char)ch);
    }
  }
  instr_buf_putc(out, '"');
}

/* ---- File id ----------------------------------------------------------- */

uint64_t fnv1a64(uint64_t h, const void *data, size_t n) {
  const unsigned char *p = data;
  for (size_t i = 0; i < n; i++) {
    h ^= p[i];
    h *= UINT64_C(0x100000001b3);
  }
  return h;
}
