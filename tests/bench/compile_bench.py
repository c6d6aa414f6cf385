#!/usr/bin/env python3
"""Compile-time cost of pomp-cc against plain gcc and against opari2.

usage: compile_bench.py --pomp-cc PATH --gcc PATH [--opari2 PATH]
                        [--baseline-pomp-cc PATH] [--files N] [--functions F]
                        [--work W] [--rounds R] [--workdir DIR]
                        [--markdown FILE]

Generates large OpenMP C files (gen_omp_source.py) and builds them, every
round and every file interleaving the ways of building, so that drifts of a
shared machine hit all of them alike:

  gcc      gcc -fopenmp -O2 -c F.c
  pomp-cc  pomp-cc gcc -fopenmp -O2 -c F.c       (gcc -E, pomp-instr, gcc -c)
  opari2   opari2 F.c F.mod.c; gcc -fopenmp -O2 -c F.mod.c
  base     --baseline-pomp-cc PATH gcc -fopenmp -O2 -c F.c: another pomp-cc
           (an earlier version's build tree), for an A/B comparison

then links the objects: plain gcc; pomp-cc (pomp-link: nm, the generated
init unit, libpompt); opari2's chain (nm | pomp2-parse-init-regions.awk, the
init file compiled, linked with libpomp.a).  pomp-cc's compile is also split
into its three steps (from pomp-cc --show).  Reports, per build, the median
and the fastest total over the rounds, and the ratio to plain gcc as the
median of the per-round ratios (each round interleaves the builds, so its
ratio is the least disturbed by a shared machine); exits 0 whatever the
numbers (no timing assertions: the ratios are for doc/performance.md).
opari2 (Debian package 'opari2', with libpomp2-dev) is optional.  Besides
wall-clock times it reports CPU times (user + system of the commands and of
every process they waited for), which a machine shared with other jobs
disturbs much less.
"""
import argparse
import os
import resource
import shlex
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))


def children_cpu():
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


# CPU time (user + system) of every command run, all processes it waited
# for included (the compiler's cc1 and as).  On a shared machine it moves
# much less than the wall-clock time, which other jobs stretch.
CPU = {"last": 0.0}


def run(cmd, cwd, env=None):
    c0 = children_cpu()
    t0 = time.perf_counter()
    p = subprocess.run(cmd, cwd=cwd, env=env, stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, text=True, shell=isinstance(cmd, str))
    dt = time.perf_counter() - t0
    CPU["last"] = children_cpu() - c0
    if p.returncode != 0:
        sys.stderr.write(f"command failed ({p.returncode}): {cmd}\n{p.stderr}\n")
        raise SystemExit(1)
    return dt, p.stdout


def opari2_paths(opari2):
    """The opari2 installation's include dir, awk script and libpomp.a."""
    cfg = shutil.which("opari2-config", path=os.path.dirname(opari2)) or \
        shutil.which("opari2-config")
    if not cfg:
        return None
    def ask(opt):
        p = subprocess.run([cfg, opt], stdout=subprocess.PIPE, text=True)
        return p.stdout.strip()
    cflags = ask("--cflags")
    awk = ask("--region-initialization")
    nm = ask("--nm")
    prefix = os.path.dirname(os.path.dirname(os.path.realpath(opari2)))
    lib = None
    for d in ("lib", "lib64", "lib/x86_64-linux-gnu"):
        cand = os.path.join(prefix, d, "libpomp.a")
        if os.path.exists(cand):
            lib = cand
            break
    if not awk or not lib:
        return None
    return {"cflags": shlex.split(cflags), "awk": awk, "nm": nm or "nm",
            "lib": lib}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--pomp-cc", required=True)
    ap.add_argument("--gcc", default="gcc")
    ap.add_argument("--opari2")
    ap.add_argument("--baseline-pomp-cc",
                    help="another pomp-cc to compare with (A/B)")
    ap.add_argument("--files", type=int, default=3)
    ap.add_argument("--functions", type=int, default=40)
    ap.add_argument("--work", type=int, default=0,
                    help="serial statements after each construct "
                    "(gen_omp_source.py --work)")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--workdir")
    ap.add_argument("--markdown", help="also write the tables to this file")
    args = ap.parse_args()

    work = args.workdir or tempfile.mkdtemp(prefix="pompt-compile-bench.")
    os.makedirs(work, exist_ok=True)
    gen = subprocess.run([sys.executable, os.path.join(HERE, "gen_omp_source.py"),
                          "--out", work, "--files", str(args.files),
                          "--functions", str(args.functions),
                          "--work", str(args.work)],
                         stdout=subprocess.PIPE, text=True, check=True)
    sources = [os.path.basename(p) for p in gen.stdout.split()]
    lines = sum(sum(1 for _ in open(os.path.join(work, s))) for s in sources)
    constructs = sum(open(os.path.join(work, s)).read().count("#pragma omp")
                     for s in sources)

    opari = None
    if args.opari2:
        opari = opari2_paths(args.opari2)
        if not opari:
            print("note: opari2 found but not opari2-config/libpomp.a "
                  "(package libpomp2-dev): opari2 not measured")
    gcc = args.gcc
    cflags = ["-fopenmp", "-O2"]
    ways = ["gcc", "pomp-cc"] + (["base"] if args.baseline_pomp_cc else []) \
        + (["opari2"] if opari else [])
    steps = ["preprocess", "pomp-instr", "compile"]
    compile_t = {w: [] for w in ways}
    compile_cpu = {w: [] for w in ways}
    step_t = {s: [] for s in steps}
    link_t = {w: [] for w in ways}
    env = dict(os.environ)

    print("load average at the start: " +
          " ".join("%.2f" % x for x in os.getloadavg()), flush=True)
    for rnd in range(args.rounds):
        totals = {w: 0.0 for w in ways}
        cpu = {w: 0.0 for w in ways}
        stotals = {s: 0.0 for s in steps}
        for src in sources:
            stem = src[:-2]
            for w in ways:  # interleaved per file
                if w == "gcc":
                    dt, _ = run([gcc] + cflags + ["-c", src, "-o", stem + ".gcc.o"],
                                work)
                    ct = CPU["last"]
                elif w in ("pomp-cc", "base"):
                    driver = args.pomp_cc if w == "pomp-cc" \
                        else args.baseline_pomp_cc
                    dt, _ = run([driver, gcc] + cflags +
                                ["-c", src, "-o", stem + "." + w + ".o"], work,
                                env)
                    ct = CPU["last"]
                else:
                    d1, _ = run([args.opari2, src, stem + ".mod.c"], work)
                    c1 = CPU["last"]
                    d2, _ = run([gcc] + cflags + opari["cflags"] +
                                ["-c", stem + ".mod.c", "-o", stem + ".opari.o"],
                                work)
                    dt = d1 + d2
                    ct = c1 + CPU["last"]
                totals[w] += dt
                cpu[w] += ct
            # pomp-cc's steps, from --show, run one by one.
            _, show = run([args.pomp_cc, "--show", gcc] + cflags +
                          ["-c", src, "-o", stem + ".steps.o"], work)
            cmds = [shlex.split(l) for l in show.splitlines() if l.strip()]
            for c in cmds:
                if "-o" in c:
                    os.makedirs(os.path.dirname(os.path.join(
                        work, c[c.index("-o") + 1])) or work, exist_ok=True)
            for name, c in zip(steps, cmds):
                dt, _ = run(c, work)
                stotals[name] += dt
            shutil.rmtree(os.path.dirname(cmds[0][cmds[0].index("-o") + 1]),
                          ignore_errors=True)
        for w in ways:
            compile_t[w].append(totals[w])
            compile_cpu[w].append(cpu[w])
        for s in steps:
            step_t[s].append(stotals[s])
        # Link.
        objs = lambda suffix: [s[:-2] + suffix for s in sources]
        for w in ways:
            if w == "gcc":
                dt, _ = run([gcc, "-fopenmp"] + objs(".gcc.o") + ["-lm", "-o", "prog.gcc"],
                            work)
            elif w in ("pomp-cc", "base"):
                driver = args.pomp_cc if w == "pomp-cc" \
                    else args.baseline_pomp_cc
                dt, _ = run([driver, gcc, "-fopenmp"] + objs("." + w + ".o") +
                            ["-lm", "-o", "prog." + w], work, env)
            else:
                o = objs(".opari.o")
                cmd = (f"{shlex.quote(opari['nm'].split()[0])} -B " +
                       " ".join(map(shlex.quote, o)) + " | " +
                       shlex.quote(opari["awk"]) + " > pomp2_init_regions.c")
                d1, _ = run(cmd, work)
                d2, _ = run([gcc, "-c", "pomp2_init_regions.c", "-o",
                             "pomp2_init_regions.o"], work)
                d3, _ = run([gcc, "-fopenmp"] + o + ["pomp2_init_regions.o",
                            opari["lib"], "-lm", "-o", "prog.opari"], work)
                dt = d1 + d2 + d3
            link_t[w].append(dt)
        print(f"round {rnd + 1}: " + " ".join(
            f"{w}={compile_t[w][-1]:.2f}s" for w in ways) + " ratios " +
            " ".join(f"{w}={compile_t[w][-1] / compile_t['gcc'][-1]:.3f}"
                     for w in ways[1:]) + "; CPU time ratios " +
            " ".join(f"{w}={compile_cpu[w][-1] / compile_cpu['gcc'][-1]:.3f}"
                     for w in ways[1:]), flush=True)

    med = {w: statistics.median(compile_t[w]) for w in ways}
    fastest = {w: min(compile_t[w]) for w in ways}
    # Each round interleaves the builds file by file, so a round's ratio is
    # the least disturbed by drifts of a shared machine.
    round_ratio = {w: statistics.median(compile_t[w][r] / compile_t["gcc"][r]
                                        for r in range(args.rounds))
                   for w in ways}
    cpu_med = {w: statistics.median(compile_cpu[w]) for w in ways}
    cpu_ratio = {w: statistics.median(compile_cpu[w][r] / compile_cpu["gcc"][r]
                                      for r in range(args.rounds))
                 for w in ways}
    lmed = {w: statistics.median(link_t[w]) for w in ways}
    smed = {s: statistics.median(step_t[s]) for s in steps}
    out = []
    out.append(f"{len(sources)} files, {lines} lines, {constructs} OpenMP "
               f"directives (--work {args.work}); median of {args.rounds} "
               f"rounds; {gcc} " + " ".join(cflags) + " -c")
    out.append("")
    out.append("| build | compile, all files: median (s) | fastest (s) | "
               "ratio to gcc: median of the rounds' ratios | ratio of the "
               "fastest | link (s) |")
    out.append("|---|---|---|---|---|---|")
    for w in ways:
        out.append(f"| {w} | {med[w]:.2f} | {fastest[w]:.2f} | "
                   f"{round_ratio[w]:.3f} | {fastest[w] / fastest['gcc']:.3f} | "
                   f"{lmed[w]:.3f} |")
    out.append("")
    out.append("CPU time (user + system, the compiler's processes included):")
    out.append("")
    out.append("| build | compile CPU time, all files: median (s) | ratio to "
               "gcc: median of the rounds' ratios |")
    out.append("|---|---|---|")
    for w in ways:
        out.append(f"| {w} | {cpu_med[w]:.2f} | {cpu_ratio[w]:.3f} |")
    out.append("")
    out.append("pomp-cc's compile by step:")
    out.append("")
    out.append("| step | time (s) | share of gcc's compile time |")
    out.append("|---|---|---|")
    for s in steps:
        out.append(f"| {s} | {smed[s]:.3f} | {smed[s] / med['gcc']:.3f} |")
    if opari:
        out.append("")
        out.append(f"pomp-cc / opari2 chain (compile), median of the rounds' "
                   f"ratios: {statistics.median(compile_t['pomp-cc'][r] / compile_t['opari2'][r] for r in range(args.rounds)):.3f} "
                   f"wall-clock, {statistics.median(compile_cpu['pomp-cc'][r] / compile_cpu['opari2'][r] for r in range(args.rounds)):.3f} CPU time")
    if "base" in ways:
        out.append("")
        out.append(f"pomp-cc / baseline pomp-cc ({args.baseline_pomp_cc}), "
                   f"median of the rounds' ratios: "
                   f"{statistics.median(compile_t['pomp-cc'][r] / compile_t['base'][r] for r in range(args.rounds)):.3f} "
                   f"wall-clock, {statistics.median(compile_cpu['pomp-cc'][r] / compile_cpu['base'][r] for r in range(args.rounds)):.3f} CPU time")
    text = "\n".join(out)
    print(text)
    print(f"target: pomp-cc <= 1.25 x gcc -O2 -c: measured "
          f"{round_ratio['pomp-cc']:.3f} wall-clock, {cpu_ratio['pomp-cc']:.3f} "
          f"CPU time (medians of the rounds' ratios); load average "
          f"{' '.join('%.2f' % x for x in os.getloadavg())} at the end")
    if args.markdown:
        with open(args.markdown, "w") as f:
            f.write(text + "\n")
    if not args.workdir:
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
