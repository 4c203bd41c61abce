#!/usr/bin/env bash
# Times `soulc compose DIR > /dev/null` against `cat DIR/*.md > /dev/null` on a
# large generated persona, and measures soulc's peak resident memory.
#
#   bench/soulc-vs-cat.sh BUILD_DIR [RUNS]
#
# BUILD_DIR must already hold bin/soulc and bin/soul-gen-persona (this script
# builds nothing): ninja -C BUILD_DIR soulc soul-gen-persona
# The two commands run interleaved, RUNS times each (default 31), after the
# page cache is warm, and the medians are compared. Goals: the soulc median
# at most 1.5 times cat's, and a peak RSS under 64 MiB.
set -euo pipefail

if [[ $# -lt 1 || $# -gt 2 || $1 == -h || $1 == --help ]]; then
    sed -n '2,11s/^# \{0,1\}//p' "$0"
    [[ $# -ge 1 && ( $1 == -h || $1 == --help ) ]] && exit 0
    exit 2
fi
build=$(cd "$1" && pwd)
runs=${2:-31}
soulc=$build/bin/soulc
gen=$build/bin/soul-gen-persona
for tool in "$soulc" "$gen"; do
    if [[ ! -x $tool ]]; then
        echo "soulc-vs-cat: $tool: not built. Run: ninja -C $build soulc soul-gen-persona" >&2
        exit 2
    fi
done
if [[ ! $runs =~ ^[0-9]+$ || $runs -lt 5 ]]; then
    echo "soulc-vs-cat: RUNS must be a number of at least 5, not '$runs'" >&2
    exit 2
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/soulc-bench.XXXXXX")
trap 'rm -rf "$work"' EXIT
persona=$work/persona
"$gen" "$persona"
files=("$persona"/*.md)

# Warm the page cache (and the dynamic loader's view of soulc's libraries),
# so both commands read from memory.
for _ in 1 2 3; do
    cat "${files[@]}" > /dev/null
    "$soulc" compose "$persona" > /dev/null
done

# Sets NOW to wall-clock nanoseconds. No $(...) around it: a subshell would
# add a fork to every measurement. bash 5's EPOCHREALTIME costs no process;
# the date fallback adds the same cost to both commands.
now() {
    if [[ -n ${EPOCHREALTIME:-} ]]; then
        NOW=$((10#${EPOCHREALTIME/[.,]/} * 1000))
    else
        NOW=$(date +%s%N)
    fi
}

median_ms() {
    sort -n | awk '{ v[NR] = $1 } END {
        m = (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
        printf "%.2f", m / 1e6 }'
}

: > "$work/soulc.ns"
: > "$work/cat.ns"
for ((i = 0; i < runs; ++i)); do
    # Alternate which goes first, so neither always runs on a cache the other warmed.
    for which in $( ((i % 2)) && echo "cat soulc" || echo "soulc cat"); do
        if [[ $which == soulc ]]; then
            now; t0=$NOW
            "$soulc" compose "$persona" > /dev/null
            now; t1=$NOW
        else
            now; t0=$NOW
            cat "${files[@]}" > /dev/null
            now; t1=$NOW
        fi
        echo $((t1 - t0)) >> "$work/$which.ns"
    done
done

soulc_ms=$(median_ms < "$work/soulc.ns")
cat_ms=$(median_ms < "$work/cat.ns")
ratio=$(awk -v a="$soulc_ms" -v b="$cat_ms" 'BEGIN { printf "%.2f", a / b }')

if [[ -x /usr/bin/time ]]; then
    peak_kib=$(/usr/bin/time -f %M "$soulc" compose "$persona" 2>&1 > /dev/null | tail -n 1)
    peak_mib=$(awk -v k="$peak_kib" 'BEGIN { printf "%.1f", k / 1024 }')
else
    peak_mib="?"
fi

persona_bytes=$(cat "${files[@]}" | wc -c)
soul_bytes=$("$soulc" compose "$persona" | wc -c)
verdict() { awk -v v="$1" -v limit="$2" 'BEGIN { print (v <= limit) ? "met" : "MISSED" }'; }

echo "persona     ${#files[@]} files, $persona_bytes bytes; soul $soul_bytes bytes"
echo "runs        $runs of each, interleaved, page cache warm"
echo "soulc       median $soulc_ms ms   ($soulc compose DIR > /dev/null)"
echo "cat         median $cat_ms ms   (cat DIR/*.md > /dev/null)"
echo "ratio       $ratio   (goal <= 1.5: $(verdict "$ratio" 1.5))"
if [[ $peak_mib != "?" ]]; then
    echo "peak RSS    $peak_mib MiB   (goal < 64: $(verdict "$peak_mib" 63.99))"
else
    echo "peak RSS    not measured: /usr/bin/time is missing"
fi

# A second opinion, not interleaved, when hyperfine is installed. Its CPU
# times (user + system) hold up better than wall time on a busy machine.
if command -v hyperfine > /dev/null; then
    echo
    hyperfine -N --warmup 3 --runs "$runs" --style basic --export-json "$work/hyperfine.json" \
        --command-name soulc "$soulc compose $persona" \
        --command-name cat "cat ${files[*]}" 2>&1 | grep -E '^(Benchmark|  Time|  Range)' || true
    awk 'BEGIN { n = 0 }
         /"user":/ { gsub(/[^0-9.eE+-]/, "", $2); user[n] = $2 }
         /"system":/ { gsub(/[^0-9.eE+-]/, "", $2); cpu[n] = (user[n] + $2) * 1000; n++ }
         END { if (n == 2 && cpu[1] > 0)
                   printf "cpu         soulc %.2f ms, cat %.2f ms (user + system, mean): ratio %.2f\n",
                          cpu[0], cpu[1], cpu[0] / cpu[1] }' "$work/hyperfine.json"
fi
