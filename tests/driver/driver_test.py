#!/usr/bin/env python3
"""End-to-end tests of pomp-cc and pomp-link.

    driver_test.py --pomp-cc PATH --pomp-link PATH --cc CC [--cxx CXX]
                   [--check-tool LIB] [--print-tool LIB] CASE

Every case builds small programs in a fresh directory (sources in src/,
outputs in build/) with TMPDIR pointing into it, so that leftovers of the
drivers are seen.  Exit status: 0 pass, 1 fail, 77 skip.
"""

import argparse
import glob
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

SKIP = 77


class Failure(Exception):
    pass


def check(cond, msg):
    if not cond:
        raise Failure(msg)


# ---- sources -------------------------------------------------------------

MAIN_C = r"""
#include <stdio.h>
int work(int n);
int main(void) {
  int hits = 0;
#pragma omp parallel reduction(+ : hits)
  hits += 1;
  printf("hits=%d work=%d\n", hits, work(100));
  return 0;
}
"""

WORK_C = r"""
int work(int n) {
  long s = 0;
#pragma omp parallel for reduction(+ : s)
  for (int i = 0; i < n; i++)
    s += i;
  return (int)s;
}
"""

USED_C = r"""
int used(int x) {
  int r = 0;
#pragma omp parallel reduction(+ : r)
  r += x;
  return r;
}
"""

UNUSED_C = r"""
int unused(int x) {
  int r = 0;
#pragma omp parallel reduction(+ : r)
  r += x;
  return r;
}
"""

LIBMAIN_C = r"""
#include <stdio.h>
int used(int x);
int main(void) {
  printf("used=%d\n", used(3));
  return 0;
}
"""

DEP_H = "#define DEP_VALUE 7\n"

DEP_C = r"""
#include "dep.h"
int dep_value(void) {
  int v = 0;
#pragma omp parallel
  {
#pragma omp atomic
    v += DEP_VALUE;
  }
  return v;
}
"""

BAD_C = """int good(void) { return 1; }

int bad(void) { return undeclared_name; }
"""

SERIAL_C = r"""
#include <omp.h>
#include <stdio.h>
int main(void) {
  int n = 0, id = -1;
#pragma omp parallel
  {
    n = omp_get_num_threads();
    id = omp_get_thread_num();
  }
  printf("threads=%d id=%d in_parallel=%d\n", n, id, omp_in_parallel());
  return 0;
}
"""

MAIN_CC = r"""
#include <cstdio>
#include <vector>
int work(int n);
int main() {
  std::vector<int> v(8, 1);
  int sum = 0;
#pragma omp parallel for reduction(+ : sum)
  for (int i = 0; i < (int)v.size(); i++)
    sum += v[i];
  std::printf("sum=%d work=%d\n", sum, work(10));
  return 0;
}
"""

WORK_CC = r"""
#include <atomic>
int work(int n) {
  std::atomic<int> s{0};
#pragma omp parallel for
  for (int i = 0; i < n; i++)
    s += i;
  return s.load();
}
"""

SHLIB_C = r"""
int shlib_value(void) {
  int v = 0;
#pragma omp parallel reduction(+ : v)
  v += 2;
  return v;
}
"""

SHMAIN_C = r"""
#include <stdio.h>
int shlib_value(void);
int main(void) {
  int v = 0;
#pragma omp parallel reduction(+ : v)
  v += 1;
  printf("v=%d shlib=%d\n", v, shlib_value());
  return 0;
}
"""


# ---- harness ----------------------------------------------------------------

class Env:
    def __init__(self, opts):
        self.opts = opts
        self.root = tempfile.mkdtemp(prefix="pompt-driver-test.")
        self.src = os.path.join(self.root, "src")
        self.build = os.path.join(self.root, "build")
        self.tmp = os.path.join(self.root, "tmp")
        for d in (self.src, self.build, self.tmp):
            os.mkdir(d)
        self.env = dict(os.environ)
        self.env["TMPDIR"] = self.tmp
        self.env["OMP_NUM_THREADS"] = "2"
        self.env.pop("POMPT_KEEP", None)
        # meson test points LD_LIBRARY_PATH at the build tree, which would
        # hide what the programs' own run paths find.
        self.env.pop("LD_LIBRARY_PATH", None)
        self.cc = opts.cc

    def write(self, name, text):
        path = os.path.join(self.src, name)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w") as f:
            f.write(text)
        return path

    def run(self, args, cwd=None, env=None, expect=0):
        cwd = cwd or self.build
        e = dict(self.env)
        if env:
            e.update(env)
        p = subprocess.run(args, cwd=cwd, env=e, stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, universal_newlines=True)
        if expect is not None and p.returncode != expect:
            raise Failure("command %s exited with %d (expected %d)\n"
                          "stdout:\n%s\nstderr:\n%s"
                          % (" ".join(args), p.returncode, expect, p.stdout,
                             p.stderr))
        return p

    def pomp_cc(self, *args, **kw):
        return self.run([self.opts.pomp_cc] + list(args), **kw)

    def nm(self, path):
        """Defined symbols of path."""
        return self.run(["nm", "--defined-only", path]).stdout

    def check_tmp_empty(self):
        left = os.listdir(self.tmp)
        check(not left, "temporary files left in TMPDIR: %s" % left)

    def cleanup(self):
        shutil.rmtree(self.root, ignore_errors=True)


def init_functions(nm_text):
    """The POMP_Init_<id> symbols in nm output (without POMP_Init_Handles)."""
    return set(re.findall(r"\b(POMP_Init_[0-9A-Za-z_]+)\b", nm_text)) - {
        "POMP_Init_Handles"}


def snapshot(root):
    out = {}
    for d, _, files in os.walk(root):
        for f in files:
            p = os.path.join(d, f)
            st = os.stat(p)
            out[os.path.relpath(p, root)] = (st.st_size, st.st_mtime_ns)
    return out


def plain_build(t, sources, exe, flags=("-fopenmp",), compiler=None):
    compiler = compiler or t.cc
    t.run([compiler] + list(flags) + sources + ["-o", exe])
    return t.run([exe]).stdout


# ---- cases --------------------------------------------------------------------

def case_compile_link(t):
    """(1) compile and link a 2-file program in one command."""
    main = t.write("main.c", MAIN_C)
    work = t.write("work.c", WORK_C)
    want = plain_build(t, [main, work], "./plain")
    t.pomp_cc(t.cc, "-fopenmp", "-O2", main, work, "-o", "prog")
    got = t.run(["./prog"]).stdout
    check(got == want, "output differs: %r vs plain %r" % (got, want))
    check(got == "hits=2 work=4950\n", "unexpected output %r" % got)
    syms = t.nm("prog")
    inits = init_functions(syms)
    check(len(inits) >= 2, "expected two POMP_Init_* in the program: %s"
          % sorted(inits))
    check("POMP_Init_Handles" in syms, "no POMP_Init_Handles in the program")
    check("pompt_init_handles" in syms,
          "no pomp-link constructor in the program")
    t.check_tmp_empty()
    check(sorted(os.listdir(t.build)) == ["plain", "prog"],
          "unexpected files in the build directory: %s"
          % os.listdir(t.build))


def case_separate(t):
    """(2) -c each file, then link with pomp-cc."""
    main = t.write("main.c", MAIN_C)
    work = t.write("work.c", WORK_C)
    want = plain_build(t, [main, work], "./plain")
    os.mkdir(os.path.join(t.build, "obj"))
    t.pomp_cc(t.cc, "-fopenmp", "-O2", "-c", main, "-o", "obj/main.o")
    t.pomp_cc(t.cc, "-fopenmp", "-O2", "-c", work)  # -> ./work.o
    check(os.path.exists(os.path.join(t.build, "work.o")),
          "-c without -o did not write work.o in the working directory")
    for obj in ("obj/main.o", "work.o"):
        check(len(init_functions(t.nm(obj))) == 1,
              "%s has no POMP_Init_* function" % obj)
    t.pomp_cc(t.cc, "-fopenmp", "obj/main.o", "work.o", "-o", "prog")
    got = t.run(["./prog"]).stdout
    check(got == want, "output differs: %r vs plain %r" % (got, want))
    inits = init_functions(t.nm("prog"))
    check(inits == init_functions(t.nm("obj/main.o"))
          | init_functions(t.nm("work.o")),
          "the program's POMP_Init_* are not those of its objects")
    t.check_tmp_empty()


def case_archive(t):
    """(3) an instrumented object from a static archive."""
    t.write("used.c", USED_C)
    t.write("unused.c", UNUSED_C)
    main = t.write("libmain.c", LIBMAIN_C)
    t.pomp_cc(t.cc, "-fopenmp", "-c", os.path.join(t.src, "used.c"))
    t.pomp_cc(t.cc, "-fopenmp", "-c", os.path.join(t.src, "unused.c"))
    used_init = init_functions(t.nm("used.o"))
    unused_init = init_functions(t.nm("unused.o"))
    check(len(used_init) == 1 and len(unused_init) == 1,
          "objects lack their POMP_Init_*")
    os.mkdir(os.path.join(t.build, "lib"))
    t.run(["ar", "rcs", "lib/libparts.a", "used.o", "unused.o"])
    for link in (["lib/libparts.a"], ["-Llib", "-lparts"]):
        t.pomp_cc(t.cc, "-fopenmp", main, *link, "-o", "prog")
        got = t.run(["./prog"]).stdout
        check(got == "used=6\n", "unexpected output %r" % got)
        inits = init_functions(t.nm("prog"))
        check(used_init <= inits,
              "the archive member's POMP_Init_* is not in the program (%s)"
              % " ".join(link))
        check(not (unused_init & inits),
              "an unneeded archive member was pulled into the program (%s)"
              % " ".join(link))
    # pomp-link found the member's init function (weak reference).
    p = t.run([t.opts.pomp_link, "--keep", t.cc, "-fopenmp", main,
               "lib/libparts.a", "-o", "prog2"])
    m = re.search(r"kept in '([^']+)'", p.stderr)
    check(m, "pomp-link --keep did not say where: %r" % p.stderr)
    with open(os.path.join(m.group(1), "pompt_init.c")) as f:
        unit = f.read()
    for name in used_init | unused_init:
        check(re.search(r"extern void %s\(void\) __attribute__\(\(weak\)\);"
                        % name, unit),
              "%s is not declared weak in pompt_init.c:\n%s" % (name, unit))
    shutil.rmtree(m.group(1))
    t.check_tmp_empty()


def read_deps(path):
    with open(path) as f:
        text = f.read().replace("\\\n", " ")
    target, _, prereqs = text.partition(":")
    return target.strip(), prereqs.split()


def case_depfile(t):
    """(4) -MD/-MMD dependency files name the user's source and object."""
    t.write("dep.h", DEP_H)
    src = t.write("dep.c", DEP_C)
    os.mkdir(os.path.join(t.build, "obj"))
    os.mkdir(os.path.join(t.build, "deps"))
    t.pomp_cc(t.cc, "-fopenmp", "-MD", "-MF", "deps/dep.d", "-c", src,
              "-o", "obj/dep.o")
    target, prereqs = read_deps(os.path.join(t.build, "deps/dep.d"))
    check(target == "obj/dep.o", "dependency target is %r" % target)
    check(prereqs[0] == src, "first prerequisite is %r, not the source %r"
          % (prereqs[0], src))
    check(os.path.join(t.src, "dep.h") in prereqs,
          "the user's header is not a prerequisite: %s" % prereqs)
    check(not any(t.tmp in p for p in prereqs),
          "a temporary file is named: %s" % prereqs)
    # -MMD with the default file name, beside the object
    t.pomp_cc(t.cc, "-fopenmp", "-MMD", "-c", src, "-o", "obj/dep2.o")
    target, prereqs = read_deps(os.path.join(t.build, "obj/dep2.d"))
    check(target == "obj/dep2.o", "-MMD: dependency target is %r" % target)
    check(prereqs[0] == src and os.path.join(t.src, "dep.h") in prereqs,
          "-MMD: prerequisites %s" % prereqs)
    check(not any(p.startswith("/usr/include") for p in prereqs),
          "-MMD lists system headers: %s" % prereqs)
    # -MT is the user's
    t.pomp_cc(t.cc, "-fopenmp", "-MD", "-MT", "custom", "-c", src)
    target, _ = read_deps(os.path.join(t.build, "dep.d"))
    check(target == "custom", "-MT: dependency target is %r" % target)
    t.check_tmp_empty()


def case_compile_error(t):
    """(5) a compile error: the compiler's message, status, no object."""
    src = t.write("bad.c", BAD_C)
    before = sorted(os.listdir(t.build))
    p = t.pomp_cc(t.cc, "-fopenmp", "-c", src, "-o", "bad.o", expect=None)
    check(p.returncode != 0, "pomp-cc succeeded on a broken file")
    check(re.search(r"bad\.c:3:\d+: error:", p.stderr),
          "the error does not point at bad.c:3: %r" % p.stderr)
    check("undeclared_name" in p.stderr, "compiler message missing")
    check(sorted(os.listdir(t.build)) == before,
          "files left behind: %s" % os.listdir(t.build))
    # compile and link: no program either
    p = t.pomp_cc(t.cc, "-fopenmp", src, "-o", "prog", expect=None)
    check(p.returncode != 0, "pomp-cc succeeded on a broken file")
    check(sorted(os.listdir(t.build)) == before,
          "files left behind: %s" % os.listdir(t.build))
    # an earlier object is left as it was
    ok = t.write("ok.c", "int ok(void) { return 1; }\n")
    t.pomp_cc(t.cc, "-c", ok, "-o", "bad.o")
    st = os.stat(os.path.join(t.build, "bad.o"))
    p = t.pomp_cc(t.cc, "-c", src, "-o", "bad.o", expect=None)
    check(p.returncode != 0, "pomp-cc succeeded on a broken file")
    st2 = os.stat(os.path.join(t.build, "bad.o"))
    check((st.st_ino, st.st_mtime_ns) == (st2.st_ino, st2.st_mtime_ns),
          "the existing object was touched by a failed compile")
    check(sorted(os.listdir(t.build)) == sorted(before + ["bad.o"]),
          "files left behind: %s" % os.listdir(t.build))
    t.check_tmp_empty()


def case_missing_compiler(t):
    """(6) a compiler that does not exist."""
    src = t.write("x.c", "int x;\n")
    p = t.pomp_cc("no-such-compiler-pompt", "-c", src, expect=None)
    check(p.returncode == 127, "exit status %d, not 127" % p.returncode)
    check("no-such-compiler-pompt" in p.stderr
          and "No such file" in p.stderr,
          "unclear message: %r" % p.stderr)
    p = t.pomp_cc("no-such-compiler-pompt", src, "-o", "prog", expect=None)
    check(p.returncode == 127, "exit status %d, not 127" % p.returncode)
    p = t.pomp_cc(expect=None)
    check(p.returncode != 0 and "no compiler" in p.stderr,
          "no compiler: %d %r" % (p.returncode, p.stderr))
    check(not os.listdir(t.build), "files left: %s" % os.listdir(t.build))
    t.check_tmp_empty()


def case_serial(t):
    """(7) without -fopenmp: linked with libpompt-stubs, serial semantics."""
    src = t.write("serial.c", SERIAL_C)
    t.pomp_cc(t.cc, "-O1", src, "-o", "prog")
    got = t.run(["./prog"]).stdout
    check(got == "threads=1 id=0 in_parallel=0\n", "output %r" % got)
    # separately compiled and linked, too
    t.pomp_cc(t.cc, "-c", src, "-o", "serial.o")
    t.pomp_cc(t.cc, "serial.o", "-o", "prog2")
    got = t.run(["./prog2"]).stdout
    check(got == "threads=1 id=0 in_parallel=0\n", "output %r" % got)
    t.check_tmp_empty()


def case_show(t):
    """(8) --show prints the commands and runs nothing."""
    src = t.write("x.c", WORK_C)
    p = t.pomp_cc("--show", t.cc, "-fopenmp", "-O2", "-DFOO=1", "-c", src,
                  "-o", "x.o")
    lines = p.stdout.splitlines()
    check(len(lines) == 3, "expected 3 commands, got %r" % lines)
    check(lines[0].startswith(t.cc + " ") and " -E " in lines[0]
          and "pomp.h" in lines[0] and "-DFOO=1" in lines[0]
          and src in lines[0], "step 1: %r" % lines[0])
    check("pomp-instr" in lines[1].split()[0] and "--lang c" in lines[1],
          "step 2: %r" % lines[1])
    check(lines[2].startswith(t.cc + " ") and "-x cpp-output" in lines[2]
          and "-fopenmp" in lines[2] and "-DFOO" not in lines[2]
          and lines[2].endswith(" -c -o x.o"), "step 3: %r" % lines[2])
    check(not os.listdir(t.build), "--show wrote %s" % os.listdir(t.build))
    # compile and link: the three steps and pomp-link
    p = t.pomp_cc("--show", t.cc, "-fopenmp", src, "-o", "prog")
    lines = p.stdout.splitlines()
    check(len(lines) == 4 and "pomp-link" in lines[3].split()[0]
          and lines[3].endswith(" -o prog"), "link: %r" % lines)
    # quoting
    p = t.pomp_cc("--show", t.cc, "-DMSG=\"a b\"", "-c", src)
    check("'-DMSG=\"a b\"'" in p.stdout, "not shell-quoted: %r" % p.stdout)
    # pomp-link --show
    p = t.run([t.opts.pomp_link, "--show", t.cc, "-fopenmp", "a.o", "b.o",
               "-o", "prog"])
    lines = p.stdout.splitlines()
    check(len(lines) == 3 and lines[0].startswith("nm ")
          and "pompt_init.c" in lines[1] and "-lpompt" in lines[2],
          "pomp-link --show: %r" % lines)
    check(not os.listdir(t.build), "--show wrote %s" % os.listdir(t.build))
    t.check_tmp_empty()


def case_source_tree(t):
    """(9) the source directory is unchanged by builds."""
    main = t.write("main.c", MAIN_C)
    work = t.write("sub/work.c", WORK_C)
    t.write("dep.h", DEP_H)
    dep = t.write("dep.c", DEP_C)
    before = snapshot(t.src)
    t.pomp_cc(t.cc, "-fopenmp", "-g", "-MMD", main, work, "-o", "prog")
    t.pomp_cc(t.cc, "-fopenmp", "-c", "-MD", dep, "-o", "dep.o")
    t.pomp_cc(t.cc, "-fopenmp", "-S", dep)
    t.pomp_cc(t.cc, "-fopenmp", "-c", main, cwd=t.build,
              env={"POMPT_KEEP": "0"})
    after = snapshot(t.src)
    check(before == after, "the source tree changed:\n%s\n%s"
          % (sorted(before), sorted(after)))
    # builds run inside the source directory write only their outputs
    t.pomp_cc(t.cc, "-fopenmp", "-c", "main.c", cwd=t.src)
    after = snapshot(t.src)
    check(set(after) - set(before) == {"main.o"},
          "unexpected files: %s" % (set(after) - set(before)))
    t.check_tmp_empty()


def case_cxx(t):
    """C++ sources with a C++ driver."""
    if not t.opts.cxx:
        print("no C++ compiler; skipped")
        raise SystemExit(SKIP)
    main = t.write("main.cc", MAIN_CC)
    work = t.write("work.cpp", WORK_CC)
    want = plain_build(t, [main, work], "./plain", compiler=t.opts.cxx)
    t.pomp_cc(t.opts.cxx, "-fopenmp", "-std=c++17", main, work, "-o", "prog")
    got = t.run(["./prog"]).stdout
    check(got == want, "output differs: %r vs plain %r" % (got, want))
    check(len(init_functions(t.nm("prog"))) >= 2, "no POMP_Init_*")
    p = t.pomp_cc("--show", t.opts.cxx, "-fopenmp", "-c", main)
    check("--lang c++" in p.stdout and "c++-cpp-output" in p.stdout,
          "C++ steps: %r" % p.stdout)
    t.check_tmp_empty()


def case_strict_modes(t):
    """A unit's own feature-test macros, defined at its top, still decide
    what libc's headers declare (pomp-cc's forced pomp.h includes no libc
    header ahead of them), and pomp.h stays quiet in strict ISO C90."""
    src = t.write("gnu.c", r"""#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(void) {
  Dl_info info; /* <dlfcn.h> declares it only with _GNU_SOURCE */
  long n = 0;
#pragma omp parallel for reduction(+ : n)
  for (long i = 0; i < 100; i++)
    n += i;
  char *s = strdup("x");
  printf("%d %ld %s\n", dladdr((void *)main, &info) != 0, n, s);
  free(s);
  return 0;
}
""")
    want = plain_build(t, [src], "./plain", flags=("-fopenmp", "-std=c99"))
    t.pomp_cc(t.cc, "-fopenmp", "-std=c99", "-Wall", "-Wextra",
              "-Werror=implicit-function-declaration", src, "-o", "prog",
              "-ldl")
    got = t.run(["./prog"]).stdout
    check(got == want == "1 4950 x\n", "output %r, plain %r" % (got, want))
    # POSIX, strictly: strdup needs _POSIX_C_SOURCE under -std=c99.
    src = t.write("posix.c", r"""#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(void) {
  int n = 0;
#pragma omp parallel reduction(+ : n)
  n++;
  char *s = strdup("y");
  printf("%s %d\n", s, n > 0);
  free(s);
  return 0;
}
""")
    t.pomp_cc(t.cc, "-fopenmp", "-std=c99", "-pedantic-errors",
              "-Werror=implicit-function-declaration", src, "-o", "prog2")
    got = t.run(["./prog2"]).stdout
    check(got == "y 1\n", "output %r" % got)
    # C90, pedantic: pomp.h's inline entries (master, atomic, critical) and
    # the inserted code with every warning an error.
    src = t.write("c90.c", r"""#include <stdio.h>
#include <omp.h>

int main(void) {
  int i, n = 0, x = 0;
  omp_lock_t l;
  omp_init_lock(&l);
#pragma omp parallel
  {
#pragma omp master
    n++;
#pragma omp critical
    n++;
#pragma omp atomic
    x++;
#pragma omp for
    for (i = 0; i < 10; i++)
      x += 0;
#pragma omp single
    {
#pragma omp task
      n++;
#pragma omp taskwait
    }
    omp_set_lock(&l);
    omp_unset_lock(&l);
#pragma omp barrier
  }
  omp_destroy_lock(&l);
  printf("%d\n", n > 0 && x > 0);
  return 0;
}
""")
    t.pomp_cc(t.cc, "-fopenmp", "-ansi", "-pedantic-errors", "-Wall",
              "-Wextra", "-Werror", src, "-o", "prog3")
    got = t.run(["./prog3"]).stdout
    check(got == "1\n", "output %r" % got)
    t.check_tmp_empty()


def case_keep(t):
    """--keep / POMPT_KEEP keep the intermediate files and say where."""
    src = t.write("x.c", WORK_C)
    p = t.pomp_cc(t.cc, "-fopenmp", "-c", src, env={"POMPT_KEEP": "1"})
    m = re.search(r"kept in '([^']+)'", p.stderr)
    check(m, "no note about kept files: %r" % p.stderr)
    kept = sorted(os.listdir(m.group(1)))
    check(any(f.endswith(".pomp.i") for f in kept)
          and any(f.endswith(".i") and not f.endswith(".pomp.i")
                  for f in kept), "kept: %s" % kept)
    shutil.rmtree(m.group(1))
    p = t.pomp_cc("--keep", t.cc, "-fopenmp", "-c", src)
    check("kept in" in p.stderr, "--keep: %r" % p.stderr)
    shutil.rmtree(re.search(r"kept in '([^']+)'", p.stderr).group(1))
    t.check_tmp_empty()


def case_modes(t):
    """-S, -E, -M and friends, --version, response files, stdin."""
    src = t.write("x.c", WORK_C)
    t.pomp_cc(t.cc, "-fopenmp", "-S", src)
    with open(os.path.join(t.build, "x.s")) as f:
        check("POMP_Init_" in f.read(), "-S output is not instrumented")
    # -E and -M run the compiler unchanged
    for flags in (["-E"], ["-M"], ["-MM"], ["-E", "-dM"]):
        want = t.run([t.cc, "-fopenmp"] + flags + [src]).stdout
        got = t.pomp_cc(t.cc, "-fopenmp", *flags, src).stdout
        check(got == want, "%s output differs" % flags)
    p = t.pomp_cc("--version")
    check(p.stdout.startswith("pomp-cc (pompt) "), "--version: %r" % p.stdout)
    check(t.pomp_cc(t.cc, "--version").stdout
          == t.run([t.cc, "--version"]).stdout, "compiler --version")
    # a response file with flags and the source
    rsp = os.path.join(t.build, "args.rsp")
    with open(rsp, "w") as f:
        f.write("-fopenmp '-DNAME=\"a b\"' -c\n%s -o rsp.o\n" % src)
    t.pomp_cc(t.cc, "@" + rsp)
    check(init_functions(t.nm("rsp.o")), "response file: not instrumented")
    # link objects listed in a response file
    main = t.write("main.c", MAIN_C)
    t.pomp_cc(t.cc, "-fopenmp", "-c", main)
    with open(os.path.join(t.build, "link.rsp"), "w") as f:
        f.write("main.o rsp.o\n")
    t.pomp_cc(t.cc, "-fopenmp", "@link.rsp", "-o", "prog")
    check(t.run(["./prog"]).stdout == "hits=2 work=4950\n", "rsp link")
    check(len(init_functions(t.nm("prog"))) == 2, "rsp link: inits")
    # -c with -o and two sources is refused
    p = t.pomp_cc(t.cc, "-c", src, main, "-o", "two.o", expect=None)
    check(p.returncode != 0 and "multiple files" in p.stderr,
          "-c -o with two files: %r" % p.stderr)
    # source from standard input
    p = subprocess.run([t.opts.pomp_cc, t.cc, "-fopenmp", "-x", "c", "-c",
                        "-", "-o", "stdin.o"], input=WORK_C, cwd=t.build,
                       env=t.env, universal_newlines=True,
                       stderr=subprocess.PIPE)
    check(p.returncode == 0, "stdin: %r" % p.stderr)
    check(init_functions(t.nm("stdin.o")), "stdin: not instrumented")
    # an assembler source is compiled unchanged and linked
    asm = t.write("val.s", ".globl asm_val\n.text\nasm_val:\n"
                  "  movl $5, %eax\n  ret\n"
                  ".section .note.GNU-stack,\"\",@progbits\n")
    amain = t.write("amain.c", "#include <stdio.h>\nint asm_val(void);\n"
                    "int main(void) { printf(\"%d\\n\", asm_val()); }\n")
    t.pomp_cc(t.cc, "-fopenmp", amain, asm, "-o", "aprog")
    check(t.run(["./aprog"]).stdout == "5\n", "assembler input")
    t.check_tmp_empty()


def case_shared(t):
    """A shared library and a program, each with its own init unit."""
    lib = t.write("shlib.c", SHLIB_C)
    main = t.write("shmain.c", SHMAIN_C)
    t.pomp_cc(t.cc, "-fopenmp", "-fPIC", "-shared", lib, "-o", "libsh.so")
    t.pomp_cc(t.cc, "-fopenmp", main, "-L.", "-lsh", "-Wl,-rpath,$ORIGIN",
              "-o", "prog")
    check(t.run(["./prog"]).stdout == "v=2 shlib=4\n", "shared library")
    dyn = t.run(["nm", "-D", "--defined-only", "libsh.so"]).stdout
    check("POMP_Init_Handles" not in dyn,
          "POMP_Init_Handles is exported from the shared library")
    t.check_tmp_empty()


def case_parallel(t):
    """Parallel builds of the same source do not collide."""
    src = t.write("x.c", WORK_C)
    procs = [subprocess.Popen([t.opts.pomp_cc, t.cc, "-fopenmp", "-c", src,
                               "-o", "x%d.o" % i], cwd=t.build, env=t.env,
                              stderr=subprocess.PIPE)
             for i in range(8)]
    for p in procs:
        _, err = p.communicate()
        check(p.returncode == 0, "parallel compile failed: %r" % err)
    ref = init_functions(t.nm("x0.o"))
    for i in range(8):
        check(init_functions(t.nm("x%d.o" % i)) == ref,
              "x%d.o differs" % i)
    t.check_tmp_empty()


def case_timing(t):
    """Reports pomp-cc -c against the plain compiler (no pass/fail)."""
    src = t.write("x.c", WORK_C)
    n = 5

    def best(args):
        times = []
        for _ in range(n):
            start = time.perf_counter()
            t.run(args)
            times.append(time.perf_counter() - start)
        return min(times)

    plain = best([t.cc, "-fopenmp", "-O2", "-c", src, "-o", "plain.o"])
    pomp = best([t.opts.pomp_cc, t.cc, "-fopenmp", "-O2", "-c", src, "-o",
                 "pomp.o"])
    print("plain %s -c: %.1f ms; pomp-cc: %.1f ms" % (t.cc, plain * 1e3,
                                                      pomp * 1e3))


# ---- more sources ---------------------------------------------------------------

FLAGS_MAIN_C = r"""
#include <stdio.h>
#include <omp.h>
#include "quote.h"
#include <sys_only.h>
#include "plain.h"
#ifdef UNDEFINED_BY_U
#error "-U did not reach the preprocessor"
#endif
int helper_cc(int);   /* C++, extern "C" */
int from_object(int); /* a separately compiled object */
int from_archive(int);
int from_txt(int);    /* compiled with -x c */
int main(void) {
  int hits = 0;
#pragma omp parallel reduction(+ : hits) num_threads(2)
  hits += FORCED + QUOTE + SYS + PLAIN;
  printf("hits=%d str=%s msg=%s std=%ld cc=%d obj=%d ar=%d txt=%d\n", hits,
         STR, MSG, (long)__STDC_VERSION__, helper_cc(2), from_object(3),
         from_archive(4), from_txt(5));
  return 0;
}
"""

FLAGS_HELPER_CC = r"""
extern "C" int helper_cc(int x) {
  int r = 0;
#pragma omp parallel for reduction(+ : r) num_threads(2)
  for (int i = 0; i < x; i++)
    r += 1;
  return r;
}
"""

FLAGS_OBJ_C = r"""
int from_object(int x) {
  int r = 0;
#pragma omp parallel reduction(+ : r) num_threads(2)
  r += x;
  return r / 2;
}
"""

FLAGS_AR_C = r"""
int from_archive(int x) {
  int r = 0;
#pragma omp parallel for reduction(+ : r) num_threads(2)
  for (int i = 0; i < x; i++)
    r += 1;
  return r;
}
"""

FLAGS_TXT = r"""
int from_txt(int x) {
  int r = 0;
#pragma omp parallel reduction(+ : r) num_threads(2)
  r += x;
  return r / 2;
}
"""

# Every kind of construct the instrumenter handles, once each, for the
# serial-stub comparison.
ALL_CONSTRUCTS_C = r"""
#include <omp.h>
#include <stdio.h>
int main(void) {
  long sum = 0;
  int single = 0, crit = 0, sec = 0, master = 0;
#pragma omp parallel
  {
#pragma omp for reduction(+ : sum) schedule(dynamic, 4)
    for (int i = 0; i < 100; i++)
      sum += i;
#pragma omp single
    single++;
#pragma omp critical
    crit++;
#pragma omp barrier
#pragma omp master
    master++;
#pragma omp sections
    {
#pragma omp section
      sec += 1;
#pragma omp section
      sec += 2;
    }
  }
#pragma omp parallel for reduction(+ : sum)
  for (int i = 0; i < 10; i++)
    sum += i;
#pragma omp parallel sections
  {
#pragma omp section
    sec += 4;
  }
  printf("sum=%ld single=%d crit=%d sec=%d master=%d threads=%d\n", sum,
         single, crit, sec, master, omp_get_max_threads());
  return 0;
}
"""

PLUGIN_C = r"""
#include <stddef.h>
int plugin_sum(int n) {
  int s = 0;
#pragma omp parallel for reduction(+ : s)
  for (int i = 0; i < n; i++)
    s += i;
  return s;
}
int plugin_count(void) {
  int c = 0;
#pragma omp parallel
  {
#pragma omp critical
    c++;
  }
  return c;
}
/* Whether the handles of the unit's three constructs are set.  pompt_d_<N>
 * are the construct descriptors pomp-instr declares before the unit's own
 * text (doc/instrumentation.md, "Names"). */
int plugin_ready(void) {
  return pompt_d_1.handle != NULL && pompt_d_2.handle != NULL &&
         pompt_d_3.handle != NULL;
}
"""

HOST_C = r"""
#include <dlfcn.h>
#include <stdio.h>
static int run(const char *path, int round) {
  void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  if (!h) {
    fprintf(stderr, "dlopen: %s\n", dlerror());
    return 1;
  }
  int (*ready)(void) = (int (*)(void))dlsym(h, "plugin_ready");
  int (*sum)(int) = (int (*)(int))dlsym(h, "plugin_sum");
  int (*count)(void) = (int (*)(void))dlsym(h, "plugin_count");
  if (!ready || !sum || !count) {
    fprintf(stderr, "dlsym: %s\n", dlerror());
    return 1;
  }
  int before = ready();
  int s = sum(100), c = count();
  printf("round=%d before=%d sum=%d count=%d after=%d\n", round, before, s,
         c, ready());
  return dlclose(h);
}
int main(int argc, char **argv) {
  int hits = 0;
#ifndef NO_HOST_CONSTRUCT
#pragma omp parallel reduction(+ : hits)
  hits++;
#endif
  if (argc < 2)
    return 2;
  if (run(argv[1], 1) != 0 || run(argv[1], 2) != 0)
    return 1;
  printf("hits=%d\n", hits);
  return 0;
}
"""


def lazy_source(rounds):
    """Constructs that all threads of a team meet for the first time at the
    same moment (they line up in a spin loop written without OpenMP)."""
    out = [r"""
#include <omp.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
static atomic_int arrived[%d];
static void line_up(int k) {
  int n = omp_get_num_threads();
  atomic_fetch_add(&arrived[k], 1);
  while (atomic_load(&arrived[k]) < n)
    sched_yield();
}
int main(void) {
  long total = 0;
  int crit = 0, named = 0, singles = 0, sec1 = 0, sec2 = 0;
#pragma omp parallel
  {
""" % (6 * rounds)]
    for r in range(rounds):
        k = 6 * r
        out.append(r"""
    line_up(%d);
#pragma omp for reduction(+ : total)
    for (int i = 0; i < 100; i++)
      total += i;
    line_up(%d);
#pragma omp critical
    crit++;
    line_up(%d);
#pragma omp single
    singles++;
    line_up(%d);
#pragma omp barrier
    line_up(%d);
#pragma omp sections
    {
#pragma omp section
      sec1++;
#pragma omp section
      sec2++;
    }
    line_up(%d);
#pragma omp critical(lazy_named)
    named++;
""" % (k, k + 1, k + 2, k + 3, k + 4, k + 5))
    out.append(r"""
  }
  printf("total=%ld crit=%d named=%d singles=%d sec=%d,%d\n", total, crit,
         named, singles, sec1, sec2);
  return 0;
}
""")
    return "".join(out)


# ---- helpers ------------------------------------------------------------------

def tool_counts(t, args, tool, threads, env=None, cwd=None):
    """Runs args under an OMPT tool; returns (stdout, stderr, counts) from
    the check tool's "check: counts" or the print tool's "ompt: summary"."""
    e = {"OMP_NUM_THREADS": str(threads), "OMP_TOOL_LIBRARIES": tool}
    if env:
        e.update(env)
    p = t.run(args, env=e, cwd=cwd)
    m = re.search(r"^(?:check: counts|ompt: summary) (.*)$", p.stderr, re.M)
    check(m, "no counts from the tool; stderr:\n%s" % p.stderr[-3000:])
    check("check: ERROR" not in p.stderr,
          "the check tool found errors:\n%s" % p.stderr[-3000:])
    counts = {k: int(v) for k, v in
              (kv.split("=", 1) for kv in m.group(1).split())}
    return p.stdout, p.stderr, counts


def need_tool(t, which):
    path = getattr(t.opts, which)
    if not path or not os.path.exists(path):
        print("no --%s (%s); skipped" % (which.replace("_", "-"), path))
        raise SystemExit(SKIP)
    return path


def build_root():
    root = os.environ.get("POMPT_BUILD_ROOT")
    if not root or not os.path.exists(os.path.join(root, "libpompt.so")):
        print("POMPT_BUILD_ROOT does not hold libpompt.so; skipped")
        raise SystemExit(SKIP)
    return root


def fake_program(t, name, script):
    """An executable shell script bin/<name>; returns the bin folder."""
    d = os.path.join(t.root, "bin")
    os.makedirs(d, exist_ok=True)
    path = os.path.join(d, name)
    with open(path, "w") as f:
        f.write("#!/bin/sh\n" + script)
    os.chmod(path, 0o755)
    return d


# ---- more cases ------------------------------------------------------------

def case_flags(t):
    """Preprocessor flags, quoting, -x, mixed inputs, unknown flags: the
    program behaves as the plain compiler's build of the same command."""
    if not t.opts.cxx:
        print("no C++ compiler; skipped")
        raise SystemExit(SKIP)
    main = t.write("main.c", FLAGS_MAIN_C)
    helper = t.write("helper.cc", FLAGS_HELPER_CC)
    t.write("inc/forced.h", "#define FORCED 1\n")
    t.write("q/quote.h", "#define QUOTE 10\n")
    t.write("sys/sys_only.h", "#define SYS 100\n")
    t.write("i/plain.h", "#define PLAIN 1000\n")
    txt = t.write("prog.txt", FLAGS_TXT)
    objsrc = t.write("obj.c", FLAGS_OBJ_C)
    arsrc = t.write("ar.c", FLAGS_AR_C)
    for d in ("plain", "pomp"):
        os.mkdir(os.path.join(t.build, d))
    rsp = os.path.join(t.build, "flags.rsp")
    with open(rsp, "w") as f:
        f.write("-DMSG='\"x y\"' -iquote %s\n" % os.path.join(t.src, "q"))

    def build(driver, d):
        cwd = os.path.join(t.build, d)
        t.run(driver + [t.cc, "-fopenmp", "-O2", "-c", objsrc, "-o", "obj.o"],
              cwd=cwd)
        t.run(driver + [t.cc, "-fopenmp", "-fPIC", "-c", arsrc, "-o",
                        "ar.o"], cwd=cwd)
        t.run(["ar", "rcs", "libarch.a", "ar.o"], cwd=cwd)
        t.run(driver + [
            t.cc, "-o", "prog", "-fopenmp", "-O2", "-g3", "-pipe",
            "-fno-strict-aliasing", "-fdiagnostics-color=never",
            "-fstack-protector-strong", "-ffunction-sections",
            "-Wall", "-std=gnu11", "-D_FORTIFY_SOURCE=2",
            "-include", os.path.join(t.src, "inc", "forced.h"),
            "-isystem", os.path.join(t.src, "sys"),
            "-I" + os.path.join(t.src, "i"), "-DUNDEFINED_BY_U=1",
            "-UUNDEFINED_BY_U",
            "-DSTR=\"a b\"", "@" + rsp,
            main, helper, "-x", "c", txt, "-x", "none", "obj.o",
            "-L.", "-larch", "-lm", "-Wl,--gc-sections,-O1",
            "-Wl,--as-needed", "-lstdc++"], cwd=cwd)
        return t.run(["./prog"], cwd=cwd).stdout

    want = build([], "plain")
    got = build([t.opts.pomp_cc], "pomp")
    check(got == want, "output %r, plain compiler %r" % (got, want))
    check(got.startswith("hits=2222 str=a b msg=x y std=201112 cc=2 obj=3 "
                         "ar=4 txt=5"), "unexpected output %r" % got)
    inits = init_functions(t.nm(os.path.join(t.build, "pomp", "prog")))
    check(len(inits) == 5, "expected 5 instrumented units in the program "
          "(main, helper, prog.txt, object, archive member): %s"
          % sorted(inits))
    # -c with several sources writes one object each, all instrumented.
    cwd = os.path.join(t.build, "pomp")
    t.pomp_cc(t.cc, "-fopenmp", "-c", objsrc, arsrc, cwd=cwd)
    for obj in ("obj.o", "ar.o"):
        check(init_functions(t.nm(os.path.join(cwd, obj))),
              "%s is not instrumented" % obj)
    t.check_tmp_empty()


def case_names(t):
    """pomp-cc writes the files the plain compiler writes, by the same
    names, for many command lines."""
    src = t.write("x.c", WORK_C)
    main = t.write("main.c", MAIN_C)
    commands = [
        ["-c", src],
        ["-c", src, "-o", "out/obj.o"],
        ["-S", src],
        ["-S", src, "-o", "out/x.s"],
        ["-c", src, main],
        ["-MD", "-c", src],
        ["-MMD", "-c", src, "-o", "out/y.o"],
        ["-MD", "-MF", "out/z.dep", "-c", src],
        ["-MD", src, main, "-o", "out/prog"],
        ["-MMD", src, main],
        ["--coverage", "-c", src, "-o", "out/cov.o"],
        ["--coverage", src, main, "-o", "out/covprog"],
        ["-gsplit-dwarf", "-g", "-c", src, "-o", "out/split.o"],
        ["-gsplit-dwarf", "-g", src, main, "-o", "out/splitprog"],
        ["-fstack-usage", "-c", src, "-o", "out/su.o"],
        ["-E", src, "-o", "out/pre.i"],
        ["-M", src, "-MF", "out/m.d"],
        ["-save-temps", "-c", src],
        ["-save-temps", "-c", src, "-o", "out/y.o"],
        ["-save-temps", src, main, "-o", "out/prog"],
        ["-save-temps=obj", "-c", src, "-o", "out/z.o"],
    ]
    for n, args in enumerate(commands):
        results = {}
        for who in ("plain", "pomp"):
            d = os.path.join(t.build, "%d-%s" % (n, who))
            os.makedirs(os.path.join(d, "out"))
            driver = [t.opts.pomp_cc] if who == "pomp" else []
            t.run(driver + [t.cc, "-fopenmp"] + args, cwd=d)
            results[who] = sorted(os.path.relpath(os.path.join(r, f), d)
                                  for r, _, fs in os.walk(d) for f in fs)
        check(results["pomp"] == results["plain"],
              "%s: pomp-cc wrote %s, the compiler %s"
              % (" ".join(args), results["pomp"], results["plain"]))
    # The dependency files name the same target and files, and pomp.h (a
    # dependency indeed: the objects must be rebuilt when it changes) with
    # the system headers it includes.
    for n in (5, 6, 8, 9):
        for f in glob.glob(os.path.join(t.build, "%d-pomp" % n, "**", "*.d"),
                           recursive=True):
            plain = f.replace("%d-pomp" % n, "%d-plain" % n)
            target, prereqs = read_deps(f)
            ptarget, pprereqs = read_deps(plain)
            what = os.path.relpath(f, t.build)
            check(target == ptarget and prereqs[0] == pprereqs[0],
                  "%s: %s: %s, the compiler's %s: %s" % (what, target,
                                                         prereqs[0], ptarget,
                                                         pprereqs[0]))
            extra = set(prereqs) - set(pprereqs)
            check(set(pprereqs) <= set(prereqs)
                  and all(p.endswith("/pomp.h") or p.startswith("/usr/")
                          for p in extra),
                  "%s: missing %s, extra %s" % (what,
                                                set(pprereqs) - set(prereqs),
                                                extra))
    t.check_tmp_empty()


def case_clang(t):
    """clang as the compiler: LLVM's libomp has native OMPT, libpompt
    stands down, the program builds and runs and the tool sees it."""
    cc = shutil.which("clang-14")
    cxx = shutil.which("clang++-14")
    if not cc or not cxx:
        print("clang-14 not found; skipped")
        raise SystemExit(SKIP)
    tool = need_tool(t, "print_tool")
    main = t.write("main.c", MAIN_C)
    work = t.write("work.c", WORK_C)
    t.pomp_cc("clang-14", "-fopenmp", "-O2", main, work, "-o", "prog")
    out, err, counts = tool_counts(t, ["./prog"], tool, 2,
                                   env={"OMP_TOOL_VERBOSE_INIT": "stderr"})
    check(out == "hits=2 work=4950\n", "output %r" % out)
    check(counts.get("parallel_begin") == 2, "counts: %s" % counts)
    check(len(init_functions(t.nm("prog"))) == 2, "not instrumented")
    ldd = t.run(["ldd", "prog"]).stdout
    check("libomp" in ldd and "libgomp" not in ldd,
          "clang's program does not run on libomp:\n%s" % ldd)
    # C++, a shared library, separate compile and link
    lib = t.write("shlib.cc", "extern \"C\" " + SHLIB_C.strip() + "\n")
    t.pomp_cc("clang++-14", "-fopenmp", "-fPIC", "-shared", lib, "-o",
              "libsh.so")
    t.pomp_cc("clang-14", "-fopenmp", "-c", t.write("shmain.c", SHMAIN_C))
    t.pomp_cc("clang-14", "-fopenmp", "shmain.o", "-L.", "-lsh",
              "-Wl,-rpath,$ORIGIN", "-o", "shprog")
    out, _, counts = tool_counts(t, ["./shprog"], tool, 2)
    check(out == "v=2 shlib=4\n", "output %r" % out)
    check(counts.get("parallel_begin") == 2, "counts: %s" % counts)
    t.check_tmp_empty()


def case_lazy(t):
    """Linked without pomp-link (plain compiler, -lpompt): handles are
    initialised on first use, also when every thread of a team meets a
    construct for the first time at once."""
    tool = need_tool(t, "check_tool")
    root = build_root()
    rounds = 4
    src = t.write("lazy.c", lazy_source(rounds))
    t.pomp_cc(t.cc, "-fopenmp", "-O2", "-c", src, "-o", "lazy.o")
    t.run([t.cc, "-fopenmp", "lazy.o", "-o", "lazy", "-L" + root,
           "-Wl,--no-as-needed", "-lpompt", "-Wl,-rpath," + root])
    syms = t.nm("lazy")
    check("POMP_Init_Handles" not in syms and "pompt_init_handles" not in syms,
          "the program was linked with an init unit")
    r = rounds
    for n in (2, 4, 8):
        expect = {
            "thread_begin": n, "parallel_begin": 1, "implicit_task_begin": n,
            "work_loop": r * n, "work_sections": r * n,
            "dispatch_section": 2 * r, "work_single_executor": r,
            "work_single_other": r * (n - 1), "barrier_explicit": r * n,
            "barrier_implicit_workshare": 3 * r * n,
            "barrier_implicit_parallel": n, "mutex_acquire": 2 * r * n,
            "mutex_acquired": 2 * r * n, "mutex_released": 2 * r * n,
        }
        for _ in range(3):
            out, _, counts = tool_counts(t, ["./lazy"], tool, n)
            check(out == "total=%d crit=%d named=%d singles=%d sec=%d,%d\n"
                  % (4950 * r, r * n, r * n, r, r, r), "output %r" % out)
            bad = {k: (counts.get(k), v) for k, v in expect.items()
                   if counts.get(k) != v}
            check(not bad, "%d threads: counts (got, expected): %s"
                  % (n, bad))
    t.check_tmp_empty()


FORTRAN_F90 = r"""program fprog
  use omp_lib
  implicit none
  integer :: i, n, total, locked
  integer :: a(100)
  integer(omp_lock_kind) :: lck
  integer(omp_nest_lock_kind) :: nlck
  total = 0
  n = 0
  locked = 0
  call omp_init_lock(lck)
  call omp_init_nest_lock(nlck)
  !$omp parallel shared(a, n, locked)
  !$omp do schedule(static)
  do i = 1, 100
    a(i) = i
  end do
  !$omp end do
  !$omp barrier
  !$omp single
  !$omp task shared(n)
  n = n + 1
  !$omp end task
  !$omp taskwait
  !$omp taskgroup
  !$omp task shared(n)
  n = n + 1
  !$omp end task
  !$omp end taskgroup
  !$omp end single
  !$omp do schedule(dynamic, 7)
  do i = 1, 100
    a(i) = a(i) + 1
  end do
  !$omp end do
  !$omp sections
  !$omp section
  a(1) = a(1) + 1
  !$omp section
  a(2) = a(2) + 1
  !$omp end sections
  !$omp critical
  total = total + 1
  !$omp end critical
  !$omp critical (fname)
  total = total + 1
  !$omp end critical (fname)
  call omp_set_lock(lck)
  locked = locked + 1
  call omp_unset_lock(lck)
  call omp_set_nest_lock(nlck)
  call omp_set_nest_lock(nlck)
  locked = locked + 1
  call omp_unset_nest_lock(nlck)
  call omp_unset_nest_lock(nlck)
  !$omp end parallel
  call omp_destroy_lock(lck)
  call omp_destroy_nest_lock(nlck)
  total = 0
  !$omp parallel do reduction(+:total) schedule(dynamic, 5)
  do i = 1, 100
    total = total + a(i)
  end do
  !$omp end parallel do
  print '(a,i0,a,i0,a,l1)', 'total=', total, ' n=', n, ' locked=', &
    locked == 2 * omp_get_max_threads()
end program fprog
"""


def case_fortran(t):
    """A Fortran program, which pomp-instr does not rewrite: pomp-cc
    compiles it unchanged and links it with libpompt, which reports its
    regions, barriers and tasks from libgomp's entries, and its locks from
    libgomp's Fortran lock routines, which libpompt defines
    (doc/ompt-mapping.md, "Code pomp-cc did not compile"); in one command,
    and -c then link."""
    fc = shutil.which("gfortran")
    if not fc:
        print("no gfortran; skipped")
        raise SystemExit(SKIP)
    tool = need_tool(t, "check_tool")
    src = t.write("fprog.f90", FORTRAN_F90)
    want = plain_build(t, [src], "./plain", compiler=fc)
    t.pomp_cc(fc, "-fopenmp", "-O2", src, "-o", "one")
    t.pomp_cc(fc, "-fopenmp", "-O2", "-c", src, "-o", "fprog.o")
    t.pomp_cc(fc, "-fopenmp", "fprog.o", "-o", "two")
    for prog in ("./one", "./two"):
        check("libpompt" in t.run(["ldd", prog]).stdout,
              "%s: not linked with libpompt" % prog)
        for n in (1, 2, 4):
            out, _, counts = tool_counts(t, [prog], tool, n)
            check(out == want, "%s: output %r, plain %r" % (prog, out, want))
            # two regions; the static loop's, the directive's and
            # single's barriers (GOMP_barrier); the dynamic loop's and the
            # sections' (GOMP_loop_end, GOMP_sections_end); two critical
            # regions per thread; the single's two tasks, its taskwait and
            # taskgroup; the two dynamic loops' and the sections' work
            # (the static loop calls no libgomp entry); a lock set once and
            # a nest lock twice per thread (libgomp's Fortran routines,
            # which libpompt defines), both initialised and destroyed once
            expect = {"parallel_begin": 2, "implicit_task_begin": 2 * n,
                      "barrier_implicit_parallel": 2 * n,
                      "barrier_implementation": 3 * n,
                      "barrier_implicit_workshare": 2 * n,
                      "mutex_acquire": 5 * n, "mutex_acquired": 4 * n,
                      "mutex_released": 4 * n, "acquire_critical": 2 * n,
                      "acquire_lock": n, "acquire_nest_lock": 2 * n,
                      "nest_lock_begin": n, "nest_lock_end": n,
                      "lock_init": 2, "lock_destroy": 2,
                      "task_create": 2, "task_complete": 2, "taskwait": 1,
                      "taskgroup": 1, "work_loop_dynamic": 2 * n,
                      "work_sections": n}
            bad = {k: (counts.get(k), v) for k, v in expect.items()
                   if counts.get(k) != v}
            check(not bad, "%s, %d threads: counts (got, expected): %s"
                  % (prog, n, bad))
    t.check_tmp_empty()


def case_link_lgomp(t):
    """A link line that names libgomp itself (`-lgomp`, no -fopenmp, as
    some makefiles have it): libpompt must still come before libgomp, or
    it cannot interpose libgomp's entries and tools see implicit barriers
    and tasks without their regions.  And a program linked with libgomp
    first all the same still gets a consistent model, and a message that
    its handed tasks (pomp.h, POMPT_Task_hand) go unreported."""
    tool = need_tool(t, "check_tool")
    src = t.write("lg.c", "#include <stdio.h>\n"
                  "int main(void) {\n"
                  "  double a[1000];\n"
                  "#pragma omp parallel for\n"
                  "  for (int i = 0; i < 1000; i++)\n"
                  "    a[i] = i * 0.5;\n"
                  "#pragma omp task shared(a)\n"
                  "  a[0] = 1;\n"
                  "  printf(\"%g\\n\", a[999]);\n"
                  "  return 0;\n"
                  "}\n")
    t.pomp_cc(t.cc, "-fopenmp", "-O2", "-c", src, "-o", "lg.o")
    t.pomp_cc(t.cc, "lg.o", "-lm", "-lgomp", "-o", "lg")
    # Linked by hand with libgomp first: libpompt interposes nothing, finds
    # libgomp's entries all the same and reports what it sees at the
    # constructs.
    root = build_root()
    t.run([t.cc, "lg.o", "-lgomp", "-L" + root, "-Wl,--no-as-needed",
           "-lpompt", "-Wl,-rpath," + root, "-o", "lg-first"])
    for prog in ("./lg", "./lg-first"):
        for n in (2, 4):
            out, err, counts = tool_counts(t, [prog], tool, n)
            check(out == "499.5\n", "%s: output %r" % (prog, out))
            check(counts.get("parallel_begin") == 1 and
                  counts.get("implicit_task_begin") == n and
                  counts.get("thread_end") == n,
                  "%s, %d threads: counts %s" % (prog, n, counts))
            first = prog == "./lg-first"
            said = "tasks of its task constructs go unreported" in err
            check(said == first, "%s: the message on unreported tasks %s"
                  % (prog, "missing" if first else "given:\n" + err))
            check(counts.get("task_create", 0) == (0 if first else 1),
                  "%s: task_create %s" % (prog, counts.get("task_create")))
    t.check_tmp_empty()


def case_dlopen(t):
    """A plugin built with pomp-cc -shared registers its handles when it is
    loaded with dlopen (its init unit's constructor), before any of its
    constructs runs; one linked without pomp-link initialises them on first
    use.  Loaded twice, with dlclose in between."""
    tool = need_tool(t, "print_tool")
    root = build_root()
    plugin = t.write("plugin.c", PLUGIN_C)
    host = t.write("host.c", HOST_C)
    t.pomp_cc(t.cc, "-fopenmp", "-fPIC", "-shared", plugin, "-o",
              "libplugin.so")
    t.pomp_cc(t.cc, "-fopenmp", "-fPIC", "-c", plugin, "-o", "plugin.o")
    t.run([t.cc, "-shared", "plugin.o", "-o", "liblazy.so", "-L" + root,
           "-lpompt", "-Wl,-rpath," + root])
    t.pomp_cc(t.cc, "-fopenmp", host, "-o", "host", "-ldl")
    for lib, before in (("libplugin.so", 1), ("liblazy.so", 0)):
        out, _, counts = tool_counts(t, ["./host", "./" + lib], tool, 3)
        want = "".join("round=%d before=%d sum=4950 count=3 after=1\n"
                       % (r, before) for r in (1, 2)) + "hits=3\n"
        check(out == want, "%s: output %r, expected %r" % (lib, out, want))
        # host: 1, plugin: 2 per round
        check(counts.get("parallel_begin") == 5, "%s: counts %s"
              % (lib, counts))
        check(counts.get("mutex_acquired") == 6, "%s: counts %s"
              % (lib, counts))
    t.check_tmp_empty()


def case_dlopen_plain_host(t):
    """A plugin built with pomp-cc, loaded by a program that was not (so
    libpompt arrives with the plugin, after the program started)."""
    tool = need_tool(t, "print_tool")
    plugin = t.write("plugin.c", PLUGIN_C)
    host = t.write("host.c", HOST_C)
    t.pomp_cc(t.cc, "-fopenmp", "-fPIC", "-shared", plugin, "-o",
              "libplugin.so")
    t.run([t.cc, "-fopenmp", "-DNO_HOST_CONSTRUCT", host, "-o", "host",
           "-ldl"])
    out, err, counts = tool_counts(t, ["./host", "./libplugin.so"], tool, 3)
    want = "".join("round=%d before=1 sum=4950 count=3 after=1\n" % r
                   for r in (1, 2)) + "hits=0\n"
    check(out == want, "output %r, expected %r" % (out, want))
    check(counts.get("parallel_begin") == 4, "counts %s" % counts)
    t.check_tmp_empty()


def case_serial_tool(t):
    """Without -fopenmp (runtime stubs), the tool sees what ran: teams of
    one, with the same callbacks as an OpenMP build run by one thread."""
    tool = need_tool(t, "check_tool")
    src = t.write("all.c", ALL_CONSTRUCTS_C)
    t.pomp_cc(t.cc, "-O2", "-Wno-unknown-pragmas", src, "-o", "serial")
    t.pomp_cc(t.cc, "-fopenmp", "-O2", src, "-o", "parallel")
    ldd = t.run(["ldd", "serial"]).stdout
    check("libpompt-stubs" in ldd and "gomp" not in ldd,
          "the serial program does not use the stubs:\n%s" % ldd)
    # OMP_NUM_THREADS has no effect on a serial program.
    s_out, _, s_counts = tool_counts(t, ["./serial"], tool, 4)
    p_out, _, p_counts = tool_counts(t, ["./parallel"], tool, 1)
    check(s_out == "sum=4995 single=1 crit=1 sec=7 master=1 threads=1\n",
          "serial output %r" % s_out)
    check(s_out == p_out, "serial %r, one-thread OpenMP %r" % (s_out, p_out))
    expect = {"thread_begin": 1, "thread_end": 1, "parallel_begin": 3,
              "parallel_end": 3, "implicit_task_begin": 3,
              "implicit_task_end": 3, "initial_task_begin": 1,
              "work_loop": 2, "work_sections": 2, "dispatch_section": 3,
              "work_single_executor": 1, "work_single_other": 0,
              "masked": 1, "barrier_explicit": 1, "mutex_acquired": 1}
    bad = {k: (s_counts.get(k), v) for k, v in expect.items()
           if s_counts.get(k) != v}
    check(not bad, "serial counts (got, expected): %s" % bad)
    # A serial program combines no reduction: the compiler ignored the
    # clause (its parallel for's reduction is reported with OpenMP).
    check(p_counts.get("reduction") == 1 and s_counts.get("reduction") == 0,
          "reductions: serial %s, one-thread OpenMP %s (0 and 1 expected)" %
          (s_counts.get("reduction"), p_counts.get("reduction")))
    s_counts.pop("reduction", None)
    p_counts.pop("reduction", None)
    check(s_counts == p_counts, "serial counts %s\none-thread OpenMP counts "
          "%s" % (s_counts, p_counts))
    t.check_tmp_empty()


LOCKS_ONLY_C = r"""
#include <omp.h>
#include <pthread.h>
#include <stdio.h>
static omp_lock_t lock;
static void *other(void *arg) {
  (void)arg;
  /* main holds the lock: a real runtime must refuse it */
  int got = omp_test_lock(&lock);
  if (got)
    omp_unset_lock(&lock);
  printf("test_lock on a held lock: %d\n", got);
  return NULL;
}
int main(void) {
  pthread_t t;
  omp_init_lock(&lock);
  omp_set_lock(&lock);
  pthread_create(&t, NULL, other, NULL);
  pthread_join(t, NULL);
  omp_unset_lock(&lock);
  omp_destroy_lock(&lock);
  return 0;
}
"""


def case_locks_only(t):
    """A -fopenmp program whose only OpenMP use is the runtime API (locks
    from plain pthreads) keeps libgomp: pomp-instr turns its calls into
    libpompt's wrappers, whose references to the real routines are weak,
    and GCC links with --as-needed; without libgomp the lock would be
    "taken" twice."""
    src = t.write("locks_only.c", LOCKS_ONLY_C)
    t.pomp_cc(t.cc, "-fopenmp", "-pthread", "-O1", src, "-o", "prog")
    needed = t.run(["readelf", "-d", "prog"]).stdout
    check("libgomp" in needed, "libgomp is not NEEDED:\n%s" % needed)
    got = t.run(["./prog"]).stdout
    check(got == "test_lock on a held lock: 0\n", "output %r" % got)
    t.check_tmp_empty()


def case_errors(t):
    """Failures: the underlying message, the failing step's exit status,
    no output left, nothing else touched."""
    ok = t.write("ok.c", WORK_C)
    # an existing output survives every failed attempt
    t.pomp_cc(t.cc, "-fopenmp", "-c", ok, "-o", "keep.o")
    st = os.stat(os.path.join(t.build, "keep.o"))

    def unchanged():
        st2 = os.stat(os.path.join(t.build, "keep.o"))
        check((st.st_ino, st.st_mtime_ns) == (st2.st_ino, st2.st_mtime_ns),
              "the existing output was touched")
        check(sorted(os.listdir(t.build)) == ["keep.o"],
              "files left behind: %s" % os.listdir(t.build))
        t.check_tmp_empty()

    # the instrumenter fails: its message and its status
    bindir = fake_program(t, "fake-instr",
                          "echo 'fake-instr: cannot rewrite' >&2\nexit 3\n")
    env = {"POMPT_INSTR": os.path.join(bindir, "fake-instr")}
    p = t.pomp_cc(t.cc, "-fopenmp", "-c", ok, "-o", "keep.o", env=env,
                  expect=None)
    check(p.returncode == 3, "status %d, not the instrumenter's 3"
          % p.returncode)
    check("fake-instr: cannot rewrite" in p.stderr
          and "instrumenting" in p.stderr, "message: %r" % p.stderr)
    unchanged()
    p = t.pomp_cc(t.cc, "-fopenmp", ok, "-o", "keep.o", env=env,
                  expect=None)
    check(p.returncode == 3, "link mode: status %d" % p.returncode)
    unchanged()
    # no instrumenter at all
    p = t.pomp_cc(t.cc, "-fopenmp", "-c", ok, "-o", "keep.o",
                  env={"POMPT_INSTR": "/nonexistent/pomp-instr"}, expect=None)
    check(p.returncode == 127 and "POMPT_INSTR" in p.stderr,
          "missing pomp-instr: %d %r" % (p.returncode, p.stderr))
    unchanged()
    # a compile error inside a construct: the compiler's own message
    bad = t.write("bad.c", "int f(int n) {\n  int s = 0;\n"
                  "#pragma omp parallel for reduction(+ : s)\n"
                  "  for (int i = 0; i < n; i++)\n"
                  "    s += undeclared_thing;\n  return s;\n}\n")
    plain = t.run([t.cc, "-fopenmp", "-c", bad, "-o", "/dev/null"],
                  expect=None)
    p = t.pomp_cc(t.cc, "-fopenmp", "-c", bad, "-o", "keep.o", expect=None)
    check(p.returncode == plain.returncode != 0,
          "status %d, the compiler's %d" % (p.returncode, plain.returncode))
    check(re.search(r"bad\.c:5:\d+: error: .*undeclared_thing", p.stderr),
          "not the compiler's message: %r" % p.stderr)
    check("pomp-cc: error" not in p.stderr,
          "pomp-cc adds its own error to the compiler's: %r" % p.stderr)
    unchanged()
    # a preprocessing error
    missing = t.write("missing.c", "#include \"not_there.h\"\nint x;\n")
    p = t.pomp_cc(t.cc, "-fopenmp", "-c", missing, "-o", "keep.o",
                  expect=None)
    check(p.returncode == 1 and "not_there.h" in p.stderr,
          "preprocessing error: %d %r" % (p.returncode, p.stderr))
    unchanged()
    # a link error: the linker's message, no program
    main = t.write("main.c", MAIN_C)  # calls work(), which is missing
    p = t.pomp_cc(t.cc, "-fopenmp", main, "-o", "prog", expect=None)
    check(p.returncode == 1 and "undefined reference to `work'" in p.stderr,
          "link error: %d %r" % (p.returncode, p.stderr))
    unchanged()
    # pompt's library missing
    p = t.pomp_cc(t.cc, "-fopenmp", ok, main, "-o", "prog", expect=None,
                  env={"POMPT_LIBDIR": "/nonexistent"})
    check(p.returncode == 1 and "libpompt" in p.stderr
          and "POMPT_LIBDIR" in p.stderr,
          "missing libpompt: %d %r" % (p.returncode, p.stderr))
    unchanged()
    # pomp-cc's own usage errors
    p = t.pomp_cc("--no-such-option", t.cc, "-c", ok, expect=None)
    check(p.returncode == 2 and "--no-such-option" in p.stderr,
          "unknown option: %d %r" % (p.returncode, p.stderr))
    p = t.run([t.opts.pomp_link], expect=None)
    check(p.returncode == 2 and "no compiler" in p.stderr,
          "pomp-link without a compiler: %d %r" % (p.returncode, p.stderr))
    unchanged()


# ---- pomp-instr options on pomp-cc's command line ----------------------------

OPTS_C = r"""
#include <stdio.h>
int main(void) {
  int n = 0;
#pragma omp parallel
  {
#pragma omp critical
    n += 1;
  }
  long s = 0;
#pragma omp parallel for reduction(+ : s)
  for (int i = 0; i < 10; i++)
    s += i;
  printf("n>0=%d s=%ld\n", n > 0, s);
  return 0;
}
"""


def undefined(t, obj):
    """The symbols obj refers to and does not define."""
    return set(t.run(["nm", "-u", obj]).stdout.split()) - {"U"}


def vocabulary(message, after):
    """The lower-case words a usage message lists after `after`."""
    tail = message.split(after, 1)[1]
    return set(re.findall(r"[a-z]+", tail)) - {"or", "and", "try", "pomp",
                                               "instr", "help"}


def case_instr_options(t):
    """pomp-instr options given to pomp-cc: passed on, in effect, after
    POMPT_INSTR_OPTIONS, and checked before anything runs."""
    src = t.write("opts.c", OPTS_C)
    # --show: the options reach the pomp-instr step, in order, both forms
    p = t.pomp_cc("--show", "--disable=sync,task", "--loop-level",
                  "iterations", "--instr-opt=--clang-arg=-DPOMPT_X=1",
                  t.cc, "-fopenmp", "-c", src)
    lines = p.stdout.splitlines()
    check(len(lines) == 3 and lines[1].endswith(
        " --disable=sync,task --loop-level=iterations "
        "--clang-arg=-DPOMPT_X=1"), "pomp-instr step: %r" % lines)
    check("--disable" not in lines[0] + lines[2],
          "an instrumenter option reached the compiler: %r" % lines)

    # in effect: the events of a disabled group are gone, iteration events
    # come with --loop-level=iterations; the defaults as a control
    t.pomp_cc(t.cc, "-fopenmp", "-c", src, "-o", "default.o")
    t.pomp_cc("--disable=sync", t.cc, "-fopenmp", "-c", src, "-o", "nosync.o")
    t.pomp_cc("--loop-level=iterations", t.cc, "-fopenmp", "-c", src, "-o",
              "iter.o")
    d, ns, it = (undefined(t, o) for o in ("default.o", "nosync.o", "iter.o"))
    # a critical construct's first event: POMPT_Critical_enter, or its
    # inline family's POMPT_Critical_enter_at (x86-64)
    def critical(syms):
        return any(s.startswith("POMPT_Critical_enter") for s in syms)
    check(critical(d) and "POMP_Loop_iter_begin" not in d,
          "default: %s" % sorted(d))
    check(not critical(ns)
          and "POMPT_Parallel_fork" in ns, "--disable=sync: %s"
          % sorted(ns))
    check("POMP_Loop_iter_begin" in it and critical(it),
          "--loop-level=iterations: %s" % sorted(it))
    # after POMPT_INSTR_OPTIONS: a level there is overridden, groups add up
    env = {"POMPT_INSTR_OPTIONS": "--loop-level=iterations --disable=parallel"}
    t.pomp_cc("--loop-level=enterexit", "--disable=sync", t.cc, "-fopenmp",
              "-c", src, "-o", "both.o", env=env)
    b = undefined(t, "both.o")
    check("POMP_Loop_iter_begin" not in b, "the command line's level does "
          "not win over POMPT_INSTR_OPTIONS: %s" % sorted(b))
    check(not critical(b)
          and "POMPT_Parallel_fork" not in b
          and "POMPT_Loop_enter" in b, "groups do not add up: %s" % sorted(b))
    # a program built and linked with them runs as the plain one
    want = plain_build(t, [src], "./plain")
    t.pomp_cc("--disable=sync", "--loop-level=iterations",
              "--instr-opt=--clang-arg=-DPOMPT_X=1", t.cc, "-fopenmp", src,
              "-o", "prog")
    got = t.run(["./prog"]).stdout
    check(got == want, "output %r, plain %r" % (got, want))
    for f in ("default.o", "nosync.o", "iter.o", "both.o", "prog", "plain"):
        os.unlink(os.path.join(t.build, f))

    # usage errors: status 2, the word at fault and what is allowed, before
    # anything runs (no output, no temporary files)
    bad = [
        (["--disable=bogus"], ["'bogus'", "parallel", "target"]),
        (["--disable=sync,,omp"], ["'omp'"]),
        (["--disable="], ["needs", "parallel"]),
        (["--loop-level=fast"], ["fast", "enterexit", "iterations"]),
        (["--instr-opt=foo"], ["foo", "not an option"]),
        (["--instr-opt=-ofile"], ["sets this"]),
        (["--instr-opt=--lang=c++"], ["sets this"]),
        (["--instr-opt=--no-such"], ["--no-such", "--instr-opt"]),
        (["--instr-opt=--loop-level=fast"], ["fast"]),
    ]
    for args, words in bad:
        p = t.pomp_cc(*(args + [t.cc, "-fopenmp", "-c", src, "-o", "x.o"]),
                      expect=None)
        check(p.returncode == 2, "%s: status %d" % (args, p.returncode))
        for w in words:
            check(w in p.stderr, "%s: %r lacks %r" % (args, p.stderr, w))
        check(not os.listdir(t.build), "%s: wrote %s"
              % (args, os.listdir(t.build)))
    p = t.pomp_cc("--loop-level", expect=None)
    check(p.returncode == 2 and "needs a value" in p.stderr,
          "missing value: %d %r" % (p.returncode, p.stderr))

    # pomp-cc knows exactly the groups and levels pomp-instr knows
    instr = os.path.join(os.path.dirname(t.opts.pomp_cc), "pomp-instr")
    words = {}
    for opt, after_cc, after_instr in (
            ("--disable", "groups:", "groups:"),
            ("--loop-level", "levels:", "expected")):
        cc = t.pomp_cc(opt + "=zzz", t.cc, "-c", src, expect=2).stderr
        ins = t.run([instr, "--check-options", opt + "=zzz"], expect=1).stderr
        a, b = vocabulary(cc, after_cc), vocabulary(ins, after_instr)
        check(a == b and a, "%s: pomp-cc knows %s, pomp-instr %s"
              % (opt, sorted(a), sorted(b)))
        words[opt] = a
        for w in a:
            t.run([instr, "--check-options", "%s=%s" % (opt, w)])
            t.pomp_cc("--show", "%s=%s" % (opt, w), t.cc, "-c", src)
    check({"parallel", "sync", "target"} <= words["--disable"]
          and {"enterexit", "iterations"} <= words["--loop-level"],
          "vocabulary: %s" % words)
    t.check_tmp_empty()


# ---- units without OpenMP ------------------------------------------------------

NO_OMP_C = r"""
#include <omp.h>
#include <stdio.h>
int helper(int x) { return x * 3; }
"""

HDR_OMP_H = r"""
static inline int in_header(void) {
  int n = 0;
#pragma omp parallel reduction(+ : n)
  n += 1;
  return n;
}
"""

HDR_USER_C = r"""
#include "omp_hdr.h"
int use_header(void) { return in_header(); }
"""

API_ONLY_C = r"""
#include <omp.h>
int api_only(void) { return omp_get_max_threads(); }
"""

MACRO_PRAGMA_C = r"""
#define PAR _Pragma("omp parallel")
int via_macro(void) {
  int n = 0;
  PAR
  {
    n = 1;
  }
  return n;
}
"""

POMP_ONLY_C = r"""
int pomp_only(int x) {
#pragma pomp inst begin(phase)
  x += 1;
#pragma pomp inst end(phase)
  return x;
}
"""


def case_uninstrumented(t):
    """A unit without OpenMP is compiled without pomp-instr (its
    preprocessed text as it is); anything pomp-instr would rewrite, also in
    a user header, from a macro or only a runtime call, is instrumented."""
    def steps(name, text, *flags):
        src = t.write(name, text)
        obj = os.path.splitext(name)[0] + ".o"
        p = t.pomp_cc("--verbose", t.cc, "-fopenmp", "-O2", "-c", src,
                      "-o", obj, *flags)
        ran = "pomp-instr" in p.stderr
        return ran, obj

    ran, obj = steps("no_omp.c", NO_OMP_C)
    check(not ran, "pomp-instr ran for a unit without OpenMP")
    check(not init_functions(t.nm(obj)), "an init function without OpenMP")
    plain = os.path.join(t.build, "plain.o")
    t.run([t.cc, "-fopenmp", "-O2", "-c", os.path.join(t.src, "no_omp.c"),
           "-o", plain])
    check(t.nm(obj) == t.nm(plain), "symbols differ from the plain object")
    os.unlink(plain)
    t.write("omp_hdr.h", HDR_OMP_H)
    for name, text, want in (
            ("hdr_user.c", HDR_USER_C, "POMPT_Parallel_fork"),
            ("api_only.c", API_ONLY_C, "POMP_Api_omp_get_max_threads"),
            ("macro_pragma.c", MACRO_PRAGMA_C, "POMPT_Parallel_fork"),
            ("pomp_only.c", POMP_ONLY_C, "POMP_User_region_begin")):
        ran, obj = steps(name, text)
        check(ran, "pomp-instr did not run for %s" % name)
        check(want in undefined(t, obj), "%s: no %s" % (name, want))
    # -save-temps keeps the unit that was compiled
    ran, _ = steps("no_omp2.c", NO_OMP_C, "-save-temps")
    check(not ran and os.path.exists(os.path.join(t.build, "no_omp2.i")),
          "-save-temps: %s" % os.listdir(t.build))
    # a program of such units and instrumented ones links and runs
    main = t.write("main.c", MAIN_C)
    work = t.write("work.c", WORK_C)
    extra = t.write("extra.c", NO_OMP_C)
    want = plain_build(t, [main, work, extra], "./plain")
    t.pomp_cc(t.cc, "-fopenmp", main, work, extra, "-o", "prog")
    check(t.run(["./prog"]).stdout == want, "output differs")
    t.check_tmp_empty()


def case_pomp_link(t):
    """pomp-link on its own; links that need nothing of pompt run
    unchanged; a compiler launcher (ccache) before the compiler."""
    main = t.write("main.c", MAIN_C)
    work = t.write("work.c", WORK_C)
    t.pomp_cc(t.cc, "-fopenmp", "-c", main, work)
    t.run(["ar", "rcs", "libwork.a", "work.o"])
    t.run([t.opts.pomp_link, t.cc, "-fopenmp", "main.o", "libwork.a", "-o",
           "prog"])
    check(t.run(["./prog"]).stdout == "hits=2 work=4950\n", "output")
    check(len(init_functions(t.nm("prog"))) == 2, "init functions missing")
    check("pomp-link (pompt) " in t.run([t.opts.pomp_link,
                                         "--version"]).stdout, "--version")
    check("usage: pomp-link" in t.run([t.opts.pomp_link, "--help"]).stdout,
          "--help")
    check("usage: pomp-cc" in t.pomp_cc("--help").stdout, "pomp-cc --help")
    # Nothing instrumented and no OpenMP call: the compiler's own link (what
    # build systems probe with -v sees no trace of pompt).
    triv = t.write("triv.c", "int main(void) { return 0; }\n")
    p = t.pomp_cc("--verbose", t.cc, "-fopenmp", triv, "-o", "triv")
    check("-lpompt" not in p.stderr and "pompt_init" not in p.stderr,
          "a link without constructs got pompt: %r" % p.stderr)
    check("pompt" not in t.run(["ldd", "triv"]).stdout, "libpompt linked")
    # ... but a serial program calling omp_ routines gets the stubs
    ser = t.write("ser.c", "#include <omp.h>\n"
                  "int main(void) { return omp_get_num_threads() - 1; }\n")
    t.pomp_cc(t.cc, ser, "-o", "ser")
    t.run(["./ser"])
    check("libpompt-stubs" in t.run(["ldd", "ser"]).stdout, "no stubs")
    # An instrumented archive that -l finds in the compiler's own library
    # directories (LIBRARY_PATH), linked to a program without constructs of
    # its own: still pompt's link.
    sysdir = os.path.join(t.root, "syslib")
    os.mkdir(sysdir)
    t.pomp_cc(t.cc, "-fopenmp", "-c", t.write("used.c", USED_C))
    t.run(["ar", "rcs", os.path.join(sysdir, "libused.a"), "used.o"])
    libmain = t.write("libmain.c", LIBMAIN_C)
    t.pomp_cc(t.cc, "-fopenmp", libmain, "-lused", "-o", "uprog",
              env={"LIBRARY_PATH": sysdir})
    check(t.run(["./uprog"]).stdout == "used=6\n", "system-dir archive")
    check(init_functions(t.nm("used.o")) <= init_functions(t.nm("uprog")),
          "the archive member's constructs are not registered")
    # a launcher before the compiler
    bindir = fake_program(t, "ccache", "echo \"$*\" >> \"%s\"\nexec \"$@\"\n"
                          % os.path.join(t.root, "launcher.log"))
    env = {"PATH": bindir + os.pathsep + os.environ.get("PATH", "")}
    t.pomp_cc("ccache", t.cc, "-fopenmp", "-c", main, "-o", "lmain.o",
              env=env)
    t.pomp_cc("ccache", t.cc, "-fopenmp", "lmain.o", work, "-o", "lprog",
              env=env)
    check(t.run(["./lprog"]).stdout == "hits=2 work=4950\n", "launcher")
    with open(os.path.join(t.root, "launcher.log")) as f:
        log = f.read()
    check(re.search(r"^%s -E " % re.escape(t.cc), log, re.M)
          and re.search(r"^%s .*-x cpp-output" % re.escape(t.cc), log, re.M)
          and "pompt_init.c" in log,
          "the launcher did not run the compiler steps:\n%s" % log)
    t.check_tmp_empty()


def case_pch(t):
    """Precompiled headers: GCC's .gch beside the header or alone in an
    include directory (as meson puts it), clang's -include-pch (as meson
    and CMake pass it)."""
    hdr = t.write("pch/common.h", "#include <stdio.h>\n#include <omp.h>\n"
                  "static inline int pch_value(void) { return 21; }\n")
    main = t.write("main.c", "int main(void) {\n  int s = 0;\n"
                   "#pragma omp parallel reduction(+ : s) num_threads(2)\n"
                   "  s += pch_value();\n"
                   "  printf(\"%d\\n\", s);\n  return 0;\n}\n")
    flags = [t.cc, "-fopenmp", "-O1"]
    # the .gch alone in an include directory, the header elsewhere
    os.mkdir(os.path.join(t.build, "pchdir"))
    t.pomp_cc(*flags, "-x", "c-header", hdr, "-o", "pchdir/common.h.gch")
    check(os.path.exists(os.path.join(t.build, "pchdir", "common.h.gch")),
          "no .gch")
    t.pomp_cc(*flags, "-Ipchdir", "-Winvalid-pch", "-fpch-preprocess",
              "-include", "common.h", main, "-o", "prog1")
    check(t.run(["./prog1"]).stdout == "42\n", "gch alone")
    check(len(init_functions(t.nm("prog1"))) == 1, "not instrumented")
    # beside the header (without -c: the compiler writes common.h.gch)
    t.pomp_cc(*flags, hdr)
    check(os.path.exists(hdr + ".gch"), "header compiled without -c")
    os.unlink(hdr + ".gch")
    if shutil.which("clang-14"):
        c = ["clang-14", "-fopenmp", "-O1"]
        t.pomp_cc(*c, "-x", "c-header", hdr, "-o", "common.h.pch")
        # meson: -include-pch alone
        t.pomp_cc(*c, "-include-pch", "common.h.pch", main, "-o", "prog2")
        check(t.run(["./prog2"]).stdout == "42\n", "clang -include-pch")
        # CMake: -include-pch and -include of the same header
        t.pomp_cc(*c, "-Xclang", "-include-pch", "-Xclang", "common.h.pch",
                  "-Xclang", "-include", "-Xclang", hdr, main, "-o", "prog3")
        check(t.run(["./prog3"]).stdout == "42\n", "clang -Xclang pairs")
    t.check_tmp_empty()


def case_static(t):
    """-static: libpompt.a, and the OpenMP routines libpompt calls are
    linked from libgomp.a (or the stubs) although it refers to them
    weakly."""
    src = t.write("st.c", "#include <omp.h>\n#include <stdio.h>\n"
                  "int main(void) {\n  int n = 0;\n"
                  "#pragma omp parallel reduction(+ : n)\n  n++;\n"
                  "  printf(\"n=%d max=%d\\n\", n, omp_get_max_threads());\n"
                  "  return 0;\n}\n")
    p = t.run([t.cc, "-fopenmp", "-static", src, "-o", "plain"],
              expect=None)
    if p.returncode != 0:
        print("the compiler cannot link static OpenMP programs; skipped")
        raise SystemExit(SKIP)
    want = t.run(["./plain"], env={"OMP_NUM_THREADS": "3"}).stdout
    check(want == "n=3 max=3\n", "plain static build: %r" % want)
    t.pomp_cc(t.cc, "-fopenmp", "-static", src, "-o", "prog")
    got = t.run(["./prog"], env={"OMP_NUM_THREADS": "3"}).stdout
    check(got == want, "static: %r, plain %r" % (got, want))
    check("dynamic" not in t.run(["file", "prog"]).stdout
          if shutil.which("file") else True, "not a static program")
    t.pomp_cc(t.cc, "-static", "-Wno-unknown-pragmas", src, "-o", "serial")
    got = t.run(["./serial"], env={"OMP_NUM_THREADS": "3"}).stdout
    check(got == "n=1 max=1\n", "static serial: %r" % got)
    # (A static program cannot load a tool from a shared library safely:
    # the tool brings a second C library.  A tool linked into the program
    # is the way there.)
    t.check_tmp_empty()


def case_lto(t):
    """Link-time optimisation: nm reads the LTO objects."""
    main = t.write("main.c", MAIN_C)
    work = t.write("work.c", WORK_C)
    t.pomp_cc(t.cc, "-fopenmp", "-O2", "-flto", "-c", main, work)
    t.pomp_cc(t.cc, "-fopenmp", "-O2", "-flto", "main.o", "work.o", "-o",
              "prog")
    check(t.run(["./prog"]).stdout == "hits=2 work=4950\n", "output")
    check(len(init_functions(t.nm("prog"))) == 2, "init functions missing")
    t.check_tmp_empty()


STATIC_PROG_C = r"""
#include <omp.h>
#include <stdio.h>
int main(void) {
  long s = 0;
  int tasks = 0, copies = 0;
#pragma omp parallel num_threads(2)
  {
    int c = 0;
    /* libgomp's GOMP_single_copy_start / _end: a barrier of its own */
#pragma omp single copyprivate(c)
    c = 1;
#pragma omp atomic
    copies += c;
#pragma omp single
  {
#pragma omp taskloop reduction(+ : s) num_tasks(4)
    for (int i = 0; i < 100; i++)
      s += i;
    for (int k = 0; k < 3; k++) {
#pragma omp task shared(tasks)
      {
#pragma omp atomic
        tasks++;
      }
    }
    omp_event_handle_t ev;
#pragma omp task detach(ev)
    {
    }
    omp_fulfill_event(ev);
#pragma omp taskwait
  }
  }
  printf("s=%ld tasks=%d copies=%d\n", s, tasks, copies);
  return 0;
}
"""

# An OMPT tool linked into the program: the only kind a static program can
# have.  Prints its counts at finalize.
STATIC_TOOL_C = r"""
#include <omp-tools.h>
#include <stdatomic.h>
#include <stdio.h>
static atomic_int threads, parallels, tasks, taskloops, tl_chunks, completes,
    detached, fulfills, impl_barriers;
static void on_thread(ompt_thread_t t, ompt_data_t *d) {
  (void)t, (void)d;
  threads++;
}
static void on_parallel(ompt_data_t *a, const ompt_frame_t *b,
                        ompt_data_t *c, unsigned d, int e, const void *f) {
  (void)a, (void)b, (void)c, (void)d, (void)e, (void)f;
  parallels++;
}
static void on_task(ompt_data_t *a, const ompt_frame_t *b, ompt_data_t *c,
                    int flags, int e, const void *f) {
  (void)a, (void)b, (void)c, (void)e, (void)f;
  if (flags & ompt_task_explicit)
    tasks++;
}
static void on_schedule(ompt_data_t *a, ompt_task_status_t st,
                        ompt_data_t *b) {
  (void)a, (void)b;
  if (st == ompt_task_complete)
    completes++;
  else if (st == ompt_task_detach)
    detached++;
  else if (st == ompt_task_early_fulfill || st == ompt_task_late_fulfill)
    fulfills++;
}
static void on_work(ompt_work_t w, ompt_scope_endpoint_t ep, ompt_data_t *a,
                    ompt_data_t *b, uint64_t c, const void *d) {
  (void)a, (void)b, (void)c, (void)d;
  if (w == ompt_work_taskloop && ep == ompt_scope_begin)
    taskloops++;
}
static void on_dispatch(ompt_data_t *a, ompt_data_t *b, ompt_dispatch_t k,
                        ompt_data_t inst) {
  (void)a, (void)b, (void)inst;
  if (k == ompt_dispatch_taskloop_chunk)
    tl_chunks++;
}
static void on_sync(ompt_sync_region_t k, ompt_scope_endpoint_t ep,
                    ompt_data_t *a, ompt_data_t *b, const void *c) {
  (void)a, (void)b, (void)c;
  if (k == ompt_sync_region_barrier_implementation && ep == ompt_scope_begin)
    impl_barriers++;
}
static int init(ompt_function_lookup_t lookup, int dev, ompt_data_t *d) {
  (void)dev, (void)d;
  ompt_set_callback_t set = (ompt_set_callback_t)lookup("ompt_set_callback");
  set(ompt_callback_thread_begin, (ompt_callback_t)on_thread);
  set(ompt_callback_parallel_begin, (ompt_callback_t)on_parallel);
  set(ompt_callback_task_create, (ompt_callback_t)on_task);
  set(ompt_callback_task_schedule, (ompt_callback_t)on_schedule);
  set(ompt_callback_work, (ompt_callback_t)on_work);
  set(ompt_callback_dispatch, (ompt_callback_t)on_dispatch);
  set(ompt_callback_sync_region, (ompt_callback_t)on_sync);
  return 1;
}
static void fini(ompt_data_t *d) {
  (void)d;
  fprintf(stderr, "counts threads=%d parallels=%d tasks=%d taskloops=%d "
          "tl_chunks=%d completes=%d detached=%d fulfills=%d "
          "impl_barriers=%d\n",
          threads, parallels, tasks, taskloops, tl_chunks, completes,
          detached, fulfills, impl_barriers);
}
ompt_start_tool_result_t *ompt_start_tool(unsigned v, const char *rt) {
  (void)v, (void)rt;
  static ompt_start_tool_result_t r = {init, fini, {0}};
  return &r;
}
"""


def static_counts(t, exe):
    p = t.run(["./" + exe], env={"OMP_TOOL_VERBOSE_INIT": "stderr"})
    m = re.search(r"^counts (.*)$", p.stderr, re.M)
    check(m, "%s: the tool linked into the program was not started:\n%s"
          % (exe, p.stderr))
    return p.stdout, p.stderr, {k: int(v) for k, v in
                                (kv.split("=") for kv in m.group(1).split())}


# libgomp's entries that libpompt.a must wrap (bridge_gomp.c,
# bridge_taskloop.c, bridge_gomp_sync.c).
STATIC_WRAPPED = ("GOMP_parallel", "GOMP_parallel_reductions",
                  "GOMP_parallel_loop_runtime", "GOMP_task",
                  "GOMP_taskloop", "GOMP_taskloop_ull", "GOMP_barrier",
                  "GOMP_barrier_cancel", "GOMP_single_copy_start",
                  "GOMP_single_copy_end")
# What doc/ompt-mapping.md says the program gets either way: the initial and
# the worker thread, one region, the taskloop as a construct and its four
# tasks, each with its chunk, the three tasks and the detachable one, its
# fulfilment (early: the task completes at its end; late: it detaches there
# and the fulfilment completes it), and copyprivate's barrier on each thread
# (its split barrier, then GCC's GOMP_barrier after it).
STATIC_WANT = {"threads": 2, "parallels": 1, "taskloops": 1,
               "tasks": 3 + 1 + 4, "tl_chunks": 4, "fulfills": 1,
               "impl_barriers": 4}


def check_static_counts(name, c, want):
    for key, n in want.items():
        check(c[key] == n, "%s: %s=%d, expected %d (%s)"
              % (name, key, c[key], n, c))
    # Each task completes at its end, or detaches there and its fulfilment
    # completes it.
    check(c["completes"] + c["detached"] == c["tasks"]
          and c["detached"] <= c["fulfills"],
          "%s: tasks unfinished (%s)" % (name, c))


def wrap_options(stderr):
    """The GOMP_ entries pomp-link's verbose command line wraps, and those
    it names with -u."""
    wraps = set(re.findall(r"--wrap=(GOMP_\w+)", stderr))
    undef = set(re.findall(r"-Wl,-u,(GOMP_\w+)", stderr))
    return wraps, undef


def case_static_tool(t):
    """-static: a tool linked into the program is activated (no dynamic
    symbol table to look ompt_start_tool up in), and gets what the same
    program linked dynamically gets: libpompt.a interposes libgomp.a's
    entries as __wrap_GOMP_<x>, which pomp-link links with --wrap, so the
    tasks of a taskloop, a detach fulfilment and libgomp's own barriers are
    reported, and parallel_begin / task_create come when libgomp starts the
    region or task."""
    src = t.write("prog.c", STATIC_PROG_C)
    tool = t.write("tool.c", STATIC_TOOL_C)
    p = t.run([t.cc, "-fopenmp", "-static", src, "-o", "plain"],
              expect=None)
    if p.returncode != 0:
        print("the compiler cannot link static OpenMP programs; skipped")
        raise SystemExit(SKIP)
    want = t.run(["./plain"]).stdout
    check(want == "s=4950 tasks=3 copies=2\n",
          "plain static build: %r" % want)
    p = t.pomp_cc("--verbose", t.cc, "-fopenmp", "-O2", "-static", src, tool,
                  "-o", "st")
    st_link = p.stderr
    p = t.pomp_cc("--verbose", t.cc, "-fopenmp", "-O2", src, tool, "-o",
                  "dyn")
    check("--wrap" not in p.stderr,
          "pomp-link wraps in a dynamic link:\n%s" % p.stderr)
    out, st_log, st = static_counts(t, "st")
    check(out == want, "static: %r, plain %r" % (out, want))
    out, dyn_log, dyn = static_counts(t, "dyn")
    check(out == want, "dynamic: %r, plain %r" % (out, want))
    check_static_counts("dynamic", dyn, STATIC_WANT)
    check_static_counts("static", st, STATIC_WANT)
    for log in (st_log, dyn_log):
        check("delivered when libgomp starts the region or task" in log
              and "the tasks of a taskloop: reported" in log,
              "libgomp's entries not interposed:\n%s" % log)
    # pomp-link wraps exactly the entries libpompt.a has a __wrap_ of, and
    # names each real one with -u (a weak __real_ reference links none).
    lib_a = os.path.join(build_root(), "libpompt.a")
    defined = set(re.findall(r" T __wrap_(GOMP_\w+)$", t.nm(lib_a), re.M))
    missing = [g for g in STATIC_WRAPPED if g not in defined]
    check(not missing, "libpompt.a lacks __wrap_ of %s" % missing)
    wraps, undef = wrap_options(st_link)
    check(wraps == defined and undef == defined,
          "pomp-link: --wrap %s, -u %s; libpompt.a wraps %s"
          % (sorted(wraps), sorted(undef), sorted(defined)))
    syms = t.nm("st")
    for g in ("GOMP_taskloop", "GOMP_barrier"):
        check(re.search(r" T __wrap_%s$" % g, syms, re.M)
              and re.search(r" T %s$" % g, syms, re.M),
              "st: %s or its wrapper not linked" % g)
    # A libpompt.a without the barrier wrappers' member: pomp-link wraps
    # what is left, and the program runs with libgomp's own barriers, which
    # are then not reported.
    lib = os.path.join(t.root, "lib")
    os.mkdir(lib)
    shutil.copy(lib_a, lib)
    members = t.run(["ar", "t", os.path.join(lib, "libpompt.a")]).stdout
    sync = [m for m in members.split() if m.endswith("bridge_gomp_sync.c.o")]
    check(len(sync) == 1, "no bridge_gomp_sync member in:\n%s" % members)
    t.run(["ar", "d", os.path.join(lib, "libpompt.a"), sync[0]])
    p = t.pomp_cc("--verbose", t.cc, "-fopenmp", "-O2", "-static", src,
                  tool, "-o", "part", env={"POMPT_LIBDIR": lib})
    wraps, undef = wrap_options(p.stderr)
    gone = {"GOMP_barrier", "GOMP_barrier_cancel", "GOMP_single_copy_start",
            "GOMP_single_copy_end", "GOMP_loop_end", "GOMP_sections_end",
            "GOMP_taskwait"}
    check(wraps == defined - gone and undef == defined - gone,
          "pomp-link without the barrier wrappers: --wrap %s, -u %s"
          % (sorted(wraps), sorted(undef)))
    out, _, part = static_counts(t, "part")
    check(out == want, "part: %r, plain %r" % (out, want))
    check_static_counts("part", part, dict(STATIC_WANT, impl_barriers=0))
    t.check_tmp_empty()


CHUNKS_MAIN_C = r"""
#include <stdio.h>
long other(int n);
long mine(int n) {
  long s = 0;
#pragma omp parallel for reduction(+ : s) schedule(dynamic, 4)
  for (int i = 0; i < n; i++)
    s += i;
  return s;
}
int main(void) {
  printf("%ld %ld\n", mine(100), other(100));
  return 0;
}
"""

CHUNKS_OTHER_C = r"""
long other(int n) {
  long s = 0;
#pragma omp parallel for reduction(+ : s) schedule(dynamic, 5)
  for (int i = 0; i < n; i++)
    s += i;
  return s;
}
"""


def case_lto_chunks(t):
    """-flto with --loop-level=chunks: the chunks of runtime-scheduled loops
    are reported whatever partitions GCC's link-time optimisation makes
    (the aliases to libpompt's loop entries are top-level asm, which goes
    into one partition only), and nm is the one that reads the compiler's
    LTO objects."""
    tool = need_tool(t, "print_tool")
    main = t.write("main.c", CHUNKS_MAIN_C)
    other = t.write("other.c", CHUNKS_OTHER_C)
    want_out = "4950 4950\n"
    # dynamic,4 and dynamic,5 over 100 iterations: 25 + 20 chunks
    want_chunks = 45
    chunks = ["--loop-level=chunks"]
    t.pomp_cc(*chunks, t.cc, "-fopenmp", "-O2", main, other, "-o", "plain")
    out, _, counts = tool_counts(t, ["./plain"], tool, 2)
    check(out == want_out, "output without LTO: %r" % out)
    check(counts.get("dispatch") == want_chunks,
          "chunks without LTO: %s" % counts.get("dispatch"))
    t.pomp_cc(*chunks, t.cc, "-fopenmp", "-O2", "-flto", "-c", main, other)
    p = t.run([t.opts.pomp_link, "--verbose", t.cc, "-fopenmp", "main.o",
               "other.o", "-o", "probe"])
    first = p.stderr.splitlines()[0] if p.stderr else ""
    base = os.path.basename(t.cc)
    if re.match(r"^(.*-)?gcc(-[0-9.]+)?$", base) and shutil.which(
            re.sub(r"gcc(-[0-9.]+)?$", r"gcc-nm\1", base)):
        check(re.match(r"^\S*gcc-nm(-[0-9.]+)? ", first),
              "pomp-link scans GCC's LTO objects with %r, not gcc-nm"
              % first)
    # GCC's default partitioning, made to split even this small program
    split = ["--param=lto-min-partition=1", "--param=lto-partitions=4"]
    for name, link in (("default", []), ("split", split),
                       ("parallel", ["-flto=2"] + split)):
        t.pomp_cc(t.cc, "-fopenmp", "-O2", "-flto", *link, "main.o",
                  "other.o", "-o", name)
        out, _, counts = tool_counts(t, ["./" + name], tool, 2)
        check(out == want_out, "%s: output %r" % (name, out))
        check(counts.get("dispatch") == want_chunks,
              "%s: %s chunks reported, %d expected"
              % (name, counts.get("dispatch"), want_chunks))
        check(len(init_functions(t.nm(name))) == 2,
              "%s: init functions missing" % name)
    # A partitioning the user chose is kept, with a warning that says what
    # it costs.
    p = t.pomp_cc(t.cc, "-fopenmp", "-O2", "-flto", "-flto-partition=max",
                  "main.o", "other.o", "-o", "max")
    check("-flto-partition=max" in p.stderr and "no chunks" in p.stderr,
          "no warning for -flto-partition=max: %r" % p.stderr)
    out, _, _ = tool_counts(t, ["./max"], tool, 2)
    check(out == want_out, "max: output %r" % out)
    # A link of units without chunk events is not changed.
    t.pomp_cc(t.cc, "-fopenmp", "-O2", "-flto", "-c", main, "-o", "m0.o")
    t.pomp_cc(t.cc, "-fopenmp", "-O2", "-flto", "-c", other, "-o", "o0.o")
    p = t.run([t.opts.pomp_link, "--verbose", t.cc, "-fopenmp", "m0.o",
               "o0.o", "-o", "nochunks"])
    check("-flto-partition" not in p.stderr,
          "-flto-partition added without chunk units:\n%s" % p.stderr)
    t.check_tmp_empty()


CASES = {name[5:]: fn for name, fn in globals().items()
         if name.startswith("case_")}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--pomp-cc", required=True)
    ap.add_argument("--pomp-link", required=True)
    ap.add_argument("--cc", required=True)
    ap.add_argument("--cxx")
    ap.add_argument("--check-tool", help="tests/runtime's ompt_check_tool")
    ap.add_argument("--print-tool", help="the example tool")
    ap.add_argument("case", choices=sorted(CASES))
    opts = ap.parse_args()
    opts.pomp_cc = os.path.abspath(opts.pomp_cc)
    opts.pomp_link = os.path.abspath(opts.pomp_link)
    for tool in ("check_tool", "print_tool"):
        if getattr(opts, tool):
            setattr(opts, tool, os.path.abspath(getattr(opts, tool)))
    t = Env(opts)
    try:
        CASES[opts.case](t)
    except Failure as e:
        print("FAIL (%s): %s" % (opts.case, e))
        print("files kept in %s" % t.root)
        return 1
    t.cleanup()
    print("PASS (%s)" % opts.case)
    return 0


if __name__ == "__main__":
    sys.exit(main())
