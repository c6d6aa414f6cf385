#!/usr/bin/env python3
"""Run a program under an OMPT tool that prints "check: counts k=v ..." and
compare the counts with expected values.

usage: run_check.py --tool LIB --threads N [--expect NAME=EXPR]...
                    [--expect-min NAME=EXPR]... [--env VAR=VALUE]...
                    [--stderr-has TEXT]... [--stdout-has TEXT]...
                    [--same-stdout-as REF] -- PROG [ARGS]

EXPR is a Python expression over n (the number of threads) and the integer
program arguments a0, a1, ...  Every count named in --expect must match,
every count in --expect-min must reach its value; the program and the tool
must exit 0 and the tool must report "check: ok".  --env sets a variable
for the run (an empty value removes it); --stderr-has / --stdout-has name
text the run must print (each at least once).
"""
import argparse
import os
import re
import subprocess
import sys


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tool", required=True)
    ap.add_argument("--threads", type=int, required=True)
    ap.add_argument("--expect", action="append", default=[])
    ap.add_argument("--expect-min", action="append", default=[])
    ap.add_argument("--env", action="append", default=[])
    ap.add_argument("--stderr-has", action="append", default=[])
    ap.add_argument("--stdout-has", action="append", default=[])
    ap.add_argument("--same-stdout-as", metavar="PROG",
                    help="a reference build of the program (same arguments, "
                    "same thread count, no tool) whose stdout must be equal")
    ap.add_argument("--sorted", action="store_true",
                    help="compare stdout line sets (threads print in any order)")
    ap.add_argument("cmd", nargs=argparse.REMAINDER)
    args = ap.parse_args()
    cmd = [c for c in args.cmd if c != "--"]
    env = dict(os.environ)
    env["OMP_NUM_THREADS"] = str(args.threads)
    env["OMP_TOOL_LIBRARIES"] = args.tool
    env.pop("OMP_TOOL", None)
    for kv in args.env:
        k, v = kv.split("=", 1)
        if v:
            env[k] = v
        else:
            env.pop(k, None)
    p = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=300)
    sys.stdout.write(p.stdout)
    sys.stderr.write(p.stderr)
    if p.returncode != 0:
        print(f"FAIL: exit status {p.returncode}")
        return 1
    if "check: ok" not in p.stderr:
        print("FAIL: the tool did not report 'check: ok'")
        return 1
    m = re.search(r"^check: counts (.*)$", p.stderr, re.M)
    if not m:
        print("FAIL: no counts line")
        return 1
    counts = dict(kv.split("=") for kv in m.group(1).split())
    env_vars = {"n": args.threads}
    for i, a in enumerate(cmd[1:]):
        if a.lstrip("-").isdigit():
            env_vars[f"a{i}"] = int(a)
    bad = 0
    for e in args.expect + args.expect_min:
        name, expr = e.split("=", 1)
        want = eval(expr, {}, env_vars)
        got = int(counts.get(name, -1))
        if e in args.expect and got != want:
            print(f"FAIL: {name} = {got}, expected {want} ({expr})")
            bad += 1
        elif e not in args.expect and got < want:
            print(f"FAIL: {name} = {got}, expected at least {want} ({expr})")
            bad += 1
    for text in args.stderr_has:
        if text not in p.stderr:
            print(f"FAIL: stderr lacks '{text}'")
            bad += 1
    for text in args.stdout_has:
        if text not in p.stdout:
            print(f"FAIL: stdout lacks '{text}'")
            bad += 1
    if args.same_stdout_as:
        ref_env = dict(env)
        ref_env.pop("OMP_TOOL_LIBRARIES")
        ref = subprocess.run([args.same_stdout_as] + cmd[1:], env=ref_env,
                             capture_output=True, text=True, timeout=300)
        def norm(text):
            return sorted(text.splitlines()) if args.sorted else text
        if ref.returncode != 0 or norm(ref.stdout) != norm(p.stdout):
            print(f"FAIL: stdout differs from the reference build's:\n"
                  f"{ref.stdout}")
            bad += 1
    if bad:
        return 1
    print(f"ok: {len(args.expect) + len(args.expect_min)} counts as expected "
          f"with {args.threads} threads")
    return 0


if __name__ == "__main__":
    sys.exit(main())
