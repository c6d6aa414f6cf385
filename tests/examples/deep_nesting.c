/*
 * deep_nesting.c -- constructs nested deeper than a thread's first scope
 * stack holds (64): D taskgroups, one inside the other by recursion, each
 * with a task.  libpompt's first stack is its own memory, the larger ones
 * the heap's; under the checking tool every begin must still meet its end,
 * and a sanitizer run must find nothing leaked or out of bounds.
 *
 *   deep_nesting [D]   (default 200)
 */
#include <stdio.h>
#include <stdlib.h>

static int deepest;

static void nest(int d) {
  if (d == 0)
    return;
#pragma omp taskgroup
  {
#pragma omp task shared(deepest) firstprivate(d)
    {
#pragma omp critical
      if (d > deepest)
        deepest = d;
    }
    nest(d - 1);
  }
}

int main(int argc, char **argv) {
  int depth = argc > 1 ? atoi(argv[1]) : 200;
#pragma omp parallel
#pragma omp single
  nest(depth);
  printf("deepest %d\n", deepest);
  return deepest == depth ? 0 : 1;
}
