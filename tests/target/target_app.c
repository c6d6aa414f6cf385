/*
 * target_app.c -- a small offloading application (a vector update and a
 * reduction, run a few times), instrumented by hand as doc/target.md
 * specifies: enter data, target regions, target update, nowait targets with
 * completion tasks and a taskwait, exit data.  It has no tool of its own:
 * run it under examples/ompt_trace_tool (tests) or any other tool.  Built
 * with an offload compiler it runs on the device; here, on the host.
 *
 * Prints the results (which must not depend on where it ran) and, with
 * argument "-v", where the regions ran.
 */
#include <omp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pomp.h"

#define T POMP_THREAD_SELF
#define DEF POMP_DEVICE_DEFAULT
#define N (1 << 16)

static POMP_Handle_t h_enter, h_axpy, h_update, h_nowait, h_exit;
static const char c_enter[] =
    "67*type=targetenterdata*file=target_app.c*lines=40,40*hasMap=1**";
static const char c_axpy[] =
    "58*type=target*file=target_app.c*lines=50,55*hasMap=1**";
static const char c_update[] =
    "64*type=targetupdate*file=target_app.c*lines=60,60*hasMap=1**";
static const char c_nowait[] =
    "70*type=target*file=target_app.c*lines=65,70*hasNowait=1*hasMap=1**";
static const char c_exit[] =
    "66*type=targetexitdata*file=target_app.c*lines=80,80*hasMap=1**";

int main(int argc, char **argv) {
  int verbose = argc > 1 && !strcmp(argv[1], "-v");
  double *x = malloc(N * sizeof *x), *y = malloc(N * sizeof *y);
  double part[4] = {0, 0, 0, 0};
  int on_host = -1;
  for (int i = 0; i < N; i++)
    x[i] = i % 7, y[i] = 1;

  {
    POMP_Target_t pompt_tgt_1;
    POMP_Map_t pompt_map_1[] = {
        {&x[0], (uint64_t)(N) * sizeof(x[0]), 0x1, 0},
        {&y[0], (uint64_t)(N) * sizeof(y[0]), 0x1, 0},
    };
    POMP_Target_enter_data_enter(&h_enter, T, &pompt_tgt_1, DEF, 0,
                                 pompt_map_1, 2, c_enter);
#pragma omp target enter data map(to : x[0 : N]) map(to : y[0 : N])
    POMP_Target_enter_data_exit(h_enter, T, &pompt_tgt_1);
  }

  for (int rep = 0; rep < 3; rep++) {
    POMP_Target_t pompt_tgt_2;
    POMP_Map_t pompt_map_2[] = {
        {&x[0], (uint64_t)(N) * sizeof(x[0]), 0x1, 0},
        {&y[0], (uint64_t)(N) * sizeof(y[0]), 0x3, 0},
        {&on_host, sizeof(on_host), 0x2, 0},
    };
    POMP_Target_enter(&h_axpy, T, &pompt_tgt_2, DEF, 0, pompt_map_2, 3,
                      c_axpy);
#pragma omp target teams distribute parallel for map(to : x[0 : N])           \
    map(tofrom : y[0 : N]) map(from : on_host)
    for (int i = 0; i < N; i++) {
      y[i] = 2.0 * x[i] + y[i];
      if (i == 0)
        on_host = omp_is_initial_device();
    }
    POMP_Target_exit(h_axpy, T, &pompt_tgt_2);
  }

  {
    POMP_Target_t pompt_tgt_3;
    POMP_Map_t pompt_map_3[] = {
        {&y[0], (uint64_t)(N) * sizeof(y[0]), 0x2, 0},
    };
    POMP_Target_update_enter(&h_update, T, &pompt_tgt_3, DEF, 0, pompt_map_3,
                             1, c_update);
#pragma omp target update from(y[0 : N])
    POMP_Target_update_exit(h_update, T, &pompt_tgt_3);
  }

#pragma omp parallel num_threads(2)
#pragma omp single
  {
    for (int k = 0; k < 4; k++) {
      POMP_Target_t pompt_tgt_4;
      POMP_Map_t pompt_map_4[] = {
          {&y[0], (uint64_t)(N) * sizeof(y[0]), 0x1, 0},
          {&part[k], sizeof(part[k]), 0x2, 0},
      };
      POMP_Target_enter(&h_nowait, T, &pompt_tgt_4, DEF, POMP_TARGET_NOWAIT,
                        pompt_map_4, 2, c_nowait);
#pragma omp target nowait map(to : y[0 : N]) map(from : part[k])             \
    depend(out : pompt_tgt_4.pomp_dep[0])
      {
        double s = 0;
        for (int i = k; i < N; i += 4)
          s += y[i];
        part[k] = s;
      }
#pragma omp task depend(in : pompt_tgt_4.pomp_dep[0])                          \
    firstprivate(pompt_tgt_4, pompt_map_4)
      POMP_Target_complete(h_nowait, T, &pompt_tgt_4, pompt_map_4, 2);
      POMP_Target_exit(h_nowait, T, &pompt_tgt_4);
    }
#pragma omp taskwait
  }

  {
    POMP_Target_t pompt_tgt_5;
    POMP_Map_t pompt_map_5[] = {
        {&x[0], (uint64_t)(N) * sizeof(x[0]), 0x8, 0},
        {&y[0], (uint64_t)(N) * sizeof(y[0]), 0x10, 0},
    };
    POMP_Target_exit_data_enter(&h_exit, T, &pompt_tgt_5, DEF, 0, pompt_map_5,
                                2, c_exit);
#pragma omp target exit data map(release : x[0 : N]) map(delete : y[0 : N])
    POMP_Target_exit_data_exit(h_exit, T, &pompt_tgt_5);
  }

  double sum = part[0] + part[1] + part[2] + part[3];
  printf("y[0]=%g y[N-1]=%g sum=%.0f\n", y[0], y[N - 1], sum);
  if (verbose)
    printf("devices=%d ran on %s\n", omp_get_num_devices(),
           on_host ? "the host" : "a device");
  free(x);
  free(y);
  return 0;
}
