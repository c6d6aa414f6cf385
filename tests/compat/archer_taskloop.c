/*
 * archer_taskloop.c -- race-free taskloops and taskwait with depend clauses
 * for Archer on a pomp-cc gcc build.  What orders every access here is
 * what libpompt reports from libgomp's taskloop entry: each task's
 * task_create on the encountering thread after the data it reads was
 * written, its completion, the taskloop's implicit taskgroup (or a
 * taskwait after nogroup).
 *
 *   archer_taskloop R
 */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

#define N 64

struct scale {
  long factor;
};

int main(int argc, char **argv) {
  int reps = argc > 1 ? atoi(argv[1]) : 5;
  long checks = 0;
  for (int r = 0; r < reps; r++) {
    long in[N], out[N], twice[N], sum = 0, x = 0, y = 0;
    struct scale sc = {2};
    for (int i = 0; i < N; i++)
      in[i] = i + r;
#pragma omp parallel shared(in, out, twice, sum, x, y)
#pragma omp single
    {
      /* each task reads in[] (written before the taskloop) and writes
       * its own part of out[]; the taskgroup orders them before the
       * reads below */
#pragma omp taskloop grainsize(8) firstprivate(sc)
      for (int i = 0; i < N; i++)
        out[i] = in[i] * sc.factor;
      for (int i = 0; i < N; i++)
        sum += out[i];
      /* nogroup: a taskwait orders the tasks before the reads */
#pragma omp taskloop num_tasks(5) nogroup
      for (int i = 0; i < N; i++)
        twice[i] = out[i] * 2;
#pragma omp taskwait
      for (int i = 0; i < N; i++)
        sum += twice[i];
      /* a reduction keeps libgomp's own taskgroup */
#pragma omp taskloop reduction(+ : sum) num_tasks(4)
      for (int i = 0; i < N; i++)
        sum += in[i];
      /* taskwait with depend clauses: Archer 14 does not know OpenMP
       * 5.2's ompt_taskwait_complete (libomp 14 reports it too), so a
       * plain taskwait orders the read for it; the construct must still
       * not upset it */
#pragma omp task depend(out : x) shared(x)
      x = r + 7;
#pragma omp taskwait depend(in : x)
#pragma omp taskwait
      y = x;
    }
    long want = 0;
    for (int i = 0; i < N; i++)
      want += (i + r) * 2 + (i + r) * 4 + (i + r);
    checks += (sum == want) + (y == r + 7);
  }
  printf("taskloop: %ld of %d checks\n", checks, 2 * reps);
  return checks == 2L * reps ? 0 : 1;
}
