/*
 * prof_signal.c - a profile also when a signal ends the program: SIGINT,
 * SIGTERM, SIGHUP or SIGQUIT asks it to end, or it crashes (SIGSEGV,
 * SIGBUS, SIGFPE, SIGABRT), a stack overflow included.
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
 * profile (a file being written stays a .partial).
 *
 * A stack overflow leaves the faulting thread no stack to run a handler
 * on, so, while our SIGSEGV handler is in place, every thread the profiler
 * sees begin (and the one that starts the tool) gets an alternate signal
 * stack of its own, and the handlers run on it (SA_ONSTACK).  The handler
 * needs little of it (PROF_ALTSTACK_SIZE says how little); the writing,
 * which needs much more, is done on the helper's stack, whose size is set
 * here (PROF_HELPER_STACK) rather than taken from RLIMIT_STACK, which a
 * program limits to find an overflow early.  A thread that already has an
 * alternate stack (the program's, a sanitizer's) keeps it.
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
#include <sys/mman.h>
#include <unistd.h>

#include "prof_tool.h"

#define PROF_SIGNAL_WAIT_MS 60000
/* A crash may have left a lock taken that writing needs (malloc's, after a
   corrupted heap): the profile gets a shorter while before the process
   dies anyway. */
#define PROF_CRASH_WAIT_MS 10000
/* Each thread's alternate signal stack, at least this size (or four times
   what sysconf(_SC_SIGSTKSZ) suggests for a handler's stack on this
   processor, if more: 4 x 14528 bytes with AVX-512).  Measured
   (doc/pompt-prof.md): the kernel's signal frame (3.6 KiB with AVX-512)
   and the handler with what it calls (write, poll, sigaction, sigprocmask,
   raise) use 3.9 KiB on libpompt, 6.8 KiB on libomp, 7 KiB in a sanitizer
   build.  A guard page below it turns more into a plain death by SIGSEGV,
   never a write into other memory. */
#define PROF_ALTSTACK_SIZE (64 * 1024)
/* The helper's stack.  Writing a profile used 18 KiB with libpompt's
   source locations, 160 KiB with libdw's.  The default would be
   RLIMIT_STACK, which a program may have lowered (to meet an overflow
   early) below that: with 128 KiB, the writing ran past the guard page
   into the memory below.  8 MiB, the usual default: reserved, not used. */
#define PROF_HELPER_STACK (8 * 1024 * 1024)

/* The signals handled, with their names: the first NASKED ask the
 * program to end, the rest are crashes. */
static const struct {
  int sig;
  const char *name;
} handled_sigs[] = {{SIGINT, "SIGINT"},   {SIGTERM, "SIGTERM"},
                    {SIGHUP, "SIGHUP"},   {SIGQUIT, "SIGQUIT"},
                    {SIGSEGV, "SIGSEGV"}, {SIGBUS, "SIGBUS"},
                    {SIGFPE, "SIGFPE"},   {SIGABRT, "SIGABRT"}};
#define NASKED 4
#define NHANDLED (int)(sizeof handled_sigs / sizeof handled_sigs[0])

static void (*write_profile)(void);
static int installed[NHANDLED];
static int sig_pipe[2] = {-1, -1};  /* handler -> helper: the signal */
static int done_pipe[2] = {-1, -1}; /* helper -> handler: written */
static _Atomic pid_t helper_pid;    /* the process whose helper runs */
static _Atomic int taken;           /* a signal is being handled */
static _Atomic int helper_wanted;   /* a forked child has none yet */
_Atomic int prof_end_signal;

/* Alternate stacks: wanted once a handler for SIGSEGV is installed; each
   thread's mapping (guard page first) is its value of alt_key, whose
   destructor unmaps it when the thread exits. */
static _Atomic int alt_wanted;
static pthread_key_t alt_key;
static size_t alt_size, alt_page;

static int asked_to_end(int sig) {
  for (int i = 0; i < NASKED; i++)
    if (handled_sigs[i].sig == sig)
      return 1;
  return 0;
}

const char *prof_signal_name(int sig) {
  for (int i = 0; i < NHANDLED; i++)
    if (handled_sigs[i].sig == sig)
      return handled_sigs[i].name;
  return "a signal";
}

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
      int wait_ms =
          asked_to_end(sig) ? PROF_SIGNAL_WAIT_MS : PROF_CRASH_WAIT_MS;
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
   to it, and a stack of its own size. */
static void start_helper(void) {
  sigset_t all, old;
  sigfillset(&all);
  pthread_sigmask(SIG_SETMASK, &all, &old);
  pthread_attr_t attr;
  pthread_attr_init(&attr);
  pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
  pthread_attr_setstacksize(&attr, PROF_HELPER_STACK);
  pthread_t th;
  if (pthread_create(&th, &attr, helper, NULL) == 0)
    atomic_store(&helper_pid, getpid());
  pthread_attr_destroy(&attr);
  pthread_sigmask(SIG_SETMASK, &old, NULL);
}

/* Unmaps a thread's alternate stack, first taking it off the thread if it
   is still the thread's (the program may have set its own since).  Not
   while a handler runs on it: then it stays. */
static void alt_stack_free(void *map) {
  stack_t cur;
  if (sigaltstack(NULL, &cur) != 0 || (cur.ss_flags & SS_ONSTACK))
    return;
  if (cur.ss_sp == (char *)map + alt_page && !(cur.ss_flags & SS_DISABLE)) {
    stack_t off = {.ss_flags = SS_DISABLE};
    if (sigaltstack(&off, NULL) != 0)
      return;
  }
  munmap(map, alt_page + alt_size);
}

static void alt_stack_init(void) {
  long page = sysconf(_SC_PAGESIZE);
  alt_page = page > 0 ? (size_t)page : 4096;
  size_t size = PROF_ALTSTACK_SIZE;
#ifdef _SC_SIGSTKSZ
  /* the size glibc suggests for a handler's stack on this processor */
  long need = sysconf(_SC_SIGSTKSZ);
  if (need > 0 && (size_t)need * 4 > size)
    size = (size_t)need * 4;
#endif
  alt_size = (size + alt_page - 1) / alt_page * alt_page;
  if (pthread_key_create(&alt_key, alt_stack_free) == 0)
    atomic_store(&alt_wanted, 1);
}

void prof_signal_thread_begin(void) {
  if (!atomic_load(&alt_wanted) || pthread_getspecific(alt_key) != NULL)
    return;
  struct sigaction segv;
  if (sigaction(SIGSEGV, NULL, &segv) != 0 || (segv.sa_flags & SA_SIGINFO) ||
      segv.sa_handler != on_signal)
    return; /* the program handles SIGSEGV now, on a stack of its choice */
  stack_t cur;
  if (sigaltstack(NULL, &cur) != 0 || !(cur.ss_flags & SS_DISABLE))
    return; /* the thread has one: the program's own, or a sanitizer's */
  char *map = mmap(NULL, alt_page + alt_size, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_STACK, -1, 0);
  if (map == MAP_FAILED)
    return;
  stack_t ss = {.ss_sp = map + alt_page, .ss_size = alt_size, .ss_flags = 0};
  if (mprotect(map, alt_page, PROT_NONE) != 0 || sigaltstack(&ss, NULL) != 0 ||
      pthread_setspecific(alt_key, map) != 0)
    alt_stack_free(map);
}

void prof_signal_thread_end(void) {
  if (!atomic_load(&alt_wanted))
    return;
  void *map = pthread_getspecific(alt_key);
  if (map == NULL)
    return;
  pthread_setspecific(alt_key, NULL);
  alt_stack_free(map);
}

void prof_signal_init(void (*write_fn)(void)) {
  write_profile = write_fn;
  int any = 0;
  for (int i = 0; i < NHANDLED; i++) {
    struct sigaction cur;
    if (sigaction(handled_sigs[i].sig, NULL, &cur) != 0 ||
        (cur.sa_flags & SA_SIGINFO) || cur.sa_handler != SIG_DFL)
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
    sa.sa_flags = SA_RESTART | SA_ONSTACK;
    sigaction(handled_sigs[i].sig, &sa, NULL);
    if (handled_sigs[i].sig == SIGSEGV)
      alt_stack_init();
  }
  prof_signal_thread_begin(); /* the thread that starts the tool */
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

/* The library is unloaded (libomp closes its tool at the end): nothing
   may call into it any more.  Handlers still ours go back to the default
   (the helper, asleep in read, is then never woken), and threads that exit
   later no longer run the key's destructor; their alternate stacks stay,
   mapped memory that still works. */
__attribute__((destructor)) static void signals_at_unload(void) {
  for (int i = 0; i < NHANDLED; i++) {
    struct sigaction cur;
    if (!installed[i] || sigaction(handled_sigs[i].sig, NULL, &cur) != 0 ||
        (cur.sa_flags & SA_SIGINFO) || cur.sa_handler != on_signal)
      continue;
    struct sigaction dfl;
    memset(&dfl, 0, sizeof dfl);
    dfl.sa_handler = SIG_DFL;
    sigemptyset(&dfl.sa_mask);
    sigaction(handled_sigs[i].sig, &dfl, NULL);
  }
  if (atomic_exchange(&alt_wanted, 0))
    pthread_key_delete(alt_key);
}
