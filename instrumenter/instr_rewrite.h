/*
 * instr_rewrite.h -- rewrite one preprocessed translation unit, wrapping
 * every supported OpenMP construct in POMP monitoring calls
 * (doc/instrumentation.md is the specification of the output).
 *
 * Internal to instrumenter/.
 */
#ifndef POMPT_INSTR_REWRITE_H
#define POMPT_INSTR_REWRITE_H

#include <stddef.h>

#include "instr_ctc.h"

enum instr_lang { INSTR_LANG_AUTO = 0, INSTR_LANG_C, INSTR_LANG_CXX };

struct instr_options {
  enum instr_lang lang; /* AUTO: from the main file's extension */
  const char *std;      /* "gnu17", or NULL */
  const char *const *clang_args;
  size_t n_clang_args;
};

/* Rewrites the unit read from input_path (its bytes are text[0..len), NUL
 * terminated) and appends the result to out.  Returns 0 on success; on any
 * error prints "file:line:col: error: ..." diagnostics to stderr and
 * returns -1.  Warnings go to stderr as well. */
int instr_rewrite_unit(const char *input_path, const char *text, size_t len,
                       const struct instr_options *opts, struct instr_buf *out);

#endif /* POMPT_INSTR_REWRITE_H */
