/*
 * own_tool.h -- for a test program that is its own OMPT tool: the
 * program's ompt_start_tool, whose initialize looks up ompt_set_callback
 * and ompt_get_state (set_callback and get_state below, 0 when the lookup
 * fails) and then calls the program's register_callbacks(), which can look
 * up other entry points with own_tool_lookup.  Include it once, after
 * <omp-tools.h>.
 */
#ifndef POMPT_TEST_OWN_TOOL_H
#define POMPT_TEST_OWN_TOOL_H

static ompt_set_callback_t set_callback;
static ompt_get_state_t get_state;
static ompt_function_lookup_t own_tool_lookup;
static void register_callbacks(void);

static int own_tool_initialize(ompt_function_lookup_t lookup, int device,
                               ompt_data_t *data) {
  (void)device, (void)data;
  own_tool_lookup = lookup;
  set_callback = (ompt_set_callback_t)lookup("ompt_set_callback");
  get_state = (ompt_get_state_t)lookup("ompt_get_state");
  if (!set_callback)
    return 0;
  register_callbacks();
  return 1;
}

static void own_tool_finalize(ompt_data_t *data) { (void)data; }

ompt_start_tool_result_t *ompt_start_tool(unsigned version,
                                          const char *runtime) {
  (void)version, (void)runtime;
  static ompt_start_tool_result_t result = {own_tool_initialize,
                                            own_tool_finalize, {0}};
  return &result;
}

#endif
