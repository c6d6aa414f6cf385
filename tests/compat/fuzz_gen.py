#!/usr/bin/env python3
"""Generate a random, valid OpenMP C program from a seed, for the
differential fuzz runs (fuzz_run.py): constructs nested at random within
OpenMP's nesting rules, with a result every runtime must print alike.

usage: fuzz_gen.py SEED [-o FILE] [--size N] [--wild]

Constructs: parallel (num_threads, if(0), reduction; nested), parallel
for, parallel sections, parallel master, for (every schedule, nowait,
ordered, collapse(2), reduction), sections, single (nowait, copyprivate),
master, masked, barrier, flush, task (if(0), final, mergeable, priority,
depend: in, out, inout, mutexinoutset, depend objects), taskwait (and
taskwait depend), taskgroup (and one with a task reduction in a single
construct), taskyield, taskloop,
critical (unnamed, named), atomic, locks and nestable locks; constructs in
functions called from a region (orphaned).

--wild adds what the comparison with libomp 14 leaves out (below): host
teams with distribute, untied and detached tasks, cancel (parallel, for,
sections, taskgroup) and cancellation points, taskwait depend anywhere,
if(0) with num_threads or depend, loops of no iteration, taskloops with
grainsize or neither clause.  Such programs' results depend on timing;
fuzz_run.py runs them on libpompt alone, under its checking tool.

The program takes one argument, the number of rounds (default 2), and
prints its accumulators at the end.  Every leaf adds a constant through an
atomic update, a critical region, a lock or a reduction, so the sums do not
depend on schedules or on which thread runs what; they do depend on team
sizes, which are fixed by OMP_NUM_THREADS, num_threads clauses and
OMP_MAX_ACTIVE_LEVELS (fuzz_run.py sets 2), equal for both runtimes.

Left out on purpose, because their callback counts depend on timing: task
detach, cancellation, taskyield; and untied tasks, on which libomp 14 (the
reference) fails an assertion of its own (kmp_tasking.cpp, td_last_tied).  Bodies of critical regions and lock
pairs are leaves only (a task scheduling point inside one could run a task
that takes it again on the same thread).
"""
import argparse
import random
import sys

# Contexts: where a construct is placed decides what may nest in it.
SERIAL = "serial"  # the initial task, outside any region
TEAM = "team"      # directly in a parallel region's implicit task
WS = "ws"          # a worksharing or masked body: no barrier, no worksharing
TASK = "task"      # an explicit task's body: no barrier, no worksharing


class Gen:
    def __init__(self, seed, size, wild=False):
        self.r = random.Random(seed)
        self.budget = size
        self.n_red = 0
        self.wild = wild
        self.tg_cancel = False  # the next task is a taskgroup's: may cancel it
        self.cancellable = 0  # in a region that cancels: no orphans
        self.no_red = 0  # inside an orphan: round_once's variables unseen
        self.funcs = []
        self.n_orphans = 0
        self.lines = []
        self.ind = 1

    def emit(self, s):
        self.lines.append("  " * self.ind + s)

    def block(self, ctx, depth, items=None):
        self.emit("{")
        self.ind += 1
        n = items if items is not None else self.r.randint(1, 3)
        for _ in range(n):
            self.stmt(ctx, depth)
        self.ind -= 1
        self.emit("}")

    def leaf(self):
        k = self.r.randint(1, 9)
        how = self.r.choice(["atomic", "atomic", "critical", "lock", "nest",
                             "plain_local", "api"])
        # One accumulator per kind of exclusion: two kinds do not exclude
        # each other.
        if how == "atomic":
            self.emit("#pragma omp atomic")
            self.emit(f"acc += {k};")
        elif how == "critical":
            name = self.r.choice(["", "ca", "cb"])
            self.emit(f"#pragma omp critical{'(' + name + ')' if name else ''}")
            self.emit(f"acc_crit{name} += {k};")
        elif how == "lock":
            self.emit(f"omp_set_lock(&lk); acc_lock += {k}; omp_unset_lock(&lk);")
        elif how == "nest":
            self.emit("omp_set_nest_lock(&nlk); omp_set_nest_lock(&nlk);")
            self.emit(f"acc_nest += {k};")
            self.emit("omp_unset_nest_lock(&nlk); omp_unset_nest_lock(&nlk);")
        elif how == "api":
            # the runtime's answers where the leaf runs, which pomp-cc
            # routes through libpompt's wrappers: equal on every runtime
            # (not omp_in_final: in a task generated in a final task
            # outside any parallel region libgomp answers true, as OpenMP
            # has it, libomp 14 false)
            self.emit("#pragma omp atomic")
            self.emit("acc_api += omp_get_num_threads() + "
                      "10 * omp_get_level() + 100 * omp_get_active_level() + "
                      "1000 * omp_in_parallel() + 10000 * "
                      "omp_get_team_size(omp_get_level()) + 100000 * "
                      "omp_get_ancestor_thread_num(0);")
        else:
            self.emit(f"{{ volatile long l = {k}; l *= 3; (void)l; }}")

    def task_clauses(self):
        c = []
        r = self.r.random()
        if_false = r < 0.15
        if if_false:
            c.append("if(0)")
        elif r < 0.25:
            c.append("final(1)")
        if self.r.random() < 0.15:
            c.append("mergeable")
        if self.wild and self.r.random() < 0.15:
            c.append("untied")
        # (not with if(0): libomp's code generation then makes a taskwait
        # task of its own, doc/compat.md)
        if (self.wild or not if_false) and self.r.random() < 0.3:
            v = self.r.randint(0, 3)
            kind = self.r.choice(["in", "out", "inout", "in", "out", "inout",
                                  "mutexinoutset", "depobj"])
            if kind == "depobj":  # one of main's depend objects
                c.append(f"depend(depobj: dob{v})")
            else:
                c.append(f"depend({kind}: dv[{v}])")
        if self.r.random() < 0.1:
            c.append("priority(1)")
        return (" " + " ".join(c)) if c else ""

    def task(self, depth):
        clauses = self.task_clauses()
        cancel = self.tg_cancel and self.r.random() < 0.3
        self.tg_cancel = False
        detach = self.wild and not cancel and "mergeable" not in clauses \
            and self.r.random() < 0.1
        if detach:  # fulfilled in its own block
            self.emit("{")
            self.ind += 1
            self.emit("omp_event_handle_t ev;")
            clauses += " detach(ev)"
        self.emit("#pragma omp task" + clauses)
        self.emit("{")
        self.ind += 1
        if cancel:
            self.emit(f"#pragma omp cancel taskgroup if(acc % 2 == {self.r.randint(0, 1)})")
        for _ in range(self.r.randint(1, 3)):
            self.stmt(TASK, depth + 1)
        if detach:
            self.emit("omp_fulfill_event(ev);")
        self.ind -= 1
        self.emit("}")
        if detach:
            self.ind -= 1
            self.emit("}")

    def loop(self, ctx, depth, combined):
        # At least one iteration: for a loop of none clang's code skips
        # libomp's loop entry, and with it the work callbacks, where the
        # construct is still a region (libpompt reports it)
        n = self.r.randint(0 if self.wild else 1, 17)
        sched = self.r.choice(["", "schedule(static)", "schedule(static,2)",
                               "schedule(dynamic)", "schedule(dynamic,3)",
                               "schedule(guided)", "schedule(guided,2)",
                               "schedule(runtime)", "schedule(auto)"])
        clauses = [sched] if sched else []
        red = None
        # Reductions only where one instance of the construct runs at a
        # time (a region's combining into a variable shared by teams that
        # run at once is a race)
        if (combined and depth == 0 or depth == 1) and not self.no_red and \
                self.r.random() < 0.4:
            red = f"r{self.n_red}"
            self.n_red += 1
            clauses.append(f"reduction(+: {red})")
        # (not in a region that cancels itself: a thread waiting for an
        # iteration that a thread which left the region never runs hangs)
        ordered = not self.cancellable and self.r.random() < 0.15
        if ordered:
            clauses.append("ordered")
        if not combined and self.r.random() < 0.25 and not red:
            clauses.append("nowait")
        cancel = self.wild and not ordered and "nowait" not in clauses and \
            self.r.random() < 0.2
        head = "#pragma omp parallel for" if combined else "#pragma omp for"
        if combined and self.r.random() < 0.3:
            head += f" num_threads({self.r.randint(1, 3)})"
        if red:
            self.pre.append(f"long {red} = 0;")
            self.post.append(f"acc += {red};")
        collapse = self.r.random() < 0.15
        if collapse:
            clauses.append("collapse(2)")
        self.emit(f"{head} {' '.join(clauses)}".rstrip())
        if collapse:
            self.emit(f"for (int i2 = 0; i2 < 2; i2++)")
        self.emit(f"for (int i = 0; i < {n}; i++) {{")
        self.ind += 1
        if red:
            self.emit(f"{red} += i + {self.r.randint(1, 5)};")
        if cancel:
            self.emit(f"#pragma omp cancel for if(i == {self.r.randint(0, 5)})")
        if ordered:
            self.emit("#pragma omp ordered")
            self.emit("{")
            self.emit("#pragma omp atomic")
            self.emit("acc_ord += i;")
            self.emit("}")
        for _ in range(self.r.randint(0, 2)):
            self.stmt(WS, depth + 1)
        self.ind -= 1
        self.emit("}")

    def sections(self, depth, combined):
        head = "#pragma omp parallel sections" if combined else \
            "#pragma omp sections"
        if not combined and self.r.random() < 0.25:
            head += " nowait"
        self.emit(head)
        self.emit("{")
        self.ind += 1
        # (not in parallel sections: GCC takes the combined construct's
        # sections for nowait ones, and ignores the cancel with a warning)
        cancel = self.wild and not combined and "nowait" not in head and \
            self.r.random() < 0.2
        for _ in range(self.r.randint(1, 4)):
            self.emit("#pragma omp section")
            if cancel and self.r.random() < 0.5:
                cancel = False
                self.emit("{")
                self.ind += 1
                self.emit("#pragma omp cancel sections")
                self.stmt(WS, depth + 1)
                self.ind -= 1
                self.emit("}")
            else:
                self.block(WS, depth + 1)
        self.ind -= 1
        self.emit("}")

    def parallel(self, depth):
        clauses = []
        nested = depth > 0
        if nested:
            clauses.append(f"num_threads({self.r.randint(1, 2)})")
        elif self.r.random() < 0.3:
            clauses.append(f"num_threads({self.r.randint(1, 3)})")
        # (if(0) not with num_threads: libomp 14 then applies the count to
        # the next region, which makes the programs' results differ)
        if self.r.random() < 0.1 and (self.wild or not any(
                "num_threads" in c for c in clauses)):
            clauses.append("if(0)")
        red = None
        if depth == 0 and not self.no_red and self.r.random() < 0.3:
            red = f"r{self.n_red}"
            self.n_red += 1
            clauses.append(f"reduction(+: {red})")
            self.pre.append(f"long {red} = 0;")
            self.post.append(f"acc += {red};")
        self.emit(f"#pragma omp parallel {' '.join(clauses)}".rstrip())
        self.emit("{")
        self.ind += 1
        if red:
            self.emit(f"{red} += {self.r.randint(1, 5)};")
        # A region that cancels itself: every barrier in it must be a
        # cancellation point, which GCC makes only of those in the region's
        # own code (no orphaned constructs in it), and libgomp not of
        # copyprivate's; and no ordered loop in it (loop())
        cancel = self.wild and self.r.random() < 0.25
        n = self.r.randint(1, 4)
        at = self.r.randint(0, n)
        self.cancellable += cancel
        for k in range(n):
            if cancel and k == at:
                self.emit("#pragma omp cancel parallel "
                          f"if(omp_get_thread_num() == {self.r.randint(0, 1)})")
            self.stmt(TEAM, depth + 1)
            if cancel and self.r.random() < 0.3:
                self.emit("#pragma omp cancellation point parallel")
        self.cancellable -= cancel
        self.ind -= 1
        self.emit("}")

    def stmt(self, ctx, depth):
        self.budget -= 1
        if self.budget <= 0 or depth > 4:
            self.leaf()
            return
        choices = ["leaf", "leaf", "task", "taskwait", "taskgroup"]
        if ctx == SERIAL:
            choices += ["parallel", "parallel", "parallel_for",
                        "parallel_sections", "taskloop"]
        if ctx == SERIAL:
            choices += ["parallel_master"]
            # (host teams only with --wild: libomp 14 runs the parallel
            # regions inside them with one thread where libgomp starts
            # teams, so the programs' sums differ)
            if depth == 0 and not self.no_red and self.wild:
                choices += ["teams"]
        if ctx == TEAM:
            choices += ["for", "for", "sections", "single", "masked",
                        "barrier", "taskloop_single", "flush"]
            # (copyprivate's barrier in libgomp is no cancellation point)
            if not self.cancellable:
                choices += ["orphan", "copyprivate"]
        if ctx in (TEAM, TASK):
            choices += ["taskyield"]
        if ctx in (TEAM, WS, TASK) and depth < 3 and \
                self.r.random() < 0.15:
            choices.append("parallel")
        c = self.r.choice(choices)
        if c == "leaf":
            self.leaf()
        elif c == "task":
            self.task(depth)
        elif c == "taskwait":
            # (taskwait depend only in the initial task, outside regions:
            # in a team of more than one thread libomp 14 fails an
            # assertion of its own with a tool that writes the taskwait
            # task's data, kmp_taskdeps.cpp, taskwait_task_data)
            if (ctx == SERIAL or self.wild) and self.r.random() < 0.2:
                self.emit(f"#pragma omp taskwait depend(in: dv[{self.r.randint(0, 3)}])")
            else:
                self.emit("#pragma omp taskwait")
        elif c == "taskgroup" and ctx == TEAM and depth == 1 and \
                not self.no_red and self.r.random() < 0.3:
            # a task reduction, in a single construct of an outermost
            # region: one instance at a time, combined into a variable of
            # round_once's (in the initial task outside any region such a
            # taskgroup hangs libgomp 12 at times, plain gcc too)
            red = f"r{self.n_red}"
            self.n_red += 1
            self.pre.append(f"long {red} = 0;")
            self.post.append(f"acc += {red};")
            self.emit("#pragma omp single")
            self.emit(f"#pragma omp taskgroup task_reduction(+: {red})")
            self.emit("{")
            self.ind += 1
            for _ in range(self.r.randint(1, 3)):
                self.emit(f"#pragma omp task in_reduction(+: {red})")
                self.emit("{")
                self.ind += 1
                self.emit(f"{red} += {self.r.randint(1, 9)};")
                for _ in range(self.r.randint(0, 2)):
                    self.stmt(TASK, depth + 1)
                self.ind -= 1
                self.emit("}")
            self.ind -= 1
            self.emit("}")
        elif c == "taskgroup":
            self.emit("#pragma omp taskgroup")
            self.emit("{")
            self.ind += 1
            for _ in range(self.r.randint(1, 3)):
                self.tg_cancel = self.wild
                self.task(depth)
            self.ind -= 1
            self.emit("}")
        elif c == "parallel":
            self.parallel(depth)
        elif c == "parallel_for":
            self.loop(ctx, depth, True)
        elif c == "parallel_sections":
            self.sections(depth, True)
        elif c == "for":
            self.loop(ctx, depth, False)
        elif c == "sections":
            self.sections(depth, False)
        elif c == "single":
            nowait = " nowait" if self.r.random() < 0.25 else ""
            self.emit("#pragma omp single" + nowait)
            self.block(WS, depth + 1)
        elif c == "masked":
            self.emit(self.r.choice(["#pragma omp master",
                                     "#pragma omp masked"]))
            self.block(WS, depth + 1)
        elif c == "barrier":
            self.emit("#pragma omp barrier")
        elif c == "taskyield":
            self.emit("#pragma omp taskyield")
        elif c == "orphan":
            # a function called from the region: its constructs are
            # orphaned, bound to whatever region calls it
            name = f"orphan_{self.n_orphans}"
            self.n_orphans += 1
            saved = self.lines, self.ind
            self.lines, self.ind = [], 1
            self.no_red += 1
            for _ in range(self.r.randint(1, 3)):
                self.stmt(TEAM, depth + 1)
            self.no_red -= 1
            body = self.lines
            self.lines, self.ind = saved
            self.funcs.append(f"static void {name}(void) {{\n" +
                              "\n".join(body) + "\n}\n")
            self.emit(f"{name}();")
        elif c == "copyprivate":
            k = self.r.randint(1, 9)
            self.emit("{")
            self.ind += 1
            self.emit("long cp = 0;")
            self.emit("#pragma omp single copyprivate(cp)")
            self.emit(f"cp = {k};")
            self.emit("#pragma omp atomic")
            self.emit("acc += cp;")
            self.ind -= 1
            self.emit("}")
        elif c == "parallel_master":
            self.emit("#pragma omp parallel master")
            self.block(WS, depth + 1)
        elif c == "teams":
            # host teams: a league of initial threads; only distribute and
            # parallel nest in it directly
            self.emit(f"#pragma omp teams num_teams({self.r.randint(1, 2)})")
            self.emit("{")
            self.ind += 1
            for _ in range(self.r.randint(1, 2)):
                if self.r.random() < 0.5:
                    n = self.r.randint(1, 9)
                    self.emit("#pragma omp distribute")
                    self.emit(f"for (int i = 0; i < {n}; i++) {{")
                    self.ind += 1
                    self.emit("#pragma omp atomic")
                    self.emit(f"acc += i + {self.r.randint(1, 4)};")
                    self.ind -= 1
                    self.emit("}")
                else:
                    self.no_red += 1
                    self.parallel(depth + 1)
                    self.no_red -= 1
            self.ind -= 1
            self.emit("}")
        elif c == "flush":
            self.emit("#pragma omp flush")
        elif c in ("taskloop", "taskloop_single"):
            # num_tasks and at least one iteration: the only taskloop whose
            # number of tasks OpenMP fixes (grainsize and the default leave
            # it to the runtime), and clang skips the runtime's call, and
            # with it the work callbacks, for a loop of no iteration
            n = self.r.randint(0 if self.wild else 1, 12)
            clause = f"num_tasks({self.r.randint(1, 4)})"
            if self.wild:
                clause = self.r.choice([clause, "",
                                        f"grainsize({self.r.randint(1, 4)})"])
            if self.r.random() < 0.2:
                clause += " nogroup"
            if c == "taskloop_single":
                self.emit("#pragma omp single")
                self.emit("{")
                self.ind += 1
            self.emit(f"#pragma omp taskloop {clause}".rstrip())
            self.emit(f"for (int j = 0; j < {n}; j++) {{")
            self.ind += 1
            self.emit("#pragma omp atomic")
            self.emit(f"acc += j + {self.r.randint(1, 3)};")
            self.ind -= 1
            self.emit("}")
            if "nogroup" in clause:
                self.emit("#pragma omp taskwait")
            if c == "taskloop_single":
                self.ind -= 1
                self.emit("}")

    def program(self):
        self.pre, self.post = [], []
        body_start = len(self.lines)
        while self.budget > 0:
            self.stmt(SERIAL, 0)
        body = self.lines[body_start:]
        out = [
            "/* generated by tests/compat/fuzz_gen.py */",
            "#include <omp.h>",
            "#include <stdio.h>",
            "#include <stdlib.h>",
            "",
            "static long acc, acc_crit, acc_critca, acc_critcb, acc_lock, "
            "acc_nest;",
            "static long acc_ord; /* atomic: two loops' ordered blocks may "
            "run at once */",
            "static long acc_api;",
            "static long dv[4];",
            "static omp_depend_t dob0, dob1, dob2, dob3; /* made by main */",
            "static omp_lock_t lk;",
            "static omp_nest_lock_t nlk;",
            "",
        ]
        out += self.funcs
        out += [
            "static void round_once(void) {",
        ]
        out += ["  " + p for p in self.pre]
        out += body
        out += ["  " + p for p in self.post]
        out += [
            "}",
            "",
            "int main(int argc, char **argv) {",
            "  int rounds = argc > 1 ? atoi(argv[1]) : 2;",
            "  omp_init_lock(&lk);",
            "  omp_init_nest_lock(&nlk);",
            "#pragma omp depobj(dob0) depend(inout: dv[0])",
            "#pragma omp depobj(dob1) depend(inout: dv[1])",
            "#pragma omp depobj(dob2) depend(in: dv[2])",
            "#pragma omp depobj(dob3) depend(inout: dv[3])",
            "  for (int k = 0; k < rounds; k++)",
            "    round_once();",
            "  omp_destroy_lock(&lk);",
            "  omp_destroy_nest_lock(&nlk);",
            "#pragma omp depobj(dob0) destroy",
            "#pragma omp depobj(dob1) destroy",
            "#pragma omp depobj(dob2) destroy",
            "#pragma omp depobj(dob3) destroy",
            '  printf("acc %ld %ld %ld %ld %ld %ld %ld %ld\\n", acc, acc_crit, '
            'acc_critca, acc_critcb, acc_lock, acc_nest, acc_ord, acc_api);',
            "  return (int)(dv[0] & 0);",
            "}",
        ]
        return "\n".join(out) + "\n"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("seed", type=int)
    ap.add_argument("-o", "--output")
    ap.add_argument("--size", type=int, default=24,
                    help="about how many constructs (default 24)")
    ap.add_argument("--wild", action="store_true",
                    help="also what libomp 14 cannot be compared with "
                    "(module docstring); run with OMP_CANCELLATION=true")
    a = ap.parse_args()
    text = Gen(a.seed, a.size, a.wild).program()
    if a.output:
        with open(a.output, "w") as f:
            f.write(text)
    else:
        sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
