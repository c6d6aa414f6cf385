#!/usr/bin/env python3
"""Write large OpenMP C files for the compile-time benchmark.

usage: gen_omp_source.py --out DIR [--files N] [--functions F] [--work W]
                         [--seed S]

Each file holds F functions; each function mixes the constructs pomp-instr
instruments (parallel, for with schedules and reductions, parallel for,
sections, single, master, critical, barrier) with ordinary loops and
arithmetic, and includes the usual system headers.  --work W adds a
serial loop of W statements after every construct (0: constructs back to
back, the densest case).  File 0 also has main(),
which calls every function, so the files link into a program.  The output
depends only on the arguments.
"""
import argparse
import os
import random

HEADER = """\
#include <math.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define N_{u} 256
"""

# Construct templates.  {v} is a unique suffix, {n} the array size macro.
BLOCKS = [
    """\
  #pragma omp parallel for schedule(static) reduction(+:acc)
  for (int i = 0; i < {n}; i++) {{
    acc += a[i] * {c} + sqrt((double)i);
  }}
""",
    """\
  #pragma omp parallel
  {{
    #pragma omp for schedule(dynamic, 4) nowait
    for (int i = 0; i < {n}; i++) {{
      b[i] = a[i] * {c} - b[i] / (1.0 + i);
    }}
    #pragma omp single
    {{
      acc += b[0];
    }}
    #pragma omp critical(upd_{v})
    {{
      acc += 1.0;
    }}
  }}
""",
    """\
  #pragma omp parallel num_threads(2) if(acc > -1.0)
  {{
    int me = omp_get_thread_num();
    #pragma omp for schedule(guided) reduction(max:mx)
    for (int i = 0; i < {n}; i++) {{
      double t = fabs(a[i] - {c} * b[i]);
      if (t > mx) mx = t;
    }}
    #pragma omp master
    {{
      acc += me;
    }}
    #pragma omp barrier
  }}
""",
    """\
  #pragma omp parallel sections
  {{
    #pragma omp section
    {{
      for (int i = 0; i < {n} / 2; i++) a[i] += {c};
    }}
    #pragma omp section
    {{
      for (int i = {n} / 2; i < {n}; i++) b[i] -= {c};
    }}
  }}
""",
    """\
  #pragma omp parallel default(none) shared(a, b) firstprivate(acc)
  {{
    #pragma omp for schedule(runtime)
    for (int i = 1; i < {n}; i++) {{
      a[i] = 0.5 * (a[i] + b[i - 1]) + acc * {c};
    }}
  }}
""",
    """\
  for (int k = 0; k < 3; k++) {{
    #pragma omp parallel for collapse(2) reduction(+:acc)
    for (int i = 0; i < 16; i++)
      for (int j = 0; j < {n} / 16; j++)
        acc += a[i * ({n} / 16) + j] * (k + {c});
  }}
""",
]


def serial_work(rng, u, lines):
    """A serial loop of `lines` statements, as ordinary code between
    constructs."""
    if lines <= 0:
        return ""
    body = []
    for k in range(lines):
        op = rng.choice(["+", "-", "*"])
        body.append(f"    t = t {op} a[(i + {k}) % N_{u}] * {rng.uniform(0.1, 2):.3f};")
        if k % 4 == 3:
            body.append(f"    if (t > {rng.randint(10, 1000)}.0) t = sqrt(t);")
    return ("  {\n    double t = acc;\n"
            f"  for (int i = 0; i < N_{u}; i++) {{\n" + "\n".join(body) +
            "\n    b[i] += t;\n  }\n  acc += t;\n  }\n")


def function(rng, u, index, work=0):
    name = f"kernel_{u}_{index}"
    lines = [
        f"double {name}(double *a, double *b) {{",
        "  double acc = 0.0, mx = 0.0;",
    ]
    for k in range(rng.randint(5, 9)):
        block = rng.choice(BLOCKS)
        lines.append(block.format(v=f"{u}_{index}_{k}", n=f"N_{u}",
                                  c=f"{rng.uniform(0.1, 2.0):.3f}"))
        # Plain code between constructs, as real kernels have.
        lines.append(f"  acc = acc * 0.5 + mx * {rng.uniform(0.1, 1):.3f};")
        lines.append(serial_work(rng, u, work))
    lines.append("  return acc + mx;")
    lines.append("}")
    return name, "\n".join(lines) + "\n"


def write_file(path, u, functions, with_main, all_names, rng, work):
    names = []
    parts = [HEADER.format(u=u)]
    for i in range(functions):
        name, text = function(rng, u, i, work)
        names.append(name)
        parts.append(text)
    if with_main:
        parts.append("".join(f"double {n}(double *, double *);\n"
                             for n in all_names))
        parts.append("int main(void) {\n"
                     "  static double a[4096], b[4096];\n"
                     "  double s = 0.0;\n"
                     "  for (int i = 0; i < 4096; i++) { a[i] = i; b[i] = 1; }\n")
        parts.append("".join(f"  s += {n}(a, b);\n" for n in all_names))
        parts.append('  printf("%g\\n", s);\n  return 0;\n}\n')
    with open(path, "w") as f:
        f.write("\n".join(parts))
    return names


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", required=True)
    ap.add_argument("--files", type=int, default=4)
    ap.add_argument("--functions", type=int, default=150)
    ap.add_argument("--work", type=int, default=0)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    rng = random.Random(args.seed)
    all_names = [f"kernel_{u}_{i}" for u in range(args.files)
                 for i in range(args.functions)]
    paths = []
    for u in range(args.files):
        path = os.path.join(args.out, f"big{u}.c")
        write_file(path, u, args.functions, u == 0, all_names, rng, args.work)
        paths.append(path)
    print("\n".join(paths))


if __name__ == "__main__":
    main()
