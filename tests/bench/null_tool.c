/*
 * null_tool.c -- an OMPT tool that registers callbacks and does nothing in
 * them.  It measures what delivering events costs a runtime (libpompt, or a
 * native OMPT runtime such as LLVM's libomp), apart from any work a real
 * tool would do.
 *
 * POMPT_NULL_TOOL selects what is registered:
 *   all   (default) every callback of OpenMP 5.2, each with an empty body of
 *         its own signature;
 *   none  nothing: the tool is active (initialize returns 1) but no event
 *         has a callback, which is the cost of an event nobody listens to.
 * POMPT_NULL_TOOL_VERBOSE=1 prints, at finalize, how many callbacks the
 * runtime accepted (set_callback answered other than ompt_set_never).
 */
#include <omp-tools.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define UNUSED __attribute__((unused))

static void on_thread_begin(ompt_thread_t t UNUSED, ompt_data_t *d UNUSED) {}
static void on_thread_end(ompt_data_t *d UNUSED) {}
static void on_parallel_begin(ompt_data_t *t UNUSED,
                              const ompt_frame_t *f UNUSED,
                              ompt_data_t *p UNUSED, unsigned r UNUSED,
                              int fl UNUSED, const void *c UNUSED) {}
static void on_parallel_end(ompt_data_t *p UNUSED, ompt_data_t *t UNUSED,
                            int fl UNUSED, const void *c UNUSED) {}
static void on_task_create(ompt_data_t *t UNUSED, const ompt_frame_t *f UNUSED,
                           ompt_data_t *n UNUSED, int fl UNUSED,
                           int dep UNUSED, const void *c UNUSED) {}
static void on_task_schedule(ompt_data_t *p UNUSED,
                             ompt_task_status_t s UNUSED,
                             ompt_data_t *n UNUSED) {}
static void on_implicit_task(ompt_scope_endpoint_t e UNUSED,
                             ompt_data_t *p UNUSED, ompt_data_t *t UNUSED,
                             unsigned a UNUSED, unsigned i UNUSED,
                             int fl UNUSED) {}
static void on_target(ompt_target_t k UNUSED, ompt_scope_endpoint_t e UNUSED,
                      int dev UNUSED, ompt_data_t *t UNUSED,
                      ompt_id_t id UNUSED, const void *c UNUSED) {}
static void on_target_data_op(ompt_id_t tid UNUSED, ompt_id_t hid UNUSED,
                              ompt_target_data_op_t op UNUSED,
                              void *src UNUSED, int sd UNUSED,
                              void *dst UNUSED, int dd UNUSED,
                              size_t bytes UNUSED, const void *c UNUSED) {}
static void on_target_submit(ompt_id_t tid UNUSED, ompt_id_t hid UNUSED,
                             unsigned teams UNUSED) {}
static int on_control_tool(uint64_t cmd UNUSED, uint64_t mod UNUSED,
                           void *arg UNUSED, const void *c UNUSED) {
  return 0;
}
static void on_device_initialize(int dev UNUSED, const char *type UNUSED,
                                 ompt_device_t *d UNUSED,
                                 ompt_function_lookup_t l UNUSED,
                                 const char *doc UNUSED) {}
static void on_device_finalize(int dev UNUSED) {}
static void on_device_load(int dev UNUSED, const char *file UNUSED,
                           int64_t off UNUSED, void *vma UNUSED,
                           size_t bytes UNUSED, void *host UNUSED,
                           void *devaddr UNUSED, uint64_t mod UNUSED) {}
static void on_device_unload(int dev UNUSED, uint64_t mod UNUSED) {}
static void on_sync_region(ompt_sync_region_t k UNUSED,
                           ompt_scope_endpoint_t e UNUSED,
                           ompt_data_t *p UNUSED, ompt_data_t *t UNUSED,
                           const void *c UNUSED) {}
static void on_mutex(ompt_mutex_t k UNUSED, ompt_wait_id_t w UNUSED,
                     const void *c UNUSED) {}
static void on_dependences(ompt_data_t *t UNUSED,
                           const ompt_dependence_t *d UNUSED, int n UNUSED) {}
static void on_task_dependence(ompt_data_t *s UNUSED, ompt_data_t *k UNUSED) {}
static void on_work(ompt_work_t w UNUSED, ompt_scope_endpoint_t e UNUSED,
                    ompt_data_t *p UNUSED, ompt_data_t *t UNUSED,
                    uint64_t n UNUSED, const void *c UNUSED) {}
static void on_masked(ompt_scope_endpoint_t e UNUSED, ompt_data_t *p UNUSED,
                      ompt_data_t *t UNUSED, const void *c UNUSED) {}
static void on_target_map(ompt_id_t tid UNUSED, unsigned n UNUSED,
                          void **h UNUSED, void **d UNUSED,
                          size_t *b UNUSED, unsigned *f UNUSED,
                          const void *c UNUSED) {}
static void on_mutex_acquire(ompt_mutex_t k UNUSED, unsigned h UNUSED,
                             unsigned impl UNUSED, ompt_wait_id_t w UNUSED,
                             const void *c UNUSED) {}
static void on_nest_lock(ompt_scope_endpoint_t e UNUSED,
                         ompt_wait_id_t w UNUSED, const void *c UNUSED) {}
static void on_flush(ompt_data_t *t UNUSED, const void *c UNUSED) {}
static void on_cancel(ompt_data_t *t UNUSED, int fl UNUSED,
                      const void *c UNUSED) {}
static void on_dispatch(ompt_data_t *p UNUSED, ompt_data_t *t UNUSED,
                        ompt_dispatch_t k UNUSED, ompt_data_t i UNUSED) {}
static void on_target_emi(ompt_target_t k UNUSED,
                          ompt_scope_endpoint_t e UNUSED, int dev UNUSED,
                          ompt_data_t *t UNUSED, ompt_data_t *tt UNUSED,
                          ompt_data_t *td UNUSED, const void *c UNUSED) {}
static void on_target_data_op_emi(ompt_scope_endpoint_t e UNUSED,
                                  ompt_data_t *tt UNUSED,
                                  ompt_data_t *td UNUSED,
                                  ompt_id_t *hid UNUSED,
                                  ompt_target_data_op_t op UNUSED,
                                  void *src UNUSED, int sd UNUSED,
                                  void *dst UNUSED, int dd UNUSED,
                                  size_t bytes UNUSED, const void *c UNUSED) {}
static void on_target_submit_emi(ompt_scope_endpoint_t e UNUSED,
                                 ompt_data_t *td UNUSED,
                                 ompt_id_t *hid UNUSED,
                                 unsigned teams UNUSED) {}
static void on_target_map_emi(ompt_data_t *td UNUSED, unsigned n UNUSED,
                              void **h UNUSED, void **d UNUSED,
                              size_t *b UNUSED, unsigned *f UNUSED,
                              const void *c UNUSED) {}
static void on_error(ompt_severity_t s UNUSED, const char *m UNUSED,
                     size_t n UNUSED, const void *c UNUSED) {}

/* Every callback of OpenMP 5.2 with a function of its own signature. */
static const struct {
  ompt_callbacks_t event;
  ompt_callback_t fn;
} all_callbacks[] = {
    {ompt_callback_thread_begin, (ompt_callback_t)on_thread_begin},
    {ompt_callback_thread_end, (ompt_callback_t)on_thread_end},
    {ompt_callback_parallel_begin, (ompt_callback_t)on_parallel_begin},
    {ompt_callback_parallel_end, (ompt_callback_t)on_parallel_end},
    {ompt_callback_task_create, (ompt_callback_t)on_task_create},
    {ompt_callback_task_schedule, (ompt_callback_t)on_task_schedule},
    {ompt_callback_implicit_task, (ompt_callback_t)on_implicit_task},
    {ompt_callback_target, (ompt_callback_t)on_target},
    {ompt_callback_target_data_op, (ompt_callback_t)on_target_data_op},
    {ompt_callback_target_submit, (ompt_callback_t)on_target_submit},
    {ompt_callback_control_tool, (ompt_callback_t)on_control_tool},
    {ompt_callback_device_initialize, (ompt_callback_t)on_device_initialize},
    {ompt_callback_device_finalize, (ompt_callback_t)on_device_finalize},
    {ompt_callback_device_load, (ompt_callback_t)on_device_load},
    {ompt_callback_device_unload, (ompt_callback_t)on_device_unload},
    {ompt_callback_sync_region_wait, (ompt_callback_t)on_sync_region},
    {ompt_callback_mutex_released, (ompt_callback_t)on_mutex},
    {ompt_callback_dependences, (ompt_callback_t)on_dependences},
    {ompt_callback_task_dependence, (ompt_callback_t)on_task_dependence},
    {ompt_callback_work, (ompt_callback_t)on_work},
    {ompt_callback_masked, (ompt_callback_t)on_masked},
    {ompt_callback_target_map, (ompt_callback_t)on_target_map},
    {ompt_callback_sync_region, (ompt_callback_t)on_sync_region},
    {ompt_callback_lock_init, (ompt_callback_t)on_mutex_acquire},
    {ompt_callback_lock_destroy, (ompt_callback_t)on_mutex},
    {ompt_callback_mutex_acquire, (ompt_callback_t)on_mutex_acquire},
    {ompt_callback_mutex_acquired, (ompt_callback_t)on_mutex},
    {ompt_callback_nest_lock, (ompt_callback_t)on_nest_lock},
    {ompt_callback_flush, (ompt_callback_t)on_flush},
    {ompt_callback_cancel, (ompt_callback_t)on_cancel},
    {ompt_callback_reduction, (ompt_callback_t)on_sync_region},
    {ompt_callback_dispatch, (ompt_callback_t)on_dispatch},
    {ompt_callback_target_emi, (ompt_callback_t)on_target_emi},
    {ompt_callback_target_data_op_emi, (ompt_callback_t)on_target_data_op_emi},
    {ompt_callback_target_submit_emi, (ompt_callback_t)on_target_submit_emi},
    {ompt_callback_target_map_emi, (ompt_callback_t)on_target_map_emi},
    {ompt_callback_error, (ompt_callback_t)on_error},
};

static int accepted;
static int verbose;

static int initialize(ompt_function_lookup_t lookup, int device UNUSED,
                      ompt_data_t *data UNUSED) {
  const char *mode = getenv("POMPT_NULL_TOOL");
  const char *v = getenv("POMPT_NULL_TOOL_VERBOSE");
  verbose = v && !strcmp(v, "1");
  if (mode && !strcmp(mode, "none"))
    return 1;
  ompt_set_callback_t set = (ompt_set_callback_t)lookup("ompt_set_callback");
  if (!set)
    return 0;
  for (size_t i = 0; i < sizeof all_callbacks / sizeof all_callbacks[0]; i++)
    if (set(all_callbacks[i].event, all_callbacks[i].fn) != ompt_set_never)
      accepted++;
  return 1;
}

static void finalize(ompt_data_t *data UNUSED) {
  if (verbose)
    fprintf(stderr, "null_tool: %d of %zu callbacks accepted\n", accepted,
            sizeof all_callbacks / sizeof all_callbacks[0]);
}

ompt_start_tool_result_t *ompt_start_tool(unsigned int version UNUSED,
                                          const char *runtime UNUSED) {
  static ompt_start_tool_result_t result = {initialize, finalize, {0}};
  return &result;
}
