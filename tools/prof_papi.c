/*
 * prof_papi.c - hardware counters per region and thread through PAPI.
 *
 * POMPT_PROF_PAPI=EV1,EV2 (PAPI preset or native event names) switches it
 * on.  libpapi is opened at run time, so the profiler also runs where PAPI
 * is not installed.  When PAPI cannot count (no library, no hardware
 * counters in a virtual machine, perf_event forbidden, an unknown event)
 * the profiler says so once and carries on without counters.
 *
 * Each thread starts its own event set on its first event; a region's
 * counts are the difference of two PAPI_read calls on that thread.
 */
#define _GNU_SOURCE

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "prof_model.h"
#include "prof_tool.h"

int prof_papi_n;
char *prof_papi_names[PROF_MAX_EVENTS];
char prof_papi_status[256];

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
} papi;

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
#undef SYM
  return 1;
}

static void disable(const char *fmt, const char *a, const char *b) {
  snprintf(prof_papi_status, sizeof prof_papi_status, fmt, a, b);
  fprintf(stderr, "pompt-prof: %s\n", prof_papi_status);
  for (int e = 0; e < prof_papi_n; e++) {
    free(prof_papi_names[e]);
    prof_papi_names[e] = NULL;
  }
  prof_papi_n = 0;
}

/* Builds and starts the calling thread's event set; 0 and *why on failure. */
static int start_set(prof_thread *t, const char **bad, int *code) {
  int set = PAPI_NULL;
  int rc = papi.create_eventset(&set);
  if (rc != PAPI_OK) {
    *bad = "";
    *code = rc;
    return 0;
  }
  for (int e = 0; e < prof_papi_n; e++) {
    rc = papi.add_named_event(set, prof_papi_names[e]);
    if (rc != PAPI_OK) {
      *bad = prof_papi_names[e];
      *code = rc;
      return 0;
    }
  }
  rc = papi.start(set);
  if (rc != PAPI_OK) {
    *bad = "";
    *code = rc;
    return 0;
  }
  t->papi_set = set;
  t->papi_ok = 1;
  return 1;
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
    disable("PAPI: libpapi not found (%s%s); counting no events",
            "install libpapi7.0", "");
    return;
  }
  int rc = papi.library_init(PAPI_VER_CURRENT);
  if (rc != PAPI_VER_CURRENT) {
    disable("PAPI: library initialization failed (%s%s); counting no events",
            rc > 0 ? "version mismatch" : papi.strerror(rc), "");
    return;
  }
  rc = papi.thread_init(thread_id);
  if (rc != PAPI_OK) {
    disable("PAPI: thread support failed (%s%s); counting no events",
            papi.strerror(rc), "");
    return;
  }
  if (papi.num_cmp_hwctrs(0) <= 0) {
    disable("PAPI: this machine offers no hardware counters%s%s (a virtual "
            "machine, or perf_event_paranoid); counting no events",
            "", "");
    return;
  }
}

void prof_papi_thread_start(prof_thread *t) {
  if (prof_papi_n == 0 || t->papi_set >= 0)
    return;
  const char *bad = "";
  int code = 0;
  if (start_set(t, &bad, &code))
    return;
  /* The first thread's failure switches counting off for all. */
  if (t->index == 0) {
    char what[300];
    snprintf(what, sizeof what, "%s%s%s", bad[0] ? "event " : "", bad,
             bad[0] ? ": " : "");
    disable("PAPI: cannot count: %s%s; counting no events", what,
            papi.strerror(code));
  }
}

void prof_papi_read(prof_thread *t, long long *vals) {
  if (papi.read(t->papi_set, vals) != PAPI_OK)
    memset(vals, 0, sizeof(long long) * PROF_MAX_EVENTS);
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
