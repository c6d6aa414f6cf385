/*
 * diff_detach.c -- tasks with a detach clause, for the differential test:
 * a task completes when its block has ended and its event is fulfilled.
 *  - fulfilled inside its own block (early_fulfill, then complete), also
 *    undeferred (if(0)) and created in a task with firstprivate data (GCC
 *    copies it with a copy function);
 *  - fulfilled by the creating task once the block has run, with more than
 *    one thread (usually detach, then late_fulfill);
 *  - fulfilled by the creating task, and a task with an in dependence on it
 *    that may start only after that completion.
 *
 *   diff_detach R
 */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

#define N 4

int main(int argc, char **argv) {
  int reps = argc > 1 ? atoi(argv[1]) : 3;
  int len = reps + 2; /* a run-time size */
  long sum = 0, late = 0, ordered = 0;
  for (int r = 0; r < reps; r++) {
#pragma omp parallel shared(sum, late, ordered)
#pragma omp single
    {
      for (int i = 0; i < N; i++) {
        omp_event_handle_t ev;
#pragma omp task detach(ev) firstprivate(i) shared(sum)
        {
#pragma omp atomic
          sum += i;
          omp_fulfill_event(ev);
        }
      }
      omp_event_handle_t now;
#pragma omp task detach(now) if(0) shared(sum)
      {
#pragma omp atomic
        sum += 100;
        omp_fulfill_event(now);
      }
      /* created in a task from its firstprivate copy (GCC copies it with a
       * copy function) */
#pragma omp task firstprivate(len) shared(sum)
      {
        omp_event_handle_t inner;
#pragma omp task detach(inner) firstprivate(len) shared(sum)
        {
#pragma omp atomic
          sum += len;
          omp_fulfill_event(inner);
        }
#pragma omp taskwait
      }
      if (omp_get_num_threads() > 1) {
        /* another thread runs the block; the creator fulfils the event
         * once the block has written its flag */
        omp_event_handle_t after;
        int ran = 0;
#pragma omp task detach(after) shared(ran, late)
        {
#pragma omp atomic
          late += 1;
#pragma omp atomic write
          ran = 1;
        }
        for (int seen = 0; !seen;) {
#pragma omp atomic read
          seen = ran;
        }
        omp_fulfill_event(after);
      }
      /* the dependent task starts after the detached one completed */
      omp_event_handle_t dep;
      int x = 0;
#pragma omp task detach(dep) depend(out : x) shared(x)
      x = 1;
      omp_fulfill_event(dep);
#pragma omp task depend(in : x) shared(x, ordered)
      {
#pragma omp atomic
        ordered += x;
      }
#pragma omp taskwait
    }
  }
  printf("detach: sum %ld, ordered %ld\n", sum, ordered);
  (void)late;
  return 0;
}
