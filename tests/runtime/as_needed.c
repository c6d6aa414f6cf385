/*
 * as_needed.c -- a program built with -fopenmp whose only libgomp entries,
 * GOMP_parallel and GOMP_barrier, libpompt defines too: linked with
 * --as-needed (meson's default) against libpompt, it loses libgomp.  It
 * must still run: libpompt loads libgomp at the first entry that needs it
 * and says why (bridge_gomp_late).
 */
#include <stdio.h>

int main(void) {
  int n = 0;
#pragma omp parallel reduction(+ : n)
  {
#pragma omp barrier
    n = 1;
  }
  printf("as-needed: %s\n", n >= 1 ? "ok" : "wrong");
  return n >= 1 ? 0 : 1;
}
