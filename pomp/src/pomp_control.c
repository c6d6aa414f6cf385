/*
 * pomp_control.c -- monitoring library control (seed 004, sections 3.6 and
 * 3.8), handle registration (section 3.2, Appendix B) and omp_control_tool.
 *
 * The library initialises itself when it is loaded (the tool must see the
 * initial thread before any event), so POMP_Init is only a guarantee for
 * code that wants one; POMP_Finalize ends the tool early, otherwise that
 * happens at exit.
 *
 * Groups and levels (section 3.8): POMP_PARALLEL, POMP_LOOP,
 * POMP_WORKSHARE, POMP_SYNC, POMP_TASK, POMP_USER and POMP_RUNTIME select
 * which events of each group reach the tool; they are read once, before the
 * tool starts.  POMP_Off / POMP_On switch every group off and on again at
 * run time.  Either way the OMPT model (states, tasks, inquiry answers) is
 * kept up to date; only callbacks are held back, and at a cost of one load
 * per event (the bridge's active callback table has the switches folded
 * in).
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <strings.h>

#include "bridge.h"
#include "pomp_entry.h"
#include "pomp_region.h"

/* ---- Groups and levels ------------------------------------------------------
 */

#define B(x) (1u << BRIDGE_B_##x)

typedef struct pomp_level {
  const char *name;
  uint32_t buckets;
} pomp_level_t;

typedef struct pomp_group {
  const char *var;
  const pomp_level_t *levels; /* NULL-terminated */
  uint32_t all;               /* the default: every level */
  const char *default_name;
} pomp_group_t;

/* Levels separated by "," in the seed include the lower ones; those
 * separated by "or" are alternatives (each with EnterExit for loops). */
static const pomp_level_t parallel_levels[] = {
    {"none", 0},
    {"EnterExit", B(PARALLEL_EE)},
    {"BeginEnd", B(PARALLEL_EE) | B(PARALLEL_BE)},
    {NULL, 0}};
static const pomp_level_t loop_levels[] = {
    {"none", 0},
    {"EnterExit", B(LOOP_EE)},
    {"Chunks", B(LOOP_EE) | B(LOOP_CHUNKS)},
    {"IterEvent", B(LOOP_EE) | B(LOOP_ITER_EVENT)},
    {"IterBeginEnd", B(LOOP_EE) | B(LOOP_ITER_BE)},
    {NULL, 0}};
static const pomp_level_t workshare_levels[] = {
    {"none", 0},
    {"EnterExit", B(WORKSHARE_EE)},
    {"BeginEnd", B(WORKSHARE_EE) | B(WORKSHARE_BE)},
    {NULL, 0}};
static const pomp_level_t sync_levels[] = {
    {"none", 0},
    {"EnterExit", B(SYNC_EE)},
    {"BeginEnd", B(SYNC_EE) | B(SYNC_BE)},
    {NULL, 0}};
static const pomp_level_t task_levels[] = {
    {"none", 0},
    {"EnterExit", B(TASK_EE)},
    {"BeginEnd", B(TASK_EE) | B(TASK_BE)},
    {NULL, 0}};
/* User regions have no OMPT counterpart: the variable is checked only. */
static const pomp_level_t user_levels[] = {
    {"none", 0}, {"Event", 0}, {"BeginEnd", 0}, {NULL, 0}};
static const pomp_level_t runtime_levels[] = {
    {"none", 0},
    {"Event", B(RUNTIME_EVENT)},
    {"EnterExit", B(RUNTIME_EVENT) | B(RUNTIME_EE)},
    {NULL, 0}};

static const pomp_group_t groups[] = {
    {"POMP_PARALLEL", parallel_levels, B(PARALLEL_EE) | B(PARALLEL_BE),
     "BeginEnd"},
    {"POMP_LOOP", loop_levels,
     B(LOOP_EE) | B(LOOP_CHUNKS) | B(LOOP_ITER_EVENT) | B(LOOP_ITER_BE),
     "all levels"},
    {"POMP_WORKSHARE", workshare_levels, B(WORKSHARE_EE) | B(WORKSHARE_BE),
     "BeginEnd"},
    {"POMP_SYNC", sync_levels, B(SYNC_EE) | B(SYNC_BE), "BeginEnd"},
    {"POMP_TASK", task_levels, B(TASK_EE) | B(TASK_BE), "BeginEnd"},
    {"POMP_USER", user_levels, 0, "BeginEnd"},
    {"POMP_RUNTIME", runtime_levels, B(RUNTIME_EVENT) | B(RUNTIME_EE),
     "EnterExit"},
};

static uint32_t group_buckets(const pomp_group_t *g) {
  const char *v = getenv(g->var);
  if (!v || !*v)
    return g->all;
  for (const pomp_level_t *l = g->levels; l->name; l++)
    if (!strcasecmp(v, l->name))
      return l->buckets;
  char names[128];
  int n = 0;
  for (const pomp_level_t *l = g->levels; l->name && n < (int)sizeof names; l++)
    n += snprintf(names + n, sizeof names - (size_t)n, "%s%s",
                  l == g->levels ? "" : ", ", l->name);
  fprintf(stderr, "pompt: %s='%s' is not one of %s; using the default (%s)\n",
          g->var, v, names, g->default_name);
  return g->all;
}

/* Before the tool starts (the bridge's constructor runs after this one),
 * so that set_callback already answers for the groups left enabled. */
__attribute__((constructor(101))) static void pomp_control_init(void) {
  uint32_t mask = 0;
  for (size_t i = 0; i < sizeof groups / sizeof groups[0]; i++)
    mask |= group_buckets(&groups[i]);
  bridge_set_buckets(mask);
}

/* ---- Library control
 * --------------------------------------------------------- */

/* From the first constructor of the unit pomp-link adds: libpompt is
 * readied (the tool starts at POMPT_Start or the first event before it,
 * or now with POMPT_TOOL_START=load). */
EXPORT int32_t POMPT_Init(void) {
  bridge_init();
  return POMP_SUCCESS;
}

/* From the last constructor of the unit pomp-link adds: the program's own
 * constructors have run (a tool compiled into it has its static objects),
 * and the tool starts before main, as a program clang compiled starts
 * libomp's at the top of main. */
EXPORT void POMPT_Start(void) {
  bridge_start_before_main();
}

/* The program asks for the monitoring to start ("#pragma pomp inst init"):
 * the tool starts now. */
EXPORT int32_t POMP_Init(void) {
  bridge_start_tool();
  return POMP_SUCCESS;
}

EXPORT int32_t POMP_Finalize(void) {
  bridge_finalize();
  return POMP_SUCCESS;
}

/* omp_control_tool commands (omp.h, OpenMP 5.2). */
enum {
  CONTROL_TOOL_START = 1,
  CONTROL_TOOL_PAUSE = 2,
  CONTROL_TOOL_NOTOOL = -2
};

/* POMP_On/Off are omp_control_tool(start / pause) for the tool, and switch
 * the callbacks of every group on / off. */
EXPORT int32_t POMP_On(void) {
  bridge_set_enabled(1);
  (void)bridge_control_tool(CONTROL_TOOL_START, 0, NULL, CODEPTR, FRAME);
  __asm__ __volatile__(""); /* keeps codeptr_ra in the caller */
  return POMP_SUCCESS;
}

EXPORT int32_t POMP_Off(void) {
  (void)bridge_control_tool(CONTROL_TOOL_PAUSE, 0, NULL, CODEPTR, FRAME);
  bridge_set_enabled(0);
  return POMP_SUCCESS;
}

EXPORT int32_t POMP_Get_handle(POMP_Handle_t *handle, const char ctc[]) {
  if (!handle)
    return POMP_ERR_ARG;
  int32_t status = POMP_ERR_HANDLE;
  return pomp_region_init(handle, ctc, &status) ? POMP_SUCCESS : status;
}

/* ---- omp_control_tool
 * ---------------------------------------------------------- libgomp has no
 * omp_control_tool; libpompt provides it (the serial stubs' is weak and yields
 * to this one).  When libpompt stood down for a runtime with native OMPT, the
 * runtime's own routine answers. */

typedef int (*control_tool_fn)(int, int, void *);

static int control_tool(int command, int modifier, void *arg,
                        const void *codeptr, void *frame) {
  if (bridge_native_ompt) {
    static control_tool_fn next;
    if (!next)
      next = (control_tool_fn)dlsym(RTLD_NEXT, "omp_control_tool");
    return next ? next(command, modifier, arg) : CONTROL_TOOL_NOTOOL;
  }
  return bridge_control_tool((uint64_t)(int64_t)command,
                             (uint64_t)(int64_t)modifier, arg, codeptr, frame);
}

EXPORT int omp_control_tool(int command, int modifier, void *arg) {
  int result = control_tool(command, modifier, arg, CODEPTR, FRAME);
  __asm__ __volatile__("");
  return result;
}

EXPORT int POMP_Api_omp_control_tool(POMP_Handle_t *handle, const char ctc[],
                                     int command, int modifier, void *arg) {
  if (bridge_active)
    (void)pomp_region_of(handle, ctc, NULL);
  int result = control_tool(command, modifier, arg, CODEPTR, FRAME);
  __asm__ __volatile__("");
  return result;
}
