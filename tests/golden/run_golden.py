#!/usr/bin/env python3
"""Golden tests of pomp-instr.

    run_golden.py --pomp-instr EXE --pomp-h pomp.h --cc gcc --srcdir DIR \
                  --workdir DIR MODE CASE [ARG]

CASE names DIR/CASE.c, or DIR/CASE.cpp (built with --cxx, as C++).  Every
mode first preprocesses it as pomp-cc does
(cc -E -fopenmp -D_POMP=202611 -DPOMP_H_FORCED -include pomp.h, run in DIR
so that the line markers name the file as the user wrote it) and runs
pomp-instr on the result.

The first lines of a case may say, in comments:
  golden-also: x.h            user headers whose lines "check" also shows
  golden-args: --opt ...      extra pomp-instr arguments

check    compare the main file's lines of the output (extract_main.py, with
         the presumed line numbers) with DIR/CASE.expected; user headers
         named in "golden-also" are included.
         If DIR/CASE.stderr exists, pomp-instr's stderr must equal it.
         With --update, write the expected files instead.
compile  compile the output with cc -fopenmp -x cpp-output -c
         -Werror=implicit-function-declaration -Wall -Wextra and more
         warnings; it must compile, and its warnings must be those of the
         preprocessed original, at the same file and line (the cases use
         _Static_assert(__builtin_LINE() == __LINE__) to pin line numbers).
run      link the original and the instrumented unit (the latter with
         pomp_stub.c, which checks that the events pair up and the CTC
         strings are well formed), run both with 1, 2 and 4 threads, compare
         their sorted output.  With one thread (OMP_THREAD_LIMIT=1, whatever
         num_threads clauses ask for) the stub's event log must
         equal DIR/CASE.events (the expected events in the expected order)
         when that file exists.
run-clang the same with clang (--clang): preprocessed, instrumented and
         compiled with clang -fopenmp, run with LLVM's OpenMP runtime.
error    pomp-instr must fail with status 1, write no output file, and its
         first diagnostic must start with ARG ("file:line:").
"""
import argparse
import difflib
import os
import re
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(1, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import extract_main  # noqa: E402
from libomp_race import run_past_deps_race  # noqa: E402

DIAG = re.compile(r'^(?P<file>[^:\s]+):(?P<line>\d+):(?:\d+:)? (?P<kind>warning|error): (?P<msg>.*)$')


def fail(msg):
    sys.stderr.write('FAIL: ' + msg + '\n')
    sys.exit(1)


def run(cmd, cwd, env=None):
    return subprocess.run(cmd, cwd=cwd, env=env, stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, universal_newlines=True)


def preprocess_and_instrument(a, work, compiler=None):
    src = a.source
    compiler = compiler or a.compiler
    ipath = os.path.join(work, a.case + ('.ii' if a.is_cxx else '.i'))
    opath = os.path.join(work, a.case + ('.pomp.ii' if a.is_cxx else '.pomp.i'))
    r = run([compiler, '-E', '-fopenmp', '-D_POMP=202611', '-DPOMP_H_FORCED',
             '-include', a.pomp_h, src, '-o', ipath], cwd=a.srcdir)
    if r.returncode != 0:
        fail('preprocessing %s failed:\n%s' % (src, r.stderr))
    if os.path.exists(opath):
        os.remove(opath)
    r = run([a.pomp_instr, ipath, '-o', opath] + case_setting(a, 'golden-args'),
            cwd=a.srcdir)
    return r, ipath, opath


def case_setting(a, key):
    """The words after "key:" in the case's first three lines."""
    with open(os.path.join(a.srcdir, a.source)) as f:
        head = [f.readline() for _ in range(3)]
    for line in head:
        m = re.search(key + r':\s*(.*?)\s*(?:\*/)?$', line)
        if m:
            return m.group(1).split()
    return []


def also_files(a):
    return case_setting(a, 'golden-also')


def compare(expected_path, actual, what, update):
    if update:
        with open(expected_path, 'w') as f:
            f.write(actual)
        return
    if not os.path.exists(expected_path):
        fail('%s missing (run with --update and review it)' % expected_path)
    with open(expected_path) as f:
        expected = f.read()
    if expected != actual:
        diff = difflib.unified_diff(expected.splitlines(True), actual.splitlines(True),
                                    expected_path, what)
        fail('%s differs from %s:\n%s' % (what, expected_path, ''.join(diff)))


def mode_check(a, work):
    r, _, opath = preprocess_and_instrument(a, work)
    if r.returncode != 0:
        fail('pomp-instr failed (%d):\n%s' % (r.returncode, r.stderr))
    with open(opath, encoding='utf-8', errors='surrogateescape') as f:
        out = extract_main.extract(f.read(), also_files(a))
    compare(os.path.join(a.srcdir, a.case + '.expected'), out, 'pomp-instr output', a.update)
    stderr_path = os.path.join(a.srcdir, a.case + '.stderr')
    if os.path.exists(stderr_path) or (a.update and r.stderr):
        compare(stderr_path, r.stderr, 'pomp-instr stderr', a.update)


def diagnostics(text):
    """The warnings and errors of a compiler run, as (file, line, message)."""
    out = set()
    for line in text.splitlines():
        m = DIAG.match(line)
        if m:
            out.add((os.path.basename(m.group('file')), int(m.group('line')),
                     m.group('kind'), m.group('msg')))
    return out


def mode_compile(a, work):
    r, ipath, opath = preprocess_and_instrument(a, work)
    if r.returncode != 0:
        fail('pomp-instr failed (%d):\n%s' % (r.returncode, r.stderr))
    flags = ['-fopenmp', '-Wall', '-Wextra', '-Wconversion', '-Wshadow', '-Wpedantic']
    if a.is_cxx:
        flags += ['-Wmissing-declarations']
    else:
        flags += ['-Wmissing-prototypes', '-Wstrict-prototypes',
                  '-Wdeclaration-after-statement', '-Werror=implicit-function-declaration']
    # The reference is the preprocessed original, compiled the same way (a
    # diagnostic inside a macro expansion is reported at the macro's
    # definition when compiling the .c, at its use when compiling a .i).
    orig = run([a.compiler] + flags + ['-x', a.cpp_output, '-c', ipath,
                                 '-o', os.path.join(work, 'orig.o')], cwd=a.srcdir)
    if orig.returncode != 0:
        fail('the original %s does not compile:\n%s' % (a.source, orig.stderr))
    inst = run([a.compiler] + flags + ['-x', a.cpp_output, '-c', opath,
                                 '-o', os.path.join(work, a.case + '.o')], cwd=a.srcdir)
    if inst.returncode != 0:
        fail('the instrumented unit does not compile:\n%s' % inst.stderr)
    want, got = diagnostics(orig.stderr), diagnostics(inst.stderr)
    if want != got:
        fail('diagnostics differ\n  original only: %s\n  instrumented only: %s'
             % (sorted(want - got), sorted(got - want)))


def run_on(clang, exe, work, env):
    """A program run; under LLVM's runtime (clang) past its known race."""
    if not clang:
        return run([exe], cwd=work, env=env)
    return run_past_deps_race(lambda: run([exe], cwd=work, env=env),
                              os.path.basename(exe))


def mode_run(a, work, clang=False):
    compiler = (a.clangxx if a.is_cxx else a.clang) if clang else a.compiler
    r, _, opath = preprocess_and_instrument(a, work, compiler)
    if r.returncode != 0:
        fail('pomp-instr failed (%d):\n%s' % (r.returncode, r.stderr))
    orig_exe = os.path.join(work, 'orig')
    inst_exe = os.path.join(work, 'inst')
    b = run([compiler, '-fopenmp', a.source, '-o', orig_exe], cwd=a.srcdir)
    if b.returncode != 0:
        fail('building the original failed:\n%s' % b.stderr)
    b = run([compiler, '-fopenmp', '-I', os.path.dirname(a.pomp_h), '-x', a.cpp_output, opath,
             '-x', 'c', os.path.join(a.srcdir, 'pomp_stub.c'), '-o', inst_exe], cwd=a.srcdir)
    if b.returncode != 0:
        fail('building the instrumented program failed:\n%s' % b.stderr)
    events = os.path.join(a.srcdir, a.case + '.events')
    for threads in (1, 2, 4):
        env = dict(os.environ, OMP_NUM_THREADS=str(threads))
        if threads == 1:  # num_threads clauses ask for more: limit them
            env['OMP_THREAD_LIMIT'] = '1'
        log = os.path.join(work, 'events.log')
        check_log = threads == 1 and not clang and (a.update or os.path.exists(events))
        ienv = dict(env, POMP_STUB_LOG=log) if check_log else env
        ro = run_on(clang, orig_exe, work, env)
        ri = run_on(clang, inst_exe, work, ienv)
        what = ' (%d thread%s)' % (threads, 's' if threads > 1 else '')
        if ri.returncode != ro.returncode:
            fail('exit status %d, original %d%s\n%s' % (ri.returncode, ro.returncode, what,
                                                       ri.stderr))
        if sorted(ro.stdout.splitlines()) != sorted(ri.stdout.splitlines()):
            fail('output differs%s:\noriginal:\n%s\ninstrumented:\n%s'
                 % (what, ro.stdout, ri.stdout))
        if ri.stderr != ro.stderr:
            fail('the POMP stub reported%s:\n%s' % (what, ri.stderr))
        if check_log:
            with open(log) as f:
                compare(events, f.read(), 'event log (1 thread)', a.update)


def mode_error(a, work):
    r, _, opath = preprocess_and_instrument(a, work)
    if r.returncode != 1:
        fail('pomp-instr exited with %d, expected 1\n%s' % (r.returncode, r.stderr))
    if os.path.exists(opath):
        fail('an output file was written: %s' % opath)
    leftovers = [f for f in os.listdir(work) if '.tmp.' in f]
    if leftovers:
        fail('temporary files left behind: %s' % leftovers)
    first = r.stderr.splitlines()[0] if r.stderr else ''
    if not first.startswith(a.arg) or ': error: ' not in first:
        fail('first diagnostic %r does not start with %r' % (first, a.arg))


def main():
    p = argparse.ArgumentParser()
    p.add_argument('--pomp-instr', required=True)
    p.add_argument('--pomp-h', required=True)
    p.add_argument('--cc', default='gcc')
    p.add_argument('--cxx', default='g++')
    p.add_argument('--clang', default='clang-14')
    p.add_argument('--clangxx', default='clang++-14')
    p.add_argument('--srcdir', required=True)
    p.add_argument('--workdir', required=True)
    p.add_argument('--update', action='store_true')
    p.add_argument('mode', choices=['check', 'compile', 'run', 'run-clang', 'error'])
    p.add_argument('case')
    p.add_argument('arg', nargs='?', default='')
    a = p.parse_args()
    a.pomp_instr = os.path.abspath(a.pomp_instr)
    a.pomp_h = os.path.abspath(a.pomp_h)
    a.is_cxx = os.path.exists(os.path.join(a.srcdir, a.case + '.cpp'))
    a.source = a.case + ('.cpp' if a.is_cxx else '.c')
    a.compiler = a.cxx if a.is_cxx else a.cc
    a.cpp_output = 'c++-cpp-output' if a.is_cxx else 'cpp-output'
    work = os.path.abspath(os.path.join(a.workdir, 'golden-%s-%s' % (a.mode, a.case)))
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    {'check': mode_check, 'compile': mode_compile, 'run': mode_run,
     'run-clang': lambda a, w: mode_run(a, w, clang=True),
     'error': mode_error}[a.mode](a, work)


if __name__ == '__main__':
    main()
