#!/usr/bin/env bash
# `analyze` where players measure it (issue #28): 120-s sessions encoded as phones do (bench/lib.sh
# generate_phone: H.264 High 16 Mbit/s with grain and HEVC Main 10 Mbit/s, keyframe every 1.5 s, 60 and
# 30 fps; 23 hits), and the same footage encoded cheaply (x264 ultrafast CRF 30) as the second row.
# For each file, in one run:
#   ours   `swingmaster analyze` (product defaults): wall, real-time factor, peak RSS, contacts heard (shots and
#          the contacts the swing check turned down: all of them are posed),
#          and the pose stage's parts (decode, RGB conversion, inference, pre/post-processing; CPU s).
#   floor  (frames that must be decoded × single-thread decode cost + frames posed × single-thread pose
#          cost) / cores. Must be decoded: each swing window from the keyframe at or before its start.
#          Decode cost: the ffmpeg CLI with one thread on the file's first 30 s (CPU s per frame). Pose
#          cost: our workers' inference + pre/post-processing CPU per posed frame (single-threaded
#          sessions). `analyze` is printed as a ratio to the floor.
#   peer   OpenCV seeks + MediaPipe 0.10.14 (bench/analyze_peer.py) on the same windows and sampling,
#          given our contact times, two processes; printed as a ratio to ours. Needs `make bench-setup`
#          (.deps/bench-venv); without it the peer is skipped, with a line saying so.
#   lever  each flag in SWINGMASTER_PHONE_LEVERS (default "--no-skip-unposed-frames", "--skip-deblocking" (with
#          how far each shot's metrics move when they are not identical) and the landmark model
#          with its segmentation head, SWINGMASTER_MODELS=bench/out/unpruned-models; "" for none; a NAME=VALUE
#          word is set in the environment) run in the same loop as another `analyze` of the file: wall,
#          frames decoded, and whether every shot's metrics are identical to the default run's.
# SWINGMASTER_PHONE_FILES picks files (default "h264_60 hevc_30 h264_30 cheap_60"); extra arguments
# after the binary directory go to every `analyze`.
set -euo pipefail
cd "$(dirname "$0")/.."
BIN_DIR="${1:-.build/release}"; shift || true
PYTHON="${SWINGMASTER_PYTHON:-.deps/venv/bin/python}"
PEER_PYTHON="${SWINGMASTER_BENCH_PYTHON:-.deps/bench-venv/bin/python}"
OUT=bench/out; mkdir -p "$OUT"
. bench/lib.sh
FILES="${SWINGMASTER_PHONE_FILES:-h264_60 hevc_30 h264_30 cheap_60}"
for f in $FILES; do generate_phone "$OUT/phone_120s_$f.mp4" "${f%_*}" "${f##*_}"; done
CORES=$(nproc)
export SWINGMASTER_HOME; SWINGMASTER_HOME=$(mktemp -d)
trap 'rm -rf "$SWINGMASTER_HOME"' EXIT
peer_ok=1
if ! "$PEER_PYTHON" -c "import cv2, mediapipe" 2>/dev/null; then
  peer_ok=0; echo "peer: skipped ($PEER_PYTHON cannot import cv2 and mediapipe; run make bench-setup)"
fi
default_levers="--no-skip-unposed-frames --skip-deblocking"
unpruned_models "$OUT/unpruned-models" && default_levers+=" SWINGMASTER_MODELS=$OUT/unpruned-models"
LEVERS="${SWINGMASTER_PHONE_LEVERS-$default_levers}"
# run FILE NAME ARGS…: one timed `analyze`; leaves NAME.result.json, NAME.summary.txt, NAME.rss_kb, NAME.wall.
run() {
  local file=$1 name=$2; shift 2
  local log start end envs=() args=(); log=$(mktemp)
  for a in "$@"; do case $a in [A-Z]*=*) envs+=("$a") ;; *) args+=("$a") ;; esac; done
  start=$(date +%s.%N)
  /usr/bin/time -v env "${envs[@]}" "$BIN_DIR/swingmaster" analyze "$file" --hand right --no-store \
    --json "$name.result.json" "${args[@]}" \
    >"$name.summary.txt" 2>"$log"
  end=$(date +%s.%N)
  awk -F: '/Maximum resident set size/ {gsub(/ /,"",$2); print $2}' "$log" >"$name.rss_kb"
  awk -F: '/(User|System) time \(seconds\)/ {s += $2} END {print s}' "$log" >"$name.cpu"
  python3 -c "print($end - $start)" >"$name.wall"
  rm -f "$log"
}
rm -f "$OUT"/phone_*.lever*
for f in $FILES; do
  file="$OUT/phone_120s_$f.mp4"; name="$OUT/phone_$f"
  run "$file" "$name" "$@"
  i=0
  for lever in $LEVERS; do
    run "$file" "$name.lever$i" "$@" "$lever"; echo "$lever" >"$name.lever$i.flag"; i=$((i + 1))
  done
  # Single-thread decode cost (CPU = user + system) on the first 30 s.
  ffmpeg -hide_banner -nostdin -threads 1 -i "$file" -t 30 -map 0:v:0 -benchmark -f null - 2>&1 \
    | sed -n 's/.*utime=\([0-9.]*\)s stime=\([0-9.]*\)s.*/\1 \2/p' >"$name.decode_cpu"
  ffprobe -v error -select_streams v:0 -show_entries packet=pts_time,flags -of csv=p=0 "$file" >"$name.packets"
  if [ $peer_ok = 1 ]; then
    args=$(python3 - "$name.result.json" <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))["session"]
fps = s["fps"]
# PoseSampling.coreHalfSpanFrames with the defaults (speed half-span 3, +1 bracket, margin 1) + half a frame.
# Every heard contact was posed (the swing check then turns some down: the footage's people walk), so the
# peer poses the same windows.
heard = sorted(x["time"] for x in s["shots"] + (s.get("rejectedContacts") or []))
print(",".join(f"{t:.4f}" for t in heard), fps, s["pose"]["outerStep"], (5 + 0.5) / fps)
PY
)
    read -r contacts fps step core <<<"$args"
    "$PEER_PYTHON" bench/analyze_peer.py "$file" --contacts "$contacts" --fps "$fps" --step "$step" --core "$core" \
      >"$name.peer.json" 2>"$name.peer.log"
  else
    rm -f "$name.peer.json"
  fi
done
uptime | sed 's/^ */machine load at the end: /'
python3 - "$OUT" "$CORES" $FILES <<'PY'
import json, os, re, sys
out, cores, files = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
truth = json.load(open(f"{out}/phone_120s.truth.json"))["contacts"]
labels = {"h264": "H.264 High 16 Mbit/s, grain, keyframe 1.5 s", "hevc": "HEVC Main 10 Mbit/s, grain, keyframe 1.5 s",
          "cheap": "x264 ultrafast CRF 30 (the cheap bench encoding)"}
print(f"analyze, 120-s 1080p sessions, {len(truth)} hits, {cores} cores (product defaults: sampled pose, one worker per core);"
      f" wall times move with the machine's load, CPU times much less")
for f in files:
    name = f"{out}/phone_{f}"
    doc = json.load(open(f"{name}.result.json"))["session"]
    wall = float(open(f"{name}.wall").read()); ours_cpu = float(open(f"{name}.cpu").read()); rss = int(open(f"{name}.rss_kb").read()) / 1024
    summary = open(f"{name}.summary.txt").read()
    m = re.search(r"running body pose ([0-9.]+) s", summary); pose_wall = float(m.group(1))
    parts = dict(re.findall(r"(decode|RGB conversion|pose inference|pre/post-processing) ([0-9.]+) / [0-9.]+", summary))
    decoded = int(re.search(r"\((\d+) frames decoded\)", summary).group(1))
    posed = doc["pose"]["framesPosed"]; fps = doc["fps"]
    heard = sorted(x["time"] for x in doc["shots"] + (doc.get("rejectedContacts") or []))
    found = sum(any(abs(h - t) <= 0.02 for h in heard) for t in truth)
    codec, rate = f.rsplit("_", 1)
    print(f"\n{labels[codec]}, {rate} fps:")
    print(f"  ours: wall {wall:.1f} s = {120 / wall:.1f}x real time, CPU {ours_cpu:.1f} s, peak RSS {rss:.0f} MB, {found}/{len(truth)} contacts "
          f"within 20 ms, {posed} frames posed by {doc['pose']['workers']} workers, {decoded} decoded")
    cpu = {k: float(v) for k, v in parts.items()}
    print("  pose stage CPU s (summed over workers): " + ", ".join(f"{k} {v:.2f}" for k, v in cpu.items())
          + f"; per frame: decode {1000 * cpu['decode'] / decoded:.2f} ms, conversion {1000 * cpu['RGB conversion'] / posed:.2f},"
          f" inference {1000 * cpu['pose inference'] / posed:.2f}, pre/post {1000 * cpu['pre/post-processing'] / posed:.2f}")
    # Frames that must be decoded: each merged window from the keyframe at or before its start.
    pk = sorted((float(t), "K" in fl) for t, fl, *_ in (l.split(",") for l in open(f"{name}.packets")) if t not in ("", "N/A"))
    times = [t for t, _ in pk]; keys = [t for t, k in pk if k]
    wins = []
    for c in heard:
        lo, hi = max(0, c - 1.0), c + 0.5
        if wins and lo <= wins[-1][1]: wins[-1][1] = max(wins[-1][1], hi)
        else: wins.append([lo, hi])
    need = set()
    for lo, hi in wins:
        kf = max((k for k in keys if k <= lo + 1e-4), default=0.0)
        need.update(i for i, t in enumerate(times) if kf - 1e-4 <= t <= hi + 1e-4)
    ut, st = map(float, open(f"{name}.decode_cpu").read().split())
    dcost = (ut + st) / (30 * fps)
    pcost = (cpu["pose inference"] + cpu["pre/post-processing"]) / posed
    floor = (len(need) * dcost + posed * pcost) / cores
    print(f"  floor: ({len(need)} frames to decode x {1000 * dcost:.2f} ms + {posed} posed x {1000 * pcost:.2f} ms) / {cores} cores"
          f" = {floor:.1f} s (decode {len(need) * dcost / cores:.1f} s + pose {posed * pcost / cores:.1f} s);"
          f" ours {wall / floor:.2f}x the floor (pose stage alone {pose_wall:.1f} s = {pose_wall / floor:.2f}x); in CPU, which the"
          f" machine's load moves less: ours {ours_cpu:.1f} s = {ours_cpu / (floor * cores):.2f}x the floor's {floor * cores:.1f} s")
    if os.path.exists(f"{name}.peer.json"):
        p = json.load(open(f"{name}.peer.json"))
        print(f"  peer (OpenCV seeks + MediaPipe 0.10.14, {p['processes']} processes, same windows and sampling): "
              f"{p['seconds']:.1f} s ({p['work_seconds']:.1f} s after imports and model loading), CPU {p['cpu_seconds']:.1f} s, "
              f"{p['frames']} frames posed, person in {p['persons']}")
        print(f"  ratio peer/ours: wall {p['seconds'] / wall:.2f}x, CPU {p['cpu_seconds'] / ours_cpu:.2f}x")
    i = 0
    while os.path.exists(f"{name}.lever{i}.flag"):
        flag = open(f"{name}.lever{i}.flag").read().strip()
        ldoc = json.load(open(f"{name}.lever{i}.result.json"))["session"]
        lwall = float(open(f"{name}.lever{i}.wall").read())
        lsum = open(f"{name}.lever{i}.summary.txt").read()
        ldec = int(re.search(r"\((\d+) frames decoded\)", lsum).group(1))
        ldcpu = float(re.search(r"decode ([0-9.]+) /", lsum).group(1))
        same = ldoc["shots"] == doc["shots"] and ldoc["stats"] == doc["stats"]
        lcpu = float(open(f"{name}.lever{i}.cpu").read())
        print(f"  {flag}: wall {lwall:.1f} s, CPU {lcpu:.1f} s, {ldec} frames decoded (decode CPU {ldcpu:.2f} s) -- the default's "
              f"{wall:.1f} s, {ours_cpu:.1f} s, {decoded} ({cpu['decode']:.2f} s): the default takes {wall / lwall:.2f}x the wall time "
              f"and {ours_cpu / lcpu:.2f}x the CPU; every shot's metrics identical: {'yes' if same else 'NO'}")
        if not same:
            # A lever that changes the pixels: how far each shot's metrics moved, against the noise that
            # sampling already brings (docs/analysis.md: 2.5-5 cm on average).
            a = {round(x["time"], 3): x for x in doc["shots"] if x.get("contact")}
            b = {round(x["time"], 3): x for x in ldoc["shots"] if x.get("contact")}
            keys = sorted(set(a) & set(b))
            if keys:
                parts = []
                for k in ("forwardCm", "lateralCm", "heightCm"):
                    d = [abs(a[t]["contact"][k] - b[t]["contact"][k]) for t in keys]
                    parts.append(f"{k[:-2]} {sum(d) / len(d):.2f} / {max(d):.2f} cm")
                d = [abs(a[t]["wristSpeedCmS"] - b[t]["wristSpeedCmS"]) for t in keys]
                parts.append(f"speed {sum(d) / len(d):.1f} / {max(d):.1f} cm/s")
                agree = sum(a[t]["classification"] == b[t]["classification"] for t in keys)
                print(f"    {len(keys)} shots in both (of {len(a)} / {len(b)}), |difference| mean / max: " + ", ".join(parts)
                      + f"; classification agrees on {agree}/{len(keys)}")
        i += 1
PY
