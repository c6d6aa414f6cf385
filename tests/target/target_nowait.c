/*
 * target_nowait.c -- deferred target constructs and concurrency, on the
 * host device.  Instrumented by hand as doc/target.md specifies: each
 * nowait construct gets depend(out: ...pomp_dep[0]) and a completion task.
 *
 *  1. In a single region, enter data nowait, 8 target nowait regions,
 *     update nowait and exit data nowait, then a taskwait: every instance
 *     begins (kind *_nowait) on the encountering thread and ends once, after
 *     its region ran, on whichever thread ran the completion task; the
 *     completion of region k sees region k's result.
 *  2. Every thread of a team runs synchronous target regions at the same
 *     time, with small trace buffers: every record arrives, buffers complete
 *     in the order they were handed out.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "tt_check.h"

#define T POMP_THREAD_SELF
#define DEF POMP_DEVICE_DEFAULT
#define K 8
#define REPS 50

static POMP_Handle_t h_ed, h_t, h_up, h_xd, h_sync;
static const char c_ed[] =
    "66*type=targetenterdata*file=nowait.c*lines=1,1*hasNowait=1**";
static const char c_t[] = "57*type=target*file=nowait.c*lines=2,2*hasNowait=1**";
static const char c_up[] =
    "63*type=targetupdate*file=nowait.c*lines=3,3*hasNowait=1**";
static const char c_xd[] =
    "65*type=targetexitdata*file=nowait.c*lines=4,4*hasNowait=1**";
static const char c_sync[] = "42*type=target*file=nowait.c*lines=5,5**";

static double data[K][64];
static double result[K];
static double seen[K]; /* what each completion task saw */
static uint64_t t_start;
static int host;

static void tt_final_checks(void) {
  TT_CHECK(tt_nhanded == tt_ncompleted, "buffers handed %d, completed %d",
           tt_nhanded, tt_ncompleted);
  tt_check_records(t_start, tt_get_device_time(tt_device(host)));
}

/* Every target instance: one begin, one end, same kind, ids unique. */
static void check_pairs(int nowait_expected) {
  int nowait = 0;
  for (int i = 0; i < tt_nevents; i++) {
    tt_event *b = &tt_events[i];
    if (!tt_is_target_cb(b->cb) || b->endpoint != ompt_scope_begin)
      continue;
    int ends = 0, begins = 0;
    for (int j = 0; j < tt_nevents; j++) {
      tt_event *e = &tt_events[j];
      if (!tt_is_target_cb(e->cb) || e->target_id != b->target_id)
        continue;
      if (e->endpoint == ompt_scope_begin)
        begins++;
      else {
        ends++;
        TT_CHECK(j > i, "target %llu ends before it begins",
                 (unsigned long long)b->target_id);
        TT_CHECK(e->kind == b->kind && e->device == b->device,
                 "end differs from begin");
      }
    }
    TT_CHECK(begins == 1 && ends == 1, "target %llu: %d begins, %d ends",
             (unsigned long long)b->target_id, begins, ends);
    if (b->kind >= ompt_target_nowait)
      nowait++;
  }
  TT_CHECK(nowait == nowait_expected, "%d nowait instances, want %d", nowait,
           nowait_expected);
}

int main(void) {
  host = omp_get_initial_device();
  t_start = 0;
  for (int k = 0; k < K; k++)
    for (int i = 0; i < 64; i++)
      data[k][i] = k + i;

#pragma omp parallel num_threads(4)
#pragma omp single
  {
    {
      POMP_Target_t tg;
      POMP_Map_t m[] = {{&data, sizeof data, 0x1, 0}};
      POMP_Target_enter_data_enter(&h_ed, T, &tg, DEF, POMP_TARGET_NOWAIT, m,
                                   1, c_ed);
#pragma omp target enter data nowait map(to : data) depend(out : tg.pomp_dep[0])
#pragma omp task depend(in : tg.pomp_dep[0]) firstprivate(tg, m)
      POMP_Target_complete(h_ed, T, &tg, m, 1);
      POMP_Target_enter_data_exit(h_ed, T, &tg);
    }
#pragma omp taskwait
    for (int k = 0; k < K; k++) {
      POMP_Target_t tg;
      POMP_Map_t m[] = {{&data[k][0], (uint64_t)(64) * sizeof(data[k][0]),
                         0x1, 0},
                        {&result[k], sizeof(result[k]), 0x2, 0}};
      POMP_Target_enter(&h_t, T, &tg, DEF, POMP_TARGET_NOWAIT, m, 2, c_t);
#pragma omp target nowait map(to : data[k][0 : 64]) map(from : result[k])     \
    depend(out : tg.pomp_dep[0])
      {
        double s = 0;
        for (int i = 0; i < 64; i++)
          s += data[k][i];
        result[k] = s;
      }
#pragma omp task depend(in : tg.pomp_dep[0]) firstprivate(tg, m, k)
      {
        seen[k] = result[k];
        POMP_Target_complete(h_t, T, &tg, m, 2);
      }
      POMP_Target_exit(h_t, T, &tg);
    }
    {
      POMP_Target_t tg;
      POMP_Map_t m[] = {{&data, sizeof data, 0x1, 0}};
      POMP_Target_update_enter(&h_up, T, &tg, DEF, POMP_TARGET_NOWAIT, m, 1,
                               c_up);
#pragma omp target update nowait to(data) depend(out : tg.pomp_dep[0])
#pragma omp task depend(in : tg.pomp_dep[0]) firstprivate(tg, m)
      POMP_Target_complete(h_up, T, &tg, m, 1);
      POMP_Target_update_exit(h_up, T, &tg);
    }
#pragma omp taskwait
    {
      POMP_Target_t tg;
      POMP_Map_t m[] = {{&data, sizeof data, 0x8, 0}};
      POMP_Target_exit_data_enter(&h_xd, T, &tg, DEF, POMP_TARGET_NOWAIT, m,
                                  1, c_xd);
#pragma omp target exit data nowait map(release : data)                        \
    depend(out : tg.pomp_dep[0])
#pragma omp task depend(in : tg.pomp_dep[0]) firstprivate(tg, m)
      POMP_Target_complete(h_xd, T, &tg, m, 1);
      POMP_Target_exit_data_exit(h_xd, T, &tg);
    }
#pragma omp taskwait
  }
  for (int k = 0; k < K; k++) {
    double want = 64.0 * k + 63.0 * 64 / 2;
    TT_CHECK(result[k] == want && seen[k] == want,
             "region %d: result %g, completion saw %g, want %g", k,
             result[k], seen[k], want);
  }
  check_pairs(K + 3);
  /* Nowait instances end with the region's kernel in between. */
  for (int i = 0; i < tt_nevents; i++) {
    tt_event *b = &tt_events[i];
    if (!tt_is_target_cb(b->cb) || b->endpoint != ompt_scope_begin ||
        b->kind != ompt_target_nowait)
      continue;
    int sub_begin = -1, sub_end = -1, end = -1;
    for (int j = i; j < tt_nevents; j++) {
      tt_event *e = &tt_events[j];
      if (e->target_id != b->target_id)
        continue;
      if (e->cb == ompt_callback_target_submit_emi)
        *(e->endpoint == ompt_scope_begin ? &sub_begin : &sub_end) = j;
      if (tt_is_target_cb(e->cb) && e->endpoint == ompt_scope_end)
        end = j;
    }
    if (tt_emi)
      TT_CHECK(i < sub_begin && sub_begin < sub_end && sub_end < end,
               "nowait region: begin %d submit %d..%d end %d", i, sub_begin,
               sub_end, end);
  }

  /* 2. Concurrent synchronous regions with small buffers. */
  tt_buf_bytes = 512;
  tt_flush_trace(tt_device(host));
  int before = tt_nevents;
  (void)before;
#pragma omp parallel num_threads(4)
  for (int r = 0; r < REPS; r++) {
    int me = omp_get_thread_num();
    double local[8] = {0};
    POMP_Target_t tg;
    POMP_Map_t m[] = {{&local, sizeof local, 0x3, 0}};
    POMP_Target_enter(&h_sync, T, &tg, DEF, 0, m, 1, c_sync);
#pragma omp target map(tofrom : local)
    local[0] = me + r;
    POMP_Target_exit(h_sync, T, &tg);
    if (local[0] != me + r)
      TT_FAIL("concurrent region computed %g", local[0]);
  }
  check_pairs(K + 3);
  printf("nowait and concurrent regions checked\n");
  return 0;
}
