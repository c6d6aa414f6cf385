#!/usr/bin/env python3
"""Tool activation and shutdown as OpenMP 5.2 specifies them, and libpompt's
behaviour with bad environment variables and misbehaving tools.

usage: activation_test.py --act LIB --act-null LIB --check-tool LIB
                          --no-start LIB --prog PROG [--prog-libomp PROG]

--act: ompt_activation_tool.c (ACT_MODE selects a misbehaviour);
--act-null: the same, whose ompt_start_tool returns NULL; --no-start: a
library without ompt_start_tool; --prog: hand_instrumented (5 parallel
regions); --prog-libomp: the same program linked with LLVM's libomp, whose
native OMPT must make libpompt stand down.
"""
import argparse
import os
import subprocess
import sys
import tempfile

failures = []


def run(prog, env, args=("5",)):
    e = dict(os.environ)
    # The cases set what they test; the user's places would answer for
    # the "no places" case.
    for k in ("OMP_TOOL", "OMP_TOOL_LIBRARIES", "OMP_TOOL_VERBOSE_INIT",
              "ACT_MODE", "POMPT_FORCE", "OMP_PLACES", "OMP_PROC_BIND"):
        e.pop(k, None)
    e["OMP_NUM_THREADS"] = "2"
    e.update(env)
    return subprocess.run([prog] + list(args), env=e, capture_output=True,
                          text=True, timeout=120)


def expect(case, cond, what, p=None):
    if not cond:
        failures.append(f"{case}: {what}")
        print(f"FAIL {case}: {what}")
        if p is not None:
            print(f"--- stdout\n{p.stdout}--- stderr\n{p.stderr}")


def ran_ok(case, p):
    expect(case, p.returncode == 0, f"exit status {p.returncode}", p)
    expect(case, "total=" in p.stdout, "the program's output is missing", p)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--act", required=True)
    ap.add_argument("--act-null", required=True)
    ap.add_argument("--check-tool", required=True)
    ap.add_argument("--no-start", required=True)
    ap.add_argument("--prog", required=True)
    ap.add_argument("--prog-libomp")
    a = ap.parse_args()
    act = a.act

    p = run(a.prog, {})
    ran_ok("no tool", p)
    expect("no tool", "pompt" not in p.stderr + p.stdout, "libpompt spoke", p)

    p = run(a.prog, {"OMP_TOOL": "disabled", "OMP_TOOL_LIBRARIES": act})
    ran_ok("OMP_TOOL=disabled", p)
    expect("OMP_TOOL=disabled", "act:" not in p.stdout, "the tool was started",
           p)

    p = run(a.prog, {"OMP_TOOL": "maybe", "OMP_TOOL_LIBRARIES": act})
    ran_ok("OMP_TOOL=maybe", p)
    expect("OMP_TOOL=maybe", "neither 'enabled' nor 'disabled'" in p.stderr,
           "no warning about OMP_TOOL", p)
    expect("OMP_TOOL=maybe", "act: finalize threads=2/2 parallel=5" in p.stdout,
           "the tool did not run to its finalize", p)

    with tempfile.TemporaryDirectory() as tmp:
        log = os.path.join(tmp, "init.log")
        libs = ":".join(["/nonexistent/libnothing.so", a.no_start, a.act_null,
                         act, a.check_tool])
        p = run(a.prog, {"OMP_TOOL_LIBRARIES": libs,
                         "OMP_TOOL_VERBOSE_INIT": log})
        ran_ok("tool list", p)
        text = open(log).read() if os.path.exists(log) else ""
        # The registration block as LLVM's libomp writes it (tools' test
        # suites compare it), then libpompt's own lines.
        nothing = "/nonexistent/libnothing.so"
        want_block = [
            "----- START LOGGING OF TOOL REGISTRATION -----",
            "Search for OMP tool in current address space... Failed.",
            "Searching tool libraries...",
            f"OMP_TOOL_LIBRARIES = {libs}",
            f"Opening {nothing}... Failed: {nothing}: cannot open shared "
            "object file: No such file or directory",
            f"Opening {a.no_start}... Success.",
            f"Searching for ompt_start_tool in {a.no_start}... Failed: "
            f"{a.no_start}: undefined symbol: ompt_start_tool",
            f"Opening {a.act_null}... Success.",
            f"Searching for ompt_start_tool in {a.act_null}... Found but not "
            "using the OMPT interface.",
            "Continuing search...",
            f"Opening {act}... Success.",
            f"Searching for ompt_start_tool in {act}... Success.",
            "Tool was started and is using the OMPT interface.",
            "----- END LOGGING OF TOOL REGISTRATION -----",
        ]
        lines = text.splitlines()
        start = lines.index(want_block[0]) if want_block[0] in lines else -1
        expect("tool list", lines[start:start + len(want_block)] == want_block,
               "registration block differs:\n" + text)
        for want in ("pompt: OMPT provider: libpompt", "pompt: tool finalized"):
            expect("tool list", want in text, f"verbose log lacks '{want}'")

        # No tool anywhere: the list is not set, Archer is tried last (as
        # libomp does) and is not found here (not on the library path).
        q = run(a.prog, {"OMP_TOOL_VERBOSE_INIT": "stdout",
                         "LD_LIBRARY_PATH": tmp})
        ran_ok("no tool, verbose", q)
        want_seq = ["Search for OMP tool in current address space... Failed.",
                    "No OMP_TOOL_LIBRARIES defined.",
                    "...searching tool libraries failed. Using archer tool.",
                    "Opening libarcher.so... Failed: libarcher.so: cannot "
                    "open shared object file: No such file or directory",
                    "No OMP tool loaded.",
                    "----- END LOGGING OF TOOL REGISTRATION -----"]
        lines = q.stdout.splitlines()
        at = [lines.index(w) if w in lines else -1 for w in want_seq]
        expect("no tool, verbose", -1 not in at and at == sorted(at) and
               at[-1] - at[0] == len(want_seq) - 1,
               "registration block differs", q)
        expect("no tool, verbose", "pompt: no tool: events are not delivered"
               in q.stdout, "libpompt's own line is missing", q)
        expect("tool list", p.stdout.count("act: start") == 2,
               "not both act libraries were asked", p)
        expect("tool list", p.stdout.count("act: initialize") == 1,
               "the first tool that accepted was not the one initialised", p)
        expect("tool list", "check:" not in p.stderr,
               "a library after the accepting one was started", p)

    for where, stream in (("stdout", "stdout"), ("stderr", "stderr")):
        p = run(a.prog, {"OMP_TOOL_LIBRARIES": act,
                         "OMP_TOOL_VERBOSE_INIT": where})
        ran_ok(f"verbose {where}", p)
        expect(f"verbose {where}",
               "pompt: OMPT provider: libpompt" in getattr(p, stream),
               f"no verbose log on {where}", p)

    p = run(a.prog, {"OMP_TOOL_LIBRARIES": act,
                     "OMP_TOOL_VERBOSE_INIT": "/nonexistent/dir/init.log"})
    ran_ok("verbose unopenable", p)
    expect("verbose unopenable", "cannot open '/nonexistent/dir/init.log'"
           in p.stderr and "pompt: OMPT provider" in p.stderr,
           "no fallback to stderr", p)

    p = run(a.prog, {"OMP_TOOL_LIBRARIES": act, "ACT_MODE": "fail"})
    ran_ok("initialize fails", p)
    expect("initialize fails", "act: initialize" in p.stdout and
           "act: finalize" not in p.stdout,
           "a tool whose initialize returned 0 was finalized", p)

    p = run(a.prog, {"OMP_TOOL_LIBRARIES": act, "ACT_MODE": "noinit"})
    ran_ok("no initialize", p)
    expect("no initialize", "act: start" in p.stdout and
           "act: initialize" not in p.stdout, "unexpected tool activity", p)

    p = run(a.prog, {"OMP_TOOL_LIBRARIES": act,
                     "ACT_MODE": "finalize_in_init"})
    ran_ok("finalize in initialize", p)
    expect("finalize in initialize",
           "act: finalize threads=0/0 parallel=0 calls=1" in p.stdout,
           "the tool was not finalized once, before any event", p)

    p = run(a.prog, {"OMP_TOOL_LIBRARIES": act, "ACT_MODE": "finalize_early"})
    ran_ok("finalize early", p)
    expect("finalize early",
           "act: finalize threads=2/2 parallel=2 calls=1" in p.stdout,
           "not finalized once, with every thread ended, at the 2nd region",
           p)

    p = run(a.prog, {"OMP_TOOL_LIBRARIES": act, "ACT_MODE": "badcalls"})
    ran_ok("bad calls", p)
    want = ("act: badcalls lookup_null=0 lookup_unknown=0 set0=0 set999=0 "
            "set_neg=0 set_never=1 get_unset=0 enum_bad=0 "
            "task_info_neg=0 parallel_info_neg=0 place_bad=0")
    expect("bad calls", want in p.stdout, "unexpected answers", p)

    # Places, as libgomp knows them (OMP_PLACES): two places of one
    # processor each; the initial thread is bound to the first.
    p = run(a.prog, {"OMP_TOOL_LIBRARIES": act, "ACT_MODE": "places",
                     "OMP_PLACES": "{0},{0}", "OMP_PROC_BIND": "true"})
    ran_ok("places", p)
    ncpu = len(os.sched_getaffinity(0))
    expect("places", f"act: places procs={ncpu} places=2 place0=1/1 first=0 "
           f"place_num=0 partition=2 proc_id_ok=1" in p.stdout,
           "unexpected answers", p)
    p = run(a.prog, {"OMP_TOOL_LIBRARIES": act, "ACT_MODE": "places"})
    ran_ok("no places", p)
    expect("no places", f"act: places procs={ncpu} places=0 place0=0/0 "
           f"first=-1 place_num=-1 partition=0 proc_id_ok=1" in p.stdout,
           "unexpected answers", p)

    p = run(a.prog, {"OMP_TOOL_LIBRARIES": act, "POMP_LOOP": "sometimes",
                     "POMP_TASK": "BeginEnd"})
    ran_ok("bad POMP_LOOP", p)
    expect("bad POMP_LOOP",
           p.stderr.count("POMP_LOOP='sometimes' is not one of none, "
                          "EnterExit, Chunks, IterEvent, IterBeginEnd") == 1,
           "not exactly one warning", p)
    expect("bad POMP_LOOP", "POMP_TASK" not in p.stderr,
           "a valid value was warned about", p)

    if a.prog_libomp:
        p = run(a.prog_libomp, {"OMP_TOOL_LIBRARIES": act,
                                "OMP_TOOL_VERBOSE_INIT": "stderr"})
        ran_ok("native libomp", p)
        expect("native libomp", p.stdout.count("act: initialize") == 1,
               "the tool was not initialised exactly once", p)
        expect("native libomp", "act: start pompt" not in p.stdout,
               "libpompt started the tool", p)
        expect("native libomp", "libpompt stands down" in p.stderr,
               "the verbose log does not say libpompt stood down", p)

    if failures:
        print(f"{len(failures)} failure(s)")
        return 1
    print("ok: activation")
    return 0


if __name__ == "__main__":
    sys.exit(main())
