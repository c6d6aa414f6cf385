/*
 * as_needed_locks.c -- OpenMP locks without any OpenMP construct: threads
 * of the program's own (POSIX threads) count under an omp_lock_t.  Built
 * with plain gcc (its calls name omp_set_lock ..., which libpompt defines)
 * and with pomp-cc (its calls name libpompt's POMP_Api_* wrappers), and
 * linked by hand against libpompt with --as-needed: the link then drops
 * libgomp, since nothing left names it.  libpompt must load libgomp at
 * start-up, or its lock routines would find no runtime and never exclude
 * (the count comes out short).  Prints "as-needed-locks: ok".
 */
#include <omp.h>
#include <pthread.h>
#include <stdio.h>

#define THREADS 4
#define ROUNDS 50000

static omp_lock_t lock;
static long counted;

static void *count(void *arg) {
  for (int i = 0; i < ROUNDS; i++) {
    omp_set_lock(&lock);
    counted++; /* a plain update: only the lock keeps it whole */
    omp_unset_lock(&lock);
  }
  return arg;
}

int main(void) {
  pthread_t threads[THREADS];
  omp_init_lock(&lock);
  for (int i = 0; i < THREADS; i++)
    pthread_create(&threads[i], NULL, count, NULL);
  for (int i = 0; i < THREADS; i++)
    pthread_join(threads[i], NULL);
  omp_destroy_lock(&lock);
  if (counted != (long)THREADS * ROUNDS) {
    printf("as-needed-locks: counted %ld, expected %ld\n", counted,
           (long)THREADS * ROUNDS);
    return 1;
  }
  printf("as-needed-locks: ok\n");
  return 0;
}
