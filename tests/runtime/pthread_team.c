/*
 * pthread_team.c -- libpompt's concurrency test.  Teams are made of plain
 * pthreads synchronised with pthread barriers and mutexes, so that
 * ThreadSanitizer sees every happens-before edge (an uninstrumented OpenMP
 * runtime would hide them); this program supplies the few omp_* routines
 * libpompt asks the runtime for.  Each of R rounds runs one "parallel region"
 * with a loop, a named critical and an explicit barrier on every thread.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#include "pomp.h"

#define T POMP_THREAD_SELF

static __thread int my_num;
static int team_size;
int omp_get_thread_num(void) { return my_num; }
int omp_get_num_threads(void) { return team_size; }
int omp_get_max_threads(void) { return team_size; }

static POMP_Handle_t h_par, h_for, h_crit, h_bar;
static const char ctc_par[] = "41*type=parallel*file=team.c*lines=1,9**";
static const char ctc_for[] = "36*type=for*file=team.c*lines=2,3**";
static const char ctc_crit[] =
    "46*type=critical*file=team.c*lines=4,5*name=c**";
static const char ctc_bar[] = "40*type=barrier*file=team.c*lines=6,6**";

static pthread_barrier_t fork_barrier, join_barrier, user_barrier;
static pthread_mutex_t critical = PTHREAD_MUTEX_INITIALIZER;
static POMP_Team_t *current_team;
static int rounds;
static long shared_sum;

static void region_body(POMP_Team_t *team) {
  POMP_Parallel_begin_team(h_par, T, team);
  POMP_Loop_enter(&h_for, T, -1, 0, 9, 1, ctc_for);
  long local = 0;
  for (int i = 0; i < 10; i++)
    local += i;
  POMP_Loop_exit(h_for, T);
  POMP_Critical_enter(&h_crit, T, ctc_crit);
  pthread_mutex_lock(&critical);
  POMP_Critical_begin(h_crit, T);
  shared_sum += local;
  POMP_Critical_end(h_crit, T);
  pthread_mutex_unlock(&critical);
  POMP_Critical_exit(h_crit, T);
  POMP_Barrier_enter(&h_bar, T, ctc_bar);
  pthread_barrier_wait(&user_barrier);
  POMP_Barrier_exit(h_bar, T);
  POMP_Parallel_end_team(h_par, T, team);
  __asm__ __volatile__(""); /* no tail call: keeps codeptr_ra here */
}

static void *worker(void *arg) {
  my_num = (int)(long)arg;
  for (int r = 0; r < rounds; r++) {
    pthread_barrier_wait(&fork_barrier);
    region_body(current_team);
    pthread_barrier_wait(&join_barrier);
  }
  return NULL;
}

int main(int argc, char **argv) {
  rounds = argc > 1 ? atoi(argv[1]) : 20;
  const char *n = getenv("OMP_NUM_THREADS");
  team_size = n ? atoi(n) : 4;
  if (team_size < 1)
    team_size = 1;
  pthread_barrier_init(&fork_barrier, NULL, (unsigned)team_size);
  pthread_barrier_init(&join_barrier, NULL, (unsigned)team_size);
  pthread_barrier_init(&user_barrier, NULL, (unsigned)team_size);
  pthread_t threads[64];
  if (team_size > 64)
    team_size = 64;
  for (long i = 1; i < team_size; i++)
    pthread_create(&threads[i], NULL, worker, (void *)i);
  for (int r = 0; r < rounds; r++) {
    POMP_Team_t team;
    POMP_Parallel_enter_team(&h_par, T, team_size, 1, &team, ctc_par);
    current_team = &team;
    pthread_barrier_wait(&fork_barrier);
    region_body(&team);
    pthread_barrier_wait(&join_barrier);
    POMP_Parallel_exit_team(h_par, T, &team);
  }
  for (int i = 1; i < team_size; i++)
    pthread_join(threads[i], NULL);
  long want = 45L * team_size * rounds;
  if (shared_sum != want) {
    fprintf(stderr, "sum %ld, expected %ld\n", shared_sum, want);
    return 1;
  }
  printf("ok\n");
  return 0;
}
