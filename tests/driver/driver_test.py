#!/usr/bin/env python3
"""End-to-end tests of pomp-cc and pomp-link.

    driver_test.py --pomp-cc PATH --pomp-link PATH --cc CC [--cxx CXX] CASE

Every case builds small programs in a fresh directory (sources in src/,
outputs in build/) with TMPDIR pointing into it, so that leftovers of the
drivers are seen.  Exit status: 0 pass, 1 fail, 77 skip.
"""

import argparse
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


CASES = {name[5:]: fn for name, fn in globals().items()
         if name.startswith("case_")}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--pomp-cc", required=True)
    ap.add_argument("--pomp-link", required=True)
    ap.add_argument("--cc", required=True)
    ap.add_argument("--cxx")
    ap.add_argument("case", choices=sorted(CASES))
    opts = ap.parse_args()
    opts.pomp_cc = os.path.abspath(opts.pomp_cc)
    opts.pomp_link = os.path.abspath(opts.pomp_link)
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
