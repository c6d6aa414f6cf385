#!/usr/bin/env python3
"""Run LLNL's DataRaceBench C micro-benchmarks under LLVM's Archer, built
with a given compiler command (pomp-cc gcc, or clang with libomp for
reference).  A measurement, not part of `meson test` (it needs the
DataRaceBench sources); the results are in doc/compat.md.

usage: drb_run.py --drb DIR --cc "CMD" --archer LIB --out DIR
           [--runs N] [--threads N] [--timeout S] [PROGRAM ...]

  --drb DIR     DataRaceBench's micro-benchmarks/ directory
  --cc CMD      the compiler command, split on blanks ("PATH/pomp-cc gcc",
                "clang-14"); -fopenmp -fsanitize=thread -g -O1 -lm are
                added, and PolyBench's support files where a program
                needs them (as DataRaceBench's own check-data-races.sh)
  --archer LIB  libarcher.so (OMP_TOOL_LIBRARIES)
  PROGRAM       file names in DIR (default: every DRB*.c)

Each program is built once and run with OMP_NUM_THREADS=--threads (2),
Archer and TSAN_OPTIONS as tests/compat/run_archer.py sets them, up to
--runs (3) times until ThreadSanitizer reports a data race; a program is
"racy" when its name ends in -yes.c.  A race-free program counts as
reported when any of its runs reports.  A run counts with the data races
it reported also when it then crashed or ran into --timeout (60 s; what
it wrote before it was killed); one that reported none ends the program's
runs as "crashed" (a signal, ThreadSanitizer's report of one, or another
exit status than 0 and 66) or "timeout".  A program whose run ended
normally without Archer saying it attached (ARCHER_OPTIONS=verbose=1) is
"no-archer": a wrong --archer, or a program that never starts the OpenMP
runtime (a `simd` loop alone, built with libomp).  One line per program
(found, missed, clean, reported, build-failed, crashed, timeout,
no-archer), then a summary; the build and run logs are
OUTDIR/<program>.log.  On a shared machine, run it under `nice -n 10`.
"""
import argparse
import os
import re
import shlex
import subprocess
import sys

RACE = re.compile(r"WARNING: ThreadSanitizer: data race")
OTHER = re.compile(r"WARNING: ThreadSanitizer: (?!data race)")
# As tests/compat/run_archer.py: TSan's handler of a fatal signal exits with
# TSAN_OPTIONS' exitcode (66), the status of a run that reported races.
CRASH = re.compile(r"ThreadSanitizer: (SEGV|BUS|FPE|ILL|ABRT|CHECK failed)|"
                   r"DEADLYSIGNAL")
ATTACHED = "Archer detected OpenMP application with TSan"


def build(a, src, exe, log):
    flags = ["-fopenmp", "-fsanitize=thread", "-g", "-O1"]
    with open(src, errors="replace") as f:
        if "PolyBench" in f.read():
            util = os.path.join(a.drb, "utilities")
            flags += [os.path.join(util, "polybench.c"), "-I", a.drb,
                      "-I", util, "-DPOLYBENCH_NO_FLUSH_CACHE",
                      "-DPOLYBENCH_TIME", "-D_POSIX_C_SOURCE=200112L"]
    cmd = shlex.split(a.cc) + flags + [src, "-o", exe, "-lm"]
    p = subprocess.run(cmd, capture_output=True, text=True, errors="replace")
    log.write("$ %s\n%s%s" % (" ".join(cmd), p.stdout, p.stderr))
    return p.returncode == 0


def run(a, exe, log):
    """Returns the races and other reports of one run, and None or what
    went wrong: "crashed", "timeout", "no-archer"."""
    env = dict(os.environ)
    for k in ("OMP_TOOL", "OMP_TOOL_VERBOSE_INIT", "POMPT_FORCE"):
        env.pop(k, None)
    env["OMP_NUM_THREADS"] = str(a.threads)
    env["OMP_TOOL_LIBRARIES"] = a.archer
    env["ARCHER_OPTIONS"] = "verbose=1 " + env.get("ARCHER_OPTIONS", "")
    env["TSAN_OPTIONS"] = ("ignore_noninstrumented_modules=1 halt_on_error=0 "
                           "exitcode=66 " + env.get("TSAN_OPTIONS", ""))
    try:
        p = subprocess.run([exe], capture_output=True, text=True, env=env,
                           errors="replace", timeout=a.timeout,
                           cwd=os.path.dirname(exe))
    except subprocess.TimeoutExpired as e:
        # What it wrote before it was killed (bytes, also with text=True):
        # a race reported before a racy program spins forever still counts.
        out = "".join(x.decode(errors="replace") if isinstance(x, bytes)
                      else x or "" for x in (e.stdout, e.stderr))
        log.write(out + "(timed out after %d s)\n" % a.timeout)
        return len(RACE.findall(out)), len(OTHER.findall(out)), "timeout"
    log.write(p.stdout + p.stderr + "(exit %d)\n" % p.returncode)
    races = len(RACE.findall(p.stderr))
    state = None
    if (p.returncode < 0 or CRASH.search(p.stderr) or
            (p.returncode not in (0, 66) and not races)):
        state = "crashed"
    elif ATTACHED not in p.stdout:
        state = "no-archer"
    return races, len(OTHER.findall(p.stderr)), state


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--drb", required=True)
    ap.add_argument("--cc", required=True)
    ap.add_argument("--archer", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--timeout", type=int, default=60)
    ap.add_argument("programs", nargs="*")
    a = ap.parse_args()
    a.drb = os.path.abspath(a.drb)
    os.makedirs(a.out, exist_ok=True)
    names = a.programs or sorted(n for n in os.listdir(a.drb)
                                 if n.startswith("DRB") and n.endswith(".c"))
    tally = {}
    for name in names:
        racy = name.endswith("-yes.c")
        exe = os.path.join(os.path.abspath(a.out), name[:-2])
        with open(os.path.join(a.out, name + ".log"), "w") as log:
            if not build(a, os.path.join(a.drb, name), exe, log):
                verdict = "build-failed"
            else:
                verdict = None
                for _ in range(a.runs):
                    races, other, state = run(a, exe, log)
                    if races:
                        verdict = "found" if racy else "reported"
                        break
                    if state:
                        verdict = state
                        break
                if verdict is None:
                    verdict = "missed" if racy else "clean"
        tally[verdict] = tally.get(verdict, 0) + 1
        print("%-50s %s" % (name, verdict), flush=True)
    racy = sum(1 for n in names if n.endswith("-yes.c"))
    print("racy programs: %d, races found in %d; race-free programs: %d, "
          "reported in %d; build failed %d, crashed %d, timed out %d, "
          "Archer not attached %d"
          % (racy, tally.get("found", 0), len(names) - racy,
             tally.get("reported", 0), tally.get("build-failed", 0),
             tally.get("crashed", 0), tally.get("timeout", 0),
             tally.get("no-archer", 0)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
