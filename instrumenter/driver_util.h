/*
 * driver_util.h -- pieces shared by the compiler drivers pomp-cc and
 * pomp-link: messages, argument vectors, running child processes, response
 * files, temporary directories with cleanup, the table of compiler options
 * and locating the rest of pompt (build tree or installed layout).
 *
 * Internal to instrumenter/.  Nothing here uses a shell: children are started
 * with posix_spawnp() from argv arrays.
 */
#ifndef POMPT_DRIVER_UTIL_H
#define POMPT_DRIVER_UTIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* ---- Messages -------------------------------------------------------------
 * "<progname>: error: ...", to stderr.  du_progname is set by main(). */
extern const char *du_progname;
/* When true, du_run() and du_run_capture() print every command to stderr
 * before running it. */
extern bool du_verbose;

void du_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void du_warning(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void du_note(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Allocation that never returns NULL (prints an error and exits 1). */
void *du_xmalloc(size_t size);
void *du_xrealloc(void *p, size_t size);
char *du_xstrdup(const char *s);
char *du_xstrndup(const char *s, size_t n);
char *du_xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* ---- Argument vectors ----------------------------------------------------
 * Always NULL-terminated (v[n] == NULL), so v can be handed to exec. Every
 * string is owned by the vector. */
struct du_argv {
  char **v;
  size_t n, cap;
};

void du_argv_init(struct du_argv *a);
void du_argv_push(struct du_argv *a, const char *s);
void du_argv_pushf(struct du_argv *a, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
void du_argv_push_all(struct du_argv *a, const struct du_argv *b);
void du_argv_free(struct du_argv *a);

/* Prints argv as one line of shell words (quoted where needed). */
void du_print_command(FILE *f, char *const argv[]);

/* ---- Running children ----------------------------------------------------
 * du_run() runs argv[0] (searched in PATH) with stdin/stdout/stderr
 * inherited and returns its exit status.  When the child cannot be started
 * it prints "cannot run 'X': reason" and returns 127 (not found) or 126;
 * when it dies from a signal it prints that and returns 128 + signal.
 *
 * rsp_from: when the command line would be very long, the arguments from
 * index rsp_from on are written to a response file "@file" in the temporary
 * directory (GCC and GNU binutils read those).  0 means never. */
int du_run(char *const argv[], size_t rsp_from);

/* What du_run_capture() does with the child's stderr. */
enum du_stderr {
  DU_ERR_SHOW,       /* inherited */
  DU_ERR_ON_FAILURE, /* shown only when the exit status is not 0 */
  DU_ERR_HIDE,       /* dropped */
};

/* Like du_run(), but collects the child's stdout into *out (NUL-terminated,
 * malloc'ed, *out_len bytes); the caller frees it. */
int du_run_capture(char *const argv[], char **out, size_t *out_len,
                   enum du_stderr err);

/* Like du_run() (no response file), but the child's stderr goes to the
 * file err_path (created or truncated). */
int du_run_stderr_to(char *const argv[], const char *err_path);

/* The whole file at path, NUL-terminated (*len bytes, malloc'ed), or NULL
 * when it cannot be read (errno says why). */
char *du_read_file(const char *path, size_t *len);

/* Copies the file at path to f (nothing if it cannot be read). */
void du_copy_file(const char *path, FILE *f);

/* Installs handlers for SIGINT, SIGTERM, SIGHUP and SIGQUIT: the signal is
 * forwarded to the running child, and once that has ended the temporary
 * files are removed and the process dies from the same signal. */
void du_install_signal_handlers(void);

/* ---- Temporary files -----------------------------------------------------
 * One temporary directory per process, made with mkdtemp() under $TMPDIR
 * (else /tmp) as "<tag>.XXXXXX".  Everything in it is removed at exit (by
 * atexit) unless du_keep_tmpdir(true) was called. */
const char *du_tmpdir(const char *tag);
void du_keep_tmpdir(bool keep);
/* Files outside the temporary directory to remove at exit or on a signal
 * (partial outputs).  Unregister once the file is complete. */
void du_cleanup_register(const char *path);
void du_cleanup_unregister(const char *path);
/* Removes everything registered (idempotent; also runs at exit). */
void du_cleanup(void);

/* ---- Response files ------------------------------------------------------
 * Expands "@file" arguments the way GCC does (whitespace-separated words,
 * '...' and "..." quoting, backslash escapes, nested @file).  An @file that
 * cannot be read is kept as it is.  If group is not NULL, *group receives a
 * malloc'ed array with, for every output argument, the index in `in` of the
 * top-level argument it came from (so callers can pass an @file on
 * unexpanded). */
void du_expand_response_files(char *const in[], size_t n_in,
                              struct du_argv *out, size_t **group);

/* ---- Compiler options ----------------------------------------------------
 * Which steps of the pipeline an option belongs to. */
enum {
  DU_PP = 1, /* preprocessing (cc -E) */
  DU_CC = 2, /* compiling the preprocessed unit */
  DU_LD = 4, /* linking */
  DU_ALL = 7
};

enum du_kind {
  DU_K_FLAG,       /* nothing special */
  DU_K_OUTPUT,     /* -o */
  DU_K_LANG,       /* -x */
  DU_K_MODE_C,     /* -c */
  DU_K_MODE_S,     /* -S */
  DU_K_MODE_E,     /* -E, -M, -MM: preprocess only */
  DU_K_PASSTHRU,   /* -fsyntax-only, -###: run the compiler unchanged */
  DU_K_DEP_MD,     /* -MD */
  DU_K_DEP_MMD,    /* -MMD */
  DU_K_DEP_MF,     /* -MF file */
  DU_K_DEP_MT,     /* -MT target, -MQ target */
  DU_K_STD,        /* -std=, -ansi */
  DU_K_OPENMP_ON,  /* -fopenmp, -qopenmp, -fopenmp=... */
  DU_K_OPENMP_OFF, /* -fno-openmp, -qno-openmp */
  DU_K_LIB,        /* -lname, -l name */
  DU_K_LIBDIR,     /* -Ldir */
  DU_K_DUMP,       /* -dumpdir, -dumpbase, -dumpbase-ext */
  DU_K_AUX,        /* an option that writes auxiliary files named after
                      the output (--coverage, -gsplit-dwarf, ...) */
  DU_K_SHARED,     /* -shared */
  DU_K_STATIC,     /* -static */
  DU_K_RELOC,      /* -r */
  DU_K_TARGET,     /* target selection the init unit must share: -m...,
                      -B, --sysroot, -target, -specs */
};

struct du_opt {
  unsigned where; /* DU_PP | DU_CC | DU_LD */
  enum du_kind kind;
  int nargs;         /* argv words the option occupies: 1 or 2 */
  const char *value; /* its argument (joined or the next word), or NULL */
};

/* Classifies the option arg (which starts with '-' and is not "-");
 * next is the following word or NULL. */
void du_match_option(const char *arg, const char *next, struct du_opt *o);

/* Input languages. */
enum du_lang {
  DU_LANG_C,     /* instrumented as C */
  DU_LANG_CXX,   /* instrumented as C++ */
  DU_LANG_OTHER, /* compiled unchanged (assembler, headers, .i, Fortran...) */
  DU_LANG_LINK   /* object, archive, library or unknown: linker input */
};
/* From the file name (as GCC does); cxx_driver: the compiler is a C++
 * driver (g++, clang++), which treats .c and .i as C++. */
enum du_lang du_lang_from_name(const char *path, bool cxx_driver);
/* From the value of -x; *reset is set for "none". */
enum du_lang du_lang_from_x(const char *x, bool *reset);
/* Whether the compiler makes a precompiled header of this input instead of
 * an object: xlang (the -x value in force, or NULL) ends in "-header", or
 * there is none and the name has a header suffix (.h, .hpp, ...). */
bool du_is_header(const char *path, const char *xlang);

/* ---- The compiler command ------------------------------------------------
 * How many words of argv, from index i, name the compiler: 2 when argv[i]
 * is a compiler launcher (ccache, sccache, distcc, icecc, buildcache)
 * followed by the compiler, else 1.  The last of them is the compiler. */
int du_compiler_words(char *const argv[], int argc, int i);
/* The nm that reads the objects this compiler writes: $POMPT_NM; else
 * llvm-nm[-N] for clang[-N] (it reads LLVM bitcode, as from -flto),
 * [<triple>-]gcc-nm[-N] for [<triple>-]gcc[-N] or g++ (it reads that GCC's
 * -flto objects), or <triple>-nm for a <triple>-gcc cross compiler, when
 * found in PATH; else "nm".  The caller frees the result. */
char *du_nm_for(const char *compiler);

/* ---- Paths ----------------------------------------------------------------
 */
const char *du_basename(const char *path);
char *du_dirname(const char *path);      /* "." when no directory */
const char *du_suffix(const char *path); /* ".c" or "" */
char *du_stem(const char *path);         /* basename minus suffix */
char *du_strip_suffix(const char *path); /* path minus suffix */
bool du_file_exists(const char *path);

/* ---- Locating pompt --------------------------------------------------------
 * From <dir of /proc/self/exe>/pompt-build-tree.conf when that exists (the
 * build tree), else the installed layout relative to the executable; then
 * the environment (POMPT_INSTR, POMPT_LINK, POMPT_INCLUDE, POMPT_LIBDIR,
 * POMPT_STUBS_LIBDIR) overrides. */
struct du_paths {
  char *pomp_instr;   /* the pomp-instr executable */
  char *pomp_link;    /* the pomp-link executable */
  char *pomp_include; /* directory holding pomp.h */
  char *ompt_include; /* directory holding omp-tools.h */
  char *libdir;       /* directory holding libpompt.so / libpompt.a */
  char *stubs_libdir; /* directory holding libpompt-stubs */
  char *sanitize;     /* b_sanitize of the build tree, "none" if installed */
  char *conf;         /* the build-tree file used, or NULL */
};
void du_locate(struct du_paths *p);
void du_paths_free(struct du_paths *p);

/* True when the value of the build's b_sanitize asks for a sanitizer. */
bool du_sanitize_on(const struct du_paths *p);

#endif /* POMPT_DRIVER_UTIL_H */
