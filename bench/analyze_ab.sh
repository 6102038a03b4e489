#!/usr/bin/env bash
# Two builds of `swingmaster analyze` on the 2-minute phone bench file (bench/lib.sh generate_phone: H.264
# High 16 Mbit/s with grain, 1080p60, 23 hits; the footage's figures walk, they do not swing), run in turns
# so the machine's load falls on both alike: what a change (or a whole issue) costs where players measure it.
# For each run: wall and CPU seconds, the pose stage's wall (from the timings line), frames posed, shots; then
# the medians of each build and their ratio.
#   bench/analyze_ab.sh BEFORE_BIN AFTER_BIN [RUNS]     (each a swingmaster binary; RUNS per build, default 3)
# Extra `analyze` flags: SWINGMASTER_AB_ARGS (default none: the product's defaults). Another video:
# SWINGMASTER_AB_FILE (e.g. the real phone drill in ../shared/real, whose players do swing), with its player's
# hand in SWINGMASTER_AB_HAND (default right).
set -euo pipefail
cd "$(dirname "$0")/.."
BEFORE=${1:?usage: bench/analyze_ab.sh BEFORE_BIN AFTER_BIN [RUNS]}
AFTER=${2:?usage: bench/analyze_ab.sh BEFORE_BIN AFTER_BIN [RUNS]}
RUNS=${3:-3}
for b in "$BEFORE" "$AFTER"; do [ -x "$b" ] || { echo "analyze_ab: $b is not an executable" >&2; exit 1; }; done
PYTHON="${SWINGMASTER_PYTHON:-.deps/venv/bin/python}"
OUT=bench/out; mkdir -p "$OUT"
. bench/lib.sh
FILE=${SWINGMASTER_AB_FILE:-$OUT/phone_120s_h264_60.mp4}
HAND=${SWINGMASTER_AB_HAND:-right}
[ -n "${SWINGMASTER_AB_FILE:-}" ] || generate_phone "$FILE" h264 60
[ -f "$FILE" ] || { echo "analyze_ab: $FILE is not here" >&2; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export SWINGMASTER_HOME="$work/home"
read -r -a EXTRA <<< "${SWINGMASTER_AB_ARGS:-}"
echo "# bench/analyze_ab.sh, $(date -u +%F), $(git rev-parse --short HEAD 2>/dev/null || echo unknown), $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "# before: $BEFORE"
echo "# after:  $AFTER"
echo "# file: $FILE, --hand $HAND${EXTRA[*]:+, flags: ${EXTRA[*]}}"
for i in $(seq "$RUNS"); do
  for side in before after; do
    bin=$BEFORE; [ $side = after ] && bin=$AFTER
    /usr/bin/time -f "%e %U %S %M" -o "$work/time" "$bin" analyze "$FILE" --hand "$HAND" --no-store "${EXTRA[@]}" \
      > "$work/out" 2> "$work/err" || { echo "analyze_ab: $side run $i failed: $(tail -3 "$work/err")" >&2; exit 1; }
    read -r wall user sys rss < "$work/time"
    pose=$(grep -o 'running body pose [0-9.]* s' "$work/out" | grep -o '[0-9.]*' || echo 0)
    posed=$(grep -o '[0-9]* frames posed' "$work/out" | grep -o '^[0-9]*' || echo 0)
    shots=$(grep -o 'measured shots: [0-9]*' "$work/out" | grep -o '[0-9]*$' || echo 0)
    echo "$side $wall $(awk -v u="$user" -v s="$sys" 'BEGIN{print u+s}') $pose $posed $shots $rss" >> "$work/rows"
    printf '%-6s run %d: wall %6.1f s, CPU %6.1f s, pose stage %6.1f s, %4d frames posed, %2d shots, peak %d MB\n' \
      "$side" "$i" "$wall" "$(awk -v u="$user" -v s="$sys" 'BEGIN{print u+s}')" "$pose" "$posed" "$shots" "$((rss / 1000))"
  done
done
awk '
  function median(a, n,   i, j, t) { for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (a[j] < a[i]) { t = a[i]; a[i] = a[j]; a[j] = t }
                                    return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2 }
  { n[$1]++; w[$1, n[$1]] = $2; c[$1, n[$1]] = $3; p[$1, n[$1]] = $4; f[$1] = $5 }
  END {
    for (s in n) { for (i = 1; i <= n[s]; i++) { ww[i] = w[s, i]; cc[i] = c[s, i]; pp[i] = p[s, i] }
                   mw[s] = median(ww, n[s]); mc[s] = median(cc, n[s]); mp[s] = median(pp, n[s]) }
    printf "medians: before wall %.1f s, CPU %.1f s, pose stage %.1f s (%d frames posed); after wall %.1f s, CPU %.1f s, pose stage %.1f s (%d frames posed)\n", mw["before"], mc["before"], mp["before"], f["before"], mw["after"], mc["after"], mp["after"], f["after"]
    printf "after / before: wall %.3fx, CPU %.3fx, pose stage %.3fx\n", mw["after"] / mw["before"], mc["after"] / mc["before"], mp["after"] / mp["before"]
  }' "$work/rows"
