/*
 * pomp_instr.c -- pomp-instr: wrap the OpenMP constructs of a preprocessed
 * C or C++ translation unit in POMP monitoring calls.
 *
 *     pomp-instr foo.i -o foo.pomp.i [--lang c|c++] [--std=gnu17]
 *                [--clang-arg ARG]... [--disable=GROUP[,GROUP]...]
 *                [--loop-level=enterexit|chunks|iterations]
 *     pomp-instr --check-options [options]   (checks them, for pomp-cc)
 *
 * doc/instrumentation.md specifies the output.  The output file is written
 * to a temporary file beside it and renamed into place only when the whole
 * unit was rewritten; on any error there is no output file and the exit
 * status is 1.
 */
#define _XOPEN_SOURCE 700

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "instr_ctc.h"
#include "instr_rewrite.h"

#if defined(__has_include)
#if __has_include("pompt_driver_config.h")
#include "pompt_driver_config.h"
#endif
#endif
#ifndef POMPT_VERSION
#define POMPT_VERSION "unknown"
#endif

static const char usage[] =
    "usage: pomp-instr INPUT.i -o OUTPUT [options]\n"
    "\n"
    "Wraps the OpenMP constructs of a preprocessed C/C++ translation unit in\n"
    "POMP monitoring calls.  INPUT.i must be the output of\n"
    "  cc -E -D_POMP=202611 -DPOMP_H_FORCED \\\n"
    "     -include <prefix>/include/pompt/pomp.h ...\n"
    "and the result is compiled with  cc -x cpp-output  (-x c++-cpp-output).\n"
    "\n"
    "options:\n"
    "  -o OUTPUT          write the instrumented unit to OUTPUT ('-': stdout)\n"
    "  --lang c|c++       language of the unit (default: from the extension "
    "of\n"
    "                     the main source file named in the line markers)\n"
    "  --std=STD          language standard, as for the compiler (gnu17, "
    "c++17)\n"
    "  --clang-arg ARG    pass ARG to libclang when parsing (repeatable)\n"
    "  --disable=GROUPS   instrument no construct of these groups (comma\n"
    "                     separated): parallel, loop, workshare, sync, task,\n"
    "                     runtime, user, target\n"
    "  --loop-level=L     enterexit (default), chunks or iterations\n"
    "  (options in the environment variable POMPT_INSTR_OPTIONS come first)\n"
    "  --check-options    check the options only (no input, no output);\n"
    "                     pomp-cc uses it for --instr-opt\n"
    "  --help             show this help and exit\n"
    "  --version          show the version and exit\n";

static int usage_error(const char *fmt, const char *arg) {
  fputs("pomp-instr: error: ", stderr);
  fprintf(stderr, fmt, arg);
  fputs("\n(try 'pomp-instr --help')\n", stderr);
  return 1;
}

static char *read_file(const char *path, size_t *len) {
  FILE *f = fopen(path, "rb");
  if (!f) {
    fprintf(stderr, "pomp-instr: error: cannot open '%s': %s\n", path,
            strerror(errno));
    return NULL;
  }
  struct instr_buf b = {0};
  char chunk[65536];
  size_t n;
  while ((n = fread(chunk, 1, sizeof chunk, f)) > 0)
    instr_buf_add(&b, chunk, n);
  if (ferror(f)) {
    fprintf(stderr, "pomp-instr: error: cannot read '%s': %s\n", path,
            strerror(errno));
    fclose(f);
    instr_buf_free(&b);
    return NULL;
  }
  fclose(f);
  if (memchr(b.data ? b.data : "", '\0', b.len)) {
    fprintf(
        stderr,
        "pomp-instr: error: '%s' is not a text file (it contains NUL bytes)\n",
        path);
    instr_buf_free(&b);
    return NULL;
  }
  *len = b.len;
  return instr_buf_take(&b);
}

static int write_all(int fd, const char *data, size_t len) {
  while (len > 0) {
    ssize_t w = write(fd, data, len);
    if (w < 0) {
      if (errno == EINTR)
        continue;
      return -1;
    }
    data += w;
    len -= (size_t)w;
  }
  return 0;
}

/* Writes data to path through a temporary file in the same directory. */
static int write_atomically(const char *path, const char *data, size_t len) {
  if (strcmp(path, "-") == 0) {
    if (write_all(STDOUT_FILENO, data, len) < 0) {
      fprintf(stderr, "pomp-instr: error: cannot write the output: %s\n",
              strerror(errno));
      return -1;
    }
    return 0;
  }
  struct instr_buf tmp = {0};
  instr_buf_printf(&tmp, "%s.tmp.XXXXXX", path);
  int fd = mkstemp(tmp.data);
  if (fd < 0) {
    fprintf(stderr,
            "pomp-instr: error: cannot create a temporary file for '%s': %s\n",
            path, strerror(errno));
    instr_buf_free(&tmp);
    return -1;
  }
  /* mkstemp creates the file 0600; give it the mode a new file gets. */
  mode_t mask = umask(0);
  umask(mask);
  int ok = fchmod(fd, 0666 & ~mask) == 0 && write_all(fd, data, len) == 0;
  int saved = errno;
  if (close(fd) != 0 && ok) {
    ok = 0;
    saved = errno;
  }
  if (ok && rename(tmp.data, path) != 0) {
    ok = 0;
    saved = errno;
  }
  if (!ok) {
    fprintf(stderr, "pomp-instr: error: cannot write '%s': %s\n", path,
            strerror(saved));
    unlink(tmp.data);
  }
  instr_buf_free(&tmp);
  return ok ? 0 : -1;
}

/* "--name=value" or "--name value"; returns the value or NULL. */
static const char *option_value(int argc, char **argv, int *i,
                                const char *name) {
  size_t n = strlen(name);
  const char *a = argv[*i];
  if (strncmp(a, name, n) != 0)
    return NULL;
  if (a[n] == '=')
    return a + n + 1;
  if (a[n] != '\0')
    return NULL;
  if (*i + 1 >= argc) {
    usage_error("option '%s' needs an argument", name);
    exit(1);
  }
  return argv[++*i];
}

/* Options from the environment (POMPT_INSTR_OPTIONS, blank-separated) come
 * before those of the command line, so that pomp-cc users can set them. */
static char **with_env_options(int *argc, char **argv, char **env_copy) {
  const char *env = getenv("POMPT_INSTR_OPTIONS");
  *env_copy = NULL;
  if (!env || !*env)
    return argv;
  *env_copy = instr_xstrndup(env, strlen(env));
  size_t n = 0;
  for (char *p = *env_copy; *p; p++)
    n++;
  char **v = instr_xmalloc(((size_t)*argc + n + 1) * sizeof *v);
  int k = 0;
  v[k++] = argv[0];
  for (char *tok = strtok(*env_copy, " \t\n"); tok; tok = strtok(NULL, " \t\n"))
    v[k++] = tok;
  for (int i = 1; i < *argc; i++)
    v[k++] = argv[i];
  v[k] = NULL;
  *argc = k;
  return v;
}

int main(int argc, char **argv) {
  char *env_copy = NULL;
  char **orig_argv = argv;
  argv = with_env_options(&argc, argv, &env_copy);
  const char *input = NULL, *output = NULL;
  int check_only = 0;
  struct instr_options opts = {INSTR_LANG_AUTO,     NULL, NULL, 0, 0,
                               INSTR_LOOP_ENTEREXIT};
  const char **clang_args = instr_xmalloc((size_t)argc * sizeof *clang_args);
  size_t n_clang_args = 0;
  int rc = 1;

  for (int i = 1; i < argc; i++) {
    const char *a = argv[i], *v;
    if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
      fputs(usage, stdout);
      rc = 0;
      goto out;
    } else if (strcmp(a, "--version") == 0) {
      printf("pomp-instr (pompt) %s\n", POMPT_VERSION);
      rc = 0;
      goto out;
    } else if (strcmp(a, "--check-options") == 0) {
      check_only = 1;
    } else if (strcmp(a, "-o") == 0) {
      if (i + 1 >= argc) {
        usage_error("option '%s' needs an argument", "-o");
        goto out;
      }
      output = argv[++i];
    } else if (strncmp(a, "-o", 2) == 0 && a[2] != '\0') {
      output = a + 2;
    } else if ((v = option_value(argc, argv, &i, "--lang")) != NULL) {
      if (strcmp(v, "c") == 0)
        opts.lang = INSTR_LANG_C;
      else if (strcmp(v, "c++") == 0 || strcmp(v, "cxx") == 0)
        opts.lang = INSTR_LANG_CXX;
      else {
        usage_error("unknown language '%s' (expected c or c++)", v);
        goto out;
      }
    } else if ((v = option_value(argc, argv, &i, "--std")) != NULL) {
      opts.std = v;
    } else if ((v = option_value(argc, argv, &i, "--clang-arg")) != NULL) {
      clang_args[n_clang_args++] = v;
    } else if ((v = option_value(argc, argv, &i, "--disable")) != NULL) {
      const char *bad = NULL;
      if (instr_parse_groups(v, &opts.disabled, &bad) < 0) {
        usage_error("unknown group in --disable: '%s' (groups: parallel, "
                    "loop, workshare, sync, task, runtime, user, target)",
                    bad);
        goto out;
      }
    } else if ((v = option_value(argc, argv, &i, "--loop-level")) != NULL) {
      if (strcmp(v, "enterexit") == 0) {
        opts.loop_level = INSTR_LOOP_ENTEREXIT;
      } else if (strcmp(v, "iterations") == 0) {
        opts.loop_level = INSTR_LOOP_ITERATIONS;
      } else if (strcmp(v, "chunks") == 0) {
        opts.loop_level = INSTR_LOOP_CHUNKS;
      } else {
        usage_error("unknown loop level '%s' (expected enterexit, chunks or "
                    "iterations)",
                    v);
        goto out;
      }
    } else if (a[0] == '-' && a[1] != '\0') {
      usage_error("unknown option '%s'", a);
      goto out;
    } else if (input) {
      usage_error("more than one input file ('%s')", a);
      goto out;
    } else {
      input = a;
    }
  }
  if (check_only) {
    if (input || output)
      usage_error("%s", "--check-options takes no input or output file");
    else
      rc = 0;
    goto out;
  }
  if (!input) {
    usage_error("%s", "no input file");
    goto out;
  }
  if (!output) {
    usage_error("%s", "no output file (use -o OUTPUT)");
    goto out;
  }
  opts.clang_args = clang_args;
  opts.n_clang_args = n_clang_args;

  size_t len = 0;
  char *text = read_file(input, &len);
  if (!text)
    goto out;
  struct instr_buf result = {0};
  if (instr_rewrite_unit(input, text, len, &opts, &result) == 0 &&
      write_atomically(output, result.data ? result.data : "", result.len) == 0)
    rc = 0;
  instr_buf_free(&result);
  free(text);

out:
  free(clang_args);
  if (argv != orig_argv)
    free(argv);
  free(env_copy);
  return rc;
}
