/*
 * bridge_atomic.c -- the mutex events of an atomic construct.
 *
 * OpenMP 5.2 has every atomic region dispatch mutex_acquire, _acquired and
 * _released (ompt_mutex_atomic).  Tools take two threads' events on one
 * wait id for a lock those threads synchronise through: Archer orders them
 * by happens-before, and a wait id shared where nothing is shared hides
 * data races from it.  So the wait id says what GCC made of the construct:
 *  - an atomic instruction (the common case: integers, pointers, float,
 *    double): no lock; the wait id is the thread's own.  ThreadSanitizer
 *    sees the instruction itself, with its memory order;
 *  - GOMP_atomic_start / GOMP_atomic_end around the operation (long double,
 *    complex, types without an atomic instruction): libgomp's one lock for
 *    all such constructs; the wait id is that lock's, the same everywhere.
 * The enter event cannot tell which.  Until a construct's kind is known,
 * its execution delivers its acquisition late: where GOMP_atomic_start is
 * called (before the lock is taken), or at the exit when it was not (the
 * instruction has no inside a tool could observe).  The kind, the same for
 * every execution of a construct, is then kept in its region record.
 * Where GOMP_atomic_start is not interposed (a static link without
 * pomp-link's --wrap) every atomic counts as an instruction.
 *
 * Under ThreadSanitizer the events of atomic instructions are not delivered
 * (POMPT_ATOMIC=locked, the default there; POMPT_ATOMIC=all overrides):
 * TSan sees the instruction and its memory order itself, and the race
 * detectors that run there turn every mutex event into happens-before
 * (Archer passes each through one internal mutex), which would order what
 * the program leaves unordered and hide its races.  LLVM's libomp never
 * sees an atomic instruction either.  set_callback then answers
 * ompt_set_sometimes for the three mutex callbacks.
 *
 * Internal to ompt-bridge/.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bridge.h"
#include "bridge_internal.h"

/* Its address is the wait id of libgomp's atomic lock. */
static const char gomp_atomic_lock;

/* The atomic construct this thread executes: its kind's byte while the
 * kind is unknown, and the wait id its acquisition was delivered with (0:
 * none, so no release). */
static __thread struct {
  unsigned char *kind;
  int bucket;
  ompt_wait_id_t held;
  const void *codeptr;
  void *frame;
} pending __attribute__((tls_model("initial-exec")));

int bridge_atomic_instructions_seen = 1;

void bridge_atomic_setup(void) {
  int tsan = dlsym(RTLD_DEFAULT, "__tsan_init") != NULL;
  bridge_atomic_instructions_seen =
      !bridge_env_choice("POMPT_ATOMIC", "all", "locked", tsan);
  if (!bridge_atomic_instructions_seen)
    bridge_log("atomic constructs: mutex events only for those under "
               "libgomp's lock (%s)",
               tsan ? "ThreadSanitizer" : "POMPT_ATOMIC=locked");
}

ompt_wait_id_t bridge_atomic_lock_wait_id(void) {
  return (ompt_wait_id_t)(uintptr_t)&gomp_atomic_lock;
}

static ompt_wait_id_t wait_id_of(int kind) {
  return kind == BRIDGE_ATOMIC_LOCKED ? bridge_atomic_lock_wait_id()
                                      : bridge_atomic_own_wait_id();
}

static void acquire(int bucket, int kind, const void *codeptr, void *frame) {
  ompt_wait_id_t w = wait_id_of(kind);
  pending.held = bridge_atomic_acquire(bucket, w, kind == BRIDGE_ATOMIC_LOCKED,
                                       codeptr, frame)
                     ? w
                     : 0;
}

int bridge_atomic_lane(int kind) {
  if (kind != BRIDGE_ATOMIC_INSTRUCTION)
    return 0;
  return bridge_atomic_instructions_seen ? POMPT_LANE_ATOMIC_INSTRUCTION
                                         : POMPT_LANE_ATOMIC_SILENT;
}

void bridge_atomic_enter(int bucket, unsigned char *kind, const void *codeptr,
                         void *frame) {
  int k = __atomic_load_n(kind, __ATOMIC_RELAXED);
  pending.held = 0;
  if (k == BRIDGE_ATOMIC_INSTRUCTION && !bridge_atomic_instructions_seen) {
    bridge_in_atomic = 1;
    return;
  }
  if (k != BRIDGE_ATOMIC_UNKNOWN) {
    acquire(bucket, k, codeptr, frame);
    return;
  }
  bridge_in_atomic = 1;
  pending.kind = kind;
  pending.bucket = bucket;
  pending.codeptr = codeptr;
  pending.frame = frame;
}

void bridge_atomic_locking(void) {
  if (!pending.kind)
    return;
  __atomic_store_n(pending.kind, BRIDGE_ATOMIC_LOCKED, __ATOMIC_RELAXED);
  pending.kind = NULL;
  acquire(pending.bucket, BRIDGE_ATOMIC_LOCKED, pending.codeptr, pending.frame);
}

void bridge_atomic_exit(int bucket, const void *codeptr) {
  if (pending.kind) {
    __atomic_store_n(pending.kind, BRIDGE_ATOMIC_INSTRUCTION, __ATOMIC_RELAXED);
    pending.kind = NULL;
    if (bridge_atomic_instructions_seen)
      acquire(pending.bucket, BRIDGE_ATOMIC_INSTRUCTION, pending.codeptr,
              pending.frame);
  }
  bridge_atomic_left();
  if (pending.held) {
    bridge_atomic_release(bucket, pending.held, codeptr);
    pending.held = 0;
  }
}
