/*
 * instr_ctc.h -- text building blocks of pomp-instr: a growable byte buffer,
 * compile-time context (CTC) strings and the per-unit file id.
 *
 * CTC string format (doc/instrumentation.md, seed 004 section 3.2):
 *     "<length>*type=<type>*file=<file>*lines=<first>,<last>*...**"
 * <length> counts the characters from the first '*' to the last, inclusive.
 * In a value, '*' is written "\*" and '\' is written "\\".
 *
 * Internal to instrumenter/.
 */
#ifndef POMPT_INSTR_CTC_H
#define POMPT_INSTR_CTC_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

/* A growable, always NUL-terminated byte buffer.  A zero-initialised
 * struct instr_buf is an empty buffer.  Allocation failure aborts the
 * program with a message (pomp-instr has nothing sensible to fall back to). */
struct instr_buf {
  char *data;
  size_t len;
  size_t cap;
};

void instr_buf_reserve(struct instr_buf *b, size_t extra);
void instr_buf_add(struct instr_buf *b, const char *s, size_t n);
void instr_buf_puts(struct instr_buf *b, const char *s);
void instr_buf_putc(struct instr_buf *b, char c);
void instr_buf_printf(struct instr_buf *b, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
void instr_buf_vprintf(struct instr_buf *b, const char *fmt, va_list ap)
    __attribute__((format(printf, 2, 0)));
/* Takes the contents (the caller frees them); the buffer becomes empty. */
char *instr_buf_take(struct instr_buf *b);
void instr_buf_free(struct instr_buf *b);

/* malloc/realloc/strdup that abort with a message on failure. */
void *instr_xmalloc(size_t n);
void *instr_xrealloc(void *p, size_t n);
char *instr_xstrndup(const char *s, size_t n);

/* ---- CTC strings ------------------------------------------------------- */

/* Builds the fields of one CTC string; ctc_finish() adds the length prefix
 * and the terminating empty field. */
struct ctc_builder {
  struct instr_buf fields; /* "*type=parallel*file=a.c..." */
};

/* Appends "*key=value", escaping '*' and '\' in value[0..n). */
void ctc_add(struct ctc_builder *c, const char *key, const char *value,
             size_t n);
void ctc_add_str(struct ctc_builder *c, const char *key, const char *value);
void ctc_add_int(struct ctc_builder *c, const char *key, long long value);
void ctc_add_lines(struct ctc_builder *c, unsigned first, unsigned last);
/* Returns the complete CTC string (malloc'd) and resets the builder. */
char *ctc_finish(struct ctc_builder *c);

/* Appends s as the body of a C string literal, with the quotes: '"', '\\'
 * and non-printable bytes escaped (octal, three digits). */
void ctc_emit_c_literal(struct instr_buf *out, const char *s);

/* ---- File id ----------------------------------------------------------- */

#define FNV1A64_INIT UINT64_C(0xcbf29ce484222325)
/* 64-bit FNV-1a over data[0..n), continuing from h. */
uint64_t fnv1a64(uint64_t h, const void *data, size_t n);

#endif /* POMPT_INSTR_CTC_H */
