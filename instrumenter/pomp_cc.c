/*
 * pomp-cc -- compiler wrapper that builds OpenMP programs with POMP
 * instrumentation.
 *
 *   pomp-cc [--keep] [--show] [--verbose] <compiler> <compiler args...>
 *
 * For every C or C++ source on the command line it runs three steps
 * (doc/instrumentation.md):
 *
 *   1. <compiler> -E -D_POMP=... -include <pomp.h> <preprocessing flags>
 *        [dependency flags] -x c|c++ <src> -o <tmp>/<n>-<stem>.i
 *   2. pomp-instr <tmp>/<n>-<stem>.i -o <tmp>/<n>-<stem>.pomp.i --lang c|c++
 *        [--std=<std>]
 *   3. <compiler> <compile flags> -x cpp-output|c++-cpp-output
 *        <tmp>/<n>-<stem>.pomp.i -x none -c|-S -o <output>
 *
 * and when the command links, it hands the link line (sources replaced by
 * their objects) to pomp-link, which adds the handle-initialisation unit
 * and libpompt.  Other inputs (assembler, headers, Fortran, .i files) are
 * compiled unchanged; with -E, -M, -MM or -fsyntax-only, or without any
 * input, the compiler runs unchanged.
 *
 * Temporary files live in a directory made with mkdtemp() under $TMPDIR, one
 * per invocation, so parallel builds do not collide.  An output is written to
 * a temporary name beside it and renamed into place once complete.
 */
#define _POSIX_C_SOURCE 200809L

#include "driver_util.h"

#include "pompt_driver_config.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

/* The value of _POMP during preprocessing (POMP_API_VERSION in pomp.h). */
#define POMPT_POMP_VERSION "202611"

/* ---- Options of pomp-cc itself ------------------------------------------- */

static bool opt_keep, opt_show;

static void usage(FILE *f) {
  fprintf(f,
          "usage: pomp-cc [--keep] [--show] [--verbose] <compiler> [args...]\n"
          "\n"
          "Compiles and links C/C++ OpenMP programs with POMP instrumentation\n"
          "(pomp-instr) and the pompt monitoring library, which provides the\n"
          "OpenMP tools interface (OMPT).  Use it in place of the compiler:\n"
          "  pomp-cc gcc -fopenmp -O2 -c foo.c\n"
          "  pomp-cc gcc -fopenmp foo.o bar.o -o prog\n"
          "  ./configure CC=\"pomp-cc gcc\"\n"
          "\n"
          "Options (before the compiler):\n"
          "  --keep     keep the temporary files (also POMPT_KEEP=1)\n"
          "  --show     print the commands instead of running them\n"
          "  --verbose  print the commands as they run\n"
          "  --version  print the version of pompt\n"
          "  --help     print this help\n"
          "\n"
          "Environment: POMPT_INSTR, POMPT_LINK, POMPT_INCLUDE, POMPT_LIBDIR,\n"
          "POMPT_STUBS_LIBDIR override where the pieces of pompt are found;\n"
          "TMPDIR is where temporary files go.  See pomp-cc(1).\n");
}

/* ---- The classified command line ----------------------------------------- */

enum mode { MODE_LINK, MODE_C, MODE_S };

struct item {
  size_t first;   /* index of its first word in args */
  int nargs;      /* number of words */
  bool is_input;  /* an input file, else an option */
  struct du_opt opt;
  /* inputs */
  enum du_lang lang;
  const char *xlang; /* the -x value in force for it, or NULL */
  char *object;      /* what it was compiled to (link mode) */
  size_t number;     /* 1, 2, ... among the compiled inputs */
};

struct cmdline {
  const char *compiler;
  bool cxx_driver;
  struct du_argv args; /* user arguments, response files expanded */
  size_t *group;       /* for args: index of the top-level argument */
  char **user_argv;    /* the user arguments as given */
  size_t n_user;

  struct item *items;
  size_t n_items;

  enum mode mode;
  bool mode_e, passthru;
  const char *output; /* -o, or NULL */
  bool md, mmd;       /* -MD, -MMD */
  bool has_mf, has_mt;
  bool user_dump; /* -dumpdir/-dumpbase/-dumpbase-ext given */
  bool need_aux;  /* an option writes files named after the output */
  const char *std; /* last -std= value, or "" for -ansi, or NULL */
  size_t n_compile, n_instr, n_link_inputs;
};

static void classify(struct cmdline *c) {
  size_t cap = 16;
  c->items = du_xmalloc(cap * sizeof *c->items);
  c->n_items = 0;
  const char *xlang = NULL;
  enum du_lang xlang_kind = DU_LANG_LINK;
  bool mode_c = false, mode_s = false;

  for (size_t k = 0; k < c->args.n;) {
    if (c->n_items == cap) {
      cap *= 2;
      c->items = du_xrealloc(c->items, cap * sizeof *c->items);
    }
    struct item *it = &c->items[c->n_items++];
    memset(it, 0, sizeof *it);
    it->first = k;
    const char *a = c->args.v[k];
    if (a[0] == '-' && a[1]) {
      du_match_option(a, c->args.v[k + 1], &it->opt);
      it->nargs = it->opt.nargs;
      const char *v = it->opt.value;
      switch (it->opt.kind) {
      case DU_K_OUTPUT:
        c->output = v;
        break;
      case DU_K_LANG:
        if (v) {
          bool reset;
          xlang_kind = du_lang_from_x(v, &reset);
          xlang = reset ? NULL : v;
        }
        break;
      case DU_K_MODE_C:
        mode_c = true;
        break;
      case DU_K_MODE_S:
        mode_s = true;
        break;
      case DU_K_MODE_E:
        c->mode_e = true;
        break;
      case DU_K_PASSTHRU:
        c->passthru = true;
        break;
      case DU_K_DEP_MD:
        c->md = true;
        break;
      case DU_K_DEP_MMD:
        c->mmd = true;
        break;
      case DU_K_DEP_MF:
        c->has_mf = true;
        break;
      case DU_K_DEP_MT:
        c->has_mt = true;
        break;
      case DU_K_STD:
        c->std = v ? v : "";
        break;
      case DU_K_DUMP:
        c->user_dump = true;
        break;
      case DU_K_AUX:
        c->need_aux = true;
        break;
      default:
        break;
      }
      k += (size_t)it->nargs;
      continue;
    }
    it->is_input = true;
    it->nargs = 1;
    if (xlang) {
      it->lang = xlang_kind;
      it->xlang = xlang;
    } else if (strcmp(a, "-") == 0) {
      it->lang = DU_LANG_OTHER; /* the compiler insists on -x */
    } else {
      it->lang = du_lang_from_name(a, c->cxx_driver);
    }
    if (it->lang == DU_LANG_LINK) {
      c->n_link_inputs++;
    } else {
      it->number = ++c->n_compile;
      if (it->lang != DU_LANG_OTHER)
        c->n_instr++;
    }
    k++;
  }
  c->mode = mode_s ? MODE_S : mode_c ? MODE_C : MODE_LINK;
}

static const char *word(const struct cmdline *c, const struct item *it,
                        int i) {
  return c->args.v[it->first + (size_t)i];
}

/* Appends the option items whose `where` has any bit of mask. */
static void push_options(struct du_argv *cmd, const struct cmdline *c,
                         unsigned mask) {
  for (size_t i = 0; i < c->n_items; i++) {
    const struct item *it = &c->items[i];
    if (it->is_input || !(it->opt.where & mask))
      continue;
    for (int w = 0; w < it->nargs; w++)
      du_argv_push(cmd, word(c, it, w));
  }
}

/* The user's -MF/-MT/-MQ options. */
static void push_dep_options(struct du_argv *cmd, const struct cmdline *c) {
  for (size_t i = 0; i < c->n_items; i++) {
    const struct item *it = &c->items[i];
    if (it->is_input)
      continue;
    if (it->opt.kind == DU_K_DEP_MF || it->opt.kind == DU_K_DEP_MT ||
        it->opt.kind == DU_K_DEP_MD || it->opt.kind == DU_K_DEP_MMD)
      for (int w = 0; w < it->nargs; w++)
        du_argv_push(cmd, word(c, it, w));
  }
}

/* ---- Names of outputs ------------------------------------------------------
 * These follow what GCC (12) does for the same command line. */

/* Whether the user's -o names what this input is compiled to. */
static bool output_is_for_input(const struct cmdline *c) {
  return c->output && (c->mode != MODE_LINK || c->n_compile == 1);
}

/* Dependency defaults: -MF <file> and -MQ <target>. */
static void push_dep_defaults(struct du_argv *cmd, const struct cmdline *c,
                              const struct item *it) {
  if (!c->md && !c->mmd)
    return;
  const char *src = word(c, it, 0);
  char *stem = du_stem(src);
  if (!c->has_mf) {
    char *mf;
    if (output_is_for_input(c)) {
      char *base = du_strip_suffix(c->output);
      mf = du_xasprintf("%s.d", base);
      free(base);
    } else if (c->mode != MODE_LINK) {
      mf = du_xasprintf("%s.d", stem);
    } else {
      char *pfx = c->output ? du_strip_suffix(c->output) : du_xstrdup("a");
      mf = du_xasprintf("%s-%s.d", pfx, stem);
      free(pfx);
    }
    du_argv_push(cmd, "-MF");
    du_argv_push(cmd, mf);
    free(mf);
  }
  if (!c->has_mt) {
    du_argv_push(cmd, "-MQ");
    if (output_is_for_input(c))
      du_argv_push(cmd, c->output);
    else
      du_argv_pushf(cmd, "%s.o", stem);
  }
  free(stem);
}

/* -dumpdir/-dumpbase so that auxiliary outputs (coverage notes, split DWARF,
 * profile data, dumps) get the names a plain build gives them, although the
 * compiler sees a temporary input and output. */
static void push_dump_options(struct du_argv *cmd, const struct cmdline *c,
                              const struct item *it) {
  const char *src = word(c, it, 0);
  if (!c->need_aux || c->user_dump || strcmp(src, "-") == 0)
    return;
  const char *ext = du_suffix(src);
  if (c->mode != MODE_LINK && c->output) {
    if (strchr(c->output, '/')) {
      char *dir = du_dirname(c->output);
      du_argv_push(cmd, "-dumpdir");
      du_argv_pushf(cmd, "%s/", strcmp(dir, "/") == 0 ? "" : dir);
      free(dir);
    }
    char *stem = du_stem(c->output);
    du_argv_push(cmd, "-dumpbase");
    du_argv_pushf(cmd, "%s%s", stem, ext);
    free(stem);
  } else {
    if (c->mode == MODE_LINK) {
      char *pfx = c->output ? du_strip_suffix(c->output) : du_xstrdup("a");
      du_argv_push(cmd, "-dumpdir");
      du_argv_pushf(cmd, "%s-", pfx);
      free(pfx);
    }
    du_argv_push(cmd, "-dumpbase");
    du_argv_push(cmd, du_basename(src));
  }
  if (*ext) {
    du_argv_push(cmd, "-dumpbase-ext");
    du_argv_push(cmd, ext);
  }
}

/* ---- Running the steps ----------------------------------------------------- */

/* rsp_from: see du_run(); 0 for programs that do not read @file. */
static int run_step(struct du_argv *cmd, size_t rsp_from) {
  if (opt_show) {
    du_print_command(stdout, cmd->v);
    return 0;
  }
  return du_run(cmd->v, rsp_from);
}

/* Where the compiler writes `final`: a fresh name beside it, renamed into
 * place by finish_output(); the final name itself where that cannot work
 * (standard output, devices, unwritable directories). */
static char *start_output(const char *final) {
  if (opt_show || strcmp(final, "-") == 0)
    return NULL;
  struct stat st;
  if (stat(final, &st) == 0 && !S_ISREG(st.st_mode))
    return NULL;
  char *dir = du_dirname(final);
  char *tmp =
      du_xasprintf("%s/.%s.pomp-XXXXXX", dir, du_basename(final));
  free(dir);
  int fd = mkstemp(tmp);
  if (fd < 0) {
    free(tmp);
    return NULL;
  }
  close(fd);
  du_cleanup_register(tmp);
  return tmp;
}

static int finish_output(char *tmp, const char *final, int rc) {
  if (!tmp)
    return rc;
  if (rc == 0) {
    mode_t mask = umask(0);
    umask(mask);
    chmod(tmp, 0666 & ~mask);
    if (rename(tmp, final) != 0) {
      du_error("cannot rename '%s' to '%s': %s", tmp, final, strerror(errno));
      rc = 1;
    }
  }
  unlink(tmp);
  du_cleanup_unregister(tmp);
  free(tmp);
  return rc;
}

static void push_sanitize(struct du_argv *cmd, const struct du_paths *paths) {
  if (du_sanitize_on(paths))
    du_argv_pushf(cmd, "-fsanitize=%s", paths->sanitize);
}

/* Whether the -std value belongs to the input's language. */
static bool std_fits(const char *std, enum du_lang lang) {
  bool cxx_std = strstr(std, "++") != NULL;
  return lang == DU_LANG_CXX ? cxx_std : !cxx_std;
}

/* Compiles an input that is not instrumented. */
static int compile_unchanged(struct cmdline *c, struct item *it,
                             const struct du_paths *paths) {
  const char *src = word(c, it, 0);
  struct du_argv cmd;
  du_argv_init(&cmd);
  du_argv_push(&cmd, c->compiler);
  push_sanitize(&cmd, paths);
  push_options(&cmd, c, DU_PP | DU_CC);
  push_dep_options(&cmd, c);
  if (c->mode == MODE_LINK) {
    it->object = du_xasprintf("%s/%zu.o", du_tmpdir("pomp-cc"), it->number);
    push_dep_defaults(&cmd, c, it);
    push_dump_options(&cmd, c, it);
  }
  if (it->xlang) {
    du_argv_push(&cmd, "-x");
    du_argv_push(&cmd, it->xlang);
  }
  du_argv_push(&cmd, src);
  if (it->xlang) {
    du_argv_push(&cmd, "-x");
    du_argv_push(&cmd, "none");
  }
  du_argv_push(&cmd, c->mode == MODE_S ? "-S" : "-c");
  if (c->mode == MODE_LINK) {
    du_argv_push(&cmd, "-o");
    du_argv_push(&cmd, it->object);
  } else if (c->output) {
    /* The compiler names and removes its outputs itself here. */
    du_argv_push(&cmd, "-o");
    du_argv_push(&cmd, c->output);
  }
  int rc = run_step(&cmd, 1);
  du_argv_free(&cmd);
  return rc;
}

/* The three steps for a C or C++ source. */
static int compile_instrumented(struct cmdline *c, struct item *it,
                                const struct du_paths *paths) {
  const char *src = word(c, it, 0);
  bool cxx = it->lang == DU_LANG_CXX;
  const char *tmpdir = du_tmpdir("pomp-cc");
  char *stem = du_stem(src);
  char *pre = du_xasprintf("%s/%zu-%s.i", tmpdir, it->number, stem);
  char *instr = du_xasprintf("%s/%zu-%s.pomp.i", tmpdir, it->number, stem);
  char *final;
  if (c->mode == MODE_LINK)
    final = du_xasprintf("%s/%zu-%s.o", tmpdir, it->number, stem);
  else if (c->output)
    final = du_xstrdup(c->output);
  else
    final = du_xasprintf("%s.%s", stem, c->mode == MODE_S ? "s" : "o");
  free(stem);
  int rc;

  /* 1. preprocess */
  struct du_argv cmd;
  du_argv_init(&cmd);
  du_argv_push(&cmd, c->compiler);
  du_argv_push(&cmd, "-E");
  du_argv_push(&cmd, "-D_POMP=" POMPT_POMP_VERSION);
  du_argv_push(&cmd, "-include");
  du_argv_pushf(&cmd, "%s/pomp.h", paths->pomp_include);
  du_argv_push(&cmd, "-idirafter");
  du_argv_push(&cmd, paths->ompt_include);
  push_sanitize(&cmd, paths);
  push_options(&cmd, c, DU_PP);
  push_dep_options(&cmd, c);
  push_dep_defaults(&cmd, c, it);
  du_argv_push(&cmd, "-x");
  du_argv_push(&cmd, cxx ? "c++" : "c");
  du_argv_push(&cmd, src);
  du_argv_push(&cmd, "-o");
  du_argv_push(&cmd, pre);
  rc = run_step(&cmd, 1);
  du_argv_free(&cmd);
  if (rc != 0)
    goto out;

  /* 2. instrument */
  du_argv_init(&cmd);
  du_argv_push(&cmd, paths->pomp_instr);
  du_argv_push(&cmd, pre);
  du_argv_push(&cmd, "-o");
  du_argv_push(&cmd, instr);
  du_argv_push(&cmd, "--lang");
  du_argv_push(&cmd, cxx ? "c++" : "c");
  if (c->std && *c->std && std_fits(c->std, it->lang))
    du_argv_pushf(&cmd, "--std=%s", c->std);
  else if (c->std && !*c->std)
    du_argv_push(&cmd, cxx ? "--std=c++98" : "--std=c90");
  rc = run_step(&cmd, 0);
  du_argv_free(&cmd);
  if (rc != 0) {
    if (rc != 126 && rc != 127)
      du_error("instrumenting '%s' failed%s", src,
               opt_keep ? "" : " (--keep keeps the preprocessed input)");
    goto out;
  }

  /* 3. compile */
  du_argv_init(&cmd);
  du_argv_push(&cmd, c->compiler);
  push_sanitize(&cmd, paths);
  push_options(&cmd, c, DU_CC);
  push_dump_options(&cmd, c, it);
  du_argv_push(&cmd, "-x");
  du_argv_push(&cmd, cxx ? "c++-cpp-output" : "cpp-output");
  du_argv_push(&cmd, instr);
  du_argv_push(&cmd, "-x");
  du_argv_push(&cmd, "none");
  du_argv_push(&cmd, c->mode == MODE_S ? "-S" : "-c");
  du_argv_push(&cmd, "-o");
  char *tmp = c->mode == MODE_LINK ? NULL : start_output(final);
  du_argv_push(&cmd, tmp ? tmp : final);
  rc = run_step(&cmd, 1);
  du_argv_free(&cmd);
  rc = finish_output(tmp, final, rc);
  if (rc == 0 && c->mode == MODE_LINK) {
    it->object = final;
    final = NULL;
  }

out:
  free(pre);
  free(instr);
  free(final);
  return rc;
}

/* The link line for pomp-link: the user's, with sources replaced by their
 * objects and compile-only options left out.  A response file whose words
 * are all kept is passed on as it is. */
static void push_link_args(struct du_argv *cmd, const struct cmdline *c) {
  size_t n_top = c->n_user;
  bool *has_source = calloc(n_top ? n_top : 1, sizeof *has_source);
  bool *emitted = calloc(n_top ? n_top : 1, sizeof *emitted);
  if (!has_source || !emitted) {
    du_error("out of memory");
    exit(1);
  }
  for (size_t i = 0; i < c->n_items; i++) {
    const struct item *it = &c->items[i];
    if (it->is_input && it->lang != DU_LANG_LINK)
      has_source[c->group[it->first]] = true;
  }
  for (size_t i = 0; i < c->n_items; i++) {
    const struct item *it = &c->items[i];
    size_t top = c->group[it->first];
    const char *orig = c->user_argv[top];
    bool from_rsp = orig[0] == '@' && strcmp(orig, word(c, it, 0)) != 0;
    if (from_rsp && !has_source[top]) {
      if (!emitted[top])
        du_argv_push(cmd, orig);
      emitted[top] = true;
      continue;
    }
    if (it->is_input) {
      du_argv_push(cmd, it->object ? it->object : word(c, it, 0));
      continue;
    }
    if (it->opt.kind != DU_K_OUTPUT && !(it->opt.where & DU_LD))
      continue;
    for (int w = 0; w < it->nargs; w++)
      du_argv_push(cmd, word(c, it, w));
  }
  free(has_source);
  free(emitted);
}

static int run_unchanged(const struct cmdline *c) {
  struct du_argv cmd;
  du_argv_init(&cmd);
  du_argv_push(&cmd, c->compiler);
  for (size_t i = 0; i < c->n_user; i++)
    du_argv_push(&cmd, c->user_argv[i]);
  int rc = run_step(&cmd, 1);
  du_argv_free(&cmd);
  return rc;
}

static int run_pomp_link(const struct cmdline *c, const struct du_paths *paths,
                         bool unchanged_args) {
  struct du_argv cmd;
  du_argv_init(&cmd);
  du_argv_push(&cmd, paths->pomp_link);
  if (du_verbose)
    du_argv_push(&cmd, "--verbose");
  if (opt_keep)
    du_argv_push(&cmd, "--keep");
  du_argv_push(&cmd, c->compiler);
  size_t rsp_from = cmd.n;
  if (unchanged_args) {
    for (size_t i = 0; i < c->n_user; i++)
      du_argv_push(&cmd, c->user_argv[i]);
  } else {
    push_link_args(&cmd, c);
  }
  int rc;
  if (opt_show) {
    du_print_command(stdout, cmd.v);
    rc = 0;
  } else {
    rc = du_run(cmd.v, rsp_from);
    if (rc == 127 && !du_file_exists(paths->pomp_link))
      du_note("set POMPT_LINK to the pomp-link executable");
  }
  du_argv_free(&cmd);
  return rc;
}

static int drive(struct cmdline *c, const struct du_paths *paths) {
  if (c->passthru || c->mode_e || c->n_compile + c->n_link_inputs == 0)
    return run_unchanged(c);

  if (c->mode != MODE_LINK) {
    if (c->n_instr == 0)
      return run_unchanged(c);
    if (c->output && c->n_compile > 1) {
      du_error("cannot specify '-o' with '-c' or '-S' with multiple files");
      return 1;
    }
    for (size_t i = 0; i < c->n_items; i++) {
      const struct item *it = &c->items[i];
      if (it->is_input && it->lang == DU_LANG_LINK)
        du_warning("%s: linker input file unused because linking not done",
                   word(c, it, 0));
    }
  } else if (c->n_instr == 0) {
    return run_pomp_link(c, paths, true);
  }

  if (!opt_show) {
    char *h = du_xasprintf("%s/pomp.h", paths->pomp_include);
    bool ok = du_file_exists(h);
    free(h);
    if (!ok) {
      du_error("cannot find pomp.h in '%s' (set POMPT_INCLUDE to the "
               "directory that holds it)",
               paths->pomp_include);
      return 1;
    }
    if (strchr(paths->pomp_instr, '/') &&
        access(paths->pomp_instr, X_OK) != 0) {
      du_error("cannot run pomp-instr '%s': %s (set POMPT_INSTR to the "
               "pomp-instr executable)",
               paths->pomp_instr, strerror(errno));
      return 127;
    }
  }

  for (size_t i = 0; i < c->n_items; i++) {
    struct item *it = &c->items[i];
    if (!it->is_input || it->lang == DU_LANG_LINK)
      continue;
    int rc = it->lang == DU_LANG_OTHER ? compile_unchanged(c, it, paths)
                                       : compile_instrumented(c, it, paths);
    if (rc != 0)
      return rc;
  }
  if (c->mode != MODE_LINK)
    return 0;
  return run_pomp_link(c, paths, false);
}

int main(int argc, char **argv) {
  du_progname = "pomp-cc";
  int i = 1;
  for (; i < argc; i++) {
    const char *a = argv[i];
    if (strcmp(a, "--keep") == 0) {
      opt_keep = true;
    } else if (strcmp(a, "--show") == 0) {
      opt_show = true;
    } else if (strcmp(a, "--verbose") == 0) {
      du_verbose = true;
    } else if (strcmp(a, "--version") == 0) {
      printf("pomp-cc (pompt) %s\n", POMPT_VERSION);
      return 0;
    } else if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
      usage(stdout);
      return 0;
    } else if (strcmp(a, "--") == 0) {
      i++;
      break;
    } else if (a[0] == '-') {
      du_error("unknown option '%s' (pomp-cc's options come before the "
               "compiler; try --help)",
               a);
      return 2;
    } else {
      break;
    }
  }
  if (i >= argc) {
    du_error("no compiler given");
    usage(stderr);
    return 2;
  }
  const char *keep_env = getenv("POMPT_KEEP");
  if (keep_env && *keep_env && strcmp(keep_env, "0") != 0)
    opt_keep = true;
  du_keep_tmpdir(opt_keep && !opt_show);
  du_install_signal_handlers();

  struct cmdline c;
  memset(&c, 0, sizeof c);
  c.compiler = argv[i];
  c.cxx_driver = strstr(du_basename(c.compiler), "++") != NULL;
  c.user_argv = argv + i + 1;
  c.n_user = (size_t)(argc - i - 1);
  du_argv_init(&c.args);
  du_expand_response_files(c.user_argv, c.n_user, &c.args, &c.group);
  classify(&c);

  struct du_paths paths;
  du_locate(&paths);
  int rc = drive(&c, &paths);

  for (size_t k = 0; k < c.n_items; k++)
    free(c.items[k].object);
  free(c.items);
  free(c.group);
  du_argv_free(&c.args);
  du_paths_free(&paths);
  du_cleanup();
  return rc;
}
