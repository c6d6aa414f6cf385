/*
 * omp_tools_cxx.cpp -- pompt's omp-tools.h compiled as C++ (test
 * "omp-tools-cxx", built -std=c++11 -Wpedantic -Werror).
 *
 * Checks what differs between C and C++: C linkage of ompt_start_tool
 * (omp_tools_cxx_link.c calls it by its C name), enumerations with bit 31
 * set, the anonymous union of ompt_record_work_t, and use of the iteration
 * macros.
 */
#include <omp-tools.h>

#include <cstddef>
#include <cstdio>
#include <cstring>

static_assert(sizeof(ompt_data_t) == sizeof(uint64_t), "ompt_data_t");
static_assert(sizeof(ompt_task_flag_t) == sizeof(int), "ompt_task_flag_t");
static_assert(static_cast<unsigned int>(ompt_task_merged) == 0x80000000u,
              "ompt_task_merged");
static_assert(static_cast<unsigned int>(ompt_parallel_team) == 0x80000000u,
              "ompt_parallel_team");
static_assert(ompt_callback_master == ompt_callback_masked, "master");
static_assert(offsetof(ompt_record_work_t, wstype) ==
                  offsetof(ompt_record_work_t, work_type),
              "wstype and work_type alias");
static_assert(offsetof(ompt_record_ompt_t, record) ==
                  offsetof(ompt_record_ompt_t, target_id) + sizeof(ompt_id_t),
              "record follows target_id");

#define COUNT_EVENT(event, type, id) +1
static_assert(0 FOREACH_OMPT_EVENT(COUNT_EVENT) == 37, "37 events");

/* Defining ompt_start_tool here must give it C linkage (the header declares
 * it inside extern "C"), so that a runtime finds it by its C name. */
ompt_start_tool_result_t *ompt_start_tool(unsigned int, const char *) {
  return nullptr;
}

extern "C" int omp_tools_cxx_c_linkage(void); /* omp_tools_cxx_link.c */

#define NAME_OF_EVENT(event, type, id) #event,
static const char *const event_names[] = {FOREACH_OMPT_EVENT(NAME_OF_EVENT)};

int main() {
  ompt_record_work_t work = {};
  work.wstype = ompt_work_loop_static;
  if (work.work_type != ompt_work_loop_static) {
    std::printf("FAIL: wstype and work_type are not one member\n");
    return 1;
  }
  ompt_data_t none = ompt_data_none;
  if (none.value != 0 || !omp_tools_cxx_c_linkage() ||
      std::strcmp(event_names[20], "ompt_callback_masked") != 0) {
    std::printf("FAIL: omp-tools.h as C++\n");
    return 1;
  }
  std::printf("omp-tools-cxx: pompt's omp-tools.h works as C++\n");
  return 0;
}
