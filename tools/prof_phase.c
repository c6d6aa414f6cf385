/*
 * prof_phase.c - where the profiler's own fixed cost goes.  With
 * POMPT_PROF_TIMES=1 each phase of the tool's start and end (symbols, each
 * file, ...) prints its wall-clock and CPU time on stderr, so that the cost
 * outside the program's own run can be measured phase by phase without a
 * system profiler.  The minor page faults of each phase are printed too: on
 * a virtual machine a first touch of a page costs about a microsecond, so
 * memory freshly taken from the system is a cost of its own.  Off (one
 * cached test) otherwise.
 */
#define _GNU_SOURCE

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "prof_model.h"

static int enabled = -1;
static double last_wall, last_cpu;
static long last_faults;

static double ms(clockid_t id) {
  struct timespec ts;
  clock_gettime(id, &ts);
  return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

int prof_phase_on(void) {
  if (enabled < 0) {
    const char *v = getenv("POMPT_PROF_TIMES");
    enabled = v != NULL && strcmp(v, "1") == 0;
  }
  return enabled;
}

void prof_phase(const char *what) {
  if (!prof_phase_on())
    return;
  double w = ms(CLOCK_MONOTONIC), c = ms(CLOCK_THREAD_CPUTIME_ID);
  struct rusage ru;
  long faults = getrusage(RUSAGE_THREAD, &ru) == 0 ? ru.ru_minflt : 0;
  if (what != NULL && last_wall > 0)
    fprintf(stderr,
            "pompt-prof: time %-12s %8.3f ms wall %8.3f ms cpu %5ld faults\n",
            what, w - last_wall, c - last_cpu, faults - last_faults);
  last_wall = w;
  last_cpu = c;
  last_faults = faults;
}
