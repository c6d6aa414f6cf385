/*
 * bridge_exiting.c -- what the operating system says about a thread that
 * finalisation finds not yet ended: whether it is still on its way to its
 * end (running or runnable) or asleep.
 *
 * libgomp lets a thread exit on its own after its last region when the
 * thread has no pool to return to: the surplus threads of a pool that a
 * smaller team started after a larger one, and the threads of nested
 * teams.  Such a thread ends itself in libpompt's thread-exit hook a few
 * moments later, but the program may reach its exit first.  Finalisation
 * waits for those (bridge_thread.c), and tells them from threads asleep in
 * a pool that no one will start again by the kernel's scheduling state
 * (/proc/self/task/<tid>/stat, Linux).
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "bridge_internal.h"

int bridge_os_tid(void) {
  return (int)syscall(SYS_gettid);
}

int bridge_os_thread_runnable(int tid) {
  if (tid <= 0)
    return 0;
  char path[64], buf[256];
  snprintf(path, sizeof path, "/proc/self/task/%d/stat", tid);
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    return 0; /* gone (or no /proc): nothing to wait for */
  ssize_t n = read(fd, buf, sizeof buf - 1);
  close(fd);
  if (n <= 0)
    return 0;
  buf[n] = '\0';
  /* "tid (comm) S ...": the state follows the last ')' (comm may hold
   * parentheses and blanks). */
  const char *p = strrchr(buf, ')');
  if (!p || p[1] != ' ')
    return 0;
  /* R: running or runnable; D: in an uninterruptible wait, which ends. */
  return p[2] == 'R' || p[2] == 'D';
}

void bridge_os_sleep_us(long us) {
  struct timespec ts = {us / 1000000, (us % 1000000) * 1000};
  nanosleep(&ts, NULL);
}
