/*
 * tool_in_program.cpp -- an OMPT tool compiled into the program, in C++
 * with static objects (a std::string, a std::vector), as a tool linked
 * statically or written into the application is.  The program's own
 * constructors build those objects; a runtime that started the tool
 * before them handed initialize an unconstructed string, and the vector's
 * constructor then wiped the log initialize wrote.  libpompt starts the
 * tool at the end of the program's constructors (pomp-link's last one),
 * before main, as a program clang compiled starts libomp's at the top of
 * main.
 *
 * With an argument (run with POMPT_TOOL_START=first-event), the program
 * first sets OMP_TOOL_LIBRARIES to it (that library is then the tool: this
 * program's own declines), which only a tool started at the first OpenMP
 * event sees.
 *
 * Prints PASS, or FAIL and what went wrong.
 */
#include <omp-tools.h>
#include <omp.h>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

static std::string tool_name("in-program tool, with a name too long for a "
                             "short-string buffer");
static std::vector<std::string> tool_log;
static int initialized; /* constant-initialised: valid at any time */
static int decline;

static void on_thread_begin(ompt_thread_t type, ompt_data_t *) {
  if (type == ompt_thread_initial) /* workers: concurrently, not logged */
    tool_log.push_back("thread_begin initial");
}

static void on_parallel_begin(ompt_data_t *, const ompt_frame_t *,
                              ompt_data_t *, unsigned, int, const void *) {
  tool_log.push_back("parallel_begin");
}

static int tool_initialize(ompt_function_lookup_t lookup, int,
                           ompt_data_t *) {
  initialized++;
  tool_log.push_back("initialize: " + tool_name);
  auto set_callback = (ompt_set_callback_t)lookup("ompt_set_callback");
  set_callback(ompt_callback_thread_begin, (ompt_callback_t)on_thread_begin);
  set_callback(ompt_callback_parallel_begin,
               (ompt_callback_t)on_parallel_begin);
  return 1;
}

static void tool_finalize(ompt_data_t *) {}

extern "C" ompt_start_tool_result_t *ompt_start_tool(unsigned, const char *) {
  static ompt_start_tool_result_t result = {tool_initialize, tool_finalize,
                                            {0}};
  return decline ? nullptr : &result;
}

static int fail(const char *what) {
  std::printf("FAIL: %s\n", what);
  for (const auto &line : tool_log)
    std::printf("  log: %s\n", line.c_str());
  return 1;
}

int main(int argc, char **argv) {
  if (argc > 1) {
    decline = 1;
    setenv("OMP_TOOL_LIBRARIES", argv[1], 1);
    if (initialized)
      return fail("the tool was initialised before the first OpenMP event");
  } else {
    if (initialized != 1)
      return fail("the tool was not initialised before main");
    if (tool_log.empty() || tool_log[0] != "initialize: " + tool_name)
      return fail("initialize ran before the tool's static objects were "
                  "constructed");
  }
  int sum = 0;
#pragma omp parallel num_threads(2) reduction(+ : sum)
  sum += 1;
  if (argc > 1) {
    if (initialized)
      return fail("the program's tool started, though it declined");
    std::printf("PASS (sum %d; the tool of OMP_TOOL_LIBRARIES reports)\n",
                sum);
    return 0;
  }
  if (initialized != 1)
    return fail("the tool was not initialised exactly once");
  if (tool_log.size() != 3 || tool_log[1] != "thread_begin initial" ||
      tool_log[2] != "parallel_begin")
    return fail("the tool's log is not initialize, thread_begin, "
                "parallel_begin");
  std::printf("PASS (sum %d)\n", sum);
  return 0;
}
