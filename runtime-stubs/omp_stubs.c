/*
 * omp_stubs.c - serial OpenMP runtime routines (the "stub routines" of the
 * OpenMP specification) for pompt.
 *
 * A program compiled without an OpenMP flag ignores every directive and runs
 * on one thread, but still calls omp_* routines.  This library supplies them
 * with the semantics of a serial OpenMP implementation: one thread, thread
 * number 0, team size 1, no devices besides the host, locks that can never
 * block.  Signatures and type layouts are those of GCC's (libgomp's) omp.h,
 * so a program compiled against that header links and runs with this
 * library; the layouts are small enough for LLVM's omp.h as well.
 *
 * The types are declared here, so the file builds with any C11 compiler.
 * Defining POMPT_STUBS_SYSTEM_OMP_H compiles it against the compiler's own
 * <omp.h> instead (with GCC: libgomp's), which checks every definition
 * below against the header's prototypes.
 */
#define _POSIX_C_SOURCE 200809L /* clock_gettime, gethostname, getpid */

#include <errno.h>
#include <limits.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define STUB_API __attribute__((visibility("default")))

#ifdef POMPT_STUBS_SYSTEM_OMP_H
#include <omp.h>
#else

/* ---- types with the layout of libgomp's omp.h ------------------------- */

typedef struct {
  unsigned char _x[4] __attribute__((__aligned__(4)));
} omp_lock_t;

typedef struct {
  unsigned char _x[8 + sizeof(void *)]
      __attribute__((__aligned__(sizeof(void *))));
} omp_nest_lock_t;

typedef enum omp_sched_t {
  omp_sched_static = 1,
  omp_sched_dynamic = 2,
  omp_sched_guided = 3,
  omp_sched_auto = 4,
  omp_sched_monotonic = (int)0x80000000U
} omp_sched_t;

typedef enum omp_proc_bind_t {
  omp_proc_bind_false = 0,
  omp_proc_bind_true = 1,
  omp_proc_bind_primary = 2,
  omp_proc_bind_close = 3,
  omp_proc_bind_spread = 4
} omp_proc_bind_t;

typedef enum omp_sync_hint_t {
  omp_sync_hint_none = 0,
  omp_sync_hint_uncontended = 1,
  omp_sync_hint_contended = 2,
  omp_sync_hint_nonspeculative = 4,
  omp_sync_hint_speculative = 8
} omp_sync_hint_t;

typedef enum omp_pause_resource_t {
  omp_pause_soft = 1,
  omp_pause_hard = 2
} omp_pause_resource_t;

typedef uintptr_t omp_uintptr_t;

/* libgomp makes these enums pointer-sized; an integer of that size has the
   same calling convention and layout. */
typedef uintptr_t omp_memspace_handle_t;
#define omp_default_mem_space ((omp_memspace_handle_t)0)
#define omp_low_lat_mem_space ((omp_memspace_handle_t)4)

typedef uintptr_t omp_allocator_handle_t;
#define omp_null_allocator ((omp_allocator_handle_t)0)
#define omp_default_mem_alloc ((omp_allocator_handle_t)1)

typedef enum omp_alloctrait_key_t {
  omp_atk_sync_hint = 1,
  omp_atk_alignment = 2,
  omp_atk_access = 3,
  omp_atk_pool_size = 4,
  omp_atk_fallback = 5,
  omp_atk_fb_data = 6,
  omp_atk_pinned = 7,
  omp_atk_partition = 8
} omp_alloctrait_key_t;

#define omp_atv_default ((omp_uintptr_t)-1)
#define omp_atv_false 0
#define omp_atv_true 1
#define omp_atv_contended 3
#define omp_atv_uncontended 4
#define omp_atv_serialized 5
#define omp_atv_private 6
#define omp_atv_all 7
#define omp_atv_thread 8
#define omp_atv_pteam 9
#define omp_atv_cgroup 10
#define omp_atv_default_mem_fb 11
#define omp_atv_null_fb 12
#define omp_atv_abort_fb 13
#define omp_atv_allocator_fb 14
#define omp_atv_environment 15
#define omp_atv_nearest 16
#define omp_atv_blocked 17
#define omp_atv_interleaved 18

typedef struct omp_alloctrait_t {
  omp_alloctrait_key_t key;
  omp_uintptr_t value;
} omp_alloctrait_t;

typedef uintptr_t omp_event_handle_t;

_Static_assert(sizeof(omp_lock_t) == 4 && _Alignof(omp_lock_t) == 4,
               "omp_lock_t must match libgomp");
_Static_assert(sizeof(omp_nest_lock_t) == 16 && _Alignof(omp_nest_lock_t) == 8,
               "omp_nest_lock_t must match libgomp");
_Static_assert(sizeof(omp_alloctrait_t) == 16, "omp_alloctrait_t layout");

#endif /* POMPT_STUBS_SYSTEM_OMP_H */

/* OpenMP 5.x routines and constants that libgomp 12's omp.h lacks. */
typedef enum pompt_control_tool_result {
  pompt_control_tool_notool = -2,
  pompt_control_tool_nocallback = -1,
  pompt_control_tool_success = 0,
  pompt_control_tool_ignored = 1
} pompt_control_tool_result;

#define POMPT_INITIAL_DEVICE (-1) /* omp_initial_device (OpenMP 5.2) */

int omp_control_tool(int command, int modifier, void *arg);
void *omp_get_mapped_ptr(const void *ptr, int device_num);
int omp_target_is_accessible(const void *ptr, size_t size, int device_num);
int omp_get_supported_active_levels(void);

/* ======================================================================
 * Threads, teams, ICVs
 * ==================================================================== */

static int icv_dynamic;
static int icv_nested;
static omp_sched_t icv_sched_kind = omp_sched_static;
static int icv_sched_chunk;
static int icv_max_active_levels = 1;
static int icv_default_device;
static int icv_num_teams;
static int icv_teams_thread_limit;

STUB_API void omp_set_num_threads(int num_threads) {
  (void)num_threads;
}

STUB_API int omp_get_num_threads(void) {
  return 1;
}

STUB_API int omp_get_max_threads(void) {
  return 1;
}

STUB_API int omp_get_thread_num(void) {
  return 0;
}

STUB_API int omp_get_num_procs(void) {
  return 1;
}

STUB_API int omp_in_parallel(void) {
  return 0;
}

STUB_API void omp_set_dynamic(int dynamic_threads) {
  icv_dynamic = dynamic_threads != 0;
}

STUB_API int omp_get_dynamic(void) {
  return icv_dynamic;
}

STUB_API void omp_set_nested(int nested) {
  icv_nested = nested != 0;
}

STUB_API int omp_get_nested(void) {
  return icv_nested;
}

STUB_API int omp_get_cancellation(void) {
  return 0;
}

STUB_API void omp_set_schedule(omp_sched_t kind, int chunk_size) {
  unsigned base = (unsigned)kind & ~0x80000000u;
  if (base < 1 || base > 4)
    return; /* not a schedule kind: leave run-sched-var alone */
  icv_sched_kind = kind;
  icv_sched_chunk = chunk_size < 1 ? 0 : chunk_size;
}

STUB_API void omp_get_schedule(omp_sched_t *kind, int *chunk_size) {
  if (kind != NULL)
    *kind = icv_sched_kind;
  if (chunk_size != NULL)
    *chunk_size = icv_sched_chunk;
}

STUB_API int omp_get_thread_limit(void) {
  return 1;
}

STUB_API int omp_get_supported_active_levels(void) {
  return 1;
}

STUB_API void omp_set_max_active_levels(int max_levels) {
  if (max_levels < 0)
    return;
  icv_max_active_levels = max_levels > 1 ? 1 : max_levels;
}

STUB_API int omp_get_max_active_levels(void) {
  return icv_max_active_levels;
}

STUB_API int omp_get_level(void) {
  return 0;
}

STUB_API int omp_get_ancestor_thread_num(int level) {
  return level == 0 ? 0 : -1;
}

STUB_API int omp_get_team_size(int level) {
  return level == 0 ? 1 : -1;
}

STUB_API int omp_get_active_level(void) {
  return 0;
}

STUB_API int omp_in_final(void) {
  /* Without a runtime every task is executed at once, as if final. */
  return 1;
}

STUB_API omp_proc_bind_t omp_get_proc_bind(void) {
  return omp_proc_bind_false;
}

STUB_API int omp_get_num_places(void) {
  return 0;
}

STUB_API int omp_get_place_num_procs(int place_num) {
  (void)place_num;
  return 0;
}

STUB_API void omp_get_place_proc_ids(int place_num, int *ids) {
  (void)place_num;
  (void)ids;
}

STUB_API int omp_get_place_num(void) {
  return -1;
}

STUB_API int omp_get_partition_num_places(void) {
  return 0;
}

STUB_API void omp_get_partition_place_nums(int *place_nums) {
  (void)place_nums;
}

STUB_API void omp_set_default_device(int device_num) {
  icv_default_device = device_num;
}

STUB_API int omp_get_default_device(void) {
  return icv_default_device;
}

STUB_API int omp_get_num_devices(void) {
  return 0;
}

/* The host's device number equals omp_get_num_devices() (OpenMP 5.1). */
STUB_API int omp_get_initial_device(void) {
  return 0;
}

STUB_API int omp_get_device_num(void) {
  return 0;
}

STUB_API int omp_get_num_teams(void) {
  return 1;
}

STUB_API int omp_get_team_num(void) {
  return 0;
}

STUB_API int omp_is_initial_device(void) {
  return 1;
}

STUB_API int omp_get_max_task_priority(void) {
  return 0;
}

STUB_API void omp_fulfill_event(omp_event_handle_t event) {
  (void)event;
}

STUB_API void omp_set_num_teams(int num_teams) {
  if (num_teams > 0)
    icv_num_teams = num_teams;
}

STUB_API int omp_get_max_teams(void) {
  return icv_num_teams;
}

STUB_API void omp_set_teams_thread_limit(int thread_limit) {
  if (thread_limit > 0)
    icv_teams_thread_limit = thread_limit;
}

STUB_API int omp_get_teams_thread_limit(void) {
  return icv_teams_thread_limit;
}

STUB_API int omp_pause_resource(omp_pause_resource_t kind, int device_num) {
  if (kind != omp_pause_soft && kind != omp_pause_hard)
    return -1;
  if (device_num != 0 && device_num != POMPT_INITIAL_DEVICE)
    return -1;
  return 0;
}

STUB_API int omp_pause_resource_all(omp_pause_resource_t kind) {
  return omp_pause_resource(kind, 0);
}

/* Weak: libpompt, when linked too, defines omp_control_tool to deliver the
   control_tool callback to an OMPT tool, and that definition wins. */
STUB_API __attribute__((weak)) int omp_control_tool(int command, int modifier,
                                                    void *arg) {
  (void)command;
  (void)modifier;
  (void)arg;
  return pompt_control_tool_notool;
}

/* ======================================================================
 * Locks.  One thread can never wait for a lock: where a real runtime would
 * block forever the stub reports the deadlock and aborts.
 * ==================================================================== */

/* State words; anything else means the lock was never initialized. */
#define LOCK_UNLOCKED 0x4c4f4b55u /* "UKOL" */
#define LOCK_LOCKED 0x4c4f4b4cu   /* "LKOL" */
#define LOCK_DESTROYED 0x4c4f4b44u

/* The state fits the first 4 bytes of omp_lock_t (libgomp: 4 bytes). */
typedef struct simple_lock {
  uint32_t state;
} simple_lock_t;

/* The first 8 bytes of omp_nest_lock_t (libgomp: 16, LLVM: 8). */
typedef struct nest_lock {
  uint32_t state;
  int32_t count;
} nest_lock_t;

_Static_assert(sizeof(simple_lock_t) <= sizeof(omp_lock_t), "lock fits");
_Static_assert(sizeof(nest_lock_t) <= sizeof(omp_nest_lock_t),
               "nest lock fits");

static _Noreturn void lock_fail(const char *routine, const char *what) {
  fprintf(stderr, "pompt-stubs: %s: %s\n", routine, what);
  fflush(stderr);
  abort();
}

static simple_lock_t *simple_of(omp_lock_t *lock, const char *routine) {
  if (lock == NULL)
    lock_fail(routine, "NULL lock");
  return (simple_lock_t *)(void *)lock;
}

static nest_lock_t *nest_of(omp_nest_lock_t *lock, const char *routine) {
  if (lock == NULL)
    lock_fail(routine, "NULL nest lock");
  return (nest_lock_t *)(void *)lock;
}

static simple_lock_t *simple_checked(omp_lock_t *lock, const char *routine) {
  simple_lock_t *l = simple_of(lock, routine);
  if (l->state != LOCK_UNLOCKED && l->state != LOCK_LOCKED)
    lock_fail(routine, "lock not initialized");
  return l;
}

static nest_lock_t *nest_checked(omp_nest_lock_t *lock, const char *routine) {
  nest_lock_t *l = nest_of(lock, routine);
  if (l->state != LOCK_UNLOCKED && l->state != LOCK_LOCKED)
    lock_fail(routine, "nest lock not initialized");
  return l;
}

STUB_API void omp_init_lock(omp_lock_t *lock) {
  simple_of(lock, "omp_init_lock")->state = LOCK_UNLOCKED;
}

STUB_API void omp_init_lock_with_hint(omp_lock_t *lock, omp_sync_hint_t hint) {
  (void)hint;
  simple_of(lock, "omp_init_lock_with_hint")->state = LOCK_UNLOCKED;
}

STUB_API void omp_destroy_lock(omp_lock_t *lock) {
  simple_lock_t *l = simple_checked(lock, "omp_destroy_lock");
  if (l->state == LOCK_LOCKED)
    lock_fail("omp_destroy_lock", "lock is set");
  l->state = LOCK_DESTROYED;
}

STUB_API void omp_set_lock(omp_lock_t *lock) {
  simple_lock_t *l = simple_checked(lock, "omp_set_lock");
  if (l->state == LOCK_LOCKED)
    lock_fail("omp_set_lock",
              "deadlock: the lock is already set by this thread");
  l->state = LOCK_LOCKED;
}

STUB_API void omp_unset_lock(omp_lock_t *lock) {
  simple_lock_t *l = simple_checked(lock, "omp_unset_lock");
  if (l->state != LOCK_LOCKED)
    lock_fail("omp_unset_lock", "lock is not set");
  l->state = LOCK_UNLOCKED;
}

STUB_API int omp_test_lock(omp_lock_t *lock) {
  simple_lock_t *l = simple_checked(lock, "omp_test_lock");
  if (l->state == LOCK_LOCKED)
    return 0;
  l->state = LOCK_LOCKED;
  return 1;
}

STUB_API void omp_init_nest_lock(omp_nest_lock_t *lock) {
  nest_lock_t *l = nest_of(lock, "omp_init_nest_lock");
  l->state = LOCK_UNLOCKED;
  l->count = 0;
}

STUB_API void omp_init_nest_lock_with_hint(omp_nest_lock_t *lock,
                                           omp_sync_hint_t hint) {
  (void)hint;
  omp_init_nest_lock(lock);
}

STUB_API void omp_destroy_nest_lock(omp_nest_lock_t *lock) {
  nest_lock_t *l = nest_checked(lock, "omp_destroy_nest_lock");
  if (l->state == LOCK_LOCKED)
    lock_fail("omp_destroy_nest_lock", "nest lock is set");
  l->state = LOCK_DESTROYED;
  l->count = 0;
}

STUB_API void omp_set_nest_lock(omp_nest_lock_t *lock) {
  nest_lock_t *l = nest_checked(lock, "omp_set_nest_lock");
  if (l->count == INT32_MAX)
    lock_fail("omp_set_nest_lock", "nesting count overflow");
  /* The only thread always owns a set nest lock: nesting goes up. */
  l->state = LOCK_LOCKED;
  l->count++;
}

STUB_API void omp_unset_nest_lock(omp_nest_lock_t *lock) {
  nest_lock_t *l = nest_checked(lock, "omp_unset_nest_lock");
  if (l->state != LOCK_LOCKED || l->count < 1)
    lock_fail("omp_unset_nest_lock", "nest lock is not set");
  if (--l->count == 0)
    l->state = LOCK_UNLOCKED;
}

STUB_API int omp_test_nest_lock(omp_nest_lock_t *lock) {
  nest_checked(lock, "omp_test_nest_lock");
  omp_set_nest_lock(lock);
  return nest_of(lock, "omp_test_nest_lock")->count;
}

/* ======================================================================
 * Timing
 * ==================================================================== */

STUB_API double omp_get_wtime(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

STUB_API double omp_get_wtick(void) {
  struct timespec res;
  if (clock_getres(CLOCK_MONOTONIC, &res) != 0 ||
      (res.tv_sec == 0 && res.tv_nsec == 0))
    return 1e-9;
  return (double)res.tv_sec + (double)res.tv_nsec * 1e-9;
}

/* ======================================================================
 * Affinity format (OpenMP 5.0)
 * ==================================================================== */

static char affinity_format[256] = "level %L thread %i affinity %A";

STUB_API void omp_set_affinity_format(const char *format) {
  if (format == NULL)
    return;
  size_t n = strlen(format);
  if (n >= sizeof affinity_format)
    n = sizeof affinity_format - 1;
  memcpy(affinity_format, format, n);
  affinity_format[n] = '\0';
}

/* Copies src into buffer of size bytes (truncated, terminated) and returns
   strlen(src), like the affinity routines must. */
static size_t copy_out(char *buffer, size_t size, const char *src) {
  size_t n = strlen(src);
  if (buffer != NULL && size > 0) {
    size_t k = n < size - 1 ? n : size - 1;
    memcpy(buffer, src, k);
    buffer[k] = '\0';
  }
  return n;
}

STUB_API size_t omp_get_affinity_format(char *buffer, size_t size) {
  return copy_out(buffer, size, affinity_format);
}

/* Expands an affinity format for the only thread; fields are those of the
   OpenMP specification, short (%n) or long (%{thread_num}), with an
   optional width (%5n, %05n, %-5n). */
static void expand_affinity(const char *format, char *out, size_t size) {
  size_t len = 0;
  out[0] = '\0';
  for (const char *p = format; *p != '\0' && len + 1 < size; p++) {
    if (*p != '%') {
      out[len++] = *p;
      out[len] = '\0';
      continue;
    }
    p++;
    if (*p == '%') {
      out[len++] = '%';
      out[len] = '\0';
      continue;
    }
    char spec[16] = "%";
    size_t sl = 1;
    while ((*p == '0' || *p == '.' || *p == '-' || (*p >= '1' && *p <= '9')) &&
           sl < sizeof spec - 3)
      spec[sl++] = *p++;
    char field = 0;
    if (*p == '{') {
      static const struct {
        const char *name;
        char letter;
      } names[] = {{"team_num", 't'},
                   {"num_teams", 'T'},
                   {"nesting_level", 'L'},
                   {"thread_num", 'n'},
                   {"num_threads", 'N'},
                   {"ancestor_tnum", 'a'},
                   {"host", 'H'},
                   {"process_id", 'P'},
                   {"native_thread_id", 'i'},
                   {"thread_affinity", 'A'}};
      const char *end = strchr(p, '}');
      if (end == NULL)
        break;
      for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        size_t nl = strlen(names[i].name);
        if ((size_t)(end - p - 1) == nl &&
            strncmp(p + 1, names[i].name, nl) == 0)
          field = names[i].letter;
      }
      p = end;
    } else if (*p != '\0') {
      field = *p;
    } else {
      break;
    }
    char value[128];
    switch (field) {
    case 't':
    case 'L':
    case 'n':
      snprintf(value, sizeof value, "%d", 0);
      break;
    case 'T':
    case 'N':
      snprintf(value, sizeof value, "%d", 1);
      break;
    case 'a':
      snprintf(value, sizeof value, "%d", -1);
      break;
    case 'P':
    case 'i':
      snprintf(value, sizeof value, "%ld", (long)getpid());
      break;
    case 'H':
      if (gethostname(value, sizeof value) != 0)
        value[0] = '\0';
      value[sizeof value - 1] = '\0';
      break;
    case 'A':
      value[0] = '\0';
      break;
    default:
      snprintf(value, sizeof value, "undefined");
      break;
    }
    spec[sl++] = 's';
    spec[sl] = '\0';
    int n = snprintf(out + len, size - len, spec, value);
    if (n < 0)
      break;
    len += (size_t)n < size - len ? (size_t)n : size - len - 1;
  }
}

STUB_API size_t omp_capture_affinity(char *buffer, size_t size,
                                     const char *format) {
  char text[1024];
  expand_affinity(format != NULL && format[0] != '\0' ? format
                                                      : affinity_format,
                  text, sizeof text);
  return copy_out(buffer, size, text);
}

STUB_API void omp_display_affinity(const char *format) {
  char text[1024];
  expand_affinity(format != NULL && format[0] != '\0' ? format
                                                      : affinity_format,
                  text, sizeof text);
  printf("%s\n", text);
}

/* LLVM's omp.h renames the four affinity routines to ompc_*; programs
   compiled against that header find them under those names. */
void ompc_set_affinity_format(const char *format);
size_t ompc_get_affinity_format(char *buffer, size_t size);
void ompc_display_affinity(const char *format);
size_t ompc_capture_affinity(char *buffer, size_t size, const char *format);

STUB_API void ompc_set_affinity_format(const char *format) {
  omp_set_affinity_format(format);
}

STUB_API size_t ompc_get_affinity_format(char *buffer, size_t size) {
  return omp_get_affinity_format(buffer, size);
}

STUB_API void ompc_display_affinity(const char *format) {
  omp_display_affinity(format);
}

STUB_API size_t ompc_capture_affinity(char *buffer, size_t size,
                                      const char *format) {
  return omp_capture_affinity(buffer, size, format);
}

/* ======================================================================
 * Environment display
 * ==================================================================== */

static const char *sched_name(omp_sched_t kind) {
  switch ((unsigned)kind & ~0x80000000u) {
  case 1:
    return "STATIC";
  case 2:
    return "DYNAMIC";
  case 3:
    return "GUIDED";
  case 4:
    return "AUTO";
  default:
    return "UNKNOWN";
  }
}

STUB_API void omp_display_env(int verbose) {
  FILE *f = stderr;
  fprintf(f, "\nOPENMP DISPLAY ENVIRONMENT BEGIN\n");
  fprintf(f, "  _OPENMP = '0'\n");
  fprintf(f, "  OMP_DYNAMIC = '%s'\n", icv_dynamic ? "TRUE" : "FALSE");
  fprintf(f, "  OMP_NESTED = '%s'\n", icv_nested ? "TRUE" : "FALSE");
  fprintf(f, "  OMP_NUM_THREADS = '1'\n");
  if (icv_sched_chunk > 0)
    fprintf(f, "  OMP_SCHEDULE = '%s,%d'\n", sched_name(icv_sched_kind),
            icv_sched_chunk);
  else
    fprintf(f, "  OMP_SCHEDULE = '%s'\n", sched_name(icv_sched_kind));
  fprintf(f, "  OMP_PROC_BIND = 'FALSE'\n");
  fprintf(f, "  OMP_PLACES = ''\n");
  fprintf(f, "  OMP_STACKSIZE = '0'\n");
  fprintf(f, "  OMP_WAIT_POLICY = 'PASSIVE'\n");
  fprintf(f, "  OMP_THREAD_LIMIT = '1'\n");
  fprintf(f, "  OMP_MAX_ACTIVE_LEVELS = '%d'\n", icv_max_active_levels);
  fprintf(f, "  OMP_CANCELLATION = 'FALSE'\n");
  fprintf(f, "  OMP_DEFAULT_DEVICE = '%d'\n", icv_default_device);
  fprintf(f, "  OMP_MAX_TASK_PRIORITY = '0'\n");
  fprintf(f, "  OMP_DISPLAY_AFFINITY = 'FALSE'\n");
  fprintf(f, "  OMP_AFFINITY_FORMAT = '%s'\n", affinity_format);
  fprintf(f, "  OMP_ALLOCATOR = 'omp_default_mem_alloc'\n");
  fprintf(f, "  OMP_TARGET_OFFLOAD = 'DISABLED'\n");
  if (verbose) {
    fprintf(f, "  POMPT_RUNTIME = 'serial stubs (pompt-stubs)'\n");
    fprintf(f, "  OMP_NUM_TEAMS = '%d'\n", icv_num_teams);
    fprintf(f, "  OMP_TEAMS_THREAD_LIMIT = '%d'\n", icv_teams_thread_limit);
  }
  fprintf(f, "OPENMP DISPLAY ENVIRONMENT END\n");
}

/* ======================================================================
 * Memory allocators (OpenMP 5.0/5.1)
 *
 * Every block carries a header just below the pointer handed out, so that
 * omp_free and omp_realloc know the block's base, size and allocator,
 * whatever the alignment.
 * ==================================================================== */

/* Handles up to this value are predefined allocators (libgomp uses 1-8,
   LLVM adds more in the low hundreds); all allocate ordinary memory. */
#define PREDEFINED_MAX ((omp_allocator_handle_t)0x1000)
#define ALLOCATOR_MAGIC 0x706f6d70616c6c63ull

typedef struct allocator {
  uint64_t magic;
  omp_memspace_handle_t memspace;
  size_t alignment;   /* 0: default */
  uintptr_t fallback; /* omp_atv_*_fb */
  omp_allocator_handle_t fb_data;
  size_t pool_size;   /* 0: unlimited */
  atomic_size_t used; /* bytes of live blocks */
} allocator_t;

typedef struct block_header {
  void *base;
  size_t size;
  omp_allocator_handle_t allocator;
  uint64_t magic;
} block_header_t;

#define BLOCK_MAGIC 0x706f6d70626c6b21ull

static omp_allocator_handle_t default_allocator = omp_default_mem_alloc;

static allocator_t *custom_of(omp_allocator_handle_t handle) {
  if (handle <= PREDEFINED_MAX)
    return NULL;
  allocator_t *a = (allocator_t *)handle;
  return a->magic == ALLOCATOR_MAGIC ? a : NULL;
}

static int is_power_of_two(size_t x) {
  return x != 0 && (x & (x - 1)) == 0;
}

STUB_API omp_allocator_handle_t
omp_init_allocator(omp_memspace_handle_t memspace, int ntraits,
                   const omp_alloctrait_t traits[]) {
  if ((uintptr_t)memspace > (uintptr_t)omp_low_lat_mem_space)
    return omp_null_allocator;
  if (ntraits < 0 || (ntraits > 0 && traits == NULL))
    return omp_null_allocator;

  allocator_t tmp = {.magic = ALLOCATOR_MAGIC,
                     .memspace = memspace,
                     .fallback = omp_atv_default_mem_fb};
  for (int i = 0; i < ntraits; i++) {
    omp_uintptr_t v = traits[i].value;
    switch ((int)traits[i].key) {
    case omp_atk_sync_hint:
      if (v != omp_atv_default && v != omp_atv_contended &&
          v != omp_atv_uncontended && v != omp_atv_serialized &&
          v != omp_atv_private)
        return omp_null_allocator;
      break;
    case omp_atk_alignment:
      if (v == omp_atv_default)
        break;
      if (!is_power_of_two((size_t)v))
        return omp_null_allocator;
      tmp.alignment = (size_t)v;
      break;
    case omp_atk_access:
      if (v != omp_atv_default && v != omp_atv_all && v != omp_atv_cgroup &&
          v != omp_atv_pteam && v != omp_atv_thread)
        return omp_null_allocator;
      break;
    case omp_atk_pool_size:
      tmp.pool_size = v == omp_atv_default ? 0 : (size_t)v;
      break;
    case omp_atk_fallback:
      if (v == omp_atv_default)
        v = omp_atv_default_mem_fb;
      if (v != omp_atv_default_mem_fb && v != omp_atv_null_fb &&
          v != omp_atv_abort_fb && v != omp_atv_allocator_fb)
        return omp_null_allocator;
      tmp.fallback = v;
      break;
    case omp_atk_fb_data:
      tmp.fb_data = (omp_allocator_handle_t)v;
      break;
    case omp_atk_pinned:
      if (v != omp_atv_default && v != omp_atv_true && v != omp_atv_false)
        return omp_null_allocator;
      break;
    case omp_atk_partition:
      if (v != omp_atv_default && v != omp_atv_environment &&
          v != omp_atv_nearest && v != omp_atv_blocked &&
          v != omp_atv_interleaved)
        return omp_null_allocator;
      break;
    default:
      return omp_null_allocator;
    }
  }
  if (tmp.fallback == omp_atv_allocator_fb && tmp.fb_data == omp_null_allocator)
    return omp_null_allocator;

  allocator_t *a = malloc(sizeof *a);
  if (a == NULL)
    return omp_null_allocator;
  *a = tmp;
  atomic_init(&a->used, 0);
  return (omp_allocator_handle_t)a;
}

STUB_API void omp_destroy_allocator(omp_allocator_handle_t allocator) {
  allocator_t *a = custom_of(allocator);
  if (a == NULL)
    return;
  a->magic = 0;
  free(a);
}

STUB_API void omp_set_default_allocator(omp_allocator_handle_t allocator) {
  default_allocator =
      allocator == omp_null_allocator ? omp_default_mem_alloc : allocator;
}

STUB_API omp_allocator_handle_t omp_get_default_allocator(void) {
  return default_allocator;
}

/* Allocates size bytes aligned to at least align with allocator (resolved,
   never omp_null_allocator); applies the allocator's fallback on failure. */
static void *allocate(size_t align, size_t size, omp_allocator_handle_t handle,
                      int zero, int depth) {
  allocator_t *a = custom_of(handle);
  if (a != NULL && a->alignment > align)
    align = a->alignment;
  if (align < _Alignof(max_align_t))
    align = _Alignof(max_align_t);

  /* The header sits in the pad below the returned pointer. */
  size_t pad = (sizeof(block_header_t) + align - 1) / align * align;
  void *base = NULL;
  int over_pool = 0;
  if (size <= SIZE_MAX - pad - align) {
    if (a != NULL && a->pool_size != 0) {
      size_t now = atomic_fetch_add(&a->used, size);
      if (now + size > a->pool_size || now + size < now) {
        atomic_fetch_sub(&a->used, size);
        over_pool = 1;
      }
    }
    if (!over_pool) {
      size_t total = (pad + size + align - 1) / align * align;
      base = aligned_alloc(align, total);
      if (base == NULL && a != NULL && a->pool_size != 0)
        atomic_fetch_sub(&a->used, size);
    }
  }

  if (base == NULL) {
    uintptr_t fb = a != NULL ? a->fallback : omp_atv_default_mem_fb;
    if (depth > 8)
      return NULL;
    switch (fb) {
    case omp_atv_null_fb:
      return NULL;
    case omp_atv_abort_fb:
      fprintf(stderr, "pompt-stubs: allocation of %zu bytes failed\n", size);
      abort();
    case omp_atv_allocator_fb:
      return allocate(align, size, a->fb_data, zero, depth + 1);
    default: /* default_mem_fb */
      if (a == NULL)
        return NULL; /* the default memory itself failed */
      return allocate(align, size, omp_default_mem_alloc, zero, depth + 1);
    }
  }

  char *user = (char *)base + pad;
  block_header_t *h = (block_header_t *)(void *)(user - sizeof *h);
  h->base = base;
  h->size = size;
  h->allocator = handle;
  h->magic = BLOCK_MAGIC;
  if (zero)
    memset(user, 0, size);
  return user;
}

static omp_allocator_handle_t resolve(omp_allocator_handle_t allocator) {
  return allocator == omp_null_allocator ? default_allocator : allocator;
}

STUB_API void *omp_alloc(size_t size, omp_allocator_handle_t allocator) {
  if (size == 0)
    return NULL;
  return allocate(0, size, resolve(allocator), 0, 0);
}

STUB_API void *omp_aligned_alloc(size_t alignment, size_t size,
                                 omp_allocator_handle_t allocator) {
  if (size == 0 || !is_power_of_two(alignment))
    return NULL;
  return allocate(alignment, size, resolve(allocator), 0, 0);
}

STUB_API void *omp_calloc(size_t nmemb, size_t size,
                          omp_allocator_handle_t allocator) {
  if (nmemb == 0 || size == 0 || nmemb > SIZE_MAX / size)
    return NULL;
  return allocate(0, nmemb * size, resolve(allocator), 1, 0);
}

STUB_API void *omp_aligned_calloc(size_t alignment, size_t nmemb, size_t size,
                                  omp_allocator_handle_t allocator) {
  if (nmemb == 0 || size == 0 || nmemb > SIZE_MAX / size ||
      !is_power_of_two(alignment))
    return NULL;
  return allocate(alignment, nmemb * size, resolve(allocator), 1, 0);
}

static block_header_t *header_of(void *ptr) {
  block_header_t *h = (block_header_t *)(void *)((char *)ptr - sizeof *h);
  if (h->magic != BLOCK_MAGIC) {
    fprintf(stderr, "pompt-stubs: omp_free/omp_realloc of a pointer "
                    "that omp_alloc did not return\n");
    abort();
  }
  return h;
}

STUB_API void omp_free(void *ptr, omp_allocator_handle_t allocator) {
  (void)allocator; /* the block knows its allocator */
  if (ptr == NULL)
    return;
  block_header_t *h = header_of(ptr);
  allocator_t *a = custom_of(h->allocator);
  if (a != NULL && a->pool_size != 0)
    atomic_fetch_sub(&a->used, h->size);
  h->magic = 0;
  free(h->base);
}

STUB_API void *omp_realloc(void *ptr, size_t size,
                           omp_allocator_handle_t allocator,
                           omp_allocator_handle_t free_allocator) {
  if (ptr == NULL)
    return omp_alloc(size, allocator);
  block_header_t *h = header_of(ptr);
  if (size == 0) {
    omp_free(ptr, free_allocator);
    return NULL;
  }
  /* A null allocator means the one ptr came from. */
  omp_allocator_handle_t target = allocator;
  if (target == omp_null_allocator)
    target =
        free_allocator != omp_null_allocator ? free_allocator : h->allocator;
  void *fresh = allocate(0, size, target, 0, 0);
  if (fresh == NULL)
    return NULL; /* ptr stays valid */
  memcpy(fresh, ptr, h->size < size ? h->size : size);
  omp_free(ptr, free_allocator);
  return fresh;
}

/* ======================================================================
 * Device memory routines: the host is the only device.
 * ==================================================================== */

static int is_host(int device_num) {
  return device_num == 0 || device_num == POMPT_INITIAL_DEVICE;
}

STUB_API void *omp_target_alloc(size_t size, int device_num) {
  if (!is_host(device_num) || size == 0)
    return NULL;
  return malloc(size);
}

STUB_API void omp_target_free(void *device_ptr, int device_num) {
  if (device_ptr == NULL || !is_host(device_num))
    return;
  free(device_ptr);
}

STUB_API int omp_target_is_present(const void *ptr, int device_num) {
  (void)ptr;
  return is_host(device_num);
}

STUB_API int omp_target_is_accessible(const void *ptr, size_t size,
                                      int device_num) {
  (void)ptr;
  (void)size;
  return is_host(device_num);
}

STUB_API void *omp_get_mapped_ptr(const void *ptr, int device_num) {
  return is_host(device_num) ? (void *)(uintptr_t)ptr : NULL;
}

STUB_API int omp_target_memcpy(void *dst, const void *src, size_t length,
                               size_t dst_offset, size_t src_offset,
                               int dst_device_num, int src_device_num) {
  if (!is_host(dst_device_num) || !is_host(src_device_num))
    return EINVAL;
  if (length == 0)
    return 0;
  if (dst == NULL || src == NULL)
    return EINVAL;
  memmove((char *)dst + dst_offset, (const char *)src + src_offset, length);
  return 0;
}

/* Copies a num_dims-dimensional sub-volume; strides are products of the
   dimensions below. */
static void copy_rect(char *dst, const char *src, size_t element_size,
                      int num_dims, const size_t *volume,
                      const size_t *dst_offsets, const size_t *src_offsets,
                      const size_t *dst_dimensions,
                      const size_t *src_dimensions) {
  if (num_dims == 1) {
    memmove(dst + dst_offsets[0] * element_size,
            src + src_offsets[0] * element_size, volume[0] * element_size);
    return;
  }
  size_t dst_stride = element_size, src_stride = element_size;
  for (int d = 1; d < num_dims; d++) {
    dst_stride *= dst_dimensions[d];
    src_stride *= src_dimensions[d];
  }
  for (size_t i = 0; i < volume[0]; i++)
    copy_rect(dst + (dst_offsets[0] + i) * dst_stride,
              src + (src_offsets[0] + i) * src_stride, element_size,
              num_dims - 1, volume + 1, dst_offsets + 1, src_offsets + 1,
              dst_dimensions + 1, src_dimensions + 1);
}

STUB_API int omp_target_memcpy_rect(
    void *dst, const void *src, size_t element_size, int num_dims,
    const size_t *volume, const size_t *dst_offsets, const size_t *src_offsets,
    const size_t *dst_dimensions, const size_t *src_dimensions,
    int dst_device_num, int src_device_num) {
  if (dst == NULL && src == NULL)
    return INT_MAX; /* the number of dimensions supported */
  if (!is_host(dst_device_num) || !is_host(src_device_num))
    return EINVAL;
  if (dst == NULL || src == NULL || num_dims < 1 || volume == NULL ||
      dst_offsets == NULL || src_offsets == NULL || dst_dimensions == NULL ||
      src_dimensions == NULL)
    return EINVAL;
  for (int d = 0; d < num_dims; d++)
    if (volume[d] == 0)
      return 0;
  copy_rect(dst, src, element_size, num_dims, volume, dst_offsets, src_offsets,
            dst_dimensions, src_dimensions);
  return 0;
}

STUB_API int omp_target_associate_ptr(const void *host_ptr,
                                      const void *device_ptr, size_t size,
                                      size_t device_offset, int device_num) {
  (void)host_ptr;
  (void)device_ptr;
  (void)size;
  (void)device_offset;
  (void)device_num;
  return EINVAL; /* there is no device whose memory could be associated */
}

STUB_API int omp_target_disassociate_ptr(const void *ptr, int device_num) {
  (void)ptr;
  (void)device_num;
  return EINVAL;
}
