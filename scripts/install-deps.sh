#!/usr/bin/env bash
# Installs the Debian packages pompt needs to build and test, when missing.
# Pinned LLVM: 14 (libclang for pomp-instr, libomp for the native-OMPT
# comparison).  Runs apt-get only when something is missing; uses sudo when
# not root.
set -euo pipefail

packages=(
  meson ninja-build pkg-config gcc g++ gfortran binutils python3
  flex bison
  clang-14 libclang-14-dev libomp-14-dev
  libpapi-dev libdw-dev
  make cmake
  openmpi-bin libopenmpi-dev
  valgrind
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" ||
    missing+=("$p")
done

if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi

echo "pompt: installing ${missing[*]}"
sudo=""
if [ "$(id -u)" -ne 0 ]; then
  sudo="sudo"
fi
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
