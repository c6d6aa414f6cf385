/*
 * pomp-cc -- compiler wrapper that builds OpenMP programs with POMP
 * instrumentation.
 *
 *   pomp-cc [--keep] [--show] [--verbose] [--disable=GROUPS]
 *           [--loop-level=LEVEL] [--instr-opt=OPT]... [<launcher>] <compiler>
 *           <args...>
 *
 * For every C or C++ source on the command line it runs three steps
 * (doc/instrumentation.md):
 *
 *   1. <compiler> -E -D_POMP=... -DPOMP_H_FORCED -include <pomp.h>
 *        <preprocessing flags> [dependency flags] -x c|c++ <src>
 *        -o <tmp>/<n>-<stem>.i
 *   2. pomp-instr <tmp>/<n>-<stem>.i -o <tmp>/<n>-<stem>.pomp.i --lang c|c++
 *        [--std=<std>] [pomp-instr options given to pomp-cc]
 *      (left out when the unit has no OpenMP at all, pp_scan.h: step 3 then
 *      compiles <tmp>/<n>-<stem>.i)
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
#include "pp_scan.h"

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

/* Options for pomp-instr, given to pomp-cc before the compiler: appended to
 * every pomp-instr command (after POMPT_INSTR_OPTIONS, which pomp-instr
 * reads first). */
static struct du_argv instr_opts;
/* Whether some came from --instr-opt (checked by pomp-instr itself). */
static bool instr_opts_unchecked;

static void usage(FILE *f) {
  fprintf(
      f,
      "usage: pomp-cc [options] [<launcher>] <compiler> [args...]\n"
      "\n"
      "Compiles and links C/C++ OpenMP programs with POMP instrumentation\n"
      "(pomp-instr) and the pompt monitoring library, which provides the\n"
      "OpenMP tools interface (OMPT).  Use it in place of the compiler:\n"
      "  pomp-cc gcc -fopenmp -O2 -c foo.c\n"
      "  pomp-cc gcc -fopenmp foo.o bar.o -o prog\n"
      "  ./configure CC=\"pomp-cc gcc\" CXX=\"pomp-cc g++\"\n"
      "A launcher (ccache, sccache, distcc, icecc, buildcache) may come\n"
      "before the compiler: pomp-cc ccache gcc ...\n"
      "\n"
      "Options (before the compiler):\n"
      "  --keep     keep the temporary files (also POMPT_KEEP=1)\n"
      "  --show     print the commands instead of running them\n"
      "  --verbose  print the commands as they run\n"
      "  --version  print the version of pompt\n"
      "  --help     print this help\n"
      "Instrumentation (passed to pomp-instr; see pomp-instr(1)):\n"
      "  --disable=GROUPS  instrument no construct of these groups (comma\n"
      "                    separated): parallel, loop, workshare, sync,\n"
      "                    task, runtime, user, target\n"
      "  --loop-level=L    enterexit (default), chunks or iterations\n"
      "  --instr-opt=OPT   pass OPT to pomp-instr as it is (repeatable),\n"
      "                    e.g. --instr-opt=--clang-arg=-DNDEBUG\n"
      "\n"
      "Environment: POMPT_INSTR_OPTIONS holds pomp-instr options read before\n"
      "those above.  POMPT_INSTR, POMPT_LINK, POMPT_INCLUDE, POMPT_LIBDIR,\n"
      "POMPT_STUBS_LIBDIR override where the pieces of pompt are found;\n"
      "TMPDIR is where temporary files go.  See pomp-cc(1).\n");
}

/* ---- The classified command line ----------------------------------------- */

enum mode { MODE_LINK, MODE_C, MODE_S };

struct item {
  size_t first;  /* index of its first word in args */
  int nargs;     /* number of words */
  bool is_input; /* an input file, else an option */
  struct du_opt opt;
  bool pch; /* clang's -include-pch (also as -Xclang pairs) */
  /* -include X where only X.gch exists: the header it was made from, for
   * preprocessing to text, per language (C, C++); "" when unknown */
  char *pch_source[2];
  /* inputs */
  enum du_lang lang;
  const char *xlang; /* the -x value in force for it, or NULL */
  char *object;      /* what it was compiled to (link mode) */
  size_t number;     /* 1, 2, ... among the compiled inputs */
};

struct cmdline {
  char **compiler_words; /* the compiler, after a launcher such as ccache */
  size_t n_compiler;
  const char *compiler; /* the last of them: the compiler itself */
  bool cxx_driver;
  bool clang;          /* the compiler is clang */
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
  bool user_dump;   /* -dumpdir/-dumpbase/-dumpbase-ext given */
  bool need_aux;    /* an option writes files named after the output */
  bool save_temps;  /* -save-temps[=...] */
  const char *std;  /* last -std= value, or "" for -ansi, or NULL */
  bool has_include; /* -include (also as -Xclang pairs) */
  size_t n_compile, n_instr, n_link_inputs;
};

/* Forced includes.  clang's precompiled headers come as "-include-pch P"
 * (meson) or as "-Xclang -include-pch -Xclang P -Xclang -include -Xclang H"
 * (CMake); both are preprocessing options.  Preprocessing to text expands a
 * PCH's header again, so where a -include names the header as well, the
 * -include-pch is left out of that step (else a header without an include
 * guard would be read twice). */
static void mark_includes(struct cmdline *c) {
  for (size_t i = 0; i < c->n_items; i++) {
    struct item *it = &c->items[i];
    if (it->is_input)
      continue;
    const char *a = c->args.v[it->first];
    if (strcmp(a, "-include-pch") == 0) {
      it->pch = true;
    } else if (strcmp(a, "-include") == 0 || strcmp(a, "--include") == 0) {
      c->has_include = true;
    } else if (strcmp(a, "-Xclang") == 0 && it->opt.value &&
               i + 1 < c->n_items && !c->items[i + 1].is_input &&
               strcmp(c->args.v[c->items[i + 1].first], "-Xclang") == 0) {
      const char *v = it->opt.value;
      bool pch = strcmp(v, "-include-pch") == 0;
      if (pch || strcmp(v, "-include") == 0) {
        struct item *arg = &c->items[i + 1];
        it->opt.where = arg->opt.where = DU_PP;
        it->pch = arg->pch = pch;
        if (!pch)
          c->has_include = true;
        i++;
      }
    }
  }
}

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
        if (strncmp(a, "-save-temps", 11) == 0)
          c->save_temps = true;
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
  mark_includes(c);
}

static void push_compiler(struct du_argv *cmd, const struct cmdline *c) {
  for (size_t w = 0; w < c->n_compiler; w++)
    du_argv_push(cmd, c->compiler_words[w]);
}

static const char *word(const struct cmdline *c, const struct item *it, int i) {
  return c->args.v[it->first + (size_t)i];
}

/* Set for the language being preprocessed to text (see
 * resolve_pch_includes()). */
static int to_text_cxx;

/* Appends the option items whose `where` has any bit of mask.  to_text:
 * for preprocessing to text (see mark_includes() and
 * resolve_pch_includes()). */
static void push_options(struct du_argv *cmd, const struct cmdline *c,
                         unsigned mask, bool to_text) {
  for (size_t i = 0; i < c->n_items; i++) {
    const struct item *it = &c->items[i];
    if (it->is_input || !(it->opt.where & mask))
      continue;
    if (to_text && it->pch && c->has_include)
      continue;
    const char *src = to_text ? it->pch_source[to_text_cxx] : NULL;
    if (src && *src) {
      du_argv_push(cmd, "-include");
      du_argv_push(cmd, src);
      continue;
    }
    /* clang's driver looks for X.pch/X.gch for -include X and warns that
     * it cannot use it after pomp.h; the -Xclang form (what the driver
     * hands on) reads the same header without that. */
    if (to_text && c->clang && it->opt.value &&
        strcmp(c->args.v[it->first], "-include") == 0 && it->nargs == 2) {
      du_argv_push(cmd, "-Xclang");
      du_argv_push(cmd, "-include");
      du_argv_push(cmd, "-Xclang");
      du_argv_push(cmd, it->opt.value);
      continue;
    }
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

/* Dependency defaults: -MF <file> and -MQ <target>.  GCC (12) names the
 * file after -o (its suffix replaced by .d; when linking several sources
 * they all write that one file, the last one wins), else after the source:
 * <stem>.d, or a-<stem>.d when linking; the target is -o's file, else
 * <stem>.o (also with -S). */
static void push_dep_defaults(struct du_argv *cmd, const struct cmdline *c,
                              const struct item *it) {
  if (!c->md && !c->mmd)
    return;
  const char *src = word(c, it, 0);
  char *stem = du_stem(src);
  if (!c->has_mf) {
    char *mf;
    if (c->output) {
      char *base = du_strip_suffix(c->output);
      mf = du_xasprintf("%s.d", base);
      free(base);
    } else if (c->mode != MODE_LINK) {
      mf = du_xasprintf("%s.d", stem);
    } else {
      mf = du_xasprintf("a-%s.d", stem);
    }
    du_argv_push(cmd, "-MF");
    du_argv_push(cmd, mf);
    free(mf);
  }
  if (!c->has_mt) {
    du_argv_push(cmd, "-MQ");
    if (c->output)
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

/* -save-temps: the compiler keeps the files of the steps it runs (.s, and
 * the object when linking) under the names it gives auxiliary outputs;
 * the preprocessed unit it does not see is the instrumented one, kept as
 * <base>.i (.ii for C++) beside them, and an object of a link as <base>.o.
 * <base> is what push_dump_options() makes the compiler use. */
static char *save_temps_base(const struct cmdline *c, const struct item *it) {
  const char *src = word(c, it, 0);
  if (c->mode != MODE_LINK && c->output)
    return du_strip_suffix(c->output);
  char *stem = du_stem(src);
  if (c->mode != MODE_LINK)
    return stem;
  char *pfx = c->output ? du_strip_suffix(c->output) : du_xstrdup("a");
  char *base = du_xasprintf("%s-%s", pfx, stem);
  free(pfx);
  free(stem);
  return base;
}

/* Copies src to dst through a temporary name beside dst. */
static void save_copy(const char *src, const char *dst) {
  char *tmp = du_xasprintf("%s.pomp-save", dst);
  FILE *in = fopen(src, "rb");
  FILE *out = in ? fopen(tmp, "wb") : NULL;
  bool ok = in && out;
  if (ok) {
    char buf[65536];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, in)) > 0)
      if (fwrite(buf, 1, n, out) != n)
        ok = false;
  }
  if (in)
    fclose(in);
  if (out && fclose(out) != 0)
    ok = false;
  if (ok && rename(tmp, dst) == 0) {
    free(tmp);
    return;
  }
  du_warning("cannot save '%s' as '%s': %s", src, dst, strerror(errno));
  unlink(tmp);
  free(tmp);
}

/* ---- Running the steps -----------------------------------------------------
 */

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
  char *tmp = du_xasprintf("%s/.%s.pomp-XXXXXX", dir, du_basename(final));
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

/* ---- Precompiled headers without their text --------------------------------
 * GCC finds X.gch for "-include X" in the include path and then never reads
 * X, so a build system may keep only the .gch there (meson does: -Idir
 * -include X with dir/X.gch made from a header elsewhere).  Preprocessing
 * to text after pomp.h cannot use the PCH and needs X itself.  The PCH
 * lists the files it was made from: "-M -fpch-deps" with the user's
 * options names them, X's original among them. */

/* The search order of -include: the working directory, then -iquote, -I,
 * -isystem and -idirafter directories.  0 for other options. */
static int dir_option_rank(const char *a) {
  static const struct {
    const char *name;
    int rank;
  } names[] = {{"-iquote", 1},
               {"-I", 2},
               {"--include-directory", 2},
               {"-isystem", 3},
               {"-idirafter", 4}};
  for (size_t i = 0; i < sizeof names / sizeof *names; i++)
    if (strncmp(a, names[i].name, strlen(names[i].name)) == 0)
      return names[i].rank;
  return 0;
}

/* How the compiler finds "-include name": in the first directory (of the
 * working directory and the user's include directories) that has name.gch
 * or name, as text ('t') or only as name.gch ('g', *gch_path then names
 * it); 0 if in none of them (a system directory, or nowhere). */
static char find_forced_include(const struct cmdline *c, const char *name,
                                char **gch_path) {
  if (name[0] == '/')
    return du_file_exists(name) ? 't' : 0;
  struct du_argv dirs;
  du_argv_init(&dirs);
  du_argv_push(&dirs, ".");
  for (int rank = 1; rank <= 4; rank++)
    for (size_t i = 0; i < c->n_items; i++) {
      const struct item *it = &c->items[i];
      if (!it->is_input && it->opt.value &&
          dir_option_rank(c->args.v[it->first]) == rank)
        du_argv_push(&dirs, it->opt.value);
    }
  char found = 0;
  for (size_t i = 0; i < dirs.n && !found; i++) {
    char *text = du_xasprintf("%s/%s", dirs.v[i], name);
    char *gch = du_xasprintf("%s.gch", text);
    if (du_file_exists(text)) {
      found = 't';
    } else if (du_file_exists(gch)) {
      found = 'g';
      if (gch_path)
        *gch_path = du_xstrdup(gch);
    }
    free(text);
    free(gch);
  }
  du_argv_free(&dirs);
  return found;
}

/* The dependencies printed by "-M" (the first word is the target). */
static void parse_deps(char *text, struct du_argv *deps) {
  char *colon = strstr(text, ": ");
  if (!colon)
    return;
  for (char *tok = strtok(colon + 1, " \t\n\\"); tok;
       tok = strtok(NULL, " \t\n\\"))
    du_argv_push(deps, tok);
}

/* The header a GCC .gch was made from, by the file names recorded in it
 * (for a PCH made without dependency output): the first NUL-terminated
 * string that names an existing file whose last component is want.  NULL
 * if there is none. */
static char *source_named_in_pch(const char *gch, const char *want) {
  FILE *f = fopen(gch, "rb");
  if (!f)
    return NULL;
  size_t cap = 1 << 20, len = 0;
  char *buf = du_xmalloc(cap);
  size_t n;
  while ((n = fread(buf + len, 1, cap - len, f)) > 0) {
    len += n;
    if (len == cap) {
      cap *= 2;
      buf = du_xrealloc(buf, cap);
    }
  }
  fclose(f);
  size_t wlen = strlen(want);
  char *found = NULL;
  for (size_t i = wlen; i < len && !found; i++) {
    if (buf[i] != '\0' || memcmp(buf + i - wlen, want, wlen) != 0)
      continue;
    size_t start = i - wlen;
    if (start > 0 && buf[start - 1] != '/' && buf[start - 1] != '\0')
      continue;
    while (start > 0 && buf[start - 1] >= 0x20 && buf[start - 1] < 0x7f)
      start--;
    if (start > 0 && buf[start - 1] != '\0')
      continue;
    if (du_file_exists(buf + start))
      found = du_xstrdup(buf + start);
  }
  free(buf);
  return found;
}

static void resolve_pch_includes(struct cmdline *c, bool cxx) {
  int lang = cxx ? 1 : 0;
  bool pending = false;
  for (size_t i = 0; i < c->n_items; i++) {
    struct item *it = &c->items[i];
    const char *a = c->args.v[it->first];
    if (it->is_input || it->pch_source[lang] || !it->opt.value ||
        (strcmp(a, "-include") != 0 && strcmp(a, "--include") != 0))
      continue;
    if (find_forced_include(c, it->opt.value, NULL) == 'g')
      pending = true;
    else
      it->pch_source[lang] = du_xstrdup("");
  }
  if (!pending || opt_show)
    return;
  struct du_argv cmd;
  du_argv_init(&cmd);
  push_compiler(&cmd, c);
  push_options(&cmd, c, DU_PP | DU_CC, false);
  du_argv_push(&cmd, "-M");
  du_argv_push(&cmd, "-fpch-deps");
  du_argv_push(&cmd, "-x");
  du_argv_push(&cmd, cxx ? "c++" : "c");
  du_argv_push(&cmd, "/dev/null");
  char *out = NULL;
  size_t len;
  struct du_argv deps;
  du_argv_init(&deps);
  if (du_run_capture(cmd.v, &out, &len, DU_ERR_HIDE) == 0 && out)
    parse_deps(out, &deps);
  free(out);
  du_argv_free(&cmd);
  for (size_t i = 0; i < c->n_items; i++) {
    struct item *it = &c->items[i];
    const char *a = c->args.v[it->first];
    if (it->is_input || it->pch_source[lang] || !it->opt.value ||
        (strcmp(a, "-include") != 0 && strcmp(a, "--include") != 0))
      continue;
    const char *want = du_basename(it->opt.value);
    for (size_t d = 0; d < deps.n && !it->pch_source[lang]; d++)
      if (strcmp(deps.v[d], "/dev/null") != 0 &&
          strcmp(du_basename(deps.v[d]), want) == 0)
        it->pch_source[lang] = du_xstrdup(deps.v[d]);
    if (!it->pch_source[lang]) {
      char *gch = NULL;
      find_forced_include(c, it->opt.value, &gch);
      it->pch_source[lang] = gch ? source_named_in_pch(gch, want) : NULL;
      free(gch);
    }
    if (!it->pch_source[lang])
      it->pch_source[lang] = du_xstrdup("");
  }
  du_argv_free(&deps);
}

/* Compiles an input that is not instrumented. */
static int compile_unchanged(struct cmdline *c, struct item *it,
                             const struct du_paths *paths) {
  const char *src = word(c, it, 0);
  struct du_argv cmd;
  du_argv_init(&cmd);
  push_compiler(&cmd, c);
  push_sanitize(&cmd, paths);
  push_options(&cmd, c, DU_PP | DU_CC, false);
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
  int rc = run_step(&cmd, c->n_compiler);
  du_argv_free(&cmd);
  return rc;
}

/* What pompt adds to the preprocessing of a unit: _POMP (seed section 3.7),
 * pomp.h, omp-tools.h for the program's own tools, and first on the path
 * the omp.h supplement (it adds what GCC's omp.h lacks and libpompt
 * provides, omp_control_tool, then includes the compiler's). */
static void push_pompt_pp_options(struct du_argv *cmd,
                                  const struct du_paths *paths) {
  du_argv_push(cmd, "-D_POMP=" POMPT_POMP_VERSION);
  du_argv_push(cmd, "-DPOMP_H_FORCED"); /* no libc header before the unit's */
  du_argv_push(cmd, "-include");
  du_argv_pushf(cmd, "%s/pomp.h", paths->pomp_include);
  du_argv_push(cmd, "-idirafter");
  du_argv_push(cmd, paths->ompt_include);
  du_argv_pushf(cmd, "-I%s/omp-supplement", paths->ompt_include);
}

/* After pomp-instr failed: the compiler checks the source as the user wrote
 * it, preprocessed as pomp-cc preprocesses it.  When it finds an error it has
 * printed its messages, and its exit status is returned; 0 means the failure is
 * pomp-instr's own (or the check could not run). */
static int syntax_check(struct cmdline *c, struct item *it,
                        const struct du_paths *paths) {
  const char *src = word(c, it, 0);
  if (strcmp(src, "-") == 0)
    return 0; /* standard input is read already */
  struct du_argv cmd;
  du_argv_init(&cmd);
  push_compiler(&cmd, c);
  push_pompt_pp_options(&cmd, paths);
  push_sanitize(&cmd, paths);
  push_options(&cmd, c, DU_PP | DU_CC, false);
  du_argv_push(&cmd, "-fsyntax-only");
  du_argv_push(&cmd, "-x");
  du_argv_push(&cmd, it->lang == DU_LANG_CXX ? "c++" : "c");
  du_argv_push(&cmd, src);
  int rc = du_run(cmd.v, c->n_compiler);
  du_argv_free(&cmd);
  return rc == 126 || rc == 127 ? 0 : rc;
}

/* Whether pomp-instr may find something to instrument in the preprocessed
 * unit at path (pp_scan.h); when it cannot be read, pomp-instr is left to
 * say so. */
static bool unit_needs_instrumentation(const char *path) {
  size_t len;
  char *text = du_read_file(path, &len);
  if (!text)
    return true;
  bool needs = pp_unit_may_need_instrumentation(text, len);
  free(text);
  return needs;
}

/* Step 2: pomp-instr rewrites the preprocessed unit pre into instr. */
static int instrument(struct cmdline *c, struct item *it,
                      const struct du_paths *paths, const char *pre,
                      const char *instr) {
  const char *src = word(c, it, 0);
  bool cxx = it->lang == DU_LANG_CXX;
  struct du_argv cmd;
  int rc;
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
  du_argv_push_all(&cmd, &instr_opts);
  if (opt_show) {
    rc = run_step(&cmd, 0);
  } else {
    /* Its messages wait until it is known whether they are about an error
     * in the user's code, which the compiler describes in its own words. */
    char *err = du_xasprintf("%s.err", instr);
    rc = du_run_stderr_to(cmd.v, err);
    int compiler_rc = 0;
    if (rc != 0 && rc != 126 && rc != 127 && rc < 128)
      compiler_rc = syntax_check(c, it, paths);
    if (compiler_rc != 0) {
      rc = compiler_rc;
    } else {
      du_copy_file(err, stderr);
      if (rc != 0 && rc != 126 && rc != 127)
        du_error("instrumenting '%s' failed%s", src,
                 opt_keep ? "" : " (--keep keeps the preprocessed input)");
    }
    unlink(err);
    free(err);
  }
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
  push_compiler(&cmd, c);
  du_argv_push(&cmd, "-E");
  push_pompt_pp_options(&cmd, paths);
  push_sanitize(&cmd, paths);
  resolve_pch_includes(c, cxx);
  to_text_cxx = cxx ? 1 : 0;
  push_options(&cmd, c, DU_PP, true);
  push_dep_options(&cmd, c);
  push_dep_defaults(&cmd, c, it);
  du_argv_push(&cmd, "-x");
  du_argv_push(&cmd, cxx ? "c++" : "c");
  du_argv_push(&cmd, src);
  du_argv_push(&cmd, "-o");
  du_argv_push(&cmd, pre);
  rc = run_step(&cmd, c->n_compiler);
  du_argv_free(&cmd);
  if (rc != 0)
    goto out;

  /* 2. instrument -- unless the unit has no OpenMP at all: then what the
   * compiler gets is its preprocessed text as it is (pomp-instr would
   * change nothing in it but add an empty POMP_Init_<id>). */
  const char *unit = pre;
  if (opt_show || unit_needs_instrumentation(pre)) {
    unit = instr;
    rc = instrument(c, it, paths, pre, instr);
    if (rc != 0)
      goto out;
  }

  /* 3. compile */
  du_argv_init(&cmd);
  push_compiler(&cmd, c);
  push_sanitize(&cmd, paths);
  push_options(&cmd, c, DU_CC, false);
  push_dump_options(&cmd, c, it);
  du_argv_push(&cmd, "-x");
  du_argv_push(&cmd, cxx ? "c++-cpp-output" : "cpp-output");
  du_argv_push(&cmd, unit);
  du_argv_push(&cmd, "-x");
  du_argv_push(&cmd, "none");
  du_argv_push(&cmd, c->mode == MODE_S ? "-S" : "-c");
  du_argv_push(&cmd, "-o");
  char *tmp = c->mode == MODE_LINK ? NULL : start_output(final);
  du_argv_push(&cmd, tmp ? tmp : final);
  rc = run_step(&cmd, c->n_compiler);
  du_argv_free(&cmd);
  rc = finish_output(tmp, final, rc);
  if (rc == 0 && c->save_temps && !opt_show && strcmp(src, "-") != 0) {
    char *base = save_temps_base(c, it);
    char *kept = du_xasprintf("%s.%s", base, cxx ? "ii" : "i");
    save_copy(unit, kept);
    free(kept);
    if (c->mode == MODE_LINK) {
      kept = du_xasprintf("%s.o", base);
      save_copy(final, kept);
      free(kept);
    }
    free(base);
  }
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
      if (!it->object && it->xlang && it->lang != DU_LANG_LINK) {
        /* a header to precompile, left to the compiler */
        du_argv_push(cmd, "-x");
        du_argv_push(cmd, it->xlang);
        du_argv_push(cmd, word(c, it, 0));
        du_argv_push(cmd, "-x");
        du_argv_push(cmd, "none");
      } else {
        du_argv_push(cmd, it->object ? it->object : word(c, it, 0));
      }
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
  push_compiler(&cmd, c);
  for (size_t i = 0; i < c->n_user; i++)
    du_argv_push(&cmd, c->user_argv[i]);
  int rc = run_step(&cmd, c->n_compiler);
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
  push_compiler(&cmd, c);
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

/* Whether the command builds with OpenMP. */
static bool builds_openmp(const struct cmdline *c) {
  for (size_t i = 0; i < c->n_items; i++) {
    const struct item *it = &c->items[i];
    if (!it->is_input && strcmp(word(c, it, 0), "-fopenmp") == 0)
      return true;
  }
  return false;
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
  } else if (c->n_instr == 0 && !(c->n_compile > 0 && builds_openmp(c))) {
    /* With OpenMP, sources pomp-instr does not rewrite (Fortran,
     * assembler) are compiled to objects below first, so that pomp-link
     * sees their calls of libgomp's entries and links libpompt, which
     * reports their regions. */
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
    /* Without -c, the compiler writes a precompiled header for a header and
     * links the rest; pomp-link hands it on. */
    if (c->mode == MODE_LINK && du_is_header(word(c, it, 0), it->xlang))
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

/* ---- pomp-instr options given to pomp-cc --------------------------------
 * --disable and --loop-level are checked here, against the words pomp-instr
 * knows (tests/driver keeps the two lists in step); --instr-opt words are
 * checked by pomp-instr itself (check_instr_options()). */

static const char *const instr_groups[] = {"parallel", "loop",   "workshare",
                                           "sync",     "task",   "runtime",
                                           "user",     "target", NULL};
static const char *const loop_levels[] = {"enterexit", "chunks", "iterations",
                                          NULL};

static bool in_words(const char *s, size_t n, const char *const words[]) {
  for (size_t k = 0; words[k]; k++)
    if (strlen(words[k]) == n && strncmp(words[k], s, n) == 0)
      return true;
  return false;
}

/* "a, b, c" (malloc'ed). */
static char *word_list(const char *const words[]) {
  char *list = du_xstrdup("");
  for (size_t k = 0; words[k]; k++) {
    char *more = du_xasprintf("%s%s%s", list, k ? ", " : "", words[k]);
    free(list);
    list = more;
  }
  return list;
}

/* "--name=value" or "--name value" at argv[*i] (the next word is then
 * consumed): 1 with *value set; 0 when argv[*i] is not that option; -1 when
 * the value is missing (reported). */
static int named_value(int argc, char **argv, int *i, const char *name,
                       const char **value) {
  size_t n = strlen(name);
  const char *a = argv[*i];
  if (strncmp(a, name, n) != 0 || (a[n] != '=' && a[n] != '\0'))
    return 0;
  if (a[n] == '=') {
    *value = a + n + 1;
    return 1;
  }
  if (*i + 1 >= argc) {
    du_error("option '%s' needs a value (%s=...)", name, name);
    return -1;
  }
  *value = argv[++*i];
  return 1;
}

/* Whether v, a --disable value, names groups only (empty items aside, as
 * pomp-instr reads it) and at least one. */
static bool check_groups(const char *v) {
  bool any = false;
  for (const char *p = v;;) {
    size_t n = strcspn(p, ",");
    if (n > 0 && !in_words(p, n, instr_groups)) {
      char *list = word_list(instr_groups);
      du_error("--disable=%s: unknown group '%.*s' (groups: %s)", v, (int)n, p,
               list);
      free(list);
      return false;
    }
    any = any || n > 0;
    if (!p[n])
      break;
    p += n + 1;
  }
  if (!any) {
    char *list = word_list(instr_groups);
    du_error("--disable needs one or more groups, separated by commas: %s",
             list);
    free(list);
  }
  return any;
}

/* The words of pomp-instr that pomp-cc writes itself. */
static bool reserved_instr_option(const char *o) {
  static const char *const names[] = {
      "--lang", "--std", "--help", "--version", "-h", "--check-options", NULL};
  if (strncmp(o, "-o", 2) == 0)
    return true;
  for (size_t k = 0; names[k]; k++) {
    size_t n = strlen(names[k]);
    if (strncmp(o, names[k], n) == 0 && (o[n] == '\0' || o[n] == '='))
      return true;
  }
  return false;
}

/* A pomp-instr option at argv[*i], added to instr_opts: 1; 0 when
 * argv[*i] is none; -1 when it is wrong (reported). */
static int instr_option(int argc, char **argv, int *i) {
  const char *v;
  int r;
  if ((r = named_value(argc, argv, i, "--disable", &v)) != 0) {
    if (r < 0 || !check_groups(v))
      return -1;
    du_argv_pushf(&instr_opts, "--disable=%s", v);
    return 1;
  }
  if ((r = named_value(argc, argv, i, "--loop-level", &v)) != 0) {
    if (r < 0)
      return -1;
    if (!in_words(v, strlen(v), loop_levels)) {
      char *list = word_list(loop_levels);
      du_error("--loop-level=%s: unknown level (levels: %s)", v, list);
      free(list);
      return -1;
    }
    du_argv_pushf(&instr_opts, "--loop-level=%s", v);
    return 1;
  }
  if ((r = named_value(argc, argv, i, "--instr-opt", &v)) != 0) {
    if (r < 0)
      return -1;
    if (v[0] != '-' || !v[1]) {
      du_error("--instr-opt=%s: not an option (pass one pomp-instr option "
               "word, with its value after '=': --instr-opt=--clang-arg=-DX)",
               v);
      return -1;
    }
    if (reserved_instr_option(v)) {
      du_error("--instr-opt=%s: pomp-cc sets this pomp-instr option itself", v);
      return -1;
    }
    du_argv_push(&instr_opts, v);
    instr_opts_unchecked = true;
    return 1;
  }
  return 0;
}

/* Lets pomp-instr check the --instr-opt words (with POMPT_INSTR_OPTIONS)
 * before anything is compiled: 0, or 2 after it printed why not. */
static int check_instr_options(const struct du_paths *paths) {
  struct du_argv cmd;
  du_argv_init(&cmd);
  du_argv_push(&cmd, paths->pomp_instr);
  du_argv_push(&cmd, "--check-options");
  du_argv_push_all(&cmd, &instr_opts);
  int rc = du_run(cmd.v, 0);
  du_argv_free(&cmd);
  if (rc == 0)
    return 0;
  if (rc != 126 && rc != 127)
    du_error("pomp-instr does not accept the options given with "
             "--instr-opt (or in POMPT_INSTR_OPTIONS)");
  return 2;
}

int main(int argc, char **argv) {
  du_progname = "pomp-cc";
  du_argv_init(&instr_opts);
  int i = 1;
  for (; i < argc; i++) {
    const char *a = argv[i];
    int r = instr_option(argc, argv, &i);
    if (r < 0) {
      return 2;
    } else if (r > 0) {
      continue;
    } else if (strcmp(a, "--keep") == 0) {
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
  int ncomp = du_compiler_words(argv, argc, i);
  c.compiler_words = argv + i;
  c.n_compiler = (size_t)ncomp;
  c.compiler = argv[i + ncomp - 1];
  c.cxx_driver = strstr(du_basename(c.compiler), "++") != NULL;
  c.clang = strstr(du_basename(c.compiler), "clang") != NULL;
  c.user_argv = argv + i + ncomp;
  c.n_user = (size_t)(argc - i - ncomp);
  du_argv_init(&c.args);
  du_expand_response_files(c.user_argv, c.n_user, &c.args, &c.group);
  classify(&c);

  struct du_paths paths;
  du_locate(&paths);
  int rc = instr_opts_unchecked ? check_instr_options(&paths) : 0;
  if (rc == 0)
    rc = drive(&c, &paths);

  for (size_t k = 0; k < c.n_items; k++) {
    free(c.items[k].object);
    free(c.items[k].pch_source[0]);
    free(c.items[k].pch_source[1]);
  }
  free(c.items);
  free(c.group);
  du_argv_free(&c.args);
  du_argv_free(&instr_opts);
  du_paths_free(&paths);
  du_cleanup();
  return rc;
}
