#!/usr/bin/env python3
"""pompt-prof's overhead: each benchmark built several ways, run with and
without the profiler, side by side in one run.

usage: prof_overhead.py --prof PATH/pompt-prof [--threads N] [--reps R]
                        [--out FILE.md]
                        --bench NAME:ARGS:VARIANT=BIN[,VARIANT=BIN...] ...

VARIANT names a build: gcc (plain gcc -fopenmp), pompt (pomp-cc gcc
-fopenmp), clang (clang -fopenmp on LLVM's libomp).  Every build runs bare;
pompt and clang builds run under pompt-prof too, at its default settings
(report, all files, timeline).  Runs alternate between the variants, R
rounds; the table gives the median of the kernel time each benchmark prints
("time <s>") and of the whole process's wall time, and the overhead of the
profiled runs against the same build unprofiled (and, for pompt, against
plain gcc).  Nothing is asserted: the machine's noise is the reader's to
judge (min and max are given).
"""
import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time


def run_once(cmd, env, cwd):
    t0 = time.perf_counter()
    p = subprocess.run(cmd, env=env, cwd=cwd, capture_output=True, text=True,
                       timeout=600)
    wall = time.perf_counter() - t0
    if p.returncode != 0:
        sys.stderr.write(p.stdout + p.stderr)
        raise SystemExit(f"{' '.join(cmd)}: exit status {p.returncode}")
    kernel = None
    for line in p.stdout.splitlines():
        if line.startswith("time "):
            kernel = float(line.split()[1])
    return kernel, wall


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--prof", required=True)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--out")
    ap.add_argument("--bench", action="append", default=[])
    a = ap.parse_args()
    a.prof = os.path.abspath(a.prof)
    env = dict(os.environ)
    env["OMP_NUM_THREADS"] = str(a.threads)
    for k in list(env):
        if k.startswith("POMPT_PROF_") or k in ("OMP_TOOL", "OMP_TOOL_LIBRARIES"):
            del env[k]
    tmp = tempfile.mkdtemp(prefix="pompt-prof-overhead.")
    lines = []

    def emit(s=""):
        print(s, flush=True)
        lines.append(s)

    emit(f"pompt-prof overhead: {a.threads} threads, {a.reps} rounds, "
         f"{os.cpu_count()} CPUs, load average "
         f"{os.getloadavg()[0]:.1f} at the start")
    emit()
    emit("| benchmark | build | run | kernel median [s] | min..max | "
         "process median [s] | overhead (kernel median) | overhead (kernel min) "
         "| overhead (process median) |")
    emit("|---|---|---|---:|---|---:|---:|---:|---:|")
    try:
        for spec in a.bench:
            name, args, builds = spec.split(":", 2)
            bins = {v: os.path.abspath(b) for v, b in
                    (x.split("=", 1) for x in builds.split(","))}
            variants = []
            for v, b in bins.items():
                variants.append((v, "bare", [b] + args.split()))
                if v != "gcc":
                    variants.append((v, "pompt-prof", [a.prof, "-o", tmp] +
                                     [b] + args.split()))
            res = {(v, how): ([], []) for v, how, _ in variants}
            for _ in range(a.reps):
                for v, how, cmd in variants:
                    k, w = run_once(cmd, env, tmp)
                    res[(v, how)][0].append(k if k is not None else w)
                    res[(v, how)][1].append(w)
            med = {key: (statistics.median(ks), statistics.median(ws))
                   for key, (ks, ws) in res.items()}
            best = {key: min(ks) for key, (ks, ws) in res.items()}
            for v, how, _ in variants:
                ks, ws = res[(v, how)]
                mk, mw = med[(v, how)]
                ov_k = ov_w = ov_b = ""
                if how == "pompt-prof":
                    bk, bw = med[(v, "bare")]
                    ov_k = f"{100 * (mk - bk) / bk:+.1f}%"
                    ov_w = f"{100 * (mw - bw) / bw:+.1f}%"
                    bb = best[(v, "bare")]
                    ov_b = f"{100 * (min(ks) - bb) / bb:+.1f}%"
                    if v == "pompt" and ("gcc", "bare") in med:
                        gk, gw = med[("gcc", "bare")]
                        ov_k += f" ({100 * (mk - gk) / gk:+.1f}% vs gcc)"
                        ov_w += f" ({100 * (mw - gw) / gw:+.1f}% vs gcc)"
                elif v == "pompt" and ("gcc", "bare") in med:
                    gk, gw = med[("gcc", "bare")]
                    ov_k = f"{100 * (mk - gk) / gk:+.1f}% vs gcc"
                    ov_w = f"{100 * (mw - gw) / gw:+.1f}% vs gcc"
                emit(f"| {name} | {v} | {how} | {mk:.4f} | "
                     f"{min(ks):.4f}..{max(ks):.4f} | {mw:.4f} | {ov_k} | "
                     f"{ov_b} | {ov_w} |")
        emit()
        emit(f"load average at the end {os.getloadavg()[0]:.1f}")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    if a.out:
        with open(a.out, "w") as f:
            f.write("\n".join(lines) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
