/*
 * prof_signal.c - signals while profiled.
 *   prof_signal handled  every thread raises SIGUSR1, which the program
 *                        handles; the run ends normally
 *   prof_signal term     the primary thread raises SIGTERM inside a
 *                        parallel region: the process dies of it
 */
#include <omp.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>

static volatile sig_atomic_t handled;

static void on_usr1(int sig) {
  (void)sig;
  __atomic_add_fetch(&handled, 1, __ATOMIC_RELAXED);
}

int main(int argc, char **argv) {
  int term = argc > 1 && strcmp(argv[1], "term") == 0;
  signal(SIGUSR1, on_usr1);
  double sum = 0.0;
  #pragma omp parallel reduction(+:sum)
  {
    #pragma omp for schedule(static)
    for (int i = 0; i < 100000; i++)
      sum += i;
    raise(SIGUSR1);
    #pragma omp barrier
    if (term && omp_get_thread_num() == 0)
      raise(SIGTERM);
  }
  printf("sum %.0f signals %d\n", sum, (int)handled);
  return 0;
}
