/*
 * distribute.c -- distribute parallel for [simd] in host teams: each team's
 * share of the loop runs in a parallel region that libgomp starts, whose
 * threads share it out: per region parallel_begin/end, an implicit task,
 * work(loop) and the end barrier per thread (tests/examples/meson.build has
 * the counts for a team of n threads).
 */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

#define LEN 96

int main(int argc, char **argv) {
  int reps = argc > 1 ? atoi(argv[1]) : 1;
  double a[LEN] = {0};
  long s = 0;
  for (int r = 0; r < reps; r++) {
    /* 2 teams, one distribute chunk each: 2 regions of n threads */
#pragma omp teams num_teams(2)
    {
#pragma omp distribute parallel for
      for (int i = 0; i < LEN; i++)
        a[i] += i;
      /* dist_schedule chunks of 16: 6 chunks, 3 per team, 3 regions each,
       * of 2 threads */
#pragma omp distribute parallel for simd dist_schedule(static, 16) \
    num_threads(2) reduction(+ : s)
      for (int i = 0; i < LEN; i++)
        s += i;
    }
    /* combined, with a runtime-scheduled loop (GOMP_parallel_loop_*): 3
     * regions of 2 threads */
#pragma omp teams distribute parallel for num_teams(3) num_threads(2) \
    schedule(dynamic, 4)
    for (int i = 0; i < LEN; i++)
      a[i] *= 2.0;
  }
  double check = 0.0;
  for (int i = 0; i < LEN; i++)
    check += a[i];
  printf("s=%ld check=%.1f\n", s, check);
  return 0;
}
