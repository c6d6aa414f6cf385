#!/usr/bin/env python3
"""Differential test: one OpenMP program, one OMPT tool (diff_tool.c), two
runtimes -- LLVM's libomp with its native OMPT, and libpompt under a
pomp-cc gcc build -- and the callbacks each delivered must agree.

usage: diff_run.py --tool LIB --threads N --native PROG --pompt PROG
                   [--env K=V]... [--pool-threads] [--needs-symbol SYM]...
                   [--stdout-lines REGEX] [--not-compared COUNTER=WHY]...
                   [-- ARGS...]

Both runs must exit 0, print the same stdout (with --stdout-lines, the same
lines matching REGEX: for programs that print their own timings), and pass
every ordering invariant of the tool ("diff: ok").  Then every count is compared, except:
  - counts of callbacks that either runtime does not deliver (its
    ompt_set_callback answered ompt_set_never), e.g. dispatch on libomp 14;
  - reductions: which combinings call into the runtime is each compiler's
    and runtime's choice (libpompt sees GCC's that call GOMP_atomic_start);
  - barriers that OpenMP 5.2 leaves to the implementation: libomp's
    barrier_implementation (inside its reduction algorithm) and the implicit
    barrier of a team of one, which libomp 14 does not report;
  - with --pool-threads, how many worker threads exist (each runtime's
    thread-pool policy, visible with nested teams); then each runtime must
    still end every thread it began;
  - atomic regions (clang compiles them to instructions libomp never sees)
    and the timing-dependent task_dependence, task_schedule and task_detach
    counts;
  - counters named by --not-compared, with the reason, which the verdict
    prints (a program's own spin-waits: NPB LU's flush directives run as
    often as its threads wait; a construct one runtime reports by a
    deprecated kind);
  - with one thread, which tasks are undeferred (libomp 14 flags every task
    of a team of one undeferred; libpompt only those with if(false)).
Test-lock acquisitions are counted with their lock kind (MERGED below).
doc/compat.md lists these differences.
"""
import argparse
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from libomp_race import run_past_deps_race  # noqa: E402

# counter -> the callback that produces it
CALLBACK_OF = {
    "thread_begin_initial": "thread_begin", "thread_begin_worker": "thread_begin",
    "thread_end": "thread_end",
    "parallel_begin": "parallel_begin", "parallel_end": "parallel_end",
    "parallel_serialized": "parallel_end",
    "implicit_task_begin": "implicit_task", "implicit_task_end": "implicit_task",
    "initial_task_begin": "implicit_task", "initial_task_end": "implicit_task",
    "dispatch_iteration": "dispatch", "dispatch_chunk": "dispatch",
    "dispatch_section": "dispatch", "dispatch_taskloop_chunk": "dispatch",
    "task_create_taskwait": "task_create", "taskwait_complete": "task_schedule",
    "masked": "masked",
    "sync_wait": "sync_region_wait", "sync_wait_serialized": "sync_region_wait",
    "sync_wait_implementation": "sync_region_wait",
    "reduction": "reduction",
    "nest_lock": "nest_lock", "lock_init": "lock_init",
    "lock_destroy": "lock_destroy",
    "task_create": "task_create", "task_create_undeferred": "task_create",
    "task_complete": "task_schedule", "task_schedule": "task_schedule",
    "dependences": "dependences", "task_dependence": "task_dependence",
    "flush": "flush", "cancel": "cancel",
    "task_detach": "task_schedule", "task_fulfilled": "task_schedule",
}
for k in ("loop", "sections", "sections_count", "single_executor",
          "single_other", "workshare", "other"):
    CALLBACK_OF["work_" + k] = "work"
for k in ("barrier_explicit", "barrier_implicit", "barrier_implicit_serialized",
          "barrier_implementation", "barrier_teams", "taskwait", "taskgroup"):
    CALLBACK_OF[k] = "sync_region"
for k in ("critical", "lock", "nest_lock", "test_lock", "test_nest_lock",
          "atomic", "ordered"):
    CALLBACK_OF["mutex_acquire_" + k] = "mutex_acquire"
    CALLBACK_OF["mutex_acquired_" + k] = "mutex_acquired"
    CALLBACK_OF["mutex_released_" + k] = "mutex_released"

IMPLEMENTATION_DEFINED = {
    "barrier_implementation": "libomp's internal barriers (reduction, "
                              "copyprivate)",
    "sync_wait_implementation": "libomp's internal barriers (reduction, "
                                "copyprivate)",
    "reduction": "which combinings are observable: GCC combines one scalar "
                 "with an atomic instruction (no call), libomp picks its "
                 "method (atomic: no callback) by team size and list",
    "barrier_implicit_serialized": "implicit barrier of a team of one",
    "sync_wait_serialized": "implicit barrier of a team of one",
    "task_dependence": "dispatched only while the predecessor is unfinished "
                       "(timing)",
    "task_schedule": "task switches depend on scheduling; completions "
                     "(task_complete) are compared",
    "task_detach": "whether a detached task's block or its fulfilment "
                   "ends first depends on timing; fulfilments "
                   "(task_fulfilled) are compared",
    "mutex_acquire_atomic": "clang compiles atomics to instructions that "
                            "libomp never sees",
    "mutex_acquired_atomic": "clang compiles atomics to instructions that "
                             "libomp never sees",
    "mutex_released_atomic": "clang compiles atomics to instructions that "
                             "libomp never sees",
}
SET_NEVER = 1

# Counted together: libomp 14 passes ompt_mutex_lock / ompt_mutex_nest_lock
# as the kind of mutex_acquire for omp_test_lock / omp_test_nest_lock, where
# OpenMP 5.2 (and libpompt) use ompt_mutex_test_lock / _test_nest_lock.
MERGED = {"mutex_acquire_test_lock": "mutex_acquire_lock",
          "mutex_acquire_test_nest_lock": "mutex_acquire_nest_lock"}


def run(prog, args, env, native=False):
    def once():
        return subprocess.run([prog] + args, env=env, capture_output=True,
                              text=True, timeout=300)
    p = run_past_deps_race(once, os.path.basename(prog)) if native else once()
    sets = {}
    m = re.search(r"^diff: set_callback (.*)$", p.stderr, re.M)
    if m:
        sets = {k: int(v) for k, v in (kv.split("=") for kv in m.group(1).split())}
    counts = {}
    m = re.search(r"^diff: counts (.*)$", p.stderr, re.M)
    if m:
        counts = {k: int(v) for k, v in (kv.split("=") for kv in m.group(1).split())}
    for part, whole in MERGED.items():
        if part in counts:
            counts[whole] = counts.get(whole, 0) + counts.pop(part)
    return p, sets, counts


def missing_symbols(prog, symbols):
    """The symbols of `symbols` that prog does not reference."""
    if not symbols:
        return []
    p = subprocess.run(["nm", "-P", prog], capture_output=True, text=True)
    have = {line.split()[0] for line in p.stdout.splitlines() if line.strip()}
    return [s for s in symbols if s not in have]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tool", required=True)
    ap.add_argument("--threads", type=int, required=True)
    ap.add_argument("--native", required=True)
    ap.add_argument("--pompt", required=True)
    ap.add_argument("--env", action="append", default=[])
    ap.add_argument("--pool-threads", action="store_true")
    ap.add_argument("--needs-symbol", action="append", default=[],
                    help="skip (exit 77) unless the pompt build references "
                    "this POMP symbol: the instrumenter's support for the "
                    "constructs under test")
    ap.add_argument("--stdout-lines")
    ap.add_argument("--not-compared", action="append", default=[])
    ap.add_argument("args", nargs=argparse.REMAINDER)
    a = ap.parse_args()
    args = [x for x in a.args if x != "--"]
    not_compared = dict(kv.split("=", 1) for kv in a.not_compared)
    missing = missing_symbols(a.pompt, a.needs_symbol)
    if missing:
        print(f"SKIP: {a.pompt} does not call {', '.join(missing)}: pomp-instr "
              "does not instrument these constructs yet")
        return 77
    env = dict(os.environ)
    for k in ("OMP_TOOL", "OMP_TOOL_VERBOSE_INIT", "POMPT_FORCE"):
        env.pop(k, None)
    env["OMP_NUM_THREADS"] = str(a.threads)
    env["OMP_TOOL_LIBRARIES"] = a.tool
    for kv in a.env:
        k, v = kv.split("=", 1)
        env[k] = v

    results = {}
    bad = 0
    for name, prog in (("libomp", a.native), ("libpompt", a.pompt)):
        p, sets, counts = run(prog, args, env, native=name == "libomp")
        results[name] = (p, sets, counts)
        sys.stdout.write(f"--- {name}: {prog}\n{p.stdout}")
        errs = [l for l in p.stderr.splitlines() if l.startswith("diff: ERROR")]
        for l in errs[:20]:
            print(f"{name}: {l}")
        if p.returncode != 0:
            print(f"FAIL: {name} run exited {p.returncode}\n{p.stderr[-2000:]}")
            bad += 1
        elif "diff: ok" not in p.stderr:
            print(f"FAIL: {name}: ordering invariants violated")
            bad += 1
        if not counts or not sets:
            print(f"FAIL: {name}: the tool printed no counts (was it loaded?)")
            return 1
    if bad:
        return 1
    (pn, sn, cn), (pp, sp, cp) = results["libomp"], results["libpompt"]
    def compared(out):
        if not a.stdout_lines:
            return out
        return [l.strip() for l in out.splitlines()
                if re.search(a.stdout_lines, l)]
    if compared(pn.stdout) != compared(pp.stdout):
        print("FAIL: the two builds print different results")
        bad += 1

    print(f"{'counter':32} {'libomp':>8} {'libpompt':>9}  verdict")
    for k in cn:
        cb = CALLBACK_OF.get(k)
        vn, vp = cn.get(k, 0), cp.get(k, 0)
        if vn == 0 and vp == 0:
            continue
        if cb and (sn.get(cb) == SET_NEVER or sp.get(cb) == SET_NEVER):
            who = "libomp" if sn.get(cb) == SET_NEVER else "libpompt"
            verdict = f"not compared: {who} never delivers {cb}"
        elif k in IMPLEMENTATION_DEFINED:
            verdict = f"not compared: {IMPLEMENTATION_DEFINED[k]}"
        elif k in not_compared:
            verdict = f"not compared: {not_compared[k]}"
        elif k == "task_create_undeferred" and a.threads == 1:
            verdict = ("not compared: with one thread libomp reports every "
                       "task it runs at once as undeferred")
        elif a.pool_threads and k.startswith("thread_"):
            verdict = "not compared: thread-pool policy"
        elif vn == vp:
            verdict = "same"
        else:
            verdict = "DIFFERENT"
            bad += 1
        print(f"{k:32} {vn:>8} {vp:>9}  {verdict}")
    for name, (_, _, c) in results.items():
        begun = c.get("thread_begin_initial", 0) + c.get("thread_begin_worker", 0)
        if begun != c.get("thread_end", 0):
            print(f"FAIL: {name} began {begun} threads and ended "
                  f"{c.get('thread_end', 0)}")
            bad += 1
    if bad:
        print(f"FAIL: {bad} difference(s)")
        return 1
    print(f"ok: libomp and libpompt agree with {a.threads} threads")
    return 0


if __name__ == "__main__":
    sys.exit(main())
