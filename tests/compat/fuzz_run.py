#!/usr/bin/env python3
"""Differential fuzzing: random OpenMP programs (fuzz_gen.py), each built
with clang and LLVM's libomp (native OMPT) and with pomp-cc gcc on
libpompt, run under the differential tool (diff_run.py, diff_tool.c) with
every thread count given.  Each pair must print the same result, keep the
tool's ordering invariants and agree on the callback counts diff_run.py
compares.

usage: fuzz_run.py --tool LIB --pomp-cc PATH --clang PATH --llvm-lib DIR
                   --out DIR (--seeds A-B | --seed N ...) [--threads 1,2,4]
                   [--size N] [--rounds N] [--jobs N] [--keep] [--opt=OPTS]
                   [--check-tool LIB [--wild]] [--archer LIB]

With --check-tool, the libpompt build also runs alone under the checking
tool of tests/runtime (ompt_check_tool.c: thread states, inquiry answers
inside the callbacks, frames, codeptr_ra), inquiry sampled from SIGPROF at
2000 Hz, and must pass (runs "Nc").  --wild adds to the programs what
libomp 14 cannot be compared on (cancellation, detach, untied tasks, host
teams; fuzz_gen.py) and runs only that, with OMP_CANCELLATION=true; a run
that has not ended after 120 s fails as a hang.  With --archer, each
program is also built with -fsanitize=thread and run under LLVM's Archer
(run_archer.py): the programs are race-free by construction, so any report
means a synchronisation libpompt did not tell Archer about (runs "Na";
SKIP where ThreadSanitizer cannot run).

A failing seed leaves its program, both builds and diff_run.py's output in
OUT/SEED/; passing seeds are removed unless --keep.  A run in which only
the reference failed (libomp crashed, or broke the tool's invariants where
libpompt kept them) compares nothing and is reported apart (REF).  Exit
status: 0 when every other run agreed, 1 otherwise.
"""
import argparse
import concurrent.futures
import os
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def build(cmd, log):
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
    if p.returncode != 0:
        log.append(f"build failed ({p.returncode}): {' '.join(cmd)}\n"
                   f"{p.stdout}{p.stderr}")
        return False
    return True


def reference_only(out):
    """'REF' when only the reference run (libomp) failed -- it crashed or
    broke the tool's invariants, and libpompt's run kept them: nothing was
    compared, and it is not libpompt's failure; else 'FAIL'."""
    fails = [l for l in out.splitlines() if l.startswith("FAIL")]
    if fails and all(l.startswith("FAIL: libomp") for l in fails) and \
            "libpompt: diff: ERROR" not in out:
        return "REF"
    return "FAIL"


def check_run(a, prog, n, log):
    """The libpompt build alone under the checking tool
    (tests/runtime/ompt_check_tool.c: states, inquiry answers inside the
    callbacks, frames, codeptr_ra), sampling inquiry from SIGPROF."""
    env = dict(os.environ)
    for k in ("OMP_TOOL", "OMP_TOOL_VERBOSE_INIT", "POMPT_FORCE"):
        env.pop(k, None)
    env.update(OMP_NUM_THREADS=str(n), OMP_TOOL_LIBRARIES=a.check_tool,
               OMP_MAX_ACTIVE_LEVELS="2", OMPT_CHECK_SAMPLE_HZ="2000")
    if a.wild:
        env["OMP_CANCELLATION"] = "true"
    try:
        p = subprocess.run([prog, str(a.rounds)], env=env,
                           capture_output=True, text=True, timeout=120)
    except subprocess.TimeoutExpired:
        log.append(f"--- {n} threads under the checking tool: no end after "
                   "120 s (hang)")
        return "FAIL"
    if p.returncode == 0 and "check: ok" in p.stderr:
        return "ok"
    errs = "\n".join(l for l in p.stderr.splitlines() if "ERROR" in l)
    log.append(f"--- {n} threads under the checking tool: exit "
               f"{p.returncode}\n{errs[:4000] or p.stderr[-4000:]}")
    return "FAIL"


def archer_runs(a, src, d, log):
    """The program built with -fsanitize=thread and run under Archer at
    every thread count: race-free by construction, so ThreadSanitizer must
    report nothing (run_archer.py --expect none).  A missed synchronisation
    event of libpompt's shows as a data race."""
    prog = os.path.join(d, "tsan")
    if not build([a.pomp_cc, "gcc", "-fopenmp", "-fsanitize=thread", "-g"] +
                 a.opt.split() + [src, "-o", prog], log):
        return [("archer", "FAIL")]
    out = []
    for n in a.threads:
        p = subprocess.run(
            [sys.executable, os.path.join(HERE, "run_archer.py"),
             "--archer", a.archer, "--threads", str(n), "--expect", "none",
             "--", prog, str(a.rounds)],
            env=dict(os.environ, OMP_MAX_ACTIVE_LEVELS="2"),
            capture_output=True, text=True, timeout=900)
        st = {0: "ok", 77: "SKIP"}.get(p.returncode, "FAIL")
        out.append((f"{n}a", st))
        if st == "FAIL":
            log.append(f"--- {n} threads under Archer: exit {p.returncode}\n"
                       f"{p.stdout[-4000:]}{p.stderr[-4000:]}")
    return out


def one_seed(a, seed):
    d = os.path.join(a.out, str(seed))
    os.makedirs(d, exist_ok=True)
    src = os.path.join(d, f"fuzz_{seed}.c")
    log = []
    subprocess.run([sys.executable, os.path.join(HERE, "fuzz_gen.py"),
                    str(seed), "--size", str(a.size), "-o", src] +
                   (["--wild"] if a.wild else []), check=True)
    native = os.path.join(d, "native")
    pompt = os.path.join(d, "pompt")
    opt = a.opt.split()
    ok = (a.wild or build([a.clang, "-fopenmp"] + opt + [src, "-o", native,
                            "-L" + a.llvm_lib, "-Wl,-rpath," + a.llvm_lib],
                           log)) and \
        build([a.pomp_cc, "gcc", "-fopenmp"] + opt + [src, "-o", pompt], log)
    results = []
    if ok:
        for n in ([] if a.wild else a.threads):
            p = subprocess.run(
                [sys.executable, os.path.join(HERE, "diff_run.py"),
                 "--tool", a.tool, "--threads", str(n), "--pool-threads",
                 "--env", "OMP_MAX_ACTIVE_LEVELS=2",
                 "--not-compared",
                 "task_create_undeferred=libomp 14 flags every task of a team "
                 "of one undeferred, and the programs have teams of one at "
                 "any thread count",
                 "--native", native, "--pompt", pompt, "--", str(a.rounds)],
                capture_output=True, text=True, timeout=900)
            status = "ok" if p.returncode == 0 else reference_only(p.stdout)
            results.append((f"{n}t", status))
            if status != "ok":
                log.append(f"--- {n} threads: diff_run.py exited "
                           f"{p.returncode}\n{p.stdout}{p.stderr}")
        if a.check_tool:
            for n in a.threads:
                st = check_run(a, pompt, n, log)
                results.append((f"{n}c", st))
        if a.archer:
            results += archer_runs(a, src, d, log)
    passed = ok and all(st != "FAIL" for _, st in results)
    with open(os.path.join(d, "log.txt"), "w") as f:
        f.write("\n".join(log))
    if passed and not a.keep:
        shutil.rmtree(d)
    return seed, passed, results, "\n".join(log)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tool", required=True)
    ap.add_argument("--pomp-cc", required=True)
    ap.add_argument("--clang", required=True)
    ap.add_argument("--llvm-lib", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--seeds", help="A-B, both included")
    ap.add_argument("--seed", type=int, action="append", default=[])
    ap.add_argument("--threads", default="1,2,4")
    ap.add_argument("--size", type=int, default=24)
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--opt", default="-O1",
                    help="compiler options of both builds (default -O1)")
    ap.add_argument("--keep", action="store_true")
    ap.add_argument("--check-tool", metavar="LIB",
                    help="also run the libpompt build under this checking "
                    "tool (libompt_check_tool.so), with inquiry sampled "
                    "from SIGPROF")
    ap.add_argument("--archer", metavar="LIB",
                    help="also build with -fsanitize=thread and run under "
                    "LLVM's Archer (libarcher.so): no report allowed")
    ap.add_argument("--wild", action="store_true",
                    help="programs with what cannot be compared with libomp "
                    "14 too (fuzz_gen.py --wild: cancellation, detach, "
                    "untied, host teams, ...): only the libpompt build, "
                    "under --check-tool, with OMP_CANCELLATION=true")
    a = ap.parse_args()
    a.threads = [int(x) for x in a.threads.split(",")]
    seeds = list(a.seed)
    if a.seeds:
        lo, hi = (int(x) for x in a.seeds.split("-"))
        seeds += range(lo, hi + 1)
    if not seeds:
        ap.error("no seeds")
    if a.archer and a.wild:
        ap.error("--archer with --wild: cancelled and detached programs "
                 "are not race-free by construction")
    if a.wild and not a.check_tool:
        ap.error("--wild compares nothing with libomp: give --check-tool")
    for tool in ([] if a.wild else [a.clang]) + [a.pomp_cc]:
        if not shutil.which(tool):
            print(f"SKIP: {tool} not found")
            return 77
    os.makedirs(a.out, exist_ok=True)
    failed = []
    reference_failed = []
    with concurrent.futures.ThreadPoolExecutor(a.jobs) as ex:
        for seed, passed, results, log in ex.map(lambda s: one_seed(a, s),
                                                 seeds):
            runs = " ".join(f"{n}:{st}" for n, st in results)
            if any(st == "REF" for _, st in results):
                reference_failed.append(seed)
            print(f"seed {seed}: {'ok' if passed else 'FAIL'} {runs}",
                  flush=True)
            if not passed:
                failed.append(seed)
                print(log[-6000:])
    print(f"{len(seeds) - len(failed)} of {len(seeds)} seeds agree"
          + (f"; failing: {' '.join(map(str, failed))} (kept in {a.out})"
             if failed else ""))
    if reference_failed:
        print("the reference (libomp) alone failed some runs of seeds "
              f"{' '.join(map(str, reference_failed))}: not compared")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
