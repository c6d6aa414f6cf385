/*
 * target_host.c -- target constructs instrumented by hand exactly as
 * doc/target.md specifies, executed by the OpenMP runtime on the host (no
 * offload device here: host fallback), under the in-program tool of
 * tt_tool.h.  Every map type and modifier, array sections of arrays,
 * pointers, 2-D arrays and struct members, nested data regions, target
 * update, enter/exit data, device and if clauses.  (GCC 12 does not
 * accept the present modifier; its flag is the only one not exercised.)  Checks the callbacks'
 * arguments against the map lists the program wrote, the trace records
 * against the callbacks, and that the program computes what it computes
 * without instrumentation.
 *
 * TT_LEGACY=1: the tool registers the 5.0 target callbacks; TT_IDS=1: it
 * sets target and op ids itself (tt_tool.h).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "tt_check.h"

#define T POMP_THREAD_SELF
#define DEF POMP_DEVICE_DEFAULT

static POMP_Handle_t h_data, h_tgt, h_enter, h_update, h_exit, h_dev, h_if;
static const char c_data[] =
    "63*type=targetdata*file=target_host.c*lines=40,60*hasMap=1**";
static const char c_tgt[] =
    "59*type=target*file=target_host.c*lines=45,52*hasMap=1**";
static const char c_enter[] =
    "68*type=targetenterdata*file=target_host.c*lines=70,70*hasMap=1**";
static const char c_update[] =
    "65*type=targetupdate*file=target_host.c*lines=80,80*hasMap=1**";
static const char c_exit[] =
    "67*type=targetexitdata*file=target_host.c*lines=90,90*hasMap=1**";
static const char c_dev[] =
    "70*type=target*file=target_host.c*lines=95,97*hasDevice=1*hasMap=1**";
static const char c_if[] =
    "66*type=target*file=target_host.c*lines=99,101*hasIf=1*hasMap=1**";

struct particle {
  int id;
  double arr[16];
};

static double a[64], b[64];
static double m2[8][8];
static struct particle s;
static double *p;
static int host_dev;
static uint64_t t_start;

/* What the program did, for the final checks. */
static int n_constructs;
static struct done {
  int kind, device, with_map;
  POMP_Map_t maps[8];
  int nmaps;
  int first_event;
} done[16];

static void note(int kind, int device, const POMP_Map_t *maps, int nmaps,
                 int first_event, int with_map) {
  struct done *d = &done[n_constructs++];
  d->kind = kind, d->device = device, d->nmaps = nmaps;
  d->first_event = first_event, d->with_map = with_map;
  if (nmaps > 0) /* maps may be NULL for a construct without a map list */
    memcpy(d->maps, maps, (size_t)nmaps * sizeof *maps);
}

static void tt_final_checks(void) {
  TT_CHECK(tt_ndevices == 1, "%d devices initialised, want 1 (the host)",
           tt_ndevices);
  TT_CHECK(tt_ndevices >= 1 && tt_devices[0].num == host_dev &&
               !strcmp(tt_devices[0].type, "host") &&
               tt_devices[0].finalized == 1,
           "host device: num %d type %s finalized %d",
           tt_ndevices ? tt_devices[0].num : -9,
           tt_ndevices ? tt_devices[0].type : "-",
           tt_ndevices ? tt_devices[0].finalized : -1);
  TT_CHECK(tt_nhanded == tt_ncompleted, "%d buffers handed, %d completed",
           tt_nhanded, tt_ncompleted);
  /* Host fallback transfers nothing. */
  TT_CHECK(tt_count(ompt_callback_target_data_op_emi, 0) +
                   tt_count(ompt_callback_target_data_op, 0) ==
               0,
           "data operations reported for host-fallback execution");
  TT_CHECK(tt_count_records(ompt_callback_target_data_op) == 0,
           "data op records for host fallback");
  tt_check_records(t_start, tt_get_device_time(tt_device(host_dev)));
}

/* The constructs' own events, in order. */
static void check_done(void) {
  for (int c = 0; c < n_constructs; c++) {
    struct done *d = &done[c];
    int i = d->first_event;
    tt_check_host_construct(&i, d->kind, d->device, d->maps, d->nmaps,
                            d->with_map);
  }
}

int main(void) {
  host_dev = omp_get_initial_device();
  p = malloc(32 * sizeof *p);
  for (int i = 0; i < 64; i++)
    a[i] = i, b[i] = -1;
  for (int i = 0; i < 32; i++)
    p[i] = 100 + i;
  s.id = 7;
  int mark;

  /* ---- target data with a target region inside ---- */
  {
    POMP_Target_t pompt_tgt_1;
    POMP_Map_t pompt_map_1[] = {
        {&a, sizeof(a), 0x1, 0},
        {&b[0], (uint64_t)(32) * sizeof(b[0]), 0x2, 0},
        {&p[4], (uint64_t)(8) * sizeof(p[0]), 0x3, 0},
        {&m2[1][0],
         (uint64_t)((const char *)(&m2[(1) + (2) - 1][(0) + (8) - 1] + 1) -
                    (const char *)&m2[1][0]),
         0x4, 0},
    };
    mark = tt_nevents;
    POMP_Target_data_enter(&h_data, T, &pompt_tgt_1, DEF, 0, pompt_map_1, 4,
                           c_data);
#pragma omp target data map(to : a) map(from : b[0 : 32])                      \
    map(tofrom : p[4 : 8]) map(alloc : m2[1 : 2][0 : 8])
    {
      POMP_Target_data_begin(h_data, T, &pompt_tgt_1);
      TT_CHECK(tt_nevents - mark == 3, "target data entry: %d events, want 3",
               tt_nevents - mark);
      {
        int i = mark;
        tt_check_host_construct(&i, ompt_target_enter_data, host_dev,
                                pompt_map_1, 4, 1);
      }
      TT_CHECK(pompt_map_1[3].size == 2 * 8 * sizeof(double),
               "2-D section size");
      {
        POMP_Target_t pompt_tgt_2;
        POMP_Map_t pompt_map_2[] = {
            {&s, sizeof(s), 0x3, 0},
            {&a[2], (uint64_t)(10) * sizeof(a[0]), 0x41, 0},
            {&b[0], (uint64_t)(4) * sizeof(b[0]), 0x1, 0},
            {&s.arr[3], (uint64_t)(5) * sizeof(s.arr[0]), 0x101 | 0x2, 0},
        };
        int m = tt_nevents;
        POMP_Target_enter(&h_tgt, T, &pompt_tgt_2, DEF, 0, pompt_map_2, 4,
                          c_tgt);
#pragma omp target map(tofrom : s) map(always, to : a[2 : 10])                 \
    map(to : b[0 : 4]) map(close, tofrom : s.arr[3 : 5])
        {
          for (int i = 0; i < 32; i++)
            b[i] = a[i] * 2;
          for (int i = 4; i < 12; i++)
            p[i] += 1;
          s.id += 1;
          s.arr[3] = 3.5;
        }
        POMP_Target_exit(h_tgt, T, &pompt_tgt_2);
        note(ompt_target, host_dev, pompt_map_2, 4, m, 1);
      }
      POMP_Target_data_end(h_data, T, &pompt_tgt_1);
    }
    POMP_Target_data_exit(h_data, T, &pompt_tgt_1);
    /* The exit part: exit data begin and end, nothing in between. */
    int e = tt_nevents - 2;
    TT_CHECK(tt_events[e].kind == ompt_target_exit_data &&
                 tt_events[e].endpoint == ompt_scope_begin &&
                 tt_events[e + 1].kind == ompt_target_exit_data &&
                 tt_events[e + 1].endpoint == ompt_scope_end &&
                 tt_events[e].target_id == tt_events[e + 1].target_id &&
                 tt_events[e].target_id != tt_events[mark].target_id,
             "target data exit part");
  }
  TT_CHECK(b[5] == 10 && p[4] == 105 && p[12] == 112 && s.id == 8 &&
               s.arr[3] == 3.5,
           "target data / target region computed wrong values");

  /* ---- enter data, update, exit data ---- */
  {
    POMP_Target_t pompt_tgt_3;
    POMP_Map_t pompt_map_3[] = {
        {&a[0], (uint64_t)(16) * sizeof(a[0]), 0x1, 0},
        {&s.arr[2], (uint64_t)(5) * sizeof(s.arr[0]), 0x4, 0},
    };
    mark = tt_nevents;
    POMP_Target_enter_data_enter(&h_enter, T, &pompt_tgt_3, DEF, 0,
                                 pompt_map_3, 2, c_enter);
#pragma omp target enter data map(to : a[0 : 16]) map(alloc : s.arr[2 : 5])
    POMP_Target_enter_data_exit(h_enter, T, &pompt_tgt_3);
    note(ompt_target_enter_data, host_dev, pompt_map_3, 2, mark, 1);
  }
  {
    POMP_Target_t pompt_tgt_4;
    POMP_Map_t pompt_map_4[] = {
        {&a[0], (uint64_t)(16) * sizeof(a[0]), 0x1, 0},
        {&s.arr, sizeof(s.arr), 0x2, 0},
    };
    mark = tt_nevents;
    POMP_Target_update_enter(&h_update, T, &pompt_tgt_4, DEF, 0, pompt_map_4,
                             2, c_update);
#pragma omp target update to(a[0 : 16]) from(s.arr)
    POMP_Target_update_exit(h_update, T, &pompt_tgt_4);
    note(ompt_target_update, host_dev, pompt_map_4, 2, mark, 0);
  }
  {
    POMP_Target_t pompt_tgt_5;
    POMP_Map_t pompt_map_5[] = {
        {&a[0], (uint64_t)(16) * sizeof(a[0]), 0x2, 0},
        {&s.arr[2], (uint64_t)(5) * sizeof(s.arr[0]), 0x8, 0},
        {&m2, sizeof(m2), 0x10, 0},
        {&b[1], (uint64_t)(sizeof(b) / sizeof(b[0]) - (1)) * sizeof(b[0]),
         0x42, 0},
    };
    mark = tt_nevents;
    POMP_Target_exit_data_enter(&h_exit, T, &pompt_tgt_5, DEF, 0, pompt_map_5,
                                4, c_exit);
#pragma omp target exit data map(from : a[0 : 16])                             \
    map(release : s.arr[2 : 5]) map(delete : m2) map(always, from : b[1 :])
    POMP_Target_exit_data_exit(h_exit, T, &pompt_tgt_5);
    note(ompt_target_exit_data, host_dev, pompt_map_5, 4, mark, 1);
    TT_CHECK(pompt_map_5[3].size == 63 * sizeof(double), "b[1:] size");
  }

  /* ---- device clause naming the host, if(false) ---- */
  {
    int pompt_dev_6 = (int)(omp_get_initial_device());
    POMP_Target_t pompt_tgt_6;
    POMP_Map_t pompt_map_6[] = {{&a[7], sizeof(a[7]), 0x3, 0}};
    mark = tt_nevents;
    POMP_Target_enter(&h_dev, T, &pompt_tgt_6, pompt_dev_6, 0, pompt_map_6, 1,
                      c_dev);
#pragma omp target device(pompt_dev_6) map(tofrom : a[7])
    a[7] = 77;
    POMP_Target_exit(h_dev, T, &pompt_tgt_6);
    note(ompt_target, host_dev, pompt_map_6, 1, mark, 1);
  }
  {
    int pompt_if_7 = (a[0] > 1000) ? 1 : 0;
    POMP_Target_t pompt_tgt_7;
    mark = tt_nevents;
    POMP_Target_enter(&h_if, T, &pompt_tgt_7, DEF, (pompt_if_7 ? 0 : 2), NULL,
                      0, c_if);
#pragma omp target if (pompt_if_7)
    a[8] = 88;
    POMP_Target_exit(h_if, T, &pompt_tgt_7);
    note(ompt_target, host_dev, NULL, 0, mark, 1);
  }
  TT_CHECK(a[7] == 77 && a[8] == 88, "device / if targets computed wrong");

  /* ---- entry points ---- */
  ompt_device_t *hd = tt_device(host_dev);
  TT_CHECK(hd != NULL, "no host device");
  TT_CHECK(tt_get_num_devices() == omp_get_num_devices(),
           "ompt_get_num_devices %d, omp_get_num_devices %d",
           tt_get_num_devices(), omp_get_num_devices());
  TT_CHECK(tt_initial_device == host_dev, "initialize: initial device %d",
           tt_initial_device);
  uint64_t dummy_dev;
  ompt_id_t dummy_id, dummy_op;
  TT_CHECK(tt_get_target_info(&dummy_dev, &dummy_id, &dummy_op) == 0,
           "get_target_info outside any target construct");
  if (hd) {
    TT_CHECK(tt_set_trace_ompt(hd, 1, ompt_callback_target_data_op) ==
                 ompt_set_never,
             "host device claims to trace data operations");
    TT_CHECK(tt_set_trace_ompt(hd, 1, ompt_callback_parallel_begin) ==
                 ompt_set_never,
             "device claims to trace host events");
    TT_CHECK(tt_set_trace_ompt(hd, 1, 999) == ompt_set_error,
             "set_trace_ompt accepts an invalid type");
    TT_CHECK(tt_set_trace_native(hd, 1, ompt_native_kernel_execution) ==
                 ompt_set_never,
             "native tracing claimed");
    TT_CHECK(tt_get_device_num_procs(hd) > 0, "host device has no procs");
    double w = omp_get_wtime();
    double d = tt_translate_time(hd, tt_get_device_time(hd));
    TT_CHECK(d - w > -0.01 && d - w < 0.01,
             "translate_time %.6f vs omp_get_wtime %.6f", d, w);
    TT_CHECK(tt_get_record_native(NULL, 0, NULL) == NULL &&
                 tt_get_record_abstract(NULL) == NULL,
             "native records");
    TT_CHECK(tt_start_trace(hd, tt_buffer_request, tt_buffer_complete) == 0,
             "start_trace while tracing must fail");
  }
  check_done();
  printf("a[5]=%g b[5]=%g p[4]=%g s.id=%d\n", a[5], b[5], p[4], s.id);
  free(p);
  return 0;
}

/* The test starts before main: the recorded start of the run. */
__attribute__((constructor(200))) static void start_clock(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  t_start = (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}
