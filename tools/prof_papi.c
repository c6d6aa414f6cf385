/*
 * prof_papi.c - PAPI counters per region: hardware counters per thread,
 * process-wide counters (PAPI software-defined events such as libpompt's
 * "sde:::pompt::callbacks_total") on one thread.
 *
 * POMPT_PROF_PAPI=EV1,EV2 (PAPI preset or native event names) switches it
 * on.  libpapi is opened at run time, so the profiler also runs where PAPI
 * is not installed.  When PAPI cannot count an event (no library, no
 * hardware counters in a virtual machine, perf_event forbidden, an unknown
 * event) the profiler says so once, leaves that event out and carries on.
 *
 * Events of PAPI's CPU component (component 0: presets, perf_event) count
 * what the calling thread does: each thread starts its own event set on its
 * first event, and a region's count is the difference of two PAPI_read calls
 * on that thread.  Events of every other component (sde, and the
 * system-wide ones) are process-wide: one event set, owned by the thread
 * that initialised the tool (the initial thread), read only by that thread.
 * A region of the initial thread then counts everything the process counted
 * while that thread was in the region; the other threads record nothing for
 * these events, so summing over threads does not count anything twice.  One
 * set, started once, also matters for correctness: PAPI's SDE component
 * keeps the start value per counter, not per event set, so a second set
 * started later would move the base of the first.
 */
#define _GNU_SOURCE

#include <dlfcn.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "prof_model.h"
#include "prof_tool.h"

int prof_papi_n;
char *prof_papi_names[PROF_MAX_EVENTS];
int prof_papi_process[PROF_MAX_EVENTS];
char prof_papi_status[512];

#ifdef POMPT_PROF_HAVE_PAPI
#include <papi.h>

static struct {
  void *h;
  int (*library_init)(int);
  int (*thread_init)(unsigned long (*)(void));
  int (*create_eventset)(int *);
  int (*add_named_event)(int, const char *);
  int (*start)(int);
  int (*read)(int, long long *);
  char *(*strerror)(int);
  int (*num_cmp_hwctrs)(int);
  int (*event_name_to_code)(const char *, int *);
  int (*get_event_component)(int);
} papi;

/* Where each kept event is read: its set (thread or process) and the
   position in that set. */
static int pos[PROF_MAX_EVENTS];
static int n_thread, n_process; /* events per set */
static int process_set = -1;
static pthread_t process_owner;
/* The per-thread set made at initialization to find out whether the
   machine counts those events at all; the initializing thread keeps it. */
static int first_set = -1;
static pthread_t first_owner;

static unsigned long thread_id(void) {
  return (unsigned long)pthread_self();
}

static int papi_open(void) {
  static const char *const names[] = {"libpapi.so.7.0", "libpapi.so.7",
                                      "libpapi.so", "libpapi.so.6.0", NULL};
  for (int i = 0; names[i] != NULL && papi.h == NULL; i++)
    papi.h = dlopen(names[i], RTLD_NOW | RTLD_GLOBAL);
  if (papi.h == NULL)
    return 0;
#define SYM(field, name)                                                       \
  do {                                                                         \
    *(void **)&papi.field = dlsym(papi.h, name);                               \
    if (papi.field == NULL)                                                    \
      return 0;                                                                \
  } while (0)
  SYM(library_init, "PAPI_library_init");
  SYM(thread_init, "PAPI_thread_init");
  SYM(create_eventset, "PAPI_create_eventset");
  SYM(add_named_event, "PAPI_add_named_event");
  SYM(start, "PAPI_start");
  SYM(read, "PAPI_read");
  SYM(strerror, "PAPI_strerror");
  SYM(num_cmp_hwctrs, "PAPI_num_cmp_hwctrs");
  SYM(event_name_to_code, "PAPI_event_name_to_code");
  SYM(get_event_component, "PAPI_get_event_component");
#undef SYM
  return 1;
}

/* Records why (for the profile's notes) and says it once on stderr; a
   second reason is appended to the first. */
static void say(const char *fmt, const char *a, const char *b) {
  char line[256];
  snprintf(line, sizeof line, fmt, a, b);
  fprintf(stderr, "pompt-prof: %s\n", line);
  size_t used = strlen(prof_papi_status);
  if (used > 0 && used + 2 < sizeof prof_papi_status) {
    strcat(prof_papi_status, "; ");
    used += 2;
  }
  strncat(prof_papi_status, line, sizeof prof_papi_status - used - 1);
}

static void drop_all(void) {
  for (int e = 0; e < prof_papi_n; e++) {
    free(prof_papi_names[e]);
    prof_papi_names[e] = NULL;
  }
  prof_papi_n = 0;
  n_thread = n_process = 0;
}

/* Keeps the events for which keep[e] is set, in their order. */
static void keep_only(const int *keep) {
  int k = 0;
  for (int e = 0; e < prof_papi_n; e++) {
    if (!keep[e]) {
      free(prof_papi_names[e]);
      continue;
    }
    prof_papi_names[k] = prof_papi_names[e];
    prof_papi_process[k] = prof_papi_process[e];
    k++;
  }
  for (int e = k; e < prof_papi_n; e++)
    prof_papi_names[e] = NULL;
  prof_papi_n = k;
  n_thread = n_process = 0;
  for (int e = 0; e < prof_papi_n; e++)
    pos[e] = prof_papi_process[e] ? n_process++ : n_thread++;
}

/* "A, B" of the events with flag[e] set. */
static void list_events(const int *flag, char *buf, size_t size) {
  buf[0] = '\0';
  for (int e = 0; e < prof_papi_n; e++) {
    if (!flag[e])
      continue;
    size_t used = strlen(buf);
    snprintf(buf + used, size - used, "%s%s", used ? ", " : "",
             prof_papi_names[e]);
  }
}

/* An event set of the events of one kind (process-wide or not); PAPI_NULL
   and *bad, *code on failure. */
static int make_set(int process, const char **bad, int *code) {
  int set = PAPI_NULL;
  int rc = papi.create_eventset(&set);
  if (rc != PAPI_OK) {
    *bad = "";
    *code = rc;
    return PAPI_NULL;
  }
  for (int e = 0; e < prof_papi_n; e++) {
    if (prof_papi_process[e] != process)
      continue;
    rc = papi.add_named_event(set, prof_papi_names[e]);
    if (rc != PAPI_OK) {
      *bad = prof_papi_names[e];
      *code = rc;
      return PAPI_NULL;
    }
  }
  rc = papi.start(set);
  if (rc != PAPI_OK) {
    *bad = "";
    *code = rc;
    return PAPI_NULL;
  }
  return set;
}

static void cannot_count(const char *bad, int code, const char *what) {
  char ev[300];
  snprintf(ev, sizeof ev, "%s%s%s", bad[0] ? "event " : "", bad,
           bad[0] ? ": " : "");
  char fmt[160];
  snprintf(fmt, sizeof fmt, "PAPI: cannot count %s: %%s%%s; not counting them",
           what);
  say(fmt, ev, papi.strerror(code));
}

/* The event set of one kind (process-wide or not) started on this thread,
   its owner; or -1, said why, and only the other kind counted from now. */
static int start_kind(int process, const char *what, pthread_t *owner) {
  const char *bad = "";
  int code = 0;
  int set = make_set(process, &bad, &code);
  if (set == PAPI_NULL) {
    cannot_count(bad, code, what);
    int keep[PROF_MAX_EVENTS];
    for (int e = 0; e < prof_papi_n; e++)
      keep[e] = prof_papi_process[e] != process;
    keep_only(keep);
    return -1;
  }
  *owner = pthread_self();
  return set;
}

void prof_papi_init(const char *spec) {
  char *copy = prof_xstrdup(spec);
  char *save = NULL;
  for (char *tok = strtok_r(copy, ", ", &save); tok != NULL;
       tok = strtok_r(NULL, ", ", &save)) {
    if (prof_papi_n == PROF_MAX_EVENTS) {
      fprintf(stderr,
              "pompt-prof: POMPT_PROF_PAPI: at most %d events; "
              "ignoring '%s' and the rest\n",
              PROF_MAX_EVENTS, tok);
      break;
    }
    prof_papi_names[prof_papi_n++] = prof_xstrdup(tok);
  }
  free(copy);
  if (prof_papi_n == 0)
    return;
  if (!papi_open()) {
    say("PAPI: libpapi not found (%s%s); counting no events",
        "install libpapi7.0", "");
    drop_all();
    return;
  }
  int rc = papi.library_init(PAPI_VER_CURRENT);
  if (rc != PAPI_VER_CURRENT) {
    say("PAPI: library initialization failed (%s%s); counting no events",
        rc > 0 ? "version mismatch" : papi.strerror(rc), "");
    drop_all();
    return;
  }
  rc = papi.thread_init(thread_id);
  if (rc != PAPI_OK) {
    say("PAPI: thread support failed (%s%s); counting no events",
        papi.strerror(rc), "");
    drop_all();
    return;
  }

  /* Which component each event belongs to.  An event PAPI does not know
     is a hardware event as far as the messages go: on a machine without
     counters every preset is unknown. */
  int keep[PROF_MAX_EVENTS], unknown[PROF_MAX_EVENTS], sde[PROF_MAX_EVENTS];
  int n_unknown = 0, n_cpu = 0, n_sde = 0;
  for (int e = 0; e < prof_papi_n; e++) {
    int code = 0;
    keep[e] = 1;
    unknown[e] = sde[e] = 0;
    prof_papi_process[e] = 0;
    if (papi.event_name_to_code(prof_papi_names[e], &code) != PAPI_OK) {
      /* PAPI knows software-defined events only while a library that
         uses libsde is loaded */
      if (strncasecmp(prof_papi_names[e], "sde:::", 6) == 0) {
        sde[e] = 1;
        n_sde++;
      } else {
        unknown[e] = 1;
        n_unknown++;
      }
      keep[e] = 0;
      continue;
    }
    prof_papi_process[e] = papi.get_event_component(code) > 0;
    n_cpu += !prof_papi_process[e];
  }
  if (n_sde > 0) {
    char names[200];
    list_events(sde, names, sizeof names);
    say("PAPI: no library of this process has registered the "
        "software-defined event %s%s; not counting it",
        names, "");
  }
  int hw = papi.num_cmp_hwctrs(0) > 0;
  if (n_unknown > 0 || (n_cpu > 0 && !hw)) {
    int flag[PROF_MAX_EVENTS] = {0};
    for (int e = 0; e < prof_papi_n; e++) {
      flag[e] = unknown[e] || (!hw && keep[e] && !prof_papi_process[e]);
      if (flag[e])
        keep[e] = 0;
    }
    char names[200];
    list_events(flag, names, sizeof names);
    if (!hw)
      say("PAPI: this machine offers no hardware counters (a virtual "
          "machine, or perf_event_paranoid); not counting %s%s",
          names, "");
    else
      say("PAPI: unknown event %s%s; not counting it", names, "");
  }
  keep_only(keep);

  /* A counter PAPI names may still be one the machine cannot count (a
     preset its processor lacks, a virtual machine): the per-thread set is
     tried once, here, so that the profile lists only the events it
     counted. */
  if (n_thread > 0)
    first_set = start_kind(0, "per-thread events", &first_owner);
  if (n_process > 0)
    process_set = start_kind(1, "the process-wide events", &process_owner);
}

void prof_papi_thread_start(prof_thread *t) {
  if (prof_papi_n == 0 || t->papi_set >= 0 || t->papi_ok)
    return;
  t->papi_reader =
      process_set >= 0 && pthread_equal(pthread_self(), process_owner);
  t->papi_ok = t->papi_reader;
  if (n_thread == 0)
    return;
  if (first_set >= 0 && pthread_equal(pthread_self(), first_owner)) {
    t->papi_set = first_set;
    first_set = -1;
    t->papi_ok = 1;
    return;
  }
  const char *bad = "";
  int code = 0;
  int set = make_set(0, &bad, &code);
  if (set != PAPI_NULL) {
    t->papi_set = set;
    t->papi_ok = 1;
    return;
  }
  /* The initializing thread could count them, so this is one thread's
     failure (too many threads for the counters?): said once; such a thread
     counts only the process-wide events. */
  static atomic_int said_thread_failure;
  if (atomic_exchange(&said_thread_failure, 1) == 0)
    cannot_count(bad, code, "per-thread events on some threads");
}

void prof_papi_read(prof_thread *t, long long *vals) {
  long long v[PROF_MAX_EVENTS];
  if (n_thread > 0) {
    if (t->papi_set < 0 || papi.read(t->papi_set, v) != PAPI_OK)
      memset(v, 0, sizeof v);
    for (int e = 0; e < prof_papi_n; e++)
      if (!prof_papi_process[e])
        vals[e] = v[pos[e]];
  }
  if (n_process > 0) {
    /* -1: an SDE placeholder, an event no library has registered yet */
    if (!t->papi_reader || papi.read(process_set, v) != PAPI_OK)
      for (int e = 0; e < n_process; e++)
        v[e] = t->papi_reader ? -1 : 0;
    for (int e = 0; e < prof_papi_n; e++)
      if (prof_papi_process[e])
        vals[e] = v[pos[e]];
  }
}

#else /* built without papi.h */

void prof_papi_init(const char *spec) {
  (void)spec;
  snprintf(prof_papi_status, sizeof prof_papi_status,
           "PAPI: pompt-prof was built without PAPI; POMPT_PROF_PAPI ignored");
  fprintf(stderr, "pompt-prof: %s\n", prof_papi_status);
}

void prof_papi_thread_start(prof_thread *t) {
  (void)t;
}

void prof_papi_read(prof_thread *t, long long *vals) {
  (void)t;
  memset(vals, 0, sizeof(long long) * PROF_MAX_EVENTS);
}

#endif

/* The count between two reads.  A software-defined event that no library
   had registered at the first read (-1) had counted nothing yet; one that
   has none at the second counted nothing. */
uint64_t prof_papi_delta(long long before, long long after) {
  if (before < 0)
    before = 0;
  return after >= before ? (uint64_t)(after - before) : 0;
}
