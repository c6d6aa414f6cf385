#!/usr/bin/env python3
"""Real build systems with CC="pomp-cc gcc", and pompt's installation.

    buildsys_test.py --pomp-cc PATH --tool LIB [--build-root DIR]
                     [--meson CMD] CASE

CASE is <system>-<compiler> with system make, meson or cmake and compiler
gcc (CC="pomp-cc gcc" CXX="pomp-cc g++") or clang (CC="pomp-cc clang-14"
CXX="pomp-cc clang++-14"), or "install".

The build-system cases copy project/ (a program, a static library in C, a
shared library in C++, a header and a source generated at build time,
precompiled headers) into a fresh folder, build it out of tree with nothing
but CC and CXX set, run the program under the example OMPT tool and check
its output and the tool's counts.  The copied source tree must come out
unchanged and no temporary file of pomp-cc may be left.

"install" runs `meson install --destdir` for the build tree, moves the
installed prefix elsewhere, and builds and runs an example with the
relocated pomp-cc.  Exit status: 0 pass, 1 fail, 77 skip.
"""

import argparse
import glob
import os
import re
import shutil
import subprocess
import sys
import tempfile

SKIP = 77
HERE = os.path.dirname(os.path.abspath(__file__))
PROJECT = os.path.join(HERE, "project")
EXPECTED_STDOUT = "team=3 sum=5050 mean=49.5 gen=3\n"
# Teams the program starts: main, the static library, the shared library
# and the generated source, one each.
EXPECTED_PARALLEL = 4

COMPILERS = {
    "gcc": ("gcc", "g++"),
    "clang": ("clang-14", "clang++-14"),
}


class Failure(Exception):
    pass


class Skip(Exception):
    pass


def check(cond, msg):
    if not cond:
        raise Failure(msg)


def snapshot(root):
    out = {}
    for d, _, files in os.walk(root):
        for f in files:
            p = os.path.join(d, f)
            st = os.stat(p)
            out[os.path.relpath(p, root)] = (st.st_size, st.st_mtime_ns)
    return out


class Env:
    def __init__(self, opts):
        self.opts = opts
        self.root = tempfile.mkdtemp(prefix="pompt-buildsys-test.")
        self.tmp = os.path.join(self.root, "tmp")
        os.mkdir(self.tmp)
        self.env = dict(os.environ)
        self.env["TMPDIR"] = self.tmp
        # meson test points LD_LIBRARY_PATH at the build tree, which would
        # hide what the programs' own run paths find.
        for var in ("POMPT_KEEP", "CFLAGS", "CXXFLAGS", "CPPFLAGS", "LDFLAGS",
                    "MAKEFLAGS", "OMP_TOOL", "OMP_TOOL_LIBRARIES",
                    "LD_LIBRARY_PATH"):
            self.env.pop(var, None)

    def run(self, args, cwd=None, env=None, expect=0):
        e = dict(self.env)
        if env:
            e.update(env)
        p = subprocess.run(args, cwd=cwd or self.root, env=e,
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                           universal_newlines=True)
        if expect is not None and p.returncode != expect:
            raise Failure("command %s exited with %d (expected %d):\n%s"
                          % (" ".join(args), p.returncode, expect,
                             p.stdout[-6000:]))
        return p

    def run_program(self, args, cwd, tool, threads=3, extra_env=None):
        """Runs a program under an OMPT tool; (stdout, tool summary)."""
        e = dict(self.env)
        e["OMP_NUM_THREADS"] = str(threads)
        e["OMP_TOOL_LIBRARIES"] = tool
        if extra_env:
            e.update(extra_env)
        p = subprocess.run(args, cwd=cwd, env=e, stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, universal_newlines=True,
                           timeout=60)
        check(p.returncode == 0, "%s exited with %d:\n%s%s"
              % (args[0], p.returncode, p.stdout, p.stderr[-4000:]))
        m = re.search(r"^ompt: summary (.*)$", p.stderr, re.M)
        check(m, "the tool printed no summary; stderr:\n%s" % p.stderr[-4000:])
        counts = dict(kv.split("=", 1) for kv in m.group(1).split())
        return p.stdout, {k: int(v) for k, v in counts.items()}

    def check_tmp_empty(self):
        left = os.listdir(self.tmp)
        check(not left, "temporary files left in TMPDIR: %s" % left)

    def cleanup(self):
        shutil.rmtree(self.root, ignore_errors=True)


def need(program):
    path = shutil.which(program)
    if not path:
        raise Skip("%s not found" % program)
    return path


def init_functions(text):
    return set(re.findall(r"\b(POMP_Init_[0-9a-f]{16})\b", text))


# ---- the build systems ---------------------------------------------------------

def build_make(t, src, build, cc, cxx):
    need("make")
    t.run(["make", "-j2", "-f", os.path.join(src, "Makefile"), "SRC=" + src],
          cwd=build, env={"CC": cc, "CXX": cxx})
    check(os.path.exists(os.path.join(build, "common.h.gch")),
          "the precompiled header was not built")
    # The dependency files name the user's files: nothing to do now.
    p = t.run(["make", "-q", "-f", os.path.join(src, "Makefile"),
               "SRC=" + src], cwd=build, env={"CC": cc, "CXX": cxx},
              expect=None)
    check(p.returncode == 0, "make -q: the build is not up to date:\n%s"
          % p.stdout)
    for d in glob.glob(os.path.join(build, "*.d")):
        with open(d) as f:
            text = f.read()
        check(t.tmp not in text and "pomp-cc." not in text,
              "%s names a temporary file:\n%s" % (d, text))
    return os.path.join(build, "app"), os.path.join(build, "libshared.so")


def build_meson(t, src, build, cc, cxx):
    meson = [t.opts.meson or need("meson")]
    need("ninja")
    t.run(meson + ["setup", build, src], env={"CC": cc, "CXX": cxx})
    t.run(["ninja", "-C", build, "-j2"])
    check(glob.glob(os.path.join(build, "**", "*.[gp]ch"), recursive=True),
          "no precompiled header was built")
    p = t.run(["ninja", "-C", build, "-n"])
    check("no work to do" in p.stdout,
          "ninja: the build is not up to date:\n%s" % p.stdout)
    return (os.path.join(build, "app"),
            os.path.join(build, "libshared.so"))


def build_cmake(t, src, build, cc, cxx):
    cmake = need("cmake")
    gen = ["-G", "Ninja"] if shutil.which("ninja") else []
    t.run([cmake, "-S", src, "-B", build, "-DCMAKE_BUILD_TYPE=RelWithDebInfo"]
          + gen, env={"CC": cc, "CXX": cxx})
    t.run([cmake, "--build", build, "-j", "2"])
    check(glob.glob(os.path.join(build, "**", "cmake_pch.h*.[gp]ch"),
                    recursive=True), "no precompiled header was built")
    return (os.path.join(build, "app"),
            os.path.join(build, "libshared.so"))


SYSTEMS = {"make": build_make, "meson": build_meson, "cmake": build_cmake}


def case_buildsys(t, system, compiler):
    cc_name, cxx_name = COMPILERS[compiler]
    need(cc_name)
    need(cxx_name)
    src = os.path.join(t.root, "src")
    build = os.path.join(t.root, "build")
    shutil.copytree(PROJECT, src)
    os.mkdir(build)
    before = snapshot(src)
    pomp_cc = t.opts.pomp_cc
    app, shlib = SYSTEMS[system](t, src, build, "%s %s" % (pomp_cc, cc_name),
                                 "%s %s" % (pomp_cc, cxx_name))
    check(snapshot(src) == before, "the source tree changed")
    t.check_tmp_empty()

    # Instrumented: every C unit of the program and the archive member
    # registers its constructs, and so does the shared library.
    inits = init_functions(t.run(["nm", app]).stdout)
    check(len(inits) >= 3, "the program holds %d POMP_Init_* functions, "
          "expected 3 (main, generated source, archive member)" % len(inits))
    check(init_functions(t.run(["nm", "-D", "--defined-only", shlib]).stdout),
          "the shared library holds no POMP_Init_* function")

    out, counts = t.run_program([app], build, t.opts.tool)
    check(out == EXPECTED_STDOUT, "output %r, expected %r"
          % (out, EXPECTED_STDOUT))
    for name in ("parallel_begin", "parallel_end"):
        check(counts.get(name) == EXPECTED_PARALLEL,
              "%s=%s, expected %d (counts: %s)"
              % (name, counts.get(name), EXPECTED_PARALLEL, counts))
    check(counts.get("thread_begin", 0) >= 1, "no thread_begin: %s" % counts)


# ---- installation ------------------------------------------------------------

def case_install(t):
    check(t.opts.build_root, "--build-root is needed")
    meson = [t.opts.meson or need("meson")]
    dest = os.path.join(t.root, "dest")
    t.run(meson + ["install", "-C", t.opts.build_root, "--no-rebuild",
                   "--quiet", "--destdir", dest])
    # The prefix as configured, found below dest.
    bins = glob.glob(os.path.join(dest, "**", "bin", "pomp-cc"),
                     recursive=True)
    check(len(bins) == 1, "pomp-cc installed %d times: %s" % (len(bins),
                                                               bins))
    prefix = os.path.dirname(os.path.dirname(bins[0]))
    # Move it: the installed commands must find their pieces relative to
    # where they are now.
    moved = os.path.join(t.root, "elsewhere", "pompt")
    os.makedirs(os.path.dirname(moved))
    shutil.move(prefix, moved)
    files = {os.path.relpath(os.path.join(d, f), moved)
             for d, _, fs in os.walk(moved) for f in fs}

    def one(pattern):
        hits = sorted(f for f in files if re.fullmatch(pattern, f))
        check(hits, "nothing installed matches %s; installed:\n%s"
              % (pattern, "\n".join(sorted(files))))
        return os.path.join(moved, hits[0])

    for cmd in ("pomp-cc", "pomp-link", "pomp-instr"):
        one(r"bin/" + cmd)
    one(r"include/pompt/pomp\.h")
    one(r"include/pompt/omp-tools\.h")
    libpompt_so = one(r"lib[^/]*(/[^/]+)?/libpompt\.so")
    libdir = os.path.dirname(libpompt_so)
    one(re.escape(os.path.relpath(libdir, moved)) + r"/libpompt\.a")
    one(re.escape(os.path.relpath(libdir, moved)) + r"/libpompt-stubs\.so")
    one(re.escape(os.path.relpath(libdir, moved)) + r"/libpompt-stubs\.a")
    pc = one(r".*/pkgconfig/libpompt\.pc")
    for page in ("pomp-cc", "pomp-link", "pomp-instr"):
        one(r"share/man/man1/%s\.1" % page)
    tool = one(r".*/libompt_print_tool\.so")
    demo = one(r"share/doc/pompt/examples/demo\.c")
    check(not [f for f in files if f.endswith("pompt-build-tree.conf")],
          "the build tree's configuration file was installed")

    pomp_cc = os.path.join(moved, "bin", "pomp-cc")
    build_root = os.path.realpath(t.opts.build_root)
    # Nothing of the build tree is used: the commands name only the
    # relocated prefix.
    work = os.path.join(t.root, "work")
    os.mkdir(work)
    shutil.copy(demo, work)
    env = {k: "" for k in ("POMPT_INSTR", "POMPT_LINK", "POMPT_INCLUDE",
                           "POMPT_LIBDIR", "POMPT_STUBS_LIBDIR")}
    p = t.run([pomp_cc, "--show", "gcc", "-fopenmp", "demo.c", "-o", "demo"],
              cwd=work, env=env)
    check(build_root not in p.stdout,
          "the installed pomp-cc uses the build tree:\n%s" % p.stdout)
    check(moved in p.stdout, "pomp-cc --show names no relocated path:\n%s"
          % p.stdout)
    p = t.run([os.path.join(moved, "bin", "pomp-link"), "--show", "gcc",
               "-fopenmp", "demo.o", "-o", "demo"], cwd=work, env=env)
    check(build_root not in p.stdout and libdir in p.stdout,
          "the installed pomp-link does not link the relocated libpompt:\n%s"
          % p.stdout)

    # Build and run the example with the relocated pomp-cc and tool.
    t.run([pomp_cc, "gcc", "-fopenmp", "-O2", "demo.c", "-o", "demo"],
          cwd=work, env=env)
    ldd = t.run(["ldd", os.path.join(work, "demo")]).stdout
    m = re.search(r"libpompt\.so\S* => (\S+)", ldd)
    check(m and m.group(1).startswith(moved),
          "the program does not load the relocated libpompt:\n%s" % ldd)
    out, counts = t.run_program(["./demo"], work, tool, threads=2)
    check(counts.get("parallel_begin", 0) > 0 and
          counts.get("parallel_begin") == counts.get("parallel_end"),
          "demo under the installed tool: %s" % counts)
    # Serial, against the installed stubs.
    t.run([pomp_cc, "gcc", "-Wno-unknown-pragmas", "demo.c", "-o",
           "demo-serial"], cwd=work, env=env)
    ldd = t.run(["ldd", os.path.join(work, "demo-serial")]).stdout
    check(re.search(r"libpompt-stubs\.so\S* => " + re.escape(moved), ldd),
          "the serial program does not load the relocated stubs:\n%s" % ldd)
    _, counts = t.run_program(["./demo-serial"], work, tool, threads=1)
    check(counts.get("parallel_begin", 0) > 0 and
          counts.get("thread_begin") == 1,
          "serial demo under the installed tool: %s" % counts)

    # pkg-config: every path in the file follows its prefix, which is
    # either relative to the file (meson's pkgconfig.relocatable) or set
    # for the moved tree with --define-variable (pkg-config's own
    # --define-prefix guesses wrong with a multiarch libdir such as
    # lib/x86_64-linux-gnu).
    if shutil.which("pkg-config"):
        e = {"PKG_CONFIG_PATH": os.path.dirname(pc),
             "PKG_CONFIG_LIBDIR": os.path.dirname(pc)}

        def pkg_flags(extra):
            p = t.run(["pkg-config"] + extra + ["--cflags", "--libs",
                                                "libpompt"], env=e)
            dirs = [os.path.normpath(f[2:]) for f in p.stdout.split()
                    if f.startswith(("-I", "-L"))]
            ok = (os.path.join(moved, "include", "pompt") in dirs
                  and libdir in dirs and "-lpompt" in p.stdout.split())
            return ok, p.stdout

        ok, flags = pkg_flags([])
        if not ok:
            print("note: libpompt.pc names an absolute prefix; relocating "
                  "it with --define-variable")
            ok, flags = pkg_flags(["--define-variable=prefix=" + moved])
        check(ok, "pkg-config does not give the moved tree's paths: %r"
              % flags)
        # A hand-written POMP client built from pkg-config's flags alone.
        with open(os.path.join(work, "client.c"), "w") as f:
            f.write("#include <pomp.h>\n#include <omp-tools.h>\n"
                    "int main(void) { return POMP_Init() == POMP_SUCCESS "
                    "? 0 : 1; }\n")
        t.run(["gcc", "client.c", "-o", "client"] + flags.split()
              + ["-Wl,-rpath," + libdir], cwd=work)
        t.run(["./client"], cwd=work)
    t.check_tmp_empty()


# ---- main --------------------------------------------------------------------

def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--pomp-cc", required=True)
    ap.add_argument("--tool", required=True,
                    help="the example tool, libompt_print_tool.so")
    ap.add_argument("--build-root", help="pompt's build tree (install)")
    ap.add_argument("--meson",
                    help="the meson command (default: meson in PATH)")
    ap.add_argument("case")
    opts = ap.parse_args()
    opts.pomp_cc = os.path.abspath(opts.pomp_cc)
    opts.tool = os.path.abspath(opts.tool)
    t = Env(opts)
    try:
        if opts.case == "install":
            case_install(t)
        else:
            system, _, compiler = opts.case.partition("-")
            if system not in SYSTEMS or compiler not in COMPILERS:
                ap.error("unknown case %s" % opts.case)
            case_buildsys(t, system, compiler)
    except Skip as e:
        print("SKIP (%s): %s" % (opts.case, e))
        t.cleanup()
        return SKIP
    except Failure as e:
        print("FAIL (%s): %s" % (opts.case, e))
        print("files kept in %s" % t.root)
        return 1
    t.cleanup()
    print("PASS (%s)" % opts.case)
    return 0


if __name__ == "__main__":
    sys.exit(main())
