#!/usr/bin/env bash
# Rebuilds the shipped Hashi, Loop and enclose.horse profiles with `autoplayer calibrate`, from
# the shared corpus's screenshots (their puzzles are in each folder's index.jsonl), the captures
# kept in calibration/hashi/captures and the page captures in fixtures/enclose/page. Needs jq.
#   calibration/make.sh [CORPUS]     (default: $AUTOPLAYER_CORPUS, else ../shared/corpus)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
corpus=$(cd "${1:-${AUTOPLAYER_CORPUS:-$root/../shared/corpus}}" && pwd)
cargo build --quiet --release --manifest-path "$root/Cargo.toml"
bin="$root/target/release/autoplayer"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# Pictures are named in the profiles as corpus/... and autoplayer/..., wherever they live.
ln -s "$corpus" "$work/corpus"
ln -s "$root" "$work/autoplayer"
mkdir "$work/puzzles"
cd "$work"

# Writes the puzzle text $2 to a file and prints "picture puzzle-file".
pair() {
    local f="puzzles/$(basename "$1").txt"
    printf '%s\n' "$2" > "$f"
    echo "$1 $f"
}

sgt=()
while read -r file id; do
    sgt+=($(pair "corpus/hashi/screenshots/$file" "$id"))
done < <(jq -r '"\(.file) \(.game_id)"' corpus/hashi/screenshots/index.jsonl)
while read -r file id; do
    sgt+=($(pair "corpus/hashi/app-screens/$file" "$id"))
done < <(jq -r 'select(.game_id != null) | "\(.file) \(.game_id)"' corpus/hashi/app-screens/index.jsonl)
for shot in autoplayer/calibration/hashi/captures/*.png; do
    # bridges_<W>x<H>m<max>_<desc>_ts<size>.png: the game ID is in the name.
    IFS=_ read -r _ size desc _ <<< "$(basename "$shot")"
    sgt+=($(pair "$shot" "$size:$desc"))
done
"$bin" calibrate hashi "${sgt[@]}" -o autoplayer/calibration/hashi/sgt_digits.json

web=()
while read -r file code; do
    web+=($(pair "corpus/hashi/app-screens/$file" "$code"))
done < <(jq -r 'select(.tr1_code != null) | "\(.file) \(.tr1_code)"' corpus/hashi/app-screens/index.jsonl)
"$bin" calibrate hashi "${web[@]}" -o autoplayer/calibration/hashi/web_digits.json

loop=()
while read -r file hints; do
    loop+=($(pair "corpus/loop/$file" "$(tr , '\n' <<< "$hints")"))
done < <(jq -r 'select(.state != "solved") | "\(.file) \(.hints | join(","))"' corpus/loop/screenshots/index.jsonl)
"$bin" calibrate loop "${loop[@]}" -o autoplayer/calibration/loop/digits.json

# enclose.horse: every picture with a known map, as "budget: N" and the map's rows.
enclose_pair() {
    pair "$1" "$(printf 'budget: %s\n%s' "$2" "$(tr , '\n' <<< "$3")")"
}
enclose=()
while IFS=$'\t' read -r file budget rows; do
    enclose+=($(enclose_pair "corpus/enclose/screenshots/$file" "$budget" "$rows"))
done < <(jq -r 'select(.map_rows != null) | [.file, (.budget // 1), (.map_rows | join(","))] | @tsv' corpus/enclose/screenshots/index.jsonl)
while IFS=$'\t' read -r file budget rows; do
    enclose+=($(enclose_pair "corpus/enclose/app-screens/$file" "$budget" "$rows"))
done < <(jq -r 'select(.state == "fresh") | [.file, .level.budget, (.level.map_rows | join(","))] | @tsv' corpus/enclose/app-screens/index.jsonl)
while IFS=$'\t' read -r file budget rows; do
    enclose+=($(enclose_pair "autoplayer/fixtures/enclose/page/$file" "$budget" "$rows"))
done < <(jq -r '[.file, .budget, (.map_rows | join(","))] | @tsv' autoplayer/fixtures/enclose/page/index.jsonl)
"$bin" calibrate enclose "${enclose[@]}" -o autoplayer/calibration/enclose/sprites.json
