/*
 * reduction_order.c -- the reduction callbacks of combinings GCC brackets
 * with libgomp's atomic lock come in the order the threads combine: a
 * thread's begin comes once it holds the lock, its end before it lets go.
 * A tool that orders its work by reduction begins, as by a mutex's
 * acquisitions (OpDiLib, automatic differentiation), relies on it.
 *
 * Each begin draws a ticket; the combiner of a user-defined reduction
 * checks that the combinings run in ticket order.  Two shapes: a clause on
 * a worksharing loop, and one pomp-instr moves to its parallel region (the
 * region's only statement is the loop).
 *
 *   reduction_order R   (R repetitions of each)
 *
 * Prints "reduction-order: sums ok, callbacks paired (...), out_of_order=0"
 * when all is well.
 */
#include <omp-tools.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

#include "own_tool.h"

typedef struct {
  double v;
} sum_t;

static int ticket, turn;
static __thread int my_ticket = -1;
static int combines, begins, ends, out_of_order;

static void combine(sum_t *out, const sum_t *in) {
  /* Under libgomp's lock: the plain counters are only read and written
   * here and in the callbacks the lock orders. */
  if (turn++ != my_ticket)
    out_of_order++;
  combines++;
  out->v += in->v;
}
#pragma omp declare reduction(plus : sum_t : combine(&omp_out, &omp_in))      \
    initializer(omp_priv = {0.0})

static void on_reduction(ompt_sync_region_t kind, ompt_scope_endpoint_t ep,
                         ompt_data_t *pd, ompt_data_t *td,
                         const void *codeptr) {
  (void)pd, (void)td, (void)codeptr;
  if (kind != ompt_sync_region_reduction)
    return;
  if (ep == ompt_scope_begin) {
    begins++;
    my_ticket = ticket++;
  } else {
    ends++;
  }
}

static void register_callbacks(void) {
  set_callback(ompt_callback_reduction, (ompt_callback_t)on_reduction);
}

int main(int argc, char **argv) {
  int reps = argc > 1 ? atoi(argv[1]) : 100;
  double total = 0;
  for (int r = 0; r < reps; r++) {
    sum_t a = {0.0}, b = {0.0};
    ticket = turn = 0;
#pragma omp parallel
    {
      /* A statement besides the loop keeps the clause on the loop. */
      total += 0 * omp_get_thread_num();
#pragma omp for reduction(plus : a)
      for (int i = 0; i < 64; i++)
        a.v += i;
    }
    ticket = turn = 0;
#pragma omp parallel
#pragma omp for reduction(plus : b)
    for (int i = 0; i < 64; i++)
      b.v += i;
    total += a.v + b.v;
  }
  printf("reduction-order: sums %s, callbacks %s (combines=%d begins=%d "
         "ends=%d), out_of_order=%d\n",
         total == reps * 2 * 2016.0 ? "ok" : "wrong",
         combines > 0 && begins == combines && ends == combines ? "paired"
                                                                : "unpaired",
         combines, begins, ends, out_of_order);
  return 0;
}
