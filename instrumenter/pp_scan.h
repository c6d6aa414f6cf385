/*
 * pp_scan.h -- a quick look at a preprocessed translation unit: whether
 * pomp-instr could find anything in it to instrument.
 *
 * pomp-cc uses it to leave units without OpenMP (most of a typical
 * project) out of the instrumentation step: their preprocessed text is
 * compiled as it is, without starting pomp-instr and its libclang parse.
 *
 * Internal to instrumenter/.
 */
#ifndef POMPT_PP_SCAN_H
#define POMPT_PP_SCAN_H

#include <stdbool.h>
#include <stddef.h>

/* False only when no line of text[0..len) that comes from a file other
 * than a system header (line-marker flag 3) holds
 *   - a #pragma line whose first word is omp or pomp,
 *   - the token _Pragma (left by -fdirectives-only), or
 *   - an identifier that is omp or starts with omp_ (an OpenMP API routine,
 *     or C++ attribute syntax [[omp::directive(...)]]).
 * pomp-instr instruments nothing in such a unit, so the answer errs only
 * on the side of "maybe": string literals and the like may say true. */
bool pp_unit_may_need_instrumentation(const char *text, size_t len);

#endif /* POMPT_PP_SCAN_H */
