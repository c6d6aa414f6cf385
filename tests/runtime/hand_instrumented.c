/*
 * hand_instrumented.c -- a program instrumented by hand exactly as
 * doc/instrumentation.md specifies, so that libpompt's mapping is tested
 * independently of pomp-instr.  Each of the R repetitions runs one parallel
 * region holding a loop, a single, a master, a named critical, an explicit
 * barrier and two sections; tests/runtime/check_counts.py knows what OMPT
 * callbacks that must give for a team of n threads.
 */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

#include "pomp.h"

#define T POMP_THREAD_SELF
static POMP_Handle_t h_par, h_for, h_single, h_master, h_crit, h_bar, h_sec;
static const char ctc_par[] = "42*type=parallel*file=hand.c*lines=30,60**";
static const char ctc_for[] =
    "52*type=for*file=hand.c*lines=32,34*schedule=static**";
static const char ctc_single[] = "40*type=single*file=hand.c*lines=36,37**";
static const char ctc_master[] = "40*type=master*file=hand.c*lines=38,39**";
static const char ctc_crit[] =
    "50*type=critical*file=hand.c*lines=40,41*name=sum**";
static const char ctc_bar[] = "41*type=barrier*file=hand.c*lines=42,42**";
static const char ctc_sec[] = "42*type=sections*file=hand.c*lines=43,47**";

int main(int argc, char **argv) {
  int reps = argc > 1 ? atoi(argv[1]) : 3;
  long total = 0;
  for (int rep = 0; rep < reps; rep++) {
    long sum = 0;
    int masters = 0, singles = 0, sections = 0;
    {
      POMP_Team_t team;
      POMP_Parallel_enter_team(&h_par, T, -1, -1, &team, ctc_par);
#pragma omp parallel shared(team, sum, masters, singles, sections)
      {
        POMP_Parallel_begin_team(h_par, T, &team);
        long local = 0;
        {
          POMP_Loop_enter(&h_for, T, -1, 0, 99, 1, ctc_for);
#pragma omp for schedule(static) nowait
          for (int i = 0; i < 100; i++)
            local += i;
          POMP_Loop_exit(h_for, T);
          POMP_Implicit_barrier_enter(&h_for, T, ctc_for);
#pragma omp barrier
          POMP_Implicit_barrier_exit(h_for, T);
        }
        {
          POMP_Single_enter(&h_single, T, ctc_single);
#pragma omp single nowait
          {
            POMP_Single_begin(h_single, T);
            singles++;
            POMP_Single_end(h_single, T);
          }
          POMP_Single_exit(h_single, T);
          POMP_Implicit_barrier_enter(&h_single, T, ctc_single);
#pragma omp barrier
          POMP_Implicit_barrier_exit(h_single, T);
        }
#pragma omp master
        {
          POMP_Master_begin(&h_master, T, ctc_master);
          masters++;
          POMP_Master_end(h_master, T);
        }
        {
          POMP_Critical_enter(&h_crit, T, ctc_crit);
#pragma omp critical(sum)
          {
            POMP_Critical_begin(h_crit, T);
            sum += local;
            POMP_Critical_end(h_crit, T);
          }
          POMP_Critical_exit(h_crit, T);
        }
        {
          POMP_Barrier_enter(&h_bar, T, ctc_bar);
#pragma omp barrier
          POMP_Barrier_exit(h_bar, T);
        }
        {
          POMP_Sections_enter(&h_sec, T, ctc_sec);
#pragma omp sections nowait
          {
#pragma omp section
            {
              POMP_Section_begin(h_sec, 1, T);
#pragma omp atomic
              sections++;
              POMP_Section_end(h_sec, T);
            }
#pragma omp section
            {
              POMP_Section_begin(h_sec, 2, T);
#pragma omp atomic
              sections++;
              POMP_Section_end(h_sec, T);
            }
          }
          POMP_Sections_exit(h_sec, T);
          POMP_Implicit_barrier_enter(&h_sec, T, ctc_sec);
#pragma omp barrier
          POMP_Implicit_barrier_exit(h_sec, T);
        }
        POMP_Parallel_end_team(h_par, T, &team);
        /* As pomp-instr does: no tail call, so that codeptr_ra stays in
         * this function (the check tool verifies it). */
        __asm__ __volatile__("");
      }
      POMP_Parallel_exit_team(h_par, T, &team);
    }
    if (sum != 4950 || masters != 1 || singles != 1 || sections != 2) {
      fprintf(stderr, "wrong results: sum=%ld masters=%d singles=%d sections=%d\n",
              sum, masters, singles, sections);
      return 1;
    }
    total += sum;
  }
  printf("total=%ld\n", total);
  return 0;
}
