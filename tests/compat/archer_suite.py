#!/usr/bin/env python3
"""Run LLVM's own test suite of Archer (openmp/tools/archer/tests) against
pomp-cc gcc + libpompt, or against clang + libomp for reference.  A
measurement, not part of `meson test` (it needs LLVM's sources); the
results are in doc/compat.md.

usage: archer_suite.py pompt|ref OUTDIR [TEST...]
  --tests DIR     the suite (LLVM_SRC/openmp/tools/archer/tests)
  --archer LIB    libarcher.so (for pompt: any Archer; ref: the one built
                  with the libomp below)
  --pomp-cc PATH  (pompt) the pomp-cc to build with
  --libomp DIR    (ref) a libomp install: DIR/include, DIR/lib
  --filecheck F   LLVM's FileCheck

Each test's RUN: lines are run as lit would, with the substitutions of the
suite's lit.cfg: programs built with -gdwarf-4 -O1 -fsanitize=thread,
Archer found through LD_LIBRARY_PATH (as the suite does; libpompt, like
libomp, tries libarcher.so when no other tool was found), race tests run
up to 10 times (deflake.bash) until a race is reported.  Adaptation for
GCC: clang's -fopenmp-version=50 is dropped.  Prints one line per test.
"""
import argparse
import os
import re
import subprocess
import sys

from lit_directives import directives


def substitute(cmd, a, src, exe):
    if a.config == "ref":
        cc = (f"clang -fopenmp -I {a.libomp}/include -L {a.libomp}/lib "
              f"-Wl,-rpath,{a.libomp}/lib")
        cxx = cc.replace("clang ", "clang++ ", 1)
    else:
        cc = f"{a.pomp_cc} gcc -fopenmp"
        cxx = f"{a.pomp_cc} g++ -fopenmp"
        cmd = cmd.replace("-fopenmp-version=50", "")
    flags = "-gdwarf-4 -O1 -fsanitize=thread -I " + a.tests
    archer_env = 'ARCHER_OPTIONS="report_data_leak=1"'
    sup = (f"env {archer_env} TSAN_OPTIONS='ignore_noninstrumented_modules=0:"
           "ignore_noninstrumented_modules=1'")
    nosup = (f"env {archer_env} TSAN_OPTIONS='ignore_noninstrumented_modules=0"
             ":exitcode=0'")
    deflake = os.path.join(a.tests, "deflake.bash")
    subs = [
        ("%libarcher-compile-and-run-race-noserial",
         '%libarcher-compile && env ARCHER_OPTIONS="ignore_serial=1 '
         'report_data_leak=1" %libarcher-run-race'),
        ("%libarcher-compile-and-run-race",
         "%libarcher-compile && %libarcher-run-race"),
        ("%libarcher-compile-and-run-nosuppression",
         "%libarcher-compile && %libarcher-run-nosuppression"),
        ("%libarcher-compile-and-run", "%libarcher-compile && %libarcher-run"),
        ("%libarcher-cxx-compile-and-run",
         "%libarcher-cxx-compile && %libarcher-run"),
        ("%libarcher-cxx-compile", f"{cxx} {flags} -std=c++17 %s -o %t -latomic"),
        ("%libarcher-compile", f"{cc} {flags} %s -o %t -latomic"),
        ("%libarcher-run-race", f"{sup} {deflake} %t 2>&1 | tee %t.log"),
        ("%libarcher-run-nosuppression", f"{nosup} %t 2>&1 | tee %t.log"),
        ("%libarcher-run", f"{sup} %t 2>&1 | tee %t.log"),
        ("%clang-archerXX", cxx),
        ("%clang-archer", cc),
        ("%openmp_flags", ""),
        ("%archer_flags", flags),
        ("%flags", "-I " + a.tests),
    ]
    for old, new in subs:
        cmd = cmd.replace(old, new)
    cmd = re.sub(r"(?<![\w/-])FileCheck(?=\s)", a.filecheck, cmd)
    return cmd.replace("%s", src).replace("%t", exe)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("config", choices=["pompt", "ref"])
    ap.add_argument("outdir")
    ap.add_argument("test", nargs="*")
    ap.add_argument("--tests", required=True)
    ap.add_argument("--archer", required=True)
    ap.add_argument("--pomp-cc", default="pomp-cc")
    ap.add_argument("--libomp")
    ap.add_argument("--filecheck", default="FileCheck")
    a = ap.parse_intermixed_args()
    if a.config == "ref" and not a.libomp:
        ap.error("ref needs --libomp")
    tests = a.test or sorted(
        os.path.relpath(os.path.join(d, f), a.tests)
        for d, _, files in os.walk(a.tests) for f in files
        if f.endswith((".c", ".cpp")))
    os.makedirs(a.outdir, exist_ok=True)
    env = dict(os.environ)
    for k in ("OMP_TOOL", "OMP_TOOL_LIBRARIES", "OMP_TOOL_VERBOSE_INIT"):
        env.pop(k, None)
    env["LD_LIBRARY_PATH"] = os.pathsep.join(
        [os.path.dirname(os.path.abspath(a.archer))] +
        [p for p in [os.environ.get("LD_LIBRARY_PATH")] if p])
    passed = 0
    for rel in tests:
        src = os.path.join(a.tests, rel)
        runs, meta = directives(src)
        tag = rel.replace("/", "__")
        exe = os.path.join(os.path.abspath(a.outdir), tag + ".exe")
        result = "PASS"
        with open(os.path.join(a.outdir, tag + ".log"), "w") as log:
            for i, run in enumerate(runs):
                cmd = substitute(run, a, src, exe)
                log.write("$ " + cmd + "\n")
                log.flush()
                try:
                    rc = subprocess.run(["bash", "-o", "pipefail", "-c", cmd],
                                        stdout=log, stderr=subprocess.STDOUT,
                                        env=env, timeout=300).returncode
                except subprocess.TimeoutExpired:
                    rc = "timeout"
                log.write(f"[rc={rc}]\n")
                if rc != 0:
                    result = f"FAIL(run {i + 1})" if rc != "timeout" \
                        else "TIMEOUT"
                    break
        passed += result == "PASS"
        print(f"{rel:45} {result:12} {' '.join(meta)}", flush=True)
    print(f"{passed} of {len(tests)} pass")
    return 0


if __name__ == "__main__":
    sys.exit(main())
