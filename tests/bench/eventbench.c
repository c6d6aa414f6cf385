/*
 * eventbench.c -- what one POMP event costs when no OMPT callback is
 * registered for it.
 *
 *   eventbench [-n CALLS] [-s SAMPLES]
 *
 * Calls POMP events from a loop, on the initial thread, and compares the
 * loop with the same loop without the calls.  Run it three ways (run_bench.py
 * does): with no tool (libpompt inactive: the events return at once), under
 * a tool that registered nothing (tests/bench/null_tool.c with
 * POMPT_NULL_TOOL=none: libpompt active, no callback to call), and under the
 * same tool registering every callback (empty bodies), for comparison.
 *
 * Events measured, each with the OMPT callback it would reach:
 *   masked     POMP_Master_begin + POMP_Master_end        (masked)
 *   dispatch   POMP_Loop_iter_event                       (dispatch)
 *   section    POMP_Section_begin + POMP_Section_end      (dispatch)
 *   flush      POMP_Flush_event                           (none in OMPT)
 *
 * Each figure is the fastest of SAMPLES timings (other load on a shared
 * machine only adds time).  Output, one line per event:
 *   event NAME ns_per_event X loop_ns Y empty_ns Z calls N
 */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "pomp.h"

#define T POMP_THREAD_SELF

static POMP_Handle_t h_master, h_loop, h_sections, h_flush;
static char ctc_master[128], ctc_loop[128], ctc_sections[128], ctc_flush[128];

/* "<length>*type=...*file=...*lines=a,b**": the length counts from the
 * first '*' to the last. */
static void make_ctc(char *buf, size_t size, const char *type, int line) {
  char body[96];
  snprintf(body, sizeof body, "*type=%s*file=eventbench.c*lines=%d,%d**",
           type, line, line);
  snprintf(buf, size, "%zu%s", strlen(body), body);
}

static double now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

/* The compiler barrier keeps every loop a loop of the same shape. */
#define KEEP() __asm__ __volatile__("" ::: "memory")

__attribute__((noinline)) static void loop_empty(long n) {
  for (long i = 0; i < n; i++)
    KEEP();
}

__attribute__((noinline)) static void loop_masked(long n) {
  for (long i = 0; i < n; i++) {
    POMP_Master_begin(&h_master, T, ctc_master);
    POMP_Master_end(h_master, T);
    KEEP();
  }
}

__attribute__((noinline)) static void loop_dispatch(long n) {
  for (long i = 0; i < n; i++) {
    POMP_Loop_iter_event(h_loop, T, i);
    KEEP();
  }
}

__attribute__((noinline)) static void loop_section(long n) {
  for (long i = 0; i < n; i++) {
    POMP_Section_begin(h_sections, 1, T);
    POMP_Section_end(h_sections, T);
    KEEP();
  }
}

__attribute__((noinline)) static void loop_flush(long n) {
  for (long i = 0; i < n; i++) {
    POMP_Flush_event(&h_flush, T, ctc_flush);
    KEEP();
  }
}

static const struct {
  const char *name;
  void (*run)(long);
  int events_per_iteration;
} loops[] = {
    {"masked", loop_masked, 2},
    {"dispatch", loop_dispatch, 1},
    {"section", loop_section, 2},
    {"flush", loop_flush, 1},
};

static double time_ns(void (*run)(long), long n) {
  double t0 = now_ns();
  run(n);
  return now_ns() - t0;
}

int main(int argc, char **argv) {
  long calls = 20000000;
  int samples = 11;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (!strcmp(argv[i], "-n"))
      calls = atol(argv[i + 1]);
    else if (!strcmp(argv[i], "-s"))
      samples = atoi(argv[i + 1]);
  }
  if (calls < 1 || samples < 1) {
    fprintf(stderr, "usage: eventbench [-n CALLS] [-s SAMPLES]\n");
    return 2;
  }
  make_ctc(ctc_master, sizeof ctc_master, "master", 1);
  make_ctc(ctc_loop, sizeof ctc_loop, "for", 2);
  make_ctc(ctc_sections, sizeof ctc_sections, "sections", 3);
  make_ctc(ctc_flush, sizeof ctc_flush, "flush", 4);
  /* Handles are registered once, as pomp-link's init unit does. */
  if (POMP_Get_handle(&h_master, ctc_master) != POMP_SUCCESS ||
      POMP_Get_handle(&h_loop, ctc_loop) != POMP_SUCCESS ||
      POMP_Get_handle(&h_sections, ctc_sections) != POMP_SUCCESS ||
      POMP_Get_handle(&h_flush, ctc_flush) != POMP_SUCCESS) {
    fprintf(stderr, "eventbench: POMP_Get_handle failed\n");
    return 1;
  }
  double *loop = malloc(sizeof(double) * (size_t)samples * 2);
  if (!loop)
    return 1;
  double *empty = loop + samples;
  for (size_t k = 0; k < sizeof loops / sizeof loops[0]; k++) {
    loops[k].run(calls / 10); /* warm up: first-event work, page faults */
    for (int s = 0; s < samples; s++) {
      empty[s] = time_ns(loop_empty, calls);
      loop[s] = time_ns(loops[k].run, calls);
    }
    /* Fastest of the samples: other load on the machine only adds. */
    double l = loop[0], e = empty[0];
    for (int s = 1; s < samples; s++) {
      if (loop[s] < l)
        l = loop[s];
      if (empty[s] < e)
        e = empty[s];
    }
    l /= (double)calls;
    e /= (double)calls;
    printf("event %s ns_per_event %.3f loop_ns %.3f empty_ns %.3f calls %ld\n",
           loops[k].name, (l - e) / loops[k].events_per_iteration, l, e,
           calls);
  }
  free(loop);
  return 0;
}
