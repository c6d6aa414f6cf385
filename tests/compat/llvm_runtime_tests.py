#!/usr/bin/env python3
"""Build and run LLVM's OpenMP runtime tests (openmp/runtime/test, the C
and C++ programs outside ompt/ and target/) with plain gcc / g++ and with
pomp-cc gcc / g++,
the pomp-cc build under the checking OMPT tool.  A measurement, not part
of `meson test` (it needs LLVM's sources); results in doc/compat.md.

usage: llvm_runtime_tests.py --tests DIR --pomp-cc PATH --check-tool LIB
                             [--workdir DIR] [--threads N]

A test counts when plain `gcc -fopenmp` (`g++`) builds it (many use libomp's own
kmp_* entries).  Each line: the test, then OK, or POMPCC-FAIL (pomp-cc
cannot build what gcc builds), RC (exit statuses differ), CHECK-ERRORS
(the checking tool found a rule broken).  The programs' own RUN lines are
not used: each runs without arguments, OMP_NUM_THREADS=N.
"""
import argparse
import glob
import os
import subprocess
import sys


def run(cmd, env=None, timeout=120):
    try:
        p = subprocess.run(cmd, capture_output=True, text=True,
                           timeout=timeout, env=env)
        return p.returncode, p.stdout, p.stderr
    except subprocess.TimeoutExpired:
        return "timeout", "", ""


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tests", required=True)
    ap.add_argument("--pomp-cc", required=True)
    ap.add_argument("--check-tool", required=True)
    ap.add_argument("--workdir", default="llvm-runtime-tests")
    ap.add_argument("--threads", type=int, default=2)
    a = ap.parse_args()
    os.makedirs(a.workdir, exist_ok=True)
    files = sorted(f for ext in ("c", "cpp")
                   for f in glob.glob(os.path.join(a.tests, "**", "*." + ext),
                                      recursive=True)
                   if os.sep + "ompt" + os.sep not in f
                   and os.sep + "target" + os.sep not in f)
    # the tests rely on libomp's omp.h including these
    flags = ["-O1", "-I", a.tests, "-include", "stdlib.h", "-include",
             "stdio.h", "-w", "-lm"]
    env = dict(os.environ, OMP_NUM_THREADS=str(a.threads))
    for k in ("OMP_TOOL", "OMP_TOOL_LIBRARIES"):
        env.pop(k, None)
    tally = {}
    for f in files:
        rel = os.path.relpath(f, a.tests)
        base = os.path.join(a.workdir, rel.replace(os.sep, "__"))
        cc = "g++" if f.endswith(".cpp") else "gcc"
        rc, _, _ = run([cc, "-fopenmp", f, "-o", base + ".gcc"] + flags)
        if rc != 0:
            result = "SKIP(gcc)"
        else:
            rc, _, err = run([a.pomp_cc, cc, "-fopenmp", f, "-o",
                              base + ".pompt"] + flags)
            if rc != 0:
                last = err.strip().splitlines()[-1] if err.strip() else rc
                result = f"POMPCC-FAIL {last}"
            else:
                r1, _, _ = run([base + ".gcc"], env)
                r2, _, e2 = run([base + ".pompt"],
                                dict(env, OMP_TOOL_LIBRARIES=a.check_tool))
                errors = [l for l in e2.splitlines() if "check: ERROR" in l]
                result = "OK"
                if r1 != r2:
                    result = f"RC gcc={r1} pompt={r2}"
                if errors:
                    result = (("" if result == "OK" else result + " ") +
                              f"CHECK-ERRORS {len(errors)}: {errors[0][:150]}")
        kind = result.split()[0]
        tally[kind] = tally.get(kind, 0) + 1
        print(f"{rel} {result}", flush=True)
    print(" ".join(f"{k}={v}" for k, v in sorted(tally.items())))
    return 0


if __name__ == "__main__":
    sys.exit(main())
