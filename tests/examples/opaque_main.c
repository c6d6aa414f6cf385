/*
 * opaque_main.c -- an instrumented program (pomp-cc) that calls OpenMP code
 * pomp-cc did not compile (opaque_lib.c, a plain gcc -fopenmp library):
 * the library's regions, called from the initial task, from inside an
 * instrumented region (nested, a team of one each), and running the
 * program's instrumented constructs on their threads (an orphaned loop and
 * a critical region); and a target teams construct, whose code the host
 * fallback runs and pomp-cc leaves alone.  tests/examples/meson.build holds the exact counts.
 */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

#include "opaque_lib.h"

static long hits, sum;

/* Runs on every thread of a library region: constructs bound to it. */
static long orphan(int n) {
#pragma omp for schedule(static) reduction(+ : sum)
  for (int i = 0; i < n; i++)
    sum += i;
#pragma omp critical
  hits++;
  return 1;
}

int main(int argc, char **argv) {
  int reps = argc > 1 ? atoi(argv[1]) : 3;
  long total = 0;
  for (int r = 0; r < reps; r++) {
    total += opaque_barriers() > 0;
    total += opaque_dynamic(100);
    total += opaque_runtime(100);
    total += opaque_fill();
    total += opaque_sections();
    total += opaque_tasks(10);
    total += opaque_call(orphan, 50) > 0;
    total += opaque_worksharing(40) > 0;
    total += opaque_critical(5) > 0;
    total += opaque_taskgroup() == 100;
    total += opaque_ordered(OPAQUE_ORDERED) == 0;
    total += opaque_teams() == 6;
    total += opaque_task_reduction() == 10;
    total += opaque_dependences() == 11;
    /* A teams construct in a target region, which runs here (libgomp's
     * host fallback) and whose code pomp-cc leaves alone: GOMP_teams4. */
    long league[2] = {0, 0};
#pragma omp target teams num_teams(2) map(tofrom : league)
    league[omp_get_team_num()] = omp_get_num_teams();
    total += league[0] == 2 && league[1] == 2;
  }
  long nested = 0;
#pragma omp parallel reduction(+ : nested)
  nested += opaque_dynamic(10);
  printf("total=%ld sum=%ld hits>0=%d nested>0=%d\n", total, sum, hits > 0,
         nested > 0);
  return 0;
}
