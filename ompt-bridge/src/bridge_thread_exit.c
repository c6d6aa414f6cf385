/*
 * bridge_thread_exit.c -- a thread's last callbacks before its
 * thread-local storage goes.
 *
 * libgomp lets some threads exit on their own: the surplus threads of a
 * pool, the threads of nested teams (their start routine returns) and the
 * pool a target region's host fallback had (pthread_exit, called from the
 * runtime's pool-freeing function).  Such a thread still owes the tool its
 * last region's end barrier end, its implicit task's end and its
 * thread_end.  A pthread key destructor (bridge_thread.c) comes too late
 * for tools written in C++: glibc runs a thread's C++ thread_local
 * destructors before its key destructors, and a tool that keeps per-thread
 * state in thread_local objects would get those callbacks on destroyed
 * objects (a real tool crashed there).  A native runtime delivers them
 * from its thread's own code, before any of that.
 *
 * So libpompt's shared library defines pthread_exit and pthread_create:
 * pthread_exit ends the calling thread's OMPT record first; a thread
 * created while a tool is active runs its start routine inside libpompt's,
 * which ends the record when the routine returns.  The key destructor
 * stays for what these miss (a thread created under a sanitizer, whose
 * runtime calls libpompt's pthread_create as the next one; a thread
 * created before the tool started).  Threads created without a tool pay
 * nothing; with one, a record from libpompt's own memory while the thread
 * starts.  Not in the static library, where the program's calls reach the
 * C library directly.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "bridge_internal.h"
#include "bridge_lifo.h"

#ifndef POMPT_STATIC_LIB

typedef int (*pthread_create_t)(pthread_t *, const pthread_attr_t *,
                                void *(*)(void *), void *);
typedef void (*pthread_exit_t)(void *);

/* The next definition of name (the C library's), found on first use (a
 * thread may be created before libpompt's constructors ran, by another
 * library's) and kept in *slot; NULL for none. */
static void *next_routine(void *_Atomic *slot, const char *name) {
  void *p = atomic_load_explicit(slot, memory_order_acquire);
  if (!p) {
    p = dlsym(RTLD_NEXT, name);
    atomic_store_explicit(slot, p, memory_order_release);
  }
  return p;
}

/* What a new thread starts with, in libpompt's memory (never the
 * program's heap, bridge_arena.c): records are reused through a lock-free
 * list, as many as threads were ever being created at once. */
typedef struct thread_start {
  void *(*fn)(void *);
  void *arg;
  struct thread_start *next;
} thread_start_t;

static _Atomic(thread_start_t *) free_starts;

static thread_start_t *start_take(void) {
  /* The whole list, one kept, the rest pushed back (bridge_lifo.h: no
   * single record is popped, so none can come back under a reader). */
  thread_start_t *s = BRIDGE_LIFO_TAKE(&free_starts);
  if (!s)
    return bridge_arena_alloc(sizeof *s, _Alignof(thread_start_t));
  thread_start_t *rest = s->next;
  if (rest) {
    thread_start_t *last = rest;
    while (last->next)
      last = last->next;
    BRIDGE_LIFO_PUSH(&free_starts, rest, last, next);
  }
  return s;
}

static void start_give_back(thread_start_t *s) {
  BRIDGE_LIFO_PUSH(&free_starts, s, s, next);
}

static void *thread_run(void *p) {
  thread_start_t s = *(thread_start_t *)p;
  start_give_back(p);
  void *ret = s.fn(s.arg);
  bridge_thread_leaving();
  return ret;
}

/* Whether a sanitizer's runtime is in the process.  It defines
 * pthread_create before libpompt and reaches the C library's through the
 * next definition, libpompt's: its own start routine must be the new
 * thread's first code (its thread state is made there), so libpompt's
 * cannot run around it; the key destructor ends such threads. */
static int sanitizer_present(void) {
  static atomic_int known; /* 0 not yet looked, 1 none, 2 present */
  int k = atomic_load_explicit(&known, memory_order_relaxed);
  if (!k) {
    k = dlsym(RTLD_DEFAULT, "__tsan_init") ||
                dlsym(RTLD_DEFAULT, "__asan_init") ||
                dlsym(RTLD_DEFAULT, "__msan_init") ||
                dlsym(RTLD_DEFAULT, "__hwasan_init")
            ? 2
            : 1;
    atomic_store_explicit(&known, k, memory_order_relaxed);
  }
  return k == 2;
}

__attribute__((visibility("default"))) int
pthread_create(pthread_t *thread, const pthread_attr_t *attr,
               void *(*fn)(void *), void *arg) {
  static void *_Atomic next;
  void *p = next_routine(&next, "pthread_create");
  pthread_create_t real;
  memcpy(&real, &p, sizeof real); /* an object pointer to a function's */
  if (!real)
    return EAGAIN; /* no thread library: nothing can be created */
  thread_start_t *s = bridge_threads_end_themselves() && !sanitizer_present()
                          ? start_take()
                          : NULL;
  if (!s)
    return real(thread, attr, fn, arg);
  s->fn = fn;
  s->arg = arg;
  int rc = real(thread, attr, thread_run, s);
  if (rc != 0)
    start_give_back(s);
  return rc;
}

__attribute__((visibility("default"), noreturn)) void pthread_exit(void *ret) {
  bridge_thread_leaving();
  static void *_Atomic next;
  void *p = next_routine(&next, "pthread_exit");
  pthread_exit_t real;
  memcpy(&real, &p, sizeof real);
  if (real)
    real(ret);
  abort(); /* no thread library to leave through */
}

#endif
