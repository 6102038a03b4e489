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
