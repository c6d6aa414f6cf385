/*
 * ctor_tool.c -- an OMPT tool that needs its own constructor to have run
 * before the runtime calls it, as every tool written in C++ with static
 * objects does (Caliper crashed otherwise): linked into the program, or
 * preloaded, it must be started after its constructor.  It declines to
 * start (and says so) when called too early.
 */
#include <omp-tools.h>
#include <stdio.h>

static int constructed;
static int threads;

__attribute__((constructor)) static void ctor_tool_construct(void) {
  constructed = 1;
}

static void on_thread_begin(ompt_thread_t type, ompt_data_t *data) {
  (void)type;
  (void)data;
  __atomic_add_fetch(&threads, 1, __ATOMIC_RELAXED);
}

static int ctor_tool_initialize(ompt_function_lookup_t lookup,
                                int initial_device, ompt_data_t *tool_data) {
  (void)initial_device;
  (void)tool_data;
  ompt_set_callback_t set_callback =
      (ompt_set_callback_t)lookup("ompt_set_callback");
  set_callback(ompt_callback_thread_begin, (ompt_callback_t)on_thread_begin);
  printf("ctor tool: initialize (constructed %d)\n", constructed);
  return constructed;
}

static void ctor_tool_finalize(ompt_data_t *tool_data) {
  (void)tool_data;
  printf("ctor tool: finalize after %d threads\n", threads);
}

ompt_start_tool_result_t *ompt_start_tool(unsigned int omp_version,
                                          const char *runtime_version) {
  static ompt_start_tool_result_t result = {ctor_tool_initialize,
                                            ctor_tool_finalize, {0}};
  (void)omp_version;
  (void)runtime_version;
  printf("ctor tool: ompt_start_tool (constructed %d)\n", constructed);
  return constructed ? &result : NULL;
}
