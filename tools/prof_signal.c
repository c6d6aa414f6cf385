/*
 * prof_signal.c - a profile also when SIGINT or SIGTERM ends the program,
 * or when it crashes (SIGSEGV, SIGBUS, SIGFPE, SIGABRT).
 *
 * Writing a profile takes malloc, stdio and libdw: nothing a signal handler
 * may call.  So the handler does only async-signal-safe things: it passes
 * the signal number through a pipe to a helper thread, which the tool
 * started at initialisation with every signal blocked and which sleeps in
 * read() until then, and waits (poll on a second pipe, at most
 * PROF_SIGNAL_WAIT_MS) until the helper has written the profile.  Then it
 * restores the default disposition and raises the signal again: the process
 * dies of it, as it would have without the profiler (exit status, core
 * dumps and the parent's view unchanged).
 *
 * A crash is handled the same way: the faulting thread only hands the
 * signal over and waits.  What the helper reads was written by the
 * program's threads through the callbacks, which a fault in the program
 * does not touch; if the crash left a lock taken that writing needs, the
 * wait ends after PROF_CRASH_WAIT_MS and the process dies without the
 * profile (a file being written stays a .partial).  A stack overflow
 * leaves no stack to run the handler on: no profile then.
 *
 * A handler is installed only for a signal whose disposition is the default
 * when the tool starts; a program that handles (or ignores) the signal
 * itself, before or after, keeps its own behaviour.  A second signal while
 * the profile is being written ends the process at once; the files are
 * written under a temporary name and renamed when complete, so a profile is
 * never half-written under its own name.
 *
 * A forked child gets new pipes at once, and its own helper thread when it
 * next begins a parallel region (creating threads is best not done inside
 * fork's handlers); until then a signal ends it without a profile.
 */
#define _GNU_SOURCE

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <string.h>
#include <unistd.h>

#include "prof_tool.h"

#define PROF_SIGNAL_WAIT_MS 60000
/* A crash may have left a lock taken that writing needs (malloc's, after a
   corrupted heap): the profile gets a shorter while before the process
   dies anyway. */
#define PROF_CRASH_WAIT_MS 10000

/* The program is asked to end (SIGINT, SIGTERM) or crashes (the rest). */
static const int handled[] = {SIGINT, SIGTERM, SIGSEGV,
                              SIGBUS, SIGFPE,  SIGABRT};
#define NHANDLED (int)(sizeof handled / sizeof handled[0])

static void (*write_profile)(void);
static int installed[NHANDLED];
static int sig_pipe[2] = {-1, -1};  /* handler -> helper: the signal */
static int done_pipe[2] = {-1, -1}; /* helper -> handler: written */
static _Atomic pid_t helper_pid;    /* the process whose helper runs */
static _Atomic int taken;           /* a signal is being handled */
static _Atomic int helper_wanted;   /* a forked child has none yet */
_Atomic int prof_end_signal;

static void die_of(int sig) {
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = SIG_DFL;
  sigemptyset(&sa.sa_mask);
  sigaction(sig, &sa, NULL);
  sigset_t set;
  sigemptyset(&set);
  sigaddset(&set, sig);
  sigprocmask(SIG_UNBLOCK, &set, NULL);
  raise(sig);
}

static void on_signal(int sig) {
  int saved = errno;
  if (atomic_exchange(&taken, 1) == 0 && atomic_load(&helper_pid) == getpid()) {
    unsigned char b = (unsigned char)sig;
    if (write(sig_pipe[1], &b, 1) == 1) {
      int wait_ms = sig == SIGINT || sig == SIGTERM ? PROF_SIGNAL_WAIT_MS
                                                    : PROF_CRASH_WAIT_MS;
      struct pollfd p = {.fd = done_pipe[0], .events = POLLIN};
      while (poll(&p, 1, wait_ms) < 0 && errno == EINTR)
        ;
    }
  }
  die_of(sig);
  errno = saved; /* not reached: the default action ends the process */
}

static void *helper(void *arg) {
  (void)arg;
  unsigned char b = 0;
  for (;;) {
    ssize_t n = read(sig_pipe[0], &b, 1);
    if (n == 1)
      break;
    if (n < 0 && errno == EINTR)
      continue;
    return NULL; /* the pipe is gone */
  }
  atomic_store(&prof_end_signal, b);
  write_profile();
  ssize_t n = write(done_pipe[1], "w", 1);
  (void)n;
  return NULL;
}

static int make_pipes(void) {
  for (int i = 0; i < 2; i++) {
    if (sig_pipe[i] >= 0)
      close(sig_pipe[i]);
    if (done_pipe[i] >= 0)
      close(done_pipe[i]);
    sig_pipe[i] = done_pipe[i] = -1;
  }
  return pipe2(sig_pipe, O_CLOEXEC) == 0 && pipe2(done_pipe, O_CLOEXEC) == 0
             ? 0
             : -1;
}

/* The helper thread, with every signal blocked so that none is delivered
   to it. */
static void start_helper(void) {
  sigset_t all, old;
  sigfillset(&all);
  pthread_sigmask(SIG_SETMASK, &all, &old);
  pthread_attr_t attr;
  pthread_attr_init(&attr);
  pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
  pthread_t th;
  if (pthread_create(&th, &attr, helper, NULL) == 0)
    atomic_store(&helper_pid, getpid());
  pthread_attr_destroy(&attr);
  pthread_sigmask(SIG_SETMASK, &old, NULL);
}

void prof_signal_init(void (*write_fn)(void)) {
  write_profile = write_fn;
  int any = 0;
  for (int i = 0; i < NHANDLED; i++) {
    struct sigaction cur;
    if (sigaction(handled[i], NULL, &cur) != 0 || (cur.sa_flags & SA_SIGINFO) ||
        cur.sa_handler != SIG_DFL)
      continue; /* the program's own handling stays */
    installed[i] = 1;
    any = 1;
  }
  if (!any || make_pipes() != 0)
    return;
  start_helper();
  if (atomic_load(&helper_pid) == 0)
    return;
  for (int i = 0; i < NHANDLED; i++) {
    if (!installed[i])
      continue;
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = SA_RESTART;
    sigaction(handled[i], &sa, NULL);
  }
}

void prof_signal_after_fork(void) {
  atomic_store(&helper_pid, 0);
  atomic_store(&taken, 0);
  atomic_store(&prof_end_signal, 0);
  if (sig_pipe[0] < 0)
    return; /* no handler installed */
  /* the parent's helper reads the old pipe: the child must not reach it */
  if (make_pipes() == 0)
    atomic_store(&helper_wanted, 1);
}

void prof_signal_child_helper(void) {
  if (atomic_exchange(&helper_wanted, 0))
    start_helper();
}
