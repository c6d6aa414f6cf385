/*
 * cancel_inquiry.c -- inquiry from inside the late end-barrier callbacks of a
 * worker that left a cancelled parallel region at a cancellation point.
 *
 * libpompt delivers such a worker's implicit-barrier and implicit-task end
 * events later (at its next region or at thread end), when the region's
 * storage may be gone.  A tool that asks ompt_get_task_info(0) for the
 * task's parallel data inside those callbacks (LLVM's OMPT test tool does,
 * and dereferences it) must get the region's data, never NULL.
 *
 * The tool is linked into the program.  Every sync_region callback of an
 * implicit barrier at the end of a parallel region checks:
 *   - ompt_get_task_info(0) finds a task whose parallel_data is not NULL;
 *   - at the barrier's begin, that parallel_data is the one the callback got.
 * Prints "cancel_inquiry: N checks, E errors" at finalize; exits 1 on an
 * error.  Run with OMP_CANCELLATION=true and 2 threads.
 */
#include <omp-tools.h>
#include <omp.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static ompt_get_task_info_t get_task_info;
static atomic_int checks, errors, cancelled;

static void fail(const char *what) {
  atomic_fetch_add(&errors, 1);
  fprintf(stderr, "cancel_inquiry: %s\n", what);
}

static void on_sync_region(ompt_sync_region_t kind, ompt_scope_endpoint_t ep,
                           ompt_data_t *parallel_data, ompt_data_t *task_data,
                           const void *codeptr) {
  (void)task_data, (void)codeptr;
  if (kind != ompt_sync_region_barrier_implicit_parallel)
    return;
  int flags = 0;
  ompt_data_t *pd = NULL, *td = NULL;
  ompt_frame_t *frame = NULL;
  int thread_num = -1;
  atomic_fetch_add(&checks, 1);
  if (get_task_info(0, &flags, &td, &frame, &pd, &thread_num) != 2) {
    fail("no task at level 0 in the implicit barrier");
    return;
  }
  if (!pd)
    fail("ompt_get_task_info(0) gave parallel_data NULL in the barrier");
  else if (ep == ompt_scope_begin && parallel_data && pd != parallel_data)
    fail("ompt_get_task_info(0) and the barrier's begin disagree");
}

static int initialize(ompt_function_lookup_t lookup, int device,
                      ompt_data_t *data) {
  (void)device, (void)data;
  ompt_set_callback_t set = (ompt_set_callback_t)lookup("ompt_set_callback");
  get_task_info = (ompt_get_task_info_t)lookup("ompt_get_task_info");
  if (!set || !get_task_info)
    return 0;
  set(ompt_callback_sync_region, (ompt_callback_t)on_sync_region);
  return 1;
}

static void finalize(ompt_data_t *data) {
  (void)data;
  int e = atomic_load(&errors);
  printf("cancel_inquiry: %d checks, %d errors, %d cancellations\n",
         atomic_load(&checks), e, atomic_load(&cancelled));
  fflush(stdout);
  if (e)
    _Exit(1);
}

ompt_start_tool_result_t *ompt_start_tool(unsigned version,
                                          const char *runtime) {
  (void)version, (void)runtime;
  static ompt_start_tool_result_t result = {initialize, finalize, {0}};
  return &result;
}

int main(void) {
  for (int rep = 0; rep < 20; rep++) {
    atomic_int go = 0;
#pragma omp parallel num_threads(2) shared(go)
    {
      if (omp_get_thread_num() == 0) {
        atomic_store(&go, 1);
        atomic_fetch_add(&cancelled, 1);
#pragma omp cancel parallel
      } else {
        /* the cancellation is activated before this thread looks */
        while (!atomic_load(&go))
          ;
        struct timespec ts = {0, 2000000};
        nanosleep(&ts, NULL);
#pragma omp cancellation point parallel
      }
    }
  }
  return 0;
}
