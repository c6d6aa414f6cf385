/*
 * prof_model.h - the profile pompt-prof writes: regions keyed by construct
 * and source location along the call path of enclosing constructs, with
 * per-thread measurements.
 *
 * The OMPT tool (libpompt_prof.so) fills a profile from what it recorded;
 * `pompt-prof merge` fills one from the JSON files of several runs (MPI
 * ranks).  Both then use the same derived statistics and writers, so a
 * merged report reads like a single one.
 *
 * A "unit" is one thread of one process (rank).  Every measurement of a
 * region is kept per unit; totals, per-thread min/mean/max, imbalance and
 * blame are derived from them by prof_compute().
 */
#ifndef POMPT_PROF_MODEL_H
#define POMPT_PROF_MODEL_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define PROF_SCHEMA "pompt-prof/1"
#define PROF_MAX_EVENTS 8

/* Region kinds, as named in every output. */
enum prof_kind {
  PK_PROGRAM = 0, /* the initial thread's whole run */
  PK_THREAD,      /* a worker thread outside any construct */
  PK_PARALLEL,
  PK_LOOP,
  PK_SECTIONS,
  PK_SINGLE,
  PK_WORKSHARE,
  PK_DISTRIBUTE,
  PK_TASKLOOP,
  PK_SCOPE,
  PK_MASKED,
  PK_TASK,     /* explicit task: creation and execution */
  PK_CRITICAL, /* from acquire to release */
  PK_ORDERED,
  PK_LOCK, /* lock held: acquired to released */
  PK_ATOMIC,
  PK_TASKGROUP, /* the whole taskgroup region */
  /* waits: from here on, the exclusive time of a region is waiting */
  PK_BARRIER,          /* explicit barrier */
  PK_BARRIER_IMPLICIT, /* implicit barrier of a worksharing construct */
  PK_BARRIER_PARALLEL, /* implicit barrier at the end of a parallel region */
  PK_BARRIER_RUNTIME,  /* barrier the runtime added (e.g. for a reduction) */
  PK_BARRIER_TEAMS,
  PK_TASKWAIT,
  PK_TASKGROUP_WAIT,
  PK_REDUCTION,
  PK_WAIT_CRITICAL,
  PK_WAIT_ORDERED,
  PK_WAIT_LOCK,
  PK_WAIT_ATOMIC,
  /* point events: visits only */
  PK_FLUSH,
  PK_CANCEL,
  PK_COUNT
};

#define PK_FIRST_WAIT PK_BARRIER
#define PK_FIRST_POINT PK_FLUSH

const char *prof_kind_name(int kind);
int prof_kind_from_name(const char *name); /* -1 when unknown */
static inline int prof_kind_is_wait(int k) {
  return k >= PK_FIRST_WAIT && k < PK_FIRST_POINT;
}

/* One region of the profile. */
typedef struct prof_region {
  int id;     /* index in prof_profile.regions */
  int parent; /* -1 for a root */
  int depth;
  int kind;
  char *sub;       /* "static", "dynamic", ... or "" */
  char *file;      /* source file, "" when unknown */
  int line;        /* 0 when unknown */
  char *func;      /* enclosing function, "" when unknown */
  char *module;    /* binary or library, "" when unknown */
  uint64_t offset; /* code address relative to the module */
  int blame;       /* region a wait is attributed to, -1: the parent */
  char *path;      /* merge key: the path of kinds and locations */

  /* measured, per unit [nunits] */
  uint64_t *visits;
  uint64_t *created; /* tasks created, parallel regions forked */
  uint64_t *time;    /* inclusive, ns */
  uint64_t *excl;    /* exclusive of nested regions on the same thread, ns */
  uint64_t *papi[PROF_MAX_EVENTS];
  uint64_t count; /* iterations / sections announced by the runtime */

  /* derived by prof_compute */
  uint64_t tot_visits, tot_created, tot_time, tot_excl;
  uint64_t wait;   /* waiting inside this region (wait kinds: exclusive time) */
  uint64_t caused; /* waiting attributed to this region (blame) */
  int nthreads;    /* units with visits */
  double tmin, tmean, tmax, imbalance; /* per thread, ns; imbalance in % */
  uint64_t tot_papi[PROF_MAX_EVENTS];
  /* across ranks (time summed over each rank's threads) */
  double rmin, rmean, rmax, rimbalance;
} prof_region;

/* One unit: a thread of a rank. */
typedef struct prof_unit {
  int rank;
  int thread;
  char *type;    /* initial, worker, other */
  uint64_t time; /* the thread's lifetime, ns */
  uint64_t busy; /* time inside constructs other than waits */
  uint64_t waiting;
} prof_unit;

/* Waiting attributed across regions (lock and critical holders). */
typedef struct prof_blame {
  int wait;  /* the waiting region */
  int cause; /* the region the holder was in */
  uint64_t ns;
} prof_blame;

/* One slice of the timeline: a region instance on a unit. */
typedef struct prof_slice {
  int region;
  int depth;
  uint64_t t0, t1; /* ns since the profile's start */
} prof_slice;

/* A unit's timeline: its slices in start order, in parts of any length
   (the tool makes them where its callbacks recorded them, chunk by chunk:
   a copy would take fresh memory, a page fault per 170 slices). */
typedef struct prof_timeline {
  int n; /* slices, all parts together */
  int nparts;
  prof_slice **part; /* [nparts] */
  int *len;          /* [nparts] */
  void *owned;       /* freed with the profile (the parts are not) */
  uint64_t end;      /* the latest end of a slice */
} prof_timeline;

typedef struct prof_profile {
  /* what ran */
  char *app;
  char *cmdline;
  char *host;
  char *runtime;
  char *start;   /* ISO 8601 */
  long pid;      /* -1 for a merged profile */
  int rank;      /* -1 outside MPI */
  int nranks;    /* ranks merged here (1 for a single run) */
  double wall;   /* seconds */
  char *symbols; /* how locations were found: "libdw", "pompt_region_info",
                    "none" */
  char *clock;   /* the callbacks' timestamps: "tsc", "monotonic" */

  int nunits;
  prof_unit *units;
  int nregions, cap_regions;
  prof_region *regions;
  int nblames, cap_blames;
  prof_blame *blames;

  int nevents;
  char *events[PROF_MAX_EVENTS];
  /* 1: a process-wide event (software-defined, PAPI SDE): counted on the
     initial thread only, everything the process counted while that thread
     was in the region; 0: counted per thread */
  int event_process[PROF_MAX_EVENTS];

  int nnotes;
  char **notes;

  /* timeline, per unit; absent (NULL) in merged profiles */
  prof_timeline *timeline;
} prof_profile;

/* ---- prof_model.c ------------------------------------------------------ */

void *prof_xcalloc(size_t n, size_t size); /* never NULL: aborts */
char *prof_xstrdup(const char *s);
/* Maps in the pages of memory about to be written whole (a timeline of
   hundreds of kilobytes), in one system call: a first touch of each page
   one by one costs a fault each, about 1 us on a virtual machine, 2-3
   times what the kernel takes to map them in a batch.  A hint: nothing
   happens where the kernel cannot (before Linux 5.14). */
void prof_prefault(void *mem, size_t len);
char *prof_xasprintf(const char *fmt, ...)
    __attribute__((format(printf, 1, 2)));

prof_profile *prof_new(int nunits);
void prof_free(prof_profile *p);
/* Appends a region with zeroed per-unit arrays; returns its index.  The
   strings are copied. */
int prof_add_region(prof_profile *p, int parent, int kind, const char *sub,
                    const char *file, int line, const char *func,
                    const char *module, uint64_t offset);
void prof_add_blame(prof_profile *p, int wait, int cause, uint64_t ns);
void prof_add_note(prof_profile *p, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* Region label for people: "loop(static)", "barrier (implicit)". */
void prof_label(const prof_region *r, char *buf, size_t size);
/* "heat.c:94", "libfoo.so+0x1234" or "?" */
void prof_location(const prof_region *r, char *buf, size_t size);
/* Fills paths, depths, totals, per-thread statistics and blame. */
void prof_compute(prof_profile *p);

/* ---- prof_write.c ------------------------------------------------------ */

typedef struct prof_report_opts {
  int top; /* rows of the flat table; 0 = all */
} prof_report_opts;

void prof_write_text(FILE *f, const prof_profile *p, const prof_report_opts *o);
void prof_write_csv(FILE *f, const prof_profile *p);
void prof_write_json(FILE *f, const prof_profile *p);
/* -1 when writing failed (the slices go to the file's descriptor
   directly, past the stream's error flag) */
int prof_write_trace(FILE *f, const prof_profile *p);
void prof_write_html(FILE *f, const prof_profile *p, const prof_report_opts *o);

/* Formats a duration in ns with a unit: "12.3 ms". */
void prof_fmt_time(double ns, char *buf, size_t size);

/* ---- prof_output.c ----------------------------------------------------- */

/* Output formats, a bit set. */
enum {
  PF_TEXT = 1,
  PF_JSON = 2,
  PF_CSV = 4,
  PF_TRACE = 8,
  PF_HTML = 16,
  PF_ALL = 31
};
/* Parses "text,json,..." / "all" / "none"; -1 on a bad word (*bad set). */
int prof_parse_formats(const char *s, const char **bad);

/* Writes the chosen formats of p into dir as <base>.<ext>, never
   overwriting a file: when <base>.txt or another of the set exists, a
   number is appended to base.  Messages go to err (prefixed "pompt-prof: ").
   stderr_report: also print the text report to err.  Returns 0 when all
   files were written. */
int prof_write_all(const prof_profile *p, const char *dir, const char *base,
                   int formats, const prof_report_opts *o, FILE *err,
                   int stderr_report);

/* ---- prof_phase.c ------------------------------------------------------ */

/* POMPT_PROF_TIMES=1: prints the wall-clock and CPU time since the previous
   call under the name of the phase that just ended (NULL: only starts the
   clock).  Nothing otherwise. */
void prof_phase(const char *what);
int prof_phase_on(void);

/* ---- prof_json.c (merge) ----------------------------------------------- */

/* Reads a profile written by prof_write_json; NULL with a message in err. */
prof_profile *prof_read_json(const char *path, char *err, size_t errsize);
/* Merges profiles (the ranks of one MPI run) into a new one. */
prof_profile *prof_merge(prof_profile **in, int n);

#endif
