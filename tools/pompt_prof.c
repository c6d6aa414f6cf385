/*
 * pompt_prof.c - the pompt-prof command.
 *
 *   pompt-prof [options] [--] program [args...]
 *       runs the program with the profiler (libpompt_prof.so) as its OMPT
 *       tool; options become POMPT_PROF_* environment variables; the exit
 *       status is the program's (the program replaces this process).
 *   pompt-prof merge [options] profile.json...
 *       merges the profiles of several processes (MPI ranks) into one
 *       report.
 */
#define _GNU_SOURCE

#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "pompt_prof_config.h"
#include "prof_model.h"

static void usage(FILE *f) {
  fputs(
      "usage: pompt-prof [options] [--] program [args...]\n"
      "       pompt-prof merge [options] profile.json...\n"
      "\n"
      "Runs an OpenMP program under pompt-prof, the OMPT profiler: programs\n"
      "built with pomp-cc (libpompt) or with a native OMPT runtime (LLVM "
      "libomp).\n"
      "At exit the profile is printed on stderr and written as\n"
      "DIR/pompt-prof.<program>[.rank<r>].<pid>.{txt,json,csv,trace.json,html}"
      ".\n"
      "\n"
      "options (environment variable in brackets):\n"
      "  -o, --dir DIR        where to write the files [POMPT_PROF_DIR] (.)\n"
      "  -f, --format LIST    text,json,csv,trace,html, all or none\n"
      "                       [POMPT_PROF_FORMAT] (all)\n"
      "  -n, --top N          rows of the report's tables, 0 = all "
      "[POMPT_PROF_TOP] (20)\n"
      "  -e, --papi EV,...    PAPI events to count per region and thread\n"
      "                       [POMPT_PROF_PAPI], e.g. "
      "PAPI_TOT_CYC,PAPI_TOT_INS\n"
      "  -q, --quiet          no report on stderr [POMPT_PROF_QUIET=1]\n"
      "      --no-trace       record no timeline [POMPT_PROF_TRACE=0]\n"
      "      --trace-max N    timeline slices kept per thread "
      "[POMPT_PROF_TRACE_MAX] (200000)\n"
      "      --tool PATH      the profiler library [POMPT_PROF_LIB]\n"
      "  -h, --help           this text\n"
      "  -V, --version        the version\n"
      "\n"
      "merge: reads the JSON profiles of one run's processes, prints the\n"
      "merged report on stdout and writes "
      "DIR/pompt-prof.<program>.merged.{txt,json,csv,html}.\n",
      f);
}

static int is_file(const char *path) {
  struct stat st;
  return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

/* The profiler library: --tool / POMPT_PROF_LIB, else beside this
   program (the build tree), else in the installed library folder. */
static int find_tool(const char *given, char *out, size_t size) {
  if (given != NULL && given[0] != '\0') {
    if (realpath(given, out) != NULL && is_file(out))
      return 1;
    fprintf(stderr, "pompt-prof: no profiler library at '%s'\n", given);
    return 0;
  }
  char exe[PATH_MAX];
  ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
  if (n > 0) {
    exe[n] = '\0';
    char *slash = strrchr(exe, '/');
    if (slash != NULL) {
      *slash = '\0';
      char cand[PATH_MAX + 64];
      snprintf(cand, sizeof cand, "%s/libpompt_prof.so", exe);
      if (is_file(cand) && realpath(cand, out) != NULL)
        return 1;
      snprintf(cand, sizeof cand, "%s/../%s/libpompt_prof.so", exe,
               POMPT_PROF_TOOLDIR_REL);
      if (is_file(cand) && realpath(cand, out) != NULL)
        return 1;
    }
  }
  if (is_file(POMPT_PROF_TOOLDIR_ABS "/libpompt_prof.so")) {
    snprintf(out, size, "%s", POMPT_PROF_TOOLDIR_ABS "/libpompt_prof.so");
    return 1;
  }
  fprintf(stderr,
          "pompt-prof: libpompt_prof.so not found beside %s nor in %s\n",
          n > 0 ? exe : "pompt-prof", POMPT_PROF_TOOLDIR_ABS);
  return 0;
}

static int number(const char *opt, const char *s, long *out) {
  char *end;
  errno = 0;
  long v = strtol(s, &end, 10);
  if (errno != 0 || *end != '\0' || v < 0) {
    fprintf(stderr, "pompt-prof: %s wants a number, not '%s'\n", opt, s);
    return 0;
  }
  *out = v;
  return 1;
}

enum { OPT_NO_TRACE = 256, OPT_TRACE_MAX, OPT_TOOL };

static const struct option long_opts[] = {
    {"dir", required_argument, NULL, 'o'},
    {"format", required_argument, NULL, 'f'},
    {"top", required_argument, NULL, 'n'},
    {"papi", required_argument, NULL, 'e'},
    {"quiet", no_argument, NULL, 'q'},
    {"no-trace", no_argument, NULL, OPT_NO_TRACE},
    {"trace-max", required_argument, NULL, OPT_TRACE_MAX},
    {"tool", required_argument, NULL, OPT_TOOL},
    {"help", no_argument, NULL, 'h'},
    {"version", no_argument, NULL, 'V'},
    {NULL, 0, NULL, 0},
};

typedef struct opts {
  const char *dir, *format, *papi, *tool;
  long top, trace_max;
  int quiet, no_trace, have_top, have_trace_max;
} opts;

/* Parses options up to the first operand; returns its index, -1 to exit
   with status 2, -2 to exit 0. */
static int parse(int argc, char **argv, opts *o) {
  int c;
  optind = 1;
  while ((c = getopt_long(argc, argv, "+o:f:n:e:qhV", long_opts, NULL)) != -1) {
    switch (c) {
    case 'o':
      o->dir = optarg;
      break;
    case 'f': {
      const char *bad = NULL;
      if (prof_parse_formats(optarg, &bad) < 0) {
        fprintf(stderr,
                "pompt-prof: unknown format '%s' (text, json, csv, "
                "trace, html, all, none)\n",
                bad ? bad : optarg);
        return -1;
      }
      o->format = optarg;
      break;
    }
    case 'n':
      if (!number("--top", optarg, &o->top))
        return -1;
      o->have_top = 1;
      break;
    case 'e':
      o->papi = optarg;
      break;
    case 'q':
      o->quiet = 1;
      break;
    case OPT_NO_TRACE:
      o->no_trace = 1;
      break;
    case OPT_TRACE_MAX:
      if (!number("--trace-max", optarg, &o->trace_max))
        return -1;
      o->have_trace_max = 1;
      break;
    case OPT_TOOL:
      o->tool = optarg;
      break;
    case 'h':
      usage(stdout);
      return -2;
    case 'V':
      printf("pompt-prof %s\n", POMPT_PROF_VERSION);
      return -2;
    default:
      usage(stderr);
      return -1;
    }
  }
  return optind;
}

static int merge_main(int argc, char **argv) {
  opts o = {0};
  int first = parse(argc, argv, &o);
  if (first == -2)
    return 0;
  if (first < 0)
    return 2;
  if (first >= argc) {
    fputs("pompt-prof merge: no profiles given (pompt-prof.*.json files)\n",
          stderr);
    return 2;
  }
  int n = 0;
  prof_profile **in = calloc((size_t)(argc - first), sizeof *in);
  if (in == NULL)
    return 1;
  for (int i = first; i < argc; i++) {
    char err[512];
    prof_profile *p = prof_read_json(argv[i], err, sizeof err);
    if (p == NULL) {
      fprintf(stderr, "pompt-prof merge: %s\n", err);
      continue;
    }
    in[n++] = p;
  }
  if (n == 0) {
    free(in);
    return 1;
  }
  prof_profile *m = prof_merge(in, n);
  int formats = PF_ALL;
  if (o.format != NULL)
    formats = prof_parse_formats(o.format, NULL);
  prof_report_opts ro = {.top = o.have_top ? (int)o.top : 20};
  if (!o.quiet)
    prof_write_text(stdout, m, &ro);
  fflush(stdout);
  char base[512];
  snprintf(base, sizeof base, "pompt-prof.%s.merged",
           m->app[0] ? m->app : "app");
  int rc = prof_write_all(m, o.dir ? o.dir : ".", base, formats & ~PF_TRACE,
                          &ro, stderr, 0);
  prof_free(m);
  for (int i = 0; i < n; i++)
    prof_free(in[i]);
  free(in);
  return rc == 0 ? 0 : 1;
}

int main(int argc, char **argv) {
  if (argc > 1 && strcmp(argv[1], "merge") == 0)
    return merge_main(argc - 1, argv + 1);
  opts o = {0};
  int first = parse(argc, argv, &o);
  if (first == -2)
    return 0;
  if (first < 0)
    return 2;
  if (first >= argc) {
    usage(stderr);
    return 2;
  }
  char num[32];
  if (o.dir)
    setenv("POMPT_PROF_DIR", o.dir, 1);
  if (o.format)
    setenv("POMPT_PROF_FORMAT", o.format, 1);
  if (o.have_top) {
    snprintf(num, sizeof num, "%ld", o.top);
    setenv("POMPT_PROF_TOP", num, 1);
  }
  if (o.papi)
    setenv("POMPT_PROF_PAPI", o.papi, 1);
  if (o.quiet)
    setenv("POMPT_PROF_QUIET", "1", 1);
  if (o.no_trace)
    setenv("POMPT_PROF_TRACE", "0", 1);
  if (o.have_trace_max) {
    snprintf(num, sizeof num, "%ld", o.trace_max);
    setenv("POMPT_PROF_TRACE_MAX", num, 1);
  }
  char tool[PATH_MAX];
  if (find_tool(o.tool ? o.tool : getenv("POMPT_PROF_LIB"), tool,
                sizeof tool)) {
    const char *prev = getenv("OMP_TOOL_LIBRARIES");
    if (prev != NULL && prev[0] != '\0' && strcmp(prev, tool) != 0)
      fprintf(stderr,
              "pompt-prof: OMP_TOOL_LIBRARIES was '%s'; using the "
              "profiler instead\n",
              prev);
    setenv("OMP_TOOL_LIBRARIES", tool, 1);
    const char *omp_tool = getenv("OMP_TOOL");
    if (omp_tool != NULL && strcmp(omp_tool, "disabled") == 0) {
      fputs("pompt-prof: OMP_TOOL=disabled would switch the profiler off; "
            "unsetting it\n",
            stderr);
      unsetenv("OMP_TOOL");
    }
  } else {
    fputs("pompt-prof: running the program without profiling\n", stderr);
  }
  execvp(argv[first], argv + first);
  fprintf(stderr, "pompt-prof: cannot run %s: %s\n", argv[first],
          strerror(errno));
  return errno == ENOENT ? 127 : 126;
}
