/*
 * bridge_omp.h -- libpompt's calls of the OpenMP runtime's routines.
 *
 * libpompt names no runtime: its references to omp_* routines are weak,
 * resolved at load time against whichever runtime the program links
 * (libgomp, pompt's serial stubs), NULL without one.  A link with
 * --as-needed drops libgomp when libpompt defines every libgomp entry the
 * program calls (a region with a critical section and nothing else, a
 * program whose omp_* calls pomp-instr rewrote to libpompt's wrappers);
 * libpompt then loads libgomp at the first entry that needs it
 * (bridge_gomp_late), but its weak references were resolved to NULL
 * already.  So each routine's name is redefined here to the routine to
 * call: the weak reference, or else the late-loaded runtime's definition
 * (bridge_omp_late, looked up once), or NULL where there is no runtime.
 * The code that calls one is written as for a plain weak reference
 * (`omp_get_level ? omp_get_level() : 0`), and costs the same where the
 * link resolved it.
 *
 * Include after every header that declares omp_* routines.  Internal to
 * libpompt (ompt-bridge/, pomp/).
 */
#ifndef POMPT_BRIDGE_OMP_H
#define POMPT_BRIDGE_OMP_H

#include <stdint.h>

/* The runtime routine name in the runtime libpompt loaded late, or NULL
 * (none loaded late, or it lacks the routine). */
void (*bridge_omp_late(const char *name))(void);

/* The routine to call for the weak reference name, or NULL. */
#define BRIDGE_OMP(name)                                                       \
  (__builtin_expect((name) != 0, 1)                                            \
       ? (name)                                                                \
       : (__typeof__(&(name)))bridge_omp_late(#name))

/* ret, name, parameters: every omp_* routine libpompt calls. */
#define BRIDGE_OMP_ROUTINES(X)                                                 \
  X(int, omp_get_cancellation, (void))                                         \
  X(int, omp_get_default_device, (void))                                       \
  X(int, omp_get_dynamic, (void))                                              \
  X(int, omp_get_initial_device, (void))                                       \
  X(int, omp_get_level, (void))                                                \
  X(int, omp_get_max_teams, (void))                                            \
  X(int, omp_get_max_threads, (void))                                          \
  X(int, omp_get_nested, (void))                                               \
  X(int, omp_get_num_devices, (void))                                          \
  X(int, omp_get_num_places, (void))                                           \
  X(int, omp_get_num_procs, (void))                                            \
  X(int, omp_get_num_teams, (void))                                            \
  X(int, omp_get_num_threads, (void))                                          \
  X(int, omp_get_partition_num_places, (void))                                 \
  X(int, omp_get_place_num, (void))                                            \
  X(int, omp_get_place_num_procs, (int))                                       \
  X(int, omp_get_team_num, (void))                                             \
  X(int, omp_get_thread_num, (void))                                           \
  X(int, omp_in_final, (void))                                                 \
  X(int, omp_in_parallel, (void))                                              \
  X(int, omp_target_is_present, (const void *, int))                           \
  X(int, omp_test_lock, (void *))                                              \
  X(int, omp_test_nest_lock, (void *))                                         \
  X(void *, omp_get_mapped_ptr, (const void *, int))                           \
  X(void, omp_destroy_lock, (void *))                                          \
  X(void, omp_destroy_nest_lock, (void *))                                     \
  X(void, omp_fulfill_event, (uintptr_t))                                      \
  X(void, omp_get_partition_place_nums, (int *))                               \
  X(void, omp_get_place_proc_ids, (int, int *))                                \
  X(void, omp_get_schedule, (int *, int *))                                    \
  X(void, omp_init_lock, (void *))                                             \
  X(void, omp_init_lock_with_hint, (void *, int))                              \
  X(void, omp_init_nest_lock, (void *))                                        \
  X(void, omp_init_nest_lock_with_hint, (void *, int))                         \
  X(void, omp_set_dynamic, (int))                                              \
  X(void, omp_set_lock, (void *))                                              \
  X(void, omp_set_nest_lock, (void *))                                         \
  X(void, omp_set_nested, (int))                                               \
  X(void, omp_set_num_threads, (int))                                          \
  X(void, omp_unset_lock, (void *))                                            \
  X(void, omp_unset_nest_lock, (void *))

#define BRIDGE_OMP_DECLARE(ret, name, params)                                  \
  extern ret name params __attribute__((weak));
BRIDGE_OMP_ROUTINES(BRIDGE_OMP_DECLARE)
#undef BRIDGE_OMP_DECLARE

/* ret, name, parameter types: the lock routines and omp_fulfill_event.
 * The shared library defines them itself (bridge_omp_lock.c), so that a
 * tool sees the locks and detached tasks' fulfilments of code pomp-cc did
 * not compile; libpompt's own calls
 * (the wrappers of instrumented call sites, which report their calls
 * themselves) reach the runtime's routine through a slot of its own, since
 * the name now finds libpompt's definition: the slot, or where it is NULL
 * (the runtime loaded late, bridge_gomp_late; none), bridge_omp_lock_find.
 * The static library defines none of them. */
#define BRIDGE_OMP_LOCKS(X)                                                    \
  X(void, omp_init_lock, (void *))                                             \
  X(void, omp_init_lock_with_hint, (void *, int))                              \
  X(void, omp_destroy_lock, (void *))                                          \
  X(void, omp_set_lock, (void *))                                              \
  X(void, omp_unset_lock, (void *))                                            \
  X(int, omp_test_lock, (void *))                                              \
  X(void, omp_init_nest_lock, (void *))                                        \
  X(void, omp_init_nest_lock_with_hint, (void *, int))                         \
  X(void, omp_destroy_nest_lock, (void *))                                     \
  X(void, omp_set_nest_lock, (void *))                                         \
  X(void, omp_unset_nest_lock, (void *))                                       \
  X(int, omp_test_nest_lock, (void *))                                         \
  X(void, omp_fulfill_event, (uintptr_t))

#ifndef POMPT_STATIC_LIB
#define BRIDGE_OMP_LOCK_SLOT(ret, name, params)                                \
  extern ret(*bridge_real_##name) params __attribute__((visibility("hidde"     \
                                                                   "n")));
BRIDGE_OMP_LOCKS(BRIDGE_OMP_LOCK_SLOT)
#undef BRIDGE_OMP_LOCK_SLOT
void (*bridge_omp_lock_find(const char *name))(void);
#define BRIDGE_OMP_LOCK(name)                                                  \
  (__builtin_expect(bridge_real_##name != 0, 1)                                \
       ? bridge_real_##name                                                    \
       : (__typeof__(bridge_real_##name))bridge_omp_lock_find(#name))
/* The assembler that loads the routine to call into %rax (NULL: none
 * known yet). */
#define BRIDGE_OMP_LOCK_LOAD_ASM(name)                                         \
  "movq bridge_real_" name "(%rip), %rax\n\t"
#else
#define BRIDGE_OMP_LOCK(name) BRIDGE_OMP(name)
#define BRIDGE_OMP_LOCK_LOAD_ASM(name) "movq " name "@GOTPCREL(%rip), %rax\n\t"
#endif

#define omp_get_cancellation BRIDGE_OMP(omp_get_cancellation)
#define omp_get_default_device BRIDGE_OMP(omp_get_default_device)
#define omp_get_dynamic BRIDGE_OMP(omp_get_dynamic)
#define omp_get_initial_device BRIDGE_OMP(omp_get_initial_device)
#define omp_get_level BRIDGE_OMP(omp_get_level)
#define omp_get_max_teams BRIDGE_OMP(omp_get_max_teams)
#define omp_get_max_threads BRIDGE_OMP(omp_get_max_threads)
#define omp_get_nested BRIDGE_OMP(omp_get_nested)
#define omp_get_num_devices BRIDGE_OMP(omp_get_num_devices)
#define omp_get_num_places BRIDGE_OMP(omp_get_num_places)
#define omp_get_num_procs BRIDGE_OMP(omp_get_num_procs)
#define omp_get_num_teams BRIDGE_OMP(omp_get_num_teams)
#define omp_get_num_threads BRIDGE_OMP(omp_get_num_threads)
#define omp_get_partition_num_places BRIDGE_OMP(omp_get_partition_num_places)
#define omp_get_place_num BRIDGE_OMP(omp_get_place_num)
#define omp_get_place_num_procs BRIDGE_OMP(omp_get_place_num_procs)
#define omp_get_team_num BRIDGE_OMP(omp_get_team_num)
#define omp_get_thread_num BRIDGE_OMP(omp_get_thread_num)
#define omp_in_final BRIDGE_OMP(omp_in_final)
#define omp_in_parallel BRIDGE_OMP(omp_in_parallel)
#define omp_target_is_present BRIDGE_OMP(omp_target_is_present)
#define omp_test_lock BRIDGE_OMP_LOCK(omp_test_lock)
#define omp_test_nest_lock BRIDGE_OMP_LOCK(omp_test_nest_lock)
#define omp_get_mapped_ptr BRIDGE_OMP(omp_get_mapped_ptr)
#define omp_destroy_lock BRIDGE_OMP_LOCK(omp_destroy_lock)
#define omp_destroy_nest_lock BRIDGE_OMP_LOCK(omp_destroy_nest_lock)
#define omp_fulfill_event BRIDGE_OMP_LOCK(omp_fulfill_event)
#define omp_get_partition_place_nums BRIDGE_OMP(omp_get_partition_place_nums)
#define omp_get_place_proc_ids BRIDGE_OMP(omp_get_place_proc_ids)
#define omp_get_schedule BRIDGE_OMP(omp_get_schedule)
#define omp_init_lock BRIDGE_OMP_LOCK(omp_init_lock)
#define omp_init_lock_with_hint BRIDGE_OMP_LOCK(omp_init_lock_with_hint)
#define omp_init_nest_lock BRIDGE_OMP_LOCK(omp_init_nest_lock)
#define omp_init_nest_lock_with_hint                                           \
  BRIDGE_OMP_LOCK(omp_init_nest_lock_with_hint)
#define omp_set_dynamic BRIDGE_OMP(omp_set_dynamic)
#define omp_set_lock BRIDGE_OMP_LOCK(omp_set_lock)
#define omp_set_nest_lock BRIDGE_OMP_LOCK(omp_set_nest_lock)
#define omp_set_nested BRIDGE_OMP(omp_set_nested)
#define omp_set_num_threads BRIDGE_OMP(omp_set_num_threads)
#define omp_unset_lock BRIDGE_OMP_LOCK(omp_unset_lock)
#define omp_unset_nest_lock BRIDGE_OMP_LOCK(omp_unset_nest_lock)

#endif /* POMPT_BRIDGE_OMP_H */
