/*
 * pomp_waits.c -- the compact events that wait themselves (pomp.h,
 * POMPT_gomp_x86_64): a barrier directive, the implicit barrier after a
 * worksharing construct's exit, and a taskwait without clauses are one
 * call each, which reports the construct and calls libgomp's entry.
 *
 * At a native runtime such a construct is one runtime call, and its
 * codeptr_ra, the return address of that call, lies right after the
 * construct (LLVM's __kmpc_barrier); tools and tests pair the construct's
 * events by it and look its line up.  Made of an enter event, the
 * directive and an exit event, the construct had the enter's return
 * address, before the construct.  One call also costs the program less: a
 * call fewer per construct, and no directive for GCC to lower.
 *
 * Without a tool an event is a test of bridge_active and a tail call into
 * libgomp: where a native runtime made libpompt stand down (GCC's code on
 * libomp, whose GOMP entries report), that runtime sees the program's
 * return address.
 *
 * A file of its own: libpompt.a's copy calls libgomp.a's entries by name,
 * and only programs whose instrumented code calls these events (built by
 * GCC with -fopenmp, so linked with libgomp) link this object.
 */
#include "bridge.h"
#include "bridge_runtime.h"
#include "pomp_entry.h"
#include "pomp_region.h"

#ifdef POMPT_STATIC_LIB
/* Under pomp-link's --wrap=GOMP_barrier (the program calls it elsewhere
 * too) this reaches libpompt's entry, which passes a barrier this thread
 * reports on to libgomp's. */
void GOMP_barrier(void);
void GOMP_taskwait(void);
#define WAIT_BARRIER() GOMP_barrier()
#define WAIT_TASKWAIT() GOMP_taskwait()
#else
#define WAIT_BARRIER() bridge_gomp_barrier()
#define WAIT_TASKWAIT() bridge_gomp_taskwait()
#endif

/* The construct's region, made from the descriptor's CTC string on its
 * first execution; NULL when it cannot be (the wait still happens). */
static struct pomp_region *wait_region(POMPT_Desc_t *d) {
  int32_t status;
  return pomp_desc_first(d, &status);
}

/* A barrier: its sync region and wait around libgomp's barrier, the
 * construct's sites recorded (pompt_region_info). */
static void barrier_reported(struct pomp_region *r, ompt_sync_region_t kind,
                             const void *codeptr, void *frame) {
  if (r) {
    pomp_region_site(r, POMP_SITE_FIRST, codeptr);
    if (kind != ompt_sync_region_barrier_explicit)
      pomp_region_site(r, POMP_SITE_BARRIER, codeptr);
    bridge_sync_enter(BRIDGE_B_SYNC_EE, kind, codeptr, frame);
  }
  WAIT_BARRIER();
  /* A tool finalised during the wait gets no end (as an exit event). */
  if (r && bridge_active)
    bridge_sync_exit(BRIDGE_B_SYNC_EE, kind, codeptr, frame);
}

/* The worksharing construct's exit, as its exit event (with a tool). */
enum ws_kind { WS_LOOP, WS_SECTIONS, WS_SINGLE };

static void ws_exit_wait(POMPT_Desc_t *d, enum ws_kind ws, const void *codeptr,
                         void *frame) {
  if (!bridge_active) {
    WAIT_BARRIER();
    return;
  }
  struct pomp_region *r = pomp_desc_later(d);
  if (r) { /* its enter made the region */
    switch (ws) {
    case WS_LOOP:
      bridge_work_leave(BRIDGE_B_LOOP_EE, r->loop_work, codeptr, frame);
      break;
    case WS_SECTIONS:
      bridge_work_leave(BRIDGE_B_WORKSHARE_EE, ompt_work_sections, codeptr,
                        frame);
      break;
    case WS_SINGLE:
      pomp_region_site(r, POMP_SITE_EXIT, codeptr);
      bridge_single_exit(codeptr, pomp_region_construct(r, codeptr), frame);
      break;
    }
  } else {
    r = wait_region(d);
  }
  barrier_reported(r, ompt_sync_region_barrier_implicit_workshare, codeptr,
                   frame);
}

static void loop_exit_wait(POMPT_Desc_t *d, const void *codeptr, void *frame) {
  ws_exit_wait(d, WS_LOOP, codeptr, frame);
}
static void sections_exit_wait(POMPT_Desc_t *d, const void *codeptr,
                               void *frame) {
  ws_exit_wait(d, WS_SECTIONS, codeptr, frame);
}
static void single_exit_wait(POMPT_Desc_t *d, const void *codeptr,
                             void *frame) {
  ws_exit_wait(d, WS_SINGLE, codeptr, frame);
}

/* Reached with no tool too: before libgomp's entry is known. */
static void barrier_wait(POMPT_Desc_t *d, const void *codeptr, void *frame) {
  if (!bridge_active) {
    WAIT_BARRIER();
    return;
  }
  barrier_reported(wait_region(d), ompt_sync_region_barrier_explicit, codeptr,
                   frame);
}

static void taskwait_wait(POMPT_Desc_t *d, const void *codeptr, void *frame) {
  if (!bridge_active) {
    WAIT_TASKWAIT();
    return;
  }
  struct pomp_region *r = wait_region(d);
  if (r) {
    pomp_region_site(r, POMP_SITE_FIRST, codeptr);
    bridge_sync_enter(BRIDGE_B_TASK_EE, ompt_sync_region_taskwait, codeptr,
                      frame);
  }
  WAIT_TASKWAIT();
  if (r && bridge_active)
    bridge_sync_exit(BRIDGE_B_TASK_EE, ompt_sync_region_taskwait, codeptr,
                     frame);
}

/* The exported events.  Without a tool an event goes on to libgomp's
 * entry with the program's return address and stack: on x86-64 the event
 * is a compare and a jump (as libpompt's GOMP_task, bridge_gomp_entry.h),
 * elsewhere a call of its body, which tests for a tool first (before
 * libgomp's entry is known, the jump goes to libpompt's routine that finds
 * it).  With a tool, the body: on x86-64 reached by a jump, so that CODEPTR
 * and FRAME, taken there, are the program's call site and frame
 * (pomp_entry.h, POMP_JUMP_ENTRY). */
#ifdef POMPT_STATIC_LIB
#define WAIT_ASM(gomp, slot, slow) GOMP_TOOL_JUMP(slow) "jmp " gomp "\n\t"
#else
#define WAIT_ASM(gomp, slot, slow) GOMP_JUMP_BODY(slot, slow)
#endif
#define WAIT_EVENT(entry, gomp, slot, body)                                    \
  POMP_JUMP_ENTRY(void, entry, (POMPT_Desc_t * d),                             \
                  WAIT_ASM(gomp, slot, POMP_JUMP_SLOW(entry))) {               \
    body(d, CODEPTR, FRAME);                                                   \
  }

WAIT_EVENT(POMPT_Barrier, "GOMP_barrier", "bridge_gomp_jump_barrier",
           barrier_wait)
WAIT_EVENT(POMPT_Loop_exit_wait, "GOMP_barrier", "bridge_gomp_jump_barrier",
           loop_exit_wait)
WAIT_EVENT(POMPT_Sections_exit_wait, "GOMP_barrier", "bridge_gomp_jump_barrier",
           sections_exit_wait)
WAIT_EVENT(POMPT_Single_exit_wait, "GOMP_barrier", "bridge_gomp_jump_barrier",
           single_exit_wait)
WAIT_EVENT(POMPT_Taskwait, "GOMP_taskwait", "bridge_gomp_jump_taskwait",
           taskwait_wait)
