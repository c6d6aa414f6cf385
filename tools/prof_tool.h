/*
 * prof_tool.h - what the parts of libpompt_prof.so share: the per-thread
 * records the OMPT callbacks fill (prof_tool.c), their collection into a
 * profile at the end (prof_collect.c), source locations (prof_symbols.c)
 * and hardware counters (prof_papi.c).
 *
 * Each thread owns its record and is the only one to write it while it
 * runs: no locks on the callback path.  Records are never freed and their
 * nodes and trace chunks never move, so the finalizing thread can read
 * them while other threads are still alive.
 */
#ifndef POMPT_PROF_TOOL_H
#define POMPT_PROF_TOOL_H

#include <omp-tools.h>

#include <stdatomic.h>
#include <stdint.h>

#include "prof_model.h"

#define PROF_MAX_DEPTH 128  /* deeper nesting is counted, not recorded */
#define PROF_NODE_CHUNK 256 /* nodes per allocation */
#define PROF_TRACE_CHUNK 4096
#define PROF_BLAME_SLOTS 64 /* (wait, holder) pairs per thread */
#define PROF_MAX_HELD 16    /* locks held at once per thread */

/* Single constructs: which thread executed the block. */
enum { PROF_SINGLE_EXECUTOR = 1, PROF_SINGLE_OTHER = 2 };
/* Loop schedules, from the work type. */
enum {
  PROF_SCHED_NONE = 0,
  PROF_SCHED_STATIC,
  PROF_SCHED_DYNAMIC,
  PROF_SCHED_GUIDED,
  PROF_SCHED_OTHER
};

/* A node of a thread's tree of constructs: one construct (kind, code
   address) reached along one path. */
typedef struct prof_node {
  struct prof_node *lparent; /* logical parent; another thread's node for
                                a worker's parallel region or a task */
  struct prof_node *blame;   /* the construct an implicit barrier waits for */
  const void *codeptr;
  const void *end_codeptr; /* worksharing: the address its end reported */
  const void *key;         /* set at collection: the address it is known
                              by (codeptr, or another node's for the same
                              end address when the runtime gave none) */
  struct prof_node *hnext; /* hash chain */
  struct prof_thread *owner;
  uint32_t id; /* index in the owner's nodes */
  uint16_t kind;
  uint16_t sub;
  uint64_t visits;
  uint64_t created;
  uint64_t count;
  uint64_t time;              /* inclusive ns */
  uint64_t child_time;        /* ns in nested regions of the same thread */
  _Atomic uint64_t join_time; /* parallel: the primary's last join */
  int gid;                    /* global region, set at collection */
  uint64_t papi[PROF_MAX_EVENTS];
} prof_node;

typedef struct prof_frame {
  prof_node *node;
  uint64_t t0;
  uint64_t child;  /* ns spent in frames above this one */
  const void *ref; /* task: its ompt_data_t; parallel (worker): the
                      primary's node */
  uint64_t wait_id;
  const void *holder; /* mutex wait: the holder's code address */
  int holder_kind;    /* ... and the kind of its region */
  int worker;         /* a worker's implicit task */
  long long papi0[PROF_MAX_EVENTS];
} prof_frame;

typedef struct prof_node_chunk {
  struct prof_node_chunk *next;
  prof_node n[PROF_NODE_CHUNK];
} prof_node_chunk;

typedef struct prof_trace_rec {
  uint32_t node;
  uint16_t depth;
  uint16_t flags;
  uint64_t t0, t1;
} prof_trace_rec;

typedef struct prof_trace_chunk {
  struct prof_trace_chunk *next;
  prof_trace_rec r[PROF_TRACE_CHUNK];
} prof_trace_chunk;

typedef struct prof_blame_slot {
  prof_node *wait;
  const void *holder;
  uint16_t holder_kind;
  uint64_t ns;
} prof_blame_slot;

typedef struct prof_held {
  uint64_t wait_id;
  prof_node *node;
  uint64_t t0;
} prof_held;

typedef struct prof_thread {
  struct prof_thread *next_all;
  int index;
  int type; /* ompt_thread_t */
  uint64_t t_begin, t_end;
  _Atomic int ended;

  prof_node *root;
  prof_node_chunk *chunk_first, *chunk_last;
  uint32_t chunk_used;
  _Atomic uint32_t nnodes;
  prof_node **buckets;
  uint32_t nbuckets;

  prof_frame stack[PROF_MAX_DEPTH];
  _Atomic int depth;
  uint64_t overflow; /* pushes beyond PROF_MAX_DEPTH not yet popped */
  uint64_t overflow_total;

  prof_trace_chunk *trace_first, *trace_last;
  uint32_t trace_used;
  _Atomic uint64_t ntrace;
  uint64_t trace_dropped;

  prof_node *last_ws; /* worksharing construct just ended */

  prof_held held[PROF_MAX_HELD];
  int nheld;
  prof_blame_slot blame[PROF_BLAME_SLOTS];
  uint64_t blame_dropped;

  int papi_set;    /* PAPI event set of the per-thread events, -1 none */
  int papi_reader; /* this thread reads the process-wide events */
  int papi_ok;     /* either: the callbacks read counters */
} prof_thread;

/* Settings from the environment. */
typedef struct prof_config {
  char dir[1024];
  int formats;
  int top;
  int quiet;
  int trace;          /* record the timeline */
  uint64_t trace_max; /* slices per thread */
  char papi[512];     /* POMPT_PROF_PAPI */
} prof_config;

extern prof_config prof_cfg;
extern uint64_t prof_t_start;               /* a timestamp (prof_now) */
extern _Atomic(prof_thread *) prof_threads; /* every record */
extern char prof_runtime_version[256];

/* prof_clock.c: timestamps are TSC ticks where the kernel keeps time with
   the TSC, else CLOCK_MONOTONIC ns; differences become ns with prof_ns(),
   once prof_clock_end() has measured the factor at the end. */
extern int prof_clock_tsc;
extern double prof_ns_per_tick;
uint64_t prof_now(void);
void prof_clock_init(void);
void prof_clock_end(void);
static inline uint64_t prof_ns(uint64_t ticks) {
  return (uint64_t)((double)ticks * prof_ns_per_tick + 0.5);
}
/* The calling thread's record, NULL if it has none. */
prof_thread *prof_self(void);

/* prof_collect.c: builds the profile from every thread's record. */
prof_profile *prof_collect(uint64_t now);

/* prof_symbols.c */
typedef struct prof_loc {
  char *file;
  int line;
  char *func;
  char *module;
  uint64_t offset;
} prof_loc;
/* The implementation-specific region lookup of libpompt, when present:
   int pompt_region_info(const void *codeptr_ra, const char **ctc); */
typedef int (*prof_region_info_fn)(const void *codeptr_ra, const char **ctc);
extern prof_region_info_fn prof_region_info;
/* Resolves n code addresses (return addresses) into locations; returns a
   word describing the method used ("libdw", ...). Messages go to stderr. */
const char *prof_symbolize(const void *const *addrs, int n, prof_loc *out);
void prof_loc_free(prof_loc *l);

/* prof_elfsym.c: module, offset and function of a code address from the
   module's own .symtab (no libdw); lookups reuse the module last mapped. */
typedef struct prof_elfsym prof_elfsym;
prof_elfsym *prof_elfsym_new(void);
void prof_elfsym_free(prof_elfsym *e);
/* Fills l's module, offset and (if unset) function, the name made by
   clean(); 0 when the module cannot be read, has no .symtab or no sized
   symbol holds the address: libdw's to resolve. */
int prof_elfsym_lookup(prof_elfsym *e, uintptr_t a, prof_loc *l,
                       char *(*clean)(const char *));

/* prof_papi.c */
extern int prof_papi_n; /* events counted; 0: none */
extern char *prof_papi_names[PROF_MAX_EVENTS];
/* 1: a process-wide event (PAPI SDE and other non-CPU components), read by
   the thread that initialised the tool only */
extern int prof_papi_process[PROF_MAX_EVENTS];
extern char prof_papi_status[512];     /* for the notes */
void prof_papi_init(const char *spec); /* once, on the initial thread */
void prof_papi_thread_start(prof_thread *t);
/* The current values of the thread's events (-1: none, e.g. a software-
   defined event no library has registered) */
void prof_papi_read(prof_thread *t, long long *vals);
uint64_t prof_papi_delta(long long before, long long after);

/* prof_signal.c: a profile when a signal ends the program (SIGINT,
   SIGTERM, SIGHUP, SIGQUIT) or it crashes (a stack overflow included). */
extern _Atomic int prof_end_signal;    /* the signal, 0: none */
const char *prof_signal_name(int sig); /* "SIGTERM", ... */
void prof_signal_init(void (*write_profile)(void));
void prof_signal_after_fork(void);   /* in a forked child */
void prof_signal_child_helper(void); /* ... once it runs OpenMP again */
/* The calling thread's alternate signal stack (stack overflows): set up
   when it begins, taken down when it ends. */
void prof_signal_thread_begin(void);
void prof_signal_thread_end(void);

#endif
