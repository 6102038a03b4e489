#!/usr/bin/env bash
# Audio/visual contact fusion (`analyze --detector`): audio-only vs fused precision/recall against known
# truth, and what the detector costs (per processed frame and in total) next to `analyze` without it.
#
# The detector is the COLOUR-KEYED STAND-IN of tools/make_fusion_fixture.py (magenta = racket, yellow =
# ball), not a trained racket/ball model: recall/precision here show that the fusion wiring and rule do
# what they should on clips where every hit's truth is known; they say nothing about how well a real
# racket/ball detector sees real balls. The cost per frame is that of an 11 KB graph plus our letterbox
# and decode; a YOLO11n-sized model costs its own inference on top (bench/results/yolo.txt).
#
# Clips: the committed test fixture (8 s, 4 hits) and a generated 60 s variant with 20 random hits
# (kinds both:audio:visual = 2:1:1, keyframe every 2 s like bench/analyze.sh's clip, cached in
# bench/out/fusion/). Both 1280x720 at 10 fps. Columns: wall = the whole `analyze` run; det s = the
# "detecting visual contacts" stage (decoding + detector + interpreter); pose s = the pose stage, which
# grows with the number of contacts found; ms/frame = mean letterbox + model + decode/NMS per processed frame.
set -euo pipefail
cd "$(dirname "$0")/.."
BIN_DIR="${1:-.build/release}"
PYTHON="${SWINGMASTER_PYTHON:-.deps/venv/bin/python}"
OUT=bench/out/fusion; mkdir -p "$OUT"
FIX=Tests/SwingCLITests/Fixtures/fusion
MODEL="$FIX/colour_standin.onnx"
if [ ! -f "$OUT/fusion_long.mp4" ]; then
  echo "generating $OUT/fusion_long.mp4 (once; cached) …"
  "$PYTHON" tools/make_fusion_fixture.py --out-dir "$OUT" --name fusion_long --model "$MODEL" \
    --duration 60 --random-events 20 --seed 11 --crf 30 --gop 20 >/dev/null
fi
export SWINGMASTER_HOME; SWINGMASTER_HOME=$(mktemp -d)
trap 'rm -rf "$SWINGMASTER_HOME"' EXIT
"$PYTHON" - "$BIN_DIR/swingmaster" "$MODEL" "$FIX/fusion_clip" "$OUT/fusion_long" <<'PY'
import json, re, subprocess, sys, tempfile, time
binary, model, clips = sys.argv[1], sys.argv[2], sys.argv[3:]
STRIDE = 3

def analyze(clip, extra):
    with tempfile.NamedTemporaryFile(suffix=".json") as f:
        t0 = time.monotonic()
        run = subprocess.run([binary, "analyze", clip + ".mp4", "--hand", "right", "--no-store", "--json", f.name] + extra,
                             check=True, capture_output=True, text=True)
        wall = time.monotonic() - t0
        pose = float(re.search(r"running body pose ([0-9.]+) s", run.stdout).group(1))
        return json.load(open(f.name))["session"], wall, pose

def score(shots, hits, tol):
    """One-to-one greedy matching of shots to true hits within tol seconds, closest first."""
    pairs = sorted((abs(s["time"] - h["time"]), i, j) for i, s in enumerate(shots) for j, h in enumerate(hits)
                   if abs(s["time"] - h["time"]) <= tol)
    used_s, used_h, errors = set(), set(), []
    for d, i, j in pairs:
        if i not in used_s and j not in used_h:
            used_s.add(i); used_h.add(j); errors.append(d)
    tp = len(used_h)
    return tp, len(shots) - tp, len(hits) - tp, errors

print("Detector: colour-keyed STAND-IN (tools/make_fusion_fixture.py), not a trained racket/ball model.")
print(f"Load average at start: {open('/proc/loadavg').read().split()[0] if sys.platform.startswith('linux') else '?'} "
      f"(shared machine: per-frame times move with it)")
print("A hit counts as found when a shot lies within one processed-frame interval (stride 3 / fps) of it.\n")
header = f"{'clip':<12} {'mode':<15} {'shots':>5} {'TP':>3} {'FP':>3} {'FN':>3} {'prec':>5} {'recall':>6} " \
         f"{'wall s':>7} {'pose s':>6} {'det s':>6} {'frames':>6} {'ms/frame':>8} {'infer ms':>8}"
print(header); print("-" * len(header))
for clip in clips:
    truth = json.load(open(clip + ".truth.json"))
    hits, fps = truth["events"], truth["fps"]
    tol = STRIDE / fps
    name = clip.rsplit("/", 1)[-1]
    kinds = {k: sum(h["source"] == k for h in hits) for k in ("both", "audio", "visual")}
    for mode, extra in [("audio only", []), ("fused, all", ["--detector", model]),
                        ("fused, windows", ["--detector", model, "--detector-scope", "windows"])]:
        doc, wall, pose = analyze(clip, extra)
        tp, fp, fn, errors = score(doc["shots"], hits, tol)
        v = doc.get("visualDetector")
        det = (f"{v['seconds']:6.2f} {v['framesProcessed']:6d} {v['preMs'] + v['inferenceMs'] + v['postMs']:8.2f} "
               f"{v['inferenceMs']:8.2f}") if v else f"{'-':>6} {'-':>6} {'-':>8} {'-':>8}"
        prec = tp / max(tp + fp, 1)
        print(f"{name:<12} {mode:<15} {len(doc['shots']):5d} {tp:3d} {fp:3d} {fn:3d} {prec:5.2f} {tp / len(hits):6.2f} "
              f"{wall:7.2f} {pose:6.2f} {det}")
        if v and mode == "fused, all":
            wrong = sum(1 for s in doc["shots"] for h in hits
                        if abs(s["time"] - h["time"]) <= tol and s.get("source") != h["source"])
            print(f"{'':<12} {'':<15} sources {v['sources']} vs truth {kinds}; wrong source {wrong}; "
                  f"worst |time error| {max(errors) * 1000:.0f} ms")
    print()
PY
