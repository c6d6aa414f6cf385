/*
 * pomp-link -- the pre-linker of pompt (seed 004, Appendix B).
 *
 *   pomp-link [--show] [--verbose] [--keep] <compiler> <link args...>
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
 *   __attribute__((constructor)) static void pompt_init_handles(void) {
 *     POMP_Init_Handles();
 *   }
 *
 * compiles it with the same compiler and links it with the user's objects,
 * libpompt and, for a program built without OpenMP, libpompt-stubs.  The
 * references are weak so that an archive member the link does not otherwise
 * need is not pulled in by them.  POMP_Init_Handles is hidden so that every
 * executable and shared library gets its own.
 *
 * A relocatable link (-r), a command that does not link (-c, -S, -E) or one
 * without inputs runs unchanged.
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
          "usage: pomp-link [--show] [--verbose] [--keep] <compiler> "
          "[link args...]\n"
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

/* ---- What the link line holds ---------------------------------------------- */

struct link_line {
  struct du_argv files;     /* objects and archives to scan */
  struct du_argv libdirs;   /* -L directories */
  struct du_argv target;    /* options the init unit is compiled with too */
  bool shared, is_static, relocatable, not_linking;
  bool openmp;         /* -fopenmp or an OpenMP runtime library */
  size_t n_inputs;     /* files and -l libraries */
};

enum file_kind { FILE_OTHER, FILE_OBJECT, FILE_ARCHIVE };

/* Looks at the first bytes: an ELF relocatable object or an ar archive. */
static enum file_kind file_kind(const char *path) {
  FILE *f = fopen(path, "rb");
  if (!f)
    return FILE_OTHER;
  unsigned char h[18];
  size_t n = fread(h, 1, sizeof h, f);
  fclose(f);
  if (n >= 8 && (memcmp(h, "!<arch>\n", 8) == 0 ||
                 memcmp(h, "!<thin>\n", 8) == 0))
    return FILE_ARCHIVE;
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
  static const char *const names[] = {"gomp", "omp", "iomp5", "iomp5md",
                                      "omp5", NULL};
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

/* -lname: the archive the linker would take from one of the user's -L
 * directories (system directories hold no instrumented code). */
static void resolve_lib(struct link_line *l, const char *lib, bool bstatic) {
  for (size_t i = 0; i < l->libdirs.n; i++) {
    const char *dir = l->libdirs.v[i];
    if (lib[0] == ':') {
      char *p = du_xasprintf("%s/%s", dir, lib + 1);
      bool exists = du_file_exists(p);
      if (exists)
        add_file(l, p);
      free(p);
      if (exists)
        return;
      continue;
    }
    if (!bstatic) {
      char *so = du_xasprintf("%s/lib%s.so", dir, lib);
      bool exists = du_file_exists(so);
      free(so);
      if (exists)
        return;
    }
    char *a = du_xasprintf("%s/lib%s.a", dir, lib);
    bool exists = du_file_exists(a);
    if (exists)
      add_file(l, a);
    free(a);
    if (exists)
      return;
  }
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
  for (size_t k = 0; k < args->n;) {
    const char *a = args->v[k];
    if (a[0] != '-' || !a[1]) {
      l->n_inputs++;
      add_file(l, a);
      /* .../libgomp.so, as CMake writes it */
      char *lib = du_xasprintf(":%s", du_basename(a));
      if (is_openmp_runtime(lib))
        l->openmp = true;
      free(lib);
      k++;
      continue;
    }
    struct du_opt o;
    du_match_option(a, args->v[k + 1], &o);
    switch (o.kind) {
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
        resolve_lib(l, o.value, bstatic);
      }
      break;
    case DU_K_TARGET:
      for (int w = 0; w < o.nargs; w++)
        du_argv_push(&l->target, args->v[k + (size_t)w]);
      break;
    default:
      if (strncmp(a, "-Wl,", 4) == 0)
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
}

/* ---- Finding the POMP_Init functions --------------------------------------- */

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

static void parse_nm_output(char *text, struct du_argv *syms) {
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
    if (!(type[0] == 'T' || type[0] == 'W') ||
        (type[1] && !isspace((unsigned char)type[1])))
      continue;
    if (is_init_function(name))
      du_argv_push(syms, name);
  }
}

static int compare_strings(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Runs nm on the files, in batches that keep the command line short. */
static void find_init_functions(const struct du_argv *files,
                                struct du_argv *syms) {
  const char *nm = getenv("POMPT_NM");
  if (!nm || !*nm)
    nm = "nm";
  bool warned = false;
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
      int rc = du_run_capture(cmd.v, &out, &out_len);
      if (out)
        parse_nm_output(out, syms);
      free(out);
      if (rc != 0 && !warned) {
        du_warning("'%s' failed (exit status %d); the constructs of inputs "
                   "it could not read are registered on first use instead",
                   nm, rc);
        warned = true;
      }
    }
    du_argv_free(&cmd);
  }
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
  fputs("}\n"
        "__attribute__((constructor)) static void pompt_init_handles(void) {\n"
        "  POMP_Init_Handles();\n"
        "}\n",
        f);
  if (fclose(f) != 0) {
    du_error("cannot write '%s': %s", path, strerror(errno));
    return 1;
  }
  return 0;
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

static int run_or_show(struct du_argv *cmd) {
  if (opt_show) {
    du_print_command(stdout, cmd->v);
    return 0;
  }
  return du_run(cmd->v, 1);
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

  char **user = argv + i + 1;
  size_t n_user = (size_t)(argc - i - 1);
  struct du_argv cmd;
  du_argv_init(&cmd);
  du_argv_push(&cmd, argv[i]);
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
  if (l.relocatable || l.not_linking || l.n_inputs == 0) {
    rc = run_or_show(&cmd);
    goto out;
  }

  struct du_paths paths;
  du_locate(&paths);
  bool serial = !l.openmp && !l.shared;
  if (!opt_show) {
    if (!has_library(paths.libdir, "pompt", l.is_static)) {
      du_error("cannot find libpompt in '%s' (set POMPT_LIBDIR to the "
               "directory that holds it)",
               paths.libdir);
      rc = 1;
      goto out_paths;
    }
    if (serial && !has_library(paths.stubs_libdir, "pompt-stubs",
                               l.is_static)) {
      du_error("cannot find libpompt-stubs in '%s', which a program built "
               "without -fopenmp needs (set POMPT_STUBS_LIBDIR to the "
               "directory that holds it)",
               paths.stubs_libdir);
      rc = 1;
      goto out_paths;
    }
  }

  /* 1. the POMP_Init functions */
  struct du_argv syms;
  du_argv_init(&syms);
  find_init_functions(&l.files, &syms);

  /* 2. the init unit */
  const char *tmpdir = du_tmpdir("pomp-link");
  char *src = du_xasprintf("%s/pompt_init.c", tmpdir);
  char *obj = du_xasprintf("%s/pompt_init.o", tmpdir);
  rc = opt_show ? 0 : write_init_unit(src, &syms);
  du_argv_free(&syms);
  if (rc == 0) {
    struct du_argv cc;
    du_argv_init(&cc);
    du_argv_push(&cc, argv[i]);
    du_argv_push(&cc, "-x");
    du_argv_push(&cc, "c");
    du_argv_push(&cc, "-fPIC");
    du_argv_push_all(&cc, &l.target);
    du_argv_push(&cc, "-c");
    du_argv_push(&cc, src);
    du_argv_push(&cc, "-o");
    du_argv_push(&cc, obj);
    rc = run_or_show(&cc);
    du_argv_free(&cc);
  }

  /* 3. the link */
  if (rc == 0) {
    du_argv_push(&cmd, obj);
    bool other_stubs_dir = strcmp(paths.stubs_libdir, paths.libdir) != 0;
    du_argv_pushf(&cmd, "-L%s", paths.libdir);
    if (serial && other_stubs_dir)
      du_argv_pushf(&cmd, "-L%s", paths.stubs_libdir);
    /* Needed even where the program calls none of their functions itself
     * (libpompt sets up the tool interface; its omp_* references are weak
     * and would stay unresolved without a runtime), also when the compiler
     * links with --as-needed by default. */
    du_argv_push(&cmd, "-Wl,--push-state,--no-as-needed");
    du_argv_push(&cmd, "-lpompt");
    if (serial)
      du_argv_push(&cmd, "-lpompt-stubs");
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
    if (l.is_static) {
      /* What libpompt itself needs; a static link must name it. */
      du_argv_push(&cmd, "-lpthread");
      du_argv_push(&cmd, "-ldl");
    }
    rc = run_or_show(&cmd);
  }
  free(src);
  free(obj);

out_paths:
  du_paths_free(&paths);
out:
  du_argv_free(&cmd);
  free_link_line(&l);
  du_cleanup();
  return rc;
}
