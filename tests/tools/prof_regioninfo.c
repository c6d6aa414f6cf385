/*
 * prof_regioninfo.c - pompt-prof takes source locations from the runtime
 * when it offers "pompt_region_info" (the construct's CTC string), before
 * any debug information.  This program plays such a runtime: it activates
 * libpompt_prof.so, reports two parallel regions with a loop each, and
 * answers pompt_region_info for the first region and its loop only; the
 * second region is left to the debug information of this program.
 *
 * usage: prof_regioninfo TOOL.so DIR     writes the profile into DIR
 */
#define _GNU_SOURCE
#include <omp-tools.h>

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static ompt_callback_t cbs[64];

static ompt_set_result_t set_cb(ompt_callbacks_t which, ompt_callback_t cb) {
  if ((unsigned)which < 64)
    cbs[which] = cb;
  return ompt_set_always;
}

/* Two code addresses of this program stand for the constructs. */
static void region_a(void) {}
static void loop_a(void) {}

static int region_info(const void *codeptr, const char **ctc) {
  /* return addresses: the profiler asks for the address it was given */
  if (codeptr == (const void *)((const char *)region_a + 1)) {
    *ctc = "60*type=parallel*file=/src/fake\\*star.c*lines=42:50**";
    return 1;
  }
  if (codeptr == (const void *)((const char *)loop_a + 1)) {
    *ctc = "58*type=for*file=/src/fake\\*star.c*lines=44:48*schedule=static**";
    return 1;
  }
  return 0;
}

static ompt_interface_fn_t lookup(const char *name) {
  if (strcmp(name, "ompt_set_callback") == 0)
    return (ompt_interface_fn_t)set_cb;
  if (strcmp(name, "pompt_region_info") == 0)
    return (ompt_interface_fn_t)region_info;
  return NULL;
}

typedef ompt_start_tool_result_t *(*start_fn)(unsigned, const char *);

static void one_region(const void *par_cp, const void *loop_cp) {
  ompt_data_t task = {0}, itask = {0}, par = {0};
  ompt_frame_t frame = {{0}, {0}, 0, 0};
  ((ompt_callback_parallel_begin_t)cbs[ompt_callback_parallel_begin])(
      &task, &frame, &par, 1, ompt_parallel_invoker_runtime, par_cp);
  ((ompt_callback_implicit_task_t)cbs[ompt_callback_implicit_task])(
      ompt_scope_begin, &par, &itask, 1, 0, ompt_task_implicit);
  ompt_callback_work_t wk = (ompt_callback_work_t)cbs[ompt_callback_work];
  wk(ompt_work_loop_static, ompt_scope_begin, &par, &itask, 10, loop_cp);
  wk(ompt_work_loop_static, ompt_scope_end, &par, &itask, 0, loop_cp);
  ((ompt_callback_implicit_task_t)cbs[ompt_callback_implicit_task])(
      ompt_scope_end, NULL, &itask, 1, 0, ompt_task_implicit);
  ((ompt_callback_parallel_end_t)cbs[ompt_callback_parallel_end])(
      &par, &task, ompt_parallel_invoker_runtime, par_cp);
}

int main(int argc, char **argv) {
  if (argc < 3)
    return 2;
  setenv("POMPT_PROF_DIR", argv[2], 1);
  setenv("POMPT_PROF_FORMAT", "json", 1);
  setenv("POMPT_PROF_QUIET", "1", 1);
  void *h = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
  if (h == NULL) {
    fprintf(stderr, "%s\n", dlerror());
    return 1;
  }
  start_fn start = (start_fn)dlsym(h, "ompt_start_tool");
  ompt_start_tool_result_t *r = start(202111, "fake runtime");
  ompt_data_t tool_data = {0}, thread = {0};
  if (r == NULL || !r->initialize(lookup, 0, &tool_data))
    return 1;
  ((ompt_callback_thread_begin_t)cbs[ompt_callback_thread_begin])(
      ompt_thread_initial, &thread);
  one_region((const char *)region_a + 1, (const char *)loop_a + 1);
  one_region((const char *)one_region + 1, (const char *)one_region + 1);
  ((ompt_callback_thread_end_t)cbs[ompt_callback_thread_end])(&thread);
  r->finalize(&tool_data);
  return 0;
}
