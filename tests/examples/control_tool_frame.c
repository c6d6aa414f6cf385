/*
 * control_tool_frame.c -- the calling task's frame while a tool's
 * control_tool callback runs.
 *
 * omp_control_tool is a runtime routine: while the tool runs, the task that
 * called it is inside the runtime, so OpenMP 5.2 wants its enter_frame set
 * (LLVM's control_tool.c checks it); once the routine has returned the task
 * runs its own code again and enter_frame is NULL.  The tool is linked into
 * the program.  Checked for the initial task and in a parallel region, and
 * "control_tool_frame: N checks, E errors" is printed; exit status 1 on an
 * error.
 */
#include <omp-tools.h>
#include <omp.h>
#include <stdatomic.h>
#include <stdio.h>

static ompt_get_task_info_t get_task_info;
static atomic_int checks, errors, calls;

static void check(int ok, const char *what) {
  atomic_fetch_add(&checks, 1);
  if (!ok) {
    atomic_fetch_add(&errors, 1);
    fprintf(stderr, "control_tool_frame: %s\n", what);
  }
}

static ompt_frame_t *task_frame(void) {
  ompt_frame_t *frame = NULL;
  if (get_task_info(0, NULL, NULL, &frame, NULL, NULL) != 2)
    return NULL;
  return frame;
}

static int on_control_tool(uint64_t command, uint64_t modifier, void *arg,
                           const void *codeptr) {
  (void)command, (void)modifier, (void)arg, (void)codeptr;
  atomic_fetch_add(&calls, 1);
  ompt_frame_t *f = task_frame();
  check(f != NULL, "no task inside control_tool");
  if (f)
    check(f->enter_frame.ptr != NULL, "enter_frame NULL inside control_tool");
  return 0;
}

static int initialize(ompt_function_lookup_t lookup, int device,
                      ompt_data_t *data) {
  (void)device, (void)data;
  ompt_set_callback_t set = (ompt_set_callback_t)lookup("ompt_set_callback");
  get_task_info = (ompt_get_task_info_t)lookup("ompt_get_task_info");
  if (!set || !get_task_info)
    return 0;
  set(ompt_callback_control_tool, (ompt_callback_t)on_control_tool);
  return 1;
}

static void finalize(ompt_data_t *data) { (void)data; }

ompt_start_tool_result_t *ompt_start_tool(unsigned version,
                                          const char *runtime) {
  (void)version, (void)runtime;
  static ompt_start_tool_result_t result = {initialize, finalize, {0}};
  return &result;
}

/* After the routine returned: the task runs its own code again. */
static void after_call(void) {
  ompt_frame_t *f = task_frame();
  check(f && f->enter_frame.ptr == NULL,
        "enter_frame still set after omp_control_tool returned");
}

int main(void) {
  omp_control_tool(omp_control_tool_flush, 1, NULL);
  after_call();
#pragma omp parallel num_threads(2)
  {
    omp_control_tool(omp_control_tool_flush, 2, NULL);
    after_call();
  }
  int e = atomic_load(&errors);
  printf("control_tool_frame: %d checks, %d errors, %d calls\n",
         atomic_load(&checks), e, atomic_load(&calls));
  return e != 0 || atomic_load(&calls) == 0;
}
