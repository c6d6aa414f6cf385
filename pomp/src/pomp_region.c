/*
 * pomp_region.c -- region registry: turning a CTC string into a region once
 * per handle.
 *
 * This runs at load time (per-file init functions called by pomp-link's
 * constructor) or at a construct's first event (lazy initialisation, seed
 * 004 section 3.2), never again for the same handle, so a mutex is fine here:
 * it is not on the event path.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "pomp_ctc.h"
#include "bridge.h"
#include "pomp_region.h"

static pthread_mutex_t registry_lock = PTHREAD_MUTEX_INITIALIZER;
static struct pomp_region *regions;
static uint64_t region_count;

/* Critical sections with the same name share one lock in the OpenMP
 * runtime, so they share one wait id: the address of the interned name. */
struct critical_name {
  struct critical_name *next;
  char name[];
};
static struct critical_name *critical_names;
static char unnamed_critical;

static const char *const kind_names[] = {
#define X(id, text) text,
    POMP_REGION_KIND_LIST(X)
#undef X
};

const char *pomp_region_kind_name(pomp_region_kind_t kind) {
  return kind_names[kind];
}

/* Regions and their strings live as long as the process, in libpompt's
 * own memory (bridge_arena_alloc): registering a program's regions at
 * start-up leaves its heap as it was. */
static char *dup_n(const char *s, size_t n) {
  char *d = bridge_arena_alloc(n + 1, 1);
  if (d) {
    memcpy(d, s, n);
    d[n] = '\0';
  }
  return d;
}

static int key_is(const char *key, size_t len, const char *want) {
  return strlen(want) == len && !memcmp(key, want, len);
}

static int ends_with(const char *s, size_t len, const char *tail) {
  size_t n = strlen(tail);
  return len >= n && !memcmp(s + len - n, tail, n);
}

static const struct {
  const char *key;
  unsigned flag;
} flag_keys[] = {
    {"hasNowait", POMP_HAS_NOWAIT},
    {"hasReduction", POMP_HAS_REDUCTION},
    {"hasFirstPrivate", POMP_HAS_FIRSTPRIVATE},
    {"hasLastprivate", POMP_HAS_LASTPRIVATE},
    {"hasCopyin", POMP_HAS_COPYIN},
    {"hasOrdered", POMP_HAS_ORDERED},
    {"hasCopyprivate", POMP_HAS_COPYPRIVATE},
    {"hasIf", POMP_HAS_IF},
    {"hasNumThreads", POMP_HAS_NUM_THREADS},
    {"hasCollapse", POMP_HAS_COLLAPSE},
    {"parallelReduction", POMP_PARALLEL_REDUCTION},
};

/* The construct-type clause of cancel / cancellation point, as the CTC
 * attribute constructType= carries it. */
static int cancel_construct(const char *value) {
  if (!strcmp(value, "parallel"))
    return ompt_cancel_parallel;
  if (!strcmp(value, "sections"))
    return ompt_cancel_sections;
  if (!strcmp(value, "for") || !strcmp(value, "do") || !strcmp(value, "loop"))
    return ompt_cancel_loop;
  if (!strcmp(value, "taskgroup"))
    return ompt_cancel_taskgroup;
  return 0;
}

static int on_attribute(const char *key, size_t key_len, const char *value,
                        size_t value_len, void *arg) {
  struct pomp_region *r = arg;
  if (key_is(key, key_len, "type")) {
    for (size_t k = 0; k < sizeof kind_names / sizeof kind_names[0]; k++)
      if (strlen(kind_names[k]) == value_len &&
          !memcmp(kind_names[k], value, value_len))
        r->kind = (pomp_region_kind_t)k;
    if (!strcmp(value, "cancellation_point") ||
        !strcmp(value, "cancellation point"))
      r->kind = POMP_REGION_CANCELLATION_POINT;
    if (ends_with(value, value_len, "for") ||
        ends_with(value, value_len, "forsimd") ||
        ends_with(value, value_len, "do") ||
        ends_with(value, value_len, "dosimd"))
      r->flags |= POMP_WORKSHARING_LOOP;
  } else if (key_is(key, key_len, "file")) {
    bridge_arena_release(r->file);
    r->file = dup_n(value, value_len);
  } else if (key_is(key, key_len, "lines")) {
    char *end;
    r->first_line = (int)strtol(value, &end, 10);
    r->last_line = *end == ',' ? (int)strtol(end + 1, NULL, 10) : r->first_line;
  } else if (key_is(key, key_len, "name")) {
    bridge_arena_release(r->name);
    r->name = dup_n(value, value_len);
  } else if (key_is(key, key_len, "schedule")) {
    bridge_arena_release(r->schedule);
    r->schedule = dup_n(value, value_len);
  } else if (key_is(key, key_len, "chunk")) {
    r->chunk = strtoll(value, NULL, 10);
  } else if (key_is(key, key_len, "numSections")) {
    r->num_sections = strtoull(value, NULL, 10);
  } else if (key_is(key, key_len, "hint")) {
    r->hint = (unsigned)strtoul(value, NULL, 0);
  } else if (key_is(key, key_len, "constructType") ||
             key_is(key, key_len, "construct")) {
    r->cancel_flags = cancel_construct(value);
  } else {
    for (size_t k = 0; k < sizeof flag_keys / sizeof flag_keys[0]; k++)
      if (key_is(key, key_len, flag_keys[k].key) && value_len > 0 &&
          value[0] != '0')
        r->flags |= flag_keys[k].flag;
  }
  return 0; /* attributes this library does not know are skipped */
}

/* The schedule GCC gives a worksharing loop: as its schedule clause says,
 * and static without one and for schedule(auto) (both are GCC's to choose,
 * and its inline code divides the iterations, with no runtime call);
 * schedule(runtime) is known only when the loop begins
 * (BRIDGE_WORK_LOOP_RUNTIME).  A loop construct (or a CTC without its type)
 * stays ompt_work_loop. */
static ompt_work_t loop_work_type(const char *schedule, unsigned flags) {
  if (!schedule)
    return (flags & POMP_WORKSHARING_LOOP) ? ompt_work_loop_static
                                           : ompt_work_loop;
  if (!strcmp(schedule, "static") || !strcmp(schedule, "auto"))
    return ompt_work_loop_static;
  if (!strcmp(schedule, "dynamic"))
    return ompt_work_loop_dynamic;
  if (!strcmp(schedule, "guided"))
    return ompt_work_loop_guided;
  if (!strcmp(schedule, "runtime"))
    return BRIDGE_WORK_LOOP_RUNTIME;
  return ompt_work_loop_other;
}

ompt_wait_id_t pomp_critical_unnamed_wait_id(void) {
  return (ompt_wait_id_t)(uintptr_t)&unnamed_critical;
}

static ompt_wait_id_t critical_wait_id(const char *name) {
  if (!name || !*name)
    return (ompt_wait_id_t)(uintptr_t)&unnamed_critical;
  for (struct critical_name *c = critical_names; c; c = c->next)
    if (!strcmp(c->name, name))
      return (ompt_wait_id_t)(uintptr_t)c;
  struct critical_name *c = bridge_arena_alloc(sizeof *c + strlen(name) + 1,
                                               _Alignof(struct critical_name));
  if (!c)
    return (ompt_wait_id_t)(uintptr_t)&unnamed_critical;
  strcpy(c->name, name);
  c->next = critical_names;
  critical_names = c;
  return (ompt_wait_id_t)(uintptr_t)c;
}

static void region_free(struct pomp_region *r) {
  bridge_arena_release(r->file);
  bridge_arena_release(r->name);
  bridge_arena_release(r->schedule);
  bridge_arena_release(r);
}

/* A handle pointer may be NULL in hand-written code; such events still need
 * one region per CTC string, found again by the string's address. */
static struct pomp_region *find_by_ctc(const char *ctc) {
  for (struct pomp_region *r = regions; r; r = r->next)
    if (r->ctc == ctc)
      return r;
  return NULL;
}

struct pomp_region *pomp_region_init(POMP_Handle_t *handle, const char *ctc,
                                     int32_t *status) {
  if (handle) {
    struct pomp_region *r = __atomic_load_n(handle, __ATOMIC_ACQUIRE);
    if (r)
      return r;
  }
  if (!ctc) {
    if (status)
      *status = POMP_ERR_HANDLE;
    return NULL;
  }
  if (!handle) {
    pthread_mutex_lock(&registry_lock);
    struct pomp_region *known = find_by_ctc(ctc);
    pthread_mutex_unlock(&registry_lock);
    if (known)
      return known;
  }
  struct pomp_region *r =
      bridge_arena_alloc(sizeof *r, _Alignof(struct pomp_region));
  if (!r) {
    if (status)
      *status = POMP_ERR_NOMEM;
    return NULL;
  }
  r->chunk = -1;
  if (pomp_ctc_parse(ctc, on_attribute, r) != 0) {
    region_free(r);
    if (status)
      *status = POMP_ERR_CTC;
    return NULL;
  }
  r->loop_work = loop_work_type(r->schedule, r->flags);
  /* A hand-written parallel construct's CTC: its reduction is on it. */
  if (r->kind == POMP_REGION_PARALLEL && (r->flags & POMP_HAS_REDUCTION))
    r->flags |= POMP_PARALLEL_REDUCTION;
  /* A parallel construct's block events may go quiet (pomp_lean.c), its
   * end with the combining of its reduction after it if it has one.  Fixed
   * for the region, so that its team storage stays as it was. */
  if (r->kind == POMP_REGION_PARALLEL || r->kind == POMP_REGION_PARALLELFOR ||
      r->kind == POMP_REGION_PARALLELSECTIONS)
    r->quiet =
        BRIDGE_ENTER_QUIET |
        (r->flags & POMP_PARALLEL_REDUCTION ? BRIDGE_ENTER_QUIET_COMBINE : 0);
  if ((r->kind == POMP_REGION_CANCEL ||
       r->kind == POMP_REGION_CANCELLATION_POINT) &&
      !r->cancel_flags && r->name)
    r->cancel_flags = cancel_construct(r->name);
  pthread_mutex_lock(&registry_lock);
  struct pomp_region *existing =
      handle ? __atomic_load_n(handle, __ATOMIC_ACQUIRE) : find_by_ctc(ctc);
  if (existing) { /* another thread won the race */
    pthread_mutex_unlock(&registry_lock);
    region_free(r);
    return existing;
  }
  if (r->kind == POMP_REGION_CRITICAL)
    r->wait_id = critical_wait_id(r->name);
  else
    r->wait_id = (ompt_wait_id_t)(uintptr_t)r;
  r->ctc = ctc;
  r->id = region_count + 1;
  /* Read without the lock by the PAPI counter below. */
  __atomic_store_n(&region_count, r->id, __ATOMIC_RELAXED);
  r->next = regions;
  /* Published with release: pompt_region_info walks the list without the
   * lock. */
  __atomic_store_n(&regions, r, __ATOMIC_RELEASE);
  if (handle)
    __atomic_store_n(handle, r, __ATOMIC_RELEASE);
  pthread_mutex_unlock(&registry_lock);
  return r;
}

/* pompt_region_info: an implementation-specific entry point (found through
 * the OMPT lookup function) that gives a tool the CTC string of the
 * construct a codeptr_ra belongs to: source file, lines, construct type and
 * clauses, without debug information.  Lock-free: regions are never freed
 * and are published with release stores. */
static int region_info(const void *codeptr, const char **ctc) {
  if (!codeptr)
    return 0;
  for (struct pomp_region *r = __atomic_load_n(&regions, __ATOMIC_ACQUIRE); r;
       r = __atomic_load_n(&r->next, __ATOMIC_ACQUIRE))
    for (int k = 0; k < POMP_REGION_SITES; k++)
      if (__atomic_load_n(&r->sites[k], __ATOMIC_RELAXED) == codeptr) {
        if (ctc)
          *ctc = r->ctc;
        return r->ctc != NULL;
      }
  return 0;
}

static long long regions_registered(void *arg) {
  (void)arg;
  return (long long)__atomic_load_n(&region_count, __ATOMIC_RELAXED);
}

/* Before the bridge's constructor starts the tool, whose initialize may
 * look the entry point up (or read the PAPI counter). */
__attribute__((constructor(101))) static void register_region_info(void) {
  bridge_register_entry("pompt_region_info", (ompt_interface_fn_t)region_info);
  bridge_sde_counter("regions_registered",
                     "POMP regions (instrumented constructs) registered",
                     regions_registered, NULL, 1);
}
