/*
 * archer_racy.c -- data races that Archer must report on a pomp-cc gcc
 * build (each racing statement is alone on a line marked for
 * run_archer.py's --race-marker).
 *
 *   archer_racy            every thread of a team increments a shared
 *                          counter without synchronisation
 *   archer_racy task       two sibling tasks, without dependences, do
 *   archer_racy lock       two threads do, each holding a different lock
 *   archer_racy atomic     two threads do, one after the other, the second
 *                          having waited for the first through an atomic
 *                          construct (relaxed: it orders nothing else)
 *
 * ThreadSanitizer sees a race only between two threads, and Archer orders
 * all lock callbacks through one internal mutex, so the racing code first
 * meets its partner: each side raises its flag and waits (a bounded time)
 * for the other's.  The flags are relaxed atomics, which order nothing, so
 * the two updates stay unordered while being sure to run on two threads
 * (a task spinning here cannot hand its thread to its sibling) and inside
 * both locks at once.
 */
#include <omp.h>
#include <stdio.h>
#include <string.h>

static long counter;
static int flags[2];

/* Raise flag `me` and wait for the other one, at most about two seconds. */
static void meet(int me) {
  __atomic_store_n(&flags[me], 1, __ATOMIC_RELAXED);
  double until = omp_get_wtime() + 2.0;
  while (!__atomic_load_n(&flags[1 - me], __ATOMIC_RELAXED) &&
         omp_get_wtime() < until) {
  }
}

/* An atomic counter both threads go through: the same atomic construct. */
static int bump(int *p, int by) {
  int v;
#pragma omp atomic capture
  v = *p += by;
  return v;
}

int main(int argc, char **argv) {
  const char *mode = argc > 1 ? argv[1] : "parallel";
  if (!strcmp(mode, "task")) {
#pragma omp parallel num_threads(2)
    {
#pragma omp single
      {
        for (int i = 0; i < 2; i++) {
#pragma omp task firstprivate(i)
          {
            meet(i);
            counter += i + 1; /* TASK RACE */
          }
        }
      }
    }
  } else if (!strcmp(mode, "lock")) {
    omp_lock_t locks[2];
    omp_init_lock(&locks[0]);
    omp_init_lock(&locks[1]);
#pragma omp parallel num_threads(2)
    {
      int me = omp_get_thread_num() % 2;
      omp_set_lock(&locks[me]);
      meet(me);
      counter += 1; /* LOCK RACE */
      omp_unset_lock(&locks[me]);
    }
    omp_destroy_lock(&locks[0]);
    omp_destroy_lock(&locks[1]);
  } else if (!strcmp(mode, "atomic")) {
    static int done;
#pragma omp parallel num_threads(2)
    {
      if (omp_get_thread_num() == 0) {
        counter += 1; /* ATOMIC RACE */
        bump(&done, 1);
      } else {
        double until = omp_get_wtime() + 2.0;
        while (bump(&done, 0) < 1 && omp_get_wtime() < until) {
        }
        counter += 2; /* ATOMIC RACE */
      }
    }
  } else {
#pragma omp parallel
    {
      counter += omp_get_thread_num() + 1; /* RACE */
    }
  }
  printf("racy %s: done (%d)\n", mode, counter > 0);
  return 0;
}
