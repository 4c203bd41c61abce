#!/usr/bin/env bash
# Times `soulc count --encoding o200k_base` against npm tiktoken (WASM build
# of OpenAI's tokenizer) and gpt-tokenizer (pure JavaScript) counting the same
# 15 MB persona text, whole process each (start, load the ranks, read, count,
# print), and measures what loading o200k_base adds to soulc's resident memory.
#
#   bench/tokens-vs-tiktoken.sh BUILD_DIR [RUNS]
#
# BUILD_DIR must already hold bin/soulc and bin/soul-gen-persona (a Release
# build; this script builds nothing): ninja -C BUILD_DIR soulc soul-gen-persona
# tiktoken@1.0.22 and gpt-tokenizer@4.0.0 are installed into a temporary
# folder (needs the npm registry). The three run interleaved, RUNS times each
# (default 5), after the page cache is warm; the medians are compared. All
# three must print the same count. Goals: soulc at least 2x tiktoken's MB/s;
# o200k_base adds at most 60 MiB of peak RSS.
set -euo pipefail

if [[ $# -lt 1 || $# -gt 2 || $1 == -h || $1 == --help ]]; then
    sed -n '2,15s/^# \{0,1\}//p' "$0"
    [[ $# -ge 1 && ($1 == -h || $1 == --help) ]] && exit 0
    exit 2
fi
build=$(cd "$1" && pwd)
runs=${2:-5}
soulc=$build/bin/soulc
gen=$build/bin/soul-gen-persona
for tool in "$soulc" "$gen"; do
    if [[ ! -x $tool ]]; then
        echo "tokens-vs-tiktoken: $tool: not built. Run: ninja -C $build soulc soul-gen-persona" >&2
        exit 2
    fi
done
if [[ ! $runs =~ ^[0-9]+$ || $runs -lt 1 ]]; then
    echo "tokens-vs-tiktoken: RUNS must be a positive number, not '$runs'" >&2
    exit 2
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/tokens-bench.XXXXXX")
trap 'rm -rf "$work"' EXIT

(cd "$work" && npm init -y >/dev/null \
    && npm install --no-audit --no-fund --loglevel=error tiktoken@1.0.22 gpt-tokenizer@4.0.0 >/dev/null)
cat > "$work/tiktoken-count.js" <<'EOF'
const fs = require("fs");
const { get_encoding } = require("tiktoken");
const text = new TextDecoder("utf-8", { ignoreBOM: true }).decode(fs.readFileSync(process.argv[2]));
const enc = get_encoding("o200k_base");
console.log(enc.encode_ordinary(text).length);
EOF
cat > "$work/gpt-tokenizer-count.js" <<'EOF'
const fs = require("fs");
const { countTokens } = require("gpt-tokenizer/encoding/o200k_base");
const text = new TextDecoder("utf-8", { ignoreBOM: true }).decode(fs.readFileSync(process.argv[2]));
console.log(countTokens(text, { disallowedSpecial: new Set() }));
EOF

# The persona text: the large generated persona's files, one after another,
# cut at the last line break before 15,000,000 bytes.
"$gen" "$work/persona" --size 2200000 >/dev/null
text=$work/persona.txt
cat "$work/persona"/{AGENTS,SOUL,IDENTITY,USER,TOOLS,HEARTBEAT,MEMORY}.md > "$text.all"
head -c 15000000 "$text.all" > "$text.cut"
sed '$d' "$text.cut" > "$text"
rm "$text.all" "$text.cut"
bytes=$(stat -c %s "$text")

declare -A cmd=(
    [soulc]="$soulc count --encoding o200k_base $text"
    [tiktoken]="node $work/tiktoken-count.js $text"
    [gpt-tokenizer]="node $work/gpt-tokenizer-count.js $text"
)
order=(soulc tiktoken gpt-tokenizer)

# Warm the page cache and check that all three agree.
declare -A count
for name in "${order[@]}"; do
    count[$name]=$(${cmd[$name]})
done
for name in "${order[@]}"; do
    if [[ ${count[$name]} != "${count[soulc]}" ]]; then
        echo "tokens-vs-tiktoken: $name counts ${count[$name]}, soulc ${count[soulc]}" >&2
        exit 1
    fi
done

declare -A times
for ((i = 0; i < runs; i++)); do
    for name in "${order[@]}"; do
        start=${EPOCHREALTIME/[.,]/}
        ${cmd[$name]} >/dev/null
        end=${EPOCHREALTIME/[.,]/}
        times[$name]+="$(((end - start) / 1000)) "
    done
done

median() { tr ' ' '\n' | grep . | sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
printf 'text: %s bytes, %s o200k_base tokens; %s runs each, whole process\n\n' "$bytes" "${count[soulc]}" "$runs"
printf '%-14s %10s %8s %8s\n' tool "median ms" "MB/s" "vs soulc"
soulc_ms=$(median <<<"${times[soulc]}")
for name in "${order[@]}"; do
    ms=$(median <<<"${times[$name]}")
    awk -v n="$name" -v ms="$ms" -v b="$bytes" -v s="$soulc_ms" \
        'BEGIN { printf "%-14s %10d %8.2f %7.2fx\n", n, ms, b / 1e6 / (ms / 1000), ms / s }'
done

# Memory: peak RSS of soulc counting a one-line file with o200k_base, against
# soulc printing its version (the same process without the ranks).
echo "Ava keeps notes short." > "$work/small.txt"
base=$(/usr/bin/time -f %M "$soulc" --version 2>&1 >/dev/null)
loaded=$(/usr/bin/time -f %M "$soulc" count --encoding o200k_base "$work/small.txt" 2>&1 >/dev/null)
whole=$(/usr/bin/time -f %M "$soulc" count --encoding o200k_base "$text" 2>&1 >/dev/null)
printf '\npeak RSS: soulc --version %d KiB; counting one line with o200k_base %d KiB (+%.1f MiB); counting the text %d KiB\n' \
    "$base" "$loaded" "$(awk -v a="$loaded" -v b="$base" 'BEGIN { print (a - b) / 1024 }')" "$whole"
