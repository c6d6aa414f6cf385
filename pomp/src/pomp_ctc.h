/*
 * pomp_ctc.h -- parsing compile-time context strings (seed 004, section 3.2):
 *     "<length>*type=<type>*file=<file>*lines=<a>,<b>*...**"
 * A '*' or '\' inside a value is escaped with a backslash.
 *
 * Internal to libpompt.
 */
#ifndef POMPT_POMP_CTC_H
#define POMPT_POMP_CTC_H

#include <stddef.h>

/* Calls fn(key, key_len, value, value_len, arg) for every attribute, the
 * value unescaped into a scratch buffer.  Returns 0, or -1 when the string
 * is malformed (no length prefix, no terminating "**", an unterminated
 * escape); fn returning nonzero stops the walk and is returned. */
typedef int (*pomp_ctc_fn)(const char *key, size_t key_len, const char *value,
                           size_t value_len, void *arg);
int pomp_ctc_parse(const char *ctc, pomp_ctc_fn fn, void *arg);

#endif /* POMPT_POMP_CTC_H */
