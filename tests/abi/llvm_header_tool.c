/*
 * llvm_header_tool.c -- a minimal OMPT tool built against LLVM's own
 * omp-tools.h, run on libpompt (test "llvm-header-tool").
 *
 * It proves that a tool compiled for LLVM's runtime needs no rebuild to run
 * on libpompt: it is compiled against LLVM's header only (the path comes in
 * as LLVM_OMP_TOOLS_H, a quoted absolute path, so that no other header of
 * Clang's resource directory can shadow the compiler's), defines
 * ompt_start_tool, looks entry points up by name and registers callbacks,
 * all through LLVM's types.  Without LLVM_OMP_TOOLS_H the same source is
 * built against pompt's own header (test "pompt-header-tool"), which shows
 * the source compatibility of the two headers as well.
 *
 * What libpompt must do, and what is checked:
 *  - call ompt_start_tool once, then initialize (with the tool_data of the
 *    returned structure) before main;
 *  - find ompt_set_callback, ompt_get_callback, ompt_get_thread_data,
 *    ompt_get_unique_id, ompt_get_state and ompt_get_task_info by lookup,
 *    and answer NULL for an unknown name;
 *  - answer ompt_set_always when thread_begin and implicit_task (both
 *    mandatory events) are registered, and report them in ompt_get_callback;
 *  - dispatch thread_begin(ompt_thread_initial) and then the initial task's
 *    implicit_task(ompt_scope_begin, ..., flags with ompt_task_initial);
 *  - answer the inquiry functions consistently on the initial thread
 *    (llvm_header_tool_probe, called from main): the thread data and task
 *    data the tool stored in those callbacks, state work_serial, distinct
 *    nonzero unique ids, task_info(0) = 2 with ompt_task_initial, thread 0;
 *  - call finalize at process exit.
 *
 * The verdict is given in finalize: on success it ends the process with
 * status 0, on failure with status 1 after printing why.  main returns a
 * third status (3), which is what the test sees if finalize never runs.
 */
#ifdef LLVM_OMP_TOOLS_H
#include LLVM_OMP_TOOLS_H
#if !defined(__OMPT__) || defined(OMP_TOOLS_H)
#error "LLVM_OMP_TOOLS_H does not name LLVM's omp-tools.h"
#endif
#define TOOL "llvm-header-tool"
#else
#include <omp-tools.h>
#if !defined(OMP_TOOLS_H) || defined(__OMPT__)
#error "expected pompt's omp-tools.h"
#endif
#define TOOL "pompt-header-tool"
#endif

#include <inttypes.h>
#include <stdio.h>
#include <unistd.h>

#include "llvm_header_tool.h"

#define TOOL_MAGIC UINT64_C(0x746f6f6c64617461)   /* start_tool tool_data */
#define THREAD_MAGIC UINT64_C(0x7468726561640001) /* initial thread data */
#define TASK_MAGIC UINT64_C(0x7461736b00000001)   /* initial task data */

static ompt_set_callback_t set_callback;
static ompt_get_callback_t get_callback;
static ompt_get_thread_data_t get_thread_data;
static ompt_get_unique_id_t get_unique_id;
static ompt_get_state_t get_state;
static ompt_get_task_info_t get_task_info;

/* What the tool has seen.  The program is sequential, so only the initial
 * thread runs callbacks; no locking is needed. */
static struct {
  int start_tool_calls;
  int initialize_calls;
  int finalize_calls;
  int probe_calls;
  int thread_begin_initial; /* thread_begin(ompt_thread_initial) */
  int thread_begin_other;   /* thread_begin of any other kind */
  int thread_end;
  int initial_task_begin; /* implicit_task begin with ompt_task_initial */
  int initial_task_end;
  int other_implicit_task; /* implicit_task events of other tasks */
  int task_before_thread;  /* initial task began before thread_begin */
  int failures;
} seen;

static void fail(const char *why) {
  printf(TOOL ": FAIL: %s\n", why);
  fflush(stdout);
  seen.failures++;
}

/* ---- Callbacks ---------------------------------------------------------- */

static void on_thread_begin(ompt_thread_t thread_type,
                            ompt_data_t *thread_data) {
  printf(TOOL ": thread_begin(%d)\n", (int)thread_type);
  if (thread_type != ompt_thread_initial) {
    seen.thread_begin_other++;
    return;
  }
  seen.thread_begin_initial++;
  if (thread_data == NULL)
    fail("thread_begin passed a NULL thread_data");
  else
    thread_data->value = THREAD_MAGIC;
}

static void on_thread_end(ompt_data_t *thread_data) {
  (void)thread_data;
  seen.thread_end++;
}

static void on_implicit_task(ompt_scope_endpoint_t endpoint,
                             ompt_data_t *parallel_data, ompt_data_t *task_data,
                             unsigned int actual_parallelism,
                             unsigned int index, int flags) {
  (void)parallel_data;
  printf(TOOL ": implicit_task(endpoint %d, parallelism %u, "
              "index %u, flags 0x%x)\n",
         (int)endpoint, actual_parallelism, index, (unsigned int)flags);
  if (!(flags & ompt_task_initial)) {
    seen.other_implicit_task++;
    return;
  }
  if (endpoint == ompt_scope_begin) {
    seen.initial_task_begin++;
    if (seen.thread_begin_initial == 0)
      seen.task_before_thread = 1;
    if (task_data == NULL)
      fail("implicit_task(begin) of the initial task passed NULL task_data");
    else
      task_data->value = TASK_MAGIC;
  } else if (endpoint == ompt_scope_end) {
    seen.initial_task_end++;
  } else {
    fail("implicit_task with an endpoint other than begin or end");
  }
}

/* ---- Activation --------------------------------------------------------- */

static ompt_interface_fn_t must_lookup(ompt_function_lookup_t lookup,
                                       const char *name) {
  ompt_interface_fn_t fn = lookup(name);
  if (fn == NULL) {
    printf(TOOL ": FAIL: lookup(\"%s\") returned NULL\n", name);
    fflush(stdout);
    seen.failures++;
  }
  return fn;
}

static int register_callback(ompt_callbacks_t event, ompt_callback_t cb,
                             const char *name) {
  if (set_callback == NULL)
    return 0;
  ompt_set_result_t r = set_callback(event, cb);
  printf(TOOL ": set_callback(%s) = %d\n", name, (int)r);
  if (r != ompt_set_always) {
    printf(TOOL ": FAIL: set_callback(%s) returned %d, not "
                "ompt_set_always (%d), for a mandatory event\n",
           name, (int)r, (int)ompt_set_always);
    seen.failures++;
    return 0;
  }
  if (get_callback != NULL) {
    ompt_callback_t back = NULL;
    if (get_callback(event, &back) != 1 || back != cb) {
      printf(TOOL ": FAIL: get_callback(%s) does not return the "
                  "registered callback\n",
             name);
      seen.failures++;
    }
  }
  return 1;
}

static int tool_initialize(ompt_function_lookup_t lookup,
                           int initial_device_num, ompt_data_t *tool_data) {
  seen.initialize_calls++;
  printf(TOOL ": initialized (initial device %d)\n", initial_device_num);
  fflush(stdout);
  if (seen.start_tool_calls != 1)
    fail("initialize called without a preceding ompt_start_tool");
  if (tool_data == NULL || tool_data->value != TOOL_MAGIC)
    fail("initialize did not receive the tool_data of ompt_start_tool");
  if (lookup == NULL) {
    fail("initialize received a NULL lookup function");
    return 1;
  }

  set_callback = (ompt_set_callback_t)must_lookup(lookup, "ompt_set_callback");
  get_callback = (ompt_get_callback_t)must_lookup(lookup, "ompt_get_callback");
  get_thread_data =
      (ompt_get_thread_data_t)must_lookup(lookup, "ompt_get_thread_data");
  get_unique_id =
      (ompt_get_unique_id_t)must_lookup(lookup, "ompt_get_unique_id");
  get_state = (ompt_get_state_t)must_lookup(lookup, "ompt_get_state");
  get_task_info =
      (ompt_get_task_info_t)must_lookup(lookup, "ompt_get_task_info");
  if (lookup("ompt_no_such_entry_point") != NULL)
    fail("lookup of an unknown name did not return NULL");

  register_callback(ompt_callback_thread_begin,
                    (ompt_callback_t)on_thread_begin, "thread_begin");
  register_callback(ompt_callback_implicit_task,
                    (ompt_callback_t)on_implicit_task, "implicit_task");
  /* thread_end is only recorded: the test does not depend on it. */
  if (set_callback != NULL)
    set_callback(ompt_callback_thread_end, (ompt_callback_t)on_thread_end);
  fflush(stdout);
  return 1; /* stay active */
}

static void tool_finalize(ompt_data_t *tool_data) {
  seen.finalize_calls++;
  printf(TOOL ": finalize (thread_begin initial %d, other %d; "
              "initial task begin %d, end %d; thread_end %d)\n",
         seen.thread_begin_initial, seen.thread_begin_other,
         seen.initial_task_begin, seen.initial_task_end, seen.thread_end);

  if (tool_data == NULL || tool_data->value != TOOL_MAGIC)
    fail("finalize did not receive the tool_data of ompt_start_tool");
  if (seen.start_tool_calls != 1)
    fail("ompt_start_tool was not called exactly once");
  if (seen.initialize_calls != 1)
    fail("initialize was not called exactly once");
  if (seen.thread_begin_initial != 1)
    fail("thread_begin(ompt_thread_initial) was not seen exactly once");
  if (seen.thread_begin_other != 0)
    fail("thread_begin for a non-initial thread in a sequential program");
  if (seen.initial_task_begin != 1)
    fail("implicit_task(begin) of the initial task was not seen exactly "
         "once");
  if (seen.task_before_thread)
    fail("the initial task began before its thread did");
  if (seen.initial_task_end > seen.initial_task_begin)
    fail("the initial task ended more often than it began");
  if (seen.probe_calls != 1)
    fail("main did not probe the entry points");

  fflush(stdout);
  if (seen.failures != 0) {
    printf(TOOL ": %d failure(s)\n", seen.failures);
    fflush(stdout);
    _exit(1);
  }
  printf(TOOL ": PASS\n");
  fflush(stdout);
  _exit(0);
}

ompt_start_tool_result_t *ompt_start_tool(unsigned int omp_version,
                                          const char *runtime_version) {
  static ompt_start_tool_result_t result = {
      tool_initialize, tool_finalize, {TOOL_MAGIC}};

  seen.start_tool_calls++;
  printf(TOOL ": ompt_start_tool(%u, \"%s\")\n", omp_version,
         runtime_version != NULL ? runtime_version : "(null)");
  fflush(stdout);
  if (runtime_version == NULL)
    fail("ompt_start_tool received a NULL runtime_version");
  if (seen.start_tool_calls > 1)
    return NULL; /* the failure is reported in finalize */
  return &result;
}

/* ---- Inquiry from the program ------------------------------------------ */

int llvm_header_tool_probe(void) {
  int before = seen.failures;
  seen.probe_calls++;

  if (seen.initialize_calls != 1) {
    fail("the tool was not initialized before main");
    return 1;
  }

  if (get_thread_data != NULL) {
    ompt_data_t *td = get_thread_data();
    if (td == NULL)
      fail("ompt_get_thread_data returned NULL on the initial thread");
    else if (td->value != THREAD_MAGIC)
      fail("ompt_get_thread_data does not return the thread_data of "
           "thread_begin");
  }

  if (get_unique_id != NULL) {
    uint64_t a = get_unique_id(), b = get_unique_id();
    printf(TOOL ": unique ids %" PRIu64 ", %" PRIu64 "\n", a, b);
    if (a == 0 || b == 0)
      fail("ompt_get_unique_id returned 0");
    if (a == b)
      fail("ompt_get_unique_id returned the same id twice");
  }

  if (get_state != NULL) {
    ompt_wait_id_t wait_id = 0;
    int state = get_state(&wait_id);
    printf(TOOL ": state 0x%x\n", (unsigned int)state);
    if (state != ompt_state_work_serial)
      fail("ompt_get_state is not ompt_state_work_serial in sequential "
           "code");
  }

  if (get_task_info != NULL) {
    int flags = 0, thread_num = -1;
    ompt_data_t *task_data = NULL, *parallel_data = NULL;
    ompt_frame_t *frame = NULL;
    int r = get_task_info(0, &flags, &task_data, &frame, &parallel_data,
                          &thread_num);
    printf(TOOL ": task_info(0) = %d, flags 0x%x, thread %d\n", r,
           (unsigned int)flags, thread_num);
    if (r != 2)
      fail("ompt_get_task_info(0) does not report the initial task");
    else {
      if (!(flags & ompt_task_initial))
        fail("ompt_get_task_info(0) flags lack ompt_task_initial");
      if (task_data == NULL || task_data->value != TASK_MAGIC)
        fail("ompt_get_task_info(0) does not return the task_data of "
             "implicit_task");
      if (thread_num != 0)
        fail("ompt_get_task_info(0) thread_num of the initial thread is "
             "not 0");
    }
  }

  fflush(stdout);
  return seen.failures != before;
}
