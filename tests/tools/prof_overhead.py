#!/usr/bin/env python3
"""pompt-prof's overhead: each benchmark built several ways, run with and
without the profiler, side by side in one run.

usage: prof_overhead.py --prof PATH/pompt-prof [--threads N[,N...]]
                        [--reps R] [--out FILE.md] [--env KEY=VALUE ...]
                        --bench NAME:ARGS:VARIANT=BIN[,VARIANT=BIN...] ...

VARIANT names a build: gcc (plain gcc -fopenmp), pompt (pomp-cc gcc
-fopenmp), clang (clang -fopenmp on LLVM's libomp).  Every build runs bare;
pompt and clang builds run under pompt-prof too, at its default settings
(report, all five files, timeline).

Runs are interleaved: each round runs every variant once, in turn, the
order reversed every other round, so that a bare run and its profiled run
are neighbours in time and drift of the machine's load hits both alike.
Three times are taken of each run: the kernel (what the benchmark prints,
"time <s>": the profiler's cost per callback), the whole process (wall
clock from start to exit: also the profiler's start and the writing of the
profile at the end) and the process's CPU time (user + system, from
getrusage: on a loaded machine the steadiest of the three for a run of one
thread, which does not wait for others).  The tables give, per variant, the median, the minimum
and the quartiles; per profiled variant, its overhead against the same
build run bare three ways: of the medians, of the minima, and the median of
the per-round ratios (profiled / bare of the same round) with their
quartiles.  The load average of the machine at the start and at the end is
printed with them.  Nothing is asserted: timings are the reader's to judge.
"""
import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time


def loadavg():
    try:
        with open("/proc/loadavg") as f:
            return " ".join(f.read().split()[:3])
    except OSError:
        return "%.2f %.2f %.2f" % os.getloadavg()


def run_once(cmd, env, cwd):
    r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    p = subprocess.run(cmd, env=env, cwd=cwd, capture_output=True, text=True,
                       timeout=600)
    wall = time.perf_counter() - t0
    r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (r1.ru_utime - r0.ru_utime) + (r1.ru_stime - r0.ru_stime)
    if p.returncode != 0:
        sys.stderr.write(p.stdout + p.stderr)
        raise SystemExit(f"{' '.join(cmd)}: exit status {p.returncode}")
    kernel = None
    for line in p.stdout.splitlines():
        if line.startswith("time "):
            kernel = float(line.split()[1])
    return (kernel if kernel is not None else wall), wall, cpu


def quartiles(xs):
    if len(xs) < 2:
        return xs[0], xs[0]
    q = statistics.quantiles(xs, n=4, method="inclusive")
    return q[0], q[2]


def pct(x):
    return f"{100 * x:+.1f}%"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--prof", required=True)
    ap.add_argument("--threads", default="2",
                    help="thread counts, comma-separated")
    ap.add_argument("--reps", type=int, default=5, help="rounds")
    ap.add_argument("--out")
    ap.add_argument("--bench", action="append", default=[])
    ap.add_argument("--env", action="append", default=[],
                    help="KEY=VALUE for every run, e.g. OMP_WAIT_POLICY=passive "
                    "(waiting threads sleep: steadier CPU times on a busy "
                    "machine)")
    a = ap.parse_args()
    a.prof = os.path.abspath(a.prof)
    counts = [int(x) for x in a.threads.split(",") if x]
    base_env = dict(os.environ)
    for k in list(base_env):
        if k.startswith("POMPT_PROF_") or k in ("OMP_TOOL", "OMP_TOOL_LIBRARIES"):
            del base_env[k]
    base_env.update(x.split("=", 1) for x in a.env)
    tmp = tempfile.mkdtemp(prefix="pompt-prof-overhead.")
    lines = []

    def emit(s=""):
        print(s, flush=True)
        lines.append(s)

    emit(f"pompt-prof overhead: threads {a.threads}, {a.reps} interleaved "
         f"rounds, {os.cpu_count()} CPUs, load average {loadavg()} at the "
         "start" + (f", {' '.join(a.env)}" if a.env else ""))
    times = ["", "| benchmark | threads | build | run | kernel median [s] | "
             "kernel min [s] | kernel p25..p75 [s] | process median [s] | "
             "process min [s] | process p25..p75 [s] | CPU median [s] | "
             "CPU min [s] |",
             "|---|---:|---|---|---:|---:|---|---:|---:|---|---:|---:|"]
    over = ["", "| benchmark | threads | build | kernel: medians | kernel: "
            "minima | kernel: per round, median [p25..p75] | process: "
            "medians | process: minima | process: per round, median "
            "[p25..p75] | CPU: per round, median [p25..p75] | process "
            "outside the kernel, beyond bare [ms] |",
            "|---|---:|---|---:|---:|---|---:|---:|---|---|---:|"]
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
            for n in counts:
                env = dict(base_env)
                env["OMP_NUM_THREADS"] = str(n)
                res = {(v, how): ([], [], []) for v, how, _ in variants}
                for r in range(a.reps):
                    order = variants if r % 2 == 0 else variants[::-1]
                    for v, how, cmd in order:
                        for i, x in enumerate(run_once(cmd, env, tmp)):
                            res[(v, how)][i].append(x)
                    for f in os.listdir(tmp):
                        os.remove(os.path.join(tmp, f))
                bench = f"{name} {args}"
                for v, how, _ in variants:
                    ks, ws, cs = res[(v, how)]
                    kq, wq = quartiles(ks), quartiles(ws)
                    times.append(
                        f"| {bench} | {n} | {v} | {how} | "
                        f"{statistics.median(ks):.4f} | {min(ks):.4f} | "
                        f"{kq[0]:.4f}..{kq[1]:.4f} | "
                        f"{statistics.median(ws):.4f} | {min(ws):.4f} | "
                        f"{wq[0]:.4f}..{wq[1]:.4f} | "
                        f"{statistics.median(cs):.4f} | {min(cs):.4f} |")
                for v, how, _ in variants:
                    if how != "pompt-prof":
                        continue
                    cells = []
                    for i in (0, 1):
                        prof, bare = res[(v, how)][i], res[(v, "bare")][i]
                        ratios = [p / b - 1 for p, b in zip(prof, bare)]
                        q = quartiles(ratios)
                        cells += [
                            pct(statistics.median(prof) /
                                statistics.median(bare) - 1),
                            pct(min(prof) / min(bare) - 1),
                            f"{pct(statistics.median(ratios))} "
                            f"[{pct(q[0])}..{pct(q[1])}]"]
                    ratios = [p / b - 1 for p, b in
                              zip(res[(v, how)][2], res[(v, "bare")][2])]
                    q = quartiles(ratios)
                    cells.append(f"{pct(statistics.median(ratios))} "
                                 f"[{pct(q[0])}..{pct(q[1])}]")
                    # what the process spends outside the kernel, beyond
                    # what the bare run spends there
                    extra = [(w - k) - (bw - bk) for k, w, _, bk, bw, _ in zip(
                        *res[(v, how)], *res[(v, "bare")])]
                    over.append(f"| {bench} | {n} | {v} | " +
                                " | ".join(cells) +
                                f" | {1e3 * statistics.median(extra):.0f} |")
        for s in times + over:
            emit(s)
        emit()
        emit(f"load average at the end {loadavg()}")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    if a.out:
        with open(a.out, "w") as f:
            f.write("\n".join(lines) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
