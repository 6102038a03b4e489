# Shared by the bench scripts (sourced; expects $OUT and $PYTHON).
# generate VIDEO NAME SECONDS LOOPS SEED FIRST STEP COUNT: the demo clip's footage looped LOOPS+1 times,
# upscaled to 1080p60, with synthetic court sound hitting COUNT times from FIRST every STEP seconds
# (truth in NAME.truth.json). Made once and cached in bench/out.
generate() {
  local video=$1 name=$2 seconds=$3 loops=$4 seed=$5 first=$6 step=$7 count=$8
  [ -f "$video" ] && return
  echo "generating $video (once; cached) …"
  local contacts
  contacts=$(python3 -c "print(','.join(f'{$first + $step*i:.2f}' for i in range($count)))")
  "$PYTHON" tools/demo_sample_audio.py --duration "$seconds" --seed "$seed" --contacts "$contacts" \
    --wav "$OUT/$name.wav" --truth "$OUT/$name.truth.json"
  ffmpeg -v error -y -stream_loop "$loops" -i Samples/demo_session.mp4 -i "$OUT/$name.wav" \
    -map 0:v -map 1:a -vf "scale=1920:1080:flags=bilinear,fps=60" -t "$seconds" \
    -c:v libx264 -preset ultrafast -crf 30 -g 120 -c:a aac -b:a 96k "$video"
}

# generate_phone VIDEO CODEC FPS: a 120-s session encoded as a phone records it, from the same footage
# and synthetic court sound as `generate` (23 hits, one every 5 s from 2.5 s; truth in
# phone_120s.truth.json). Phones record at a high bitrate with sensor noise and a keyframe every
# 1–2 s, which costs several times more to decode than the ultrafast CRF-30 bench file: the grain is
# temporal noise (every frame differs, as a sensor's does), keyframes every 1.5 s.
#   CODEC h264: High profile, 16 Mbit/s (max 20), x264 tuned for grain.
#   CODEC hevc: Main profile, 10 Mbit/s (max 12), tagged hvc1 as iPhones write it.
#   CODEC cheap: no grain, x264 ultrafast CRF 30, a keyframe every 2 s — the 10-minute file's encoding,
#   for a row that differs from the phone files only in how they were encoded.
# Made once and cached in bench/out.
generate_phone() {
  local video=$1 codec=$2 fps=$3
  [ -f "$video" ] && return
  echo "generating $video (once; cached) …"
  if [ ! -f "$OUT/phone_120s.wav" ]; then
    local contacts
    contacts=$(python3 -c "print(','.join(f'{2.5 + 5*i:.2f}' for i in range(23)))")
    "$PYTHON" tools/demo_sample_audio.py --duration 120 --seed 28 --contacts "$contacts" \
      --wav "$OUT/phone_120s.wav" --truth "$OUT/phone_120s.truth.json"
  fi
  local gop=$((fps * 3 / 2)) enc
  case $codec in
    h264) enc=(-c:v libx264 -profile:v high -preset veryfast -tune grain -b:v 16M -maxrate 20M -bufsize 20M
               -g "$gop" -keyint_min "$gop" -sc_threshold 0) ;;
    hevc) enc=(-c:v libx265 -profile:v main -preset ultrafast -b:v 10M -tag:v hvc1
               -x265-params "keyint=$gop:min-keyint=$gop:scenecut=0:vbv-maxrate=12000:vbv-bufsize=12000:log-level=error") ;;
    cheap) enc=(-c:v libx264 -preset ultrafast -crf 30 -g $((fps * 2))) ;;
    *) echo "generate_phone: unknown codec $codec" >&2; return 1 ;;
  esac
  local grain=",noise=alls=10:allf=t"; [ "$codec" = cheap ] && grain=""
  ffmpeg -v error -y -stream_loop 10 -i Samples/demo_session.mp4 -i "$OUT/phone_120s.wav" \
    -map 0:v -map 1:a -vf "scale=1920:1080:flags=bicubic,fps=$fps$grain" -t 120 \
    "${enc[@]}" -pix_fmt yuv420p -c:a aac -b:a 128k "$video"
}

# unpruned_models DIR: a models folder holding the landmark model as committed before its segmentation head
# was dropped (tools/prune_blazepose.py), for benches that measure that lever. Taken from git history and
# checked against its SHA-256; returns non-zero (and makes nothing) in a clone without that commit.
UNPRUNED_COMMIT=f258bda UNPRUNED_SHA=7d922b48472a1d38c517fe076a71eba6204021fad9d2f8945a147733c26ea981
unpruned_models() {
  local dir=$1
  mkdir -p "$dir"
  if git show "$UNPRUNED_COMMIT:Models/pose_landmark_full.onnx" > "$dir/pose_landmark_full.onnx" 2>/dev/null \
     && echo "$UNPRUNED_SHA  $dir/pose_landmark_full.onnx" | sha256sum -c --status; then
    cp Models/pose_detection.onnx "$dir/"
  else
    rm -rf "$dir"; return 1
  fi
}

# phone_tracks DIR SEED BIN_DIR PYTHON: issue #26's tracks in DIR — Free Tennis's five conditions and Tennix's
# four (tools/make_recorded_tracks.py, 90 s) and the synthetic generator's eight (swingbench, 60 s), with
# the given seed — each as DIR/TRACK.wav, its truth DIR/TRACK.json and every chain of tools/phone_chain.py
# in DIR/TRACK.chains/CHAIN.wav. Two tracks at a time.
phone_tracks() {
  local dir=$1 seed=$2 bin=$3 py=$4
  [ -f .deps/sounds/freetennis/colpo.wav ] && [ -f .deps/sounds/tennix/racket1.wav ] \
    || { echo "phone_tracks: no recorded sounds (run scripts/setup.sh)" >&2; return 1; }
  [ -x "$bin/swingbench" ] && [ -x "$bin/swingmaster" ] \
    || { echo "phone_tracks: no swingbench and swingmaster in $bin (build them: swift build -c release)" >&2; return 1; }
  {
    for c in practice match netcords wind everything; do echo "rec freetennis $c"; done
    for c in practice match wind everything; do echo "rec tennix $c"; done
    for c in clean ambience wind bounces squeaks voices distant mixed; do echo "syn synthetic $c"; done
  } | xargs -P 2 -L 1 bash -c '
    set -e
    dir=$0 seed=$1 bin=$2 py=$3 kind=$4 corpus=$5 condition=$6
    base="$dir/$corpus-$condition"
    if [ "$kind" = rec ]; then
      "$py" tools/make_recorded_tracks.py ".deps/sounds/$corpus" "$base" --corpus "$corpus" \
        --condition "$condition" --seed "$seed" --duration 90
    else
      "$bin/swingbench" contacts --synthesize "$base.wav" --seconds 60 --seed "$seed" --condition "$condition" > /dev/null
      mv "$base.wav.truth.json" "$base.json"
    fi
    mkdir -p "$base.chains"
    "$py" tools/phone_chain.py "$base.wav" "$base.chains" --chain all' "$dir" "$seed" "$bin" "$py"
}

# two_seeds NAME BIN_DIR PYTHON: the start of a bench that learns on one set of issue #26's tracks and scores
# the other. Stops with one line unless the bench venv has scikit-learn; prints NAME's header; makes
# phone_tracks twice in a temporary folder $work (removed on exit), as $work/seed1 and $work/seed2 (other
# placements, levels, crowds and gusts; the same recorded hit sounds).
two_seeds() {
  .deps/bench-venv/bin/python -c "import sklearn" 2>/dev/null || { echo "$1: no scikit-learn (run make bench-setup)"; exit 1; }
  work="$(mktemp -d)"; trap 'rm -rf "$work"' EXIT
  echo "# bench/$1.sh, $(date -u +%F), $(git rev-parse --short HEAD 2>/dev/null || echo unknown commit)"
  mkdir -p "$work/seed1" "$work/seed2"
  phone_tracks "$work/seed1" 1 "$2" "$3"
  phone_tracks "$work/seed2" 2 "$2" "$3"
}
