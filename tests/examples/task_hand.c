/*
 * task_hand.c -- task constructs that hand their tasks to libpompt's
 * GOMP_task (pomp.h, POMPT_Task_hand) among those that keep the compact
 * events, under the checking tool:
 *  - a construct whose priority clause calls a function that creates a
 *    task of its own (GCC would evaluate it between the hand-over and its
 *    call of GOMP_task, where the inner task would take the outer one's
 *    creation: pomp-instr evaluates it before);
 *  - a handed task with a firstprivate struct that creates an undeferred
 *    handed task inside its block;
 *  - a taskgroup whose first task cancels it (run with
 *    OMP_CANCELLATION=true): that task leaves its block at the cancel and
 *    must end as cancelled, the others at their cancellation point, or are
 *    discarded, or complete when they ran first.
 * Every task is created once and ends once (the checking tool), and the
 * program's result shows that every block ran as written.
 */
#include <stdio.h>
#include <stdlib.h>

static int inner_made;

static int make_task(int v) {
#pragma omp task shared(inner_made)
  {
#pragma omp atomic
    inner_made++;
  }
  return v;
}

struct pair {
  int a, b;
};

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 10;
  int sum = 0, left = 0;
  struct pair p = {1, 2};
#pragma omp parallel
#pragma omp single
  {
    for (int i = 0; i < n; i++) {
#pragma omp task priority(make_task(1)) shared(sum)
      {
#pragma omp atomic
        sum += 1;
      }
#pragma omp task firstprivate(p) shared(sum)
      {
#pragma omp task shared(sum) if (0)
        {
#pragma omp atomic
          sum += p.a;
        }
#pragma omp atomic
        sum += p.b;
      }
    }
#pragma omp taskwait
#pragma omp taskgroup
    {
      for (int i = 0; i < n; i++) {
#pragma omp task shared(left)
        {
          if (i == 0) {
#pragma omp cancel taskgroup
          }
#pragma omp cancellation point taskgroup
#pragma omp atomic
          left++;
        }
      }
    }
  }
  printf("sum=%d inner=%d\n", sum, inner_made);
  return left >= n; /* the first task's cancel must have left its block */
}
