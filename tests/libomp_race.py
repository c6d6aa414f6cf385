"""LLVM's OpenMP runtime before LLVM 19 now and then fails its own assertion
when a task with dependences ends ("Assertion failure at kmp_taskdeps.h(26):
n >= 0": a race in releasing a dependence node, llvm/llvm-project#85963,
fixed in LLVM 19).  A program of the suites' that runs on that runtime (the
reference side of a comparison, with or without pompt's instrumentation) is
run again, at most twice, when it dies of exactly that; every other failure
counts."""

DEPS_RACE = "Assertion failure at kmp_taskdeps.h"


def run_past_deps_race(run_once, label):
    """run_once() -> a CompletedProcess with text stderr."""
    p = run_once()
    for _ in range(2):
        if p.returncode == 0 or DEPS_RACE not in p.stderr:
            break
        print("note: %s hit libomp's dependence-node race "
              "(llvm/llvm-project#85963); run again" % label)
        p = run_once()
    return p
