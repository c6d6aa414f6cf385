/*
 * hand_gomp_sync.c -- libgomp's barriers that are no directive of the
 * source (ompt-bridge/src/bridge_gomp_sync.c), reported as
 * ompt_sync_region_barrier_implementation.  Per repetition, in a team of n:
 *   - a loop with linear(j): GCC's GOMP_barrier before the copy-out, inside
 *     the instrumented loop: 1 per thread;
 *   - single copyprivate(x): libgomp's barrier that hands x over (in
 *     GOMP_single_copy_start / _end) and GCC's barrier that ends the
 *     construct (which cannot be nowait): 2 per thread;
 *   - a barrier directive instrumented by hand: barrier_explicit, not also
 *     reported as an implementation barrier;
 *   - a barrier directive left uninstrumented: not reported;
 *   - copyin of a threadprivate array: GCC's GOMP_barrier after the copy,
 *     before the region's first statement: 1 per thread.
 * So barrier_implementation = 4n, barrier_explicit = n per repetition.
 *
 *   hand_gomp_sync R OFF    R monitored repetitions, then OFF more after
 *                           POMP_Off (nothing of them is reported), then
 *                           POMP_On and one region without barriers.
 * The program checks its own results and exits 1 if one is wrong.
 */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

#include "hand.h"

#define N 32

static POMP_Handle_t h_par, h_loop, h_single, h_bar, h_par2;
static const char ctc_par[] = CTC("type=parallel*file=gomp_sync.c*lines=1,9");
static const char ctc_loop[] = CTC("type=for*file=gomp_sync.c*lines=2,3");
static const char ctc_single[] = CTC("type=single*file=gomp_sync.c*lines=4,5");
static const char ctc_bar[] = CTC("type=barrier*file=gomp_sync.c*lines=6,6");
static const char ctc_par2[] =
    CTC("type=parallel*file=gomp_sync.c*lines=10,11");

static long errors;

/* copied in by reference (an array), hence GCC's barrier */
static int tp[4];
#pragma omp threadprivate(tp)

static void region(int r) {
  int c[N];
  int j = r;
  tp[0] = r;
  tp[3] = -r;
  PARALLEL_ENTER(h_par, ctc_par)
#pragma omp parallel shared(pompt_team, c, j, errors) copyin(tp)
  {
    PARALLEL_BEGIN(h_par)
    if (tp[0] != r || tp[3] != -r)
      __atomic_fetch_add(&errors, 1, __ATOMIC_RELAXED);
    POMP_Loop_enter(&h_loop, T, -1, 0, N - 1, 1, ctc_loop);
#pragma omp for linear(j : 1) nowait
    for (int i = 0; i < N; i++) {
      c[i] = j;
      j++;
    }
    POMP_Loop_exit(h_loop, T);
    BARRIER(h_bar, ctc_bar)
    int x = -1;
    POMP_Single_enter(&h_single, T, ctc_single);
#pragma omp single copyprivate(x)
    {
      POMP_Single_begin(h_single, T);
      x = c[N - 1] + j;
      POMP_Single_end(h_single, T);
    }
    POMP_Single_exit(h_single, T);
    if (x != 2 * r + 2 * N - 1)
      __atomic_fetch_add(&errors, 1, __ATOMIC_RELAXED);
#pragma omp barrier
    PARALLEL_END(h_par)
  }
  PARALLEL_EXIT(h_par)
  for (int i = 0; i < N; i++)
    if (c[i] != r + i)
      errors++;
}

int main(int argc, char **argv) {
  int reps = argc > 1 ? atoi(argv[1]) : 3;
  int off = argc > 2 ? atoi(argv[2]) : 0;
  for (int r = 0; r < reps; r++)
    region(r);
  POMP_Off();
  for (int r = 0; r < off; r++)
    region(r);
  POMP_On();
  /* monitoring is back: a region without barriers of libgomp's own */
  PARALLEL_ENTER(h_par2, ctc_par2)
#pragma omp parallel shared(pompt_team)
  {
    PARALLEL_BEGIN(h_par2)
    PARALLEL_END(h_par2)
  }
  PARALLEL_EXIT(h_par2)
  printf("gomp_sync: %s\n", errors ? "WRONG" : "ok");
  return errors != 0;
}
