#!/usr/bin/env bash
# Formats the product's C sources with the repository's .clang-format.
# Test programs are left alone: several tests check the source lines of the
# constructs in them, and the golden inputs are the instrumenter's input.
# --check: report files that need formatting, change nothing.
set -euo pipefail
cd "$(dirname "$0")/.."
files=$(git ls-files 'instrumenter/*.[ch]' 'pomp/*.[ch]' 'ompt-bridge/*.[ch]' \
  'runtime-stubs/*.[ch]' 'tools/*.[ch]' 'examples/ompt_*.c')
if [ "${1:-}" = "--check" ]; then
  clang-format --dry-run --Werror $files
else
  clang-format -i $files
fi
