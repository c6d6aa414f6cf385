/*
 * target_dataops.c -- data operations on an offload device, without one.
 *
 * libpompt learns which data operations a construct performed from the
 * OpenMP runtime's presence table (omp_target_is_present), before and after
 * each phase.  This program provides that table itself: it defines
 * omp_get_num_devices, omp_get_default_device, omp_get_initial_device and
 * omp_target_is_present (exported, so libpompt's references bind to them),
 * pretends to have one device (0, the host is 1), and calls the POMP events
 * of doc/target.md by hand, changing the table between the enter and exit
 * events as a runtime would.  The checks: the data_op callbacks (types,
 * addresses, devices, sizes, order, ids), ompt_get_target_info inside them,
 * the thread's wait states, and one trace record per operation.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "tt_check.h"

#define T POMP_THREAD_SELF
#define DEV 0
#define HOST 1

/* ---- The pretend runtime ------------------------------------------------ */

#define MAXP 16
static const void *present_addr[MAXP];
static int npresent;

int omp_get_num_devices(void) { return 1; }
int omp_get_default_device(void) { return DEV; }
int omp_get_initial_device(void) { return HOST; }
int omp_target_is_present(const void *p, int dev) {
  if (dev == HOST)
    return 1;
  for (int i = 0; i < npresent; i++)
    if (present_addr[i] == p)
      return 1;
  return 0;
}
static void map_in(const void *p) {
  if (!omp_target_is_present(p, DEV))
    present_addr[npresent++] = p;
}
static void map_out(const void *p) {
  for (int i = 0; i < npresent; i++)
    if (present_addr[i] == p) {
      present_addr[i] = present_addr[--npresent];
      return;
    }
}

/* ---- Expectations --------------------------------------------------------- */

struct op {
  int type;
  const void *host;
  size_t bytes;
};

/* The data operations reported from event `mark` on, in order, against
 * want[0..n-1]; every one a begin/end pair with the same id, inside target
 * region tid. */
static void expect_ops(int mark, ompt_id_t tid, const struct op *want, int n,
                       const char *what) {
  int k = 0;
  for (int i = mark; i < tt_nevents; i++) {
    tt_event *e = &tt_events[i];
    if (e->cb != ompt_callback_target_data_op_emi &&
        e->cb != ompt_callback_target_data_op)
      continue;
    if (e->cb == ompt_callback_target_data_op_emi) {
      if (e->endpoint == ompt_scope_begin) {
        TT_CHECK(i + 1 < tt_nevents && tt_events[i + 1].cb == e->cb &&
                     tt_events[i + 1].endpoint == ompt_scope_end &&
                     tt_events[i + 1].host_op_id == e->host_op_id,
                 "%s: data op begin without its end", what);
        continue;
      }
    }
    if (k >= n) {
      TT_FAIL("%s: unexpected data op %d (%zu bytes)", what, e->kind,
              e->bytes);
      k++;
      continue;
    }
    const struct op *w = &want[k++];
    int from = w->type == ompt_target_data_transfer_from_device ||
               w->type == ompt_target_data_delete;
    TT_CHECK(e->kind == w->type, "%s: op %d is %d, want %d", what, k - 1,
             e->kind, w->type);
    TT_CHECK((from ? e->dst : e->src) == w->host, "%s: op %d host address",
             what, k - 1);
    TT_CHECK(e->bytes == w->bytes, "%s: op %d: %zu bytes, want %zu", what,
             k - 1, e->bytes, w->bytes);
    TT_CHECK(from ? (e->srcdev == DEV && e->dstdev == HOST)
                  : (e->srcdev == HOST && e->dstdev == DEV),
             "%s: op %d devices %d -> %d", what, k - 1, e->srcdev, e->dstdev);
    TT_CHECK(e->target_id == tid, "%s: op %d in target %llu, want %llu", what,
             k - 1, (unsigned long long)e->target_id,
             (unsigned long long)tid);
    TT_CHECK(e->info_ret == 1 && e->info_op == e->host_op_id &&
                 e->info_dev == DEV,
             "%s: get_target_info in a data op", what);
  }
  TT_CHECK(k == n, "%s: %d data ops, want %d", what, k, n);
}

static ompt_id_t target_id_at(int mark) {
  return mark < tt_nevents ? tt_events[mark].target_id : 0;
}

static int state_now(void) { return tt_get_state(NULL); }

static POMP_Handle_t h1, h2, h3, h4, h5, h6;
static const char c1[] = "53*type=targetenterdata*file=dataops.c*lines=1,1**";
static const char c2[] = "44*type=target*file=dataops.c*lines=2,2**";
static const char c3[] = "50*type=targetupdate*file=dataops.c*lines=3,3**";
static const char c4[] = "48*type=targetdata*file=dataops.c*lines=4,4**";
static const char c5[] = "52*type=targetexitdata*file=dataops.c*lines=5,5**";
static const char c6[] = "52*type=targetexitdata*file=dataops.c*lines=6,6**";

static double a[100], b[10], c[20], x[5];
static uint64_t t_start;

static void tt_final_checks(void) {
  TT_CHECK(tt_ndevices == 1 && tt_devices[0].num == DEV &&
               strcmp(tt_devices[0].type, "host") != 0 &&
               tt_devices[0].finalized == 1,
           "the offload device: %d devices", tt_ndevices);
  TT_CHECK(tt_nhanded == tt_ncompleted, "buffers handed %d completed %d",
           tt_nhanded, tt_ncompleted);
  tt_check_records(t_start, tt_get_device_time(tt_device(DEV)));
}

int main(void) {
  /* The tool starts at the first event; these events are written by hand
   * and expect it started before the first, as "#pragma pomp inst init"
   * asks for. */
  POMP_Init();
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  t_start = (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
  int serial = state_now();

  /* 1. enter data map(to: a[10:50]) map(alloc: b) map(to: x) (x present) */
  map_in(&x[0]);
  {
    POMP_Target_t tg;
    POMP_Map_t m[] = {{&a[10], 50 * sizeof(double), 0x1, 0},
                      {&b, sizeof b, 0x4, 0},
                      {&x[0], sizeof x, 0x1, 0}};
    int mark = tt_nevents;
    POMP_Target_enter_data_enter(&h1, T, &tg, POMP_DEVICE_DEFAULT, 0, m, 3,
                                 c1);
    TT_CHECK(state_now() == ompt_state_wait_target_map,
             "enter data: state %#x", state_now());
    map_in(&a[10]), map_in(&b);
    POMP_Target_enter_data_exit(h1, T, &tg);
    TT_CHECK(state_now() == serial, "state after enter data %#x",
             state_now());
    struct op want[] = {
        {ompt_target_data_alloc, &a[10], 50 * sizeof(double)},
        {ompt_target_data_transfer_to_device, &a[10], 50 * sizeof(double)},
        {ompt_target_data_alloc, &b, sizeof b}};
    expect_ops(mark, target_id_at(mark), want, 3, "enter data");
    TT_CHECK(tt_events[mark].device == DEV && tt_events[mark].kind ==
                 ompt_target_enter_data, "enter data on device 0");
  }

  /* 2. target map(tofrom: a[10:50]) map(always, to: b) map(from: c) */
  {
    POMP_Target_t tg;
    POMP_Map_t m[] = {{&a[10], 50 * sizeof(double), 0x3, 0},
                      {&b, sizeof b, 0x41, 0},
                      {&c, sizeof c, 0x2, 0}};
    int mark = tt_nevents;
    POMP_Target_enter(&h2, T, &tg, POMP_DEVICE_DEFAULT, 0, m, 3, c2);
    TT_CHECK(state_now() == ompt_state_wait_target, "target: state %#x",
             state_now());
    map_in(&c);  /* the runtime maps c ... */
    map_out(&c); /* ... and unmaps it at the end */
    POMP_Target_exit(h2, T, &tg);
    TT_CHECK(state_now() == serial, "state after target");
    struct op want[] = {
        {ompt_target_data_alloc, &c, sizeof c},
        {ompt_target_data_transfer_to_device, &b, sizeof b},
        {ompt_target_data_transfer_from_device, &c, sizeof c},
        {ompt_target_data_delete, &c, sizeof c}};
    /* Item by item in clause order: a present (nothing), b present with
     * always (to), c absent (alloc); then the kernel; then c gone. */
    struct op want_order[] = {want[1], want[0], want[2], want[3]};
    expect_ops(mark, target_id_at(mark), want_order, 4, "target");
    /* The kernel between the entry and the exit operations. */
    int sub = -1, lastin = -1, firstout = -1;
    for (int i = mark; i < tt_nevents; i++) {
      if (tt_events[i].cb == ompt_callback_target_submit_emi &&
          tt_events[i].endpoint == ompt_scope_end)
        sub = i;
      if (tt_events[i].cb == ompt_callback_target_data_op_emi ||
          tt_events[i].cb == ompt_callback_target_data_op) {
        if (tt_events[i].kind == ompt_target_data_transfer_from_device &&
            firstout < 0)
          firstout = i;
        if (tt_events[i].kind == ompt_target_data_transfer_to_device)
          lastin = i;
      }
    }
    if (tt_emi)
      TT_CHECK(sub > lastin && sub < firstout,
               "kernel end not between entry and exit operations");
  }

  /* 3. target update to(a[10:50]) from(c): c is not present */
  {
    POMP_Target_t tg;
    POMP_Map_t m[] = {{&a[10], 50 * sizeof(double), 0x1, 0},
                      {&c, sizeof c, 0x2, 0}};
    int mark = tt_nevents;
    POMP_Target_update_enter(&h3, T, &tg, POMP_DEVICE_DEFAULT, 0, m, 2, c3);
    TT_CHECK(state_now() == ompt_state_wait_target_update,
             "update: state %#x", state_now());
    POMP_Target_update_exit(h3, T, &tg);
    struct op want[] = {
        {ompt_target_data_transfer_to_device, &a[10], 50 * sizeof(double)}};
    expect_ops(mark, target_id_at(mark), want, 1, "update");
  }

  /* 4. target data map(tofrom: c) map(to: b) (b present: nothing) */
  {
    POMP_Target_t tg;
    POMP_Map_t m[] = {{&c, sizeof c, 0x3, 0}, {&b, sizeof b, 0x1, 0}};
    int mark = tt_nevents;
    POMP_Target_data_enter(&h4, T, &tg, POMP_DEVICE_DEFAULT, 0, m, 2, c4);
    map_in(&c);
    POMP_Target_data_begin(h4, T, &tg);
    struct op in[] = {{ompt_target_data_alloc, &c, sizeof c},
                      {ompt_target_data_transfer_to_device, &c, sizeof c}};
    expect_ops(mark, target_id_at(mark), in, 2, "target data entry");
    TT_CHECK(state_now() == serial, "state in a target data body %#x",
             state_now());
    int mark2 = tt_nevents;
    POMP_Target_data_end(h4, T, &tg);
    map_out(&c);
    POMP_Target_data_exit(h4, T, &tg);
    struct op out[] = {{ompt_target_data_transfer_from_device, &c, sizeof c},
                       {ompt_target_data_delete, &c, sizeof c}};
    expect_ops(mark2, target_id_at(mark2), out, 2, "target data exit");
    TT_CHECK(tt_events[mark2].kind == ompt_target_exit_data &&
                 target_id_at(mark2) != target_id_at(mark),
             "target data's exit part is a target region of its own");
  }

  /* 5. exit data map(release: x) with x still present: nothing */
  map_in(&x[0]); /* (a second reference) */
  {
    POMP_Target_t tg;
    POMP_Map_t m[] = {{&x[0], sizeof x, 0x8, 0}};
    int mark = tt_nevents;
    POMP_Target_exit_data_enter(&h5, T, &tg, POMP_DEVICE_DEFAULT, 0, m, 1, c5);
    POMP_Target_exit_data_exit(h5, T, &tg);
    expect_ops(mark, target_id_at(mark), NULL, 0, "release, still present");
  }

  /* 6. exit data map(from: a[10:50]) map(delete: b) map(release: x) */
  {
    POMP_Target_t tg;
    POMP_Map_t m[] = {{&a[10], 50 * sizeof(double), 0x2, 0},
                      {&b, sizeof b, 0x10 | 0x2, 0},
                      {&x[0], sizeof x, 0x8, 0}};
    int mark = tt_nevents;
    POMP_Target_exit_data_enter(&h6, T, &tg, POMP_DEVICE_DEFAULT, 0, m, 3, c6);
    map_out(&a[10]), map_out(&b), map_out(&x[0]);
    POMP_Target_exit_data_exit(h6, T, &tg);
    struct op want[] = {
        {ompt_target_data_transfer_from_device, &a[10], 50 * sizeof(double)},
        {ompt_target_data_delete, &a[10], 50 * sizeof(double)},
        {ompt_target_data_delete, &b, sizeof b},
        {ompt_target_data_delete, &x[0], sizeof x}};
    expect_ops(mark, target_id_at(mark), want, 4, "exit data");
  }
  TT_CHECK(npresent == 0, "pretend table not empty");
  printf("data operations checked\n");
  return 0;
}
