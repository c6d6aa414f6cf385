#!/usr/bin/env python3
"""Run a program built with pomp-cc gcc -fopenmp -fsanitize=thread under
LLVM's Archer (an OMPT tool that tells ThreadSanitizer about OpenMP
synchronisation) and check what ThreadSanitizer reports.

usage: run_archer.py --archer LIB --threads N --expect race|none
                     [--race-in SOURCE [--race-marker TEXT]]
                     [--needs-symbol SYM]... [--on-library-path]
                     [--skip REASON] -- PROG [ARGS]

Archer is named in OMP_TOOL_LIBRARIES; with --on-library-path it is not:
its directory is put on LD_LIBRARY_PATH, where libpompt finds libarcher.so
when no other tool was found, as LLVM's libomp does.

--expect none: the program is race-free; ThreadSanitizer must report
nothing.  --expect race: it must report a data race (at FILE:LINE when
given).  In both cases Archer must have attached (ARCHER_OPTIONS=verbose=1
makes it say so), the program must not crash, and it must print what it
prints without a tool.  --race-in names the source whose line holding
--race-marker (default "/* RACE */") the report must name.

Exit status 77 (skipped) with a message: --skip given (TSan or Archer
missing at configure time), ThreadSanitizer cannot run here (it aborts at
start on some kernels' memory layouts, also with ASLR off), or the pompt
build lacks a --needs-symbol (pomp-instr does not instrument those
constructs yet).
"""
import argparse
import os
import platform
import re
import shutil
import subprocess
import sys

SKIP = 77
TSAN_CANNOT_RUN = re.compile(
    r"FATAL: ThreadSanitizer|ThreadSanitizer: unexpected memory mapping|"
    r"ThreadSanitizer failed to allocate|"
    r"ThreadSanitizer: CHECK failed.*Shadow|personality")


def run(cmd, env):
    return subprocess.run(cmd, env=env, capture_output=True, text=True,
                          timeout=600)


def missing_symbols(prog, symbols):
    if not symbols:
        return []
    p = subprocess.run(["nm", "-P", prog], capture_output=True, text=True)
    have = {line.split()[0] for line in p.stdout.splitlines() if line.strip()}
    return [s for s in symbols if s not in have]


def program_output(text):
    return "\n".join(l for l in text.splitlines()
                     if not l.startswith(("Archer", "Registered callback",
                                          "Warning:"))).strip()


def judge(p, ref, expect, race_line):
    """What is wrong with run p (a list; any entry fails the test at once),
    and, for an expected race, why this run did not show it (or None)."""
    bad = []
    if "Archer detected OpenMP application with TSan" not in p.stdout:
        bad.append("Archer did not attach (no 'Archer detected ... with TSan')")
    if re.search(r"ThreadSanitizer: (SEGV|BUS|FPE|ILL|ABRT)|DEADLYSIGNAL",
                 p.stderr):
        bad.append("the program crashed under Archer")
    if p.returncode not in (0, 66):
        bad.append(f"exit status {p.returncode}")
    races = len(re.findall(r"WARNING: ThreadSanitizer: data race", p.stderr))
    other = len(re.findall(r"WARNING: ThreadSanitizer: (?!data race)",
                           p.stderr))
    if ref.returncode != 0:
        bad.append(f"the program fails without a tool ({ref.returncode})")
    elif program_output(p.stdout) != program_output(ref.stdout):
        bad.append("the program prints something else under Archer")
    if expect == "none":
        if races or other:
            bad.append(f"{races} data race report(s) and {other} other "
                       "report(s) on a race-free program")
        return bad, None
    if not races:
        return bad, "the data race was not reported"
    if race_line and race_line not in p.stderr:
        return bad, f"no report names {race_line}"
    return bad, None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--archer")
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--expect", choices=["race", "none"])
    ap.add_argument("--race-in")
    ap.add_argument("--race-marker", default="/* RACE */")
    ap.add_argument("--needs-symbol", action="append", default=[])
    ap.add_argument("--on-library-path", action="store_true")
    ap.add_argument("--attempts", type=int, default=3)
    ap.add_argument("--skip")
    ap.add_argument("cmd", nargs=argparse.REMAINDER)
    a = ap.parse_args()
    if a.skip:
        print(f"SKIP: {a.skip}")
        return SKIP
    cmd = [c for c in a.cmd if c != "--"]
    race_line = None
    if a.race_in:
        with open(a.race_in) as f:
            for n, line in enumerate(f, 1):
                if a.race_marker in line:
                    race_line = f"{os.path.basename(a.race_in)}:{n}"
    if not a.archer or not a.expect or not cmd:
        ap.error("--archer, --expect and a program are required")
    if not os.path.exists(a.archer):
        print(f"SKIP: Archer ({a.archer}) is not installed")
        return SKIP
    missing = missing_symbols(cmd[0], a.needs_symbol)
    if missing:
        print(f"SKIP: {cmd[0]} does not call {', '.join(missing)}: pomp-instr "
              "does not instrument these constructs yet")
        return SKIP

    env = dict(os.environ)
    for k in ("OMP_TOOL", "OMP_TOOL_VERBOSE_INIT", "POMPT_FORCE"):
        env.pop(k, None)
    env["OMP_NUM_THREADS"] = str(a.threads)
    # Archer's documented setting: ignore the accesses of modules built
    # without TSan (libgomp, libpompt), whose synchronisation TSan cannot see.
    env["TSAN_OPTIONS"] = ("ignore_noninstrumented_modules=1 "
                           "halt_on_error=0 exitcode=66 " +
                           env.get("TSAN_OPTIONS", ""))
    env["ARCHER_OPTIONS"] = "verbose=1"

    # The reference: the same binary without a tool (TSan reports ignored).
    ref_env = dict(env)
    ref_env.pop("OMP_TOOL_LIBRARIES", None)
    ref_env["TSAN_OPTIONS"] += " report_bugs=0"
    ref = run(cmd, ref_env)
    if TSAN_CANNOT_RUN.search(ref.stderr):
        setarch = shutil.which("setarch")
        if setarch:
            cmd = [setarch, platform.machine(), "-R"] + cmd
            ref = run(cmd, ref_env)
        if TSAN_CANNOT_RUN.search(ref.stderr):
            print("SKIP: ThreadSanitizer cannot run on this machine:\n" +
                  ref.stderr[-1500:])
            return SKIP

    if a.on_library_path:
        env.pop("OMP_TOOL_LIBRARIES", None)
        env["LD_LIBRARY_PATH"] = os.pathsep.join(
            [os.path.dirname(os.path.abspath(a.archer))] +
            [d for d in [env.get("LD_LIBRARY_PATH")] if d])
    else:
        env["OMP_TOOL_LIBRARIES"] = a.archer
    attempts = max(1, a.attempts) if a.expect == "race" else 1
    for attempt in range(1, attempts + 1):
        p = run(cmd, env)
        sys.stdout.write(p.stdout)
        sys.stdout.write(p.stderr)
        bad, missed = judge(p, ref, a.expect, race_line)
        if bad:
            for b in bad:
                print(f"FAIL: {b}")
            return 1
        if not missed:
            break
        print(f"run {attempt} of {attempts}: {missed}")
    else:
        print(f"FAIL: {missed} in {attempts} runs")
        return 1
    print(f"ok: {'race reported' if a.expect == 'race' else 'no report'} "
          f"with {a.threads} threads")
    return 0


if __name__ == "__main__":
    sys.exit(main())
