/*
 * target_teams.c -- a teams construct on the host (OpenMP 5.0 host teams)
 * with distribute, instrumented by hand as doc/target.md specifies, under an
 * in-program tool.  Checks: parallel_begin/end of the league (flag
 * ompt_parallel_league, requested = num_teams), one initial task per team
 * (implicit_task with ompt_task_initial, index = team number, actual =
 * number of teams), distribute as work(ompt_work_distribute) inside each
 * team, a parallel region inside a team whose encountering task is that
 * team's initial task, and ompt_get_task_info / get_parallel_info inside a
 * team.
 */
#include <omp-tools.h>
#include <omp.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pomp.h"

#define T POMP_THREAD_SELF
#define NT 3

static int failures;
#define CHECK(c, ...)                                                          \
  do {                                                                         \
    if (!(c)) {                                                                \
      fprintf(stderr, "FAIL %s:%d: ", __FILE__, __LINE__);                     \
      fprintf(stderr, __VA_ARGS__);                                            \
      fputc('\n', stderr);                                                     \
      failures++;                                                              \
    }                                                                          \
  } while (0)

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static int league_begin, league_end, league_requested, league_flags;
static ompt_data_t *league_data;
static int initial_begin, initial_end, seen_index[NT], bad_actual;
static int distribute_begin, distribute_end;
static int inner_parallel, inner_enc_ok;
static ompt_data_t *team_task[NT];
static ompt_get_task_info_t get_task_info;
static ompt_get_parallel_info_t get_parallel_info;

static void on_parallel_begin(ompt_data_t *enc, const ompt_frame_t *frame,
                              ompt_data_t *par, unsigned requested, int flags,
                              const void *codeptr) {
  (void)frame, (void)codeptr;
  pthread_mutex_lock(&lock);
  if (flags & ompt_parallel_league) {
    league_begin++, league_requested = (int)requested, league_flags = flags;
    league_data = par;
  } else {
    inner_parallel++;
    /* Encountered by a team's initial task. */
    int me = omp_get_team_num();
    if (enc && me >= 0 && me < NT && enc == team_task[me])
      inner_enc_ok++;
  }
  pthread_mutex_unlock(&lock);
}

static void on_parallel_end(ompt_data_t *par, ompt_data_t *enc, int flags,
                            const void *codeptr) {
  (void)enc, (void)codeptr;
  if (flags & ompt_parallel_league) {
    CHECK(par == league_data, "league end with another parallel_data");
    league_end++;
  }
}

static void on_implicit_task(ompt_scope_endpoint_t ep, ompt_data_t *par,
                             ompt_data_t *task, unsigned actual,
                             unsigned index, int flags) {
  if (!(flags & ompt_task_initial) || (ep == ompt_scope_begin &&
                                       par != league_data))
    return; /* implicit tasks of the inner regions; the program's task */
  if (ep == ompt_scope_begin) {
    initial_begin++;
    if (index < NT) {
      seen_index[index]++;
      team_task[index] = task;
    }
    if (actual != NT)
      bad_actual++;
  } else if (par == league_data) {
    initial_end++;
  }
}

static void on_work(ompt_work_t type, ompt_scope_endpoint_t ep,
                    ompt_data_t *par, ompt_data_t *task, uint64_t count,
                    const void *codeptr) {
  (void)task, (void)count, (void)codeptr;
  if (type != ompt_work_distribute)
    return;
  CHECK(par == league_data, "distribute outside the league's region");
  if (ep == ompt_scope_begin)
    distribute_begin++;
  else
    distribute_end++;
}

static int initialize(ompt_function_lookup_t lookup, int dev,
                      ompt_data_t *data) {
  (void)dev, (void)data;
  ompt_set_callback_t set = (ompt_set_callback_t)lookup("ompt_set_callback");
  get_task_info = (ompt_get_task_info_t)lookup("ompt_get_task_info");
  get_parallel_info =
      (ompt_get_parallel_info_t)lookup("ompt_get_parallel_info");
  set(ompt_callback_parallel_begin, (ompt_callback_t)on_parallel_begin);
  set(ompt_callback_parallel_end, (ompt_callback_t)on_parallel_end);
  set(ompt_callback_implicit_task, (ompt_callback_t)on_implicit_task);
  set(ompt_callback_work, (ompt_callback_t)on_work);
  return 1;
}

static void finalize(ompt_data_t *data) {
  (void)data;
  CHECK(league_begin == 1 && league_end == 1, "league begin %d end %d",
        league_begin, league_end);
  CHECK(league_requested == NT, "league requested %d", league_requested);
  CHECK(initial_begin == NT && initial_end == NT,
        "team initial tasks: %d begins, %d ends", initial_begin, initial_end);
  for (int i = 0; i < NT; i++)
    CHECK(seen_index[i] == 1, "team %d began %d times", i, seen_index[i]);
  CHECK(!bad_actual, "initial task with actual_parallelism != %d", NT);
  CHECK(distribute_begin == NT && distribute_end == NT,
        "distribute begin %d end %d", distribute_begin, distribute_end);
  CHECK(inner_parallel == NT && inner_enc_ok == NT,
        "inner parallel regions %d, encountered by a team's task %d",
        inner_parallel, inner_enc_ok);
  if (failures) {
    fprintf(stderr, "%d check(s) failed\n", failures);
    fflush(NULL);
    _exit(1);
  }
  printf("all checks passed\n");
}

ompt_start_tool_result_t *ompt_start_tool(unsigned v, const char *r) {
  (void)v, (void)r;
  static ompt_start_tool_result_t res = {initialize, finalize, {0}};
  return &res;
}

static POMP_Handle_t h_teams, h_dist, h_par;
static const char c_teams[] =
    "56*type=teams*file=target_teams.c*lines=1,9*hasNumTeams=1**";
static const char c_dist[] = "44*type=distribute*file=target_teams.c*lines=3,5**";
static const char c_par[] = "42*type=parallel*file=target_teams.c*lines=6,8**";

int main(void) {
  int sum[NT] = {0}, par_ran[NT] = {0};
  int in_team_ok[NT] = {0};
  {
    int pompt_nteams_1 = (int)(NT);
    POMP_Team_t pompt_team_1;
    POMP_Teams_enter(&h_teams, T, pompt_nteams_1, -1, &pompt_team_1, c_teams);
#pragma omp teams num_teams(pompt_nteams_1) shared(pompt_team_1, sum, par_ran,  \
                                                     in_team_ok)
    {
      POMP_Teams_begin(h_teams, T, &pompt_team_1);
      int me = omp_get_team_num();
      {
        int flags = 0, tn = -1;
        ompt_data_t *td = NULL, *pd = NULL;
        int size = 0;
        in_team_ok[me] =
            get_task_info(0, &flags, &td, NULL, &pd, &tn) == 2 &&
            (flags & ompt_task_initial) && pd == league_data && tn == me &&
            td == team_task[me] && get_parallel_info(0, &pd, &size) == 2 &&
            size == NT;
      }
      {
        POMP_Distribute_enter(&h_dist, T, -1, 0, 99, 1, c_dist);
#pragma omp distribute
        for (int i = 0; i < 100; i++)
          sum[me] += i; /* one thread per team, one element per team */
        POMP_Distribute_exit(h_dist, T);
      }
      {
        POMP_Team_t pompt_team_3;
        POMP_Parallel_enter_team(&h_par, T, 2, -1, &pompt_team_3, c_par);
#pragma omp parallel num_threads(2) shared(pompt_team_3, par_ran)
        {
          POMP_Parallel_begin_team(h_par, T, &pompt_team_3);
#pragma omp atomic
          par_ran[me]++;
          POMP_Parallel_end_team(h_par, T, &pompt_team_3);
        }
        POMP_Parallel_exit_team(h_par, T, &pompt_team_3);
      }
      POMP_Teams_end(h_teams, T, &pompt_team_1);
    }
    POMP_Teams_exit(h_teams, T, &pompt_team_1);
  }
  int total = 0, ok = 0;
  for (int i = 0; i < NT; i++)
    total += sum[i], ok += in_team_ok[i];
  CHECK(total == 4950, "distribute covered %d, want 4950", total);
  CHECK(ok == NT, "task/parallel info inside a team: %d of %d", ok, NT);
  printf("teams: sum %d\n", total);
  return 0;
}
