/*
 * reductions.c -- reductions libpompt sees, a0 repetitions (default 3):
 * those GCC combines between GOMP_atomic_start/_end (several list items, a
 * user-defined reduction) on parallel, for and sections; those on the
 * parallel leaf (parallel, parallel for, a parallel region that is one
 * loop: pomp-instr puts the clause there), one scalar too, combined after
 * the region's block; and what it must not
 * count: a one-scalar reduction of a loop inside a region (GCC combines it
 * with an atomic instruction: not observable), and an atomic construct on
 * long double inside a loop, which GCC brackets with the same pair; and
 * the task reductions of a taskgroup and of a taskloop, each combined once
 * by the thread that ends its taskgroup.  Per repetition every thread of
 * the team combines 8 times, and one thread 2 more.
 */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

typedef struct { long lo, hi; } range_t;
#pragma omp declare reduction(merge : range_t : \
    omp_out.lo = omp_in.lo < omp_out.lo ? omp_in.lo : omp_out.lo, \
    omp_out.hi = omp_in.hi > omp_out.hi ? omp_in.hi : omp_out.hi) \
    initializer(omp_priv = (range_t){1L << 40, -(1L << 40)})

int main(int argc, char **argv) {
  int reps = argc > 1 ? atoi(argv[1]) : 3;
  long a = 0, b = 0, s = 0, m = 0;
  double d = 1.0;
  long double ld = 0;
  range_t r = {1L << 40, -(1L << 40)};
  for (int k = 0; k < reps; k++) {
#pragma omp parallel reduction(+ : a, b)
    { a += 1; b += 2; }
#pragma omp parallel
    {
#pragma omp for reduction(+ : a, b)
      for (int i = 0; i < 100; i++) { a += i; b -= i; }
#pragma omp for reduction(+ : s) nowait
      for (int i = 0; i < 100; i++) s += i;
#pragma omp sections reduction(* : d) reduction(+ : a)
      {
#pragma omp section
        { d *= 2.0; a += 1; }
#pragma omp section
        { d *= 0.5; a += 1; }
      }
#pragma omp for
      for (int i = 0; i < 10; i++) {
#pragma omp atomic
        ld += 1.0L;
      }
    }
#pragma omp parallel for reduction(max : m) reduction(+ : a)
    for (int i = 0; i < 50; i++) { if (i > m) m = i; a += 1; }
#pragma omp parallel reduction(+ : s)
    s += 1;
#pragma omp parallel
#pragma omp for reduction(+ : s)
    for (int i = 0; i < 40; i++)
      s += i;
#pragma omp parallel for reduction(+ : s)
    for (int i = 0; i < 20; i++)
      s += i;
#pragma omp parallel
#pragma omp single
    {
#pragma omp taskgroup task_reduction(+ : s)
      for (int i = 0; i < 8; i++) {
#pragma omp task in_reduction(+ : s)
        s += i;
      }
#pragma omp taskloop reduction(+ : b)
      for (int i = 0; i < 16; i++)
        b += i;
    }
#pragma omp parallel for reduction(merge : r)
    for (int i = 0; i < 30; i++) {
      if (i < r.lo) r.lo = i;
      if (i > r.hi) r.hi = i;
    }
  }
  printf("reductions: a=%ld b=%ld s=%ld m=%ld d=%g ld=%Lg r=[%ld,%ld]\n", a, b, s, m, d, ld, r.lo, r.hi);
  return 0;
}
