/*
 * bridge_gomp_entry.h -- how libpompt names the libgomp entries it
 * interposes and how it reaches libgomp's own, in either library.  The
 * interposers (bridge_gomp.c, bridge_gomp_sync.c, bridge_taskloop.c) have
 * one body each; only these names differ.
 *
 * Shared library: an entry is defined under libgomp's name (weak, so that
 * a static link against libgomp.a keeps libgomp's), the program's calls
 * reach it because libpompt comes before libgomp in the lookup order, and
 * libgomp's is found with dlsym(RTLD_NEXT).
 *
 * Static library: libgomp.a defines the same names and there is no
 * RTLD_NEXT, so an entry is __wrap_GOMP_<x>.  pomp-link links it with
 * -Wl,--wrap=GOMP_<x> (the program's calls of GOMP_<x> then reach it) and
 * -Wl,-u,GOMP_<x>; libgomp's is __real_GOMP_<x>, a weak reference that the
 * linker resolves to libgomp.a's GOMP_<x> under --wrap and leaves NULL
 * otherwise: non-NULL exactly when the program's calls come here.
 */
#ifndef BRIDGE_GOMP_ENTRY_H
#define BRIDGE_GOMP_ENTRY_H

#include <stdint.h>

#include "pomp.h"

/* Declares __real_<name> (a weak reference; unused in the shared build).
 * void (void) converts to any function pointer type without a warning. */
#define GOMP_REAL_DECL(name)                                                   \
  extern void __real_##name(void) __attribute__((weak))

#ifdef POMPT_STATIC_LIB
#define GOMP_EXPORT
#define GOMP_ENTRY(name) __wrap_##name
/* libgomp's entry (a function pointer, cast by the caller), or NULL. */
#define GOMP_REAL(name) (__real_##name)
/* Whether the program's calls of name reach GOMP_ENTRY(name). */
#define GOMP_INTERPOSED(name) (__real_##name != 0)
#else
#include <dlfcn.h>
#define GOMP_EXPORT __attribute__((visibility("default"), weak))
#define GOMP_ENTRY(name) name
/* libgomp's entry: the next definition after libpompt's; or, where libgomp
 * comes first in the lookup order (a link that named it before libpompt,
 * which then interposes nothing), the first one, when it is not libpompt's
 * own (bridge_gomp.c).  libpompt then reports what it sees at the
 * constructs, as where the entries are not interposed. */
void *bridge_gomp_real(const char *name);
#define GOMP_REAL(name) bridge_gomp_real(#name)
/* Whether the program's calls reach libpompt's entry: the first definition
 * is libpompt's.  (Not a comparison with the entry's address as libpompt's
 * code takes it: that goes through the same lookup and is libgomp's too
 * where libgomp comes first.) */
int bridge_inside_libpompt(const void *addr);
/* Whether addr lies in a runtime with native OMPT (LLVM's libomp, which
 * provides libgomp's entries too; bridge_tool.c). */
int bridge_in_native_runtime(const void *addr);
#define GOMP_INTERPOSED(name) bridge_inside_libpompt(dlsym(RTLD_DEFAULT, #name))
#endif

/* libgomp's entry, where the program is known to call it: without it the
 * program cannot go on (bridge_gomp_missing says so and aborts).  Where
 * libgomp is not loaded, bridge_gomp_late loads it and says so (a link
 * with --as-needed dropped it) before it gives up. */
void bridge_gomp_missing(const char *entry) __attribute__((noreturn, cold));
void (*bridge_gomp_late(const char *entry))(void) __attribute__((cold));
static inline void (*bridge_gomp_checked(const char *name,
                                         void (*fn)(void)))(void) {
  return fn ? fn : bridge_gomp_late(name);
}
#define GOMP_REAL_CHECKED(name)                                                \
  bridge_gomp_checked(#name, (void (*)(void))GOMP_REAL(name))
/* A static variable var of type T holding libgomp's entry name, set at
 * load time when libgomp (a dependency loaded first) is there, so that the
 * entries' fast paths find it set; otherwise the slow paths look it up
 * themselves, GOMP_REAL_ENSURE. */
#define GOMP_REAL_VAR(T, var, name)                                            \
  GOMP_REAL_DECL(name);                                                        \
  static T var;                                                                \
  __attribute__((constructor)) static void var##_at_load(void) {               \
    var = (T)GOMP_REAL(name);                                                  \
  }
/* libgomp's entry name into var, the first time a slow path needs it (the
 * load-time lookup found none yet). */
#define GOMP_REAL_ENSURE(var, name)                                            \
  do {                                                                         \
    if (!(var))                                                                \
      (var) = (__typeof__(var))GOMP_REAL_CHECKED(name);                        \
  } while (0)

/* An entry whose path without a tool is a compare and a jump into
 * libgomp's with the registers and the stack as the program left them
 * (x86-64): a C entry must save and reload what it passes on (stack
 * arguments, a variadic entry's every argument register).  Without a tool
 * the entry jumps through slot, a function pointer that holds libgomp's
 * entry once it is known and, before, a C function with the entry's
 * parameters that finds it (GOMP_JUMP_SLOT); with a tool active it jumps
 * to slow, a C function with the entry's parameters.  slot and slow are
 * assembler names (symbols of libpompt). */
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define GOMP_JUMP_ENTRIES 1
#if defined(__CET__) && (__CET__ & 1)
#define GOMP_ENDBR_ "endbr64\n\t"
#else
#define GOMP_ENDBR_ ""
#endif
/* How every assembler entry starts: to slow when a tool is active. */
#define GOMP_TOOL_JUMP(slow)                                                   \
  "cmpl $0, bridge_active(%rip)\n\t"                                           \
  "jne " slow "\n\t"
/* The body of such an entry (a naked function) after its landing pad, for
 * entries declared otherwise (pomp_waits.c, through pomp_entry.h's
 * POMP_JUMP_ENTRY). */
#define GOMP_JUMP_BODY(slot, slow)                                             \
  GOMP_TOOL_JUMP(slow) "jmp *" slot "(%rip)\n\t"
#define GOMP_JUMP_ASM(slot, slow) GOMP_ENDBR_ GOMP_JUMP_BODY(slot, slow)
#define GOMP_JUMP_ENTRY(entry, slot, slow)                                     \
  GOMP_EXPORT __attribute__((naked)) void entry(void) {                        \
    __asm__(GOMP_JUMP_ASM(slot, slow));                                        \
  }
#endif
/* Defines the slot of a jump entry, type T, under the assembler name sym,
 * holding resolve until libgomp's entry is known (not static, so that no
 * compiler partitioning can make the asm's reference a foreign one; used,
 * since only assembler may read it). */
#define GOMP_JUMP_SLOT(T, var, sym, resolve)                                   \
  extern T var __asm__(sym);                                                   \
  __attribute__((used)) T var = resolve

/* An entry void (void) whose path without a tool is a test and a tail call
 * of libgomp's entry (real: the file's variable, found at load time), and
 * which otherwise calls slow(codeptr, frame), a noinline function of the
 * file that finds libgomp's entry itself when real is still NULL.  For
 * files that include bridge.h (bridge_active). */
#define GOMP_VOID_ENTRY(name, real, slow)                                      \
  GOMP_EXPORT void GOMP_ENTRY(name)(void) {                                    \
    void (*real_)(void) = (real);                                              \
    if (__builtin_expect(bridge_active || !real_, 0)) {                        \
      slow(gomp_codeptr(__builtin_return_address(0)), BRIDGE_FRAME());         \
      return;                                                                  \
    }                                                                          \
    real_();                                                                   \
  }

/* The implicit barrier of a worksharing construct reached through
 * libgomp's entry (GOMP_loop_end, GOMP_sections_end and their _cancel
 * forms; bridge_gomp_sync.c): begun where it is to be reported (nonzero),
 * and then ended. */
int bridge_gomp_ws_barrier_begin(const void *codeptr, void *frame);
/* The end of a worksharing construct's work that a start entry opened
 * (bridge_gomp_work.c), first thing in every loop and sections end entry. */
void bridge_gomp_work_close(const void *codeptr, void *frame);
void bridge_gomp_ws_barrier_end(const void *codeptr, void *frame);
/* The loop of a combined parallel loop entry, on each thread of its region
 * around the region's function (bridge_gomp.c): its chunks come from the
 * thread's next calls (bridge_gomp_work.c).  push returns whether there
 * is a pop to make. */
int bridge_gomp_chunks_push(uint64_t start, uint64_t incr, int down);
void bridge_gomp_chunks_pop(void);

/* A depend object (omp_depend_t, libgomp's layout: the address, then
 * libgomp's kind GOMP_DEPEND_IN 1, OUT 2, INOUT 3, MUTEXINOUTSET 4,
 * INOUTSET 5) as the dependence it stands for. */
static inline POMP_Dependence_t gomp_depobj_read(const void *object) {
  static const int types[] = {0,
                              ompt_dependence_type_in,
                              ompt_dependence_type_out,
                              ompt_dependence_type_inout,
                              ompt_dependence_type_mutexinoutset,
                              ompt_dependence_type_inoutset};
  void *const *obj = object;
  uintptr_t kind = (uintptr_t)obj[1];
  POMP_Dependence_t d;
  d.addr = obj[0];
  d.type = kind >= 1 && kind <= 5 ? types[kind] : ompt_dependence_type_inout;
  return d;
}

/* GCC's flags of GOMP_task and GOMP_taskloop (gomp-constants.h). */
#define GOMP_TASK_FLAG_UNTIED (1u << 0)
#define GOMP_TASK_FLAG_FINAL (1u << 1)
#define GOMP_TASK_FLAG_MERGEABLE (1u << 2)
#define GOMP_TASK_FLAG_DEPEND (1u << 3)
#define GOMP_TASK_FLAG_UP (1u << 8)
#define GOMP_TASK_FLAG_GRAINSIZE (1u << 9)
#define GOMP_TASK_FLAG_IF (1u << 10)
#define GOMP_TASK_FLAG_NOGROUP (1u << 11)
#define GOMP_TASK_FLAG_REDUCTION (1u << 12)
#define GOMP_TASK_FLAG_DETACH (1u << 13)
#define GOMP_TASK_FLAG_STRICT (1u << 14)

/* The POMP_TASK_* flags of a task libgomp's entry creates, from its flags
 * and whether it is deferrable (if clause). */
static inline int gomp_task_pomp_flags(unsigned flags, int deferrable) {
  return (flags & GOMP_TASK_FLAG_UNTIED ? POMP_TASK_UNTIED : 0) |
         (flags & GOMP_TASK_FLAG_FINAL ? POMP_TASK_FINAL : 0) |
         (flags & GOMP_TASK_FLAG_MERGEABLE ? POMP_TASK_MERGEABLE : 0) |
         (deferrable ? 0 : POMP_TASK_UNDEFERRED);
}

/* The routines that call the program's outlined functions (libpompt's
 * trampolines) are placed in one section: an outlined function that ends
 * in a tail call of a libgomp entry (GCC's code for a region whose last
 * statement is a barrier, a task, a nested region) makes the entry's
 * return address one in a trampoline, not in the program. */
#define BRIDGE_TRAMPOLINE __attribute__((section("pompt_trampolines")))
extern const char __start_pompt_trampolines[]
    __attribute__((visibility("hidden")));
extern const char __stop_pompt_trampolines[]
    __attribute__((visibility("hidden")));

/* The codeptr_ra of the construct of the calling thread's innermost
 * implicit task (bridge_events.c), NULL for none. */
const void *bridge_region_codeptr(void);

/* The codeptr_ra of a libgomp entry whose return address is ra.  When the
 * program's function reached the entry by a tail call from a trampoline
 * the call site is gone: the region's construct stands for it, the code
 * the entry was called from being that region's function. */
static inline const void *gomp_codeptr(const void *ra) {
  uintptr_t a = (uintptr_t)ra;
  return a >= (uintptr_t)__start_pompt_trampolines &&
                 a < (uintptr_t)__stop_pompt_trampolines
             ? bridge_region_codeptr()
             : ra;
}

/* A region reported around its function (bridge_gomp.c, "Regions reported
 * around their function"): what each of its threads needs to begin and
 * leave its implicit task there. */
typedef struct entry_region {
  /* GOMP_parallel_reductions reads the first word of the block it is
   * given: the program's pointer to its task reductions, mirrored here. */
  void *reductions;
  void (*fn)(void *);
  void *data;
  POMP_Team_t team;
  const void *codeptr;
  int loop_work; /* ompt_work_t of the region's loop or sections, or 0 */
  /* A combined loop entry's loop, as libgomp has it, for its chunks
   * (incr 0: none; bridge_gomp_work.c). */
  long loop_start, loop_incr;
} entry_region_t;

/* Whether this call starts a region to report around its function (then
 * *lr is set up and parallel_begin delivered): a leaf, or a region no
 * instrumented construct announced.  caller: the return address of the
 * program's call of the entry; work: the loop the entry shares out in the
 * region (ompt_work_t), 0 for none. */
int bridge_entry_region_begin(entry_region_t *lr, void (*fn)(void *),
                              void *data, unsigned num_threads, void *frame,
                              const void *caller, int work);
/* The region's function as libgomp gets it (arg: the entry_region_t). */
void bridge_entry_region_run(void *arg);
/* What bridge_entry_region_run does before and after the region's function,
 * for a thread that calls the function itself (the primary thread of a
 * region of libgomp's first ABI, bridge_gomp_legacy.c): enter returns
 * whether the loop's chunks were pushed and keeps the thread's distribute
 * leaf in *outer, for leave. */
int bridge_entry_region_enter(entry_region_t *lr, void *frame,
                              const void **outer);
void bridge_entry_region_leave(entry_region_t *lr, int chunks,
                               const void *outer, void *frame);

#endif /* BRIDGE_GOMP_ENTRY_H */
