#!/usr/bin/env python3
"""The NAS Parallel Benchmarks' OpenMP C version (NPB3.0-omp-C: BT, CG, EP,
FT, IS, LU, MG, SP), built twice -- `pomp-cc gcc -fopenmp` on libpompt and
`clang -fopenmp=libomp` on LLVM's libomp with its native OMPT -- and each
benchmark run under the differential tool on both (diff_run.py): every
callback count must agree but for the differences OpenMP 5.2 allows, and
both builds must print the same verification lines.  Measured, not part of
`meson test` (the sources are not in this repository; doc/compat.md).

usage: npb_run.py --npb SRC --out DIR --pomp-cc PATH --tool LIBDIFF
                  [--clang clang-14] [--libomp-dir DIR] [--class S]
                  [--threads 2] [BENCHMARK ...]
"""
import argparse
import os
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
BENCHMARKS = ["BT", "CG", "EP", "FT", "IS", "LU", "MG", "SP"]
# The lines both builds must print alike: the verification verdicts and
# what was run, never the timings.
VERIFY = r"[Vv]erification|VERIFICATION|Class|[Ii]terations|Size"
# Counts not compared, and why (diff_run.py prints the reason).  EP's
# copyin clause: GCC makes its barrier a GOMP_barrier call, which libpompt
# reports as barrier_implementation, OpenMP 5.2's kind for a barrier the
# implementation adds; libomp 14 reports it with the deprecated
# barrier_implicit kind, as it does every barrier that is no directive.
# LU's pipeline waits in a loop of flush directives: their number is how
# long each thread waited.
COPYIN = ("copyin's barrier: barrier_implementation here, the deprecated "
          "barrier_implicit on libomp 14")
NOT_COMPARED = {
    "EP": {"barrier_implicit": COPYIN, "sync_wait": COPYIN},
    "LU": {"flush": "timing-dependent: LU's threads wait in flush loops"},
}

MAKE_DEF = """CC = {cc}
CLINK = {cc}
C_LIB = -lm
C_INC = -I../common
CFLAGS = -O2 {omp}
CLINKFLAGS = {omp} {link}
UCC = gcc -O
BINDIR = ../bin
RAND = randdp
WTIME = wtime.c
"""


def build(src, out, cc, omp, link, benchmarks, cls):
    if os.path.exists(out):
        shutil.rmtree(out)
    shutil.copytree(src, out, ignore=shutil.ignore_patterns(".git", "bin"))
    os.makedirs(os.path.join(out, "bin"), exist_ok=True)
    with open(os.path.join(out, "config", "make.def"), "w") as f:
        f.write(MAKE_DEF.format(cc=cc, omp=omp, link=link))
    for b in benchmarks:
        p = subprocess.run(["make", b, f"CLASS={cls}"], cwd=out,
                           capture_output=True, text=True)
        if p.returncode != 0:
            sys.exit(f"{out}: building {b} failed:\n{p.stdout[-2000:]}"
                     f"{p.stderr[-2000:]}")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--npb", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--pomp-cc", required=True)
    ap.add_argument("--tool", required=True)
    ap.add_argument("--clang", default="clang-14")
    ap.add_argument("--libomp-dir", default="/usr/lib/llvm-14/lib")
    ap.add_argument("--class", dest="cls", default="S")
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("benchmarks", nargs="*")
    a = ap.parse_args()
    benchmarks = [b.upper() for b in a.benchmarks] or BENCHMARKS
    pompt_dir = os.path.join(a.out, "pompt")
    native_dir = os.path.join(a.out, "libomp")
    build(a.npb, pompt_dir, f"{os.path.abspath(a.pomp_cc)} gcc", "-fopenmp",
          "", benchmarks, a.cls)
    build(a.npb, native_dir, a.clang, "-fopenmp=libomp",
          f"-L{a.libomp_dir} -Wl,-rpath,{a.libomp_dir}", benchmarks, a.cls)
    failed = []
    for b in benchmarks:
        exe = f"{b.lower()}.{a.cls}"
        cmd = [sys.executable, os.path.join(HERE, "diff_run.py"),
               "--tool", a.tool, "--threads", str(a.threads),
               "--native", os.path.join(native_dir, "bin", exe),
               "--pompt", os.path.join(pompt_dir, "bin", exe),
               "--stdout-lines", VERIFY]
        for counter, why in NOT_COMPARED.get(b, {}).items():
            cmd += ["--not-compared", f"{counter}={why}"]
        p = subprocess.run(cmd, capture_output=True, text=True)
        table = [l for l in p.stdout.splitlines()
                 if not l.startswith((" ", "---")) and l.strip()]
        print(f"== {b} ({a.threads} threads, class {a.cls})")
        print("\n".join(table))
        if p.returncode != 0:
            failed.append(b)
    print(f"{len(benchmarks) - len(failed)} of {len(benchmarks)} agree"
          + (f"; differing: {' '.join(failed)}" if failed else ""))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
