/*
 * dlopen_watch.c -- preloaded, says on stderr which libraries the program
 * asks dlopen for, then opens them as asked.  A program that was not built
 * with ThreadSanitizer and has no tool must not have libpompt try Archer:
 * the failed dlopen allocates its message through whatever malloc the
 * process has (a preloaded tracer's corrupted the heap).
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>

void *dlopen(const char *file, int mode) {
  static void *(*next)(const char *, int);
  if (!next)
    next = (void *(*)(const char *, int))dlsym(RTLD_NEXT, "dlopen");
  fprintf(stderr, "dlopen_watch: %s\n", file ? file : "(the program)");
  return next ? next(file, mode) : NULL;
}
