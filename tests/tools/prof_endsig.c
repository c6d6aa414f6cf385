/*
 * prof_endsig.c - the program dies of SIGHUP, SIGQUIT or a stack overflow
 * (SIGINT, SIGTERM and the other crashes: tests/tools/prof_signal.c), or
 * reports whose alternate signal stacks its threads run with.
 *   prof_endsig hup            the primary thread raises SIGHUP inside a
 *                              parallel region: the process dies of it
 *   prof_endsig quit           the same with SIGQUIT (no core file:
 *                              RLIMIT_CORE is set to 0)
 *   prof_endsig stack-primary  the primary thread recurses without bound
 *                              inside a parallel region: SIGSEGV on a stack
 *                              with no room left
 *   prof_endsig stack-worker   the same in the last thread of the team
 *   prof_endsig altstacks      prints how many threads of the team have an
 *                              alternate signal stack, then runs a team
 *                              from a thread of its own that set up its
 *                              own alternate stack first, and prints
 *                              whether that thread still has it; ends
 *                              normally
 * Before that, every mode runs REGIONS complete parallel regions (a loop
 * in each), which the profile must count exactly.  The primary thread's
 * stack may grow as far as RLIMIT_STACK allows, which the program lowers
 * to PRIMARY_STACK; a worker's is OMP_STACKSIZE, which the test sets: both
 * small, so that the overflow comes fast.
 */
#include <omp.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#define REGIONS 3
#define PRIMARY_STACK (256 * 1024)
#define OWN_ALTSTACK (64 * 1024)

static int recurse(int depth);

/* Called through a volatile pointer: the compiler cannot see the
   recursion, so it can neither turn it into a loop nor bound it. */
static int (*volatile again)(int) = recurse;

static int recurse(int depth) {
  volatile char frame[512];
  frame[0] = (char)depth;
  frame[sizeof frame - 1] = (char)depth;
  return again(depth + 1) + frame[0] + frame[sizeof frame - 1];
}

static int has_altstack(void) {
  stack_t cur;
  return sigaltstack(NULL, &cur) == 0 && !(cur.ss_flags & SS_DISABLE);
}

/* A thread of the program's own with its own alternate stack, which it
   must still have after running a team.  The one it had before is given
   back at the end (ASan unmaps a thread's stack at its exit, its own or
   not). */
static void *own_thread(void *arg) {
  static char own[OWN_ALTSTACK];
  stack_t ss = {.ss_sp = own, .ss_size = sizeof own, .ss_flags = 0};
  stack_t before;
  if (sigaltstack(&ss, &before) != 0) {
    perror("sigaltstack");
    return NULL;
  }
  int sum = 0;
  #pragma omp parallel reduction(+:sum) num_threads(2)
  sum += 1;
  stack_t cur;
  int kept = sigaltstack(NULL, &cur) == 0 && cur.ss_sp == own &&
             !(cur.ss_flags & SS_DISABLE);
  *(int *)arg = kept && sum == 2;
  sigaltstack(&before, NULL);
  return NULL;
}

static void altstacks(void) {
  int with = 0;
  #pragma omp parallel reduction(+:with)
  with += has_altstack();
  printf("threads with an alternate stack %d\n", with);
  int kept = 0;
  pthread_t th;
  if (pthread_create(&th, NULL, own_thread, &kept) == 0)
    pthread_join(th, NULL);
  printf("own alternate stack kept %d\n", kept);
}

int main(int argc, char **argv) {
  const char *mode = argc > 1 ? argv[1] : "";
  int sig = strcmp(mode, "hup") == 0    ? SIGHUP
            : strcmp(mode, "quit") == 0 ? SIGQUIT
                                        : 0;
  int primary = strcmp(mode, "stack-primary") == 0;
  int worker = strcmp(mode, "stack-worker") == 0;
  int stacks = strcmp(mode, "altstacks") == 0;
  if (sig == 0 && !primary && !worker && !stacks) {
    fprintf(stderr, "usage: prof_endsig hup|quit|stack-primary|"
                    "stack-worker|altstacks\n");
    return 2;
  }
  struct rlimit no_core = {0, 0};
  setrlimit(RLIMIT_CORE, &no_core);
  /* The kernel checks the limit as the primary's stack grows: lowering it
     now holds for the rest of the run. */
  struct rlimit st;
  if (primary && getrlimit(RLIMIT_STACK, &st) == 0 &&
      st.rlim_cur > PRIMARY_STACK) {
    st.rlim_cur = PRIMARY_STACK;
    setrlimit(RLIMIT_STACK, &st);
  }
  double sum = 0.0;
  for (int r = 0; r < REGIONS; r++) {
    #pragma omp parallel reduction(+:sum)
    {
      #pragma omp for schedule(static)
      for (int i = 0; i < 1000; i++)
        sum += i;
    }
  }
  printf("sum %.0f\n", sum);
  fflush(stdout);
  if (stacks) {
    altstacks();
    return 0;
  }
  #pragma omp parallel
  {
    int me = omp_get_thread_num();
    int last = omp_get_num_threads() - 1;
    /* every thread is in the region when it ends */
    #pragma omp barrier
    if (sig != 0 && me == 0)
      raise(sig);
    if ((primary && me == 0) || (worker && me == last))
      printf("depth %d\n", recurse(0)); /* not reached */
  }
  return 0;
}
