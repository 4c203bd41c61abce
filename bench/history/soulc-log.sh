#!/usr/bin/env bash
# Times `soulc log` on a persona with a long git history: the typical persona
# (examples/ava: six slot files, about 8.5 KB) through COMMITS commits
# (default 2,000), each editing one or two slots as an agent and its author
# do (a memory line added, a line of the soul reworded, a user fact
# dropped), written with `git fast-import`.
#
#   bench/history/soulc-log.sh [BUILD_DIR]     (default: build-release)
#
# Build soulc in Release first:
#
#   cmake -S . -B build-release -G Ninja -DCMAKE_BUILD_TYPE=Release
#   cmake --build build-release --target soulc
#
# Prints the history's size, then the median and the range of the wall time
# of RUNS runs (default 7) and their median CPU time (user and system, all
# threads) of `soulc log DIR > /dev/null`, of `soulc log --json`, and of
# `git log --oneline -- DIR` beside them. Every run is a new process, so each
# loads the token ranks and composes and counts every blob of the history
# once; nothing is kept between runs. The goal: soulc log of 2,000 commits
# in at most 1 s.
#
# Environment: COMMITS, RUNS, SEED (default 2000, 7, 1), KEEP=1 keeps the
# repository.
set -euo pipefail

src=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd -P)
build=${1:-build-release}
[[ $build == /* ]] || build=$src/$build
soulc=$build/bin/soulc
commits=${COMMITS:-2000}
runs=${RUNS:-7}
seed=${SEED:-1}

if [[ ! -x $soulc ]]; then
    echo "soulc-log: $soulc is missing; build it first (see the header of $0)." >&2
    exit 2
fi

tmp=$(mktemp -d)
if [[ ${KEEP:-0} == 1 ]]; then
    echo "soulc-log: keeping $tmp"
else
    trap 'rm -rf -- "$tmp"' EXIT
fi
repo=$tmp/repo
persona=$repo/agents/ava
export GIT_CONFIG_NOSYSTEM=1 HOME=$tmp

git init -q -b main "$repo"
python3 - "$src/examples/ava" "$commits" "$seed" > "$tmp/stream" <<'EOF'
# Writes a git fast-import stream: examples/ava in agents/ava, then edits.
import os, random, sys

ava, commits, seed = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
rng = random.Random(seed)
files = {n: open(os.path.join(ava, n), "rb").read().decode().split("\n")
         for n in sorted(os.listdir(ava)) if n.endswith(".md")}
sizes = {n: len("\n".join(lines)) for n, lines in files.items()}
weights = {"MEMORY.md": 8, "USER.md": 4, "SOUL.md": 3, "AGENTS.md": 2,
           "IDENTITY.md": 1, "TOOLS.md": 2}
words = ("the user prefers short answers in metric units and asks before any file "
         "is deleted; remember the project names, the deadlines and the tone that "
         "worked last time").split()
out = sys.stdout.buffer

def line():
    return "- " + " ".join(rng.choice(words) for _ in range(rng.randint(6, 14)))

def data(text):
    raw = text.encode()
    out.write(b"data %d\n" % len(raw) + raw + b"\n")

for n in range(commits):
    changed = set()
    if n == 0:
        changed = set(files)
    else:
        for _ in range(rng.choice([1, 1, 1, 2])):
            name = rng.choices(list(weights), list(weights.values()))[0]
            lines = files[name]
            # Files grow to about 1.2 times their size in bytes, then stay there.
            op = rng.random()
            size = len("\n".join(lines))
            grow = size < sizes[name] * 1.2
            if (op < 0.45 and grow) or size < sizes[name] * 0.8:
                lines.insert(rng.randint(len(lines) // 2, len(lines)), line())
            elif op < 0.75:
                lines[rng.randrange(len(lines))] = line()
            else:
                del lines[rng.randrange(len(lines))]
            changed.add(name)
    out.write(b"commit refs/heads/main\nmark :%d\n" % (n + 1))
    out.write(b"committer Bench <bench@example.org> %d +0000\n" % (1700000000 + 3600 * n))
    data("edit %d: %s" % (n, ", ".join(sorted(changed))))
    if n:
        out.write(b"from :%d\n" % n)
    for name in sorted(changed):
        out.write(b"M 100644 inline agents/ava/%s\n" % name.encode())
        data("\n".join(files[name]))
    out.write(b"\n")
EOF
git -C "$repo" fast-import --quiet < "$tmp/stream"
git -C "$repo" checkout -q main
git -C "$repo" gc -q

bytes=$(cat "$persona"/*.md | wc -c)
blobs=$(git -C "$repo" rev-list --objects --all | cut -d' ' -f1 \
    | git -C "$repo" cat-file --batch-check='%(objecttype)' | grep -c blob || true)
listed=$("$soulc" log --json "$persona" | grep -c '"shortId"')
echo "history     $(git -C "$repo" rev-list --count HEAD) commits, $blobs blobs, packed; persona $(ls "$persona" | wc -l) files, $bytes bytes at HEAD"
echo "soulc log   lists $listed commits"
echo "runs        $runs of each, page cache warm, $(nproc) CPUs"

# The median and range of `runs` wall times of a command, and its median CPU
# time (user and system), in milliseconds.
time_it()
{
    local label=$1
    shift
    local i times=$tmp/times
    : > "$times"
    "$@" > /dev/null # warm up
    for ((i = 0; i < runs; i++)); do
        { time "$@" > /dev/null; } 2>> "$times"
    done
    awk -v label="$label" '
        { wall[NR] = $1 * 1000; cpu[NR] = ($2 + $3) * 1000 }
        function median(a, n,    i, j, t) {
            for (i = 1; i <= n; i++)
                for (j = i + 1; j <= n; j++)
                    if (a[j] < a[i]) { t = a[i]; a[i] = a[j]; a[j] = t }
            return (n % 2) ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
        }
        END {
            m = median(wall, NR)
            printf "%-14s median %7.1f ms wall (min %.1f, max %.1f), %7.1f ms CPU\n",
                   label, m, wall[1], wall[NR], median(cpu, NR)
        }' "$times"
}

TIMEFORMAT='%R %U %S'
time_it "soulc log" "$soulc" log "$persona"
time_it "soulc log json" "$soulc" log --json "$persona"
time_it "git log" git -C "$persona" log --oneline -- .
