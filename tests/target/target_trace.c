/*
 * target_trace.c -- the device tracing protocol on the host device:
 * flush, pause and resume, stop and restart, buffers that hold one record,
 * buffers too small for any, a tool that hands out no buffer (loss counted
 * and reported on stderr, never silent), and shutdown while tracing (every
 * buffer completed, the last records included).  Target regions are
 * instrumented by hand as doc/target.md specifies and run on the host.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "tt_check.h"

#define T POMP_THREAD_SELF

static POMP_Handle_t h_tgt;
static const char c_tgt[] = "46*type=target*file=target_trace.c*lines=1,3**";
static double v[32];
static ompt_id_t last_id;

/* One target region; returns its target id (from the begin callback). */
static ompt_id_t region(void) {
  POMP_Target_t tg;
  POMP_Map_t m[] = {{&v[0], sizeof v, 0x3, 0}};
  int mark = tt_nevents;
  POMP_Target_enter(&h_tgt, T, &tg, POMP_DEVICE_DEFAULT, 0, m, 1, c_tgt);
#pragma omp target map(tofrom : v)
  for (int i = 0; i < 32; i++)
    v[i] += 1;
  POMP_Target_exit(h_tgt, T, &tg);
  return last_id = tt_events[mark].target_id;
}

/* Target records (begin and end) of target region tid received so far. */
static int records_of(ompt_id_t tid) {
  int n = 0;
  for (int i = 0; i < tt_nrecords; i++)
    n += tt_records[i].r.type == ompt_callback_target &&
         tt_records[i].r.target_id == tid;
  return n;
}

static ompt_device_t *dev;
static int host;

/* stderr goes to a file, so that the program can read what libpompt
 * reported. */
static char errpath[] = "/tmp/pompt-target-trace-XXXXXX";
static int errfd = -1, saved_err = -1;

static void capture_stderr(void) {
  fflush(stderr);
  errfd = mkstemp(errpath);
  saved_err = dup(2);
  dup2(errfd, 2);
}

static int stderr_mentions(const char *what) {
  fflush(stderr);
  char buf[4096];
  ssize_t n = pread(errfd, buf, sizeof buf - 1, 0);
  buf[n > 0 ? n : 0] = '\0';
  return strstr(buf, what) != NULL;
}

static void restore_stderr(void) {
  fflush(stderr);
  dup2(saved_err, 2);
  close(errfd);
  unlink(errpath);
}

static void tt_final_checks(void) {
  /* Shutdown while tracing: every buffer came back, with the last region. */
  TT_CHECK(tt_nhanded == tt_ncompleted, "at shutdown %d buffers handed, %d "
           "completed", tt_nhanded, tt_ncompleted);
  TT_CHECK(records_of(last_id) == 2,
           "records of the last region before shutdown: %d",
           records_of(last_id));
  TT_CHECK(tt_ndevices == 1 && tt_devices[0].finalized == 1,
           "device finalised once");
}

int main(void) {
  host = omp_get_initial_device();
  ompt_id_t id = region(); /* initialises the host device */
  dev = tt_device(host);
  if (!dev) {
    TT_FAIL("no host device");
    return 1;
  }

  /* Flush: the records so far reach the tool now. */
  TT_CHECK(records_of(id) == 0, "records before any flush");
  TT_CHECK(tt_flush_trace(dev) == 1, "flush_trace");
  TT_CHECK(records_of(id) == 2, "after flush: %d records", records_of(id));
  TT_CHECK(tt_nhanded == tt_ncompleted, "flush left a buffer out");
  int completed = tt_ncompleted;
  TT_CHECK(tt_flush_trace(dev) == 1 && tt_ncompleted == completed,
           "flushing nothing completes nothing");

  /* Pause and resume. */
  TT_CHECK(tt_pause_trace(dev, 1) == 1, "pause");
  ompt_id_t paused = region();
  TT_CHECK(tt_pause_trace(dev, 0) == 1, "resume");
  ompt_id_t resumed = region();
  tt_flush_trace(dev);
  TT_CHECK(records_of(paused) == 0, "records while paused: %d",
           records_of(paused));
  TT_CHECK(records_of(resumed) == 2, "records after resume: %d",
           records_of(resumed));

  /* Stop: everything completed; nothing recorded; restart. */
  ompt_id_t before_stop = region();
  TT_CHECK(tt_stop_trace(dev) == 1, "stop_trace");
  TT_CHECK(tt_nhanded == tt_ncompleted, "stop left buffers out");
  TT_CHECK(records_of(before_stop) == 2, "stop lost the last records");
  TT_CHECK(tt_pause_trace(dev, 1) == 0, "pause while stopped");
  ompt_id_t stopped = region();
  TT_CHECK(tt_start_trace(dev, tt_buffer_request, tt_buffer_complete) == 1,
           "restart");
  ompt_id_t restarted = region();
  tt_flush_trace(dev);
  TT_CHECK(records_of(stopped) == 0, "records while stopped");
  TT_CHECK(records_of(restarted) == 2, "records after restart");

  /* Buffers of one record each: more are requested, none lost. */
  tt_stop_trace(dev);
  /* (a target_map record of one item carries 28 bytes of arrays) */
  tt_buf_bytes = sizeof(ompt_record_ompt_t) + 40;
  tt_start_trace(dev, tt_buffer_request, tt_buffer_complete);
  int handed = tt_nhanded;
  ompt_id_t small[5];
  for (int i = 0; i < 5; i++)
    small[i] = region();
  tt_flush_trace(dev);
  for (int i = 0; i < 5; i++)
    TT_CHECK(records_of(small[i]) == 2, "small buffers: region %d has %d "
             "records", i, records_of(small[i]));
  /* Per region: begin, map (1 item), kernel, end = 4 records. */
  TT_CHECK(tt_nhanded - handed >= 20, "one record per buffer: %d buffers",
           tt_nhanded - handed);

  /* A buffer too small for any record: lost, counted, reported. */
  capture_stderr();
  tt_stop_trace(dev);
  tt_buf_bytes = 16;
  tt_start_trace(dev, tt_buffer_request, tt_buffer_complete);
  region();
  tt_stop_trace(dev);
  TT_CHECK(stderr_mentions("trace record(s) lost"),
           "loss to small buffers not reported");
  TT_CHECK(tt_nhanded == tt_ncompleted, "a too small buffer was not "
           "given back");

  /* No buffer at all: lost, reported; tracing resumes after a restart. */
  tt_buf_bytes = 4096;
  tt_no_buffer = 1;
  int requests = tt_requests;
  tt_start_trace(dev, tt_buffer_request, tt_buffer_complete);
  ompt_id_t nobuf = region();
  region();
  tt_flush_trace(dev);
  TT_CHECK(tt_requests - requests == 1,
           "asked %d times for a buffer after the tool refused one",
           tt_requests - requests);
  TT_CHECK(records_of(nobuf) == 0, "records without a buffer");
  TT_CHECK(stderr_mentions("the tool's buffer request returned no buffer"),
           "loss without buffer not reported");
  restore_stderr();
  tt_stop_trace(dev);
  tt_no_buffer = 0;
  tt_start_trace(dev, tt_buffer_request, tt_buffer_complete);
  ompt_id_t again = region();
  tt_flush_trace(dev);
  TT_CHECK(records_of(again) == 2, "no records after restarting");

  /* The last region stays in a buffer until shutdown. */
  region();
  TT_CHECK(records_of(last_id) == 0, "the last region was flushed early");
  printf("tracing protocol checked; v[0]=%g\n", v[0]);
  return 0;
}
