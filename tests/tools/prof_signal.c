/*
 * prof_signal.c - signals while profiled.
 *   prof_signal handled  every thread raises SIGUSR1, which the program
 *                        handles; the run ends normally
 *   prof_signal term     the primary thread raises SIGTERM inside a
 *                        parallel region: the process dies of it
 *   prof_signal int      the last thread of the team sends SIGINT to the
 *                        process inside a parallel region, then every thread
 *                        waits for the end: the process dies of it
 *   prof_signal own      the program handles SIGTERM itself (installed at
 *                        the start of main), raises it inside a parallel
 *                        region and ends normally
 *   prof_signal segv     the primary thread writes to an unmapped address
 *                        inside a parallel region: the process dies of
 *                        SIGSEGV (no core file: RLIMIT_CORE is set to 0)
 *   prof_signal abort    the primary thread calls abort() there: SIGABRT
 */
#include <omp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

/* Read at run time: the compiler cannot see that the store faults.  Not
   null (UBSan would report a null store itself), in the unmapped first
   page. */
static int *volatile nowhere = (int *)64;

static volatile sig_atomic_t handled, terms;

static void on_usr1(int sig) {
  (void)sig;
  __atomic_add_fetch(&handled, 1, __ATOMIC_RELAXED);
}

static void on_term(int sig) {
  (void)sig;
  __atomic_add_fetch(&terms, 1, __ATOMIC_RELAXED);
}

int main(int argc, char **argv) {
  const char *mode = argc > 1 ? argv[1] : "handled";
  int term = strcmp(mode, "term") == 0;
  int intr = strcmp(mode, "int") == 0;
  int own = strcmp(mode, "own") == 0;
  int segv = strcmp(mode, "segv") == 0;
  int abrt = strcmp(mode, "abort") == 0;
  if (segv || abrt) {
    struct rlimit no_core = {0, 0};
    setrlimit(RLIMIT_CORE, &no_core);
  }
  signal(SIGUSR1, on_usr1);
  if (own)
    signal(SIGTERM, on_term);
  double sum = 0.0;
  #pragma omp parallel reduction(+:sum)
  {
    #pragma omp for schedule(static)
    for (int i = 0; i < 100000; i++)
      sum += i;
    raise(SIGUSR1);
    #pragma omp barrier
    if ((term || own) && omp_get_thread_num() == 0)
      raise(SIGTERM);
    if (segv && omp_get_thread_num() == 0)
      *nowhere = 1;
    if (abrt && omp_get_thread_num() == 0)
      abort();
    if (intr) {
      if (omp_get_thread_num() == omp_get_num_threads() - 1)
        kill(getpid(), SIGINT);
      for (;;)
        pause();
    }
  }
  printf("sum %.0f signals %d terms %d\n", sum, (int)handled, (int)terms);
  return 0;
}
