#!/usr/bin/env bash
# Contacts as a phone records them (issue #26): every recorded and synthetic track, clean and through every
# chain of tools/phone_chain.py (codecs, compressors, AGC, limiter, clipping, whole phone chains), scored at
# ±50 ms of the true onset; the detector's changes measured on and off in the same run:
#   before     the detector before #26 (5 s floor at its 75th percentile, no rise exception, 40 ms width)
#   floor      + the floor over 0.5 s at its median (follows the gain a phone rides)
#   rise       + peaks up to twice the width kept when they rise within 30 ms (a compressor stretches the decay)
#   width      + peaks up to 45 ms wide instead of 40 (a compressor flattens a hit's peak)
#   floor+rise the first two (the defaults from 2026-11-25 to 2026-11-26)
#   default    all three (the defaults)
# and the share of each chain's tracks that `contacts` calls compressed, with F1 on those and on the rest.
# Tracks: Free Tennis (practice, match, netcords, wind, everything) and Tennix (practice, match, wind,
# everything) mixed by tools/make_recorded_tracks.py, seed 1, 90 s; the synthetic generator's eight
# conditions (swingbench contacts --synthesize), seed 1, 60 s.
#   bench/phone_contacts.sh BIN_DIR      (BIN_DIR holds swingmaster and swingbench; default .build/release)
set -euo pipefail
cd "$(dirname "$0")/.."
BIN_DIR="${1:-.build/release}"
PY="${SWINGMASTER_PYTHON:-.deps/venv/bin/python}"
. bench/lib.sh
work="$(mktemp -d)"; trap 'rm -rf "$work"' EXIT
echo "# bench/phone_contacts.sh, $(date -u +%F), $(git rev-parse --short HEAD 2>/dev/null || echo unknown commit)"
"$PY" tools/phone_chain.py --check > "$work/latency.json"
phone_tracks "$work" 1 "$BIN_DIR" "$PY"
old_floor="--noise-window-s 5 --noise-hop-s 0.5 --noise-percentile 75"
variants=(
  "before|--max-fwhm-ms 40 --max-rise-ms 0 $old_floor"
  "floor|--max-fwhm-ms 40 --max-rise-ms 0"
  "rise|--max-fwhm-ms 40 $old_floor"
  "width|--max-rise-ms 0 $old_floor"
  "floor+rise|--max-fwhm-ms 40"
  "default|"
)
for v in "${variants[@]}"; do
  name="${v%%|*}"; flags="${v#*|}"
  find "$work" -path '*.chains/*.wav' | sort | xargs -P 2 -I{} bash -c \
    "'$BIN_DIR/swingmaster' contacts {} --json $flags > {}.$name.json 2>/dev/null"
done
"$PY" - "$work" <<'PYEOF'
import json, sys, glob, os, collections
work = sys.argv[1]
CHAINS = [c["name"] for c in json.loads(os.popen(f"{sys.executable} tools/phone_chain.py --list").read())]
VARIANTS = ["before", "floor", "rise", "width", "floor+rise", "default"]

def score(detected, truth, tol=0.050):
    detected, used, tp = sorted(detected), set(), 0
    for t in truth:
        best = min((i for i, d in enumerate(detected) if i not in used and abs(d - t) <= tol),
                   key=lambda i: abs(detected[i] - t), default=None)
        if best is not None:
            used.add(best); tp += 1
    return [tp, len(detected) - tp, len(truth) - tp]

def f1(s):
    return 2 * s[0] / (2 * s[0] + s[1] + s[2]) if sum(s) else 1.0

tracks = sorted(os.path.basename(p)[:-5] for p in glob.glob(os.path.join(work, "*.json")) if ".chains" not in p
                and not p.endswith("latency.json"))
res, crest = {}, {}
for t in tracks:
    truth = json.load(open(os.path.join(work, t + ".json")))["contacts"]
    for c in CHAINS:
        for v in VARIANTS:
            out = json.load(open(os.path.join(work, f"{t}.chains", f"{c}.wav.{v}.json")))
            res[t, c, v] = score([x["time"] for x in out["contacts"]], truth)
            if v == "default":
                crest[t, c] = out.get("crestFactorDb")
print("chain latencies on a click train, ms:", json.dumps({k: round(v, 2) for k, v in json.load(open(os.path.join(work, "latency.json"))).items()}))
print()
short = {c: c.replace("phone-", "ph-") for c in CHAINS}
for v in ("default", "before"):
    print(f"F1 at ±50 ms, {v} parameters (rows: corpus-condition; columns: chain)")
    print(f"{'track':22s}" + "".join(f"{short[c][:10]:>11s}" for c in CHAINS))
    for t in tracks:
        print(f"{t:22s}" + "".join(f"{f1(res[t, c, v]):11.3f}" for c in CHAINS))
    print()
print("all tracks pooled, per chain and variant (F1 at ±50 ms; false contacts / missed hits)")
print(f"{'variant':10s}" + "".join(f"{short[c][:10]:>11s}" for c in CHAINS))
for v in VARIANTS:
    row = []
    for c in CHAINS:
        s = [sum(res[t, c, v][k] for t in tracks) for k in range(3)]
        row.append(f"{f1(s):11.3f}")
    print(f"{v:10s}" + "".join(row))
for v in VARIANTS:
    tot = [sum(res[t, c, v][k] for t in tracks for c in CHAINS) for k in range(3)]
    worst = min((f1(res[t, c, v]), t, c) for t in tracks for c in CHAINS)
    print(f"{v:10s} every track and chain: F1 {f1(tot):.3f} ({tot[0]} found, {tot[1]} false, {tot[2]} missed); "
          f"worst {worst[0]:.3f} ({worst[1]}, {worst[2]})")
print()
flag, rest, counts = [0, 0, 0], [0, 0, 0], collections.Counter()
for (t, c), cf in crest.items():
    compressed = cf is not None and cf < 21
    counts[c] += compressed
    for k in range(3):
        (flag if compressed else rest)[k] += res[t, c, "default"][k]
print(f"called compressed (crest factor above 300 Hz < 21 dB), tracks per chain of {len(tracks)}: "
      + ", ".join(f"{c} {counts[c]}" for c in CHAINS))
print(f"F1 on the tracks called compressed {f1(flag):.3f} (recall {flag[0] / max(1, flag[0] + flag[2]):.2f}); "
      f"on the rest {f1(rest):.3f} (recall {rest[0] / max(1, rest[0] + rest[2]):.2f})")
PYEOF
