/*
 * omp.h -- pompt's supplement to the compiler's omp.h.
 *
 * pomp-cc puts this directory first on the include path of the units it
 * preprocesses, so `#include <omp.h>` comes here and goes on to the
 * compiler's own omp.h.  GCC's omp.h (libgomp, up to GCC 14 at least) lacks
 * the tool-control routine of OpenMP 5.0+, which libpompt provides: without
 * its declaration a program that calls omp_control_tool (LLVM's OMPT tests,
 * tools' own test programs) does not compile with GCC at all.  The
 * declarations below are the ones OpenMP 5.2 (section 18.14) gives omp.h;
 * they are added only under GCC's omp.h (which defines _OMP_H), never under
 * LLVM's (which defines __OMP_H and declares them itself), and can be
 * turned off with -DPOMPT_NO_OMP_SUPPLEMENT.  A system header, as the
 * compiler's omp.h is: pomp-instr leaves its contents alone.
 */
#pragma GCC system_header
#include_next <omp.h>

#if defined(_OMP_H) && !defined(__OMP_H) &&                                    \
    !defined(POMPT_NO_OMP_SUPPLEMENT) && !defined(POMPT_OMP_SUPPLEMENT_H)
#define POMPT_OMP_SUPPLEMENT_H 1

#ifdef __cplusplus
extern "C" {
#endif

typedef enum omp_control_tool_result_t {
  omp_control_tool_notool = -2,
  omp_control_tool_nocallback = -1,
  omp_control_tool_success = 0,
  omp_control_tool_ignored = 1
} omp_control_tool_result_t;

typedef enum omp_control_tool_t {
  omp_control_tool_start = 1,
  omp_control_tool_pause = 2,
  omp_control_tool_flush = 3,
  omp_control_tool_end = 4
} omp_control_tool_t;

extern int omp_control_tool(int command, int modifier, void *arg);

#ifdef __cplusplus
}
#endif

#endif
