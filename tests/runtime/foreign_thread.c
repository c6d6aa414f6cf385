/*
 * foreign_thread.c -- parallel regions started by threads that the OpenMP
 * runtime did not create (pthread_create), instrumented by hand.
 *
 * OpenMP 5.2 makes such a thread an initial thread: a tool must see
 * thread_begin(ompt_thread_initial) and an initial task, in an initial
 * region of its own, before the thread's first region, so that the
 * region's parallel_begin has an encountering task and frame; both end
 * when the thread exits.  The main thread runs one region, then two
 * threads run R regions each, concurrently; each of those regions also
 * creates a task outside any region (undeferred, in the thread's initial
 * region).  Per R and team of n: parallel_begin = 1 + 2R, thread_initial
 * = initial_task_begin = 3 (the check tool verifies the rest).
 */
#include <omp.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#include "hand.h"

static POMP_Handle_t h_par, h_task;
static const char ctc_par[] =
    CTC("type=parallel*file=foreign.c*lines=30,40");
static const char ctc_task[] = CTC("type=task*file=foreign.c*lines=42,43");

static int reps = 3;

/* One region of a team; returns how many threads ran it. */
static int region(void) {
  int ran = 0;
  PARALLEL_ENTER(h_par, ctc_par)
#pragma omp parallel shared(pompt_team, ran)
  {
    PARALLEL_BEGIN(h_par)
    __atomic_fetch_add(&ran, 1, __ATOMIC_RELAXED);
    PARALLEL_END(h_par)
  }
  PARALLEL_EXIT(h_par)
  return ran;
}

static void *foreign(void *arg) {
  long *ran = arg;
  for (int i = 0; i < reps; i++) {
    *ran += region();
    int done = 0;
    TASK_CREATE(h_task, ctc_task, 0)
#pragma omp task firstprivate(pompt_task) shared(done)
    TASK_BEGIN(h_task)
    done = 1;
    TASK_END(h_task)
    TASK_DONE(h_task)
#pragma omp taskwait
    *ran += done;
  }
  return NULL;
}

int main(int argc, char **argv) {
  if (argc > 1)
    reps = atoi(argv[1]);
  int n = omp_get_max_threads();
  long ran_main = region();
  long ran[2] = {0, 0};
  pthread_t th[2];
  for (int i = 0; i < 2; i++)
    if (pthread_create(&th[i], NULL, foreign, &ran[i]) != 0) {
      perror("pthread_create");
      return 1;
    }
  for (int i = 0; i < 2; i++)
    pthread_join(th[i], NULL);
  long want = (long)reps * (n + 1);
  if (ran_main != n || ran[0] != want || ran[1] != want) {
    fprintf(stderr, "wrong results: main %ld, threads %ld %ld, want %d %ld\n",
            ran_main, ran[0], ran[1], n, want);
    return 1;
  }
  return 0;
}
