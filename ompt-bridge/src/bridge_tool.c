/*
 * bridge_tool.c -- finding, starting and finalising the OMPT tool, the way an
 * OpenMP 5.2 runtime does it (OpenMP 5.2, "Activating a First-Party Tool").
 *
 * Order: OMP_TOOL=disabled turns everything off; otherwise an ompt_start_tool
 * already in the address space (a tool linked into the program or preloaded)
 * is asked first, then every library of OMP_TOOL_LIBRARIES in turn until one
 * returns non-NULL.  libpompt defines no ompt_start_tool of its own (and
 * ignores one found inside itself).  When the OpenMP runtime has native OMPT
 * (LLVM libomp), libpompt stands down: that runtime starts the tool, and a
 * tool must never be initialised twice.  POMPT_FORCE=1 overrides this.
 *
 * When: at the end of the program's constructors (the last one, in the
 * unit pomp-link adds), where a program clang compiled calls libomp first
 * (its entry for the thread number, at the top of main), or at the
 * program's first OpenMP event if that comes earlier (the first thread
 * record asked for, bridge_thread_discover).  POMPT_TOOL_START=first-event
 * waits for the first event, load starts at once.
 *
 * A tool that misbehaves (no initialize function, initialize returning 0,
 * finalize_tool from inside initialize) or a malformed variable gives a
 * message and leaves the program running without that tool, never a crash.
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
#include "bridge_omp.h"
#include "bridge_target.h"

/* The OpenMP version whose OMPT interface libpompt provides (5.2). */
#define BRIDGE_OMP_VERSION 202111

int bridge_active;
int bridge_enabled = 1;
int bridge_native_ompt;
int bridge_under_memcheck;

static pthread_once_t init_once = PTHREAD_ONCE_INIT;
static atomic_int finalized;
static ompt_start_tool_result_t *tool;
static FILE *verbose;

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
  else if (!(verbose = fopen(v, "w"))) {
    fprintf(stderr,
            "pompt: OMP_TOOL_VERBOSE_INIT: cannot open '%s' (%s); "
            "logging to stderr\n",
            v, strerror(errno));
    verbose = stderr;
  }
}

/* Whether object defines name itself (not through a library it needs). */
static int defines(const Dl_info *object, const char *name) {
  void *h = dlopen(object->dli_fname, RTLD_LAZY | RTLD_NOLOAD);
  if (!h)
    return 0;
  void *p = dlsym(h, name);
  Dl_info at;
  int own = p && dladdr(p, &at) && at.dli_fbase == object->dli_fbase;
  dlclose(h);
  return own;
}

/* The loaded object that is LLVM's libomp (or the Intel runtime it came
 * from), which implement OMPT themselves: found by an entry of their own
 * API extension (kmp_set_defaults), and defining their entry for a
 * parallel region too.  Not any object that defines __kmpc_fork_call: a
 * tracer preloaded for both runtimes (Extrae's libomptrace.so) wraps it
 * and libgomp's entries alike, and libpompt took its GOMP_parallel for
 * libomp's, which called libpompt's again, until the stack overflowed. */
static void *native_base; /* the object's load address, or NULL */
static pthread_once_t native_once = PTHREAD_ONCE_INIT;

/* Once, at load as a rule (the entries' load-time lookups ask first):
 * libgomp's entries are looked up again later, on any thread, and a lookup
 * allocates in dlsym's error path, where a tracer preloaded for malloc may
 * not expect it. */
static void find_native_runtime(void) {
  Dl_info runtime;
  void *k = dlsym(RTLD_DEFAULT, "kmp_set_defaults");
  if (k && dladdr(k, &runtime) && runtime.dli_fname &&
      defines(&runtime, "__kmpc_fork_call"))
    native_base = runtime.dli_fbase;
}

static int native_ompt_runtime(void) {
  pthread_once(&native_once, find_native_runtime);
  return native_base != NULL;
}

int bridge_in_native_runtime(const void *addr) {
  Dl_info a;
  return native_ompt_runtime() && dladdr(addr, &a) &&
         a.dli_fbase == native_base;
}

typedef ompt_start_tool_result_t *(*start_tool_fn)(unsigned, const char *);

int bridge_inside_libpompt(const void *addr) {
  Dl_info mine, theirs;
  return dladdr((void *)(uintptr_t)&bridge_inside_libpompt, &mine) &&
         dladdr(addr, &theirs) && mine.dli_fbase == theirs.dli_fbase;
}

/* A tool that implements OPARI's POMP interface (TAU's libTAU exports
 * POMP_Init, POMP_On, POMP_Finalize, ... as stubs) and comes first in the
 * lookup order (preloaded: tau_exec) receives the program's calls of those
 * routines: #pragma pomp inst init, on, off, finalize do nothing then.
 * Said once at start. */
static void check_pomp_routines(void) {
  static const char *const names[] = {"POMP_Init", "POMP_On", "POMP_Off",
                                      "POMP_Finalize"};
  for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
    void *p = dlsym(RTLD_DEFAULT, names[i]);
    Dl_info info;
    if (!p || bridge_inside_libpompt(p) || !dladdr(p, &info))
      continue;
    fprintf(
        stderr,
        "pompt: %s is %s's, not libpompt's (a tool with OPARI's POMP "
        "interface, preloaded?): the program's POMP_Init, POMP_On, "
        "POMP_Off and POMP_Finalize ('#pragma pomp inst') reach it, not "
        "pompt; load the OMPT tool with OMP_TOOL_LIBRARIES, not LD_PRELOAD\n",
        names[i], info.dli_fname ? info.dli_fname : "another library");
    return;
  }
}

/* The registration log between its START and END lines is written in the
 * format of LLVM's libomp: OpenMP leaves the format to the implementation,
 * and tools' test suites (LLVM's, Archer's) and users compare it with
 * libomp's.  A step is written in two parts, "Opening X... " and then its
 * outcome, because a tool's ompt_start_tool may print in between.
 * libpompt's own lines ("pompt: ...") stay outside the block. */
static void reg_log(const char *fmt, ...) {
  if (!verbose)
    return;
  va_list ap;
  va_start(ap, fmt);
  vfprintf(verbose, fmt, ap);
  va_end(ap);
  fflush(verbose);
}

/* Asks one ompt_start_tool and completes the log line of the search
 * ("Searching for ompt_start_tool in X... "), unless the tool declined
 * (*declined set): the caller words that. */
static ompt_start_tool_result_t *try_start(start_tool_fn start, int *declined) {
  *declined = 0;
  /* An ompt_start_tool that lives inside libpompt is not a tool's. */
  if (bridge_inside_libpompt((const void *)(uintptr_t)start)) {
    reg_log("Failed: the ompt_start_tool found is libpompt's own.\n");
    return NULL;
  }
  ompt_start_tool_result_t *r =
      start(BRIDGE_OMP_VERSION, "pompt " POMPT_VERSION_STRING);
  if (r && !r->initialize) {
    reg_log("Found but not usable: the result has no initialize "
            "function.\n");
    return NULL;
  }
  if (r) {
    reg_log("Success.\n");
    reg_log("Tool was started and is using the OMPT interface.\n");
  }
  *declined = !r;
  return r;
}

#ifdef POMPT_STATIC_LIB
/* A static program has no dynamic symbols for dlsym to find: the tool
 * linked into it is reached through a weak reference (NULL without one). */
extern ompt_start_tool_result_t *ompt_start_tool(unsigned, const char *)
    __attribute__((weak));
#endif

/* One tool library: opened, asked, and closed again unless it accepted.
 * in_list: one of OMP_TOOL_LIBRARIES, whose search goes on after a tool
 * that declined. */
static ompt_start_tool_result_t *try_library(const char *lib, int in_list) {
  reg_log("Opening %s... ", lib);
  void *h = dlopen(lib, RTLD_LAZY | RTLD_LOCAL);
  if (!h) {
    const char *e = dlerror();
    reg_log("Failed: %s\n", e ? e : "unknown error");
    return NULL;
  }
  reg_log("Success.\n");
  reg_log("Searching for ompt_start_tool in %s... ", lib);
  dlerror();
  start_tool_fn start = (start_tool_fn)dlsym(h, "ompt_start_tool");
  if (!start) {
    const char *e = dlerror();
    reg_log("Failed: %s\n", e ? e : "ompt_start_tool = NULL");
    dlclose(h);
    return NULL;
  }
  int declined;
  ompt_start_tool_result_t *r = try_start(start, &declined);
  if (declined)
    reg_log("Found but not using the OMPT interface.\n%s",
            in_list ? "Continuing search...\n" : "");
  if (!r)
    dlclose(h);
  return r;
}

static ompt_start_tool_result_t *search_libraries(void) {
  const char *libs = getenv("OMP_TOOL_LIBRARIES");
  if (!libs || !*libs) {
    reg_log("No OMP_TOOL_LIBRARIES defined.\n");
    return NULL;
  }
  reg_log("Searching tool libraries...\n");
  reg_log("OMP_TOOL_LIBRARIES = %s\n", libs);
  char *list = strdup(libs);
  if (!list)
    return NULL;
  ompt_start_tool_result_t *found = NULL;
  char *save = NULL;
  for (char *lib = strtok_r(list, ":", &save); lib && !found;
       lib = strtok_r(NULL, ":", &save))
    found = try_library(lib, 1);
  free(list);
  return found;
}

/* ThreadSanitizer's runtime, which a program built with it loads first
 * (a weak reference: resolved by the loader, no lookup at run time). */
extern void __tsan_func_entry(void *) __attribute__((weak));

/* Archer accepts only in a program built with ThreadSanitizer, so without
 * one libpompt does not try to open it: a failed dlopen allocates its
 * error message through the program's malloc, and a tracer preloaded for
 * malloc (Extrae) corrupted its heap there.  With OMP_TOOL_VERBOSE_INIT
 * set it is tried anyway, so that the log has libomp's lines. */
static int tsan_in_process(void) {
  return __tsan_func_entry != NULL;
}

/* OpenMP 5.2's order: a tool in the address space, then OMP_TOOL_LIBRARIES.
 * Then, as LLVM's libomp does (not in the specification), Archer: its
 * ompt_start_tool accepts only in a program built with ThreadSanitizer, so
 * that such a program gets race detection by only having libarcher.so on
 * the library path. */
static ompt_start_tool_result_t *find_tool(void) {
  reg_log("----- START LOGGING OF TOOL REGISTRATION -----\n");
  reg_log("Search for OMP tool in current address space... ");
  start_tool_fn start = (start_tool_fn)dlsym(RTLD_DEFAULT, "ompt_start_tool");
#ifdef POMPT_STATIC_LIB
  if (!start)
    start = ompt_start_tool;
#endif
  ompt_start_tool_result_t *r = NULL;
  int declined = 1;
  if (start)
    r = try_start(start, &declined);
  if (declined)
    reg_log("Failed.\n");
  if (!r)
    r = search_libraries();
  if (!r && (verbose || tsan_in_process())) {
    reg_log("...searching tool libraries failed. Using archer tool.\n");
    r = try_library("libarcher.so", 0);
  }
  if (!r)
    reg_log("No OMP tool loaded.\n");
  reg_log("----- END LOGGING OF TOOL REGISTRATION -----\n");
  return r;
}

static void at_exit(void) {
  bridge_finalize();
}

/* A tool is initialised once and finalised once, at exit.  libpompt may
 * have arrived with a plugin that the program later dlclose()s: it stays
 * loaded, so that the tool's session (and the callbacks pointing into the
 * tool) last until exit, as with an OpenMP runtime. */
static void pin_libpompt(void) {
  Dl_info self;
  if (!dladdr((void *)(uintptr_t)&pin_libpompt, &self) || !self.dli_fname)
    return;
  if (!dlopen(self.dli_fname, RTLD_LAZY | RTLD_NOLOAD | RTLD_NODELETE))
    bridge_log("cannot keep %s loaded: %s", self.dli_fname, dlerror());
}

static void clear_callbacks(void) {
  for (int i = 0; i < BRIDGE_CALLBACK_SLOTS; i++)
    atomic_store(&bridge_registered[i], (ompt_callback_t)0);
  bridge_tables_update();
}

int bridge_frame_flag = ompt_frame_cfa;

int bridge_env_pick(const char *name, const char *const choices[], int n,
                    int dflt) {
  const char *v = getenv(name);
  if (!v || !*v)
    return dflt;
  for (int i = 0; i < n; i++)
    if (!strcmp(v, choices[i]))
      return i;
  if (n == 2) {
    fprintf(stderr, "pompt: %s='%s' is neither '%s' nor '%s'; ignored\n", name,
            v, choices[0], choices[1]);
  } else {
    fprintf(stderr, "pompt: %s='%s' is not one of", name, v);
    for (int i = 0; i < n; i++)
      fprintf(stderr, "%s %s", i ? "," : "", choices[i]);
    fprintf(stderr, "; ignored\n");
  }
  return dflt;
}

int bridge_env_choice(const char *name, const char *first, const char *second,
                      int dflt) {
  const char *const choices[] = {first, second};
  return bridge_env_pick(name, choices, 2, dflt);
}

void bridge_frame_flags_setup(void) {
  const char *v = getenv("POMPT_FRAME_FLAGS");
  if (!v || !*v)
    return;
  bridge_frame_flag =
      bridge_env_choice("POMPT_FRAME_FLAGS", "cfa", "framepointer", 0)
          ? ompt_frame_framepointer
          : ompt_frame_cfa;
  bridge_log("frames flagged as %s", bridge_frame_flag == ompt_frame_cfa
                                         ? "canonical frame addresses"
                                         : "frame pointers");
}

/* When the tool starts (POMPT_TOOL_START): at the end of the program's
 * constructors, or at an OpenMP event before it ("main", the default);
 * only at the program's first OpenMP event ("first-event"); or as soon as
 * libpompt is ready ("load"). */
/* In the order of start_modes. */
enum { START_MAIN, START_FIRST_EVENT, START_LOAD };
static const char *const start_modes[] = {"main", "first-event", "load"};
static int start_mode;
/* The start is armed until it happens (bridge_start_before_main, or the
 * first event): events run their active paths (bridge_active is 1, no
 * callback is registered yet) until one asks for its thread's record
 * (bridge_thread_discover), which starts the tool first.  No thread has a
 * record before that. */
static atomic_int armed;
static pthread_once_t start_once = PTHREAD_ONCE_INIT;
/* The thread inside do_start: its own events do not wait for it. */
static __thread int starting_here;
static void (*decided_hook)(void);

void bridge_on_start_decided(void (*fn)(void)) {
  decided_hook = fn;
}

static void start_decided(void) {
  atomic_store(&armed, 0);
  if (decided_hook)
    decided_hook();
}

static void do_start(void) {
  /* No event delivers anything before initialize returned. */
  bridge_active = 0;
  const char *omp_tool = getenv("OMP_TOOL");
  if (omp_tool && !strcasecmp(omp_tool, "disabled")) {
    reg_log("OMP tool disabled.\n");
    bridge_log("OMP_TOOL=disabled: no tool");
    start_decided();
    return;
  }
  if (omp_tool && *omp_tool && strcasecmp(omp_tool, "enabled"))
    fprintf(stderr,
            "pompt: OMP_TOOL='%s' is neither 'enabled' nor 'disabled'; "
            "treated as enabled\n",
            omp_tool);
  tool = find_tool();
  if (!tool) {
    bridge_log("no tool: events are not delivered");
    start_decided();
    return;
  }
  /* Before initialize: a tool may initialise PAPI there. */
  bridge_sde_start();
  int device = omp_get_initial_device ? omp_get_initial_device() : 0;
  /* Callbacks registered during initialize must be live, and events must not
   * be delivered before initialize returns. */
  int ok = tool->initialize(bridge_lookup, device, &tool->tool_data);
  if (!ok) {
    bridge_log("tool initialize returned 0: tool not activated");
    clear_callbacks();
    tool = NULL;
    start_decided();
    return;
  }
  if (atomic_load(&finalized)) {
    bridge_log("tool called ompt_finalize_tool during initialize: tool not "
               "activated");
    if (tool->finalize)
      tool->finalize(&tool->tool_data);
    clear_callbacks();
    tool = NULL;
    start_decided();
    return;
  }
  bridge_log("OMPT provider: libpompt (the tool is activated)");
  bridge_gomp_tool_started();
  pin_libpompt();
  bridge_active = 1;
  bridge_tables_update(); /* the lane's slots, filled only from now */
  atexit(at_exit);
  bridge_thread_start_initial();
  start_decided();
}

static void do_start_here(void) {
  starting_here = 1;
  do_start();
  starting_here = 0;
}

static void do_init(void) {
#ifdef BRIDGE_HAVE_MEMCHECK
  /* Valgrind preloads its tool's library into the program. */
  const char *preload = getenv("LD_PRELOAD");
  bridge_under_memcheck = RUNNING_ON_VALGRIND && preload &&
                          strstr(preload, "vgpreload_memcheck") != NULL;
#endif
  open_verbose();
  bridge_log("libpompt %s: OMPT provider for POMP-instrumented programs",
             POMPT_VERSION_STRING);
  bridge_gomp_setup();
  const char *force = getenv("POMPT_FORCE");
  int forced = force && !strcmp(force, "1");
  if (force && *force && strcmp(force, "0") && !forced)
    fprintf(stderr, "pompt: POMPT_FORCE='%s' is neither 0 nor 1; ignored\n",
            force);
  if (native_ompt_runtime()) {
    if (!forced) {
      bridge_native_ompt = 1;
      bridge_log("OMPT provider: the OpenMP runtime (LLVM libomp, native "
                 "OMPT); libpompt stands down (POMPT_FORCE=1 overrides)");
      start_decided();
      return;
    }
    bridge_log("the OpenMP runtime has native OMPT, but POMPT_FORCE=1: "
               "libpompt provides OMPT (do not let the runtime start a tool "
               "too)");
  }
  check_pomp_routines();
  bridge_inquiry_init();
  bridge_atomic_setup();
  bridge_frame_flags_setup();
  bridge_set_results_setup();
  bridge_work_loop_setup();
  start_mode = bridge_env_pick("POMPT_TOOL_START", start_modes, START_LOAD + 1,
                               START_MAIN);
  /* OMP_TOOL=disabled decides at once: the events take their no-tool
   * paths from the start. */
  const char *omp_tool = getenv("OMP_TOOL");
  if (start_mode == START_LOAD ||
      (omp_tool && !strcasecmp(omp_tool, "disabled"))) {
    pthread_once(&start_once, do_start_here);
    return;
  }
  atomic_store(&armed, 1);
  bridge_active = 1;
}

void bridge_init(void) {
  pthread_once(&init_once, do_init);
}

void bridge_start_tool(void) {
  bridge_init();
  if (bridge_start_armed())
    pthread_once(&start_once, do_start_here);
}

void bridge_start_before_main(void) {
  bridge_init();
  if (start_mode == START_MAIN)
    bridge_start_tool();
}

int bridge_start_armed(void) {
  return atomic_load_explicit(&armed, memory_order_relaxed) && !starting_here;
}

void bridge_finalize(void) {
  int was = 0;
  if (!tool || !atomic_compare_exchange_strong(&finalized, &was, 1))
    return;
  if (!bridge_active)
    return; /* from inside initialize: do_init gives up on the tool */
  bridge_devices_finalize(); /* flush device traces, device_finalize */
  /* No new event starts; every thread ends, workers first. */
  bridge_active = 0;
  bridge_tables_update(); /* the lane's slots: no inline event from now */
  bridge_threads_end_all();
  if (tool->finalize)
    tool->finalize(&tool->tool_data);
  clear_callbacks();
  bridge_log("tool finalized");
}

void bridge_set_enabled(int on) {
  bridge_enabled = on != 0;
  bridge_tables_update();
}

int bridge_control_tool(uint64_t command, uint64_t modifier, void *arg,
                        const void *codeptr, void *frame) {
  if (!bridge_active)
    return -2; /* omp_control_tool_notool */
  bridge_thread_t *t = bridge_thread_self();
  if (!t) /* thread_begin first on a new thread */
    return -2;
  ompt_callback_control_tool_t cb =
      BRIDGE_ACTIVE(BRIDGE_B_ALWAYS, control_tool);
  if (!cb)
    return -1; /* omp_control_tool_nocallback */
  /* The task is inside a runtime routine while the tool runs: its
   * enter_frame says where it entered (5.2), unless an enclosing entry
   * already set it. */
  bridge_task_t *task = t->cur;
  int set = task && frame && !task->frame.enter_frame.ptr;
  if (set)
    task->frame.enter_frame.ptr = frame;
  int result = cb(command, modifier, arg, codeptr);
  if (set)
    task->frame.enter_frame.ptr = NULL;
  return result;
}

/* Defined by the unit pomp-link adds to a program (or shared library) it
 * links, whose constructor readies the tool's start (POMPT_Init). */
extern const int POMPT_start_from_program_v1 __attribute__((weak));

int bridge_start_deferred(void) {
  return &POMPT_start_from_program_v1 != NULL;
}

/* Loading libpompt readies it (bridge_init: the tool starts at the first
 * event, or now with POMPT_TOOL_START=load); in a program pomp-link
 * linked, its constructor does, once the constructors of the libraries
 * loaded with it have run: a tool linked with the program or preloaded is
 * initialised by then, and libpompt's constructor, which the dynamic
 * loader runs before theirs, would call into it before (Caliper crashed
 * so, as would any tool whose ompt_start_tool or callbacks need its
 * constructors).  OpenMP code run by a library's constructor in between
 * goes unreported. */
__attribute__((constructor(102))) static void bridge_constructor(void) {
  if (!bridge_start_deferred())
    bridge_init();
}
