#!/usr/bin/env python3
"""Print the lines of a preprocessed (and instrumented) unit that belong to
its main file, each prefixed with its presumed line number.

Line markers ('# 12 "foo.c" 2') are followed to know which file and line
every physical line stands for; the markers themselves are not printed, so
the numbers show whether pomp-instr restored the user's line numbering.
Lines of other files are dropped, except files named with --also (user
headers), which are printed prefixed with their name.  The per-file init
function's id is replaced by <id>, since it depends on the absolute path.

usage: extract_main.py UNIT.i [--also x.h]...
"""
import re
import sys

MARKER = re.compile(r'^\s*#\s*(?:line\s+)?(\d+)(?:\s+"((?:[^"\\]|\\.)*)"(.*))?\s*$')
INIT_ID = re.compile(r'POMP_Init_[0-9a-f]{16}\b')


def unescape(name):
    return re.sub(r'\\(.)', r'\1', name)


def extract(text, also=()):
    out = []
    main = None
    cur_file, cur_line = None, 1
    lines = text.split('\n')
    if lines and lines[-1] == '':
        lines.pop()
    for line in lines:
        m = MARKER.match(line)
        if m:
            if m.group(2) is not None:
                cur_file = unescape(m.group(2))
                if main is None:
                    main = cur_file
            cur_line = int(m.group(1))
            continue
        line = INIT_ID.sub('POMP_Init_<id>', line.rstrip())
        if cur_file is not None and cur_file == main:
            out.append('%4d: %s' % (cur_line, line) if line else '%4d:' % cur_line)
        elif cur_file is not None and cur_file in also:
            out.append('%s:%d: %s' % (cur_file, cur_line, line) if line
                       else '%s:%d:' % (cur_file, cur_line))
        cur_line += 1
    # The unit's end (the per-file init function) has no marker of its own:
    # it continues the file the last marker named, normally the main file.
    return '\n'.join(out) + '\n'


def main(argv):
    args = argv[1:]
    also = []
    path = None
    while args:
        a = args.pop(0)
        if a == '--also':
            also.append(args.pop(0))
        elif path is None:
            path = a
        else:
            sys.stderr.write(__doc__)
            return 2
    if path is None:
        sys.stderr.write(__doc__)
        return 2
    with open(path, encoding='utf-8', errors='surrogateescape') as f:
        sys.stdout.write(extract(f.read(), also))
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
