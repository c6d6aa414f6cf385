/*
 * pthread_tasks.c -- libpompt's task records under ThreadSanitizer: a team
 * of plain pthreads plays the OpenMP runtime (every hand-off through a
 * pthread mutex, so that ThreadSanitizer sees every happens-before edge),
 * and tasks are created on one thread and run and completed on another, so
 * that records travel back to their owner's pool through the remote-free
 * list, parents outlive themselves in their children, and dependence
 * bookkeeping holds records of other threads.
 *
 * Each of R rounds: one "parallel region"; thread 0 creates 8 tasks (the
 * first 4 with dependences on one address: out, in, in, inout, so 4
 * task_dependence pairs), then every thread runs tasks from a shared queue
 * until all are done; each of the 8 creates 2 children that go to the queue
 * too (their parent completes without waiting for them).  24 tasks a round.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#include "hand.h"

static __thread int my_num;
static int team_size;
int omp_get_thread_num(void) { return my_num; }
int omp_get_num_threads(void) { return team_size; }
int omp_get_max_threads(void) { return team_size; }

static POMP_Handle_t h_par, h_task, h_child, h_bar;
static const char ctc_par[] = CTC("type=parallel*file=ptasks.c*lines=1,9");
static const char ctc_task[] = CTC("type=task*file=ptasks.c*lines=2,3");
static const char ctc_child[] = CTC("type=task*file=ptasks.c*lines=4,5");
static const char ctc_bar[] = CTC("type=barrier*file=ptasks.c*lines=6,6");

struct job {
  POMP_Task_t task; /* the task's firstprivate copy */
  int children;     /* how many children it creates */
};

#define QUEUE_MAX 1024
static struct job queue[QUEUE_MAX];
static int q_head, q_tail, pending;
static pthread_mutex_t q_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t q_cond = PTHREAD_COND_INITIALIZER;

static pthread_barrier_t fork_barrier, start_barrier, join_barrier,
    user_barrier;
static POMP_Team_t *current_team;
static int rounds;
static long executed;
static int dep_var;

static void enqueue(const struct job *j) {
  pthread_mutex_lock(&q_lock);
  queue[q_tail++ % QUEUE_MAX] = *j;
  pending++;
  pthread_cond_broadcast(&q_cond);
  pthread_mutex_unlock(&q_lock);
}

/* The task construct: create, hand the copy to the "runtime", done. */
static void create(POMP_Handle_t *h, const char *ctc, int children,
                   const POMP_Dependence_t *deps, int ndeps) {
  struct job j = {.children = children};
  POMP_Task_create_begin(h, T, &j.task, ndeps ? POMP_TASK_HAS_DEPEND : 0,
                         ctc);
  if (ndeps)
    POMP_Task_dependences(*h, T, &j.task, deps, ndeps);
  enqueue(&j);
  POMP_Task_create_end(*h, T, &j.task);
}

static void run_task(struct job j) {
  POMP_Handle_t h = j.children ? h_task : h_child;
  POMP_Task_begin(h, T, &j.task);
  for (int c = 0; c < j.children; c++)
    create(&h_child, ctc_child, 0, NULL, 0);
  pthread_mutex_lock(&q_lock);
  executed++;
  pthread_mutex_unlock(&q_lock);
  POMP_Task_end(h, T, &j.task);
  NO_TAIL;
}

/* Run tasks until none is queued or running. */
static void work(void) {
  for (;;) {
    pthread_mutex_lock(&q_lock);
    while (q_head == q_tail && pending > 0)
      pthread_cond_wait(&q_cond, &q_lock);
    if (q_head == q_tail) {
      pthread_mutex_unlock(&q_lock);
      return;
    }
    struct job j = queue[q_head++ % QUEUE_MAX];
    pthread_mutex_unlock(&q_lock);
    run_task(j);
    pthread_mutex_lock(&q_lock);
    if (--pending == 0)
      pthread_cond_broadcast(&q_cond);
    pthread_mutex_unlock(&q_lock);
  }
}

static void region_body(POMP_Team_t *team) {
  POMP_Parallel_begin_team(h_par, T, team);
  if (my_num == 0) {
    static const int types[4] = {2, 1, 1, 3}; /* out, in, in, inout */
    for (int i = 0; i < 8; i++) {
      POMP_Dependence_t d = {&dep_var, i < 4 ? types[i] : 0};
      create(&h_task, ctc_task, 2, &d, i < 4 ? 1 : 0);
    }
  }
  pthread_barrier_wait(&start_barrier);
  work();
  POMP_Barrier_enter(&h_bar, T, ctc_bar);
  pthread_barrier_wait(&user_barrier);
  POMP_Barrier_exit(h_bar, T);
  POMP_Parallel_end_team(h_par, T, team);
  NO_TAIL;
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
  if (team_size > 64)
    team_size = 64;
  pthread_barrier_init(&fork_barrier, NULL, (unsigned)team_size);
  pthread_barrier_init(&start_barrier, NULL, (unsigned)team_size);
  pthread_barrier_init(&join_barrier, NULL, (unsigned)team_size);
  pthread_barrier_init(&user_barrier, NULL, (unsigned)team_size);
  pthread_t threads[64];
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
  if (executed != 24L * rounds) {
    fprintf(stderr, "executed %ld tasks, expected %ld\n", executed,
            24L * rounds);
    return 1;
  }
  printf("ok\n");
  return 0;
}
