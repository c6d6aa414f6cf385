/*
 * bridge_tool.c -- finding, starting and finalising the OMPT tool, the way an
 * OpenMP 5.2 runtime does it (OpenMP 5.2, "Activating a First-Party Tool").
 *
 * Order: OMP_TOOL=disabled turns everything off; otherwise an ompt_start_tool
 * already in the address space (a tool linked into the program or preloaded)
 * is asked first, then every library of OMP_TOOL_LIBRARIES in turn until one
 * returns non-NULL.  libpompt defines no ompt_start_tool of its own, so the
 * global lookup can never find ours.  When the OpenMP runtime has native OMPT
 * (LLVM libomp), libpompt stands down: that runtime starts the tool, and a
 * tool must never be initialised twice.  POMPT_FORCE=1 overrides this.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "bridge.h"
#include "bridge_internal.h"

/* The OpenMP version whose OMPT interface libpompt provides (5.2). */
#define BRIDGE_OMP_VERSION 202111

int bridge_active;
int bridge_enabled = 1;

static pthread_once_t init_once = PTHREAD_ONCE_INIT;
static atomic_int finalized;
static ompt_start_tool_result_t *tool;
static FILE *verbose;

extern int omp_get_initial_device(void) __attribute__((weak));

void bridge_log(const char *fmt, ...) {
  if (!verbose)
    return;
  va_list ap;
  va_start(ap, fmt);
  fputs("pompt: ", verbose);
  vfprintf(verbose, fmt, ap);
  fputc('\n', verbose);
  va_end(ap);
  fflush(verbose);
}

static void open_verbose(void) {
  const char *v = getenv("OMP_TOOL_VERBOSE_INIT");
  if (!v || !*v || !strcasecmp(v, "disabled"))
    return;
  if (!strcasecmp(v, "stdout"))
    verbose = stdout;
  else if (!strcasecmp(v, "stderr"))
    verbose = stderr;
  else if (!(verbose = fopen(v, "a"))) {
    fprintf(stderr,
            "pompt: OMP_TOOL_VERBOSE_INIT: cannot open '%s' (%s); "
            "logging to stderr\n",
            v, strerror(errno));
    verbose = stderr;
  }
}

/* LLVM's libomp (and the Intel runtime it came from) implement OMPT
 * themselves; their entry for a parallel region tells them apart from
 * libgomp, which has none. */
static int native_ompt_runtime(void) {
  return dlsym(RTLD_DEFAULT, "__kmpc_fork_call") != NULL;
}

static ompt_start_tool_result_t *try_start(ompt_start_tool_result_t *(*start)(
                                               unsigned, const char *),
                                           const char *where) {
  ompt_start_tool_result_t *r = start(BRIDGE_OMP_VERSION, "pompt " POMPT_VERSION_STRING);
  bridge_log("ompt_start_tool in %s returned %p", where, (void *)r);
  if (r && !r->initialize) {
    bridge_log("%s: result has no initialize function; ignored", where);
    r = NULL;
  }
  return r;
}

typedef ompt_start_tool_result_t *(*start_tool_fn)(unsigned, const char *);

static ompt_start_tool_result_t *find_tool(void) {
  start_tool_fn start = (start_tool_fn)dlsym(RTLD_DEFAULT, "ompt_start_tool");
  if (start) {
    ompt_start_tool_result_t *r = try_start(start, "the program");
    if (r)
      return r;
  } else {
    bridge_log("no ompt_start_tool in the address space");
  }
  const char *libs = getenv("OMP_TOOL_LIBRARIES");
  if (!libs || !*libs) {
    bridge_log("OMP_TOOL_LIBRARIES is not set");
    return NULL;
  }
  char *list = strdup(libs);
  if (!list)
    return NULL;
  ompt_start_tool_result_t *found = NULL;
  char *save = NULL;
  for (char *lib = strtok_r(list, ":", &save); lib && !found;
       lib = strtok_r(NULL, ":", &save)) {
    bridge_log("opening tool library '%s'", lib);
    void *h = dlopen(lib, RTLD_NOW | RTLD_LOCAL);
    if (!h) {
      bridge_log("cannot open '%s': %s", lib, dlerror());
      continue;
    }
    start = (start_tool_fn)dlsym(h, "ompt_start_tool");
    if (!start) {
      bridge_log("'%s' has no ompt_start_tool", lib);
      dlclose(h);
      continue;
    }
    found = try_start(start, lib);
    if (!found)
      dlclose(h);
  }
  free(list);
  return found;
}

static void at_exit(void) {
  bridge_finalize();
}

static void do_init(void) {
  open_verbose();
  bridge_log("libpompt %s: OMPT provider for POMP-instrumented programs",
             POMPT_VERSION_STRING);
  const char *omp_tool = getenv("OMP_TOOL");
  if (omp_tool && !strcasecmp(omp_tool, "disabled")) {
    bridge_log("OMP_TOOL=disabled: no tool");
    return;
  }
  if (omp_tool && *omp_tool && strcasecmp(omp_tool, "enabled"))
    fprintf(stderr,
            "pompt: OMP_TOOL='%s' is neither 'enabled' nor 'disabled'; "
            "treated as enabled\n",
            omp_tool);
  const char *force = getenv("POMPT_FORCE");
  if (native_ompt_runtime() && !(force && !strcmp(force, "1"))) {
    bridge_log("the OpenMP runtime has native OMPT: it provides the tool "
               "interface, libpompt stands down (POMPT_FORCE=1 overrides)");
    return;
  }
  tool = find_tool();
  if (!tool) {
    bridge_log("no tool: events are not delivered");
    return;
  }
  int device = omp_get_initial_device ? omp_get_initial_device() : 0;
  /* Callbacks registered during initialize must be live, and events must not
   * be delivered before initialize returns. */
  int ok = tool->initialize(bridge_lookup, device, &tool->tool_data);
  if (!ok) {
    bridge_log("tool initialize returned 0: tool not activated");
    for (int i = 0; i < BRIDGE_CALLBACK_SLOTS; i++)
      atomic_store(&bridge_callbacks[i], (ompt_callback_t)0);
    tool = NULL;
    return;
  }
  bridge_log("tool activated; libpompt is the OMPT provider");
  bridge_active = 1;
  atexit(at_exit);
  bridge_thread_start_initial();
}

void bridge_init(void) {
  pthread_once(&init_once, do_init);
}

void bridge_finalize(void) {
  int was = 0;
  if (!bridge_active || !atomic_compare_exchange_strong(&finalized, &was, 1))
    return;
  bridge_threads_end_all();
  if (tool && tool->finalize)
    tool->finalize(&tool->tool_data);
  bridge_active = 0;
  for (int i = 0; i < BRIDGE_CALLBACK_SLOTS; i++)
    atomic_store(&bridge_callbacks[i], (ompt_callback_t)0);
  bridge_log("tool finalized");
}

void bridge_set_enabled(int on) {
  bridge_enabled = on;
}

/* Loading libpompt starts the tool, before main, like a runtime's own
 * initialisation would. */
__attribute__((constructor)) static void bridge_constructor(void) {
  bridge_init();
}
