/*
 * bridge_gomp_teams.c -- teams regions of code pomp-cc did not compile,
 * reported from libgomp's entries as a league (parallel_begin/end with
 * ompt_parallel_league) and one initial task per team (implicit_task with
 * ompt_task_initial, the team number as its index), as for an instrumented
 * host teams construct (bridge_target.c):
 *  - GOMP_teams_reg: a host teams construct outside target.  libgomp runs
 *    the teams one after the other on the encountering thread, calling the
 *    construct's function once per team; libpompt's trampoline begins and
 *    ends each team's initial task around it.  An instrumented construct
 *    announced itself (POMP_Teams_enter sets bridge_teams_announced) and
 *    reports itself.
 *  - GOMP_teams4: a teams construct inside a target region that runs on the
 *    host (libgomp's fallback, or no device), whose code pomp-instr leaves
 *    alone.  GCC calls it in a loop around the team's code, which stays in
 *    the target region's function: the first call opens the league and
 *    begins team 0, each later call ends the team that ran and begins the
 *    next, or, returning false, closes the league.  A thread runs one such
 *    league at a time (a teams region contains no teams region).
 *
 * Without a tool an entry is a compare and a tail call of libgomp's.
 * Definitions are weak; the static library defines them as __wrap_GOMP_<x>,
 * linked with --wrap (bridge_gomp_entry.h).
 */
#define _GNU_SOURCE
#include <stdbool.h>

#include "bridge.h"
#include "bridge_gomp_entry.h"
#include "bridge_internal.h"
#include "bridge_target.h"

typedef void (*gomp_teams_reg_t)(void (*)(void *), void *, unsigned, unsigned,
                                 unsigned);
typedef bool (*gomp_teams4_t)(unsigned, unsigned, unsigned, bool);
GOMP_REAL_VAR(gomp_teams_reg_t, real_teams_reg, GOMP_teams_reg)
GOMP_REAL_VAR(gomp_teams4_t, real_teams4, GOMP_teams4)

__thread unsigned char bridge_teams_announced
    __attribute__((tls_model("initial-exec")));

/* ---- GOMP_teams_reg --------------------------------------------------- */

typedef struct teams_run {
  POMP_Team_t team;
  void (*fn)(void *);
  void *data;
  const void *codeptr;
} teams_run_t;

/* One team: its initial task around the construct's function. */
BRIDGE_TRAMPOLINE static void teams_run(void *arg) {
  teams_run_t *r = arg;
  bridge_teams_begin(&r->team, BRIDGE_FRAME_KEPT());
  r->fn(r->data);
  bridge_teams_end(&r->team, r->codeptr);
  __asm__ __volatile__(""); /* keep this frame (the tasks' exit frame) */
}

static __attribute__((noinline)) void
teams_reg_slow(void (*fn)(void *), void *data, unsigned num_teams,
               unsigned thread_limit, unsigned flags, const void *codeptr,
               void *frame) {
  GOMP_REAL_ENSURE(real_teams_reg, GOMP_teams_reg);
  if (bridge_teams_announced || !bridge_active) {
    bridge_teams_announced = 0; /* an instrumented construct's */
    real_teams_reg(fn, data, num_teams, thread_limit, flags);
    return;
  }
  teams_run_t r = {.fn = fn, .data = data, .codeptr = codeptr};
  bridge_teams_enter(&r.team, (int)num_teams, (int)thread_limit, codeptr,
                     frame);
  real_teams_reg(teams_run, &r, num_teams, thread_limit, flags);
  bridge_teams_exit(&r.team, codeptr);
}

GOMP_EXPORT void GOMP_ENTRY(GOMP_teams_reg)(void (*fn)(void *), void *data,
                                            unsigned num_teams,
                                            unsigned thread_limit,
                                            unsigned flags) {
  gomp_teams_reg_t real = real_teams_reg;
  if (__builtin_expect(bridge_active || !real, 0)) {
    teams_reg_slow(fn, data, num_teams, thread_limit, flags,
                   gomp_codeptr(__builtin_return_address(0)), BRIDGE_FRAME());
    return;
  }
  real(fn, data, num_teams, thread_limit, flags);
}

/* ---- GOMP_teams4 -------------------------------------------------------- */

/* The league the thread's GOMP_teams4 loop runs, while open, is kept in
 * the thread's record (league, league_open, league_codeptr). */
static __attribute__((noinline)) bool
teams4_slow(unsigned low, unsigned high, unsigned thread_limit, bool first,
            const void *codeptr, void *frame) {
  GOMP_REAL_ENSURE(real_teams4, GOMP_teams4);
  bridge_thread_t *t = bridge_thread_peek();
  if (!first) {
    int open = t && t->league_open;
    if (open)
      bridge_teams_end(&t->league, codeptr);
    bool next = real_teams4(low, high, thread_limit, first);
    if (open) {
      if (next) {
        bridge_teams_begin(&t->league, frame);
      } else {
        t->league_open = 0;
        bridge_teams_exit(&t->league, t->league_codeptr);
      }
    }
    return next;
  }
  bool run = real_teams4(low, high, thread_limit, first);
  if (t) /* a first call: a league before it has ended (its end unreported
            where monitoring stopped while it ran, its calls passing here) */
    t->league_open = 0;
  if (!bridge_active || (!t && !(t = bridge_thread_self())))
    return run;
  /* The number of teams asked for: the num_teams clause's upper bound
   * (libgomp's fallback runs the lower bound, one without a clause). */
  int requested = (int)(high ? high : low ? low : 1);
  t->league_codeptr = codeptr;
  t->league_open = 1;
  bridge_teams_enter(&t->league, requested, (int)thread_limit, codeptr, frame);
  if (run)
    bridge_teams_begin(&t->league, frame);
  else { /* no team to run */
    t->league_open = 0;
    bridge_teams_exit(&t->league, codeptr);
  }
  return run;
}

GOMP_EXPORT bool GOMP_ENTRY(GOMP_teams4)(unsigned low, unsigned high,
                                         unsigned thread_limit, bool first) {
  gomp_teams4_t real = real_teams4;
  if (__builtin_expect(bridge_active || !real, 0))
    return teams4_slow(low, high, thread_limit, first,
                       gomp_codeptr(__builtin_return_address(0)),
                       BRIDGE_FRAME());
  return real(low, high, thread_limit, first);
}
