/*
 * prof_clock.c - the timestamps the callbacks take.
 *
 * Every recorded callback reads the clock once, and on the machines this
 * was measured on (x86-64 virtual machines) clock_gettime through the vDSO
 * costs 22 ns of the profiler's 29 ns per callback; reading the time stamp
 * counter costs 10 ns.  So where the kernel itself keeps time with the TSC
 * (clocksource "tsc": it has checked that the counter runs at a constant
 * rate and in step on every CPU), the callbacks record raw TSC ticks, and
 * the end converts them: two readings of both clocks, at the start and at
 * the end of the run, give nanoseconds per tick.  Elsewhere (another
 * clocksource, another architecture, POMPT_PROF_CLOCK=monotonic) the
 * timestamps are CLOCK_MONOTONIC nanoseconds and the factor is 1.
 */
#define _GNU_SOURCE

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "prof_tool.h"

#if defined(__x86_64__) || defined(__i386__)
#include <x86intrin.h>
#define HAVE_TSC 1
#else
#define HAVE_TSC 0
#endif

int prof_clock_tsc;
double prof_ns_per_tick = 1.0;
static uint64_t tick0, ns0;

static uint64_t mono_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

uint64_t prof_now(void) {
#if HAVE_TSC
  if (__builtin_expect(prof_clock_tsc, 1))
    return __rdtsc();
#endif
  return mono_ns();
}

/* The kernel's clocksource: "tsc" when it trusts the counter. */
static int kernel_uses_tsc(void) {
  FILE *f = fopen(
      "/sys/devices/system/clocksource/clocksource0/current_clocksource", "r");
  if (f == NULL)
    return 0;
  char buf[32] = "";
  int ok = fgets(buf, sizeof buf, f) != NULL && strncmp(buf, "tsc", 3) == 0 &&
           (buf[3] == '\n' || buf[3] == '\0');
  fclose(f);
  return ok;
}

void prof_clock_init(void) {
  /* POMPT_PROF_CLOCK=monotonic: clock_gettime even where the TSC would do */
  const char *want = getenv("POMPT_PROF_CLOCK");
  int forced = want != NULL && strcmp(want, "monotonic") == 0;
  prof_clock_tsc = HAVE_TSC && !forced && kernel_uses_tsc();
  prof_ns_per_tick = 1.0;
  if (prof_clock_tsc) {
    ns0 = mono_ns();
    tick0 = prof_now();
  }
}

void prof_clock_end(void) {
  if (!prof_clock_tsc)
    return;
  uint64_t ns1 = mono_ns();
  uint64_t tick1 = prof_now();
  /* the two readings at each end are some ten nanoseconds apart: over a
     run of a millisecond, an error of 1e-5 */
  if (tick1 > tick0 && ns1 > ns0)
    prof_ns_per_tick = (double)(ns1 - ns0) / (double)(tick1 - tick0);
}
