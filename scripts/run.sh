#!/usr/bin/env bash
# Builds Soul Studio in build/ and opens a persona directory in it: the
# bundled example (examples/ava) unless another directory is given.
#
#   scripts/run.sh [PERSONA_DIR]
#
# On Debian and Ubuntu, build dependencies that are missing are installed
# first with apt-get (through sudo when not root).
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd -P)
persona=${1:-$root/examples/ava}

packages=(cmake ninja-build g++ pkg-config qt6-base-dev qt6-base-dev-tools libgl-dev libgit2-dev zlib1g-dev libyaml-cpp-dev libpcre2-dev qtkeychain-qt6-dev)
missing=()
if command -v dpkg-query >/dev/null; then
    for p in "${packages[@]}"; do
        if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed'; then
            missing+=("$p")
        fi
    done
fi
if ((${#missing[@]})); then
    sudo=()
    ((EUID == 0)) || sudo=(sudo)
    echo "Installing build dependencies: ${missing[*]}"
    "${sudo[@]}" apt-get update
    "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y "${missing[@]}"
fi

cmake -S "$root" -B "$root/build" -G Ninja
cmake --build "$root/build"
exec "$root/build/bin/soulstudio" "$persona"
