"""A lit test's directives, as LLVM's test runners read them: its RUN
lines (a trailing backslash continues a line) and its REQUIRES /
UNSUPPORTED / XFAIL lines.  Shared by the runners of LLVM's suites in this
folder."""
import re


def directives(path):
    """(runs, meta): the test's commands, and its "KIND:text" lines."""
    runs, meta, cur = [], [], ""
    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f:
            m = re.search(r"//\s*(UNSUPPORTED|XFAIL|REQUIRES):(.*)$", line)
            if m:
                meta.append(m.group(1) + ":" + m.group(2).strip())
            m = re.search(r"//\s*RUN:(.*)$", line)
            if m:
                text = m.group(1).rstrip()
                if text.endswith("\\"):
                    cur += text[:-1] + " "
                else:
                    runs.append((cur + text).strip())
                    cur = ""
    return runs, meta
