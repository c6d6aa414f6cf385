#!/usr/bin/env python3
"""Run LLVM's FileCheck-based OMPT tests against libpompt (pomp-cc gcc) or
against a reference (clang and LLVM's libomp).  A measurement, not part of
`meson test`: it needs LLVM's sources (openmp/ of one release) and its
FileCheck.  Results and their classification are in doc/compat.md.

Two suites:
  ompt       openmp/runtime/test/ompt: each program includes the printing
             tool callback.h and lists the lines it must print
  multiplex  openmp/tools/multiplex/tests: two printing tools chained by
             ompt-multiplex.h

usage: llvm_ompt_suite.py --openmp DIR --out DIR [--suite ompt|multiplex]
           [--pomp-cc PATH | --ref-cc CC --ref-omp DIR] [--filecheck PATH]
           [--include-stdlib] [TEST ...]

Each test's RUN: lines run as written, through bash, with lit's
substitutions: %libomp-compile (the compiler under test, -fopenmp),
%libomp-run, %libomp-tool (a shared tool library), %sort-threads,
%preload-tool, %not, FileCheck (its input kept in the test's directory as
a.out.out).  TEST: paths relative to the suite's directory (default: every
.c and .cpp test in it).  One line per test: PASS, FAIL(run K) or
TIMEOUT(run K), and the test's UNSUPPORTED/XFAIL lines that name gcc (the
upstream suite's own verdicts for GCC-built programs on libomp); the whole
log of each test is OUTDIR/<test>.log.

Adaptations in the pompt configuration, none of them changing what a
test checks:
  - tool libraries that a test builds apart are built with plain gcc
    (they are tools, not OpenMP programs to instrument);
  - an explicit -lomp is dropped (libomp loaded beside libgomp would make
    libpompt stand down: libpompt is the runtime under test);
  - --include-stdlib adds -include stdlib.h to every compile: LLVM's omp.h
    includes <stdlib.h> and some tests' tools rely on it, GCC's does not
    (off by default: then such a test counts as not buildable).
"""
import argparse
import os
import re
import shutil
import subprocess
import sys

from lit_directives import directives


class Config:
    """How the compiler under test is called."""

    def __init__(self, a, suite_dir, runtime_test_dir):
        self.a = a
        inc = ["-I", runtime_test_dir, "-I", os.path.join(runtime_test_dir, "ompt")]
        if a.suite == "multiplex":
            inc += ["-I", os.path.dirname(suite_dir)]  # ompt-multiplex.h
        if a.pomp_cc:
            self.cc = a.pomp_cc + " gcc"
            self.cxx = a.pomp_cc + " g++"
            self.tool_cc, self.tool_cxx = "gcc", "g++"
            flags = ["-O0", "-g", "-w", "-fno-omit-frame-pointer"] + inc
            flags += ["-I", a.pomp_include]
        else:
            self.cc, self.cxx = a.ref_cc, a.ref_cxx
            self.tool_cc, self.tool_cxx = a.ref_cc, a.ref_cxx
            lib = os.path.join(a.ref_omp, "lib")
            flags = ["-I", os.path.join(a.ref_omp, "include")] + inc + [
                "-L", lib, "-Wl,-rpath," + lib, "-fno-omit-frame-pointer"]
        if a.include_stdlib:
            flags += ["-include", "stdlib.h"]
        self.flags = " ".join(flags)

    def expand(self, cmd, src, tdir):
        t = os.path.join(tdir, "a.out")
        fc = "tee %s.out | %s" % (t, self.a.filecheck)
        subs = [
            ("%libomp-compile-and-run", "%libomp-compile && %libomp-run"),
            ("%libomp-c99-compile-and-run", "%libomp-c99-compile && %libomp-run"),
            ("%libomp-cxx-compile-and-run", "%libomp-cxx-compile && %libomp-run"),
            ("%libomp-cxx-compile-c",
             "%clangXX %openmp_flags %flags -std=c++17 -x c++ %s -o %t -lm"),
            ("%libomp-cxx-compile", "%clangXX %openmp_flags %flags -std=c++17 %s -o %t -lm"),
            ("%libomp-compile", "%clang %openmp_flags %flags %s -o %t -lm"),
            ("%libomp-c99-compile", "%clang %openmp_flags %flags -std=c99 %s -o %t -lm"),
            ("%libomp-tool", "%clang %openmp_flags %flags -shared -fPIC -g"),
            ("%libomp-run", "%t"),
            ("%preload-tool", "env LD_PRELOAD=%T/tool.so"),
            ("%no-as-needed-flag", "-Wl,--no-as-needed"),
            ("%sort-threads", "sort -n -s"),
            ("%not", os.path.join(os.path.dirname(self.a.filecheck), "not")),
            ("%python", sys.executable),
        ]
        for k, v in subs:
            cmd = cmd.replace(k, v)
        if self.a.pomp_cc:  # each command of the line that builds a tool
            cmd = "&&".join(
                c.replace("%clangXX", self.tool_cxx).replace("%clang", self.tool_cc)
                if "-shared" in c else c for c in cmd.split("&&"))
        if self.a.pomp_cc:
            cmd = re.sub(r"(?<=\s)-lomp(?=\s|$)", "", cmd)
        cmd = cmd.replace("%clangXX", self.cxx).replace("%clang", self.cc)
        cmd = cmd.replace("%openmp_flags", "-fopenmp").replace("%flags", self.flags)
        cmd = re.sub(r"(?<![\w/.-])FileCheck(?![\w.-])", fc, cmd)
        cmd = cmd.replace("%s", src).replace("%S", os.path.dirname(src))
        return cmd.replace("%T", tdir).replace("%t", t)


def run_test(cfg, suite_dir, rel, outdir, env, timeout):
    src = os.path.join(suite_dir, rel)
    name = rel.replace("/", "__")
    tdir = os.path.join(outdir, name + ".d")
    shutil.rmtree(tdir, ignore_errors=True)
    os.makedirs(tdir)
    runs, meta = directives(src)
    status = "PASS" if runs else "NO-RUN-LINE"
    with open(os.path.join(outdir, name + ".log"), "w") as log:
        log.write("# %s\n" % " | ".join(meta))
        for i, line in enumerate(runs):
            cmd = cfg.expand(line, src, tdir)
            log.write("$ %s\n" % cmd)
            log.flush()
            try:
                p = subprocess.run(["bash", "-o", "pipefail", "-c", cmd],
                                   stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                   timeout=timeout, env=env, cwd=tdir)
            except subprocess.TimeoutExpired:
                status = "TIMEOUT(run %d)" % (i + 1)
                log.write("\n[timeout]\n")
                break
            out = p.stdout.decode(errors="replace")
            log.write(out[-20000:] + "\n[rc=%d]\n" % p.returncode)
            if p.returncode != 0:
                status = "FAIL(run %d)" % (i + 1)
                break
    gcc_meta = " ".join(m for m in meta if "gcc" in m)
    return status, gcc_meta


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--openmp", required=True,
                    help="LLVM's openmp/ directory (one release)")
    ap.add_argument("--suite", choices=["ompt", "multiplex"], default="ompt")
    ap.add_argument("--out", required=True, help="directory for logs and binaries")
    ap.add_argument("--pomp-cc", help="pomp-cc: test libpompt with pomp-cc gcc")
    ap.add_argument("--pomp-include",
                    default=os.path.join(os.path.dirname(os.path.dirname(
                        os.path.dirname(os.path.abspath(__file__)))),
                        "ompt-bridge", "include"),
                    help="directory of pompt's omp-tools.h (GCC has none); "
                    "default: this source tree's")
    ap.add_argument("--ref-cc", default="clang-19")
    ap.add_argument("--ref-cxx", default="clang++-19")
    ap.add_argument("--ref-omp", help="reference libomp's prefix (include/, lib/)")
    ap.add_argument("--filecheck", default="/usr/lib/llvm-19/bin/FileCheck")
    ap.add_argument("--include-stdlib", action="store_true")
    ap.add_argument("--timeout", type=int, default=90)
    ap.add_argument("tests", nargs="*")
    a = ap.parse_args()
    # the commands run in each test's own directory
    for k in ("pomp_cc", "pomp_include", "ref_omp", "filecheck", "openmp"):
        v = getattr(a, k)
        if v and "/" in v:
            setattr(a, k, os.path.abspath(v))
    if bool(a.pomp_cc) == bool(a.ref_omp):
        ap.error("give --pomp-cc (libpompt) or --ref-omp (reference libomp)")
    if a.pomp_cc and not os.path.isfile(
            os.path.join(a.pomp_include, "omp-tools.h")):
        ap.error("no omp-tools.h in %s (--pomp-include)" % a.pomp_include)
    if not os.access(a.filecheck, os.X_OK):
        ap.error("no FileCheck at %s (--filecheck)" % a.filecheck)
    runtime_test = os.path.join(a.openmp, "runtime", "test")
    suite_dir = (os.path.join(runtime_test, "ompt") if a.suite == "ompt"
                 else os.path.join(a.openmp, "tools", "multiplex", "tests"))
    if not os.path.isdir(suite_dir):
        ap.error("no test directory %s" % suite_dir)
    tests = a.tests
    if not tests:
        for root, _, files in os.walk(suite_dir):
            for f in files:
                if f.endswith((".c", ".cpp")):
                    path = os.path.join(root, f)
                    if directives(path)[0]:
                        tests.append(os.path.relpath(path, suite_dir))
        tests.sort()
    outdir = os.path.abspath(a.out)
    os.makedirs(outdir, exist_ok=True)
    cfg = Config(a, suite_dir, runtime_test)
    env = dict(os.environ)
    env["PATH"] = os.path.dirname(a.filecheck) + ":" + env["PATH"]
    passed = 0
    for rel in tests:
        status, gcc_meta = run_test(cfg, suite_dir, rel, outdir, env, a.timeout)
        passed += status == "PASS"
        print("%-55s %-14s %s" % (rel, status, gcc_meta), flush=True)
    print("%d of %d pass" % (passed, len(tests)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
