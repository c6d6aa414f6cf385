/*
 * pomp_lean.c -- the compact event family of pomp.h (POMPT_*), which
 * pomp-instr emits for parallel, worksharing and synchronisation constructs
 * because fewer arguments per inserted call make the instrumented unit
 * cheaper to compile (doc/performance.md, "Compile time").
 *
 * Each routine does what the POMP routine or routines it stands for do in
 * pomp_events.c: the same bridge calls, in the same order, with the same
 * group buckets, so that tools see the same callbacks.  The handle comes
 * from the construct's descriptor (a first event initialises it from the
 * descriptor's CTC string when it is still zero) or, for the parallel
 * events after enter, from the descriptor recorded in the team storage.
 * CODEPTR and FRAME are taken in the exported routine itself (pomp_entry.h);
 * a merged routine gives both of its events the one call site it has.
 */
#include "bridge.h"
#include "bridge_runtime.h"
#include "pomp_entry.h"
#include "pomp_region.h"

/* What libpompt found out about a construct, for pomp.h's inline events
 * (POMPT_Desc_t.lane): written once, since the construct's other threads
 * read its line; with release, as the region it may describe was made
 * before. */
void pomp_desc_mark(POMPT_Desc_t *d, unsigned char what) {
  if (__atomic_load_n(&d->lane, __ATOMIC_RELAXED) != what)
    __atomic_store_n(&d->lane, what, __ATOMIC_RELEASE);
}

/* First event: returns from the entry point when no tool listens or the
 * handle cannot be made; records the call site (codeptr) as the
 * construct's first. */
#define D_FIRST_AT(d, codeptr)                                                 \
  if (!bridge_active)                                                          \
    return POMP_SUCCESS;                                                       \
  int32_t status_ = POMP_ERR_HANDLE;                                           \
  struct pomp_region *r = pomp_desc_first((d), &status_);                      \
  if (!r)                                                                      \
    return status_;                                                            \
  pomp_region_site(r, POMP_SITE_FIRST, (codeptr))
#define D_FIRST(d) D_FIRST_AT(d, CODEPTR)

/* Later event of a descriptor. */
#define D_LATER(d)                                                             \
  if (!bridge_active)                                                          \
    return POMP_SUCCESS;                                                       \
  struct pomp_region *r = pomp_desc_later(d);                                  \
  if (!r)                                                                      \
  return POMP_ERR_HANDLE

/* Later event of a parallel region's team storage. */
#define T_LATER(team)                                                          \
  if (!bridge_active)                                                          \
    return POMP_SUCCESS;                                                       \
  if (!(team))                                                                 \
    return POMP_ERR_ARG;                                                       \
  struct pomp_region *r = pomp_desc_later((team)->desc);                       \
  if (!r)                                                                      \
  return POMP_ERR_HANDLE

static ompt_sync_region_t implicit_barrier_kind(const struct pomp_region *r) {
  return r->kind == POMP_REGION_PARALLEL
             ? ompt_sync_region_barrier_implicit_parallel
             : ompt_sync_region_barrier_implicit_workshare;
}

#define SYNC_EE BRIDGE_B_SYNC_EE

/* ---- Parallel ------------------------------------------------------------ */

/* With a tool, the storage is written only where it changes, as the
 * bridge's record is (BRIDGE_TEAM_SET): a construct run again from the
 * same frame leaves its cache line as the workers last read it. */
static inline void team_set_desc(POMPT_Team_t *team, POMPT_Desc_t *d) {
  if (!team)
    return;
  if (!bridge_active) {
    team->desc = d;
    return;
  }
  bridge_storage_fresh(team, sizeof *team);
  if (team->desc != d)
    team->desc = d;
}

/* A region's enter records its descriptor in the team storage whether or
 * not a tool listens now (one may by the begin).  On x86-64 that path
 * without a tool is assembler (a compare, the store, a return): in C, the
 * tool's path inlined made GCC build a frame and save registers on it too.
 * With a tool the entry jumps to its body in C (name##_slow), which then
 * takes the program's call site and frame; elsewhere the body is the
 * entry. */
#ifdef GOMP_JUMP_ENTRIES
_Static_assert(offsetof(POMPT_Team_t, desc) == 0,
               "the enter entries store the descriptor at the team's start");
#endif
/* team: the register of the team storage's argument. */
#define PARALLEL_ENTER_ENTRY(name, params, team)                               \
  POMP_JUMP_ENTRY(                                                             \
      int32_t, name, params,                                                   \
      GOMP_TOOL_JUMP(POMP_JUMP_SLOW(name)) "testq " team ", " team "\n\t"      \
                                           "je 1f\n\t"                         \
                                           "movq %rdi, (" team ")\n"           \
                                           "1:\n\t"                            \
                                           "xorl %eax, %eax\n\t"               \
                                           "ret\n\t")

PARALLEL_ENTER_ENTRY(POMPT_Parallel_enter,
                     (POMPT_Desc_t * d, int32_t num_threads,
                      int32_t if_expr_result, POMPT_Team_t *team),
                     "%rcx") {
  team_set_desc(team, d);
  D_FIRST(d);
  if (!team)
    return POMP_ERR_ARG;
  bridge_parallel_enter(&team->team, pomp_requested_threads(num_threads),
                        (if_expr_result == 0 ? BRIDGE_ENTER_IF_FALSE : 0) |
                            r->quiet,
                        CODEPTR, FRAME);
  return POMP_SUCCESS;
}

PARALLEL_ENTER_ENTRY(POMPT_Parallel_fork,
                     (POMPT_Desc_t * d, POMPT_Team_t *team), "%rsi") {
  team_set_desc(team, d);
  D_FIRST(d);
  if (!team)
    return POMP_ERR_ARG;
  bridge_parallel_enter(&team->team, pomp_requested_threads(-1), r->quiet,
                        CODEPTR, FRAME);
  return POMP_SUCCESS;
}

/* Parallel_begin and Parallel_end of a block that libpompt's trampoline
 * began (bridge_block_t, bridge.h): with a tool, a compare of the team's
 * record (8 bytes into the storage) against the thread's block and a
 * store; anything else, and a null team, takes the C body.  Without a tool
 * they return at once, as the C body does. */
#ifdef GOMP_JUMP_ENTRIES
_Static_assert(offsetof(POMPT_Team_t, team) == 8,
               "the block entries find the bridge's team 8 bytes in");
/* One instruction a line: */
/* clang-format off */
#define BLOCK_ENTRY_HEAD(name)                                                 \
  "cmpl $0, bridge_active(%rip)\n\t"                                           \
  "je 1f\n\t"                                                                  \
  "testq %rdi, %rdi\n\t"                                                       \
  "je " POMP_JUMP_SLOW(name) "\n\t"                                            \
  "movq bridge_block@gottpoff(%rip), %rax\n\t"                                 \
  "leaq 8(%rdi), %rdx\n\t"                                                     \
  "cmpq %rdx, %fs:(%rax)\n\t"                                                  \
  "jne " POMP_JUMP_SLOW(name) "\n\t"
#define BLOCK_ENTRY_RETURN                                                     \
  "1:\n\t"                                                                     \
  "xorl %eax, %eax\n\t"                                                        \
  "ret\n\t"
/* *early = 0 */
#define BLOCK_BEGIN_ASM                                                        \
  BLOCK_ENTRY_HEAD(POMPT_Parallel_begin)                                       \
  "movq %fs:8(%rax), %rcx\n\t"                                                 \
  "movb $0, (%rcx)\n\t"                                                        \
  BLOCK_ENTRY_RETURN
/* end_codeptr = the return address; for a combined construct's end (work
 * 1) its worksharing part is due too */
#define BLOCK_END_ASM(name, work)                                              \
  BLOCK_ENTRY_HEAD(name)                                                       \
  "movq (%rsp), %rcx\n\t"                                                      \
  "movq %rcx, %fs:16(%rax)\n\t"                                                \
  "movq $" work ", %fs:24(%rax)\n\t"                                           \
  BLOCK_ENTRY_RETURN
/* clang-format on */
#endif

/* The call site of a block's end, recorded by its first execution that
 * takes the C path, or by the construct's Parallel_exit after a quiet one
 * (the end's codeptr_ra reaches tools with a reduction's callbacks, or
 * when the end closes constructs the block left open): pompt_region_info
 * answers it from then on. */
static inline void end_site(struct pomp_region *r, const void *codeptr) {
  pomp_region_site(r, POMP_SITE_BARRIER, codeptr);
}

static inline void end_site_quiet(struct pomp_region *r, POMPT_Team_t *team) {
  if (__builtin_expect(
          __atomic_load_n(&r->sites[POMP_SITE_BARRIER], __ATOMIC_RELAXED) == 0,
          0)) {
    const void *codeptr = bridge_block_left_codeptr(&team->team);
    if (codeptr)
      pomp_region_site(r, POMP_SITE_BARRIER, codeptr);
  }
}

POMP_JUMP_ENTRY(int32_t, POMPT_Parallel_begin, (POMPT_Team_t * team),
                BLOCK_BEGIN_ASM) {
  T_LATER(team);
  (void)r;
  bridge_parallel_begin(&team->team, FRAME);
  return POMP_SUCCESS;
}

/* The end of a parallel region's block: with a reduction on the parallel
 * leaf GCC combines after it, which the bridge brackets. */
#define PARALLEL_BLOCK_END(r, team)                                            \
  bridge_parallel_end(&(team)->team,                                           \
                      ((r)->flags & POMP_PARALLEL_REDUCTION) != 0, CODEPTR,    \
                      FRAME)

POMP_JUMP_ENTRY(int32_t, POMPT_Parallel_end, (POMPT_Team_t * team),
                BLOCK_END_ASM(POMPT_Parallel_end, "0")) {
  T_LATER(team);
  end_site(r, CODEPTR);
  PARALLEL_BLOCK_END(r, team);
  return POMP_SUCCESS;
}

EXPORT int32_t POMPT_Parallel_exit(POMPT_Team_t *team) {
  T_LATER(team);
  end_site_quiet(r, team);
  bridge_parallel_exit(&team->team, CODEPTR, FRAME);
  return POMP_SUCCESS;
}

/* The merged routines below do the first event only when the region is
 * known, as the seed's later event would, and the second one as its own
 * routine would: a first event initialises a zero handle.  Leaves r, the
 * inner construct's region.  The fork took the first site: the inner
 * construct's call site goes in the begin slot (unused by parallel), so
 * that pompt_region_info knows its codeptr_ra too. */
#define BEGIN_THEN_FIRST(team)                                                 \
  if (!bridge_active)                                                          \
    return POMP_SUCCESS;                                                       \
  if (!(team))                                                                 \
    return POMP_ERR_ARG;                                                       \
  struct pomp_region *r = pomp_desc_later((team)->desc);                       \
  if (r && !bridge_block_begin(&(team)->team))                                 \
    bridge_parallel_begin(&(team)->team, FRAME);                               \
  int32_t status_ = POMP_ERR_HANDLE;                                           \
  if (!r && !(r = pomp_desc_first((team)->desc, &status_)))                    \
    return status_;                                                            \
  pomp_region_site(r, POMP_SITE_FIRST, CODEPTR);                               \
  pomp_region_site(r, POMP_SITE_BEGIN, CODEPTR)

EXPORT int32_t POMPT_Parallel_begin_loop_enter(POMPT_Team_t *team,
                                               int64_t init_iter,
                                               int64_t final_iter,
                                               int64_t incr) {
  BEGIN_THEN_FIRST(team);
  bridge_work_enter(BRIDGE_B_LOOP_EE, r->loop_work,
                    bridge_loop_count(init_iter, final_iter, incr), CODEPTR,
                    FRAME);
  return POMP_SUCCESS;
}

EXPORT int32_t POMPT_Parallel_begin_sections_enter(POMPT_Team_t *team) {
  BEGIN_THEN_FIRST(team);
  bridge_work_enter(BRIDGE_B_WORKSHARE_EE, ompt_work_sections, r->num_sections,
                    CODEPTR, FRAME);
  return POMP_SUCCESS;
}

POMP_JUMP_ENTRY(int32_t, POMPT_Loop_exit_parallel_end, (POMPT_Team_t * team),
                BLOCK_END_ASM(POMPT_Loop_exit_parallel_end, "1")) {
  T_LATER(team);
  bridge_work_leave(BRIDGE_B_LOOP_EE, r->loop_work, CODEPTR, FRAME);
  end_site(r, CODEPTR);
  PARALLEL_BLOCK_END(r, team);
  return POMP_SUCCESS;
}

POMP_JUMP_ENTRY(int32_t, POMPT_Sections_exit_parallel_end,
                (POMPT_Team_t * team),
                BLOCK_END_ASM(POMPT_Sections_exit_parallel_end, "1")) {
  T_LATER(team);
  bridge_work_leave(BRIDGE_B_WORKSHARE_EE, ompt_work_sections, CODEPTR, FRAME);
  end_site(r, CODEPTR);
  PARALLEL_BLOCK_END(r, team);
  return POMP_SUCCESS;
}

/* ---- Worksharing ----------------------------------------------------------
 */

/* The implicit barrier's enter after a construct's exit (which ran when the
 * region r was known): POMP_Implicit_barrier_enter. */
#define BARRIER_AFTER_EXIT(d)                                                  \
  int32_t status_ = POMP_ERR_HANDLE;                                           \
  if (!r && !(r = pomp_desc_first((d), &status_)))                             \
    return status_;                                                            \
  pomp_region_site(r, POMP_SITE_FIRST, CODEPTR);                               \
  pomp_region_site(r, POMP_SITE_BARRIER, CODEPTR);                             \
  bridge_sync_enter(SYNC_EE, implicit_barrier_kind(r), CODEPTR, FRAME);        \
  return POMP_SUCCESS

EXPORT int32_t POMPT_Loop_enter(POMPT_Desc_t *d, int64_t init_iter,
                                int64_t final_iter, int64_t incr) {
  D_FIRST(d);
  bridge_work_enter(BRIDGE_B_LOOP_EE, r->loop_work,
                    bridge_loop_count(init_iter, final_iter, incr), CODEPTR,
                    FRAME);
  return POMP_SUCCESS;
}

EXPORT int32_t POMPT_Loop_exit(POMPT_Desc_t *d) {
  D_LATER(d);
  bridge_work_leave(BRIDGE_B_LOOP_EE, r->loop_work, CODEPTR, FRAME);
  return POMP_SUCCESS;
}

EXPORT int32_t POMPT_Loop_exit_barrier(POMPT_Desc_t *d) {
  if (!bridge_active)
    return POMP_SUCCESS;
  struct pomp_region *r = pomp_desc_later(d);
  if (r)
    bridge_work_leave(BRIDGE_B_LOOP_EE, r->loop_work, CODEPTR, FRAME);
  BARRIER_AFTER_EXIT(d);
}

EXPORT int32_t POMPT_Sections_enter(POMPT_Desc_t *d) {
  D_FIRST(d);
  bridge_work_enter(BRIDGE_B_WORKSHARE_EE, ompt_work_sections, r->num_sections,
                    CODEPTR, FRAME);
  return POMP_SUCCESS;
}

EXPORT int32_t POMPT_Section_begin(POMPT_Desc_t *d, int32_t section_num) {
  (void)section_num;
  D_LATER(d);
  (void)r;
  if (!bridge_wants(BRIDGE_B_WORKSHARE_BE, ompt_callback_dispatch))
    return POMP_SUCCESS;
  /* OpenMP 5.2: the instance of a section dispatch is its code address. */
  bridge_dispatch(BRIDGE_B_WORKSHARE_BE, ompt_dispatch_section,
                  (ompt_data_t){.ptr = CODEPTR}, FRAME);
  return POMP_SUCCESS;
}

EXPORT int32_t POMPT_Section_end(POMPT_Desc_t *d) {
  D_LATER(d);
  (void)r;
  return POMP_SUCCESS;
}

EXPORT int32_t POMPT_Sections_exit(POMPT_Desc_t *d) {
  D_LATER(d);
  (void)r;
  bridge_work_leave(BRIDGE_B_WORKSHARE_EE, ompt_work_sections, CODEPTR, FRAME);
  return POMP_SUCCESS;
}

EXPORT int32_t POMPT_Sections_exit_barrier(POMPT_Desc_t *d) {
  if (!bridge_active)
    return POMP_SUCCESS;
  struct pomp_region *r = pomp_desc_later(d);
  if (r)
    bridge_work_leave(BRIDGE_B_WORKSHARE_EE, ompt_work_sections, CODEPTR,
                      FRAME);
  BARRIER_AFTER_EXIT(d);
}

/* Single_enter does nothing but its first event's work (who executes is
 * known at begin or exit): with a tool, once the construct's region exists
 * and its first call site is recorded, the entry's assembler tests that
 * and returns. */
#ifdef GOMP_JUMP_ENTRIES
_Static_assert(offsetof(POMPT_Desc_t, handle) == 0 &&
                   offsetof(struct pomp_region, sites) == 96 &&
                   POMP_SITE_FIRST == 0,
               "Single_enter's assembler reads the first site 96 bytes into "
               "the descriptor's region");
/* One instruction a line: */
/* clang-format off */
#define FIRST_DONE_ASM(name)                                                   \
  "cmpl $0, bridge_active(%rip)\n\t"                                           \
  "je 1f\n\t"                                                                  \
  "testq %rdi, %rdi\n\t"                                                       \
  "je " POMP_JUMP_SLOW(name) "\n\t"                                            \
  "movq (%rdi), %rax\n\t"                                                      \
  "testq %rax, %rax\n\t"                                                       \
  "je " POMP_JUMP_SLOW(name) "\n\t"                                            \
  "cmpq $0, 96(%rax)\n\t"                                                      \
  "je " POMP_JUMP_SLOW(name) "\n"                                              \
  "1:\n\t"                                                                     \
  "xorl %eax, %eax\n\t"                                                        \
  "ret\n\t"
/* clang-format on */
#endif

POMP_JUMP_ENTRY(int32_t, POMPT_Single_enter, (POMPT_Desc_t * d),
                FIRST_DONE_ASM(POMPT_Single_enter)) {
  D_FIRST(d);
  return POMP_SUCCESS;
}

EXPORT int32_t POMPT_Single_begin(POMPT_Desc_t *d) {
  D_LATER(d);
  pomp_region_site(r, POMP_SITE_BEGIN, CODEPTR);
  bridge_single_begin(pomp_region_construct(r, CODEPTR), FRAME);
  return POMP_SUCCESS;
}

EXPORT int32_t POMPT_Single_end(POMPT_Desc_t *d) {
  D_LATER(d);
  (void)r;
  bridge_single_end(CODEPTR, FRAME);
  return POMP_SUCCESS;
}

EXPORT int32_t POMPT_Single_exit(POMPT_Desc_t *d) {
  D_LATER(d);
  pomp_region_site(r, POMP_SITE_EXIT, CODEPTR);
  bridge_single_exit(CODEPTR, pomp_region_construct(r, CODEPTR), FRAME);
  return POMP_SUCCESS;
}

EXPORT int32_t POMPT_Single_exit_barrier(POMPT_Desc_t *d) {
  if (!bridge_active)
    return POMP_SUCCESS;
  struct pomp_region *r = pomp_desc_later(d);
  if (r) {
    pomp_region_site(r, POMP_SITE_EXIT, CODEPTR);
    bridge_single_exit(CODEPTR, pomp_region_construct(r, CODEPTR), FRAME);
  }
  BARRIER_AFTER_EXIT(d);
}

EXPORT int32_t POMPT_Implicit_barrier_exit(POMPT_Desc_t *d) {
  D_LATER(d);
  bridge_sync_exit(SYNC_EE, implicit_barrier_kind(r), CODEPTR, FRAME);
  return POMP_SUCCESS;
}

/* ---- Synchronisation ----------------------------------------------------- */

EXPORT int32_t POMPT_Master_begin(POMPT_Desc_t *d) {
  D_FIRST(d);
  bridge_masked_fast(ompt_scope_begin, CODEPTR, FRAME);
  return POMP_SUCCESS;
}

EXPORT int32_t POMPT_Master_end(POMPT_Desc_t *d) {
  D_LATER(d);
  (void)r;
  bridge_masked_fast(ompt_scope_end, CODEPTR, FRAME);
  return POMP_SUCCESS;
}

/* The inline family's (pomp.h: POMPT_Master_enter/_leave) when the lane
 * was not usable; codeptr is the construct's own address there.  The lane's
 * bit is pushed and popped whatever happens, so that every end finds its
 * begin's. */
EXPORT int32_t POMPT_Master_begin_at(POMPT_Desc_t *d, const void *codeptr) {
  int32_t status = POMP_SUCCESS;
  struct pomp_region *r = NULL;
  if (bridge_active && (r = pomp_desc_first(d, &status)) != NULL) {
    pomp_region_site(r, POMP_SITE_FIRST, codeptr);
    pomp_desc_mark(d, POMPT_LANE_MASTER_SEEN);
  }
  bridge_lane_masked_begin(r != NULL, codeptr, FRAME);
  NO_TAIL_CALL();
  return r || !bridge_active ? POMP_SUCCESS : status;
}

EXPORT int32_t POMPT_Master_end_at(POMPT_Desc_t *d, const void *codeptr) {
  int pair = bridge_active && pomp_desc_later(d) != NULL;
  bridge_lane_masked_end(pair, codeptr, FRAME);
  NO_TAIL_CALL();
  return pair || !bridge_active ? POMP_SUCCESS : POMP_ERR_HANDLE;
}

EXPORT int32_t POMPT_Critical_enter(POMPT_Desc_t *d) {
  D_FIRST(d);
  bridge_mutex_acquire(SYNC_EE, ompt_mutex_critical, r->hint, r->wait_id,
                       CODEPTR, FRAME);
  return POMP_SUCCESS;
}

EXPORT int32_t POMPT_Critical_begin(POMPT_Desc_t *d) {
  D_LATER(d);
  bridge_mutex_acquired(SYNC_EE, ompt_mutex_critical, r->wait_id, 1, CODEPTR,
                        FRAME);
  return POMP_SUCCESS;
}

EXPORT int32_t POMPT_Critical_end(POMPT_Desc_t *d) {
  D_LATER(d);
  bridge_mutex_release_held(SYNC_EE, ompt_mutex_critical, r->wait_id, CODEPTR,
                            FRAME);
  return POMP_SUCCESS;
}

EXPORT int32_t POMPT_Critical_exit(POMPT_Desc_t *d) {
  D_LATER(d);
  bridge_mutex_release_held(SYNC_EE, ompt_mutex_critical, r->wait_id, CODEPTR,
                            FRAME);
  return POMP_SUCCESS;
}

/* The inline family's (pomp.h: POMPT_Critical_wait, _held, _release) when
 * the lane was not usable; codeptr is the construct's own address there.
 * The first one makes the region and lets later ones go inline. */
EXPORT int32_t POMPT_Critical_enter_at(POMPT_Desc_t *d, const void *codeptr) {
  D_FIRST_AT(d, codeptr);
  pomp_desc_mark(d, POMPT_LANE_CRITICAL_SEEN);
  bridge_mutex_acquire(SYNC_EE, ompt_mutex_critical, r->hint, r->wait_id,
                       codeptr, FRAME);
  bridge_lane_settle(); /* reopened for the next inline event */
  NO_TAIL_CALL();
  return POMP_SUCCESS;
}

EXPORT int32_t POMPT_Critical_begin_at(POMPT_Desc_t *d, const void *codeptr) {
  D_LATER(d);
  bridge_mutex_acquired(SYNC_EE, ompt_mutex_critical, r->wait_id, 1, codeptr,
                        FRAME);
  bridge_lane_settle(); /* reopened for the next inline event */
  NO_TAIL_CALL();
  return POMP_SUCCESS;
}

EXPORT int32_t POMPT_Critical_end_at(POMPT_Desc_t *d, const void *codeptr) {
  D_LATER(d);
  bridge_mutex_release_held(SYNC_EE, ompt_mutex_critical, r->wait_id, codeptr,
                            FRAME);
  bridge_lane_settle(); /* reopened for the next inline event */
  NO_TAIL_CALL();
  return POMP_SUCCESS;
}

EXPORT int32_t POMPT_Barrier_enter(POMPT_Desc_t *d) {
  D_FIRST(d);
  bridge_sync_enter(SYNC_EE, ompt_sync_region_barrier_explicit, CODEPTR, FRAME);
  return POMP_SUCCESS;
}

EXPORT int32_t POMPT_Barrier_exit(POMPT_Desc_t *d) {
  D_LATER(d);
  (void)r;
  bridge_sync_exit(SYNC_EE, ompt_sync_region_barrier_explicit, CODEPTR, FRAME);
  return POMP_SUCCESS;
}

/* atomic: the operation is the interval in which the "mutex" is held; its
 * wait id says whether a lock is (bridge_atomic.c). */
EXPORT int32_t POMPT_Atomic_enter(POMPT_Desc_t *d) {
  D_FIRST(d);
  bridge_atomic_enter(SYNC_EE, &r->atomic_kind, CODEPTR, FRAME);
  return POMP_SUCCESS;
}

EXPORT int32_t POMPT_Atomic_exit(POMPT_Desc_t *d) {
  D_LATER(d);
  bridge_atomic_exit(SYNC_EE, CODEPTR);
  return POMP_SUCCESS;
}

/* The inline family's (pomp.h: POMPT_Atomic_begin/_end) when the event was
 * not delivered inline.  The exit tells the descriptor what the first
 * execution found out, so that later ones of an atomic instruction need no
 * call (only this family's descriptors are known to have the byte). */
EXPORT int32_t POMPT_Atomic_enter_at(POMPT_Desc_t *d, const void *codeptr) {
  D_FIRST_AT(d, codeptr);
  bridge_atomic_enter(SYNC_EE, &r->atomic_kind, codeptr, FRAME);
  NO_TAIL_CALL();
  return POMP_SUCCESS;
}

EXPORT int32_t POMPT_Atomic_exit_at(POMPT_Desc_t *d, const void *codeptr) {
  D_LATER(d);
  bridge_atomic_exit(SYNC_EE, codeptr);
  int lane =
      bridge_atomic_lane(__atomic_load_n(&r->atomic_kind, __ATOMIC_RELAXED));
  if (lane)
    pomp_desc_mark(d, (unsigned char)lane);
  bridge_lane_settle();
  return POMP_SUCCESS;
}
