/*
 * thread_exits.c -- threads that leave while the program runs, each in
 * another way, for tls_exit_tool.c:
 *
 *  - the pool of a target region's host fallback: libgomp frees it when
 *    the target region ends, its threads calling pthread_exit;
 *  - the threads of a nested team, whose start routine returns;
 *  - a thread the program creates, which runs a region (an OpenMP initial
 *    thread) and returns.
 *
 * Between the steps the program waits (bounded) until the process is back
 * to the threads it had, so that the exits happened before finalisation.
 * Plain gcc -fopenmp, linked with libpompt: these regions reach libpompt
 * through libgomp's entries.
 */
#include <omp.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static int threads_now(void) {
  FILE *f = fopen("/proc/self/status", "r");
  char line[256];
  int n = -1;
  while (f && fgets(line, sizeof line, f))
    if (!strncmp(line, "Threads:", 8))
      n = atoi(line + 8);
  if (f)
    fclose(f);
  return n;
}

/* Until the process has at most `want` threads, 5 s at most. */
static void wait_threads(int want) {
  struct timespec ms = {0, 1000000};
  for (int i = 0; i < 5000 && threads_now() > want; i++)
    nanosleep(&ms, NULL);
}

static long sum;

static void *program_thread(void *arg) {
  (void)arg;
  long s = 0;
#pragma omp parallel num_threads(1) reduction(+ : s)
  s += 1;
  __atomic_fetch_add(&sum, s, __ATOMIC_RELAXED);
  return NULL;
}

int main(void) {
  long s = 0;
  int base = threads_now();
  /* The primary's own pool first: what stays until the exit. */
#pragma omp parallel reduction(+ : s)
  s += 1;
  int pooled = threads_now();

#pragma omp target map(tofrom : s)
  {
#pragma omp parallel num_threads(3) reduction(+ : s)
    s += 1;
  }
  wait_threads(pooled);

  omp_set_max_active_levels(2);
#pragma omp parallel num_threads(2) reduction(+ : s)
  {
#pragma omp parallel num_threads(2) reduction(+ : s)
    s += 1;
  }
  wait_threads(pooled > 2 ? pooled : 2);

  pthread_t th;
  if (pthread_create(&th, NULL, program_thread, NULL) == 0)
    pthread_join(th, NULL);

  printf("thread_exits: %s (threads: %d at start, %d at the end)\n",
         s > 0 && sum == 1 ? "ok" : "wrong sums", base, threads_now());
  return 0;
}
