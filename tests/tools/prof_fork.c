/*
 * prof_fork.c - a profiled program that forks between parallel regions.
 *   prof_fork _exit   the child runs a parallel region (a team of one) and
 *                     leaves with _exit: no exit processing, no profile
 *   prof_fork exec    the child runs this program again ("leaf"): a new
 *                     process with a profile of its own
 *   prof_fork exit    the child runs a parallel region (a team of one) and
 *                     leaves with exit(): a profile of its own (its pid),
 *                     with that region only
 * It prints "parent <pid> child <pid> exec <pid or 0>".
 */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static double region(int n, int threads) {
  double sum = 0.0;
  #pragma omp parallel for reduction(+:sum) num_threads(threads)
  for (int i = 0; i < n; i++)
    sum += i * 0.5;
  return sum;
}

int main(int argc, char **argv) {
  const char *mode = argc > 1 ? argv[1] : "_exit";
  if (strcmp(mode, "leaf") == 0)
    return region(1000, omp_get_max_threads()) > 0.0 ? 0 : 1;
  int team = omp_get_max_threads();
  double s = region(10000, team);
  fflush(stdout);
  pid_t child = fork();
  if (child == 0) {
    if (strcmp(mode, "exec") == 0) {
      execl("/proc/self/exe", argv[0], "leaf", (char *)NULL);
      _exit(126);
    }
    /* a team of one: libgomp cannot start threads in a forked child of a
       process that had a team (it hangs, with or without pompt) */
    double c = region(1000, 1);
    if (strcmp(mode, "exit") == 0)
      exit(c > 0.0 ? 0 : 1);
    _exit(c > 0.0 ? 0 : 1);
  }
  int st = 0;
  waitpid(child, &st, 0);
  s += region(10000, team);
  printf("parent %ld child %ld exec %ld\n", (long)getpid(), (long)child,
         strcmp(mode, "exec") == 0 ? (long)child : 0L);
  printf("sum %.1f child status %d\n", s, WIFEXITED(st) ? WEXITSTATUS(st) : -1);
  return WIFEXITED(st) && WEXITSTATUS(st) == 0 ? 0 : 1;
}
