#!/usr/bin/env bash
# Renders resources/icons/soulstudio.svg to the PNG sizes of the hicolor icon
# theme, for desktops and launchers that do not scale SVG icons. The PNGs are
# kept in the repository so a build needs no SVG renderer; run this again
# whenever the SVG changes.
#
# Needs rsvg-convert (Debian: librsvg2-bin) and optipng if present.
set -euo pipefail

src=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd -P)
svg=$src/resources/icons/soulstudio.svg
out=$src/resources/icons/hicolor

for size in 16 22 24 32 48 64 128 256; do
    dir=$out/${size}x${size}/apps
    mkdir -p "$dir"
    rsvg-convert --width "$size" --height "$size" --keep-aspect-ratio \
        --output "$dir/org.soulstudio.SoulStudio.png" "$svg"
    if command -v optipng >/dev/null; then
        optipng -quiet -o7 -strip all "$dir/org.soulstudio.SoulStudio.png"
    fi
done
echo "rendered $(find "$out" -name '*.png' | wc -l) PNGs under ${out#"$src"/}"
