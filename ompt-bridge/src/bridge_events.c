/*
 * bridge_events.c -- POMP-level events turned into OMPT callbacks, with the
 * thread's state, task stack, scopes and frames kept up to date on the way.
 *
 * Every function runs on the thread the event happened on and touches that
 * thread's record, the task records it runs or creates, and (for parallel
 * regions) the team record that the primary thread owns and the workers
 * only read.
 *
 * Delivery rule: a begin (or single) event reaches the tool when its
 * bucket's active callback is set and the current task is announced (it
 * began while monitoring was on); an end reaches the tool exactly when its
 * begin did.  So POMP_Off/POMP_On never split a pair, and no callback ever
 * names a task or region the tool was not told about.
 *
 * Cancellation: a cancelled construct jumps to its end, past the POMP event
 * that would have closed it.  The bridge notices at the thread's next event:
 * an event whose frame lies above (is older than) the frame where the
 * running task began cannot belong to that task, which has therefore ended;
 * tasks and regions found so are ended then, with their open scopes.
 *
 * Fast paths: the frequent events first check, with no call, that they
 * have nothing of the above to do (enter_quick) and then make no call but
 * the tool's callback, last; everything else goes to an out-of-line copy
 * of the event (*_slow) that starts with enter_event.  So the common case
 * needs no stack frame: with a tool registering every callback, the bridge
 * is most of what libpompt costs per construct (doc/performance.md).
 */
#include <stdlib.h>
#include <string.h>

#include "bridge.h"
#include "bridge_gomp_entry.h"
#include "bridge_internal.h"
#include "bridge_omp.h"
#include "bridge_runtime.h"

/* libgomp's (or a compatible runtime's) task entry: absent when the program
 * runs without an OpenMP runtime. */

static inline ompt_data_t *task_data_of(bridge_task_t *task) {
  return task ? &task->task_data : NULL;
}

static inline ompt_data_t *parallel_data_of(bridge_task_t *task) {
  return task ? task->parallel_data : NULL;
}

/* The current task began while monitoring was on. */
static inline int announced(const bridge_thread_t *t) {
  return !t->cur || t->cur->announced;
}

static inline int frame_above(const void *frame, const void *than) {
  return than && (uintptr_t)frame > (uintptr_t)than;
}

static void task_finish(bridge_thread_t *t, bridge_task_t *rec,
                        ompt_task_status_t status);
static void implicit_left(bridge_thread_t *t, bridge_task_t *task,
                          bridge_team_t *team, const void *codeptr,
                          void *frame);

/* End the running tasks that this event's frame shows to be over. */
static void recover(bridge_thread_t *t, void *frame) {
  for (;;) {
    bridge_task_t *cur = t->cur;
    if (!cur || cur == t->pending || !frame_above(frame, cur->begin_frame))
      return;
    if (cur->flags & ompt_task_explicit) {
      task_finish(t, cur, ompt_task_cancel);
    } else if (cur->flags & ompt_task_implicit) {
      /* The region's block was left without Parallel_end.  Only the
       * primary thread can still rely on the team's storage. */
      implicit_left(t, cur, cur->thread_num == 0 ? cur->team : NULL, NULL,
                    NULL);
      bridge_thread_flush(t);
    } else {
      return;
    }
  }
}

/* The thread's record, with a pending barrier end delivered first (so that
 * callbacks reach the tool in the order the events happened) and tasks left
 * by a cancelled construct ended. */
static inline bridge_thread_t *enter_event(void *frame) {
  bridge_thread_t *t = bridge_thread_self();
  if (__builtin_expect(!t, 0))
    return NULL;
  bridge_task_t *cur = t->cur;
  if (cur && cur == t->pending) {
    bridge_thread_flush(t);
    cur = t->cur;
  }
  if (cur && frame_above(frame, cur->begin_frame))
    recover(t, frame);
  if (__builtin_expect(t->lane_hold, 0)) {
    t->lane_hold = 0; /* what a cancellation left has ended by now */
    bridge_lane_refresh(t);
  }
  return t;
}

/* The thread's record when the event has nothing to do first (no pending
 * barrier end, no task left by a cancelled construct) and its scope stack
 * has room for one more, else NULL: then the caller takes its general path,
 * enter_event.  Nothing here calls out, so that an event whose fast path
 * ends in the tool's callback needs no stack frame of its own. */
static inline __attribute__((always_inline)) bridge_thread_t *
enter_quick(void *frame, int push) {
  bridge_thread_t *t = bridge_self;
  if (__builtin_expect(!t, 0))
    return NULL;
  bridge_task_t *cur = t->cur;
  if (cur && (cur == t->pending || frame_above(frame, cur->begin_frame)))
    return NULL;
  if (push && __builtin_expect(t->nscopes == t->scope_cap, 0))
    return NULL;
  return t;
}

/* The task's enter_frame, set at a scheduling point unless already set;
 * returns whether it was set here (the scope's end then clears it). */
static inline int set_enter_frame(bridge_thread_t *t, void *frame) {
  bridge_task_t *task = t->cur;
  if (!task || !frame || task->frame.enter_frame.ptr)
    return 0;
  task->frame.enter_frame.ptr = frame;
  return 1;
}

/* Push a scope; whether its begin is to be delivered. */
static inline int push_scope(bridge_thread_t *t, int what, int bucket, int kind,
                             uint64_t arg, const void *codeptr, int set_enter) {
  if (__builtin_expect(t->nscopes == t->scope_cap, 0) &&
      !bridge_scope_grow(t)) {
    /* Not recorded, so neither end is delivered: undo the frame. */
    if (set_enter && t->cur)
      t->cur->frame.enter_frame.ptr = NULL;
    return 0;
  }
  return bridge_scope_push_entry(t, what, bucket, kind, arg, codeptr,
                                 set_enter);
}

/* The current task's innermost open scope, if it is of kind `what`: where
 * an end almost always finds its begin. */
static inline bridge_scope_t *top_scope(bridge_thread_t *t, int what) {
  bridge_task_t *cur = t->cur;
  int n = t->nscopes;
  if (n > (cur ? cur->scope_base : 0) && t->scopes[n - 1].what == what)
    return &t->scopes[n - 1];
  return NULL;
}

/* Pop and end a scope: the top one inline, else the general search (which
 * also ends scopes left open above it). */
static inline __attribute__((always_inline)) void
pop_scope(bridge_thread_t *t, int what, int kind, uint64_t arg, int match_arg,
          const void *codeptr) {
  bridge_task_t *cur = t->cur;
  int n = t->nscopes;
  if (n <= (cur ? cur->scope_base : 0))
    return; /* the task has no open scope */
  bridge_scope_t s, *top = &t->scopes[n - 1];
  if (top->what == what && (kind < 0 || top->kind == kind) &&
      (!match_arg || top->arg == arg)) {
    t->nscopes = n - 1;
    bridge_scope_end_as(t, top, what, codeptr);
  } else if (bridge_scope_pop(t, what, kind, arg, match_arg, &s)) {
    bridge_scope_end_as(t, &s, what, codeptr);
  }
}

/* Push the scope of a masked or work begin that is to be delivered, with
 * its number (bridge_pairs); whether the begin reaches the tool. */
static inline int push_pair(bridge_thread_t *t, int what, int pair,
                            uint32_t seq, int bucket, int kind, uint64_t arg,
                            const void *codeptr) {
  int n = t->nscopes;
  int delivered = bridge_scope_push(t, what, bucket, kind, arg, codeptr);
  if (t->nscopes > n) {
    t->scopes[n].seq = seq;
    bridge_pairs[pair].open++;
  }
  return delivered;
}

/* Pop and end the scope of the begin numbered seq, if it left one. */
static inline __attribute__((always_inline)) void
pop_pair(bridge_thread_t *t, int what, int pair, uint32_t seq,
         const void *codeptr) {
  bridge_scope_t s, *top = top_scope(t, what);
  if (top && top->seq == seq) {
    t->nscopes--;
    bridge_pairs[pair].open--;
    bridge_scope_end_as(t, top, what, codeptr);
  } else if (bridge_scope_pop_seq(t, what, seq, &s)) {
    bridge_scope_end_as(t, &s, what, codeptr);
  }
}

/* ---- Parallel regions ------------------------------------------------------
 */

/* self: t is known to be the calling thread's record. */
static inline __attribute__((always_inline)) void
implicit_task_end(bridge_thread_t *t, bridge_task_t *task, const void *codeptr,
                  int self) {
  bridge_task_close_open(t, task, codeptr);
  if (task->announced) {
    ompt_callback_implicit_task_t cb =
        BRIDGE_GROUP(BRIDGE_B_PARALLEL_BE, implicit_task);
    if (cb)
      cb(ompt_scope_end, NULL, &task->task_data, 0, (unsigned)task->thread_num,
         task->flags);
  }
  bridge_deps_release(t, task);
  task->frame.exit_frame.ptr = NULL;
  task->frame.enter_frame.ptr = NULL;
  /* self is a constant where this is inlined: no test is left. */
  bridge_task_pop_as(t, task, self || t == bridge_self);
  __atomic_store_n(&task->status, BRIDGE_TASK_DONE, __ATOMIC_RELEASE);
  task->team = NULL;
  bridge_task_unref_by(self ? t : bridge_self, task);
  bridge_task_t *cur = t->cur;
  bridge_set_state(t, cur ? bridge_working_state(cur) : ompt_state_idle, 0);
}

/* The pending barrier end and implicit task end of t, whose running task is
 * the pending one. */
static inline __attribute__((always_inline)) void
flush_pending(bridge_thread_t *t, bridge_task_t *task, int self) {
  t->pending = task->pending_below;
  /* The barrier ends as the region does: without its parallel_data on every
   * thread (5.2 allows NULL at exactly this end, and the workers' team may
   * be gone; libomp passes NULL too).  get_task_info answers the copy. */
  task->parallel_data = NULL;
  pop_scope(t, BRIDGE_SC_SYNC, ompt_sync_region_barrier_implicit_parallel, 0, 0,
            task->left_codeptr);
  implicit_task_end(t, task, task->left_codeptr, self);
}

void bridge_thread_flush(bridge_thread_t *t) {
  bridge_task_t *task = t->pending;
  /* Only at the implicit task's own level: a task running inside the end
   * barrier leaves the barrier pending. */
  if (!task || t->cur != task)
    return;
  flush_pending(t, task, 0);
}

/* enter_event with the pending barrier end delivered inline, for the
 * region events that most often find one (a worker's next implicit task
 * begin, the primary thread's Parallel_exit): no call on the common path. */
static inline __attribute__((always_inline)) bridge_thread_t *
enter_event_flush(void *frame) {
  bridge_thread_t *t = bridge_thread_self();
  if (__builtin_expect(!t, 0))
    return NULL;
  bridge_task_t *cur = t->cur;
  if (cur && cur == t->pending) {
    flush_pending(t, cur, 1); /* t is bridge_self */
    cur = t->cur;
  }
  if (cur && frame_above(frame, cur->begin_frame))
    recover(t, frame);
  return t;
}

static inline __attribute__((always_inline)) void
parallel_enter(bridge_thread_t *t, bridge_team_t *team, int requested, int how,
               const void *codeptr, void *frame, int room) {
  /* Every field, written only where it changes (BRIDGE_TEAM_SET), but
   * region_fn and region_data, which libpompt's GOMP_parallel sets before
   * its trampoline reads them. */
  bridge_task_t *enc = t->cur;
  bridge_storage_fresh(team, sizeof *team);
  BRIDGE_TEAM_SET(team->parallel_data.value, 0);
  BRIDGE_TEAM_SET(team->encountering, enc);
  /* An outermost team uses the primary's pool, unless a target region's
   * host fallback gave it one of its own. */
  bridge_thread_t *primary = enc && (enc->flags & ompt_task_initial) ? t : NULL;
  /* BRIDGE_ENTER_QUIET, _QUIET_COMBINE as BRIDGE_TEAM_QUIET, _QUIET_COMBINE */
  _Static_assert(BRIDGE_TEAM_QUIET == 2 * BRIDGE_ENTER_QUIET &&
                     BRIDGE_TEAM_QUIET_COMBINE ==
                         2 * BRIDGE_ENTER_QUIET_COMBINE,
                 "the quiet bits are the entry's, one place up");
  int origin = (how & (BRIDGE_ENTER_QUIET | BRIDGE_ENTER_QUIET_COMBINE)) << 1;
  if (__builtin_expect(bridge_target_depth > 0, 0) && primary) {
    primary = NULL;
    origin |= BRIDGE_TEAM_POOL_DISCARDED;
  }
  BRIDGE_TEAM_SET(team->pool_primary, primary);
  BRIDGE_TEAM_SET(team->codeptr, codeptr);
  BRIDGE_TEAM_SET(team->requested, how & BRIDGE_ENTER_IF_FALSE ? 1 : requested);
  BRIDGE_TEAM_SET(team->flags,
                  ompt_parallel_invoker_runtime | ompt_parallel_team);
  BRIDGE_TEAM_SET(team->size, 0);
  BRIDGE_TEAM_SET(team->origin, origin);
  if (atomic_load_explicit(&team->discardable, memory_order_relaxed))
    atomic_store_explicit(&team->discardable, NULL, memory_order_relaxed);
  if (atomic_load_explicit(&team->cancelled, memory_order_relaxed))
    atomic_store_explicit(&team->cancelled, 0, memory_order_relaxed);
  int set = set_enter_frame(t, frame);
  int announced;
  if (room) {
    announced =
        bridge_scope_push_entry(t, BRIDGE_SC_PARALLEL, BRIDGE_B_PARALLEL_EE, 0,
                                (uint64_t)(uintptr_t)team, codeptr, set);
  } else {
    announced = push_scope(t, BRIDGE_SC_PARALLEL, BRIDGE_B_PARALLEL_EE, 0,
                           (uint64_t)(uintptr_t)team, codeptr, set);
  }
  BRIDGE_TEAM_SET(team->announced, announced);
  bridge_set_state(t, ompt_state_overhead, 0);
  t->fork_pending = team;
  if (!bridge_fork_deferred)
    bridge_fork_deliver(t);
}

static __attribute__((noinline)) void
parallel_enter_slow(bridge_team_t *team, int requested, int how,
                    const void *codeptr, void *frame) {
  bridge_thread_t *t = enter_event(frame);
  if (t)
    parallel_enter(t, team, requested, how, codeptr, frame, 0);
}

/* Inlined into the constructs' enter events (link-time optimisation left
 * it a call of its own: 11 instructions a region with the null tool). */
__attribute__((always_inline)) inline void
bridge_parallel_enter(POMP_Team_t *storage, int requested, int how,
                      const void *codeptr, void *frame) {
  bridge_team_t *team = (bridge_team_t *)storage;
  bridge_thread_t *t = enter_quick(frame, 1);
  if (__builtin_expect(!t, 0)) {
    parallel_enter_slow(team, requested, how, codeptr, frame);
    return;
  }
  parallel_enter(t, team, requested, how, codeptr, frame, 1);
}

/* parallel_begin of the region this thread is about to start. */
void bridge_fork_deliver(bridge_thread_t *t) {
  bridge_team_t *team = t->fork_pending;
  t->fork_pending = NULL;
  if (!team || !team->announced)
    return;
  bridge_task_t *enc = team->encountering;
  ompt_callback_parallel_begin_t cb =
      BRIDGE_ACTIVE(BRIDGE_B_PARALLEL_EE, parallel_begin);
  if (cb)
    cb(task_data_of(enc), enc ? &enc->frame : NULL, &team->parallel_data,
       (unsigned)team->requested, team->flags, team->codeptr);
}

/* Which pool the thread is docked in after this region (see pool_primary):
 * only an outermost team's of more than one thread uses the pool; a nested
 * team's threads end. */
static void pool_note(bridge_thread_t *t, const bridge_team_t *team, int num,
                      int size) {
  bridge_thread_t *primary = team->pool_primary;
  /* Read by the finalising thread (relaxed: only after every region). */
  if (num == 0) {
    if (primary && size > 1)
      __atomic_store_n(&t->pool_size, size, __ATOMIC_RELAXED);
    return;
  }
  if (team->origin & BRIDGE_TEAM_POOL_DISCARDED)
    atomic_store_explicit(&t->leaving, 1, memory_order_relaxed);
  __atomic_store_n(&t->pool_primary, primary, __ATOMIC_RELAXED);
  __atomic_store_n(&t->pool_num, num, __ATOMIC_RELAXED);
}

__thread bridge_block_t bridge_block
    __attribute__((used, tls_model("initial-exec")));

/* The block of task, which the trampoline began: its construct's
 * Parallel_begin and Parallel_end may go quiet (bridge_block_t). */
static inline __attribute__((always_inline)) void
block_arm(const bridge_team_t *team, bridge_task_t *task) {
  if (team->origin & BRIDGE_TEAM_QUIET) {
    bridge_block.team = team;
    bridge_block.early = &task->early_begun;
  }
}

/* The implicit task's begin.  early: called by libpompt's trampoline
 * (region_run) before the region's function runs; the task it leaves
 * running is marked begun, so that the construct's own Parallel_begin
 * delivers nothing. */
static __attribute__((noinline)) void
parallel_begin_slow(bridge_team_t *team, void *frame, int early_run) {
  bridge_thread_t *t = enter_event_flush(frame);
  if (!t)
    return;
  bridge_task_t *early = t->cur; /* begun by the region's trampoline */
  if (early && early->early_begun && early->team == team) {
    early->early_begun =
        (uint8_t)(early_run && (early->flags & ompt_task_implicit));
    early->trampolined |= early->early_begun;
    if (early->early_begun)
      block_arm(team, early);
    return;
  }
  if (t->fork_pending) /* the region started through another entry */
    bridge_fork_deliver(t);
  int num = omp_get_thread_num ? omp_get_thread_num() : 0;
  int size = omp_get_num_threads ? omp_get_num_threads() : 1;
  if (num != 0 && t->cur && !(t->cur->flags & ompt_task_initial))
    /* A worker joins a team from idle: whatever it still runs was left
     * without its end events (a cancelled region). */
    bridge_unwind_tasks(t, NULL);
  bridge_task_t *task = bridge_task_alloc(t);
  if (!task) {
    bridge_task_t *cur = t->cur;
    if (early_run && cur && cur->team == team &&
        (cur->flags & ompt_task_implicit))
      cur->early_begun = cur->trampolined = 1;
    return;
  }
  pool_note(t, team, num, size);
  task->frame.exit_frame.ptr = frame;
  task->begin_frame = frame;
  task->team = team;
  task->codeptr = team->codeptr;
  task->parallel_data = &team->parallel_data;
  task->parent = team->encountering;
  task->parent_gen = task->parent ? bridge_task_gen(task->parent) : 0;
  task->flags = ompt_task_implicit;
  task->thread_num = num;
  task->team_size = size;
  task->announced =
      (uint8_t)(bridge_enabled & team->announced); /* 0 or 1 each */
  task->early_begun = (uint8_t)early_run;
  task->trampolined = (uint8_t)early_run;
  bridge_task_push_as(t, task, ompt_state_work_parallel);
  bridge_set_state(t, ompt_state_work_parallel, 0);
  if (task->announced) {
    ompt_callback_implicit_task_t cb =
        BRIDGE_ACTIVE(BRIDGE_B_PARALLEL_BE, implicit_task);
    if (cb)
      cb(ompt_scope_begin, &team->parallel_data, &task->task_data,
         (unsigned)size, (unsigned)num, ompt_task_implicit);
  }
  task->parallel_data_seen = team->parallel_data;
  if (early_run)
    block_arm(team, task);
}

void bridge_parallel_begin_early(POMP_Team_t *storage, void *frame) {
  parallel_begin_slow((bridge_team_t *)storage, frame, 1);
}

/* The construct's Parallel_begin.  Under libpompt's trampoline (the common
 * case) the implicit task has begun already and this event only notes so:
 * that is tested first, with nothing else to do (enter_quick), and without
 * a stack frame. */
void bridge_parallel_begin(POMP_Team_t *storage, void *frame) {
  bridge_team_t *team = (bridge_team_t *)storage;
  bridge_thread_t *t = enter_quick(frame, 0);
  bridge_task_t *early = t ? t->cur : NULL;
  if (__builtin_expect(early && early->early_begun && early->team == team, 1)) {
    early->early_begun = 0;
    return;
  }
  parallel_begin_slow(team, frame, 0);
}

/* The thread leaves its implicit task's block and waits in the region's end
 * barrier; the barrier's end and the task's end follow at its next event at
 * this level.  team: the region's storage when it can still be read.
 * returned: the block's function has returned (libpompt's trampoline), so
 * no frame of the task's code is left on the stack: the task's exit_frame
 * and enter_frame are NULL while it waits, as at a native runtime, whose
 * end barrier follows the outlined function's return.  Otherwise the
 * thread is still in the block, inside the POMP event whose frame is
 * given. */
static inline __attribute__((always_inline)) void
implicit_left_inline(bridge_thread_t *t, bridge_task_t *task,
                     bridge_team_t *team, const void *codeptr, void *frame,
                     int returned) {
  int forget = task->thread_num != 0 || !team;
  if (!codeptr) /* left without Parallel_end: at the end of the construct */
    codeptr = task->codeptr;
  if (returned) {
    task->frame.exit_frame.ptr = NULL;
    frame = NULL;
  } else if (!frame) {
    frame = task->begin_frame;
  }
  if (!team) {
    task->team = NULL;
    atomic_signal_fence(memory_order_seq_cst);
    task->parallel_data = NULL;
  }
  bridge_task_close_open(t, task, codeptr);
  /* Kept for the task's end (flush_pending); stored now, so that codeptr is
   * not held across the callbacks below beside the barrier's. */
  task->left_codeptr = codeptr;
  /* The barrier's codeptr_ra, as at a native runtime: the primary thread's
   * is the region's, whose one runtime call (libgomp's GOMP_parallel)
   * starts the team and waits in this barrier; a worker reaches it from no
   * call of the program's (the runtime waits after the region's function
   * returned), so NULL, as 5.2 allows and libomp gives. */
  const void *barrier_codeptr = task->thread_num == 0 ? task->codeptr : NULL;
  bridge_set_state(t, ompt_state_wait_barrier_implicit_parallel, 0);
  int set = set_enter_frame(t, frame);
  if (push_scope(t, BRIDGE_SC_SYNC, BRIDGE_B_PARALLEL_BE,
                 ompt_sync_region_barrier_implicit_parallel, 0, barrier_codeptr,
                 set)) {
    /* 5.2 allows a NULL parallel_data only at this barrier's end. */
    ompt_data_t *pd = team ? &team->parallel_data : &task->parallel_data_seen;
    ompt_callback_sync_region_t scb =
        BRIDGE_ACTIVE(BRIDGE_B_PARALLEL_BE, sync_region);
    if (scb)
      scb(ompt_sync_region_barrier_implicit_parallel, ompt_scope_begin, pd,
          &task->task_data, barrier_codeptr);
    ompt_callback_sync_region_t wcb = BRIDGE_ACTIVE_AS(
        BRIDGE_B_PARALLEL_BE, sync_region_wait, ompt_callback_sync_region_t);
    if (wcb)
      wcb(ompt_sync_region_barrier_implicit_parallel, ompt_scope_begin, pd,
          &task->task_data, barrier_codeptr);
  }
  /* A worker must not look at the team again: once every thread has reached
   * the barrier, the primary thread leaves and the team's storage goes.
   * The parent (the encountering task, a record) stays, which inquiry
   * answers while it is the same task (parent_gen): tasks may run in this
   * barrier, and their ancestors are asked for. */
  if (forget) {
    task->team = NULL;
    atomic_signal_fence(memory_order_seq_cst);
    task->parallel_data = NULL;
  }
  task->pending_below = t->pending;
  t->pending = task;
}

/* The same, out of line for the recovery paths (Parallel_end, the common
 * one, has it inline). */
static void implicit_left(bridge_thread_t *t, bridge_task_t *task,
                          bridge_team_t *team, const void *codeptr,
                          void *frame) {
  implicit_left_inline(t, task, team, codeptr, frame, 0);
}

/* The end of the block of a parallel region.  Where libpompt's trampoline
 * runs the block (the common case), the thread leaves it when the block's
 * function returns (bridge_parallel_returned): what GCC placed after the
 * block still runs in the task, and the task then waits in the end barrier
 * with no frame of its code on the stack.  combining: a construct whose
 * reduction GCC combines after the block (its clause on the parallel
 * leaf): the thread combines until then, with a reduction begin now and its
 * end then.  Elsewhere the thread leaves the block here. */
void bridge_parallel_end(POMP_Team_t *storage, int combining,
                         const void *codeptr, void *frame) {
  bridge_thread_t *t = enter_event(frame);
  if (!t)
    return;
  bridge_team_t *team = (bridge_team_t *)storage;
  bridge_task_t *task = t->cur;
  if (!task || task->team != team || task == t->pending)
    return; /* unmatched end: nothing sensible to report */
  if (!task->trampolined) {
    implicit_left_inline(t, task, team, codeptr, frame, 0);
    return;
  }
  bridge_task_close_open(t, task, codeptr);
  task->left_codeptr = codeptr; /* until the function returns */
  task->trampolined = BRIDGE_TRAMPOLINED_ENDED;
  if (combining)
    bridge_combine_block_begin(t, codeptr);
}

/* The running task of t if it is team's implicit task that the trampoline
 * began and that has not left its block, else NULL. */
static inline bridge_task_t *block_task(const bridge_thread_t *t,
                                        const bridge_team_t *team) {
  bridge_task_t *task = t->cur;
  if (!task || !task->trampolined || task->team != team || task == t->pending)
    return NULL;
  return task;
}

/* The block's function returned to the trampoline.  A block left without
 * its end event (a cancelled region) is left here too, at the end of the
 * construct, while the team's storage can still be read. */
void bridge_parallel_returned(POMP_Team_t *storage, void *frame) {
  bridge_team_t *team = (bridge_team_t *)storage;
  const void *quiet_end = NULL;
  if (bridge_block.team == team) {
    quiet_end = bridge_block.end_codeptr;
    bridge_block.team = bridge_block.end_codeptr = NULL;
    if (__builtin_expect(bridge_block.work != 0, 0)) {
      bridge_block.work = 0;
      if (quiet_end) /* the combined construct's worksharing part first */
        bridge_work_leave(0, 0, quiet_end, frame);
    }
  }
  bridge_thread_t *t = bridge_self;
  bridge_task_t *task = t ? block_task(t, team) : NULL;
  if (__builtin_expect(!task, 0)) {
    /* A quiet Parallel_end: what its event would have found to do first
     * (enter_event), at this frame, which no task of the block outlives. */
    if (!quiet_end || !(t = enter_event(frame)))
      return;
    task = block_task(t, team);
    if (!task)
      return; /* another task runs (left without its end): recovered later */
  } else if (quiet_end && __builtin_expect(t->lane_hold, 0)) {
    t->lane_hold = 0; /* as enter_event */
    bridge_lane_refresh(t);
  }
  const void *codeptr = quiet_end;
  if (task->trampolined == BRIDGE_TRAMPOLINED_ENDED)
    codeptr = task->left_codeptr;
  else if (quiet_end && (team->origin & BRIDGE_TEAM_QUIET_COMBINE)) {
    /* no lock came: the combining's begin, and its end below, now; after
     * what the end's event closes first (bridge_parallel_end) */
    bridge_task_close_open(t, task, quiet_end);
    bridge_combine_block_begin(t, quiet_end);
  }
  if (bridge_combining.open == BRIDGE_COMBINING_BLOCK)
    bridge_combine_block_end(t);
  implicit_left_inline(t, task, team, codeptr, NULL, 1);
}

void bridge_block_due_slow(void *frame) {
  bridge_block_t *b = &bridge_block;
  bridge_team_t *team = (bridge_team_t *)(uintptr_t)b->team;
  const void *codeptr = b->end_codeptr;
  uintptr_t work = b->work;
  b->team = b->end_codeptr = NULL;
  b->work = 0;
  if (!team || !codeptr)
    return;
  if (work)
    bridge_work_leave(0, 0, codeptr, frame);
  bridge_parallel_end((POMP_Team_t *)team,
                      (team->origin & BRIDGE_TEAM_QUIET_COMBINE) != 0, codeptr,
                      frame);
}

const void *bridge_block_left_codeptr(POMP_Team_t *storage) {
  bridge_thread_t *t = bridge_thread_peek();
  bridge_task_t *task = t ? t->pending : NULL;
  if (!task || task->team != (bridge_team_t *)storage ||
      task->left_codeptr == task->codeptr)
    return NULL;
  return task->left_codeptr;
}

void bridge_parallel_left(POMP_Team_t *storage, const void *codeptr,
                          void *frame) {
  bridge_thread_t *t = enter_event(frame);
  if (!t)
    return;
  bridge_team_t *team = (bridge_team_t *)storage;
  bridge_task_t *task = t->cur;
  if (!task || task->team != team || task == t->pending)
    return; /* unmatched end: nothing sensible to report */
  implicit_left_inline(t, task, team, codeptr, NULL, 1);
}

void bridge_unwind_tasks(bridge_thread_t *t, const void *codeptr) {
  for (;;) {
    bridge_task_t *cur = t->cur;
    if (!cur || (cur->flags & ompt_task_initial))
      return;
    if (cur == t->pending) {
      bridge_thread_flush(t);
    } else if (cur->flags & ompt_task_implicit) {
      implicit_left(t, cur, NULL, codeptr, NULL);
      bridge_thread_flush(t);
    } else {
      task_finish(t, cur, ompt_task_cancel);
    }
  }
}

void bridge_parallel_exit(POMP_Team_t *storage, const void *codeptr,
                          void *frame) {
  bridge_thread_t *t = enter_event_flush(frame); /* the primary's join */
  if (!t)
    return;
  bridge_team_t *team = (bridge_team_t *)storage;
  if (t->fork_pending) /* the region never ran its block */
    bridge_fork_deliver(t);
  bridge_task_t *cur = t->cur;
  if (cur && cur->team == team && (cur->flags & ompt_task_implicit)) {
    /* Parallel_end never came (cancelled region, same frame). */
    if (cur != t->pending)
      implicit_left(t, cur, team, codeptr, frame);
    bridge_thread_flush(t);
  }
  bridge_scope_t s, *top = top_scope(t, BRIDGE_SC_PARALLEL);
  if (top && top->arg == (uint64_t)(uintptr_t)team) {
    t->nscopes--;
  } else if (bridge_scope_pop(t, BRIDGE_SC_PARALLEL, -1,
                              (uint64_t)(uintptr_t)team, 1, &s)) {
    top = &s;
  } else {
    top = NULL;
  }
  int delivered = top && top->delivered;
  if (top)
    bridge_scope_end_as(t, top, BRIDGE_SC_PARALLEL, codeptr); /* enter frame */
  if (__builtin_expect(atomic_load_explicit(&team->discardable,
                                            memory_order_relaxed) != NULL,
                       0))
    bridge_discard_region_end(t, team); /* the region's tasks never begun */
  bridge_task_t *enc = team->encountering;
  bridge_set_state(t, bridge_working_state(t->cur), 0);
  if (delivered) {
    /* With parallel_begin's codeptr_ra, as at a native runtime, where one
     * runtime call (libgomp's GOMP_parallel, libomp's __kmpc_fork_call)
     * starts and ends the region, and as tools that pair the two by it
     * expect. */
    ompt_callback_parallel_end_t cb =
        BRIDGE_GROUP(BRIDGE_B_PARALLEL_EE, parallel_end);
    if (cb)
      cb(&team->parallel_data, task_data_of(enc), team->flags,
         team->codeptr ? team->codeptr : codeptr);
  }
}

/* ---- Worksharing ------------------------------------------------------------
 */

/* A work region's begin: recorded only when it is delivered (see
 * bridge_pairs in bridge.h); its end is delivered exactly then.  room: the
 * caller knows the scope stack has room (enter_quick). */
static inline __attribute__((always_inline)) void
work_begin_in(bridge_thread_t *t, int bucket, ompt_work_t type, uint64_t count,
              const void *codeptr, int room) {
  uint32_t seq = ++bridge_pairs[BRIDGE_PAIR_WORK].next;
  ompt_callback_work_t cb = BRIDGE_ACTIVE(bucket, work);
  if (!cb)
    return;
  int delivered;
  if (room) {
    int n = t->nscopes;
    delivered =
        bridge_scope_push_room(t, BRIDGE_SC_WORK, bucket, type, count, codeptr);
    t->scopes[n].seq = seq;
    bridge_pairs[BRIDGE_PAIR_WORK].open++;
  } else {
    delivered = push_pair(t, BRIDGE_SC_WORK, BRIDGE_PAIR_WORK, seq, bucket,
                          type, count, codeptr);
  }
  if (delivered) {
    bridge_task_t *task = t->cur;
    cb(type, ompt_scope_begin, parallel_data_of(task), task_data_of(task),
       count, codeptr);
  }
}

static void work_begin(bridge_thread_t *t, int bucket, ompt_work_t type,
                       uint64_t count, const void *codeptr) {
  work_begin_in(t, bucket, type, count, codeptr, 0);
}

static void work_end(bridge_thread_t *t, const void *codeptr) {
  uint32_t seq = bridge_pairs[BRIDGE_PAIR_WORK].next--;
  if (bridge_pairs[BRIDGE_PAIR_WORK].open)
    pop_pair(t, BRIDGE_SC_WORK, BRIDGE_PAIR_WORK, seq, codeptr);
}

/* work_end on the fast path (enter_quick): the top scope inline, anything
 * else through work_end's search. */
static __attribute__((noinline)) void
work_pop_search(bridge_thread_t *t, uint32_t seq, const void *codeptr) {
  pop_pair(t, BRIDGE_SC_WORK, BRIDGE_PAIR_WORK, seq, codeptr);
}

static inline __attribute__((always_inline)) void
work_end_quick(bridge_thread_t *t, const void *codeptr) {
  bridge_pair_seq_t *p = &bridge_pairs[BRIDGE_PAIR_WORK];
  uint32_t seq = p->next--;
  if (!p->open)
    return;
  bridge_scope_t *top = top_scope(t, BRIDGE_SC_WORK);
  if (__builtin_expect(!top || top->seq != seq, 0)) {
    work_pop_search(t, seq, codeptr);
    return;
  }
  t->nscopes--;
  p->open--;
  bridge_scope_end_as(t, top, BRIDGE_SC_WORK, codeptr);
}

static __attribute__((noinline)) void
work_begin_slow(int bucket, ompt_work_t type, uint64_t count,
                const void *codeptr, void *frame) {
  bridge_thread_t *t = enter_event(frame);
  if (t)
    work_begin(t, bucket, type, count, codeptr);
  else
    bridge_pairs[BRIDGE_PAIR_WORK].next++;
}

/* Apart, and reached by a tail call: the common path keeps no value
 * across a call of its own. */
static __attribute__((noinline)) void work_begin_runtime(int bucket,
                                                         uint64_t count,
                                                         const void *codeptr,
                                                         void *frame) {
  bridge_work_begin(bucket, bridge_loop_work_runtime(), count, codeptr, frame);
}

void bridge_work_begin(int bucket, ompt_work_t type, uint64_t count,
                       const void *codeptr, void *frame) {
  if (!bridge_wants(bucket, ompt_callback_work)) {
    bridge_pairs[BRIDGE_PAIR_WORK].next++;
    return;
  }
  if (__builtin_expect(type == BRIDGE_WORK_LOOP_RUNTIME, 0)) {
    work_begin_runtime(bucket, count, codeptr, frame);
    return;
  }
  bridge_thread_t *t = enter_quick(frame, 1);
  if (__builtin_expect(!t, 0)) {
    work_begin_slow(bucket, type, count, codeptr, frame);
    return;
  }
  work_begin_in(t, bucket, type, count, codeptr, 1);
}

static __attribute__((noinline)) void work_end_slow(const void *codeptr,
                                                    void *frame) {
  bridge_thread_t *t = enter_event(frame);
  if (t)
    work_end(t, codeptr);
  else
    bridge_pairs[BRIDGE_PAIR_WORK].next--;
}

void bridge_work_end(int bucket, ompt_work_t type, const void *codeptr,
                     void *frame) {
  (void)bucket, (void)type;
  if (!bridge_pairs[BRIDGE_PAIR_WORK].open) {
    bridge_pairs[BRIDGE_PAIR_WORK].next--;
    return;
  }
  bridge_thread_t *t = enter_quick(frame, 0);
  if (__builtin_expect(!t, 0)) {
    work_end_slow(codeptr, frame);
    return;
  }
  work_end_quick(t, codeptr);
}

void bridge_work(ompt_work_t type, ompt_scope_endpoint_t endpoint,
                 uint64_t count, const void *codeptr) {
  if (endpoint == ompt_scope_begin)
    bridge_work_begin(BRIDGE_B_OTHER, type, count, codeptr, NULL);
  else
    bridge_work_end(BRIDGE_B_OTHER, type, codeptr, NULL);
}

/* Stateless events (dispatch, flush) test their callback first: with none
 * registered they change nothing a tool can observe, and the thread's
 * pending work (discovery, a barrier end, unwinding) is done by the next
 * event that delivers something, in the same order. */
static __attribute__((noinline)) void dispatch_slow(ompt_callback_dispatch_t cb,
                                                    ompt_dispatch_t kind,
                                                    ompt_data_t instance,
                                                    void *frame) {
  bridge_thread_t *t = enter_event(frame);
  if (!t || !announced(t))
    return;
  bridge_task_t *task = t->cur;
  cb(parallel_data_of(task), task_data_of(task), kind, instance);
}

void bridge_dispatch(int bucket, ompt_dispatch_t kind, ompt_data_t instance,
                     void *frame) {
  ompt_callback_dispatch_t cb = BRIDGE_ACTIVE(bucket, dispatch);
  if (!cb)
    return;
  bridge_thread_t *t = enter_quick(frame, 0);
  if (__builtin_expect(!t, 0)) {
    dispatch_slow(cb, kind, instance, frame);
    return;
  }
  if (!announced(t))
    return;
  bridge_task_t *task = t->cur;
  cb(parallel_data_of(task), task_data_of(task), kind, instance);
}

/* The task's single_executor: 1 between Single_begin and Single_end, 2
 * from Single_end to Single_exit. */
enum { SINGLE_IN_BLOCK = 1, SINGLE_BLOCK_DONE = 2 };

static __attribute__((noinline)) void single_begin_slow(const void *codeptr,
                                                        void *frame) {
  bridge_thread_t *t = enter_event(frame);
  if (!t)
    return;
  if (t->cur)
    t->cur->single_executor = SINGLE_IN_BLOCK;
  work_begin(t, BRIDGE_B_WORKSHARE_EE, ompt_work_single_executor, 1, codeptr);
}

void bridge_single_begin(const void *codeptr, void *frame) {
  bridge_thread_t *t = enter_quick(frame, 1);
  if (__builtin_expect(!t, 0)) {
    single_begin_slow(codeptr, frame);
    return;
  }
  if (t->cur)
    t->cur->single_executor = SINGLE_IN_BLOCK;
  work_begin_in(t, BRIDGE_B_WORKSHARE_EE, ompt_work_single_executor, 1, codeptr,
                1);
}

static __attribute__((noinline)) void single_end_slow(const void *codeptr,
                                                      void *frame) {
  bridge_thread_t *t = enter_event(frame);
  bridge_task_t *task = t ? t->cur : NULL;
  if (task && task->single_executor == SINGLE_IN_BLOCK) {
    task->single_executor = SINGLE_BLOCK_DONE;
    work_end(t, codeptr);
  }
}

void bridge_single_end(const void *codeptr, void *frame) {
  bridge_thread_t *t = enter_quick(frame, 0);
  if (__builtin_expect(!t, 0)) {
    single_end_slow(codeptr, frame);
    return;
  }
  bridge_task_t *task = t->cur;
  if (task && task->single_executor == SINGLE_IN_BLOCK) {
    task->single_executor = SINGLE_BLOCK_DONE;
    work_end_quick(t, codeptr);
  }
}

static inline __attribute__((always_inline)) void
single_exit(bridge_thread_t *t, const void *codeptr, const void *construct,
            int quick) {
  bridge_task_t *task = t->cur;
  if (!task)
    return;
  if (task->single_executor) {
    /* Single_end may be missing in hand-written code. */
    int in_block = task->single_executor == SINGLE_IN_BLOCK;
    task->single_executor = 0;
    if (in_block) {
      if (quick)
        work_end_quick(t, codeptr);
      else
        work_end(t, codeptr);
    }
    return;
  }
  /* This thread did not execute the block; it learns so only when it leaves
   * the construct: begin and end at once, no record needed. */
  ompt_callback_work_t cb = BRIDGE_ACTIVE(BRIDGE_B_WORKSHARE_EE, work);
  if (cb && announced(t)) {
    ompt_data_t *pd = parallel_data_of(task), *td = task_data_of(task);
    cb(ompt_work_single_other, ompt_scope_begin, pd, td, 1, construct);
    cb(ompt_work_single_other, ompt_scope_end, pd, td, 1, construct);
  }
}

static __attribute__((noinline)) void
single_exit_slow(const void *codeptr, const void *construct, void *frame) {
  bridge_thread_t *t = enter_event(frame);
  if (t)
    single_exit(t, codeptr, construct, 0);
}

void bridge_single_exit(const void *codeptr, const void *construct,
                        void *frame) {
  bridge_thread_t *t = enter_quick(frame, 0);
  if (__builtin_expect(!t, 0)) {
    single_exit_slow(codeptr, construct, frame);
    return;
  }
  single_exit(t, codeptr, construct, 1);
}

/* masked: like work, recorded only when the begin is delivered. */
/* The begin, on a thread whose scope stack has room (enter_quick). */
static inline __attribute__((always_inline)) void
masked_begin(bridge_thread_t *t, ompt_callback_masked_t cb, uint32_t seq,
             const void *codeptr) {
  int n = t->nscopes;
  /* Counted first: the count's thread-local address is then no longer
   * needed across the push (one register fewer, no stack frame). */
  bridge_pairs[BRIDGE_PAIR_MASKED].open++;
  int delivered = bridge_scope_push_room(t, BRIDGE_SC_MASKED, BRIDGE_B_SYNC_BE,
                                         0, 0, codeptr);
  t->scopes[n].seq = seq;
  if (delivered) {
    bridge_task_t *task = t->cur;
    cb(ompt_scope_begin, parallel_data_of(task), task_data_of(task), codeptr);
  }
}

static __attribute__((noinline)) void
masked_begin_slow(ompt_callback_masked_t cb, uint32_t seq, const void *codeptr,
                  void *frame) {
  bridge_thread_t *t = enter_event(frame);
  if (t && push_pair(t, BRIDGE_SC_MASKED, BRIDGE_PAIR_MASKED, seq,
                     BRIDGE_B_SYNC_BE, 0, 0, codeptr)) {
    bridge_task_t *task = t->cur;
    cb(ompt_scope_begin, parallel_data_of(task), task_data_of(task), codeptr);
  }
}

void bridge_masked_begin(const void *codeptr, void *frame) {
  uint32_t seq = ++bridge_pairs[BRIDGE_PAIR_MASKED].next;
  ompt_callback_masked_t cb = BRIDGE_ACTIVE(BRIDGE_B_SYNC_BE, masked);
  if (!cb)
    return;
  bridge_thread_t *t = enter_quick(frame, 1);
  if (__builtin_expect(!t, 0)) {
    masked_begin_slow(cb, seq, codeptr, frame);
    return;
  }
  masked_begin(t, cb, seq, codeptr);
}

static __attribute__((noinline)) void
masked_end_slow(uint32_t seq, const void *codeptr, void *frame) {
  bridge_thread_t *t = enter_event(frame);
  if (t)
    pop_pair(t, BRIDGE_SC_MASKED, BRIDGE_PAIR_MASKED, seq, codeptr);
}

void bridge_masked_end(const void *codeptr, void *frame) {
  bridge_pair_seq_t *p = &bridge_pairs[BRIDGE_PAIR_MASKED];
  uint32_t seq = p->next--;
  if (!p->open)
    return;
  bridge_thread_t *t = enter_quick(frame, 0);
  bridge_scope_t *top = t ? top_scope(t, BRIDGE_SC_MASKED) : NULL;
  if (__builtin_expect(!top || top->seq != seq, 0)) {
    masked_end_slow(seq, codeptr, frame); /* or not recorded */
    return;
  }
  t->nscopes--;
  p->open--;
  /* bridge_scope_end_as for a masked scope, which is always pushed in
   * bucket BRIDGE_B_SYNC_BE and never sets the task's enter_frame: its
   * callback from a constant slot, no flag to test. */
  if (!top->delivered)
    return;
  bridge_task_t *task = t->cur;
  ompt_callback_masked_t cb = BRIDGE_GROUP(BRIDGE_B_SYNC_BE, masked);
  if (cb)
    cb(ompt_scope_end, parallel_data_of(task), task_data_of(task), codeptr);
}

/* The inline family's master events that found the lane unusable
 * (bridge_lane.c).  The thread is brought up to date first (a pending
 * barrier end delivered, what a cancellation left ended), so that the bit
 * this pushes or pops is the region's own; a region whose begin was
 * delivered inline ends here as any delivered pair does. */
void bridge_lane_masked_begin(int pair, const void *codeptr, void *frame) {
  bridge_thread_t *t = bridge_active ? enter_event(frame) : NULL;
  if (pair)
    bridge_masked_fast(ompt_scope_begin, codeptr, frame);
  bridge_lane_push();
  if (t)
    bridge_lane_refresh(t);
}

void bridge_lane_masked_end(int pair, const void *codeptr, void *frame) {
  bridge_thread_t *t = bridge_active ? enter_event(frame) : NULL;
  if (bridge_lane_pop()) {
    ompt_callback_masked_t cb = BRIDGE_GROUP(BRIDGE_B_SYNC_BE, masked);
    if (cb && t)
      cb(ompt_scope_end, parallel_data_of(t->cur), task_data_of(t->cur),
         codeptr);
  } else if (pair) {
    bridge_masked_fast(ompt_scope_end, codeptr, frame);
  }
  if (t)
    bridge_lane_refresh(t);
}

void bridge_masked(ompt_scope_endpoint_t endpoint, const void *codeptr,
                   void *frame) {
  if (endpoint == ompt_scope_begin)
    bridge_masked_begin(codeptr, frame);
  else
    bridge_masked_end(codeptr, frame);
}

/* ---- Synchronisation regions ------------------------------------------------
 */

static ompt_state_t sync_state(ompt_sync_region_t kind) {
  switch (kind) {
  case ompt_sync_region_barrier_implicit_parallel:
    return ompt_state_wait_barrier_implicit_parallel;
  case ompt_sync_region_barrier_implicit_workshare:
    return ompt_state_wait_barrier_implicit_workshare;
  case ompt_sync_region_barrier_explicit:
    return ompt_state_wait_barrier_explicit;
  case ompt_sync_region_barrier_teams:
    return ompt_state_wait_barrier_teams;
  case ompt_sync_region_taskwait:
    return ompt_state_wait_taskwait;
  case ompt_sync_region_taskgroup:
    return ompt_state_wait_taskgroup;
  default:
    return ompt_state_wait_barrier_implementation;
  }
}

static void sync_begin(bridge_thread_t *t, int bucket, ompt_sync_region_t kind,
                       int region, int wait, const void *codeptr) {
  bridge_task_t *task = t->cur;
  if (region) {
    ompt_callback_sync_region_t cb = BRIDGE_ACTIVE(bucket, sync_region);
    if (cb)
      cb(kind, ompt_scope_begin, parallel_data_of(task), task_data_of(task),
         codeptr);
  }
  if (wait) {
    ompt_callback_sync_region_t cb =
        BRIDGE_ACTIVE_AS(bucket, sync_region_wait, ompt_callback_sync_region_t);
    if (cb)
      cb(kind, ompt_scope_begin, parallel_data_of(task), task_data_of(task),
         codeptr);
  }
}

void bridge_sync_enter(int bucket, ompt_sync_region_t kind, const void *codeptr,
                       void *frame) {
  bridge_thread_t *t = enter_event(frame);
  if (!t)
    return;
  bridge_set_state(t, sync_state(kind), 0);
  int set = set_enter_frame(t, frame);
  if (push_scope(t, BRIDGE_SC_SYNC, bucket, kind, 0, codeptr, set))
    sync_begin(t, bucket, kind, 1, 1, codeptr);
}

void bridge_sync_exit(int bucket, ompt_sync_region_t kind, const void *codeptr,
                      void *frame) {
  (void)bucket;
  bridge_thread_t *t = enter_event(frame);
  if (!t)
    return;
  pop_scope(t, BRIDGE_SC_SYNC, kind, 0, 0, codeptr);
  bridge_set_state(t, bridge_working_state(t->cur), 0);
  /* After a taskwait every child of the task has completed: its
   * dependence bookkeeping can go. */
  if (kind == ompt_sync_region_taskwait && t->cur)
    bridge_deps_release(t, t->cur);
}

void bridge_taskgroup_enter(const void *codeptr, void *frame) {
  bridge_thread_t *t = enter_event(frame);
  if (!t)
    return;
  /* Its id (with cancellation on) names the taskgroup of the tasks
   * created in it (bridge_discard.c). */
  if (push_scope(t, BRIDGE_SC_SYNC_REGION, BRIDGE_B_TASK_EE,
                 ompt_sync_region_taskgroup, bridge_discard_taskgroup_id(),
                 codeptr, 0))
    sync_begin(t, BRIDGE_B_TASK_EE, ompt_sync_region_taskgroup, 1, 0, codeptr);
}

void bridge_taskgroup_end(const void *codeptr, void *frame) {
  bridge_thread_t *t = enter_event(frame);
  if (!t)
    return;
  bridge_set_state(t, ompt_state_wait_taskgroup, 0);
  int set = set_enter_frame(t, frame);
  if (push_scope(t, BRIDGE_SC_SYNC_WAIT, BRIDGE_B_TASK_EE,
                 ompt_sync_region_taskgroup, 0, codeptr, set))
    sync_begin(t, BRIDGE_B_TASK_EE, ompt_sync_region_taskgroup, 0, 1, codeptr);
}

void bridge_taskgroup_exit(const void *codeptr, void *frame) {
  bridge_thread_t *t = enter_event(frame);
  if (!t)
    return;
  /* The tasks of the taskgroup that never began were discarded, during
   * the wait. */
  const bridge_scope_t *tg = bridge_innermost_taskgroup(t);
  if (tg && tg->arg)
    bridge_discard_taskgroup_end(t, tg->arg);
  pop_scope(t, BRIDGE_SC_SYNC_WAIT, ompt_sync_region_taskgroup, 0, 0, codeptr);
  pop_scope(t, BRIDGE_SC_SYNC_REGION, ompt_sync_region_taskgroup, 0, 0,
            codeptr);
  bridge_set_state(t, bridge_working_state(t->cur), 0);
}

void bridge_taskgroup_wait_over(bridge_thread_t *t, const void *codeptr) {
  pop_scope(t, BRIDGE_SC_SYNC_WAIT, ompt_sync_region_taskgroup, 0, 0, codeptr);
}

void bridge_scheduling_point(int entering, void *frame) {
  bridge_thread_t *t = enter_event(frame);
  if (!t)
    return;
  if (entering)
    push_scope(t, BRIDGE_SC_POINT, BRIDGE_B_TASK_EE, 0, 0, NULL,
               set_enter_frame(t, frame));
  else
    pop_scope(t, BRIDGE_SC_POINT, -1, 0, 0, NULL);
}

/* ---- Mutual exclusion -------------------------------------------------------
 */

/* The one mutex implementation libpompt reports: the OpenMP runtime's own
 * (ompt_enumerate_mutex_impls lists it). */
#define BRIDGE_MUTEX_IMPL 1

static ompt_state_t mutex_state(ompt_mutex_t kind) {
  switch (kind) {
  case ompt_mutex_critical:
    return ompt_state_wait_critical;
  case ompt_mutex_atomic:
    return ompt_state_wait_atomic;
  case ompt_mutex_ordered:
    return ompt_state_wait_ordered;
  case ompt_mutex_lock:
  case ompt_mutex_nest_lock:
  case ompt_mutex_test_lock:
  case ompt_mutex_test_nest_lock:
    return ompt_state_wait_lock;
  default:
    return ompt_state_wait_mutex;
  }
}

/* The mutex_acquire callback alone, for the thread's announced task. */
static inline __attribute__((always_inline)) void
deliver_acquire(bridge_thread_t *t, int bucket, ompt_mutex_t kind,
                unsigned hint, ompt_wait_id_t wait_id, const void *codeptr) {
  if (!announced(t))
    return;
  ompt_callback_mutex_acquire_t cb = BRIDGE_ACTIVE(bucket, mutex_acquire);
  if (cb)
    cb(kind, hint, BRIDGE_MUTEX_IMPL, wait_id, codeptr);
}

/* The thread begins to wait for the mutex. */
static inline __attribute__((always_inline)) void
mutex_acquire(bridge_thread_t *t, int bucket, ompt_mutex_t kind, unsigned hint,
              ompt_wait_id_t wait_id, const void *codeptr) {
  bridge_set_state(t, mutex_state(kind), wait_id);
  /* As the inline acquire keeps it (pomp.h): its acquisition, a later
   * event, carries it too.  The lane's wait_id is read by ompt_get_state
   * only while its wait_state is set, which this path leaves alone. */
  POMPT_lane_v2.wait_codeptr = codeptr;
  POMPT_lane_v2.wait_id = wait_id;
  deliver_acquire(t, bucket, kind, hint, wait_id, codeptr);
}

/* The events below have a fast path (enter_quick) that makes no call but
 * the tool's callback, last, and a general one out of line. */
static __attribute__((noinline)) void
mutex_acquire_slow(int bucket, ompt_mutex_t kind, unsigned hint,
                   ompt_wait_id_t wait_id, const void *codeptr, void *frame) {
  bridge_thread_t *t = enter_event(frame);
  if (t)
    mutex_acquire(t, bucket, kind, hint, wait_id, codeptr);
}

void bridge_mutex_acquire(int bucket, ompt_mutex_t kind, unsigned hint,
                          ompt_wait_id_t wait_id, const void *codeptr,
                          void *frame) {
  bridge_thread_t *t = enter_quick(frame, 0);
  if (__builtin_expect(!t, 0)) {
    mutex_acquire_slow(bucket, kind, hint, wait_id, codeptr, frame);
    return;
  }
  mutex_acquire(t, bucket, kind, hint, wait_id, codeptr);
}

static inline __attribute__((always_inline)) void
deliver_mutex(int bucket, ompt_callbacks_t which, ompt_mutex_t kind,
              ompt_wait_id_t wait_id, const void *codeptr) {
  ompt_callback_mutex_t cb =
      (ompt_callback_mutex_t)bridge_active_in(bucket, which);
  if (cb)
    cb(kind, wait_id, codeptr);
}

/* A structured mutex is held: its release is delivered exactly when its
 * acquisition was, so it is recorded, but only when either callback is
 * wanted (a release with no record is not delivered).  room: the caller
 * knows the scope stack has room (enter_quick). */
static inline __attribute__((always_inline)) int
push_held(bridge_thread_t *t, int bucket, ompt_mutex_t kind,
          ompt_wait_id_t wait_id, const void *codeptr, int room) {
  if (!bridge_wants(bucket, ompt_callback_mutex_acquired) &&
      !bridge_wants(bucket, ompt_callback_mutex_released))
    return 0;
  if (room) {
    int delivered = bridge_scope_push_room(t, BRIDGE_SC_HELD, bucket, kind,
                                           wait_id, codeptr);
    bridge_pairs[BRIDGE_PAIR_HELD].open++;
    return delivered;
  }
  int n = t->nscopes;
  int delivered =
      push_scope(t, BRIDGE_SC_HELD, bucket, kind, wait_id, codeptr, 0);
  if (t->nscopes > n)
    bridge_pairs[BRIDGE_PAIR_HELD].open++;
  return delivered;
}

/* An atomic construct's mutex_acquire and mutex_acquired at once, with no
 * scope of their own: nothing happens inside an atomic operation that a
 * scope would be needed for (no scheduling point, cancellation, POMP event
 * or change of monitoring: pomp-instr evaluates a function-calling operand
 * before the construct), so the release only needs to know whether the
 * acquisition was delivered, which this returns. */
int bridge_atomic_acquire(int bucket, ompt_wait_id_t wait_id, int waits,
                          const void *codeptr, void *frame) {
  bridge_in_atomic = 1;
  bridge_thread_t *t = enter_quick(frame, 0);
  if (__builtin_expect(!t, 0) && !(t = enter_event(frame)))
    return 0;
  if (waits) { /* for libgomp's lock */
    mutex_acquire(t, bucket, ompt_mutex_atomic, 0, wait_id, codeptr);
    bridge_set_state(t, bridge_working_state(t->cur), 0);
  } else {
    deliver_acquire(t, bucket, ompt_mutex_atomic, 0, wait_id, codeptr);
  }
  if (!(bridge_enabled & announced(t)))
    return 0;
  deliver_mutex(bucket, ompt_callback_mutex_acquired, ompt_mutex_atomic,
                wait_id, codeptr);
  return 1;
}

/* Its release, when its acquisition was delivered (from the table of the
 * group, as the end of any pair whose begin went out). */
void bridge_atomic_release(int bucket, ompt_wait_id_t wait_id,
                           const void *codeptr) {
  ompt_callback_mutex_t cb = (ompt_callback_mutex_t)bridge_group_in(
      bucket, ompt_callback_mutex_released);
  if (cb)
    cb(ompt_mutex_atomic, wait_id, codeptr);
}

static inline __attribute__((always_inline)) void
mutex_acquired(bridge_thread_t *t, int bucket, ompt_mutex_t kind,
               ompt_wait_id_t wait_id, int held, const void *codeptr,
               int room) {
  bridge_set_state(t, bridge_working_state(t->cur), 0);
  POMPT_Lane_t *l = &POMPT_lane_v2;
  if (l->wait_id == wait_id && l->wait_codeptr) {
    codeptr = l->wait_codeptr; /* its acquire's */
    l->wait_codeptr = NULL;
  }
  int deliver =
      held ? push_held(t, bucket, kind, wait_id, codeptr, room) : announced(t);
  if (deliver)
    deliver_mutex(bucket, ompt_callback_mutex_acquired, kind, wait_id, codeptr);
}

static __attribute__((noinline)) void
mutex_acquired_slow(int bucket, ompt_mutex_t kind, ompt_wait_id_t wait_id,
                    int held, const void *codeptr, void *frame) {
  bridge_thread_t *t = enter_event(frame);
  if (t)
    mutex_acquired(t, bucket, kind, wait_id, held, codeptr, 0);
}

void bridge_mutex_acquired(int bucket, ompt_mutex_t kind,
                           ompt_wait_id_t wait_id, int held,
                           const void *codeptr, void *frame) {
  bridge_thread_t *t = enter_quick(frame, 1);
  if (__builtin_expect(!t, 0)) {
    mutex_acquired_slow(bucket, kind, wait_id, held, codeptr, frame);
    return;
  }
  mutex_acquired(t, bucket, kind, wait_id, held, codeptr, 1);
}

static __attribute__((noinline)) void
mutex_released_slow(int bucket, ompt_mutex_t kind, ompt_wait_id_t wait_id,
                    int held, const void *codeptr, void *frame) {
  bridge_thread_t *t = enter_event(frame);
  if (!t)
    return;
  if (held) {
    bridge_scope_t s, *top = top_scope(t, BRIDGE_SC_HELD);
    if (top && top->kind == (int)kind && top->arg == wait_id) {
      t->nscopes--;
      bridge_pairs[BRIDGE_PAIR_HELD].open--;
      bridge_scope_end_as(t, top, BRIDGE_SC_HELD, codeptr);
    } else if (bridge_scope_pop(t, BRIDGE_SC_HELD, kind, wait_id, 1, &s)) {
      bridge_scope_end_as(t, &s, BRIDGE_SC_HELD, codeptr);
    }
    return;
  }
  if (announced(t))
    deliver_mutex(bucket, ompt_callback_mutex_released, kind, wait_id, codeptr);
}

void bridge_mutex_released(int bucket, ompt_mutex_t kind,
                           ompt_wait_id_t wait_id, int held,
                           const void *codeptr, void *frame) {
  if (held && !bridge_pairs[BRIDGE_PAIR_HELD].open)
    return; /* released already (the exit after a block's end), or not
             * recorded */
  bridge_thread_t *t = enter_quick(frame, 0);
  if (__builtin_expect(!t, 0)) {
    mutex_released_slow(bucket, kind, wait_id, held, codeptr, frame);
    return;
  }
  if (held) {
    bridge_scope_t *top = top_scope(t, BRIDGE_SC_HELD);
    if (__builtin_expect(!top || top->kind != (int)kind || top->arg != wait_id,
                         0)) {
      mutex_released_slow(bucket, kind, wait_id, held, codeptr, frame);
      return;
    }
    t->nscopes--;
    bridge_pairs[BRIDGE_PAIR_HELD].open--;
    bridge_scope_end_as(t, top, BRIDGE_SC_HELD, codeptr);
    return;
  }
  if (announced(t))
    deliver_mutex(bucket, ompt_callback_mutex_released, kind, wait_id, codeptr);
}

void bridge_mutex_not_acquired(ompt_wait_id_t wait_id, void *frame) {
  (void)wait_id;
  bridge_thread_t *t = enter_event(frame);
  if (t)
    bridge_set_state(t, bridge_working_state(t->cur), 0);
}

/* ---- Locks ------------------------------------------------------------------
 * A lock's hint (omp_init_lock_with_hint) is kept in a fixed open-addressed
 * table keyed by the lock's address, lock-free; it is consulted only once a
 * lock with a hint exists.  Locks beyond its capacity report hint 0. */

#define HINT_SLOTS 1024
static struct {
  _Atomic(const void *) lock;
  atomic_uint hint;
} hints[HINT_SLOTS];
static atomic_int hints_used;

static unsigned hint_hash(const void *lock) {
  uintptr_t x = (uintptr_t)lock;
  x ^= x >> 17;
  x *= (uintptr_t)0x9e3779b97f4a7c15ull;
  return (unsigned)(x >> 7) & (HINT_SLOTS - 1);
}

static void hint_set(const void *lock, unsigned hint) {
  if (!hint && !atomic_load_explicit(&hints_used, memory_order_relaxed))
    return;
  unsigned h = hint_hash(lock);
  for (unsigned i = 0; i < HINT_SLOTS; i++) {
    unsigned k = (h + i) & (HINT_SLOTS - 1);
    const void *cur =
        atomic_load_explicit(&hints[k].lock, memory_order_acquire);
    if (!cur) {
      if (!hint)
        return; /* not in the table: nothing to clear */
      if (!atomic_compare_exchange_strong(&hints[k].lock, &cur, lock) &&
          cur != lock)
        continue;
      atomic_store_explicit(&hints_used, 1, memory_order_relaxed);
    } else if (cur != lock) {
      continue;
    }
    atomic_store_explicit(&hints[k].hint, hint, memory_order_relaxed);
    return;
  }
}

static unsigned hint_of(const void *lock) {
  if (!atomic_load_explicit(&hints_used, memory_order_relaxed))
    return 0;
  unsigned h = hint_hash(lock);
  for (unsigned i = 0; i < HINT_SLOTS; i++) {
    unsigned k = (h + i) & (HINT_SLOTS - 1);
    const void *cur =
        atomic_load_explicit(&hints[k].lock, memory_order_acquire);
    if (cur == lock)
      return atomic_load_explicit(&hints[k].hint, memory_order_relaxed);
    if (!cur)
      return 0;
  }
  return 0;
}

#define LOCK_WAIT_ID(lock) ((ompt_wait_id_t)(uintptr_t)(lock))

static int is_nest(ompt_mutex_t kind) {
  return kind == ompt_mutex_nest_lock || kind == ompt_mutex_test_nest_lock;
}

void bridge_lock_init(ompt_mutex_t kind, unsigned hint, const void *lock,
                      const void *codeptr, void *frame) {
  bridge_thread_t *t = enter_event(frame);
  if (!t)
    return;
  hint_set(lock, hint);
  if (!announced(t))
    return;
  ompt_callback_mutex_acquire_t cb = BRIDGE_ACTIVE_AS(
      BRIDGE_B_RUNTIME_EVENT, lock_init, ompt_callback_mutex_acquire_t);
  if (cb)
    cb(kind, hint, BRIDGE_MUTEX_IMPL, LOCK_WAIT_ID(lock), codeptr);
}

void bridge_lock_destroy(ompt_mutex_t kind, const void *lock,
                         const void *codeptr, void *frame) {
  bridge_thread_t *t = enter_event(frame);
  if (!t)
    return;
  hint_set(lock, 0);
  if (announced(t))
    deliver_mutex(BRIDGE_B_RUNTIME_EVENT, ompt_callback_lock_destroy, kind,
                  LOCK_WAIT_ID(lock), codeptr);
}

static __attribute__((noinline)) void lock_acquire_slow(ompt_mutex_t kind,
                                                        const void *lock,
                                                        const void *codeptr,
                                                        void *frame) {
  bridge_thread_t *t = enter_event(frame);
  if (t)
    mutex_acquire(t, BRIDGE_B_RUNTIME_EE, kind, hint_of(lock),
                  LOCK_WAIT_ID(lock), codeptr);
}

void bridge_lock_acquire(ompt_mutex_t kind, const void *lock,
                         const void *codeptr, void *frame) {
  bridge_thread_t *t = enter_quick(frame, 0);
  if (__builtin_expect(!t, 0)) {
    lock_acquire_slow(kind, lock, codeptr, frame);
    return;
  }
  mutex_acquire(t, BRIDGE_B_RUNTIME_EE, kind, hint_of(lock), LOCK_WAIT_ID(lock),
                codeptr);
}

/* Nest locks the calling task owns, with their counts (per thread: only the
 * owner changes a nest lock's count, so no lock is needed). */
static bridge_nest_owned_t *nest_find(bridge_thread_t *t, const void *lock) {
  for (int i = 0; i < t->nnest; i++)
    if (t->nest[i].lock == lock && t->nest[i].task == t->cur)
      return &t->nest[i];
  return NULL;
}

static void nest_forget(bridge_thread_t *t, bridge_nest_owned_t *o) {
  *o = t->nest[--t->nnest];
}

static void deliver_nest_lock(ompt_scope_endpoint_t endpoint, const void *lock,
                              const void *codeptr) {
  ompt_callback_nest_lock_t cb =
      BRIDGE_ACTIVE(BRIDGE_B_RUNTIME_EVENT, nest_lock);
  if (cb)
    cb(endpoint, LOCK_WAIT_ID(lock), codeptr);
}

static inline __attribute__((always_inline)) void
lock_acquired(bridge_thread_t *t, ompt_mutex_t kind, const void *lock,
              int acquired, int count, const void *codeptr) {
  bridge_set_state(t, bridge_working_state(t->cur), 0);
  if (!acquired)
    return;
  if (is_nest(kind)) {
    bridge_nest_owned_t *o = nest_find(t, lock);
    int first = count > 0 ? count == 1 : o == NULL;
    if (!first) {
      if (o)
        o->count = count > 0 ? count : o->count + 1;
      else if (t->nnest < BRIDGE_NEST_OWNED_MAX)
        t->nest[t->nnest++] =
            (bridge_nest_owned_t){lock, t->cur, count > 0 ? count : 2};
      if (announced(t))
        deliver_nest_lock(ompt_scope_begin, lock, codeptr);
      return;
    }
    if (o)
      o->count = 1;
    else if (t->nnest < BRIDGE_NEST_OWNED_MAX)
      t->nest[t->nnest++] = (bridge_nest_owned_t){lock, t->cur, 1};
  }
  if (announced(t))
    deliver_mutex(BRIDGE_B_RUNTIME_EVENT, ompt_callback_mutex_acquired, kind,
                  LOCK_WAIT_ID(lock), codeptr);
}

static __attribute__((noinline)) void
lock_acquired_slow(ompt_mutex_t kind, const void *lock, int acquired, int count,
                   const void *codeptr, void *frame) {
  bridge_thread_t *t = enter_event(frame);
  if (t)
    lock_acquired(t, kind, lock, acquired, count, codeptr);
}

void bridge_lock_acquired(ompt_mutex_t kind, const void *lock, int acquired,
                          int count, const void *codeptr, void *frame) {
  bridge_thread_t *t = enter_quick(frame, 0);
  if (__builtin_expect(!t, 0)) {
    lock_acquired_slow(kind, lock, acquired, count, codeptr, frame);
    return;
  }
  lock_acquired(t, kind, lock, acquired, count, codeptr);
}

static inline __attribute__((always_inline)) void
lock_release(bridge_thread_t *t, ompt_mutex_t kind, const void *lock,
             const void *codeptr) {
  if (is_nest(kind)) {
    kind = ompt_mutex_nest_lock;
    bridge_nest_owned_t *o = nest_find(t, lock);
    if (o && o->count > 1) {
      o->count--;
      if (announced(t))
        deliver_nest_lock(ompt_scope_end, lock, codeptr);
      return;
    }
    if (o)
      nest_forget(t, o);
  }
  if (announced(t))
    deliver_mutex(BRIDGE_B_RUNTIME_EVENT, ompt_callback_mutex_released, kind,
                  LOCK_WAIT_ID(lock), codeptr);
}

static __attribute__((noinline)) void lock_release_slow(ompt_mutex_t kind,
                                                        const void *lock,
                                                        const void *codeptr,
                                                        void *frame) {
  bridge_thread_t *t = enter_event(frame);
  if (t)
    lock_release(t, kind, lock, codeptr);
}

void bridge_lock_release(ompt_mutex_t kind, const void *lock,
                         const void *codeptr, void *frame) {
  bridge_thread_t *t = enter_quick(frame, 0);
  if (__builtin_expect(!t, 0)) {
    lock_release_slow(kind, lock, codeptr, frame);
    return;
  }
  lock_release(t, kind, lock, codeptr);
}

/* ---- flush, cancel, error
 * ---------------------------------------------------- */

static __attribute__((noinline)) void
flush_slow(ompt_callback_flush_t cb, const void *codeptr, void *frame) {
  bridge_thread_t *t = enter_event(frame);
  if (!t || !announced(t))
    return;
  cb(&t->thread_data, codeptr);
}

void bridge_flush(const void *codeptr, void *frame) {
  ompt_callback_flush_t cb = BRIDGE_ACTIVE(BRIDGE_B_SYNC_EE, flush);
  if (!cb)
    return;
  bridge_thread_t *t = enter_quick(frame, 0);
  if (__builtin_expect(!t, 0)) {
    flush_slow(cb, codeptr, frame);
    return;
  }
  if (announced(t))
    cb(&t->thread_data, codeptr);
}

/* The thread's running explicit task leaves its block for a cancellation of
 * its taskgroup: it ends as cancelled. */
static void task_left_cancelled(bridge_thread_t *t) {
  if (t->cur && (t->cur->flags & ompt_task_explicit))
    t->cur->cancelled = 1;
}

void bridge_cancel(int flags, const void *codeptr, void *frame) {
  bridge_thread_t *t = enter_event(frame);
  if (!t)
    return;
  if ((flags & ompt_cancel_activated) && (flags & ompt_cancel_taskgroup))
    task_left_cancelled(t);
  if ((flags & ompt_cancel_activated) && (flags & ompt_cancel_parallel))
    bridge_discard_cancel_parallel(t);
  if (!announced(t))
    return;
  ompt_callback_cancel_t cb = BRIDGE_ACTIVE(BRIDGE_B_SYNC_EE, cancel);
  if (cb)
    cb(task_data_of(t->cur), flags, codeptr);
}

void bridge_error(ompt_severity_t severity, const char *message,
                  const void *codeptr, void *frame) {
  bridge_thread_t *t = enter_event(frame);
  if (!t || !announced(t))
    return;
  ompt_callback_error_t cb = BRIDGE_CB(error);
  if (cb)
    cb(severity, message, message ? strlen(message) : 0, codeptr);
}

/* ---- Explicit tasks
 * ---------------------------------------------------------- POMP_Task_t holds
 * a task_handle_t: the record of the task and its generation at creation, so
 * that a stale, foreign or reused handle is recognised.  Nothing else is kept
 * there: the handle lives on the encountering thread's stack and in the task's
 * firstprivate copy, the record in the pool for as long as the task (or a
 * child) needs it. */

#define HANDLE_TASK 0x6b736174u

typedef struct task_handle {
  bridge_task_t *rec;
  uint32_t gen;
  uint32_t magic;
} task_handle_t;

_Static_assert(sizeof(task_handle_t) <= sizeof(POMP_Task_t),
               "POMP_Task_t too small for the bridge's task handle");

/* The OMPT flags of the construct's clauses, by their POMP_TASK_* bits
 * (undeferred, final, untied, mergeable: the low four). */
#define CLAUSE_FLAGS(b)                                                        \
  ((((b)&POMP_TASK_UNDEFERRED) ? ompt_task_undeferred : 0) |                   \
   (((b)&POMP_TASK_FINAL) ? ompt_task_final : 0) |                             \
   (((b)&POMP_TASK_UNTIED) ? ompt_task_untied : 0) |                           \
   (((b)&POMP_TASK_MERGEABLE) ? ompt_task_mergeable : 0))
static const int clause_flags[16] = {
    CLAUSE_FLAGS(0),  CLAUSE_FLAGS(1),  CLAUSE_FLAGS(2),  CLAUSE_FLAGS(3),
    CLAUSE_FLAGS(4),  CLAUSE_FLAGS(5),  CLAUSE_FLAGS(6),  CLAUSE_FLAGS(7),
    CLAUSE_FLAGS(8),  CLAUSE_FLAGS(9),  CLAUSE_FLAGS(10), CLAUSE_FLAGS(11),
    CLAUSE_FLAGS(12), CLAUSE_FLAGS(13), CLAUSE_FLAGS(14), CLAUSE_FLAGS(15)};
_Static_assert((POMP_TASK_UNDEFERRED | POMP_TASK_FINAL | POMP_TASK_UNTIED |
                POMP_TASK_MERGEABLE) == 15,
               "clause_flags is indexed by the low four POMP_TASK_* bits");

/* in_initial: the task binds to an initial region; gomp_task: libgomp's
 * task entry is known to exist (else asked). */
static inline int task_flags(int pomp_flags, const bridge_task_t *enc,
                             int in_initial, int gomp_task) {
  int f = ompt_task_explicit | clause_flags[pomp_flags & 15];
  /* A task generated by a final task is included: final and undeferred. */
  if (enc && (enc->flags & ompt_task_final))
    f |= ompt_task_final | ompt_task_undeferred;
  /* Outside any parallel region libgomp runs a task at once, and so does
   * every task construct of a program without an OpenMP runtime (the
   * compiler ignored the directive). */
  if (in_initial || (!gomp_task && !bridge_have_gomp_task()))
    f |= ompt_task_undeferred;
  /* The dependence task of a taskwait is not an explicit task. */
  if (pomp_flags & POMP_TASK_TASKWAIT)
    f = (f & ~ompt_task_explicit) | ompt_task_taskwait;
  return f;
}

/* A new explicit task generated by enc (the running task), which it keeps
 * a reference on.  quick: the thread's free list is not empty and libgomp's
 * task entry exists (create_begin's fast path), so nothing is called. */
static inline __attribute__((always_inline)) bridge_task_t *
new_task(bridge_thread_t *t, bridge_task_t *enc, int pomp_flags, int quick) {
  bridge_task_t *rec =
      quick ? bridge_task_take(t, t->free_tasks) : bridge_task_alloc(t);
  if (!rec)
    return NULL;
  ompt_data_t *pd = enc ? enc->parallel_data : &bridge_initial_parallel_data;
  /* bridge_initial_region(pd), this thread being the creator. */
  int in_initial =
      pd == &bridge_initial_parallel_data || pd == &t->initial_parallel_data;
  rec->flags = task_flags(pomp_flags, enc, in_initial, quick);
  /* Its working state once it runs (bridge_working_state_of), fixed now
   * that the region is known: its begin pushes it with this. */
  rec->work_state =
      (uint8_t)(in_initial ? ompt_state_work_serial : ompt_state_work_parallel);
  rec->pomp_flags = (uint32_t)pomp_flags;
  rec->parallel_data = pd;
  rec->team_size = enc ? enc->team_size : 1;
  rec->thread_num = enc ? enc->thread_num : 0;
  if (enc) {
    rec->parent = enc;
    /* An explicit task may complete before the tasks it generates, so
     * they hold a reference on it.  An implicit or initial task cannot:
     * its region ends only after they all completed.  Leaving its count
     * alone keeps every task's creation and end out of a line that the
     * team's threads would otherwise write in turn. */
    if (!(enc->flags & (ompt_task_implicit | ompt_task_initial))) {
      atomic_fetch_add_explicit(&enc->refs, 1, memory_order_relaxed);
      rec->owns_parent_ref = 1;
    }
  }
  rec->announced = (uint8_t)(bridge_enabled && (!enc || enc->announced));
  __atomic_store_n(&rec->status, BRIDGE_TASK_CREATED, __ATOMIC_RELEASE);
  return rec;
}

static inline void deliver_create(bridge_task_t *rec, bridge_task_t *enc,
                                  int has_dependences, const void *codeptr) {
  if (!rec->announced)
    return;
  ompt_callback_task_create_t cb = BRIDGE_ACTIVE(BRIDGE_B_TASK_EE, task_create);
  if (cb)
    cb(task_data_of(enc), enc ? &enc->frame : NULL, &rec->task_data, rec->flags,
       has_dependences, codeptr);
}

/* The task this thread is creating, whose task_create (and dependences)
 * wait for libgomp's copy of its data (bridge_create_deliver). */
static inline void create_pending_set(bridge_thread_t *t, bridge_task_t *rec,
                                      bridge_task_t *enc, const void *codeptr,
                                      int has_dependences) {
  t->create_pending.rec = rec;
  t->create_pending.enc = enc;
  t->create_pending.codeptr = codeptr;
  t->create_pending.deps = NULL;
  t->create_pending.ndeps = 0;
  t->create_pending.has_dependences = has_dependences;
}

static inline __attribute__((always_inline)) int32_t
task_create_begin(bridge_thread_t *t, task_handle_t *h, int pomp_flags,
                  const void *codeptr, void *frame, int quick) {
  bridge_task_t *enc = t->cur;
  /* Creating a task is a scheduling point: the encountering task enters
   * the runtime (which may run the new task at once). */
  int set = set_enter_frame(t, frame);
  if (quick) {
    bridge_scope_push_entry(t, BRIDGE_SC_POINT, BRIDGE_B_TASK_EE, 0, 0, codeptr,
                            set);
  } else {
    push_scope(t, BRIDGE_SC_POINT, BRIDGE_B_TASK_EE, 0, 0, codeptr, set);
  }
  bridge_task_t *rec = new_task(t, enc, pomp_flags, quick);
  if (!rec)
    return POMP_ERR_NOMEM;
  h->rec = rec;
  h->gen = bridge_task_gen(rec);
  h->magic = HANDLE_TASK;
  create_pending_set(t, rec, enc, codeptr,
                     (pomp_flags & POMP_TASK_HAS_DEPEND) != 0);
  if (!bridge_fork_deferred)
    bridge_create_deliver(t);
  return POMP_SUCCESS;
}

static __attribute__((noinline)) int32_t
task_create_begin_slow(task_handle_t *h, int pomp_flags, const void *codeptr,
                       void *frame) {
  bridge_thread_t *t = enter_event(frame);
  if (!t)
    return POMP_ERR_NOMEM;
  return task_create_begin(t, h, pomp_flags, codeptr, frame, 0);
}

/* Fast path: nothing to do first, room for the scope, a free record, and
 * task_create deferred to libgomp's entry (whose existence that implies):
 * no call at all. */
static inline __attribute__((always_inline)) int32_t
create_begin_h(task_handle_t *h, int pomp_flags, const void *codeptr,
               void *frame) {
  bridge_thread_t *t = enter_quick(frame, 1);
  if (__builtin_expect(!t || !t->free_tasks || !bridge_fork_deferred, 0))
    return task_create_begin_slow(h, pomp_flags, codeptr, frame);
  return task_create_begin(t, h, pomp_flags, codeptr, frame, 1);
}

int32_t bridge_task_create_begin(POMP_Task_t *task, int pomp_flags,
                                 const void *codeptr, void *frame) {
  memset(task, 0, sizeof *task);
  return create_begin_h((task_handle_t *)task, pomp_flags, codeptr, frame);
}

uintptr_t bridge_task_create_begin_word(int pomp_flags, const void *codeptr,
                                        void *frame) {
  task_handle_t h = {NULL, 0, 0};
  if (__builtin_expect(
          create_begin_h(&h, pomp_flags, codeptr, frame) != POMP_SUCCESS, 0)) {
    /* No instance, so no create_end will come (pomp-instr guards it with
     * the instance): the scheduling point ends here. */
    bridge_task_create_end(NULL, frame);
    return 0;
  }
  return (uintptr_t)h.rec;
}

static void deliver_dependences(bridge_thread_t *t, bridge_task_t *rec,
                                const POMP_Dependence_t deps[], int ndeps);
static void track_dependences(bridge_thread_t *t, bridge_task_t *rec,
                              const POMP_Dependence_t deps[], int ndeps);

/* task_create and dependences of the task this thread is creating: when
 * libgomp has made the task's copy of its data (bridge_gomp.c), or at
 * once where nothing is interposed. */
static __attribute__((noinline)) void create_deliver_deps(bridge_thread_t *t,
                                                          bridge_task_t *rec) {
  deliver_create(rec, t->create_pending.enc, t->create_pending.has_dependences,
                 t->create_pending.codeptr);
  deliver_dependences(t, rec, t->create_pending.deps, t->create_pending.ndeps);
  track_dependences(t, rec, t->create_pending.deps, t->create_pending.ndeps);
}

void bridge_create_deliver(bridge_thread_t *t) {
  bridge_task_t *rec = t->create_pending.rec;
  if (!rec)
    return;
  t->create_pending.rec = NULL;
  if (__builtin_expect(t->create_pending.ndeps > 0, 0)) {
    create_deliver_deps(t, rec);
    return;
  }
  /* Without dependences the callback is the last thing done. */
  deliver_create(rec, t->create_pending.enc, t->create_pending.has_dependences,
                 t->create_pending.codeptr);
}

static __attribute__((noinline)) int32_t task_create_end_slow(void *frame) {
  bridge_thread_t *t = enter_event(frame);
  if (!t)
    return POMP_ERR_NOMEM;
  if (t->create_pending.rec) /* the task was created some other way */
    bridge_create_deliver(t);
  pop_scope(t, BRIDGE_SC_POINT, -1, 0, 0, NULL);
  return POMP_SUCCESS;
}

int32_t bridge_task_create_end(POMP_Task_t *task, void *frame) {
  (void)task; /* the task may have completed already: not looked at */
  /* Fast path: libgomp delivered the creation, and the scheduling point's
   * scope is on top (its end delivers nothing, it clears a frame). */
  bridge_thread_t *t = enter_quick(frame, 0);
  bridge_scope_t *top = t && !t->create_pending.rec
                            ? top_scope(t, BRIDGE_SC_POINT)
                            : (bridge_scope_t *)0;
  if (__builtin_expect(!top, 0))
    return task_create_end_slow(frame);
  t->nscopes--;
  bridge_scope_end_as(t, top, BRIDGE_SC_POINT, NULL);
  return POMP_SUCCESS;
}

/* The record a handle names, if it is in the given status. */
static inline bridge_task_t *handle_task(task_handle_t *h, int status) {
  if (h->magic != HANDLE_TASK)
    return NULL;
  bridge_task_t *rec = h->rec;
  if (!rec || bridge_task_gen(rec) != h->gen ||
      __atomic_load_n(&rec->status, __ATOMIC_ACQUIRE) != status)
    return NULL;
  return rec;
}

/* The begin of task rec (created, its creation delivered) on thread t,
 * whose running task it cannot be part of no longer (recover). */
static inline __attribute__((always_inline)) void
task_begin_in(bridge_thread_t *t, bridge_task_t *rec, void *frame) {
  bridge_task_t *prior = t->cur;
  rec->thread_num = prior ? prior->thread_num : 0;
  rec->frame.exit_frame.ptr = frame;
  rec->begin_frame = frame;
  rec->saved_state = bridge_get_state(t, &rec->saved_wait_id);
  /* The suspended task entered the runtime here, unless it is an implicit
   * task whose code has returned (no exit_frame: its region's end
   * barrier), which has no frame on the stack to enter from. */
  if (prior && !prior->frame.enter_frame.ptr &&
      (prior->frame.exit_frame.ptr || !(prior->flags & ompt_task_implicit))) {
    prior->frame.enter_frame.ptr = frame;
    rec->set_below_enter = 1;
  }
  bridge_task_push_as(t, rec, rec->work_state);
  bridge_set_state(t, bridge_working_state(rec), 0);
  rec->switch_sent = (uint8_t)(bridge_enabled && rec->announced &&
                               (!prior || prior->announced));
  if (rec->switch_sent) {
    ompt_callback_task_schedule_t cb =
        BRIDGE_ACTIVE(BRIDGE_B_TASK_BE, task_schedule);
    if (cb)
      cb(task_data_of(prior), ompt_task_switch, &rec->task_data);
  }
}

/* The begin of a task, once known not to have begun early. */
static __attribute__((noinline)) int32_t
task_begin(bridge_thread_t *t, task_handle_t *h, void *frame) {
  if (t->cur && frame_above(frame, t->cur->begin_frame))
    recover(t, frame); /* no flush: a task may run inside an end barrier */
  bridge_task_t *rec = handle_task(h, BRIDGE_TASK_CREATED);
  if (!rec)
    return POMP_ERR_STATE;
  if (t->create_pending.rec == rec) /* run at once, not through GOMP_task */
    bridge_create_deliver(t);
  task_begin_in(t, rec, frame);
  return POMP_SUCCESS;
}

/* A compact instance names the record: the handle of its present
 * generation (the record lives in a pool and is never freed; its status
 * says whether it is still this task's to begin or end). */
static inline task_handle_t word_handle(uintptr_t task) {
  bridge_task_t *rec = (bridge_task_t *)task;
  task_handle_t h = {rec, rec ? bridge_task_gen(rec) : 0, HANDLE_TASK};
  return h;
}

int32_t bridge_task_begin_word(uintptr_t task, void *frame) {
  bridge_task_t *rec = (bridge_task_t *)task;
  bridge_thread_t *t = bridge_thread_self();
  if (!t)
    return POMP_ERR_NOMEM;
  /* Begun by the task's trampoline: only the mark to clear. */
  if (rec && t->cur == rec && rec->early_begun) {
    rec->early_begun = 0;
    return POMP_SUCCESS;
  }
  task_handle_t h = word_handle(task);
  return task_begin(t, &h, frame);
}

int32_t bridge_task_begin(POMP_Task_t *task, const void *codeptr, void *frame) {
  task_handle_t *h = (task_handle_t *)task;
  (void)codeptr;
  bridge_thread_t *t = bridge_thread_self();
  if (!t)
    return POMP_ERR_NOMEM;
  /* Begun by the task's trampoline (the common case where libgomp runs the
   * task): only the mark to clear, before anything else is looked at. */
  bridge_task_t *early = t->cur;
  if (early && early->early_begun && early == h->rec &&
      h->gen == bridge_task_gen(early) && h->magic == HANDLE_TASK) {
    early->early_begun = 0;
    return POMP_SUCCESS;
  }
  return task_begin(t, h, frame);
}

static inline __attribute__((always_inline)) void
task_finish_inline(bridge_thread_t *t, bridge_task_t *rec,
                   ompt_task_status_t status) {
  bridge_task_close_open(t, rec, NULL);
  bridge_deps_release(t, rec);
  rec->frame.exit_frame.ptr = NULL;
  rec->frame.enter_frame.ptr = NULL;
  bridge_task_t *next = rec->below;
  if (rec->set_below_enter && next)
    next->frame.enter_frame.ptr = NULL;
  bridge_task_pop(t, rec);
  bridge_set_state(t, (ompt_state_t)rec->saved_state, rec->saved_wait_id);
  __atomic_store_n(&rec->status, BRIDGE_TASK_DONE, __ATOMIC_RELEASE);
  if (rec->switch_sent) {
    ompt_callback_task_schedule_t cb =
        BRIDGE_GROUP(BRIDGE_B_TASK_BE, task_schedule);
    if (cb)
      cb(&rec->task_data, status, task_data_of(next));
  }
  bridge_task_unref(rec);
}

/* The same, out of line for the recovery paths (Task_end, the common one,
 * has it inline). */
static void task_finish(bridge_thread_t *t, bridge_task_t *rec,
                        ompt_task_status_t status) {
  task_finish_inline(t, rec, status);
}

static inline __attribute__((always_inline)) int32_t
task_end_h(task_handle_t *h, void *frame);

int32_t bridge_task_end(POMP_Task_t *task, void *frame) {
  return task_end_h((task_handle_t *)task, frame);
}

int32_t bridge_task_end_word(uintptr_t task, void *frame) {
  task_handle_t h = word_handle(task);
  return task_end_h(&h, frame);
}

static inline __attribute__((always_inline)) int32_t
task_end_h(task_handle_t *h, void *frame) {
  bridge_thread_t *t = bridge_thread_self();
  if (!t)
    return POMP_ERR_NOMEM;
  if (t->cur && frame_above(frame, t->cur->begin_frame))
    recover(t, frame);
  bridge_task_t *rec = handle_task(h, BRIDGE_TASK_RUNNING);
  if (!rec)
    return POMP_ERR_STATE;
  /* It must be running on this thread; tasks above it were left without
   * their ends (cancelled). */
  bridge_task_t *p = t->cur;
  while (p && p != rec)
    p = p->below;
  if (!p)
    return POMP_ERR_STATE;
  while (t->cur != rec) {
    bridge_task_t *cur = t->cur;
    if (cur->flags & ompt_task_implicit) {
      implicit_left(t, cur, NULL, NULL, NULL);
      bridge_thread_flush(t);
    } else {
      task_finish(t, cur, ompt_task_cancel);
    }
  }
  if (rec->pomp_flags & POMP_TASK_DETACH) { /* bridge_detach.c */
    unsigned gen = bridge_task_gen(rec);
    task_finish(t, rec, bridge_detach_body_end(rec, gen));
    bridge_detach_body_ended(rec, gen);
    return POMP_SUCCESS;
  }
  task_finish_inline(t, rec,
                     rec->cancelled ? ompt_task_cancel : ompt_task_complete);
  return POMP_SUCCESS;
}

/* ---- Dependences
 * ---------------------------------------------------------------
 * task_dependence pairs between sibling tasks are found the way a runtime
 * finds them: per generating task, per address, the last group of tasks
 * with the same kind of dependence and the group before it.  A new task
 * depends on the members of the last group (a new in after out, any new out,
 * a mutexinoutset or inoutset after anything else), or of the group before
 * (another in after in, another member of a mutexinoutset / inoutset set).
 * The table is bounded: an address that does not fit, or a group with more
 * members than it holds, loses pairs, so set_callback answers
 * ompt_set_sometimes.  Members hold a reference on their records; pairs are
 * reported only for predecessors that have not completed. */

#define DEP_SLOTS 32
#define DEP_GROUP 8

enum { DEP_NONE, DEP_IN, DEP_OUT, DEP_MUTEX, DEP_SET };

typedef struct dep_group {
  int kind, n;
  bridge_task_t *member[DEP_GROUP];
} dep_group_t;

typedef struct dep_entry {
  const void *addr;
  dep_group_t last, prev;
} dep_entry_t;

struct bridge_deps {
  dep_entry_t e[DEP_SLOTS];
  bridge_thread_t *owner;
  struct bridge_deps *next_free;
};

static struct bridge_deps *deps_alloc(bridge_thread_t *t) {
  struct bridge_deps *d = t->free_deps;
  if (!d) {
    d = atomic_exchange_explicit(&t->remote_free_deps, NULL,
                                 memory_order_acquire);
    if (!d) {
      d = calloc(1, sizeof *d);
      if (!d)
        return NULL;
      d->owner = t;
    }
  }
  t->free_deps = d->next_free;
  d->next_free = NULL;
  return d;
}

static void group_clear(dep_group_t *g) {
  for (int i = 0; i < g->n; i++)
    bridge_task_unref(g->member[i]);
  g->n = 0;
  g->kind = DEP_NONE;
}

void bridge_deps_free(bridge_thread_t *t, bridge_task_t *task) {
  struct bridge_deps *d = task->deps;
  task->deps = NULL;
  for (int i = 0; i < DEP_SLOTS; i++) {
    group_clear(&d->e[i].last);
    group_clear(&d->e[i].prev);
    d->e[i].addr = NULL;
  }
  bridge_thread_t *owner = d->owner;
  if (owner == t) {
    d->next_free = t->free_deps;
    t->free_deps = d;
    return;
  }
  struct bridge_deps *head =
      atomic_load_explicit(&owner->remote_free_deps, memory_order_relaxed);
  do
    d->next_free = head;
  while (!atomic_compare_exchange_weak_explicit(&owner->remote_free_deps, &head,
                                                d, memory_order_release,
                                                memory_order_relaxed));
}

static int dep_kind(int type) {
  switch (type) {
  case ompt_dependence_type_in:
    return DEP_IN;
  case ompt_dependence_type_out:
  case ompt_dependence_type_inout:
    return DEP_OUT;
  case ompt_dependence_type_mutexinoutset:
    return DEP_MUTEX;
  case ompt_dependence_type_inoutset:
    return DEP_SET;
  default:
    return DEP_NONE; /* doacross, omp_all_memory: not tracked */
  }
}

static unsigned dep_hash(const void *addr) {
  uintptr_t x = (uintptr_t)addr;
  x ^= x >> 15;
  x *= (uintptr_t)0x9e3779b97f4a7c15ull;
  return (unsigned)(x >> 11) % DEP_SLOTS;
}

/* Report src -> sink once per sink. */
static void dep_pair(bridge_task_t *src, bridge_task_t *sink,
                     bridge_task_t **seen, int *nseen) {
  if (src == sink ||
      __atomic_load_n(&src->status, __ATOMIC_ACQUIRE) == BRIDGE_TASK_DONE)
    return;
  for (int i = 0; i < *nseen; i++)
    if (seen[i] == src)
      return;
  if (*nseen < 64)
    seen[(*nseen)++] = src;
  if (!src->announced || !sink->announced)
    return;
  ompt_callback_task_dependence_t cb =
      BRIDGE_ACTIVE(BRIDGE_B_TASK_EE, task_dependence);
  if (cb)
    cb(&src->task_data, &sink->task_data);
}

static void group_add(dep_group_t *g, bridge_task_t *task) {
  if (g->n >= DEP_GROUP)
    return; /* lost */
  atomic_fetch_add_explicit(&task->refs, 1, memory_order_relaxed);
  g->member[g->n++] = task;
}

static void track_dependences(bridge_thread_t *t, bridge_task_t *rec,
                              const POMP_Dependence_t deps[], int ndeps) {
  bridge_task_t *gen = rec->parent;
  if (!gen || gen != t->cur)
    return; /* dependences are between siblings of the running task */
  if (!gen->deps && !(gen->deps = deps_alloc(t)))
    return;
  struct bridge_deps *d = gen->deps;
  bridge_task_t *seen[64];
  int nseen = 0;
  for (int i = 0; i < ndeps; i++) {
    int kind = dep_kind(deps[i].type);
    const void *addr = deps[i].addr;
    if (kind == DEP_NONE)
      continue;
    dep_entry_t *e = &d->e[dep_hash(addr)];
    if (e->addr != addr) { /* new address; an older one is evicted */
      group_clear(&e->last);
      group_clear(&e->prev);
      e->addr = addr;
    }
    if (e->last.kind == kind && kind != DEP_OUT) {
      for (int k = 0; k < e->prev.n; k++)
        dep_pair(e->prev.member[k], rec, seen, &nseen);
      group_add(&e->last, rec);
    } else {
      for (int k = 0; k < e->last.n; k++)
        dep_pair(e->last.member[k], rec, seen, &nseen);
      group_clear(&e->prev);
      e->prev = e->last;
      e->last.n = 0;
      e->last.kind = kind;
      group_add(&e->last, rec);
    }
  }
}

POMP_Dependence_t *bridge_deps_scratch(bridge_thread_t *t, int n) {
  if (n > t->deps_cap) {
    POMP_Dependence_t *b = realloc(t->deps_buf, (size_t)n * sizeof *b);
    if (!b)
      return NULL;
    t->deps_buf = b;
    t->deps_cap = n;
  }
  return t->deps_buf;
}

/* The items of depend(depobj: o) clauses read from their objects
 * (POMP_DEPENDENCE_DEPOBJ), in the thread's scratch buffer.  *ndeps
 * becomes 0 when memory is out. */
static const POMP_Dependence_t *
read_depobjs(bridge_thread_t *t, const POMP_Dependence_t deps[], int *ndeps) {
  int n = *ndeps, any = 0;
  for (int i = 0; i < n; i++)
    any |= deps[i].type == POMP_DEPENDENCE_DEPOBJ;
  if (!any)
    return deps;
  POMP_Dependence_t *out = bridge_deps_scratch(t, n);
  if (!out) {
    *ndeps = 0;
    return deps;
  }
  for (int i = 0; i < n; i++) {
    out[i] = deps[i].type == POMP_DEPENDENCE_DEPOBJ && deps[i].addr
                 ? gomp_depobj_read(deps[i].addr)
                 : deps[i];
  }
  return out;
}

static int32_t task_dependences_h(task_handle_t *h,
                                  const POMP_Dependence_t deps[], int ndeps) {
  bridge_thread_t *t = bridge_thread_self();
  if (!t)
    return POMP_ERR_NOMEM;
  if (ndeps < 0 || (ndeps > 0 && !deps))
    return POMP_ERR_ARG;
  bridge_task_t *rec = handle_task(h, BRIDGE_TASK_CREATED);
  if (!rec)
    return POMP_ERR_STATE;
  deps = read_depobjs(t, deps, &ndeps);
  if (ndeps == 0)
    return POMP_SUCCESS;
  if (t->create_pending.rec == rec) {
    /* task_create is held back: so are its dependences and the
     * task_dependence pairs, which follow it. */
    t->create_pending.deps = deps;
    t->create_pending.ndeps = ndeps;
  } else {
    deliver_dependences(t, rec, deps, ndeps);
    track_dependences(t, rec, deps, ndeps);
  }
  return POMP_SUCCESS;
}

int32_t bridge_task_dependences(POMP_Task_t *task,
                                const POMP_Dependence_t deps[], int ndeps) {
  return task_dependences_h((task_handle_t *)task, deps, ndeps);
}

int32_t bridge_task_dependences_word(uintptr_t task,
                                     const POMP_Dependence_t deps[],
                                     int ndeps) {
  task_handle_t h = word_handle(task);
  return task_dependences_h(&h, deps, ndeps);
}

static void deliver_dependences(bridge_thread_t *t, bridge_task_t *rec,
                                const POMP_Dependence_t deps[], int ndeps) {
  if (rec->announced) {
    ompt_callback_dependences_t cb =
        BRIDGE_ACTIVE(BRIDGE_B_TASK_EE, dependences);
    if (cb) {
      if (ndeps > t->dep_cap) {
        int cap = ndeps < 16 ? 16 : ndeps;
        ompt_dependence_t *b = realloc(t->dep_buf, (size_t)cap * sizeof *b);
        if (b) {
          t->dep_buf = b;
          t->dep_cap = cap;
        }
      }
      int n = ndeps <= t->dep_cap ? ndeps : t->dep_cap;
      for (int i = 0; i < n; i++) {
        t->dep_buf[i].variable.ptr = (void *)(uintptr_t)deps[i].addr;
        t->dep_buf[i].dependence_type = (ompt_dependence_type_t)deps[i].type;
      }
      if (n > 0)
        cb(&rec->task_data, t->dep_buf, n);
    }
  }
}

/* ---- Tasks that do not run as tasks (bridge_runtime.h) --------------------
 * The dependence task of a taskwait completes when the encountering task's
 * wait is over; a taskloop task the runtime never ran was discarded. */
int32_t bridge_task_retire(POMP_Task_t *task, int status) {
  task_handle_t *h = (task_handle_t *)task;
  bridge_thread_t *t = bridge_thread_self();
  if (!t)
    return POMP_ERR_NOMEM;
  bridge_task_t *rec = handle_task(h, BRIDGE_TASK_CREATED);
  if (!rec)
    return POMP_ERR_STATE;
  if (t->create_pending.rec == rec)
    t->create_pending.rec = NULL;
  if (status == BRIDGE_RETIRE_DISCARDED) { /* a taskloop's, in its group */
    bridge_task_discarded(t, bridge_discard_region(t), rec, 1);
    return POMP_SUCCESS;
  }
  bridge_deps_release(t, rec);
  __atomic_store_n(&rec->status, BRIDGE_TASK_DONE, __ATOMIC_RELEASE);
  /* next: the task that goes on, the encountering one (tools written for
   * older runtimes look at it). */
  if (status && rec->announced) {
    ompt_callback_task_schedule_t cb =
        BRIDGE_ACTIVE(BRIDGE_B_TASK_BE, task_schedule);
    if (cb)
      cb(&rec->task_data, (ompt_task_status_t)status, task_data_of(t->cur));
  }
  bridge_task_unref(rec);
  return POMP_SUCCESS;
}

void bridge_task_track_discard(POMP_Task_t *task, struct taskloop *owner) {
  bridge_thread_t *t = bridge_thread_peek();
  bridge_task_t *rec =
      t ? handle_task((task_handle_t *)task, BRIDGE_TASK_CREATED) : NULL;
  if (rec)
    bridge_discard_track(t, rec, owner);
}

/* ---- Tasks begun by libpompt's trampoline (bridge_gomp.c) ----------------
 * The trampoline runs in place of the program's outlined task function,
 * which copies the task's firstprivate data out of its block before its
 * first statement (Task_begin): a tool that orders memory through OMPT
 * needs the begin before that read, as a native runtime delivers it. */
static inline __attribute__((always_inline)) int
task_begin_early(bridge_task_t *rec, unsigned gen, void *frame,
                 int block_begins, void *mem) {
  task_handle_t h = {rec, gen, HANDLE_TASK};
  bridge_thread_t *t = bridge_self;
  bridge_task_t *cur = t ? t->cur : NULL;
  /* Fast path, no call but the callback: nothing to end first, the record
   * is the task's, its creation delivered. */
  if (__builtin_expect(t && !(cur && frame_above(frame, cur->begin_frame)) &&
                           handle_task(&h, BRIDGE_TASK_CREATED) &&
                           t->create_pending.rec != rec,
                       1)) {
    rec->early_begun = (uint8_t)block_begins;
    rec->mem = mem;
    task_begin_in(t, rec, frame);
    return 1;
  }
  t = bridge_thread_self();
  if (!t)
    return 0;
  if (handle_task(&h, BRIDGE_TASK_CREATED))
    rec->mem = mem;
  if (task_begin(t, &h, frame) != POMP_SUCCESS)
    return 0;
  rec->early_begun = (uint8_t)block_begins;
  return 1;
}

int bridge_task_begin_early(bridge_task_t *rec, unsigned gen, void *frame,
                            void *mem) {
  return task_begin_early(rec, gen, frame, 1, mem);
}

void bridge_task_memory(POMP_Task_t *task, void *mem, size_t size) {
  bridge_task_t *rec = handle_task((task_handle_t *)task, BRIDGE_TASK_CREATED);
  if (rec) {
    rec->mem = mem;
    rec->mem_size = size;
  }
}

/* ---- Tasks their construct handed over (pomp.h, POMPT_Task_hand) --------
 * libpompt's GOMP_task creates the task (bridge_task_handed_create),
 * libgomp runs it through libpompt's trampoline (bridge_task_handed_run),
 * and GOMP_task closes the scheduling point
 * (bridge_task_handed_created), all within the one call: the encountering
 * task's enter_frame needs no scope to be cleared by.  Anything unusual
 * takes the general events' path. */
bridge_task_t *bridge_task_handed_create(bridge_task_handed_t *hd,
                                         int pomp_flags, const void *codeptr,
                                         void *frame) {
  bridge_thread_t *t = enter_quick(frame, 0);
  if (__builtin_expect(!t || !t->free_tasks || !bridge_fork_deferred ||
                           t->create_pending.rec || t->lane_hold,
                       0)) {
    hd->how = BRIDGE_HANDED_GENERAL;
    return (bridge_task_t *)bridge_task_create_begin_word(pomp_flags, codeptr,
                                                          frame);
  }
  bridge_task_t *enc = t->cur;
  hd->enc = enc;
  hd->how = set_enter_frame(t, frame) ? BRIDGE_HANDED_FRAME_SET : 0;
  bridge_task_t *rec = new_task(t, enc, pomp_flags, 1);
  if (__builtin_expect(!rec, 0)) { /* no record: the task goes unreported */
    if (hd->how == BRIDGE_HANDED_FRAME_SET)
      enc->frame.enter_frame.ptr = NULL;
    return NULL;
  }
  create_pending_set(t, rec, enc, codeptr, 0);
  return rec;
}

void bridge_task_handed_created(const bridge_task_handed_t *hd, void *frame) {
  if (hd->how == BRIDGE_HANDED_GENERAL) {
    bridge_task_create_end(NULL, frame);
    return;
  }
  bridge_thread_t *t = bridge_self;
  if (__builtin_expect(t->create_pending.rec != NULL, 0))
    bridge_create_deliver(t); /* libgomp never copied the task's data */
  if (hd->how == BRIDGE_HANDED_FRAME_SET)
    hd->enc->frame.enter_frame.ptr = NULL;
}

/* The end of a task its construct handed over, when its function
 * returned: cancelled when it activated or detected a cancellation of its
 * taskgroup (bridge_cancel, bridge_task_left_cancelled), which are the
 * only ways out of its block before the end; else complete.  A detachable
 * task (of code pomp-cc did not compile) ends as Task_end ends one. */
static inline __attribute__((always_inline)) void
task_handed_end(bridge_task_t *rec, unsigned gen, void *frame) {
  bridge_thread_t *t = bridge_self;
  if (__builtin_expect(t && t->cur == rec && bridge_active &&
                           bridge_task_gen(rec) == gen &&
                           __atomic_load_n(&rec->status, __ATOMIC_RELAXED) ==
                               BRIDGE_TASK_RUNNING &&
                           !(rec->pomp_flags & POMP_TASK_DETACH),
                       1)) {
    task_finish_inline(t, rec,
                       rec->cancelled ? ompt_task_cancel : ompt_task_complete);
    return;
  }
  bridge_task_returned(rec, gen, frame, 1);
}

BRIDGE_TRAMPOLINE void bridge_task_handed_run(bridge_task_t *rec, unsigned gen,
                                              void (*fn)(void *), void *block) {
  void *frame = BRIDGE_FRAME_KEPT(); /* this routine calls fn */
  task_begin_early(rec, gen, frame, 0, block);
  fn(block);
  task_handed_end(rec, gen, frame);
}

const void *bridge_region_codeptr(void) {
  bridge_thread_t *t = bridge_thread_peek();
  for (bridge_task_t *k = t ? t->cur : NULL; k; k = k->below)
    if (k->flags & ompt_task_implicit)
      return k->codeptr;
  return NULL;
}

void bridge_task_left_cancelled(void) {
  bridge_thread_t *t = bridge_thread_peek();
  if (t)
    task_left_cancelled(t);
}

void bridge_task_returned(bridge_task_t *rec, unsigned gen, void *frame,
                          int block_ended) {
  task_handle_t h = {rec, gen, HANDLE_TASK};
  if (!bridge_active || !bridge_thread_peek() ||
      !handle_task(&h, BRIDGE_TASK_RUNNING))
    return; /* ended by its Task_end (or never begun) */
  rec->early_begun = 0;
  if (!block_ended)
    rec->cancelled = 1; /* the block was left before its end: cancelled */
  bridge_task_end((POMP_Task_t *)(void *)&h, frame);
}
