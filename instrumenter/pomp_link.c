/*
 * pomp-link -- the pre-linker of pompt (seed 004, Appendix B).
 *
 *   pomp-link [--show] [--verbose] [--keep] [<launcher>] <compiler> <args...>
 *
 * Every instrumented translation unit defines an initialisation function
 * POMP_Init_<id>() that registers the unit's constructs.  pomp-link lists the
 * symbols of the objects and archives on the link line with nm, writes a
 * unit that calls every POMP_Init_<id> it found from a constructor,
 *
 *   extern void POMP_Init_<id>(void) __attribute__((weak));
 *   __attribute__((visibility("hidden"))) void POMP_Init_Handles(void) {
 *     if (POMP_Init_<id>) POMP_Init_<id>();  ...
 *   }
 *   const int POMPT_start_from_program_v1 = 1;
 *   __attribute__((constructor(102))) static void pompt_init_handles(void) {
 *     POMPT_Init();         (readies the tool's start: bridge_tool.c)
 *     POMP_Init_Handles();
 *   }
 *   __attribute__((constructor)) static void pompt_start(void) {
 *     POMPT_Start();        (the tool starts, after the program's
 *   }                        constructors)
 *
 * compiles it with the same compiler and links it with the user's objects,
 * libpompt and, for a program built without OpenMP, libpompt-stubs.  The
 * references are weak so that an archive member the link does not otherwise
 * need is not pulled in by them.  POMP_Init_Handles is hidden so that every
 * executable and shared library gets its own.
 *
 * A relocatable link (-r), a command that does not link (-c, -S, -E, or
 * only headers to precompile), one without inputs, and one whose objects
 * call no POMP routine (nor, without OpenMP, any omp_ routine, nor, with
 * OpenMP, any of libgomp's GOMP_ entries) run unchanged: those need
 * nothing of pompt, and probes of build systems that read the compiler's
 * own link line (`-v`) see exactly that.  Objects that call libgomp's
 * entries without being instrumented (Fortran units, objects of plain
 * gcc -fopenmp) get libpompt, which reports their regions from those
 * entries.
 */
#define _POSIX_C_SOURCE 200809L

#include "driver_util.h"

#include "pompt_driver_config.h"

#include <ctype.h>
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static bool opt_show, opt_keep;

static void usage(FILE *f) {
  fprintf(f,
          "usage: pomp-link [--show] [--verbose] [--keep] [<launcher>] "
          "<compiler> [link args...]\n"
          "\n"
          "Links a program instrumented by pomp-instr: finds the per-file\n"
          "POMP_Init_* functions in the objects and archives with nm, adds a\n"
          "unit that calls them all before main, and links libpompt.\n"
          "pomp-cc runs it for you.\n"
          "\n"
          "Options (before the compiler):\n"
          "  --show     print the commands instead of running them\n"
          "  --verbose  print the commands as they run\n"
          "  --keep     keep the generated unit (also POMPT_KEEP=1)\n"
          "  --version  print the version of pompt\n"
          "  --help     print this help\n"
          "\n"
          "Environment: POMPT_LIBDIR, POMPT_STUBS_LIBDIR (where libpompt and\n"
          "libpompt-stubs are), POMPT_NM (the nm to use; default nm), TMPDIR.\n"
          "See pomp-link(1).\n");
}

/* ---- What the link line holds ----------------------------------------------
 */

struct link_line {
  struct du_argv files;      /* objects and archives to scan */
  struct du_argv libdirs;    /* -L directories */
  struct du_argv target;     /* options the init unit is compiled with too */
  struct du_argv unresolved; /* -l libraries not in -L directories, each
                                'S' (static) or 'D' and the name */
  bool shared, is_static, relocatable, not_linking;
  bool openmp;         /* -fopenmp or an OpenMP runtime library */
  bool saw_x;          /* a -x option: the init unit needs "-x none" */
  char *lto_partition; /* the last -flto-partition= value, or NULL */
  size_t n_inputs;     /* files and -l libraries */
  size_t n_headers;    /* headers to precompile (not linked) */
};

enum file_kind { FILE_OTHER, FILE_OBJECT, FILE_ARCHIVE };

/* Looks at the first bytes: an ELF relocatable object, an LLVM bitcode
 * object (clang -flto; raw or in its wrapper) or an ar archive. */
static enum file_kind file_kind(const char *path) {
  FILE *f = fopen(path, "rb");
  if (!f)
    return FILE_OTHER;
  unsigned char h[18];
  size_t n = fread(h, 1, sizeof h, f);
  fclose(f);
  if (n >= 8 &&
      (memcmp(h, "!<arch>\n", 8) == 0 || memcmp(h, "!<thin>\n", 8) == 0))
    return FILE_ARCHIVE;
  if (n >= 4 && (memcmp(h, "BC\xc0\xde", 4) == 0 ||
                 memcmp(h, "\xde\xc0\x17\x0b", 4) == 0))
    return FILE_OBJECT;
  if (n >= 18 && memcmp(h, "\177ELF", 4) == 0) {
    unsigned type = h[5] == 2 ? (unsigned)(h[16] << 8 | h[17])
                              : (unsigned)(h[17] << 8 | h[16]);
    if (type == 1) /* ET_REL */
      return FILE_OBJECT;
  }
  return FILE_OTHER;
}

static void add_file(struct link_line *l, const char *path) {
  for (size_t i = 0; i < l->files.n; i++)
    if (strcmp(l->files.v[i], path) == 0)
      return;
  bool scan = file_kind(path) != FILE_OTHER;
  if (!scan && opt_show && !du_file_exists(path)) {
    /* --show may run before the objects exist: go by the name. */
    static const char *const suffixes[] = {".o", ".a", ".lo", ".obj"};
    for (size_t i = 0; i < sizeof suffixes / sizeof *suffixes; i++)
      if (strcmp(du_suffix(path), suffixes[i]) == 0)
        scan = true;
  }
  if (scan)
    du_argv_push(&l->files, path);
}

static bool is_openmp_runtime(const char *lib) {
  static const char *const names[] = {"gomp",    "omp",  "iomp5",
                                      "iomp5md", "omp5", NULL};
  const char *name = lib;
  char *own = NULL;
  if (lib[0] == ':') {
    /* -l:libgomp.so.1 */
    const char *base = du_basename(lib + 1);
    if (strncmp(base, "lib", 3) != 0)
      return false;
    base += 3;
    own = du_xstrndup(base, strcspn(base, "."));
    name = own;
  }
  bool found = false;
  for (size_t i = 0; names[i]; i++)
    if (strcmp(name, names[i]) == 0)
      found = true;
  free(own);
  return found;
}

/* Whether a link argument names an OpenMP runtime: -lgomp, -l:libgomp.so.1,
 * .../libgomp.so (as CMake writes it). */
static bool names_openmp_runtime(const char *arg) {
  if (arg[0] == '-')
    return arg[1] == 'l' && arg[2] && is_openmp_runtime(arg + 2);
  char *lib = du_xasprintf(":%s", du_basename(arg));
  bool found = is_openmp_runtime(lib);
  free(lib);
  return found;
}

/* libpompt in front of the first argument that names an OpenMP runtime, if
 * any: the program's GOMP_ calls bind to the first library that has them,
 * and a link line can name the runtime itself (-lgomp instead of
 * -fopenmp), before the libpompt added at its end. */
static void put_libpompt_before_runtime(struct du_argv *cmd, size_t first,
                                        const char *libdir) {
  size_t at = first;
  while (at < cmd->n && !names_openmp_runtime(cmd->v[at]))
    at++;
  if (at == cmd->n)
    return;
  struct du_argv out;
  du_argv_init(&out);
  for (size_t k = 0; k < cmd->n; k++) {
    if (k == at) {
      du_argv_pushf(&out, "-L%s", libdir);
      du_argv_push(&out, "-Wl,--push-state,--no-as-needed");
      du_argv_push(&out, "-lpompt");
      du_argv_push(&out, "-Wl,--pop-state");
    }
    du_argv_push(&out, cmd->v[k]);
  }
  du_argv_free(cmd);
  *cmd = out;
}

/* -lname: the archive the linker would take from one of the directories
 * (a shared library found first ends the search: it registers its own
 * constructs).  False when none of them has the library. */
static bool resolve_lib(struct link_line *l, const struct du_argv *dirs,
                        const char *lib, bool bstatic) {
  for (size_t i = 0; i < dirs->n; i++) {
    const char *dir = dirs->v[i];
    if (lib[0] == ':') {
      char *p = du_xasprintf("%s/%s", dir, lib + 1);
      bool exists = du_file_exists(p);
      if (exists)
        add_file(l, p);
      free(p);
      if (exists)
        return true;
      continue;
    }
    if (!bstatic) {
      char *so = du_xasprintf("%s/lib%s.so", dir, lib);
      bool exists = du_file_exists(so);
      free(so);
      if (exists)
        return true;
    }
    char *a = du_xasprintf("%s/lib%s.a", dir, lib);
    bool exists = du_file_exists(a);
    if (exists)
      add_file(l, a);
    free(a);
    if (exists)
      return true;
  }
  return false;
}

/* The compiler's own library directories ("libraries: =a:b:..." of
 * -print-search-dirs). */
static void system_libdirs(char *const compiler[], size_t n_compiler,
                           const struct du_argv *target, struct du_argv *dirs) {
  struct du_argv cmd;
  du_argv_init(&cmd);
  for (size_t w = 0; w < n_compiler; w++)
    du_argv_push(&cmd, compiler[w]);
  du_argv_push_all(&cmd, target);
  du_argv_push(&cmd, "-print-search-dirs");
  char *out = NULL;
  size_t len;
  if (du_run_capture(cmd.v, &out, &len, DU_ERR_HIDE) == 0 && out) {
    for (char *line = strtok(out, "\n"); line; line = strtok(NULL, "\n")) {
      if (strncmp(line, "libraries: ", 11) != 0)
        continue;
      char *list = line + 11;
      if (*list == '=')
        list++;
      char *save = NULL;
      for (char *d = strtok_r(list, ":", &save); d;
           d = strtok_r(NULL, ":", &save))
        du_argv_push(dirs, d);
    }
  }
  free(out);
  du_argv_free(&cmd);
}

/* Tracks -Wl,-Bstatic / -Wl,-Bdynamic. */
static void linker_option(const char *list, bool *bstatic) {
  char *copy = du_xstrdup(list);
  for (char *tok = strtok(copy, ","); tok; tok = strtok(NULL, ",")) {
    if (strcmp(tok, "-Bstatic") == 0 || strcmp(tok, "-dn") == 0 ||
        strcmp(tok, "-non_shared") == 0 || strcmp(tok, "-static") == 0)
      *bstatic = true;
    else if (strcmp(tok, "-Bdynamic") == 0 || strcmp(tok, "-dy") == 0 ||
             strcmp(tok, "-call_shared") == 0)
      *bstatic = false;
  }
  free(copy);
}

static void scan(struct link_line *l, const struct du_argv *args) {
  du_argv_init(&l->files);
  du_argv_init(&l->libdirs);
  du_argv_init(&l->target);
  du_argv_init(&l->unresolved);
  /* Every -L applies to every -l, wherever it stands. */
  for (size_t k = 0; k < args->n;) {
    const char *a = args->v[k];
    if (a[0] != '-' || !a[1]) {
      k++;
      continue;
    }
    struct du_opt o;
    du_match_option(a, args->v[k + 1], &o);
    if (o.kind == DU_K_LIBDIR && o.value)
      du_argv_push(&l->libdirs, o.value);
    k += (size_t)o.nargs;
  }
  bool bstatic = false;
  const char *xlang = NULL;
  for (size_t k = 0; k < args->n;) {
    const char *a = args->v[k];
    if (a[0] != '-' || !a[1]) {
      if (du_is_header(a, xlang)) {
        l->n_headers++;
        k++;
        continue;
      }
      l->n_inputs++;
      add_file(l, a);
      if (names_openmp_runtime(a))
        l->openmp = true;
      k++;
      continue;
    }
    struct du_opt o;
    du_match_option(a, args->v[k + 1], &o);
    switch (o.kind) {
    case DU_K_LANG:
      l->saw_x = true;
      if (o.value)
        xlang = strcmp(o.value, "none") == 0 ? NULL : o.value;
      break;
    case DU_K_MODE_C:
    case DU_K_MODE_S:
    case DU_K_MODE_E:
    case DU_K_PASSTHRU:
      l->not_linking = true;
      break;
    case DU_K_RELOC:
      l->relocatable = true;
      break;
    case DU_K_SHARED:
      l->shared = true;
      break;
    case DU_K_STATIC:
      l->is_static = true;
      bstatic = true;
      break;
    case DU_K_OPENMP_ON:
      l->openmp = true;
      break;
    case DU_K_OPENMP_OFF:
      l->openmp = false;
      break;
    case DU_K_LIB:
      if (o.value) {
        l->n_inputs++;
        if (is_openmp_runtime(o.value))
          l->openmp = true;
        if (!resolve_lib(l, &l->libdirs, o.value, bstatic))
          du_argv_pushf(&l->unresolved, "%c%s", bstatic ? 'S' : 'D', o.value);
      }
      break;
    case DU_K_TARGET:
      for (int w = 0; w < o.nargs; w++)
        du_argv_push(&l->target, args->v[k + (size_t)w]);
      break;
    default:
      if (strncmp(a, "-flto-partition=", 16) == 0) {
        free(l->lto_partition);
        l->lto_partition = du_xstrdup(a + 16);
      } else if (strncmp(a, "-Wl,", 4) == 0)
        linker_option(a + 4, &bstatic);
      else if (strcmp(a, "-Xlinker") == 0 && o.value)
        linker_option(o.value, &bstatic);
      break;
    }
    k += (size_t)o.nargs;
  }
}

static void free_link_line(struct link_line *l) {
  du_argv_free(&l->files);
  du_argv_free(&l->libdirs);
  du_argv_free(&l->target);
  du_argv_free(&l->unresolved);
  free(l->lto_partition);
}

/* ---- Finding the POMP_Init functions ---------------------------------------
 */

static bool is_init_function(const char *name) {
  static const char prefix[] = "POMP_Init_";
  if (strncmp(name, prefix, sizeof prefix - 1) != 0)
    return false;
  const char *id = name + sizeof prefix - 1;
  if (!*id)
    return false;
  for (const char *p = id; *p; p++)
    if (!isalnum((unsigned char)*p) && *p != '_')
      return false;
  /* POMP API routines that share the prefix. */
  if (strcmp(id, "Handles") == 0)
    return false;
  size_t n = strlen(id);
  if (n >= 6 && strcmp(id + n - 6, "_event") == 0)
    return false;
  return true;
}

/* An OpenMP link by a GCC driver takes libgomp.  It must stay NEEDED even
 * when no object calls it directly: a program whose only OpenMP use is the
 * runtime API (locks from plain pthreads, say) calls libpompt's wrappers,
 * whose references to the real routines are weak, and GCC's --as-needed
 * default would otherwise drop libgomp and leave the wrappers without a
 * runtime (omp_test_lock "succeeding" on a held lock). */
static bool uses_libgomp(const char *compiler, const struct link_line *l) {
  return l->openmp && !strstr(du_basename(compiler), "clang");
}

/* What nm said about the inputs. */
struct nm_result {
  bool failed;      /* nm could not read some input */
  bool refs_pomp;   /* an object calls POMP(T)_ routines (instrumented) */
  bool refs_omp;    /* an object calls omp_ routines */
  bool refs_gomp;   /* an object calls libgomp's GOMP_ entry points */
  bool refs_chunks; /* an object reports loop chunks (--loop-level=chunks) */
};

static void parse_nm_output(char *text, struct du_argv *syms,
                            struct nm_result *res) {
  for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
    /* POSIX format: "name type value [size]"; file headers end in ':'. */
    char *name = line;
    while (isspace((unsigned char)*name))
      name++;
    char *sp = name;
    while (*sp && !isspace((unsigned char)*sp))
      sp++;
    if (!*sp)
      continue;
    *sp = '\0';
    char *type = sp + 1;
    while (isspace((unsigned char)*type))
      type++;
    if (type[1] && !isspace((unsigned char)type[1]))
      continue;
    if (type[0] == 'U') {
      if (strncmp(name, "POMP_", 5) == 0 || strncmp(name, "POMPT_", 6) == 0) {
        res->refs_pomp = true;
        if (strcmp(name, "POMP_Loop_chunks_enter") == 0)
          res->refs_chunks = true;
      } else if (strncmp(name, "omp_", 4) == 0)
        res->refs_omp = true;
      else if (strncmp(name, "GOMP_", 5) == 0)
        res->refs_gomp = true;
      continue;
    }
    if ((type[0] == 'T' || type[0] == 'W') && is_init_function(name))
      du_argv_push(syms, name);
  }
}

static int compare_strings(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Runs nm on the files, in batches that keep the command line short. */
static void find_init_functions(const char *compiler,
                                const struct du_argv *files,
                                struct du_argv *syms, struct nm_result *res) {
  char *nm = du_nm_for(compiler);
  memset(res, 0, sizeof *res);
  for (size_t i = 0; i < files->n;) {
    struct du_argv cmd;
    du_argv_init(&cmd);
    du_argv_push(&cmd, nm);
    du_argv_push(&cmd, "-P");
    du_argv_push(&cmd, "-g");
    size_t len = 0;
    while (i < files->n && (cmd.n == 3 || len < 64 * 1024)) {
      len += strlen(files->v[i]) + 1;
      du_argv_push(&cmd, files->v[i++]);
    }
    if (opt_show) {
      du_print_command(stdout, cmd.v);
    } else {
      char *out;
      size_t out_len;
      int rc = du_run_capture(cmd.v, &out, &out_len, DU_ERR_ON_FAILURE);
      if (out)
        parse_nm_output(out, syms, res);
      free(out);
      if (rc != 0 && !res->failed)
        du_warning("'%s' failed (exit status %d); the constructs of inputs "
                   "it could not read are registered on first use instead",
                   nm, rc);
      if (rc != 0)
        res->failed = true;
    }
    du_argv_free(&cmd);
  }
  free(nm);
  /* Sort and drop duplicates. */
  qsort(syms->v, syms->n, sizeof *syms->v, compare_strings);
  size_t out = 0;
  for (size_t i = 0; i < syms->n; i++) {
    if (out > 0 && strcmp(syms->v[out - 1], syms->v[i]) == 0) {
      free(syms->v[i]);
      continue;
    }
    syms->v[out++] = syms->v[i];
  }
  syms->n = out;
  syms->v[out] = NULL;
}

static int write_init_unit(const char *path, const struct du_argv *syms) {
  FILE *f = fopen(path, "w");
  if (!f) {
    du_error("cannot write '%s': %s", path, strerror(errno));
    return 1;
  }
  fputs("/* generated by pomp-link */\n", f);
  for (size_t i = 0; i < syms->n; i++)
    fprintf(f, "extern void %s(void) __attribute__((weak));\n", syms->v[i]);
  fputs("__attribute__((visibility(\"hidden\"))) void "
        "POMP_Init_Handles(void);\n"
        "__attribute__((visibility(\"hidden\"))) void "
        "POMP_Init_Handles(void) {\n",
        f);
  for (size_t i = 0; i < syms->n; i++)
    fprintf(f, "  if (%s)\n    %s();\n", syms->v[i], syms->v[i]);
  /* libpompt is readied here rather than from its own constructor (the
   * tool starts in the last constructor below, at an OpenMP event before
   * it, or here with POMPT_TOOL_START=load): the constructors of the libraries
   * loaded with the program have run by now, a tool's among them when it is
   * linked with the program or preloaded (libpompt's would otherwise call into
   * it before its own, which crashed Caliper).  POMPT_Init, not POMP_Init,
   * which tools that implement OPARI's POMP interface define too (TAU;
   * preloaded, theirs would be called).  Priority 102: after libpompt's 101
   * ones in a static link, before the program's own constructors, which may run
   * OpenMP code (its first event then starts the tool).  The tool starts
   * at the last constructor, once the program's own have run (a tool
   * compiled into the program in C++ has its static objects): this unit
   * comes after the program's objects on the link line, and constructors
   * of one priority run in link order. */
  fputs("}\n"
        "const int POMPT_start_from_program_v1 = 1;\n"
        "extern int POMPT_Init(void);\n"
        "extern void POMPT_Start(void);\n"
        "__attribute__((constructor(102))) static void "
        "pompt_init_handles(void) {\n"
        "  POMPT_Init();\n"
        "  POMP_Init_Handles();\n"
        "}\n"
        "__attribute__((constructor)) static void pompt_start(void) {\n"
        "  POMPT_Start();\n"
        "}\n",
        f);
  if (fclose(f) != 0) {
    du_error("cannot write '%s': %s", path, strerror(errno));
    return 1;
  }
  return 0;
}

/* The symbols that start with prefix and that archive references weakly
 * (want 'w') or defines (want 'T'). */
static void archive_symbols(const char *nm, const char *archive,
                            const char *prefix, char want,
                            struct du_argv *out) {
  char *argv[] = {(char *)nm, "-P", (char *)archive, NULL};
  char *text = NULL;
  size_t len;
  if (du_run_capture(argv, &text, &len, DU_ERR_HIDE) == 0 && text) {
    for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
      char *sp = strchr(line, ' ');
      if (!sp || strncmp(line, prefix, strlen(prefix)) != 0 ||
          (sp[2] && sp[2] != ' '))
        continue;
      bool match = want == 'w' ? (sp[1] == 'w' || sp[1] == 'v')
                               : (sp[1] == 'T' || sp[1] == 'W');
      if (!match)
        continue;
      *sp = '\0';
      bool seen = false;
      for (size_t k = 0; k < out->n && !seen; k++)
        seen = strcmp(out->v[k], line) == 0;
      if (!seen)
        du_argv_push(out, line);
    }
  }
  free(text);
}

/* The OpenMP runtime archive a static link takes: the stubs for a serial
 * program, else libgomp.a or libomp.a as the compiler finds it. */
static char *runtime_archive(char *const compiler[], size_t n_compiler,
                             const struct link_line *l,
                             const struct du_paths *paths, bool serial) {
  if (serial)
    return du_xasprintf("%s/libpompt-stubs.a", paths->stubs_libdir);
  static const char *const names[] = {"libgomp.a", "libomp.a"};
  for (size_t i = 0; i < 2; i++) {
    struct du_argv cmd;
    du_argv_init(&cmd);
    for (size_t w = 0; w < n_compiler; w++)
      du_argv_push(&cmd, compiler[w]);
    du_argv_push_all(&cmd, &l->target);
    du_argv_pushf(&cmd, "-print-file-name=%s", names[i]);
    char *out = NULL;
    size_t len;
    int rc = du_run_capture(cmd.v, &out, &len, DU_ERR_HIDE);
    du_argv_free(&cmd);
    if (rc == 0 && out) {
      out[strcspn(out, "\n")] = '\0';
      if (out[0] == '/' && du_file_exists(out))
        return out;
    }
    free(out);
  }
  return NULL;
}

/* libpompt refers to the omp_ routines weakly: they resolve against
 * whichever runtime the program has, or stay NULL.  A static link pulls no
 * archive member for a weak reference, so the runtime's routines that
 * libpompt uses are named with -u to be linked. */
static void push_static_runtime_refs(struct du_argv *cmd,
                                     char *const compiler[], size_t n_compiler,
                                     const struct link_line *l,
                                     const struct du_paths *paths,
                                     bool serial) {
  char *nm = du_nm_for(compiler[n_compiler - 1]);
  char *runtime = runtime_archive(compiler, n_compiler, l, paths, serial);
  char *pompt = du_xasprintf("%s/libpompt.a", paths->libdir);
  struct du_argv weak, defined;
  du_argv_init(&weak);
  du_argv_init(&defined);
  if (runtime) {
    archive_symbols(nm, pompt, "omp_", 'w', &weak);
    archive_symbols(nm, runtime, "omp_", 'T', &defined);
  }
  for (size_t i = 0; i < weak.n; i++)
    for (size_t k = 0; k < defined.n; k++)
      if (strcmp(weak.v[i], defined.v[k]) == 0)
        du_argv_pushf(cmd, "-Wl,-u,%s", weak.v[i]);
  du_argv_free(&weak);
  du_argv_free(&defined);
  /* In a static link libgomp's entries cannot be interposed by defining
   * them again (libgomp.a defines them too, and there is no RTLD_NEXT):
   * a __wrap_GOMP_<x> that libpompt.a defines gets the program's calls of
   * GOMP_<x> through the linker's --wrap, and reaches libgomp's through
   * __real_GOMP_<x>, a weak reference, which -u makes the link resolve. */
  struct du_argv wraps, gomp;
  du_argv_init(&wraps);
  du_argv_init(&gomp);
  if (runtime) {
    archive_symbols(nm, pompt, "__wrap_GOMP_", 'T', &wraps);
    archive_symbols(nm, runtime, "GOMP_", 'T', &gomp);
  }
  for (size_t i = 0; i < wraps.n; i++)
    for (size_t k = 0; k < gomp.n; k++)
      if (strcmp(wraps.v[i] + 7, gomp.v[k]) == 0) {
        du_argv_pushf(cmd, "-Wl,--wrap=%s", gomp.v[k]);
        du_argv_pushf(cmd, "-Wl,-u,%s", gomp.v[k]);
      }
  du_argv_free(&wraps);
  du_argv_free(&gomp);
  free(pompt);
  free(runtime);
  free(nm);
}

/* -Wl,-rpath,<dir>, or the -Xlinker form when dir holds a comma. */
static void push_rpath(struct du_argv *cmd, const char *dir) {
  if (strchr(dir, ',')) {
    du_argv_push(cmd, "-Xlinker");
    du_argv_push(cmd, "-rpath");
    du_argv_push(cmd, "-Xlinker");
    du_argv_push(cmd, dir);
  } else {
    du_argv_pushf(cmd, "-Wl,-rpath,%s", dir);
  }
}

static bool has_library(const char *dir, const char *name, bool need_static) {
  char *a = du_xasprintf("%s/lib%s.a", dir, name);
  char *so = du_xasprintf("%s/lib%s.so", dir, name);
  bool found = du_file_exists(a) || (!need_static && du_file_exists(so));
  free(a);
  free(so);
  return found;
}

/* --loop-level=chunks points a unit's calls of libgomp's loop entries at
 * libpompt's with assembler aliases in a top-level asm statement.  GCC's
 * link-time optimisation emits top-level asm into the first of its
 * partitions only, so a loop compiled into another partition would call
 * libgomp directly and report no chunk.  A GCC link of such units (with
 * LTO objects or not: the option is inert without them) therefore gets
 * -flto-partition=one, unless the user chose a partitioning; one that
 * splits the program is kept, with a warning.  In the single partition
 * the aliases also cover the loops of units that were not instrumented at
 * the chunk level; libpompt passes those calls through unreported. */
static void push_lto_partition(struct du_argv *cmd, const char *compiler,
                               const struct link_line *l,
                               const struct nm_result *nmr) {
  if (!nmr->refs_chunks || strstr(du_basename(compiler), "clang"))
    return;
  const char *p = l->lto_partition;
  if (!p) {
    du_argv_push(cmd, "-flto-partition=one");
    return;
  }
  if (strcmp(p, "one") != 0 && strcmp(p, "none") != 0)
    du_warning("-flto-partition=%s: with link-time optimisation, the loops "
               "of --loop-level=chunks units outside the first partition "
               "report no chunks (use -flto-partition=one)",
               p);
}

/* rsp_from: the number of words that name the compiler (see du_run()). */
static int run_or_show(struct du_argv *cmd, size_t rsp_from) {
  if (opt_show) {
    du_print_command(stdout, cmd->v);
    return 0;
  }
  return du_run(cmd->v, rsp_from);
}

int main(int argc, char **argv) {
  du_progname = "pomp-link";
  int i = 1;
  for (; i < argc; i++) {
    const char *a = argv[i];
    if (strcmp(a, "--show") == 0) {
      opt_show = true;
    } else if (strcmp(a, "--verbose") == 0) {
      du_verbose = true;
    } else if (strcmp(a, "--keep") == 0) {
      opt_keep = true;
    } else if (strcmp(a, "--version") == 0) {
      printf("pomp-link (pompt) %s\n", POMPT_VERSION);
      return 0;
    } else if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
      usage(stdout);
      return 0;
    } else if (strcmp(a, "--") == 0) {
      i++;
      break;
    } else if (a[0] == '-') {
      du_error("unknown option '%s' (pomp-link's options come before the "
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

  int ncomp = du_compiler_words(argv, argc, i);
  const char *compiler = argv[i + ncomp - 1];
  char **user = argv + i + ncomp;
  size_t n_user = (size_t)(argc - i - ncomp);
  struct du_argv cmd;
  du_argv_init(&cmd);
  for (int w = 0; w < ncomp; w++)
    du_argv_push(&cmd, argv[i + w]);
  for (size_t k = 0; k < n_user; k++)
    du_argv_push(&cmd, user[k]);

  struct du_argv args;
  du_argv_init(&args);
  du_expand_response_files(user, n_user, &args, NULL);
  struct link_line l;
  memset(&l, 0, sizeof l);
  scan(&l, &args);
  du_argv_free(&args);

  int rc;
  struct du_paths paths;
  memset(&paths, 0, sizeof paths);
  struct du_argv syms;
  du_argv_init(&syms);
  if (l.relocatable || l.not_linking || l.n_inputs == 0) {
    rc = run_or_show(&cmd, (size_t)ncomp);
    goto out;
  }
  bool serial = !l.openmp && !l.shared;

  /* Archives -l finds in the compiler's own directories may hold
   * instrumented code too. */
  if (l.unresolved.n > 0 && !opt_show) {
    struct du_argv dirs;
    du_argv_init(&dirs);
    system_libdirs(argv + i, (size_t)ncomp, &l.target, &dirs);
    for (size_t k = 0; k < l.unresolved.n; k++)
      resolve_lib(&l, &dirs, l.unresolved.v[k] + 1,
                  l.unresolved.v[k][0] == 'S');
    du_argv_free(&dirs);
  }

  /* 1. the POMP_Init functions, and whether the link needs pompt at all */
  struct nm_result nmr;
  find_init_functions(compiler, &l.files, &syms, &nmr);
  /* Objects that call libgomp's entries without being instrumented (a
   * Fortran unit, an object built by plain gcc -fopenmp) get libpompt too:
   * it reports their regions from those entries. */
  if (!opt_show && !nmr.failed && !nmr.refs_pomp && !(serial && nmr.refs_omp) &&
      !(l.openmp && nmr.refs_gomp)) {
    rc = run_or_show(&cmd, (size_t)ncomp);
    goto out;
  }

  du_locate(&paths);
  if (!opt_show) {
    if (!has_library(paths.libdir, "pompt", l.is_static)) {
      du_error("cannot find libpompt in '%s' (set POMPT_LIBDIR to the "
               "directory that holds it)",
               paths.libdir);
      rc = 1;
      goto out;
    }
    if (serial &&
        !has_library(paths.stubs_libdir, "pompt-stubs", l.is_static)) {
      du_error("cannot find libpompt-stubs in '%s', which a program built "
               "without -fopenmp needs (set POMPT_STUBS_LIBDIR to the "
               "directory that holds it)",
               paths.stubs_libdir);
      rc = 1;
      goto out;
    }
  }

  /* A link line that names the runtime itself (`-lgomp` instead of
   * -fopenmp, as some makefiles have it) would put it before libpompt,
   * which then could not interpose its entries. */
  if (!l.is_static)
    put_libpompt_before_runtime(&cmd, (size_t)ncomp, paths.libdir);

  /* 2. the init unit */
  const char *tmpdir = du_tmpdir("pomp-link");
  char *src = du_xasprintf("%s/pompt_init.c", tmpdir);
  char *obj = du_xasprintf("%s/pompt_init.o", tmpdir);
  rc = opt_show ? 0 : write_init_unit(src, &syms);
  if (rc == 0) {
    struct du_argv cc;
    du_argv_init(&cc);
    for (int w = 0; w < ncomp; w++)
      du_argv_push(&cc, argv[i + w]);
    du_argv_push(&cc, "-x");
    du_argv_push(&cc, "c");
    du_argv_push(&cc, "-fPIC");
    du_argv_push_all(&cc, &l.target);
    du_argv_push(&cc, "-c");
    du_argv_push(&cc, src);
    du_argv_push(&cc, "-o");
    du_argv_push(&cc, obj);
    rc = run_or_show(&cc, (size_t)ncomp);
    du_argv_free(&cc);
  }

  /* 3. the link */
  if (rc == 0) {
    if (l.saw_x) {
      du_argv_push(&cmd, "-x");
      du_argv_push(&cmd, "none");
    }
    du_argv_push(&cmd, obj);
    bool other_stubs_dir = strcmp(paths.stubs_libdir, paths.libdir) != 0;
    du_argv_pushf(&cmd, "-L%s", paths.libdir);
    if (serial && other_stubs_dir)
      du_argv_pushf(&cmd, "-L%s", paths.stubs_libdir);
    /* Needed even where the program calls none of their functions itself
     * (libpompt sets up the tool interface; its omp_* references are weak
     * and would stay unresolved without a runtime), also when the compiler
     * links with --as-needed by default. */
    if (l.is_static && !opt_show)
      push_static_runtime_refs(&cmd, argv + i, (size_t)ncomp, &l, &paths,
                               serial);
    du_argv_push(&cmd, "-Wl,--push-state,--no-as-needed");
    du_argv_push(&cmd, "-lpompt");
    if (serial)
      du_argv_push(&cmd, "-lpompt-stubs");
    /* libpompt interposes libgomp's GOMP_parallel (to report a region when
     * it starts), so the linker may satisfy the program's GOMP_ calls from
     * libpompt and drop libgomp under --as-needed: name it after libpompt,
     * which also keeps libpompt first in the lookup order. */
    if (!l.is_static && (nmr.refs_gomp || uses_libgomp(compiler, &l)))
      du_argv_push(&cmd, "-lgomp");
    du_argv_push(&cmd, "-Wl,--pop-state");
    /* A tool linked into the program must be visible to libpompt's lookup
     * of ompt_start_tool in the address space (OpenMP 5.2 tool activation);
     * executables export nothing by default. */
    if (!l.shared)
      du_argv_push(&cmd, "-Wl,--export-dynamic-symbol=ompt_start_tool");
    push_rpath(&cmd, paths.libdir);
    if (serial && other_stubs_dir)
      push_rpath(&cmd, paths.stubs_libdir);
    if (du_sanitize_on(&paths))
      du_argv_pushf(&cmd, "-fsanitize=%s", paths.sanitize);
    push_lto_partition(&cmd, compiler, &l, &nmr);
    if (l.is_static) {
      /* What libpompt itself needs; a static link must name it. */
      du_argv_push(&cmd, "-lpthread");
      du_argv_push(&cmd, "-ldl");
    }
    rc = run_or_show(&cmd, (size_t)ncomp);
  }
  free(src);
  free(obj);

out:
  du_argv_free(&syms);
  du_paths_free(&paths);
  du_argv_free(&cmd);
  free_link_line(&l);
  du_cleanup();
  return rc;
}
