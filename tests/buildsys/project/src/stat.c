/* stat.c -- the static library's only member. */
#include "stat.h"

long stat_sum(int n) {
  long s = 0;
#pragma omp parallel for reduction(+ : s) num_threads(TEAM) schedule(static)
  for (int i = 1; i <= n; i++)
    s += i;
  return s;
}
