/*
 * prof_eventcost.c - what one OMPT callback of pompt-prof costs, without an
 * OpenMP runtime around it: this program plays the runtime, loads
 * libpompt_prof.so, activates it through ompt_start_tool and its
 * initialize, and calls the callbacks it registered the way a runtime calls
 * them for a parallel region with a worksharing loop and two barriers (10
 * callbacks per region), on one thread.
 *
 * usage: prof_eventcost TOOL.so [regions]
 * prints "ns_per_callback <x>" for the timeline on and off (best of 5).
 */
#define _GNU_SOURCE
#include <omp-tools.h>

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static ompt_callback_t cbs[64];

static ompt_set_result_t set_cb(ompt_callbacks_t which, ompt_callback_t cb) {
  if ((unsigned)which < 64)
    cbs[which] = cb;
  return ompt_set_always;
}

static ompt_interface_fn_t lookup(const char *name) {
  if (strcmp(name, "ompt_set_callback") == 0)
    return (ompt_interface_fn_t)set_cb;
  return NULL;
}

/* The thread's CPU time: on a shared machine, time the thread was not
   running (another process's, or the hypervisor's steal) is not the
   callbacks' cost. */
static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

typedef ompt_start_tool_result_t *(*start_fn)(unsigned, const char *);

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: prof_eventcost TOOL.so [regions]\n");
    return 2;
  }
  long regions = argc > 2 ? atol(argv[2]) : 200000;
  setenv("POMPT_PROF_QUIET", "1", 1);
  char cmd[1024];
  char dir[] = "/tmp/prof_eventcost.XXXXXX";
  if (mkdtemp(dir) == NULL)
    return 1;
  setenv("POMPT_PROF_DIR", dir, 1);
  /* keep every slice of the timeline: its cost is part of the measure */
  setenv("POMPT_PROF_TRACE_MAX", "100000000", 1);
  for (int trace = 1; trace >= 0; trace--) {
    /* a fresh copy of the tool each time: its state is per process */
    setenv("POMPT_PROF_FORMAT", trace ? "trace" : "json", 1);
    char copy[256];
    snprintf(copy, sizeof copy, "%s/tool%d.so", dir, trace);
    snprintf(cmd, sizeof cmd, "cp '%s' '%s'", argv[1], copy);
    if (system(cmd) != 0)
      return 1;
    void *h = dlopen(copy, RTLD_NOW | RTLD_LOCAL);
    remove(copy);
    if (h == NULL) {
      fprintf(stderr, "%s\n", dlerror());
      return 1;
    }
    start_fn start = (start_fn)dlsym(h, "ompt_start_tool");
    ompt_start_tool_result_t *r = start(202111, "prof_eventcost");
    ompt_data_t tool_data = {0};
    memset(cbs, 0, sizeof cbs);
    if (r == NULL || !r->initialize(lookup, 0, &tool_data))
      return 1;
    ompt_data_t thread = {0}, task = {0}, itask = {0};
    ompt_frame_t frame = {{0}, {0}, 0, 0};
    ((ompt_callback_thread_begin_t)cbs[ompt_callback_thread_begin])(
        ompt_thread_initial, &thread);
    ompt_callback_parallel_begin_t pb =
        (ompt_callback_parallel_begin_t)cbs[ompt_callback_parallel_begin];
    ompt_callback_parallel_end_t pe =
        (ompt_callback_parallel_end_t)cbs[ompt_callback_parallel_end];
    ompt_callback_implicit_task_t it =
        (ompt_callback_implicit_task_t)cbs[ompt_callback_implicit_task];
    ompt_callback_work_t wk = (ompt_callback_work_t)cbs[ompt_callback_work];
    ompt_callback_sync_region_t sr =
        (ompt_callback_sync_region_t)cbs[ompt_callback_sync_region];
    ompt_callback_sync_region_t sw =
        (ompt_callback_sync_region_t)cbs[ompt_callback_sync_region_wait];
    const void *cp = (const void *)main;
    double best = 1e9;
    for (int round = 0; round < 5; round++) {
      double t0 = now();
      for (long i = 0; i < regions; i++) {
        ompt_data_t par = {0};
        pb(&task, &frame, &par, 1, ompt_parallel_invoker_runtime, cp);
        it(ompt_scope_begin, &par, &itask, 1, 0, ompt_task_implicit);
        wk(ompt_work_loop_static, ompt_scope_begin, &par, &itask, 100, cp);
        wk(ompt_work_loop_static, ompt_scope_end, &par, &itask, 0, cp);
        sr(ompt_sync_region_barrier_implicit_workshare, ompt_scope_begin, &par,
           &itask, cp);
        sw(ompt_sync_region_barrier_implicit_workshare, ompt_scope_begin, &par,
           &itask, cp);
        sw(ompt_sync_region_barrier_implicit_workshare, ompt_scope_end, &par,
           &itask, cp);
        sr(ompt_sync_region_barrier_implicit_workshare, ompt_scope_end, &par,
           &itask, cp);
        it(ompt_scope_end, NULL, &itask, 1, 0, ompt_task_implicit);
        pe(&par, &task, ompt_parallel_invoker_runtime, cp);
      }
      double ns = (now() - t0) * 1e9 / ((double)regions * 10);
      if (ns < best)
        best = ns;
    }
    printf("timeline %s: ns_per_callback %.1f\n", trace ? "on " : "off", best);
    r->finalize(&tool_data);
    /* the library stays loaded: its threads' records are never freed */
  }
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
  return system(cmd) == 0 ? 0 : 1;
}
