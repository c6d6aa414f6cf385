#!/usr/bin/env python3
"""The seed's demo under the example tool: the exact callback sequence of
every thread, and ids that agree between callbacks and inquiry answers.

usage: demo_sequence.py TOOL PROGRAM THREADS
"""
import os
import re
import subprocess
import sys

INITIAL = ["thread_begin", "implicit_task begin", "parallel_begin",
           "implicit_task begin", "sync_region begin", "sync_region_wait begin",
           "sync_region_wait end", "sync_region end", "implicit_task end",
           "parallel_end", "implicit_task end", "thread_end"]
WORKER = ["thread_begin", "implicit_task begin", "sync_region begin",
          "sync_region_wait begin", "sync_region_wait end", "sync_region end",
          "implicit_task end", "thread_end"]

LINE = re.compile(r"^ompt: t=(\d+) (\w+)(?: (begin|end))?(.*)$")


def fields(rest):
    main, _, inq = rest.partition(" inq: ")
    kv = dict(m.groups() for m in re.finditer(r"(\w+)=(\S+)", main))
    return kv, dict(m.groups() for m in re.finditer(r"(\w+)=(\S+)", inq))


def main():
    tool, prog, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
    env = dict(os.environ, OMP_NUM_THREADS=str(n), OMP_TOOL_LIBRARIES=tool)
    p = subprocess.run([prog], env=env, capture_output=True, text=True,
                       timeout=60)
    if p.returncode != 0:
        print(p.stderr)
        return fail(f"exit status {p.returncode}")
    seqs, events = {}, []
    for line in p.stderr.splitlines():
        m = LINE.match(line)
        if not m:
            continue
        tid, name, ep, rest = m.groups()
        key = name + (" " + ep if ep else "")
        seqs.setdefault(tid, []).append(key)
        events.append((tid, key) + fields(rest))
    initial = [t for t, s in seqs.items() if s and s[0] == "thread_begin"
               and any(e[0] == t and e[1] == "thread_begin"
                       and e[2].get("type") == "initial" for e in events)]
    if len(initial) != 1:
        return fail(f"{len(initial)} initial threads")
    if seqs[initial[0]] != INITIAL:
        return fail(f"initial thread sequence {seqs[initial[0]]}")
    workers = [t for t in seqs if t != initial[0]]
    if len(workers) != n - 1:
        return fail(f"{len(workers)} worker threads, expected {n - 1}")
    for t in workers:
        if seqs[t] != WORKER:
            return fail(f"worker t={t} sequence {seqs[t]}")
    par = [e for e in events if e[1] == "parallel_begin"][0][2]["parallel"]
    begins = [e for e in events if e[1] == "implicit_task begin"
              and "implicit" in e[2]["flags"] and "initial" not in e[2]["flags"]]
    if sorted(int(e[2]["index"]) for e in begins) != list(range(n)):
        return fail("implicit task indices are not 0..n-1")
    for tid, key, kv, inq in begins:
        if kv["parallel"] != par or inq.get("parallel") != par:
            return fail(f"t={tid}: parallel id {kv['parallel']} / inquiry "
                        f"{inq.get('parallel')}, region is {par}")
        if int(kv["actual"]) != n or int(inq.get("team_size", -1)) != n:
            return fail(f"t={tid}: team size {kv['actual']}/{inq.get('team_size')}")
        if inq.get("task") != kv["task"] or inq.get("thread_num") != kv["index"]:
            return fail(f"t={tid}: inquiry task/thread_num disagree with callback")
    tasks = [e[2]["task"] for e in begins]
    if len(set(tasks)) != len(tasks):
        return fail("implicit task ids repeat")
    print(f"ok: {n} threads, every sequence and id as expected")
    return 0


def fail(msg):
    print("FAIL: " + msg)
    return 1


if __name__ == "__main__":
    sys.exit(main())
