/*
 * lifo_stress.c -- the lock-free list of bridge_lifo.h (a region's tasks
 * that libgomp may discard, bridge_discard.c) under concurrent use, run
 * under ThreadSanitizer in CI: P threads push records, singly and in
 * chains of two, while they and a sweeping thread take the whole list and
 * push back about half of it, as bridge_discard.c's sweeps do.  Each record
 * is written before its push and read after a take; at the end every
 * record must have been taken out for good exactly once (no record lost,
 * none twice), and its contents must be what its pusher wrote.
 *
 *   lifo_stress [ROUNDS]
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "bridge_lifo.h"

#define PUSHERS 3
#define PER_ROUND 64

struct rec {
  long id;
  long check; /* id * 3 + 1, written before the push */
  struct rec *next;
  atomic_int done; /* taken out for good */
};

static struct rec *_Atomic list;
static struct rec *recs;
static long total;
static atomic_long retired;
static atomic_int pushers_left;
static atomic_int errors;

/* Take everything; retire the records with an even id (checking them), push
 * the others back as one chain.  The odd ones are retired by the last
 * sweep. */
static void sweep(int all) {
  struct rec *r = BRIDGE_LIFO_TAKE(&list);
  struct rec *keep = NULL, *keep_last = NULL;
  while (r) {
    struct rec *next = r->next;
    if (r->check != r->id * 3 + 1)
      atomic_fetch_add(&errors, 1);
    if (all || r->id % 2 == 0) {
      if (atomic_exchange(&r->done, 1))
        atomic_fetch_add(&errors, 1); /* retired twice */
      atomic_fetch_add(&retired, 1);
    } else {
      r->next = keep;
      keep = r;
      if (!keep_last)
        keep_last = r;
    }
    r = next;
  }
  if (keep)
    BRIDGE_LIFO_PUSH(&list, keep, keep_last, next);
}

static void *pusher(void *arg) {
  long me = (long)(intptr_t)arg, rounds = total / (PUSHERS * PER_ROUND);
  for (long k = 0; k < rounds; k++) {
    long base = (k * PUSHERS + me) * PER_ROUND;
    for (long i = 0; i < PER_ROUND; i += 2) {
      struct rec *a = &recs[base + i], *b = &recs[base + i + 1];
      a->check = a->id * 3 + 1;
      b->check = b->id * 3 + 1;
      if (i % 4 == 0) { /* a chain of two */
        a->next = b;
        BRIDGE_LIFO_PUSH(&list, a, b, next);
      } else {
        BRIDGE_LIFO_PUSH(&list, a, a, next);
        BRIDGE_LIFO_PUSH(&list, b, b, next);
      }
    }
    if (k % 8 == 7)
      sweep(0);
  }
  atomic_fetch_sub(&pushers_left, 1);
  return NULL;
}

static void *sweeper(void *arg) {
  (void)arg;
  while (atomic_load(&pushers_left) > 0)
    sweep(0);
  return NULL;
}

int main(int argc, char **argv) {
  long rounds = argc > 1 ? atol(argv[1]) : 200;
  total = rounds * PUSHERS * PER_ROUND;
  recs = calloc((size_t)total, sizeof *recs);
  if (!recs)
    return 1;
  for (long i = 0; i < total; i++)
    recs[i].id = i;
  atomic_store(&pushers_left, PUSHERS);
  pthread_t t[PUSHERS + 1];
  for (long i = 0; i < PUSHERS; i++)
    pthread_create(&t[i], NULL, pusher, (void *)(intptr_t)i);
  pthread_create(&t[PUSHERS], NULL, sweeper, NULL);
  for (int i = 0; i <= PUSHERS; i++)
    pthread_join(t[i], NULL);
  sweep(1);
  long missing = 0;
  for (long i = 0; i < total; i++)
    missing += !atomic_load(&recs[i].done);
  printf("lifo_stress: %ld records, %ld retired, %ld missing, %d errors\n",
         total, atomic_load(&retired), missing, atomic_load(&errors));
  free(recs);
  return atomic_load(&retired) == total && !missing && !atomic_load(&errors)
             ? 0
             : 1;
}
