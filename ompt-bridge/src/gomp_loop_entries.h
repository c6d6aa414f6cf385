/*
 * gomp_loop_entries.h -- libgomp's loop entry points whose chunk hand-out
 * libpompt observes, as one X-macro list.
 *
 * Each row: the wrapper family (the signature class, a macro the includer
 * defines: START_LC, START_LR, ..., NEXT_L, NEXT_U) and the entry's name
 * without its "GOMP_loop_" prefix.  bridge_loop.c defines a pompt_ wrapper
 * for each; pomp-instr aliases each of them to its wrapper in units
 * instrumented at the chunk level (the two must list the same entries, or
 * an alias would name a wrapper that does not exist); the golden tests' stub
 * library passes them through.
 *
 * Internal to pompt (ompt-bridge/, instrumenter/, tests/golden/).
 */
#ifndef POMPT_GOMP_LOOP_ENTRIES_H
#define POMPT_GOMP_LOOP_ENTRIES_H

#define GOMP_LOOP_ENTRIES(X)                                                   \
  X(START_LC, static_start)                                                    \
  X(START_LC, dynamic_start)                                                   \
  X(START_LC, guided_start)                                                    \
  X(START_LC, nonmonotonic_dynamic_start)                                      \
  X(START_LC, nonmonotonic_guided_start)                                       \
  X(START_LC, ordered_static_start)                                            \
  X(START_LC, ordered_dynamic_start)                                           \
  X(START_LC, ordered_guided_start)                                            \
  X(START_LR, runtime_start)                                                   \
  X(START_LR, nonmonotonic_runtime_start)                                      \
  X(START_LR, maybe_nonmonotonic_runtime_start)                                \
  X(START_LR, ordered_runtime_start)                                           \
  X(START_L5, start)                                                           \
  X(START_L5, ordered_start)                                                   \
  X(START_LDC, doacross_static_start)                                          \
  X(START_LDC, doacross_dynamic_start)                                         \
  X(START_LDC, doacross_guided_start)                                          \
  X(START_LDR, doacross_runtime_start)                                         \
  X(START_LD5, doacross_start)                                                 \
  X(NEXT_L, static_next)                                                       \
  X(NEXT_L, dynamic_next)                                                      \
  X(NEXT_L, guided_next)                                                       \
  X(NEXT_L, runtime_next)                                                      \
  X(NEXT_L, nonmonotonic_dynamic_next)                                         \
  X(NEXT_L, nonmonotonic_guided_next)                                          \
  X(NEXT_L, nonmonotonic_runtime_next)                                         \
  X(NEXT_L, maybe_nonmonotonic_runtime_next)                                   \
  X(NEXT_L, ordered_static_next)                                               \
  X(NEXT_L, ordered_dynamic_next)                                              \
  X(NEXT_L, ordered_guided_next)                                               \
  X(NEXT_L, ordered_runtime_next)                                              \
  X(START_UC, ull_static_start)                                                \
  X(START_UC, ull_dynamic_start)                                               \
  X(START_UC, ull_guided_start)                                                \
  X(START_UC, ull_nonmonotonic_dynamic_start)                                  \
  X(START_UC, ull_nonmonotonic_guided_start)                                   \
  X(START_UC, ull_ordered_static_start)                                        \
  X(START_UC, ull_ordered_dynamic_start)                                       \
  X(START_UC, ull_ordered_guided_start)                                        \
  X(START_UR, ull_runtime_start)                                               \
  X(START_UR, ull_nonmonotonic_runtime_start)                                  \
  X(START_UR, ull_maybe_nonmonotonic_runtime_start)                            \
  X(START_UR, ull_ordered_runtime_start)                                       \
  X(START_U5, ull_start)                                                       \
  X(START_U5, ull_ordered_start)                                               \
  X(START_UDC, ull_doacross_static_start)                                      \
  X(START_UDC, ull_doacross_dynamic_start)                                     \
  X(START_UDC, ull_doacross_guided_start)                                      \
  X(START_UDR, ull_doacross_runtime_start)                                     \
  X(START_UD5, ull_doacross_start)                                             \
  X(NEXT_U, ull_static_next)                                                   \
  X(NEXT_U, ull_dynamic_next)                                                  \
  X(NEXT_U, ull_guided_next)                                                   \
  X(NEXT_U, ull_runtime_next)                                                  \
  X(NEXT_U, ull_nonmonotonic_dynamic_next)                                     \
  X(NEXT_U, ull_nonmonotonic_guided_next)                                      \
  X(NEXT_U, ull_nonmonotonic_runtime_next)                                     \
  X(NEXT_U, ull_maybe_nonmonotonic_runtime_next)                               \
  X(NEXT_U, ull_ordered_static_next)                                           \
  X(NEXT_U, ull_ordered_dynamic_next)                                          \
  X(NEXT_U, ull_ordered_guided_next)                                           \
  X(NEXT_U, ull_ordered_runtime_next)

#endif /* POMPT_GOMP_LOOP_ENTRIES_H */
