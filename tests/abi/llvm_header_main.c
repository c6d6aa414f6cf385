/*
 * llvm_header_main.c -- the program of test "llvm-header-tool".
 *
 * Linked with libpompt and with the tool of llvm_header_tool.c (built
 * against LLVM's omp-tools.h).  libpompt activates the tool while it is
 * loaded; main makes sure the library is initialised, lets the tool probe
 * the inquiry entry points, and returns.  The tool's finalize, run at exit,
 * then replaces the exit status with its verdict: 0 (pass) or 1 (fail).
 * If finalize never runs, the status stays the one main returns: 3.
 */
#include <stdio.h>

#include "llvm_header_tool.h"
#include "pomp.h"

#define STATUS_NO_FINALIZE 3

int main(void) {
  int32_t rc = POMP_Init();
  if (rc < 0) {
    printf("llvm-header-main: FAIL: POMP_Init returned %d\n", (int)rc);
    return 1;
  }
  if (llvm_header_tool_probe() != 0)
    return 1; /* the tool printed why; its finalize fails the test too */

  printf("llvm-header-main: returning; the tool's finalize decides the "
         "exit status (%d means it never ran)\n",
         STATUS_NO_FINALIZE);
  fflush(stdout);
  return STATUS_NO_FINALIZE;
}
