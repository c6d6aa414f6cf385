/*
 * exit_in_parallel.c -- exit() called by one thread inside a parallel
 * region, instrumented by hand.
 *
 * The other threads of the team are still inside the region (or waiting
 * at its end for the exiting thread) when libpompt finalises the tool from
 * the exit handler.  Their tasks cannot be ended from the exiting thread
 * without interleaving their callbacks with its own; the tool must see, on
 * the exiting thread, only that thread's own ends (properly nested) and
 * a thread_end for each other thread.  The team's last thread exits with
 * status 0 so that run_check.py sees a clean exit.
 */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "hand.h"

static POMP_Handle_t h_par;
static int begun;
static const char ctc_par[] = CTC("type=parallel*file=exit.c*lines=20,30");

int main(void) {
    PARALLEL_ENTER(h_par, ctc_par)
#pragma omp parallel shared(pompt_team)
  {
    PARALLEL_BEGIN(h_par)
    __atomic_fetch_add(&begun, 1, __ATOMIC_SEQ_CST);
    if (omp_get_thread_num() == omp_get_num_threads() - 1) {
      /* every thread has had its first event (thread_begin) */
      while (__atomic_load_n(&begun, __ATOMIC_SEQ_CST) < omp_get_num_threads())
        usleep(100);
      fflush(stdout);
      exit(0);
    }
    /* the others keep working until the process is gone */
    for (;;)
      usleep(1000);
    PARALLEL_END(h_par)
  }
  PARALLEL_EXIT(h_par)
  return 1;
}
