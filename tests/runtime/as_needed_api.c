/*
 * as_needed_api.c -- built with pomp-cc (which rewrites its omp_* calls to
 * libpompt's POMP_Api_* wrappers) and linked by hand against libpompt with
 * --as-needed: every libgomp entry and routine it names is then libpompt's,
 * and the link drops libgomp.  libpompt loads it at start-up and its
 * wrappers must reach libgomp's routines all the same (bridge_omp.h): the
 * thread numbers must be the team's, the lock must exclude, the critical
 * region and the tasks must run as written.  Prints "as-needed-api: ok".
 */
#include <omp.h>
#include <stdio.h>

#define ROUNDS 20000

int main(void) {
  long counted = 0, critical_counted = 0, numbers = 0, tasks_done = 0;
  int team = 0;
  omp_lock_t lock;
  omp_init_lock(&lock);
#pragma omp parallel num_threads(4) reduction(+ : numbers) reduction(max : team)
  {
    numbers += omp_get_thread_num();
    team = omp_get_num_threads();
    for (int i = 0; i < ROUNDS; i++) {
      omp_set_lock(&lock);
      counted++; /* a plain update: only the lock keeps it whole */
      omp_unset_lock(&lock);
#pragma omp critical
      critical_counted++;
    }
    for (int i = 0; i < 2; i++) {
#pragma omp task shared(tasks_done)
      {
#pragma omp atomic
        tasks_done++;
      }
    }
#pragma omp taskwait
  }
  omp_destroy_lock(&lock);
  int ok = team >= 1 && numbers == (long)team * (team - 1) / 2 &&
           counted == (long)team * ROUNDS &&
           critical_counted == (long)team * ROUNDS && tasks_done == 2L * team;
  printf("as-needed-api: %s\n", ok ? "ok" : "wrong");
  if (!ok)
    fprintf(stderr,
            "team %d, thread numbers' sum %ld, lock %ld, critical %ld, "
            "tasks %ld\n",
            team, numbers, counted, critical_counted, tasks_done);
  return ok ? 0 : 1;
}
