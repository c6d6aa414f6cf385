/*
 * omp_tools_cxx_link.c -- the C half of test "omp-tools-cxx": refers to
 * ompt_start_tool by its C name, which links only if the C++ definition in
 * omp_tools_cxx.cpp got C linkage from the header.
 */
#include <omp-tools.h>
#include <stddef.h>

int omp_tools_cxx_c_linkage(void);

int omp_tools_cxx_c_linkage(void) {
  return ompt_start_tool(0, "") == NULL;
}
