/*
 * in_program_tool.c -- an OMPT tool linked into the program itself (no
 * OMP_TOOL_LIBRARIES): OpenMP 5.2 tool activation finds ompt_start_tool in
 * the address space.  Prints one line per thread_begin and one at finalize.
 */
#include <omp-tools.h>
#include <stdio.h>

static void on_thread_begin(ompt_thread_t type, ompt_data_t *data) {
  (void)data;
  printf("in-program tool: thread_begin %s\n",
         type == ompt_thread_initial ? "initial" : "worker");
}

static int initialize(ompt_function_lookup_t lookup, int device,
                      ompt_data_t *data) {
  (void)device, (void)data;
  ompt_set_callback_t set = (ompt_set_callback_t)lookup("ompt_set_callback");
  return set && set(ompt_callback_thread_begin,
                    (ompt_callback_t)on_thread_begin) == ompt_set_always;
}

static void finalize(ompt_data_t *data) {
  (void)data;
  printf("in-program tool: finalize\n");
}

ompt_start_tool_result_t *ompt_start_tool(unsigned version,
                                          const char *runtime) {
  (void)version, (void)runtime;
  static ompt_start_tool_result_t result = {initialize, finalize, {0}};
  return &result;
}
