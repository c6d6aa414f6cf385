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

/* Event groups (seed 004, section 3.8) that --disable can switch off. */
enum instr_group {
  INSTR_GROUP_PARALLEL = 1u << 0,  /* parallel regions */
  INSTR_GROUP_LOOP = 1u << 1,      /* for, for simd, loop, simd */
  INSTR_GROUP_WORKSHARE = 1u << 2, /* sections, single, scope */
  INSTR_GROUP_SYNC = 1u << 3,      /* critical, ordered, barrier, master,
                                      masked, atomic, flush, cancel, error */
  INSTR_GROUP_TASK = 1u << 4,      /* task, taskloop, taskwait, taskgroup,
                                      taskyield */
  INSTR_GROUP_RUNTIME = 1u << 5,   /* calls of OpenMP API routines */
  INSTR_GROUP_USER = 1u << 6,      /* #pragma pomp inst begin/end/event */
  INSTR_GROUP_TARGET = 1u << 7     /* target, target data, target enter/exit
                                      data, target update (teams: parallel,
                                      distribute: loop) */
};

/* Loop levels (seed 004, section 3.8). */
enum instr_loop_level {
  INSTR_LOOP_ENTEREXIT = 0, /* Loop_enter / Loop_exit */
  INSTR_LOOP_CHUNKS,        /* Loop_chunks_enter / _exit: chunk events */
  INSTR_LOOP_ITERATIONS     /* plus Loop_iter_begin / Loop_iter_end */
};

struct instr_options {
  enum instr_lang lang; /* AUTO: from the main file's extension */
  const char *std;      /* "gnu17", or NULL */
  const char *const *clang_args;
  size_t n_clang_args;
  unsigned disabled; /* enum instr_group bits */
  enum instr_loop_level loop_level;
};

/* Parses "parallel,loop" (group names, comma separated) into enum
 * instr_group bits.  Returns 0, or -1 with *bad pointing at the first
 * unknown name. */
int instr_parse_groups(const char *list, unsigned *mask, const char **bad);

/* Rewrites the unit read from input_path (its bytes are text[0..len), NUL
 * terminated) and appends the result to out.  Returns 0 on success; on any
 * error prints "file:line:col: error: ..." diagnostics to stderr and
 * returns -1.  Warnings go to stderr as well. */
int instr_rewrite_unit(const char *input_path, const char *text, size_t len,
                       const struct instr_options *opts, struct instr_buf *out);

#endif /* POMPT_INSTR_REWRITE_H */
