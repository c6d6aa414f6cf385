#!/usr/bin/env bash
# The main job, start to finish: install what is missing, build pompt,
# instrument the example programs with pomp-cc, run them under the example
# OMPT tool and show what the tool saw, then profile one with pompt-prof.
set -euo pipefail
cd "$(dirname "$0")"
scripts/install-deps.sh
if [ ! -f build/build.ninja ]; then
  meson setup build >/dev/null
fi
ninja -C build >/dev/null

out=build/quickstart
mkdir -p "$out"
tool="$PWD/build/examples/libompt_print_tool.so"

for prog in demo heat; do
  echo "== pomp-cc gcc -fopenmp examples/$prog.c -o $out/$prog"
  build/instrumenter/pomp-cc gcc -fopenmp -O2 -g "examples/$prog.c" -o "$out/$prog"
done

echo
echo "== OMP_NUM_THREADS=2 OMP_TOOL_LIBRARIES=$tool $out/demo"
OMP_NUM_THREADS=2 OMP_TOOL_LIBRARIES="$tool" "$out/demo"

echo
echo "== the same for heat (program output, then a summary of the tool's log)"
OMP_NUM_THREADS=2 OMPT_PRINT_FILE="$out/heat.ompt.log" OMP_TOOL_LIBRARIES="$tool" "$out/heat"
grep -E "summary|finalize" "$out/heat.ompt.log" || true
echo "(full callback log: $out/heat.ompt.log)"

echo
echo "== pompt-prof: where heat spends its time, by construct and source line"
OMP_NUM_THREADS=2 build/tools/pompt-prof -o "$out" -n 10 "$out/heat" >/dev/null
