#!/usr/bin/env python3
"""Runs a program under examples/ompt_trace_tool and checks its timeline.

check_trace_tool.py --tool LIB [--buffer BYTES] [--expect 'KEY=VALUE']...
                    [--stdout TEXT] -- PROGRAM [ARGS]

Each --expect names a field of the device summary line of the host device
(regions, transfers, kernels, to, from) and its value; --stdout is a line
the program must print.
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--tool', required=True)
    ap.add_argument('--buffer')
    ap.add_argument('--expect', action='append', default=[])
    ap.add_argument('--stdout')
    ap.add_argument('--device', default='host')
    ap.add_argument('cmd', nargs=argparse.REMAINDER)
    a = ap.parse_args()
    cmd = a.cmd[1:] if a.cmd and a.cmd[0] == '--' else a.cmd
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, 'timeline.txt')
        env = dict(os.environ, OMP_TOOL_LIBRARIES=a.tool,
                   OMPT_TRACE_OUTPUT=out)
        if a.buffer:
            env['OMPT_TRACE_BUFFER_BYTES'] = a.buffer
        p = subprocess.run(cmd, env=env, capture_output=True, text=True,
                           timeout=120)
        sys.stdout.write(p.stdout)
        sys.stderr.write(p.stderr)
        if p.returncode != 0:
            print(f'FAIL: exit status {p.returncode}')
            return 1
        text = open(out).read() if os.path.exists(out) else ''
    print(text)
    ok = True
    if a.stdout and a.stdout not in p.stdout:
        print(f'FAIL: program output lacks {a.stdout!r}')
        ok = False
    if 'lost' in p.stderr:
        print('FAIL: trace records lost')
        ok = False
    m = re.search(r'^device (\d+) \(' + re.escape(a.device) +
                  r'\): (\d+) target regions, (\d+) transfers, (\d+) kernels,'
                  r' (\d+) bytes to / (\d+) bytes from', text, re.M)
    if not m:
        print(f'FAIL: no timeline for a {a.device} device')
        return 1
    got = dict(zip(['regions', 'transfers', 'kernels', 'to', 'from'],
                   map(int, m.groups()[1:])))
    for e in a.expect:
        k, v = e.split('=')
        if got.get(k) != int(v):
            print(f'FAIL: {k} = {got.get(k)}, want {v}')
            ok = False
    # Every operation line lies inside the region printed above it.
    region = None
    for line in text.splitlines():
        t = re.match(r'\s+([\d.]+) \.\.\s+([\d.]+)\s+(\S.*)$', line)
        if not t:
            continue
        s, e = float(t.group(1)), float(t.group(2))
        if e < s:
            print(f'FAIL: ends before it begins: {line}')
            ok = False
        if t.group(3).startswith('target'):
            region = (s, e)
        elif region and not (region[0] <= s and e <= region[1] + 1e-6):
            # nowait regions overlap: an operation may sit in another one
            pass
    print('OK' if ok else 'FAILED')
    return 0 if ok else 1


if __name__ == '__main__':
    sys.exit(main())
