/*
 * sde_papi.c -- libpompt's PAPI software-defined events, read through PAPI.
 *
 *   sde_papi [REGIONS]
 *
 * Built with pomp-cc and linked with -lpapi.  The program is its own OMPT
 * tool (ompt_start_tool below): its initialize registers parallel_begin,
 * initialises PAPI there (libpompt must have registered its events with
 * libsde by then) and starts an event set of sde:::pompt::callbacks_parallel_begin,
 * sde:::pompt::callbacks_total and sde:::pompt::regions_registered.  main
 * runs REGIONS parallel regions; PAPI must then read exactly REGIONS
 * parallel_begin callbacks (as many as the tool itself received), a total
 * of at least that, and the registered regions of this program.
 *
 * Exit status 77 (skipped) when libsde.so.1 cannot be loaded or PAPI has no
 * sde component: then there is nothing libpompt could export through.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <omp-tools.h>
#include <papi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SKIP 77

static const char *const names[] = {
    "sde:::pompt::callbacks_parallel_begin",
    "sde:::pompt::callbacks_total",
    "sde:::pompt::regions_registered",
};
enum { PARALLEL_BEGIN, TOTAL, REGIONS, NEVENTS };

static int eventset = PAPI_NULL;
static int setup_status; /* 0 ok, SKIP, or 1 with a message printed */
static long long seen_parallel_begin;

static void on_parallel_begin(ompt_data_t *task, const ompt_frame_t *frame,
                              ompt_data_t *parallel, unsigned requested,
                              int flags, const void *codeptr) {
  (void)task, (void)frame, (void)parallel, (void)requested, (void)flags;
  (void)codeptr;
  __atomic_add_fetch(&seen_parallel_begin, 1, __ATOMIC_RELAXED);
}

static int papi_setup(void) {
  /* Whether there is a libsde at all (libpompt loaded it already if so). */
  if (!dlopen("libsde.so.1", RTLD_NOW | RTLD_NOLOAD)) {
    printf("SKIP: libsde.so.1 is not loaded (not installed?)\n");
    return SKIP;
  }
  int v = PAPI_library_init(PAPI_VER_CURRENT);
  if (v != PAPI_VER_CURRENT) {
    printf("FAIL: PAPI_library_init: %d\n", v);
    return 1;
  }
  int cid = PAPI_get_component_index("sde");
  const PAPI_component_info_t *info =
      cid >= 0 ? PAPI_get_component_info(cid) : NULL;
  if (!info) {
    printf("SKIP: this PAPI has no sde component\n");
    return SKIP;
  }
  if (info->disabled) {
    /* libsde is in the process: the component must have found it. */
    printf("FAIL: PAPI's sde component is disabled: %s\n",
           info->disabled_reason);
    return 1;
  }
  if (PAPI_create_eventset(&eventset) != PAPI_OK) {
    printf("FAIL: PAPI_create_eventset\n");
    return 1;
  }
  for (int i = 0; i < NEVENTS; i++) {
    int rc = PAPI_add_named_event(eventset, names[i]);
    if (rc != PAPI_OK) {
      printf("FAIL: PAPI_add_named_event(%s): %s\n", names[i],
             PAPI_strerror(rc));
      return 1;
    }
  }
  int rc = PAPI_start(eventset);
  if (rc != PAPI_OK) {
    printf("FAIL: PAPI_start: %s\n", PAPI_strerror(rc));
    return 1;
  }
  return 0;
}

static int initialize(ompt_function_lookup_t lookup, int device,
                      ompt_data_t *data) {
  (void)device, (void)data;
  ompt_set_callback_t set = (ompt_set_callback_t)lookup("ompt_set_callback");
  if (!set || set(ompt_callback_parallel_begin,
                  (ompt_callback_t)on_parallel_begin) != ompt_set_always) {
    printf("FAIL: parallel_begin could not be registered\n");
    setup_status = 1;
    return 1;
  }
  /* PAPI from inside initialize: the events must exist already. */
  setup_status = papi_setup();
  return 1;
}

static void finalize(ompt_data_t *data) {
  (void)data;
}

ompt_start_tool_result_t *ompt_start_tool(unsigned version,
                                          const char *runtime) {
  (void)version, (void)runtime;
  static ompt_start_tool_result_t result = {initialize, finalize, {0}};
  return &result;
}

static double work(int i) {
  double s = 0;
#pragma omp parallel reduction(+ : s)
  s += i;
  return s;
}

int main(int argc, char **argv) {
  int regions = argc > 1 ? atoi(argv[1]) : 25;
  if (setup_status)
    return setup_status;
  double s = 0;
  for (int i = 0; i < regions; i++)
    s += work(i);
#pragma omp parallel
  {
#pragma omp single
    s += 1;
  }
  long long v[NEVENTS];
  int rc = PAPI_read(eventset, v);
  if (rc != PAPI_OK) {
    printf("FAIL: PAPI_read: %s\n", PAPI_strerror(rc));
    return 1;
  }
  long long want = regions + 1;
  printf("parallel regions %lld, tool saw %lld; PAPI: "
         "callbacks_parallel_begin %lld, callbacks_total %lld, "
         "regions_registered %lld (checksum %g)\n",
         want, seen_parallel_begin, v[PARALLEL_BEGIN], v[TOTAL], v[REGIONS],
         s);
  int ok = 1;
  if (v[PARALLEL_BEGIN] != want || seen_parallel_begin != want) {
    printf("FAIL: callbacks_parallel_begin %lld, expected %lld\n",
           v[PARALLEL_BEGIN], want);
    ok = 0;
  }
  if (v[TOTAL] < v[PARALLEL_BEGIN]) {
    printf("FAIL: callbacks_total %lld < callbacks_parallel_begin\n", v[TOTAL]);
    ok = 0;
  }
  /* Two parallel regions and a single: each instrumented construct is a
   * region, and pomp-link registers them all before main. */
  if (v[REGIONS] < 3) {
    printf("FAIL: regions_registered %lld, expected at least 3\n", v[REGIONS]);
    ok = 0;
  }
  /* A second read: nothing happened in between. */
  long long w[NEVENTS];
  if (PAPI_read(eventset, w) != PAPI_OK || w[PARALLEL_BEGIN] != want) {
    printf("FAIL: a second read gave %lld parallel_begin\n", w[PARALLEL_BEGIN]);
    ok = 0;
  }
  PAPI_stop(eventset, w);
  printf(ok ? "PASS\n" : "FAILED\n");
  return ok ? 0 : 1;
}
