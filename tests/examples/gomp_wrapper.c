/*
 * gomp_wrapper.c -- a tracer preloaded in front of both OpenMP runtimes,
 * as Extrae's libomptrace.so is: it defines libgomp's GOMP_parallel and
 * LLVM's __kmpc_fork_call, each passing the call on to the next
 * definition.  libpompt must neither take it for libomp (stand down) nor
 * call its GOMP_parallel as libgomp's (which passes the call back to
 * libpompt's: endless recursion).  A call that comes back aborts.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>

typedef void (*gomp_parallel_t)(void (*)(void *), void *, unsigned, unsigned);

static __thread int inside;

void GOMP_parallel(void (*fn)(void *), void *data, unsigned num_threads,
                   unsigned flags) {
  static gomp_parallel_t next;
  if (!next)
    next = (gomp_parallel_t)dlsym(RTLD_NEXT, "GOMP_parallel");
  if (inside) {
    fprintf(stderr, "gomp_wrapper: GOMP_parallel came back to the wrapper\n");
    abort();
  }
  inside = 1;
  next(fn, data, num_threads, flags);
  inside = 0;
}

/* Never called by a GCC-built program: only there to be found. */
void __kmpc_fork_call(void *loc, int argc, void *microtask, ...) {
  (void)loc;
  (void)argc;
  (void)microtask;
  fprintf(stderr, "gomp_wrapper: __kmpc_fork_call called\n");
  abort();
}
