/*
 * instr_gxx_compat.h -- what libclang needs to parse a unit g++
 * preprocessed.
 *
 * pomp-cc hands pomp-instr the output of `g++ -E`, where the C++ library's
 * `#if __has_builtin(...)` tests were decided for g++.  Where they chose a
 * g++-only builtin, libclang cannot parse the library's code, and every use
 * of it in the program becomes an error pomp-instr must refuse (libstdc++'s
 * std::make_index_sequence, std::apply, std::tuple's machinery through
 * __integer_pack).  pomp-instr parses a copy of the text in which those
 * spellings are replaced by clang's equivalents of the same length (so that
 * every offset stays the program's), with a prelude of declarations
 * libclang includes ahead of it: the text pomp-instr writes out is still
 * the unit as g++ preprocessed it.
 *
 * Internal to instrumenter/.
 */
#ifndef POMPT_INSTR_GXX_COMPAT_H
#define POMPT_INSTR_GXX_COMPAT_H

#include <stddef.h>

/* The text libclang should parse in place of text[0, len): a copy (to be
 * freed) when anything needed replacing, else NULL.  *prelude is then set to
 * the declarations the copy needs ahead of it (static text, possibly ""),
 * for libclang's -include. */
char *instr_gxx_compat_text(const char *text, size_t len, const char **prelude);

#endif
