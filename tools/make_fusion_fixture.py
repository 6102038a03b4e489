#!/usr/bin/env python3
"""Build the audio/visual contact-fusion fixture: a colour-keyed stand-in racket/ball YOLO model and a
session clip with known audible and visible hits.

Why: `analyze --detector MODEL` needs a racket/ball detector to be tested and measured end to end, and
no trained racket/ball model can be obtained here (no model hub). The stand-in is a real ONNX graph in
Ultralytics' raw detect layout, loaded through the normal YOLOPredictor path, that "detects" a magenta
region as a tennis racket and a yellow region as a sports ball. The clip is the bundled demo footage
(real people, so pose finds someone) with a magenta racket and a yellow ball drawn on it and synthetic
court sound in which some hits are audible and some are not.

Outputs (default directory Tests/SwingCLITests/Fixtures/fusion/):
  colour_standin.onnx   the stand-in model (opset 17, input `images` 1x3x640x640 RGB 0..1,
                        output `output0` 1x6x8400: cx, cy, w, h in input pixels, then 2 class scores;
                        metadata names {0: 'tennis racket', 1: 'sports ball'}, task detect, imgsz, stride)
  fusion_clip.mp4       the clip (H.264 + AAC, 1280x720, 10 fps)
  fusion_clip.truth.json  every hit: time, whether it is audible / visible, the frames where racket
                        and ball overlap, and the expected fused source for the default stride

The model, per colour: mask = per-pixel thresholds on R, G, B; a 3x3 erosion (1 - MaxPool(1 - mask))
drops isolated pixels left by video compression; the box is the extent of the mask (ReduceMax over rows
and over columns, times an index ramp), grown back by the eroded pixel; score = 0.9 when the mask is
non-empty, else 0 (box zeroed too). Anchor 0 carries the racket, anchor 1 the ball, 8398 more anchors
are zero, so the output has the size of a real 640 px export.

Events: `--events 1.2:both,3.2:audio,5.2:visual,7.0:both` (time:kind; kind both = audible and visible,
audio = audible only (the ball passes the racket at a distance), visual = visible only (no sound)), or
`--random-events N --seed S` for longer benchmark clips (hits >= 2.4 s apart, kinds drawn 2:1:1).
A visible hit shows the ball inside the racket box for 3 frames centred on the hit's frame, so exactly
one frame of every 3 consecutive frames overlaps (stride 3 always sees it).

Run from the package root (the model needs the `onnx` package; numpy/onnxruntime check it):
    python3 -m venv /work/venvs/fusion
    /work/venvs/fusion/bin/pip install onnx==1.19.1 numpy onnxruntime==1.23.2
    /work/venvs/fusion/bin/python tools/make_fusion_fixture.py
  Benchmark variant (bench/fusion.sh):
    python tools/make_fusion_fixture.py --out-dir bench/out/fusion --name fusion_long --duration 60 \
        --random-events 20 --seed 11 --crf 30 --gop 20
  --model-only writes just the model. The clip part needs no `onnx` package when the model exists: numpy,
  onnxruntime (checks) and tools/demo_sample_audio.py (run with $SWINGMASTER_PYTHON, else .deps/venv,
  which have scipy).
Needs the ffmpeg CLI. Deterministic for the same inputs, seed and ffmpeg build.
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_OUT = ROOT / "Tests/SwingCLITests/Fixtures/fusion"
SOURCE = ROOT / "Samples/demo_session.mp4"
AUDIO_TOOL = ROOT / "tools/demo_sample_audio.py"
# The audio tool needs scipy: use the project's venv (make setup) unless SWINGMASTER_PYTHON says otherwise.
AUDIO_PYTHON = os.environ.get("SWINGMASTER_PYTHON") or (
    str(ROOT / ".deps/venv/bin/python") if (ROOT / ".deps/venv/bin/python").exists() else sys.executable)

IMGSZ = 640
ANCHORS = 8400          # what a 640 px YOLO11 export has (80² + 40² + 20²)
SCORE = 0.9             # class score when a colour region is present
NAMES = {0: "tennis racket", 1: "sports ball"}

# Colour keys in RGB 0..1: (channel, comparison, threshold). Yellow is strict because the footage has
# pale-yellow litter on the lawn (B ~ 0.95); magenta does not occur in it at all.
KEYS = {
    "racket": [(0, ">", 0.6), (1, "<", 0.35), (2, ">", 0.6)],   # magenta
    "ball": [(0, ">", 0.75), (1, ">", 0.75), (2, "<", 0.3)],    # yellow
}
RACKET_RGB = (255, 0, 255)
BALL_RGB = (255, 255, 0)

# Drawing geometry (pixels of the 1280x720 frame): the racket hangs over the concrete at the top right,
# away from where people walk; the ball comes in from the left along y = racket centre.
FRAME_W, FRAME_H = 1280, 720
RACKET = (1000, 60, 80, 160)     # x, y, w, h
BALL = 30                        # side
OVERLAP_HALF = 1                 # frames each side of the hit frame with the ball inside the racket
APART_DX = 150                   # ball-centre distance left of the racket centre when "near" but apart
APPROACH_DX = 60                 # further px per frame while approaching / leaving
VISIBLE_HALF = 6                 # frames each side of the hit frame the ball is drawn


# ----------------------------------------------------------------------------- model
def build_model(path: Path) -> None:
    import onnx
    from onnx import TensorProto, helper, numpy_helper

    nodes, inits = [], []

    def const(name, value, dtype=np.float32):
        inits.append(numpy_helper.from_array(np.asarray(value, dtype=dtype), name))
        return name

    def node(op, inputs, name, **attrs):
        nodes.append(helper.make_node(op, inputs, [name], name=name, **attrs))
        return name

    const("zero", 0.0)
    const("one", 1.0)
    const("big", 1.0e4)
    const("score", SCORE)
    const("half", 0.5)
    const("ramp", np.arange(IMGSZ, dtype=np.float32))             # [640] pixel indices
    const("ramp1", np.arange(1, IMGSZ + 1, dtype=np.float32))     # [640] index + 1
    channels = []
    for c in range(3):
        channels.append(node("Slice", ["images", const(f"s{c}", [c], np.int64), const(f"e{c}", [c + 1], np.int64),
                                       const(f"a{c}", [1], np.int64)], f"ch{c}"))   # [1,1,640,640]

    anchors = []
    for k, (label, key) in enumerate(KEYS.items()):
        conds = []
        for i, (ch, cmp, thr) in enumerate(key):
            op = "Greater" if cmp == ">" else "Less"
            conds.append(node(op, [channels[ch], const(f"{label}_t{i}", thr)], f"{label}_c{i}"))
        m = node("And", [conds[0], conds[1]], f"{label}_and01")
        m = node("And", [m, conds[2]], f"{label}_and")
        m = node("Cast", [m], f"{label}_mask", to=TensorProto.FLOAT)
        inv = node("Sub", ["one", m], f"{label}_inv")
        dil = node("MaxPool", [inv], f"{label}_invdil", kernel_shape=[3, 3], pads=[1, 1, 1, 1], strides=[1, 1])
        er = node("Sub", ["one", dil], f"{label}_eroded")                        # [1,1,640,640]
        col = node("ReduceMax", [er], f"{label}_col", axes=[2], keepdims=0)      # [1,1,640] over rows
        row = node("ReduceMax", [er], f"{label}_row", axes=[3], keepdims=0)      # [1,1,640] over columns
        present = node("ReduceMax", [col], f"{label}_present", axes=[2], keepdims=1)   # [1,1,1]

        def extent(profile, axis_name):
            hi = node("ReduceMax", [node("Mul", [profile, "ramp1"], f"{label}_{axis_name}_hi_m")],
                      f"{label}_{axis_name}_hi", axes=[2], keepdims=1)          # last index + 1
            lo_in = node("Add", [node("Mul", [profile, "ramp"], f"{label}_{axis_name}_lo_m"),
                                 node("Mul", [node("Sub", ["one", profile], f"{label}_{axis_name}_lo_n"), "big"],
                                      f"{label}_{axis_name}_lo_b")], f"{label}_{axis_name}_lo_in")
            lo = node("ReduceMin", [lo_in], f"{label}_{axis_name}_lo", axes=[2], keepdims=1)
            # Grow back the pixel the erosion took on each side.
            return (node("Sub", [lo, "one"], f"{label}_{axis_name}1"), node("Add", [hi, "one"], f"{label}_{axis_name}2"))

        x1, x2 = extent(col, "x")
        y1, y2 = extent(row, "y")
        cx = node("Mul", [node("Add", [x1, x2], f"{label}_xs"), "half"], f"{label}_cx0")
        cy = node("Mul", [node("Add", [y1, y2], f"{label}_ys"), "half"], f"{label}_cy0")
        w = node("Sub", [x2, x1], f"{label}_w0")
        h = node("Sub", [y2, y1], f"{label}_h0")
        # Zero the box when nothing matched (x1 = 1e4 - 1 there) and score only present regions.
        box = [node("Mul", [v, present], f"{label}_{n}") for v, n in [(cx, "cx"), (cy, "cy"), (w, "w"), (h, "h")]]
        s = node("Mul", [present, "score"], f"{label}_score")
        z = node("Mul", [present, "zero"], f"{label}_zero")
        scores = [s, z] if k == 0 else [z, s]
        anchors.append(node("Concat", box + scores, f"{label}_anchor", axis=1))   # [1,6,1]

    pad = node("ConstantOfShape", [const("pad_shape", [1, 4 + len(NAMES), ANCHORS - 2], np.int64)], "pad",
               value=helper.make_tensor("pad_value", TensorProto.FLOAT, [1], [0.0]))
    node("Concat", anchors + [pad], "output0", axis=2)

    graph = helper.make_graph(
        nodes, "colour_standin",
        [helper.make_tensor_value_info("images", TensorProto.FLOAT, [1, 3, IMGSZ, IMGSZ])],
        [helper.make_tensor_value_info("output0", TensorProto.FLOAT, [1, 4 + len(NAMES), ANCHORS])],
        initializer=inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)],
                              producer_name="swingmaster-tools", producer_version="1")
    model.ir_version = 8
    meta = {
        "description": "Colour-keyed racket/ball stand-in (magenta = racket, yellow = ball); not a trained model",
        "author": "Swingmaster tools/make_fusion_fixture.py",
        "task": "detect",
        "names": repr(NAMES),        # the Python dict literal Ultralytics writes
        "imgsz": repr([IMGSZ, IMGSZ]),
        "stride": "32",
        "batch": "1",
    }
    for key, value in meta.items():
        entry = model.metadata_props.add()
        entry.key, entry.value = key, value
    onnx.checker.check_model(model, full_check=True)
    path.parent.mkdir(parents=True, exist_ok=True)
    onnx.save(model, str(path))


def run_model(session, rgb640: np.ndarray) -> np.ndarray:
    x = (rgb640.astype(np.float32) / 255.0).transpose(2, 0, 1)[None]
    return session.run(None, {"images": x})[0]


def letterbox(frame: np.ndarray) -> np.ndarray:
    """1280x720 -> 640x640 (2x2 mean, grey 114 bars) — close enough to Ultralytics' LetterBox for checks."""
    h, w, _ = frame.shape
    small = frame.reshape(h // 2, 2, w // 2, 2, 3).mean((1, 3)).round().astype(np.uint8)
    out = np.full((IMGSZ, IMGSZ, 3), 114, np.uint8)
    top = (IMGSZ - small.shape[0]) // 2
    out[top:top + small.shape[0], : small.shape[1]] = small
    return out


def check_model(path: Path) -> None:
    import onnxruntime as ort

    s = ort.InferenceSession(str(path), providers=["CPUExecutionProvider"])
    img = np.full((IMGSZ, IMGSZ, 3), 114, np.uint8)
    img[100:200, 300:340] = RACKET_RGB
    img[150:165, 310:325] = BALL_RGB
    out = run_model(s, img)
    assert out.shape == (1, 6, ANCHORS), out.shape
    r, b = out[0, :, 0], out[0, :, 1]
    assert np.allclose(r, [320, 150, 40, 100, SCORE, 0], atol=1e-4), r
    assert np.allclose(b, [317.5, 157.5, 15, 15, 0, SCORE], atol=1e-4), b
    assert not out[0, :, 2:].any()
    empty = run_model(s, np.full((IMGSZ, IMGSZ, 3), 114, np.uint8))
    assert not empty.any(), "an empty image must give no boxes and zero scores"
    print(f"model ok: racket {r[:4].tolist()}, ball {b[:4].tolist()}")


# ----------------------------------------------------------------------------- clip
def parse_events(text: str) -> list[dict]:
    events = []
    for item in text.split(","):
        t, kind = item.split(":")
        assert kind in ("both", "audio", "visual"), kind
        events.append({"time": round(float(t), 3), "kind": kind})
    return sorted(events, key=lambda e: e["time"])


def random_events(n: int, duration: float, rng: np.random.Generator) -> list[dict]:
    kinds = ["both", "both", "audio", "visual"]
    gap = (duration - 2.0) / n
    events = []
    for i in range(n):
        t = 1.2 + i * gap + rng.uniform(0, max(gap - 2.4, 0))
        events.append({"time": round(float(t), 1), "kind": kinds[int(rng.integers(0, 4))]})
    return events


def ball_centre(frame: int, events: list[dict], fps: float):
    """Ball centre for `frame`, or None when no ball is drawn."""
    rx, ry, rw, rh = RACKET
    cx, cy = rx + rw / 2, ry + rh / 2
    for e in events:
        hit = int(round(e["time"] * fps))
        d = abs(frame - hit)
        if d > VISIBLE_HALF:
            continue
        visible_hit = e["kind"] in ("both", "visual")
        if visible_hit and d <= OVERLAP_HALF:
            return cx, cy
        steps = max(d - (OVERLAP_HALF + 1), 0) if visible_hit else d
        return cx - APART_DX - APPROACH_DX * steps, cy
    return None


def draw(frame: np.ndarray, index: int, events: list[dict], fps: float) -> None:
    rx, ry, rw, rh = RACKET
    frame[ry:ry + rh, rx:rx + rw] = RACKET_RGB
    c = ball_centre(index, events, fps)
    if c is not None:
        x0, y0 = int(round(c[0] - BALL / 2)), int(round(c[1] - BALL / 2))
        frame[max(y0, 0):y0 + BALL, max(x0, 0):x0 + BALL] = BALL_RGB


def make_clip(out_dir: Path, name: str, duration: float, events: list[dict], seed: int, crf: int,
              model: Path, gop: int | None = None) -> None:
    fps = 10.0
    audible = [e["time"] for e in events if e["kind"] in ("both", "audio")]
    n_frames = int(round(duration * fps))
    with tempfile.TemporaryDirectory() as tmp:
        wav = Path(tmp) / "audio.wav"
        subprocess.run([AUDIO_PYTHON, str(AUDIO_TOOL), "--duration", str(duration), "--seed", str(seed),
                        "--contacts", ",".join(f"{t}" for t in audible), "--wav", str(wav),
                        "--truth", str(Path(tmp) / "audio.json")], check=True)
        # Decode the real footage (looped when the clip is longer than the 12 s sample).
        raw = subprocess.run(["ffmpeg", "-v", "error", "-stream_loop", "-1", "-i", str(SOURCE), "-an",
                              "-frames:v", str(n_frames), "-f", "rawvideo", "-pix_fmt", "rgb24", "-"],
                             check=True, capture_output=True).stdout
        frames = np.frombuffer(raw, np.uint8).reshape(n_frames, FRAME_H, FRAME_W, 3).copy()
        for i in range(n_frames):
            draw(frames[i], i, events, fps)
        out = out_dir / f"{name}.mp4"
        enc = subprocess.Popen(
            ["ffmpeg", "-v", "error", "-y", "-f", "rawvideo", "-pix_fmt", "rgb24", "-s", f"{FRAME_W}x{FRAME_H}",
             "-r", str(int(fps)), "-i", "-", "-i", str(wav), "-map", "0:v", "-map", "1:a",
             "-c:v", "libx264", "-preset", "slow", "-crf", str(crf), "-pix_fmt", "yuv420p",
             *(["-g", str(gop)] if gop else []),
             "-c:a", "aac", "-b:a", "96k", "-t", str(duration), "-movflags", "+faststart", str(out)],
            stdin=subprocess.PIPE)
        enc.stdin.write(frames.tobytes())
        enc.stdin.close()
        if enc.wait() != 0:
            raise SystemExit("ffmpeg failed to encode the clip")

    # Check the encoded clip with the model: which frames show the ball inside the racket box.
    import onnxruntime as ort

    s = ort.InferenceSession(str(model), providers=["CPUExecutionProvider"])
    raw = subprocess.run(["ffmpeg", "-v", "error", "-i", str(out), "-f", "rawvideo", "-pix_fmt", "rgb24", "-"],
                         check=True, capture_output=True).stdout
    decoded = np.frombuffer(raw, np.uint8).reshape(-1, FRAME_H, FRAME_W, 3)
    overlap_frames, racket_missing, false_ball = [], 0, 0
    for i, f in enumerate(decoded):
        o = run_model(s, letterbox(f))[0]
        racket, ball = o[:, 0], o[:, 1]
        racket_missing += racket[4] < 0.5
        drawn = ball_centre(i, events, fps) is not None
        false_ball += (ball[5] > 0.4) != drawn
        if racket[4] > 0.5 and ball[5] > 0.4:
            inside = abs(ball[0] - racket[0]) <= racket[2] / 2 and abs(ball[1] - racket[1]) <= racket[3] / 2
            if inside:
                overlap_frames.append(i)
    assert racket_missing == 0, f"racket not detected in {racket_missing} frames"
    assert false_ball == 0, f"ball detection disagrees with the drawing in {false_ball} frames"

    truth_events = []
    for e in events:
        hit = int(round(e["time"] * fps))
        frames_in = [f for f in overlap_frames if abs(f - hit) <= OVERLAP_HALF]
        visible = e["kind"] in ("both", "visual")
        expected = [hit + d for d in range(-OVERLAP_HALF, OVERLAP_HALF + 1)] if visible else []
        assert frames_in == expected, f"hit at {e['time']}: overlap frames {frames_in}, expected {expected}"
        truth_events.append({"time": e["time"], "audible": e["kind"] in ("both", "audio"), "visible": visible,
                             "source": e["kind"], "overlapFrames": frames_in})
    stray = [f for f in overlap_frames if all(abs(f - int(round(e["time"] * fps))) > OVERLAP_HALF for e in events)]
    assert not stray, f"overlap outside any hit: frames {stray}"
    truth = {
        "file": out.name, "duration": duration, "fps": fps, "audioSeed": seed,
        "model": model.name,
        "racketBox": dict(zip(["x", "y", "w", "h"], RACKET)), "ballSide": BALL,
        "events": truth_events,
        "audible": [e["time"] for e in truth_events if e["audible"]],
        "visible": [e["time"] for e in truth_events if e["visible"]],
    }
    (out_dir / f"{name}.truth.json").write_text(json.dumps(truth, indent=2) + "\n")
    print(f"wrote {out} ({out.stat().st_size / 1024:.0f} KB), {len(events)} hits: "
          + ", ".join(f"{e['time']}:{e['kind']}" for e in events))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out-dir", type=Path, default=DEFAULT_OUT)
    ap.add_argument("--name", default="fusion_clip")
    ap.add_argument("--model", type=Path, help="model path (default OUT_DIR/colour_standin.onnx); built if missing")
    ap.add_argument("--model-only", action="store_true")
    ap.add_argument("--duration", type=float, default=8.0)
    ap.add_argument("--events", default="1.2:both,3.2:audio,5.2:visual,7.0:both")
    ap.add_argument("--random-events", type=int, default=0)
    ap.add_argument("--seed", type=int, default=2027)
    ap.add_argument("--crf", type=int, default=27)
    ap.add_argument("--gop", type=int, help="keyframe interval in frames (default: x264's, 250)")
    a = ap.parse_args()
    a.out_dir.mkdir(parents=True, exist_ok=True)
    model = a.model or a.out_dir / "colour_standin.onnx"
    if a.model_only or not model.exists():
        build_model(model)
    check_model(model)
    if a.model_only:
        return
    events = (random_events(a.random_events, a.duration, np.random.default_rng(a.seed)) if a.random_events
              else parse_events(a.events))
    make_clip(a.out_dir, a.name, a.duration, events, a.seed, a.crf, model, a.gop)


if __name__ == "__main__":
    os.chdir(ROOT)
    main()
