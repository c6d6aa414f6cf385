#!/usr/bin/env python3
"""What one loop chunk costs, per build: chunkbench built with plain gcc
-fopenmp (the baseline), with pomp-cc at the default level, and with
pomp-cc at --loop-level=chunks; the pomp-cc builds without a tool and
under the null tool (every callback registered).  A team of one; each
round runs every variant once, in alternating order, and a figure is the
median over the rounds of each run's fastest sample.  Printed: ns per
iteration (= per chunk) and the ratio to the baseline measured in the same
run.  No timing assertions.

usage: chunk_bench.py --gcc-bin B --pompt-bin B --chunks-bin B
                      --null-tool T [--rounds 5]
"""
import argparse
import os
import statistics
import subprocess
import sys


def run(cmd, tool):
    env = dict(os.environ)
    for k in ("OMP_TOOL", "OMP_TOOL_LIBRARIES", "POMPT_FORCE"):
        env.pop(k, None)
    env["OMP_NUM_THREADS"] = "1"
    if tool:
        env["OMP_TOOL_LIBRARIES"] = tool
    p = subprocess.run([cmd], env=env, capture_output=True, text=True,
                       timeout=600)
    if p.returncode != 0:
        sys.stderr.write(f"FAIL: {cmd} exited {p.returncode}\n{p.stderr}")
        sys.exit(1)
    w = p.stdout.split()
    return float(w[2]), float(w[4])


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--gcc-bin", required=True)
    ap.add_argument("--pompt-bin", required=True)
    ap.add_argument("--chunks-bin", required=True)
    ap.add_argument("--null-tool", required=True)
    ap.add_argument("--rounds", type=int, default=5)
    a = ap.parse_args()
    variants = [("gcc", a.gcc_bin, None),
                ("pompt", a.pompt_bin, None),
                ("pompt+T", a.pompt_bin, a.null_tool),
                ("chunks", a.chunks_bin, None),
                ("chunks+T", a.chunks_bin, a.null_tool)]
    res = {v[0]: ([], []) for v in variants}
    for r in range(a.rounds):
        order = variants if r % 2 == 0 else variants[::-1]
        for name, binary, tool in order:
            d, s = run(binary, tool)
            res[name][0].append(d)
            res[name][1].append(s)
    base = [statistics.median(x) for x in res["gcc"]]
    print(f"{'variant':10} {'dynamic,1 ns':>13} {'ratio':>6} "
          f"{'static,1 ns':>12} {'ratio':>6}")
    for name, _, _ in variants:
        d, s = (statistics.median(x) for x in res[name])
        print(f"{name:10} {d:13.2f} {d / base[0]:6.2f} {s:12.2f} "
              f"{s / base[1]:6.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
