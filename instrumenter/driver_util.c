/*
 * driver_util.c -- see driver_util.h.
 */
#define _POSIX_C_SOURCE 200809L
#define _XOPEN_SOURCE 700

#include "driver_util.h"

#include "pompt_driver_config.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <signal.h>
#include <spawn.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

const char *du_progname = "pomp-cc";
bool du_verbose = false;

/* ---- Messages ------------------------------------------------------------ */

static void vmessage(const char *what, const char *fmt, va_list ap) {
  fprintf(stderr, "%s: %s: ", du_progname, what);
  vfprintf(stderr, fmt, ap);
  fputc('\n', stderr);
}

void du_error(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vmessage("error", fmt, ap);
  va_end(ap);
}

void du_warning(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vmessage("warning", fmt, ap);
  va_end(ap);
}

void du_note(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vmessage("note", fmt, ap);
  va_end(ap);
}

static _Noreturn void out_of_memory(void) {
  du_error("out of memory");
  exit(1);
}

void *du_xmalloc(size_t size) {
  void *p = malloc(size ? size : 1);
  if (!p)
    out_of_memory();
  return p;
}

void *du_xrealloc(void *p, size_t size) {
  p = realloc(p, size ? size : 1);
  if (!p)
    out_of_memory();
  return p;
}

char *du_xstrdup(const char *s) {
  return du_xstrndup(s, strlen(s));
}

char *du_xstrndup(const char *s, size_t n) {
  char *p = du_xmalloc(n + 1);
  memcpy(p, s, n);
  p[n] = '\0';
  return p;
}

static char *vxasprintf(const char *fmt, va_list ap) {
  char small[256];
  va_list ap2;
  va_copy(ap2, ap);
  int len = vsnprintf(small, sizeof small, fmt, ap2);
  va_end(ap2);
  if (len < 0)
    out_of_memory();
  char *p = du_xmalloc((size_t)len + 1);
  if ((size_t)len < sizeof small)
    memcpy(p, small, (size_t)len + 1);
  else
    vsnprintf(p, (size_t)len + 1, fmt, ap);
  return p;
}

char *du_xasprintf(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  char *p = vxasprintf(fmt, ap);
  va_end(ap);
  return p;
}

/* ---- Argument vectors ---------------------------------------------------- */

void du_argv_init(struct du_argv *a) {
  a->n = 0;
  a->cap = 8;
  a->v = du_xmalloc(a->cap * sizeof *a->v);
  a->v[0] = NULL;
}

static void argv_push_owned(struct du_argv *a, char *s) {
  if (a->n + 1 >= a->cap) {
    a->cap *= 2;
    a->v = du_xrealloc(a->v, a->cap * sizeof *a->v);
  }
  a->v[a->n++] = s;
  a->v[a->n] = NULL;
}

void du_argv_push(struct du_argv *a, const char *s) {
  argv_push_owned(a, du_xstrdup(s));
}

void du_argv_pushf(struct du_argv *a, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  argv_push_owned(a, vxasprintf(fmt, ap));
  va_end(ap);
}

void du_argv_push_all(struct du_argv *a, const struct du_argv *b) {
  for (size_t i = 0; i < b->n; i++)
    du_argv_push(a, b->v[i]);
}

void du_argv_free(struct du_argv *a) {
  if (!a->v)
    return;
  for (size_t i = 0; i < a->n; i++)
    free(a->v[i]);
  free(a->v);
  a->v = NULL;
  a->n = a->cap = 0;
}

static bool shell_safe(const char *s) {
  if (!*s)
    return false;
  for (; *s; s++) {
    unsigned char c = (unsigned char)*s;
    if (!(isalnum(c) || strchr("_@%+=:,./-", c)))
      return false;
  }
  return true;
}

void du_print_command(FILE *f, char *const argv[]) {
  for (size_t i = 0; argv[i]; i++) {
    if (i)
      fputc(' ', f);
    if (shell_safe(argv[i])) {
      fputs(argv[i], f);
      continue;
    }
    fputc('\'', f);
    for (const char *p = argv[i]; *p; p++) {
      if (*p == '\'')
        fputs("'\\''", f);
      else
        fputc(*p, f);
    }
    fputc('\'', f);
  }
  fputc('\n', f);
  fflush(f);
}

/* ---- Temporary files and cleanup ----------------------------------------- */

static char *tmpdir_path;
static bool tmpdir_keep;
static char **cleanup_files;
static size_t n_cleanup_files, cap_cleanup_files;
static bool atexit_done;

static void ensure_atexit(void) {
  if (!atexit_done) {
    atexit(du_cleanup);
    atexit_done = true;
  }
}

const char *du_tmpdir(const char *tag) {
  if (tmpdir_path)
    return tmpdir_path;
  const char *base = getenv("TMPDIR");
  if (!base || !*base)
    base = "/tmp";
  char *templ = du_xasprintf("%s/%s.XXXXXX", base, tag ? tag : du_progname);
  if (!mkdtemp(templ)) {
    du_error("cannot create a temporary directory '%s': %s", templ,
             strerror(errno));
    free(templ);
    exit(1);
  }
  ensure_atexit();
  tmpdir_path = templ;
  return tmpdir_path;
}

void du_keep_tmpdir(bool keep) {
  tmpdir_keep = keep;
}

void du_cleanup_register(const char *path) {
  ensure_atexit();
  if (n_cleanup_files == cap_cleanup_files) {
    cap_cleanup_files = cap_cleanup_files ? 2 * cap_cleanup_files : 8;
    cleanup_files =
        du_xrealloc(cleanup_files, cap_cleanup_files * sizeof *cleanup_files);
  }
  cleanup_files[n_cleanup_files++] = du_xstrdup(path);
}

void du_cleanup_unregister(const char *path) {
  for (size_t i = 0; i < n_cleanup_files; i++) {
    if (strcmp(cleanup_files[i], path) == 0) {
      free(cleanup_files[i]);
      cleanup_files[i] = cleanup_files[--n_cleanup_files];
      return;
    }
  }
}

static int remove_entry(const char *path, const struct stat *st, int flag,
                        struct FTW *ftw) {
  (void)st;
  (void)ftw;
  if (flag == FTW_DP)
    rmdir(path);
  else
    unlink(path);
  return 0;
}

void du_cleanup(void) {
  for (size_t i = 0; i < n_cleanup_files; i++) {
    unlink(cleanup_files[i]);
    free(cleanup_files[i]);
  }
  free(cleanup_files);
  cleanup_files = NULL;
  n_cleanup_files = cap_cleanup_files = 0;
  if (tmpdir_path) {
    if (tmpdir_keep)
      du_note("temporary files kept in '%s'", tmpdir_path);
    else
      nftw(tmpdir_path, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
    free(tmpdir_path);
    tmpdir_path = NULL;
  }
}

/* ---- Signals ------------------------------------------------------------- */

static volatile sig_atomic_t pending_signal;
static volatile pid_t running_child;
static const int handled_signals[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT};

static void on_signal(int sig) {
  pending_signal = sig;
  pid_t child = running_child;
  if (child > 0)
    kill(child, sig);
}

void du_install_signal_handlers(void) {
  for (size_t i = 0; i < sizeof handled_signals / sizeof *handled_signals;
       i++) {
    struct sigaction old;
    /* A signal ignored by whoever started us stays ignored. */
    if (sigaction(handled_signals[i], NULL, &old) == 0 &&
        old.sa_handler == SIG_IGN)
      continue;
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = 0; /* no SA_RESTART: waitpid() returns EINTR */
    sigaction(handled_signals[i], &sa, NULL);
  }
}

static void die_if_signalled(void) {
  int sig = pending_signal;
  if (!sig)
    return;
  du_keep_tmpdir(false);
  du_cleanup();
  signal(sig, SIG_DFL);
  sigset_t set;
  sigemptyset(&set);
  sigaddset(&set, sig);
  sigprocmask(SIG_UNBLOCK, &set, NULL);
  raise(sig);
  _exit(128 + sig);
}

/* ---- Running children ---------------------------------------------------- */

/* Writes argv[from..] to a response file; returns its name. */
static char *write_response_file(char *const argv[], size_t from) {
  static unsigned counter;
  char *path = du_xasprintf("%s/args%u.rsp", du_tmpdir(NULL), ++counter);
  FILE *f = fopen(path, "w");
  if (!f) {
    free(path);
    return NULL;
  }
  for (size_t i = from; argv[i]; i++) {
    if (!*argv[i])
      fputs("\"\"", f);
    for (const char *p = argv[i]; *p; p++) {
      if (isspace((unsigned char)*p) || *p == '\'' || *p == '"' || *p == '\\')
        fputc('\\', f);
      fputc(*p, f);
    }
    fputc('\n', f);
  }
  if (fclose(f) != 0) {
    unlink(path);
    free(path);
    return NULL;
  }
  return path;
}

static int wait_child(pid_t pid, const char *name) {
  int status;
  for (;;) {
    pid_t r = waitpid(pid, &status, 0);
    if (r == pid)
      break;
    if (r < 0 && errno != EINTR) {
      du_error("waiting for '%s': %s", name, strerror(errno));
      running_child = 0;
      return 1;
    }
  }
  running_child = 0;
  die_if_signalled();
  if (WIFEXITED(status))
    return WEXITSTATUS(status);
  if (WIFSIGNALED(status)) {
    int sig = WTERMSIG(status);
    du_error("'%s' was terminated by signal %d (%s)", name, sig,
             strsignal(sig));
    return 128 + sig;
  }
  return 1;
}

static int spawn(char *const argv[], posix_spawn_file_actions_t *fa,
                 pid_t *pid) {
  die_if_signalled();
  if (du_verbose)
    du_print_command(stderr, argv);
  fflush(stdout);
  fflush(stderr);
  int err = posix_spawnp(pid, argv[0], fa, NULL, argv, environ);
  if (err) {
    du_error("cannot run '%s': %s", argv[0], strerror(err));
    return err == ENOENT ? 127 : 126;
  }
  running_child = *pid;
  return 0;
}

int du_run(char *const argv[], size_t rsp_from) {
  size_t total = 0, n = 0;
  for (; argv[n]; n++)
    total += strlen(argv[n]) + 1;
  char *rsp = NULL;
  char **rsp_argv = NULL;
  /* Linux allows 2 MiB of arguments and environment in all; stay far below
   * so that the environment keeps its room. */
  if (rsp_from > 0 && rsp_from < n && total > 128 * 1024) {
    rsp = write_response_file(argv, rsp_from);
    if (rsp) {
      rsp_argv = du_xmalloc((rsp_from + 2) * sizeof *rsp_argv);
      for (size_t i = 0; i < rsp_from; i++)
        rsp_argv[i] = argv[i];
      rsp_argv[rsp_from] = du_xasprintf("@%s", rsp);
      rsp_argv[rsp_from + 1] = NULL;
      argv = rsp_argv;
    }
  }
  pid_t pid;
  int rc = spawn(argv, NULL, &pid);
  if (rc == 0)
    rc = wait_child(pid, argv[0]);
  if (rsp_argv) {
    free(rsp_argv[rsp_from]);
    free(rsp_argv);
    unlink(rsp);
  }
  free(rsp);
  return rc;
}

int du_run_stderr_to(char *const argv[], const char *err_path) {
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_addopen(&fa, STDERR_FILENO, err_path,
                                   O_WRONLY | O_CREAT | O_TRUNC, 0666);
  pid_t pid;
  int rc = spawn(argv, &fa, &pid);
  posix_spawn_file_actions_destroy(&fa);
  if (rc == 0)
    rc = wait_child(pid, argv[0]);
  return rc;
}

void du_copy_file(const char *path, FILE *f) {
  FILE *in = fopen(path, "rb");
  if (!in)
    return;
  char buf[4096];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, in)) > 0)
    fwrite(buf, 1, n, f);
  fclose(in);
  fflush(f);
}

int du_run_capture(char *const argv[], char **out, size_t *out_len,
                   enum du_stderr err) {
  static unsigned counter;
  *out = NULL;
  *out_len = 0;
  int fds[2];
  if (pipe(fds) != 0) {
    du_error("cannot create a pipe: %s", strerror(errno));
    return 1;
  }
  fcntl(fds[0], F_SETFD, FD_CLOEXEC);
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_adddup2(&fa, fds[1], STDOUT_FILENO);
  posix_spawn_file_actions_addclose(&fa, fds[1]);
  char *err_path = NULL;
  if (err == DU_ERR_HIDE) {
    posix_spawn_file_actions_addopen(&fa, STDERR_FILENO, "/dev/null", O_WRONLY,
                                     0);
  } else if (err == DU_ERR_ON_FAILURE) {
    err_path = du_xasprintf("%s/stderr%u.txt", du_tmpdir(NULL), ++counter);
    posix_spawn_file_actions_addopen(&fa, STDERR_FILENO, err_path,
                                     O_WRONLY | O_CREAT | O_TRUNC, 0666);
  }
  pid_t pid;
  int rc = spawn(argv, &fa, &pid);
  posix_spawn_file_actions_destroy(&fa);
  close(fds[1]);
  if (rc != 0) {
    close(fds[0]);
    if (err_path)
      unlink(err_path);
    free(err_path);
    return rc;
  }
  size_t cap = 4096, len = 0;
  char *buf = du_xmalloc(cap);
  for (;;) {
    if (len + 1 >= cap) {
      cap *= 2;
      buf = du_xrealloc(buf, cap);
    }
    ssize_t r = read(fds[0], buf + len, cap - len - 1);
    if (r > 0) {
      len += (size_t)r;
      continue;
    }
    if (r < 0 && errno == EINTR)
      continue;
    break;
  }
  close(fds[0]);
  buf[len] = '\0';
  *out = buf;
  *out_len = len;
  rc = wait_child(pid, argv[0]);
  if (err_path) {
    if (rc != 0)
      du_copy_file(err_path, stderr);
    unlink(err_path);
    free(err_path);
  }
  return rc;
}

/* ---- Response files ------------------------------------------------------ */

char *du_read_file(const char *path, size_t *len) {
  FILE *f = fopen(path, "rb");
  if (!f)
    return NULL;
  size_t cap = 4096, n = 0;
  char *buf = du_xmalloc(cap);
  size_t r;
  while ((r = fread(buf + n, 1, cap - n - 1, f)) > 0) {
    n += r;
    if (n + 1 >= cap) {
      cap *= 2;
      buf = du_xrealloc(buf, cap);
    }
  }
  bool bad = ferror(f);
  fclose(f);
  if (bad) {
    free(buf);
    return NULL;
  }
  buf[n] = '\0';
  *len = n;
  return buf;
}

/* Splits the text of a response file into words (libiberty's rules). */
static void split_words(const char *text, struct du_argv *words) {
  const char *p = text;
  size_t cap = 64;
  char *word = du_xmalloc(cap);
  for (;;) {
    while (isspace((unsigned char)*p))
      p++;
    if (!*p)
      break;
    size_t n = 0;
    bool squote = false, dquote = false, escape = false;
    for (; *p; p++) {
      if (n + 2 >= cap) {
        cap *= 2;
        word = du_xrealloc(word, cap);
      }
      if (escape) {
        escape = false;
        word[n++] = *p;
      } else if (*p == '\\') {
        escape = true;
      } else if (squote) {
        if (*p == '\'')
          squote = false;
        else
          word[n++] = *p;
      } else if (dquote) {
        if (*p == '"')
          dquote = false;
        else
          word[n++] = *p;
      } else if (isspace((unsigned char)*p)) {
        break;
      } else if (*p == '\'') {
        squote = true;
      } else if (*p == '"') {
        dquote = true;
      } else {
        word[n++] = *p;
      }
    }
    word[n] = '\0';
    du_argv_push(words, word);
  }
  free(word);
}

static void expand_one(const char *arg, size_t top, int depth,
                       struct du_argv *out, size_t **group, size_t *gcap) {
  char *text = NULL;
  size_t len = 0;
  if (arg[0] == '@' && arg[1] && depth < 32)
    text = du_read_file(arg + 1, &len);
  if (!text) {
    du_argv_push(out, arg);
    if (group) {
      if (out->n > *gcap) {
        *gcap = 2 * out->n;
        *group = du_xrealloc(*group, *gcap * sizeof **group);
      }
      (*group)[out->n - 1] = top;
    }
    return;
  }
  struct du_argv words;
  du_argv_init(&words);
  split_words(text, &words);
  free(text);
  for (size_t i = 0; i < words.n; i++)
    expand_one(words.v[i], top, depth + 1, out, group, gcap);
  du_argv_free(&words);
}

void du_expand_response_files(char *const in[], size_t n_in,
                              struct du_argv *out, size_t **group) {
  size_t gcap = n_in + 1;
  if (group)
    *group = du_xmalloc(gcap * sizeof **group);
  for (size_t i = 0; i < n_in; i++)
    expand_one(in[i], i, 0, out, group, &gcap);
}

/* ---- Compiler options ---------------------------------------------------- */

enum match {
  M_EXACT,      /* the word itself */
  M_SEP,        /* the word, then its argument in the next word */
  M_JOINSEP,    /* -Xarg or -X arg */
  M_PREFIX,     /* -Xarg only */
  M_PREFIX_SEP, /* -Xarg, then another argument in the next word */
};

struct opt_entry {
  const char *name;
  enum match match;
  unsigned where;
  enum du_kind kind;
};

/* Longer names come before names that are their prefixes. */
static const struct opt_entry options[] = {
    /* pipeline control */
    {"-o", M_JOINSEP, 0, DU_K_OUTPUT},
    {"--output", M_SEP, 0, DU_K_OUTPUT},
    {"--output=", M_PREFIX, 0, DU_K_OUTPUT},
    {"-x", M_JOINSEP, 0, DU_K_LANG},
    {"--language", M_SEP, 0, DU_K_LANG},
    {"--language=", M_PREFIX, 0, DU_K_LANG},
    {"-c", M_EXACT, 0, DU_K_MODE_C},
    {"--compile", M_EXACT, 0, DU_K_MODE_C},
    {"-S", M_EXACT, 0, DU_K_MODE_S},
    {"--assemble", M_EXACT, 0, DU_K_MODE_S},
    {"-E", M_EXACT, 0, DU_K_MODE_E},
    {"--preprocess", M_EXACT, 0, DU_K_MODE_E},
    {"-M", M_EXACT, 0, DU_K_MODE_E},
    {"-MM", M_EXACT, 0, DU_K_MODE_E},
    {"--dependencies", M_EXACT, 0, DU_K_MODE_E},
    {"--user-dependencies", M_EXACT, 0, DU_K_MODE_E},
    {"-fsyntax-only", M_EXACT, 0, DU_K_PASSTHRU},
    {"-###", M_EXACT, 0, DU_K_PASSTHRU},
    {"--help", M_EXACT, 0, DU_K_PASSTHRU},
    {"--help=", M_PREFIX, 0, DU_K_PASSTHRU},
    {"--target-help", M_EXACT, 0, DU_K_PASSTHRU},
    {"--version", M_EXACT, 0, DU_K_PASSTHRU},
    {"-dumpversion", M_EXACT, 0, DU_K_PASSTHRU},
    {"-dumpfullversion", M_EXACT, 0, DU_K_PASSTHRU},
    {"-dumpmachine", M_EXACT, 0, DU_K_PASSTHRU},
    {"-dumpspecs", M_EXACT, 0, DU_K_PASSTHRU},
    {"-print-", M_PREFIX, 0, DU_K_PASSTHRU},
    {"--print-", M_PREFIX, 0, DU_K_PASSTHRU},

    /* dependency output */
    {"-MD", M_EXACT, 0, DU_K_DEP_MD},
    {"-MMD", M_EXACT, 0, DU_K_DEP_MMD},
    {"-MF", M_JOINSEP, 0, DU_K_DEP_MF},
    {"-MT", M_JOINSEP, 0, DU_K_DEP_MT},
    {"-MQ", M_JOINSEP, 0, DU_K_DEP_MT},
    {"-MP", M_EXACT, DU_PP, DU_K_FLAG},
    {"-MG", M_EXACT, DU_PP, DU_K_FLAG},
    {"-MJ", M_SEP, DU_CC, DU_K_FLAG},

    /* language standard and OpenMP */
    {"-std=", M_PREFIX, DU_ALL, DU_K_STD},
    {"--std=", M_PREFIX, DU_ALL, DU_K_STD},
    {"--std", M_SEP, DU_ALL, DU_K_STD},
    {"-ansi", M_EXACT, DU_ALL, DU_K_STD},
    {"-fopenmp", M_EXACT, DU_ALL, DU_K_OPENMP_ON},
    {"-fopenmp=", M_PREFIX, DU_ALL, DU_K_OPENMP_ON},
    {"-fiopenmp", M_EXACT, DU_ALL, DU_K_OPENMP_ON},
    {"-qopenmp", M_EXACT, DU_ALL, DU_K_OPENMP_ON},
    {"-fno-openmp", M_EXACT, DU_ALL, DU_K_OPENMP_OFF},
    {"-qno-openmp", M_EXACT, DU_ALL, DU_K_OPENMP_OFF},

    /* preprocessing only */
    {"-include-pch", M_SEP, DU_PP, DU_K_FLAG},
    {"-include", M_SEP, DU_PP, DU_K_FLAG},
    {"--include", M_SEP, DU_PP, DU_K_FLAG},
    {"-imacros", M_SEP, DU_PP, DU_K_FLAG},
    {"--imacros", M_SEP, DU_PP, DU_K_FLAG},
    {"-imultiarch", M_SEP, DU_PP, DU_K_FLAG},
    {"-cxx-isystem", M_SEP, DU_PP, DU_K_FLAG},
    {"-ivfsoverlay", M_SEP, DU_PP, DU_K_FLAG},
    {"-isystem", M_JOINSEP, DU_PP, DU_K_FLAG},
    {"-isysroot", M_JOINSEP, DU_PP, DU_K_FLAG},
    {"-idirafter", M_JOINSEP, DU_PP, DU_K_FLAG},
    {"-iquote", M_JOINSEP, DU_PP, DU_K_FLAG},
    {"-iprefix", M_JOINSEP, DU_PP, DU_K_FLAG},
    {"-iwithprefixbefore", M_JOINSEP, DU_PP, DU_K_FLAG},
    {"-iwithprefix", M_JOINSEP, DU_PP, DU_K_FLAG},
    {"-imultilib", M_JOINSEP, DU_PP, DU_K_FLAG},
    {"--include-directory", M_SEP, DU_PP, DU_K_FLAG},
    {"--include-directory=", M_PREFIX, DU_PP, DU_K_FLAG},
    {"--define-macro", M_SEP, DU_PP, DU_K_FLAG},
    {"--define-macro=", M_PREFIX, DU_PP, DU_K_FLAG},
    {"--undefine-macro", M_SEP, DU_PP, DU_K_FLAG},
    {"--undefine-macro=", M_PREFIX, DU_PP, DU_K_FLAG},
    {"-I", M_JOINSEP, DU_PP, DU_K_FLAG},
    {"-D", M_JOINSEP, DU_PP, DU_K_FLAG},
    {"-U", M_JOINSEP, DU_PP, DU_K_FLAG},
    {"-A", M_JOINSEP, DU_PP, DU_K_FLAG},
    {"-nostdinc", M_EXACT, DU_PP, DU_K_FLAG},
    {"-nostdinc++", M_EXACT, DU_PP, DU_K_FLAG},
    {"-undef", M_EXACT, DU_PP, DU_K_FLAG},
    {"-C", M_EXACT, DU_PP, DU_K_FLAG},
    {"-CC", M_EXACT, DU_PP, DU_K_FLAG},
    {"-P", M_EXACT, DU_PP, DU_K_FLAG},
    {"-H", M_EXACT, DU_PP, DU_K_FLAG},
    {"-trigraphs", M_EXACT, DU_PP, DU_K_FLAG},
    {"-traditional-cpp", M_EXACT, DU_PP, DU_K_FLAG},
    {"-remap", M_EXACT, DU_PP, DU_K_FLAG},
    {"-dD", M_EXACT, DU_PP, DU_K_FLAG},
    {"-dI", M_EXACT, DU_PP, DU_K_FLAG},
    {"-dM", M_EXACT, DU_PP, DU_K_FLAG},
    {"-dN", M_EXACT, DU_PP, DU_K_FLAG},
    {"-dU", M_EXACT, DU_PP, DU_K_FLAG},
    {"-fdirectives-only", M_EXACT, DU_PP, DU_K_FLAG},
    {"-fno-directives-only", M_EXACT, DU_PP, DU_K_FLAG},
    {"-fworking-directory", M_EXACT, DU_PP, DU_K_FLAG},
    {"-fno-working-directory", M_EXACT, DU_PP, DU_K_FLAG},
    {"-fpch-preprocess", M_EXACT, DU_PP, DU_K_FLAG},
    {"-fpch-deps", M_EXACT, DU_PP, DU_K_FLAG},
    {"-finput-charset=", M_PREFIX, DU_PP, DU_K_FLAG},
    {"-Wp,", M_PREFIX, DU_PP, DU_K_FLAG},
    {"-Xpreprocessor", M_SEP, DU_PP, DU_K_FLAG},

    /* compiling only */
    {"-Wa,", M_PREFIX, DU_CC, DU_K_FLAG},
    {"-Xassembler", M_SEP, DU_CC, DU_K_FLAG},
    {"-aux-info", M_SEP, DU_CC, DU_K_FLAG},
    {"--serialize-diagnostics", M_SEP, DU_CC, DU_K_FLAG},
    {"-dumpdir", M_SEP, DU_CC | DU_LD, DU_K_DUMP},
    {"-dumpbase", M_SEP, DU_CC | DU_LD, DU_K_DUMP},
    {"-dumpbase-ext", M_SEP, DU_CC | DU_LD, DU_K_DUMP},

    /* options that name auxiliary outputs after the output file */
    {"--coverage", M_EXACT, DU_ALL, DU_K_AUX},
    {"-fprofile-arcs", M_EXACT, DU_ALL, DU_K_AUX},
    {"-ftest-coverage", M_EXACT, DU_ALL, DU_K_AUX},
    {"-fprofile-generate", M_EXACT, DU_ALL, DU_K_AUX},
    {"-fprofile-generate=", M_PREFIX, DU_ALL, DU_K_AUX},
    {"-fprofile-use", M_EXACT, DU_ALL, DU_K_AUX},
    {"-fprofile-use=", M_PREFIX, DU_ALL, DU_K_AUX},
    {"-fauto-profile", M_EXACT, DU_ALL, DU_K_AUX},
    {"-gsplit-dwarf", M_EXACT, DU_ALL, DU_K_AUX},
    {"-fstack-usage", M_EXACT, DU_ALL, DU_K_AUX},
    {"-fcallgraph-info", M_EXACT, DU_ALL, DU_K_AUX},
    {"-fcallgraph-info=", M_PREFIX, DU_ALL, DU_K_AUX},
    {"-fdump-", M_PREFIX, DU_ALL, DU_K_AUX},
    {"-save-temps", M_EXACT, DU_ALL, DU_K_AUX},
    {"-save-temps=", M_PREFIX, DU_ALL, DU_K_AUX},

    /* everywhere, with an argument */
    {"--param", M_SEP, DU_ALL, DU_K_FLAG},
    {"-wrapper", M_SEP, DU_ALL, DU_K_FLAG},
    {"-Xclang", M_SEP, DU_ALL, DU_K_FLAG},
    {"-Xopenmp-target=", M_PREFIX_SEP, DU_ALL, DU_K_FLAG},
    {"-Xopenmp-target", M_SEP, DU_ALL, DU_K_FLAG},
    {"-Xarch_", M_PREFIX_SEP, DU_ALL, DU_K_FLAG},
    {"-Xcuda-fatbinary", M_SEP, DU_ALL, DU_K_FLAG},
    {"-Xcuda-ptxas", M_SEP, DU_ALL, DU_K_FLAG},
    {"-Xanalyzer", M_SEP, DU_ALL, DU_K_FLAG},
    {"-mllvm", M_SEP, DU_ALL, DU_K_FLAG},
    {"-target", M_SEP, DU_ALL, DU_K_TARGET},
    {"--target=", M_PREFIX, DU_ALL, DU_K_TARGET},
    {"-arch", M_SEP, DU_ALL, DU_K_TARGET},
    {"--sysroot", M_SEP, DU_ALL, DU_K_TARGET},
    {"--sysroot=", M_PREFIX, DU_ALL, DU_K_TARGET},
    {"-specs=", M_PREFIX, DU_ALL, DU_K_TARGET},
    {"--specs=", M_PREFIX, DU_ALL, DU_K_TARGET},
    {"--specs", M_SEP, DU_ALL, DU_K_TARGET},
    {"-B", M_JOINSEP, DU_ALL, DU_K_TARGET},
    {"-m", M_PREFIX, DU_ALL, DU_K_TARGET},

    /* linking only */
    {"-l", M_JOINSEP, DU_LD, DU_K_LIB},
    {"--library", M_SEP, DU_LD, DU_K_LIB},
    {"--library=", M_PREFIX, DU_LD, DU_K_LIB},
    {"-L", M_JOINSEP, DU_LD, DU_K_LIBDIR},
    {"--library-directory", M_SEP, DU_LD, DU_K_LIBDIR},
    {"--library-directory=", M_PREFIX, DU_LD, DU_K_LIBDIR},
    {"-Wl,", M_PREFIX, DU_LD, DU_K_FLAG},
    {"-Xlinker", M_SEP, DU_LD, DU_K_FLAG},
    {"--for-linker", M_SEP, DU_LD, DU_K_FLAG},
    {"--for-linker=", M_PREFIX, DU_LD, DU_K_FLAG},
    {"--force-link", M_SEP, DU_LD, DU_K_FLAG},
    {"--force-link=", M_PREFIX, DU_LD, DU_K_FLAG},
    {"-T", M_JOINSEP, DU_LD, DU_K_FLAG},
    {"-u", M_SEP, DU_LD, DU_K_FLAG},
    {"-e", M_SEP, DU_LD, DU_K_FLAG},
    {"--entry", M_SEP, DU_LD, DU_K_FLAG},
    {"--entry=", M_PREFIX, DU_LD, DU_K_FLAG},
    {"-z", M_SEP, DU_LD, DU_K_FLAG},
    {"-shared", M_EXACT, DU_LD, DU_K_SHARED},
    {"-static", M_EXACT, DU_LD, DU_K_STATIC},
    {"-r", M_EXACT, DU_LD, DU_K_RELOC},
    {"-static-pie", M_EXACT, DU_LD, DU_K_STATIC},
    {"-static-lib", M_PREFIX, DU_LD, DU_K_FLAG},
    {"-shared-libgcc", M_EXACT, DU_LD, DU_K_FLAG},
    {"-pie", M_EXACT, DU_LD, DU_K_FLAG},
    {"-no-pie", M_EXACT, DU_LD, DU_K_FLAG},
    {"-rdynamic", M_EXACT, DU_LD, DU_K_FLAG},
    {"-s", M_EXACT, DU_LD, DU_K_FLAG},
    {"-symbolic", M_EXACT, DU_LD, DU_K_FLAG},
    {"-nostdlib", M_EXACT, DU_LD, DU_K_FLAG},
    {"-nostdlib++", M_EXACT, DU_LD, DU_K_FLAG},
    {"-nodefaultlibs", M_EXACT, DU_LD, DU_K_FLAG},
    {"-nostartfiles", M_EXACT, DU_LD, DU_K_FLAG},
    {"-nolibc", M_EXACT, DU_LD, DU_K_FLAG},
    {"-fuse-ld=", M_PREFIX, DU_LD, DU_K_FLAG},
};

void du_match_option(const char *arg, const char *next, struct du_opt *o) {
  o->where = DU_ALL;
  o->kind = DU_K_FLAG;
  o->nargs = 1;
  o->value = NULL;
  for (size_t i = 0; i < sizeof options / sizeof *options; i++) {
    const struct opt_entry *e = &options[i];
    size_t len = strlen(e->name);
    bool exact = strcmp(arg, e->name) == 0;
    bool prefix = strncmp(arg, e->name, len) == 0;
    switch (e->match) {
    case M_EXACT:
      if (!exact)
        continue;
      break;
    case M_SEP:
      if (!exact)
        continue;
      if (next) {
        o->nargs = 2;
        o->value = next;
      }
      break;
    case M_JOINSEP:
      if (!prefix)
        continue;
      if (exact) {
        if (next) {
          o->nargs = 2;
          o->value = next;
        }
      } else {
        o->value = arg + len;
      }
      break;
    case M_PREFIX:
      if (!prefix)
        continue;
      o->value = arg + len;
      break;
    case M_PREFIX_SEP:
      if (!prefix || exact)
        continue;
      o->value = arg + len;
      if (next)
        o->nargs = 2;
      break;
    }
    o->where = e->where;
    o->kind = e->kind;
    return;
  }
}

/* ---- Languages ------------------------------------------------------------
 */

static bool in_list(const char *s, const char *const list[]) {
  for (size_t i = 0; list[i]; i++)
    if (strcmp(s, list[i]) == 0)
      return true;
  return false;
}

static const char *const cxx_suffixes[] = {".cc",  ".cp",  ".cxx", ".cpp",
                                           ".CPP", ".c++", ".C",   NULL};
static const char *const header_suffixes[] = {
    ".h", ".hh", ".H", ".hp", ".hxx", ".hpp", ".HPP", ".h++", ".tcc", NULL};
static const char *const other_suffixes[] = {
    ".i",   ".ii",  ".m",   ".mi",  ".mm",  ".M",   ".mii", ".s",   ".S",
    ".sx",  ".f",   ".for", ".ftn", ".F",   ".FOR", ".fpp", ".FPP", ".FTN",
    ".f90", ".f95", ".f03", ".f08", ".F90", ".F95", ".F03", ".F08", ".go",
    ".d",   ".di",  ".dd",  ".ads", ".adb", NULL};

enum du_lang du_lang_from_name(const char *path, bool cxx_driver) {
  const char *suf = du_suffix(path);
  if (strcmp(suf, ".c") == 0)
    return cxx_driver ? DU_LANG_CXX : DU_LANG_C;
  if (in_list(suf, cxx_suffixes))
    return DU_LANG_CXX;
  if (in_list(suf, header_suffixes) || in_list(suf, other_suffixes))
    return DU_LANG_OTHER;
  return DU_LANG_LINK;
}

enum du_lang du_lang_from_x(const char *x, bool *reset) {
  *reset = false;
  if (strcmp(x, "none") == 0) {
    *reset = true;
    return DU_LANG_LINK;
  }
  if (strcmp(x, "c") == 0)
    return DU_LANG_C;
  if (strcmp(x, "c++") == 0)
    return DU_LANG_CXX;
  return DU_LANG_OTHER;
}

bool du_is_header(const char *path, const char *xlang) {
  if (xlang) {
    size_t n = strlen(xlang);
    return n >= 7 && strcmp(xlang + n - 7, "-header") == 0;
  }
  return in_list(du_suffix(path), header_suffixes);
}

/* ---- The compiler command --------------------------------------------------
 */

int du_compiler_words(char *const argv[], int argc, int i) {
  static const char *const launchers[] = {"ccache", "sccache",    "distcc",
                                          "icecc",  "buildcache", NULL};
  if (i + 1 < argc && in_list(du_basename(argv[i]), launchers) &&
      argv[i + 1][0] != '-')
    return 2;
  return 1;
}

/* Whether name is an executable file in one of the PATH directories. */
static bool in_path(const char *name) {
  const char *path = getenv("PATH");
  if (!path || !*path)
    return false;
  const char *p = path;
  for (;;) {
    size_t len = strcspn(p, ":");
    char *file = len ? du_xasprintf("%.*s/%s", (int)len, p, name)
                     : du_xasprintf("./%s", name);
    bool ok = access(file, X_OK) == 0;
    free(file);
    if (ok)
      return true;
    if (!p[len])
      return false;
    p += len + 1;
  }
}

char *du_nm_for(const char *compiler) {
  const char *env = getenv("POMPT_NM");
  if (env && *env)
    return du_xstrdup(env);
  const char *base = du_basename(compiler);
  char *candidate = NULL;
  const char *clang = strstr(base, "clang");
  if (clang) {
    /* clang, clang-14, clang++-14, x86_64-linux-gnu-clang-14 */
    const char *dash = strrchr(clang, '-');
    if (dash && isdigit((unsigned char)dash[1]))
      candidate = du_xasprintf("llvm-nm%s", dash);
    else
      candidate = du_xstrdup("llvm-nm");
  } else {
    /* [<triple>-]gcc[-N], [<triple>-]g++[-N]: GCC's own gcc-nm, which
     * loads the LTO plugin of that very compiler, so that its -flto
     * objects are read even where the plugin binutils finds by itself is
     * another GCC's or missing. */
    static const char *const gcc_drivers[] = {"gcc", "g++", NULL};
    for (size_t i = 0; gcc_drivers[i] && !candidate; i++) {
      const char *at = strstr(base, gcc_drivers[i]);
      const char *rest = at ? at + 3 : NULL;
      if (at && (at == base || at[-1] == '-') &&
          (!*rest || (rest[0] == '-' && isdigit((unsigned char)rest[1])))) {
        candidate = du_xasprintf("%.*sgcc-nm%s", (int)(at - base), base, rest);
        if (!in_path(candidate)) {
          free(candidate);
          candidate = NULL;
        }
      }
    }
    if (candidate)
      return candidate;
    /* <triple>-gcc[-N], <triple>-g++[-N], <triple>-cc, <triple>-c++ */
    static const char *const drivers[] = {"-gcc", "-g++", "-cc", "-c++", NULL};
    for (size_t i = 0; drivers[i] && !candidate; i++) {
      const char *at = strstr(base, drivers[i]);
      const char *rest = at ? at + strlen(drivers[i]) : NULL;
      if (at && at > base &&
          (!*rest || (rest[0] == '-' && isdigit((unsigned char)rest[1]))))
        candidate = du_xasprintf("%.*s-nm", (int)(at - base), base);
    }
  }
  if (candidate && in_path(candidate))
    return candidate;
  free(candidate);
  return du_xstrdup("nm");
}

/* ---- Paths ----------------------------------------------------------------
 */

const char *du_basename(const char *path) {
  const char *slash = strrchr(path, '/');
  return slash ? slash + 1 : path;
}

char *du_dirname(const char *path) {
  const char *slash = strrchr(path, '/');
  if (!slash)
    return du_xstrdup(".");
  if (slash == path)
    return du_xstrdup("/");
  return du_xstrndup(path, (size_t)(slash - path));
}

const char *du_suffix(const char *path) {
  const char *base = du_basename(path);
  const char *dot = strrchr(base, '.');
  if (!dot || dot == base)
    return base + strlen(base);
  return dot;
}

char *du_stem(const char *path) {
  const char *base = du_basename(path);
  return du_xstrndup(base, (size_t)(du_suffix(path) - base));
}

char *du_strip_suffix(const char *path) {
  return du_xstrndup(path, (size_t)(du_suffix(path) - path));
}

bool du_file_exists(const char *path) {
  struct stat st;
  return stat(path, &st) == 0;
}

/* ---- Locating pompt -------------------------------------------------------
 */

static char *self_dir(void) {
  size_t cap = 256;
  for (;;) {
    char *buf = du_xmalloc(cap);
    ssize_t n = readlink("/proc/self/exe", buf, cap);
    if (n < 0) {
      du_error("cannot find the directory of this program "
               "(readlink /proc/self/exe: %s)",
               strerror(errno));
      free(buf);
      exit(1);
    }
    if ((size_t)n < cap) {
      buf[n] = '\0';
      char *dir = du_dirname(buf);
      free(buf);
      return dir;
    }
    free(buf);
    cap *= 2;
  }
}

static char *join(const char *dir, const char *rel) {
  if (rel[0] == '/')
    return du_xstrdup(rel);
  return du_xasprintf("%s/%s", dir, rel);
}

static void set_path(char **slot, const char *value) {
  free(*slot);
  *slot = du_xstrdup(value);
}

static void read_build_conf(struct du_paths *p, const char *conf) {
  size_t len;
  char *text = du_read_file(conf, &len);
  if (!text) {
    du_error("cannot read '%s': %s", conf, strerror(errno));
    exit(1);
  }
  const struct {
    const char *key;
    char **slot;
  } keys[] = {
      {"POMP_INSTR", &p->pomp_instr},
      {"POMP_LINK", &p->pomp_link},
      {"POMP_INCLUDE", &p->pomp_include},
      {"OMPT_INCLUDE", &p->ompt_include},
      {"LIBDIR", &p->libdir},
      {"STUBS_LIBDIR", &p->stubs_libdir},
      {"SANITIZE", &p->sanitize},
  };
  char *line = text;
  while (line && *line) {
    char *end = strchr(line, '\n');
    if (end)
      *end = '\0';
    size_t n = strlen(line);
    if (n && line[n - 1] == '\r')
      line[n - 1] = '\0';
    char *eq = strchr(line, '=');
    while (isspace((unsigned char)*line))
      line++;
    if (*line && *line != '#' && eq) {
      char *k_end = eq;
      while (k_end > line && isspace((unsigned char)k_end[-1]))
        k_end--;
      size_t klen = (size_t)(k_end - line);
      for (size_t i = 0; i < sizeof keys / sizeof *keys; i++) {
        if (strlen(keys[i].key) == klen &&
            strncmp(keys[i].key, line, klen) == 0) {
          set_path(keys[i].slot, eq + 1);
        }
      }
    }
    line = end ? end + 1 : NULL;
  }
  free(text);
  static const char *const names[] = {"POMP_INSTR", "POMP_LINK", "POMP_INCLUDE",
                                      "LIBDIR"};
  char *const *slots[] = {&p->pomp_instr, &p->pomp_link, &p->pomp_include,
                          &p->libdir};
  for (size_t i = 0; i < 4; i++) {
    if (!*slots[i] || !**slots[i]) {
      du_error("'%s' does not set %s", conf, names[i]);
      exit(1);
    }
  }
}

void du_locate(struct du_paths *p) {
  memset(p, 0, sizeof *p);
  char *dir = self_dir();
  char *conf = du_xasprintf("%s/pompt-build-tree.conf", dir);
  if (du_file_exists(conf)) {
    read_build_conf(p, conf);
    p->conf = conf;
  } else {
    free(conf);
    /* Installed: this program lives in <prefix>/<bindir>. */
    const char *bindir = POMPT_LIBEXECDIR_REL;
    size_t dl = strlen(dir), bl = strlen(bindir);
    char *prefix;
    if (bindir[0] != '/' && dl > bl + 1 && dir[dl - bl - 1] == '/' &&
        strcmp(dir + dl - bl, bindir) == 0)
      prefix = du_xstrndup(dir, dl - bl - 1);
    else
      prefix = du_xasprintf("%s/..", dir);
    char *execdir = join(prefix, POMPT_LIBEXECDIR_REL);
    p->pomp_instr = du_xasprintf("%s/pomp-instr", execdir);
    p->pomp_link = du_xasprintf("%s/pomp-link", execdir);
    free(execdir);
    p->pomp_include = join(prefix, POMPT_INCLUDEDIR_REL);
    p->ompt_include = du_xstrdup(p->pomp_include);
    p->libdir = join(prefix, POMPT_LIBDIR_REL);
    p->stubs_libdir = du_xstrdup(p->libdir);
    p->sanitize = du_xstrdup("none");
    free(prefix);
  }
  free(dir);
  if (!p->ompt_include)
    p->ompt_include = du_xstrdup(p->pomp_include);
  if (!p->stubs_libdir)
    p->stubs_libdir = du_xstrdup(p->libdir);
  if (!p->sanitize)
    p->sanitize = du_xstrdup("none");

  const char *env;
  if ((env = getenv("POMPT_INSTR")) && *env)
    set_path(&p->pomp_instr, env);
  if ((env = getenv("POMPT_LINK")) && *env)
    set_path(&p->pomp_link, env);
  if ((env = getenv("POMPT_INCLUDE")) && *env)
    set_path(&p->pomp_include, env);
  if ((env = getenv("POMPT_LIBDIR")) && *env) {
    set_path(&p->libdir, env);
    set_path(&p->stubs_libdir, env);
  }
  if ((env = getenv("POMPT_STUBS_LIBDIR")) && *env)
    set_path(&p->stubs_libdir, env);
}

void du_paths_free(struct du_paths *p) {
  free(p->pomp_instr);
  free(p->pomp_link);
  free(p->pomp_include);
  free(p->ompt_include);
  free(p->libdir);
  free(p->stubs_libdir);
  free(p->sanitize);
  free(p->conf);
  memset(p, 0, sizeof *p);
}

bool du_sanitize_on(const struct du_paths *p) {
  return p->sanitize && *p->sanitize && strcmp(p->sanitize, "none") != 0;
}
