/*
 * prof_sde.c - pompt-prof counts PAPI software-defined events (process-wide
 * counters a library exports through libsde, as libpompt does) per region.
 * This program plays an OpenMP runtime that exports such counters: it
 * registers "sde:::fakert::work" before the tool starts and
 * "sde:::fakert::late" after, activates libpompt_prof.so with three events
 * (the third, "sde:::fakert::never", is never registered) and reports:
 *
 *   region A (@a) on the initial thread, a loop (@la) in it:
 *       work += 5 in the loop, += 2 in the region outside the loop
 *   work += 100 outside any region
 *   region B (@b), a loop (@lb) in it: work += 7, late += 3 in the loop
 *   region C (@c) on a second thread while the initial thread waits for it
 *   outside any region: work += 11
 *
 * so that, counted on the initial thread: A 7 (its loop 5), B 7 and 3 (its
 * loop the same), C nothing (another thread's region), the program 125 and
 * 3, "never" nothing and a note.
 *
 * usage: prof_sde TOOL.so DIR     writes the profile into DIR
 */
#define _GNU_SOURCE
#include <omp-tools.h>

#include <dlfcn.h>
#include <pthread.h>
#include <sde_lib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static ompt_callback_t cbs[64];
static long long work, late;

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

/* Code addresses of this program stand for the constructs. */
static void region_a(void) {} /* @a */
static void loop_a(void) {}   /* @la */
static void region_b(void) {} /* @b */
static void loop_b(void) {}   /* @lb */
static void region_c(void) {} /* @c */
static void loop_c(void) {}   /* @lc */

#define RA(f) ((const char *)(f) + 1) /* a return address inside f */

/* One parallel region of one thread with a loop; the counters grow by
   in_loop inside the loop, by in_region around it. */
static void one_region(const void *par_cp, const void *loop_cp, int in_loop,
                       int in_region, int late_in_loop) {
  ompt_data_t task = {0}, itask = {0}, par = {0};
  ompt_frame_t frame = {{0}, {0}, 0, 0};
  ((ompt_callback_parallel_begin_t)cbs[ompt_callback_parallel_begin])(
      &task, &frame, &par, 1, ompt_parallel_invoker_runtime, par_cp);
  ((ompt_callback_implicit_task_t)cbs[ompt_callback_implicit_task])(
      ompt_scope_begin, &par, &itask, 1, 0, ompt_task_implicit);
  work += in_region;
  ompt_callback_work_t wk = (ompt_callback_work_t)cbs[ompt_callback_work];
  wk(ompt_work_loop_static, ompt_scope_begin, &par, &itask, 10, loop_cp);
  work += in_loop;
  late += late_in_loop;
  wk(ompt_work_loop_static, ompt_scope_end, &par, &itask, 0, loop_cp);
  ((ompt_callback_implicit_task_t)cbs[ompt_callback_implicit_task])(
      ompt_scope_end, NULL, &itask, 1, 0, ompt_task_implicit);
  ((ompt_callback_parallel_end_t)cbs[ompt_callback_parallel_end])(
      &par, &task, ompt_parallel_invoker_runtime, par_cp);
}

static void *other_thread(void *arg) {
  (void)arg;
  ompt_data_t thread = {0};
  ((ompt_callback_thread_begin_t)cbs[ompt_callback_thread_begin])(
      ompt_thread_other, &thread);
  one_region(RA(region_c), RA(loop_c), 11, 0, 0);
  ((ompt_callback_thread_end_t)cbs[ompt_callback_thread_end])(&thread);
  return NULL;
}

typedef ompt_start_tool_result_t *(*start_fn)(unsigned, const char *);

int main(int argc, char **argv) {
  if (argc < 3)
    return 2;
  papi_handle_t sde = papi_sde_init("fakert");
  papi_sde_register_counter(sde, "work", PAPI_SDE_RO | PAPI_SDE_DELTA,
                            PAPI_SDE_long_long, &work);
  setenv("POMPT_PROF_DIR", argv[2], 1);
  setenv("POMPT_PROF_FORMAT", "json,text", 1);
  setenv("POMPT_PROF_QUIET", "1", 1);
  setenv("POMPT_PROF_PAPI",
         "sde:::fakert::work,sde:::fakert::late,sde:::fakert::never", 1);
  void *h = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
  if (h == NULL) {
    fprintf(stderr, "%s\n", dlerror());
    return 1;
  }
  start_fn start = (start_fn)dlsym(h, "ompt_start_tool");
  ompt_start_tool_result_t *r = start(202111, "fake runtime with SDE");
  ompt_data_t tool_data = {0}, thread = {0};
  if (r == NULL || !r->initialize(lookup, 0, &tool_data))
    return 1;
  ((ompt_callback_thread_begin_t)cbs[ompt_callback_thread_begin])(
      ompt_thread_initial, &thread);
  one_region(RA(region_a), RA(loop_a), 5, 2, 0);
  work += 100;
  papi_sde_register_counter(sde, "late", PAPI_SDE_RO | PAPI_SDE_DELTA,
                            PAPI_SDE_long_long, &late);
  one_region(RA(region_b), RA(loop_b), 7, 0, 3);
  pthread_t th;
  if (pthread_create(&th, NULL, other_thread, NULL) != 0)
    return 1;
  pthread_join(th, NULL);
  ((ompt_callback_thread_end_t)cbs[ompt_callback_thread_end])(&thread);
  r->finalize(&tool_data);
  printf("work %lld late %lld\n", work, late);
  return 0;
}
