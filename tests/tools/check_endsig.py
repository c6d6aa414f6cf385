#!/usr/bin/env python3
"""Tests of pompt-prof when the program dies of SIGHUP, SIGQUIT or a stack
overflow (tests/tools/prof_endsig.c).

usage: check_endsig.py endsig --prof PATH/pompt-prof --mode MODE
                       [--threads N] [--preload LIB] -- PROGRAM

MODE is hup, quit, stack-primary or stack-worker.  Each run must die of
its signal as without the profiler (SIGHUP, SIGQUIT, SIGSEGV: the default
action, re-raised), and leave one complete profile: every output file
well-formed (check_prof.py's checks), noted as ended by that signal, in the
JSON and in the text report, with the exact counts of the parallel regions
and loops completed before the end and the team of the region it ended in.

MODE altstacks: every thread of a team runs with an alternate signal stack
(the profiler's, where nothing else gave it one), and a thread that set up
its own before its first OpenMP construct keeps it; the run ends normally
with a complete profile.

The arguments, the environment, the temporary directory and the report
are check_prof.py's; this file adds the one test.
"""
import os
import signal
import sys

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import check_prof  # noqa: E402
from check_prof import check, check_all_outputs, profile_files, run  # noqa: E402

REGIONS = 3  # prof_endsig.c: complete parallel regions before the end
LOOP_SUM = REGIONS * sum(range(1000))
SIGNALS = {"hup": signal.SIGHUP, "quit": signal.SIGQUIT,
           "stack-primary": signal.SIGSEGV, "stack-worker": signal.SIGSEGV}


def test_endsig(a, prof, cmd, env, tmp, n):
    if a.mode == "altstacks":
        return altstacks(prof, cmd, env, tmp, n)
    sig = SIGNALS[a.mode]
    e = dict(env)
    # A worker's stack: small, so that the overflow comes after a few
    # hundred calls (the primary's is RLIMIT_STACK, which the program
    # lowers itself).
    e["OMP_STACKSIZE"] = "256K"
    p = run([prof, "-q", "-o", tmp] + cmd + [a.mode], e)
    check(p.returncode == -sig,
          f"killed by {sig.name} as without the profiler ({p.returncode})")
    check(f"sum {LOOP_SUM}" in p.stdout,
          "the regions before the end ran and completed")
    check("depth" not in p.stdout, "the recursion never returned")
    check(not profile_files(tmp, "*.partial"), "no partial file left")
    j = check_all_outputs(tmp)
    if j is None:
        return
    said = f"ended by {sig.name}"
    check(any(said in x for x in j["notes"]),
          f"noted as {said} in the JSON: {j['notes']}")
    txts = profile_files(tmp, "pompt-prof.*.txt")
    check(len(txts) == 1 and said in open(txts[0]).read(),
          f"the text report says {said}")
    par = sorted((r for r in j["regions"] if r["kind"] == "parallel"),
                 key=lambda r: r["line"])
    if not check(len(par) == 2, f"two parallel regions: {par}"):
        return
    done, last = par
    check(done["created"] == REGIONS and done["visits"] == REGIONS * n,
          f"the completed region: {REGIONS} teams of {n} "
          f"({done['created']} created, {done['visits']} visits)")
    check(last["created"] == 1 and last["visits"] == n,
          f"the region it ended in: one team of {n} "
          f"({last['created']} created, {last['visits']} visits)")
    loops = [r for r in j["regions"] if r["kind"] == "loop"]
    check(len(loops) == 1 and loops[0]["visits"] == REGIONS * n,
          f"the loop of the completed regions, on every thread: {loops}")
    check(len(j["threads"]) == n, f"{n} threads in the profile")


def altstacks(prof, cmd, env, tmp, n):
    p = run([prof, "-q", "-o", tmp] + cmd + ["altstacks"], env)
    check(p.returncode == 0, f"exit status {p.returncode}")
    check(f"threads with an alternate stack {n}" in p.stdout,
          f"all {n} threads of the team have an alternate signal stack")
    check("own alternate stack kept 1" in p.stdout,
          "a thread's own alternate stack is left to it")
    j = check_all_outputs(tmp)
    if j is not None:
        check(not any("ended by" in x for x in j["notes"]),
              "not noted as ended by a signal")


if __name__ == "__main__":
    check_prof.test_endsig = test_endsig
    sys.exit(check_prof.main())
