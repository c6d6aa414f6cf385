/*
 * ompt_activation_tool.c -- a tool for the activation tests
 * (activation_test.py): it reports on stdout how it was started and
 * finalised, and misbehaves on request, so that the tests can check that
 * libpompt activates tools as OpenMP 5.2 says and survives bad ones.
 *
 * Built twice: as libompt_act.so, and with ACT_START_NULL as
 * libompt_act_null.so, whose ompt_start_tool declines (returns NULL).
 *
 * ACT_MODE (environment) for libompt_act.so:
 *   ok                register thread_begin/end and parallel_begin, count
 *   fail              initialize returns 0
 *   noinit            ompt_start_tool returns a result without initialize
 *   finalize_in_init  call ompt_finalize_tool from initialize
 *   finalize_early    call ompt_finalize_tool from the second parallel_begin
 *   badcalls          call the entry points with bad arguments; print what
 *                     they answer
 *   places            print what the processor and place entry points
 *                     answer in the first parallel region's primary thread
 * Output lines: "act: start <runtime version>", "act: initialize",
 * "act: finalize threads=<begun>/<ended> parallel=<n>", "act: badcalls ...",
 * "act: places ...".
 */
#include <omp-tools.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static atomic_int threads_begun, threads_ended, parallels, finalizes;
static ompt_finalize_tool_t finalize_tool;
static const char *mode = "ok";

static void on_thread_begin(ompt_thread_t type, ompt_data_t *data) {
  (void)type, (void)data;
  atomic_fetch_add(&threads_begun, 1);
}

static void on_thread_end(ompt_data_t *data) {
  (void)data;
  atomic_fetch_add(&threads_ended, 1);
}

static ompt_get_num_procs_t get_num_procs;
static ompt_get_num_places_t get_num_places;
static ompt_get_place_proc_ids_t get_place_proc_ids;
static ompt_get_place_num_t get_place_num;
static ompt_get_partition_place_nums_t get_partition_place_nums;
static ompt_get_proc_id_t get_proc_id;

static void places(void) {
  int ids[256], nums[256];
  int np = get_num_places();
  int n0 = np > 0 ? get_place_proc_ids(0, 256, ids) : 0;
  int small = np > 0 ? get_place_proc_ids(0, 0, NULL) : 0;
  int part = get_partition_place_nums(256, nums);
  printf("act: places procs=%d places=%d place0=%d/%d first=%d place_num=%d "
         "partition=%d proc_id_ok=%d\n",
         get_num_procs(), np, n0, small, n0 > 0 ? ids[0] : -1, get_place_num(),
         part, get_proc_id() >= 0 && get_proc_id() < 4096);
  fflush(stdout);
}

static void on_parallel_begin(ompt_data_t *task, const ompt_frame_t *frame,
                              ompt_data_t *parallel, unsigned requested,
                              int flags, const void *codeptr) {
  (void)task, (void)frame, (void)parallel, (void)requested, (void)flags,
      (void)codeptr;
  int n = atomic_fetch_add(&parallels, 1) + 1;
  if (n == 1 && !strcmp(mode, "places"))
    places();
  if (n == 2 && !strcmp(mode, "finalize_early"))
    finalize_tool();
}

static void badcalls(ompt_function_lookup_t lookup) {
  ompt_set_callback_t set = (ompt_set_callback_t)lookup("ompt_set_callback");
  ompt_get_callback_t get = (ompt_get_callback_t)lookup("ompt_get_callback");
  ompt_enumerate_states_t es =
      (ompt_enumerate_states_t)lookup("ompt_enumerate_states");
  ompt_get_task_info_t ti = (ompt_get_task_info_t)lookup("ompt_get_task_info");
  ompt_get_parallel_info_t pi =
      (ompt_get_parallel_info_t)lookup("ompt_get_parallel_info");
  ompt_get_place_proc_ids_t pp =
      (ompt_get_place_proc_ids_t)lookup("ompt_get_place_proc_ids");
  ompt_callback_t cb = (ompt_callback_t)on_thread_end;
  int next = 0;
  const char *name = NULL;
  printf("act: badcalls lookup_null=%d lookup_unknown=%d set0=%d set999=%d "
         "set_neg=%d set_never=%d get_unset=%d enum_bad=%d "
         "task_info_neg=%d parallel_info_neg=%d place_bad=%d\n",
         lookup(NULL) != NULL, lookup("ompt_no_such_entry") != NULL,
         set((ompt_callbacks_t)0, cb), set((ompt_callbacks_t)999, cb),
         set((ompt_callbacks_t)-3, cb),
         set(ompt_callback_device_load, cb),
         get(ompt_callback_thread_end, &cb), es(12345, &next, &name),
         ti(-1, NULL, NULL, NULL, NULL, NULL), pi(-1, NULL, NULL),
         pp(-7, 0, NULL));
}

static int initialize(ompt_function_lookup_t lookup, int device,
                      ompt_data_t *data) {
  (void)device, (void)data;
  printf("act: initialize\n");
  fflush(stdout);
  ompt_set_callback_t set = (ompt_set_callback_t)lookup("ompt_set_callback");
  finalize_tool = (ompt_finalize_tool_t)lookup("ompt_finalize_tool");
  if (!set || !finalize_tool)
    return 0;
  if (!strcmp(mode, "badcalls"))
    badcalls(lookup);
  get_num_procs = (ompt_get_num_procs_t)lookup("ompt_get_num_procs");
  get_num_places = (ompt_get_num_places_t)lookup("ompt_get_num_places");
  get_place_proc_ids =
      (ompt_get_place_proc_ids_t)lookup("ompt_get_place_proc_ids");
  get_place_num = (ompt_get_place_num_t)lookup("ompt_get_place_num");
  get_partition_place_nums =
      (ompt_get_partition_place_nums_t)lookup("ompt_get_partition_place_nums");
  get_proc_id = (ompt_get_proc_id_t)lookup("ompt_get_proc_id");
  if (!strcmp(mode, "fail"))
    return 0;
  set(ompt_callback_thread_begin, (ompt_callback_t)on_thread_begin);
  set(ompt_callback_thread_end, (ompt_callback_t)on_thread_end);
  set(ompt_callback_parallel_begin, (ompt_callback_t)on_parallel_begin);
  if (!strcmp(mode, "finalize_in_init"))
    finalize_tool();
  return 1;
}

static void finalize(ompt_data_t *data) {
  (void)data;
  atomic_fetch_add(&finalizes, 1);
  printf("act: finalize threads=%d/%d parallel=%d calls=%d\n",
         atomic_load(&threads_begun), atomic_load(&threads_ended),
         atomic_load(&parallels), atomic_load(&finalizes));
  fflush(stdout);
}

ompt_start_tool_result_t *ompt_start_tool(unsigned omp_version,
                                          const char *runtime_version) {
  printf("act: start %s (OpenMP %u)\n", runtime_version, omp_version);
  fflush(stdout);
#ifdef ACT_START_NULL
  (void)initialize, (void)finalize;
  return NULL;
#else
  static ompt_start_tool_result_t result = {initialize, finalize, {0}};
  static ompt_start_tool_result_t no_init = {NULL, finalize, {0}};
  const char *m = getenv("ACT_MODE");
  if (m && *m)
    mode = m;
  return !strcmp(mode, "noinit") ? &no_init : &result;
#endif
}
