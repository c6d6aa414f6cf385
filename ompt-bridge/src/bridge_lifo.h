/*
 * bridge_lifo.h -- a lock-free LIFO list of records linked through a field
 * of their own (bridge_discard.c's list of a region's tasks).
 *
 * Any thread pushes a chain of records at once; a thread takes the whole
 * list at once and may push back what it keeps.  No single record is ever
 * popped, so a record cannot leave and come back under a reader's feet
 * (no ABA): the compare-and-swap of a push only ever races other pushes
 * and takes.  A push publishes its records (release) to the thread that
 * takes them (acquire).  Tested under ThreadSanitizer by
 * tests/runtime/lifo_stress.c.
 *
 * Internal to ompt-bridge/.
 */
#ifndef POMPT_BRIDGE_LIFO_H
#define POMPT_BRIDGE_LIFO_H

#include <stdatomic.h>
#include <stddef.h>

/* Push the chain first .. last (linked through field link, already linked
 * from first to last) onto the list at *head (an _Atomic pointer). */
#define BRIDGE_LIFO_PUSH(head, first, last, link)                              \
  do {                                                                         \
    __typeof__(first) bridge_lifo_h_ =                                         \
        atomic_load_explicit((head), memory_order_relaxed);                    \
    do                                                                         \
      (last)->link = bridge_lifo_h_;                                           \
    while (!atomic_compare_exchange_weak_explicit(                             \
        (head), &bridge_lifo_h_, (first), memory_order_release,                \
        memory_order_relaxed));                                                \
  } while (0)

/* The whole list at *head, which is left empty. */
#define BRIDGE_LIFO_TAKE(head)                                                 \
  atomic_exchange_explicit((head), NULL, memory_order_acquire)

#endif /* POMPT_BRIDGE_LIFO_H */
