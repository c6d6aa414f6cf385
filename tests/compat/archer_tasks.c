/*
 * archer_tasks.c -- race-free explicit tasks for Archer on a pomp-cc gcc
 * build: dependences (out -> in -> inout chains), taskwait, taskgroup (with
 * tasks created inside tasks), and the barrier that completes a region's
 * tasks order every access.  Needs the task callbacks (task_create,
 * task_schedule, dependences).
 *
 *   archer_tasks R
 */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

#define N 16

int main(int argc, char **argv) {
  int reps = argc > 1 ? atoi(argv[1]) : 5;
  long checks = 0;
  for (int r = 0; r < reps; r++) {
    long x = 0, y = 0, z = 0, w = 0, g = 0;
    long part[N];
#pragma omp parallel
    {
#pragma omp single
      {
        /* a dependence chain on x, y */
#pragma omp task depend(out : x)
        x = r + 1;
#pragma omp task depend(in : x) depend(out : y)
        y = x * 2;
#pragma omp task depend(inout : y)
        y += 1;
#pragma omp task depend(in : y)
        z = y;
        /* children finished before the taskwait returns */
#pragma omp task
        w = 5;
#pragma omp taskwait
        w += z;
        /* every descendant of a taskgroup is done at its end */
#pragma omp taskgroup
        {
          for (int i = 0; i < N; i++) {
            /* a task created inside a task, both with firstprivate data:
             * GCC's copy function writes the inner task's copy, and its
             * outlined function reads it before its first statement, so
             * the task's begin must reach Archer before that read */
#pragma omp task firstprivate(i)
            {
              part[i] = i;
#pragma omp task firstprivate(i)
              part[i] += 1;
            }
          }
        }
        for (int i = 0; i < N; i++)
          g += part[i];
      }
      /* tasks created by every thread complete at the barrier */
#pragma omp task
      {
#pragma omp atomic
        g += 1;
      }
#pragma omp barrier
#pragma omp single
      g += 1000;
    }
    long want = (long)N * (N + 1) / 2 + omp_get_max_threads() + 1000;
    checks += (x == r + 1) + (z == 2 * (r + 1) + 1) + (w == z + 5) +
              (g == want);
  }
  printf("tasks: %ld of %d checks\n", checks, 4 * reps);
  return checks == 4L * reps ? 0 : 1;
}
