#!/usr/bin/env python3
"""Run ompbench (and eventbench) in every variant, interleaved, and report.

usage: run_bench.py constructs --gcc-bin B1 --pompt-bin B2 --null-tool T
                    [--clang-bin B4] [--threads 2] [--rounds 5]
                    [--samples 5] [--target-ms 10] [--markdown FILE]
                    [--constructs task,taskwait]
       run_bench.py events --event-bin B --null-tool T [--rounds 5]
                    [--markdown FILE]
       run_bench.py instructions --gcc-bin B1 --pompt-bin B2 --null-tool T
                    [--clang-bin B4] [--markdown FILE]
                    [--constructs task,taskwait] [--baseline-pompt-bin B6]
                    [--instr-threads 2]

constructs: the variants of doc/performance.md,
  (1) gcc      plain gcc -fopenmp (libgomp)
  (2) pompt    pomp-cc gcc -fopenmp, no tool
  (3) pompt+T  the same binary under the null tool (every callback)
  (4) clang+T  clang -fopenmp with libomp (native OMPT) under the null tool
  (5) clang    the same binary, no tool
  (6) base     with --baseline-pompt-bin: ompbench built by another pompt
               (an earlier tree, its own libpompt), no tool
  (7) base+T   the same binary under the null tool
Each round runs every variant once (every construct, SAMPLES samples each,
of which ompbench keeps the fastest test and the fastest reference); a
construct's figure is the median over the rounds, the spread printed half
the interquartile range over the rounds.  Rounds alternate the order of the
variants.

events: eventbench with no tool, under the null tool registering nothing,
and registering everything: the cost of one POMP event in ns.

instructions: the same variants as constructs, counted in instructions
under valgrind (cachegrind, no cache simulation) instead of timed, with a
team of one (no thread waits for another, so the count is exact and does
not depend on the machine's load; --instr-threads 2: two threads that wait
passively, which valgrind runs one at a time, all threads' count, nearly as
steady): each construct is run REPS1 and REPS2
times (ompbench -r, empty delay loop) and the difference of the two
counts, divided by REPS2 - REPS1, is what one execution costs the whole
process (program, runtime, libpompt, tool).  Skipped (exit 77) without
valgrind.

No timing assertions: the exit status is 0 whenever every run succeeded.
"""
import argparse
import os
import statistics
import subprocess
import sys


def clean_env(threads=None):
    env = dict(os.environ)
    for k in ("OMP_TOOL", "OMP_TOOL_LIBRARIES", "OMP_TOOL_VERBOSE_INIT",
              "POMPT_NULL_TOOL", "POMPT_FORCE"):
        env.pop(k, None)
    if threads:
        env["OMP_NUM_THREADS"] = str(threads)
    return env


def run_variant(cmd, env):
    p = subprocess.run(cmd, env=env, stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, text=True, timeout=900)
    if p.returncode != 0:
        sys.stderr.write(f"FAIL: {' '.join(cmd)} exited {p.returncode}\n"
                         f"{p.stderr}")
        raise SystemExit(1)
    return p.stdout


def parse(out, tag):
    """{name: {field: value}} from 'tag NAME k v k v ...' lines."""
    res = {}
    for line in out.splitlines():
        w = line.split()
        if len(w) >= 2 and w[0] == tag:
            res[w[1]] = {w[i]: float(w[i + 1]) for i in range(2, len(w) - 1, 2)}
    return res


def spread(values):
    if len(values) < 4:
        return (max(values) - min(values)) / 2
    q = statistics.quantiles(values, n=4)
    return (q[2] - q[0]) / 2


def verdict(excess, allowed, noise):
    """'ok' when excess <= allowed, 'noise' when only the measurement noise
    separates them, else 'missed'."""
    if excess <= allowed:
        return "ok"
    if excess <= allowed + noise:
        return "noise"
    return "missed"


def ratio(a, b, noise):
    """a/b as text; overheads smaller than the noise make ratios meaningless."""
    if b <= 0 or b < noise:
        return "n/a"
    return f"{a / b:.2f}"


def loadavg():
    try:
        with open("/proc/loadavg") as f:
            return " ".join(f.read().split()[:3])
    except OSError:
        return "?"


def baseline_table(names, show, value, digits=3):
    """The build under test against another pompt build (--baseline-pompt-bin,
    variants (6) and (7)), both against gcc (1), from the same run."""
    lines = ["| construct | (1) gcc | (2) pompt | (6) base | (3) pompt+null |"
             " (7) base+null | (2)/(1) | (6)/(1) | (3)-(1) | (7)-(1) |",
             "|---|---|---|---|---|---|---|---|---|---|"]
    for c in names:
        g = value("1", c)
        r = (lambda k: f"{value(k, c) / g:.2f}" if g > 0 else "n/a")
        lines.append("| " + " | ".join(
            [c] + [show(k, c) for k in ("1", "2", "6", "3", "7")] +
            [r("2"), r("6"), f"{value('3', c) - g:+.{digits}f}",
             f"{value('7', c) - g:+.{digits}f}"]) + " |")
    return "\n".join(lines)


def constructs(args):
    variants = [("1", "gcc", [args.gcc_bin], None),
                ("2", "pompt", [args.pompt_bin], None),
                ("3", "pompt+null", [args.pompt_bin], args.null_tool)]
    if args.clang_bin:
        variants += [("4", "clang+null", [args.clang_bin], args.null_tool),
                     ("5", "clang", [args.clang_bin], None)]
    if args.baseline_pompt_bin:
        variants += [("6", "base", [args.baseline_pompt_bin], None),
                     ("7", "base+null", [args.baseline_pompt_bin],
                      args.null_tool)]
    bench_args = ["-s", str(args.samples), "-t", str(args.target_ms)]
    if args.constructs:
        bench_args += args.constructs.split(",")
    data = {v[0]: {} for v in variants}
    load_before = loadavg()
    for rnd in range(args.rounds):
        order = variants if rnd % 2 == 0 else list(reversed(variants))
        for key, name, cmd, tool in order:
            env = clean_env(args.threads)
            if tool:
                env["OMP_TOOL_LIBRARIES"] = tool
                env["POMPT_NULL_TOOL"] = "all"
            res = parse(run_variant(cmd + bench_args, env), "bench")
            for c, f in res.items():
                data[key].setdefault(c, []).append(f["overhead_us"])
        print(f"round {rnd + 1}/{args.rounds} done", flush=True)

    names = list(data["1"].keys())
    med = {k: {c: statistics.median(v) for c, v in d.items()}
           for k, d in data.items()}
    noise = {k: {c: spread(v) for c, v in d.items()} for k, d in data.items()}
    have_clang = "5" in data
    lines = []
    head = ("| construct | (1) gcc | (2) pompt | (3) pompt+null |" +
            (" (4) clang+null | (5) clang |" if have_clang else "") +
            " (2)/(1) | (3)/(1) |" + (" (4)/(5) |" if have_clang else "") +
            " tool cost pompt (3)-(1) | tool cost libomp (4)-(5) |"
            " (2) <= 1.05 x (1) |" + (" tool cost <= libomp's |" if have_clang
                                      else ""))
    lines.append(head)
    lines.append("|" + "---|" * (head.count("|") - 1))
    for c in names:
        row = [c] + [f"{med[k][c]:.3f} ±{noise[k][c]:.3f}"
                     for k in ("1", "2", "3")]
        if have_clang:
            row += [f"{med[k][c]:.3f} ±{noise[k][c]:.3f}" for k in ("4", "5")]
        n1 = max(noise["1"][c], 0.005)
        row.append(ratio(med["2"][c], med["1"][c], n1))
        row.append(ratio(med["3"][c], med["1"][c], n1))
        if have_clang:
            row.append(ratio(med["4"][c], med["5"][c],
                             max(noise["5"][c], 0.005)))
        row.append(f"{med['3'][c] - med['1'][c]:+.3f}")
        row.append(f"{med['4'][c] - med['5'][c]:+.3f}" if have_clang else "-")
        hyp = lambda *ks: sum(noise[k][c] ** 2 for k in ks) ** 0.5
        row.append(verdict(med["2"][c] - med["1"][c],
                           0.05 * max(med["1"][c], 0.0), hyp("1", "2")))
        if have_clang:
            row.append(verdict(med["3"][c] - med["1"][c],
                               max(med["4"][c] - med["5"][c], 0.0),
                               hyp("1", "3", "4", "5")))
        lines.append("| " + " | ".join(row) + " |")
    text = "\n".join(lines)
    if "6" in data:
        text += "\n\n" + baseline_table(
            names, lambda k, c: f"{med[k][c]:.3f} ±{noise[k][c]:.3f}",
            lambda k, c: med[k][c])
    print(f"overhead per construct in microseconds, OMP_NUM_THREADS="
          f"{args.threads}, median of {args.rounds} rounds (± half the "
          f"interquartile range); load average before {load_before}, "
          f"after {loadavg()}")
    print(text)
    if args.markdown:
        with open(args.markdown, "w") as f:
            f.write(text + "\n")
    return 0


def events(args):
    variants = [("no tool", None, None),
                ("tool, nothing registered", args.null_tool, "none"),
                ("tool, every callback (empty)", args.null_tool, "all")]
    data = {v[0]: {} for v in variants}
    load_before = loadavg()
    for rnd in range(args.rounds):
        for name, tool, mode in variants:
            env = clean_env(1)
            if tool:
                env["OMP_TOOL_LIBRARIES"] = tool
                env["POMPT_NULL_TOOL"] = mode
            res = parse(run_variant([args.event_bin, "-n", str(args.calls),
                                     "-s", str(args.samples)], env), "event")
            for e, f in res.items():
                data[name].setdefault(e, []).append(f["ns_per_event"])
    evs = list(data["no tool"].keys())
    lines = ["| event | " + " | ".join(v[0] + " (ns)" for v in variants) + " |",
             "|---|" + "---|" * len(variants)]
    for e in evs:
        lines.append(f"| {e} | " + " | ".join(
            f"{statistics.median(data[v[0]][e]):.2f} ±{spread(data[v[0]][e]):.2f}"
            for v in variants) + " |")
    text = "\n".join(lines)
    print(f"cost of one POMP event, median of {args.rounds} runs; load "
          f"average before {load_before}, after {loadavg()}")
    print(text)
    worst = max(statistics.median(data["tool, nothing registered"][e])
                for e in evs)
    print(f"target: an event with no callback <= 5 ns: worst measured "
          f"{worst:.2f} ns")
    if args.markdown:
        with open(args.markdown, "w") as f:
            f.write(text + "\n")
    return 0


def count_instructions(cmd, env):
    """Instructions the whole process executes (cachegrind's I refs)."""
    p = subprocess.run(["valgrind", "--tool=cachegrind", "--cache-sim=no",
                        "--cachegrind-out-file=/dev/null"] + cmd, env=env,
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       text=True, timeout=900)
    if p.returncode != 0:
        sys.stderr.write(f"FAIL: valgrind {' '.join(cmd)} exited "
                         f"{p.returncode}\n{p.stderr}")
        raise SystemExit(1)
    for line in p.stderr.splitlines():
        if "I" in line and "refs:" in line:
            return int(line.split("refs:")[1].replace(",", "").split()[0])
    sys.stderr.write(f"FAIL: no instruction count from valgrind\n{p.stderr}")
    raise SystemExit(1)


def instructions(args):
    import shutil
    if not shutil.which("valgrind"):
        print("SKIP: valgrind not found")
        return 77
    variants = [("1", "gcc", args.gcc_bin, None),
                ("2", "pompt", args.pompt_bin, None),
                ("3", "pompt+null", args.pompt_bin, args.null_tool)]
    if args.clang_bin:
        variants += [("4", "clang+null", args.clang_bin, args.null_tool),
                     ("5", "clang", args.clang_bin, None)]
    if args.baseline_pompt_bin:
        variants += [("6", "base", args.baseline_pompt_bin, None),
                     ("7", "base+null", args.baseline_pompt_bin,
                      args.null_tool)]
    names = ["parallel", "for", "parallel_for", "barrier", "single",
             "critical", "lock", "atomic", "reduction", "master", "sections",
             "task", "task_single", "taskwait"]
    if args.constructs:
        names = [c for c in names if c in args.constructs.split(",")]
    r1, r2 = args.reps1, args.reps2
    per = {v[0]: {} for v in variants}
    for key, _, binary, tool in variants:
        env = clean_env(args.instr_threads)
        if args.instr_threads > 1:
            # Threads that wait sleep: a spinning thread's count is the
            # time it waited.
            env.update(OMP_WAIT_POLICY="passive", GOMP_SPINCOUNT="0",
                       KMP_BLOCKTIME="0")
        if tool:
            env["OMP_TOOL_LIBRARIES"] = tool
            env["POMPT_NULL_TOOL"] = "all"
        for c in names:
            n = [count_instructions([binary, "-s", "1", "-d", "0", "-r",
                                     str(r), c], env) for r in (r1, r2)]
            per[key][c] = (n[1] - n[0]) / (r2 - r1)
        print(f"variant {key} done", flush=True)
    have_clang = "5" in per
    head = ("| construct | (1) gcc | (2) pompt | (3) pompt+null |" +
            (" (4) clang+null | (5) clang |" if have_clang else "") +
            " tool cost pompt (3)-(1) | tool cost libomp (4)-(5) |" +
            (" pompt / libomp |" if have_clang else ""))
    lines = [head, "|" + "---|" * (head.count("|") - 1)]
    for c in names:
        row = [c] + [f"{per[k][c]:.0f}" for k in ("1", "2", "3")]
        tp = per["3"][c] - per["1"][c]
        if have_clang:
            row += [f"{per[k][c]:.0f}" for k in ("4", "5")]
            tl = per["4"][c] - per["5"][c]
            row += [f"{tp:+.0f}", f"{tl:+.0f}",
                    f"{tp / tl:.2f}" if tl > 0 else "n/a"]
        else:
            row += [f"{tp:+.0f}", "-"]
        lines.append("| " + " | ".join(row) + " |")
    text = "\n".join(lines)
    if "6" in per:
        text += "\n\n" + baseline_table(
            names, lambda k, c: f"{per[k][c]:.0f}", lambda k, c: per[k][c], 0)
    team = ("team of one" if args.instr_threads == 1 else
            f"{args.instr_threads} threads waiting passively, all threads' "
            f"instructions")
    print(f"instructions per execution of a construct, {team}, "
          f"(count at {r2} - count at {r1} executions) / {r2 - r1}")
    print(text)
    if args.markdown:
        with open(args.markdown, "w") as f:
            f.write(text + "\n")
    return 0


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("mode", choices=["constructs", "events", "instructions"])
    ap.add_argument("--gcc-bin")
    ap.add_argument("--pompt-bin")
    ap.add_argument("--clang-bin")
    ap.add_argument("--event-bin")
    ap.add_argument("--null-tool", required=True)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--samples", type=int, default=5)
    ap.add_argument("--target-ms", type=float, default=10.0)
    ap.add_argument("--calls", type=int, default=10000000)
    ap.add_argument("--reps1", type=int, default=200)
    ap.add_argument("--reps2", type=int, default=1200)
    ap.add_argument("--instr-threads", type=int, default=1,
                    help="instructions mode: the team size (default 1; "
                    "above 1 threads wait passively, and the count is all "
                    "threads' work)")
    ap.add_argument("--markdown")
    ap.add_argument("--baseline-pompt-bin",
                    help="ompbench built by another pompt (an earlier "
                    "tree): measured in the same run, with and without "
                    "the null tool, as variants (6) and (7)")
    ap.add_argument("--constructs",
                    help="comma-separated subset of ompbench's constructs "
                    "(constructs and instructions modes; default: all)")
    args = ap.parse_args()
    if args.mode == "instructions":
        if not args.gcc_bin or not args.pompt_bin:
            ap.error("instructions needs --gcc-bin and --pompt-bin")
        return instructions(args)
    if args.mode == "constructs":
        if not args.gcc_bin or not args.pompt_bin:
            ap.error("constructs needs --gcc-bin and --pompt-bin")
        return constructs(args)
    if not args.event_bin:
        ap.error("events needs --event-bin")
    return events(args)


if __name__ == "__main__":
    sys.exit(main())
