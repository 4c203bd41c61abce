#!/usr/bin/env bash
# Times `soulc diff A B` on two large personas that differ in one word of
# MEMORY.md, against `soulc compose` of both (making the two souls, which any
# comparison needs) and `soulc count` of the two souls (counting their tokens,
# which the stable prefix in tokens needs), and prints soul-diff-bench's
# per-step medians.
#
#   bench/diff/soulc-diff.sh BUILD_DIR [RUNS]
#
# BUILD_DIR must already hold bin/soulc, bin/soul-gen-persona and
# bin/soul-diff-bench: ninja -C BUILD_DIR soulc soul-gen-persona soul-diff-bench
set -euo pipefail

if [[ $# -lt 1 || $# -gt 2 || $1 == -h || $1 == --help ]]; then
    sed -n '2,9s/^# \{0,1\}//p' "$0"
    [[ $# -ge 1 && ( $1 == -h || $1 == --help ) ]] && exit 0
    exit 2
fi
build=$(cd "$1" && pwd)
runs=${2:-15}
for tool in soulc soul-gen-persona soul-diff-bench; do
    if [[ ! -x $build/bin/$tool ]]; then
        echo "soulc-diff: $build/bin/$tool: not built." >&2
        exit 2
    fi
done
soulc=$build/bin/soulc

work=$(mktemp -d "${TMPDIR:-/tmp}/soulc-diff-bench.XXXXXX")
trap 'rm -rf "$work"' EXIT
"$build/bin/soul-gen-persona" "$work/a" > /dev/null
cp -r "$work/a" "$work/b"
# One word, about a megabyte into MEMORY.md (inside the cap): " agent " -> " AGENT ".
offset=$(set +o pipefail; grep -boa ' agent ' "$work/b/MEMORY.md" | awk -F: '$1 > 1000000 { print $1; exit }')
printf ' AGENT ' | dd of="$work/b/MEMORY.md" bs=1 seek="$offset" conv=notrunc status=none

now() { NOW=$((10#${EPOCHREALTIME/[.,]/})); }
median_ms() {
    sort -n | awk '{ v[NR] = $1 } END {
        m = (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
        printf "%.2f", m / 1000 }'
}

"$soulc" compose "$work/a" > "$work/a.soul.md"
"$soulc" compose "$work/b" > "$work/b.soul.md"
for _ in 1 2 3; do
    "$soulc" diff "$work/a" "$work/b" > /dev/null || true
done
diff_us=()
compose_us=()
diff_cpu_us=()
compose_cpu_us=()
count_us=()
count_cpu_us=()
# CPU time (user + sys) of the children, in microseconds, beside wall time:
# on a shared machine the wall clock also counts waiting for a core.
# `times` runs in this shell (a subshell would not see these children).
cpu_us() {
    times > "$work/times"
    CPU=$(awk 'END { s = 0
        for (i = 1; i <= 2; i++) { split($i, p, "m"); s += p[1] * 60 + substr(p[2], 1, length(p[2]) - 1) }
        printf "%d", s * 1000000 }' "$work/times")
}
for ((i = 0; i < runs; i++)); do
    cpu_us; c0=$CPU; now; t0=$NOW
    "$soulc" diff "$work/a" "$work/b" > /dev/null || true
    now; cpu_us; diff_us+=($((NOW - t0))); diff_cpu_us+=($((CPU - c0)))
    cpu_us; c0=$CPU; now; t0=$NOW
    "$soulc" compose "$work/a" > /dev/null
    "$soulc" compose "$work/b" > /dev/null
    now; cpu_us; compose_us+=($((NOW - t0))); compose_cpu_us+=($((CPU - c0)))
    cpu_us; c0=$CPU; now; t0=$NOW
    "$soulc" count "$work/a.soul.md" "$work/b.soul.md" > /dev/null
    now; cpu_us; count_us+=($((NOW - t0))); count_cpu_us+=($((CPU - c0)))
done
echo "persona     $(du -cb "$work"/a/*.md | tail -1 | cut -f1) bytes a side; one word changed in MEMORY.md at byte $offset"
{ "$soulc" diff "$work/a" "$work/b" || true; } | tail -1
echo "                  median wall ms  median CPU ms"
echo "soulc diff        $(printf '%s\n' "${diff_us[@]}" | median_ms)  $(printf '%s\n' "${diff_cpu_us[@]}" | median_ms)   (soulc diff A B > /dev/null)"
echo "soulc compose x2  $(printf '%s\n' "${compose_us[@]}" | median_ms)  $(printf '%s\n' "${compose_cpu_us[@]}" | median_ms)   (soulc compose A; soulc compose B)"
echo "soulc count       $(printf '%s\n' "${count_us[@]}" | median_ms)  $(printf '%s\n' "${count_cpu_us[@]}" | median_ms)   (soulc count A.soul.md B.soul.md)"
"$build/bin/soul-diff-bench" "$work/a" "$work/b" "$runs"
