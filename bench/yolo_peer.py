#!/usr/bin/env python3
"""Python peer for `swingbench yolo`: the same YOLO detect pipeline with onnxruntime + numpy.

Stages timed (median of --runs after --warmup), mirroring what Swingmaster does per image:
  decode  read the image file into RGB uint8 (cv2 if importable, else Pillow, else a PPM/PGM reader)
  pre     Ultralytics LetterBox (min ratio, bilinear resize, pad 114, top/left round(d/2-0.1)), CHW, /255
  infer   onnxruntime InferenceSession.run (default intra-op threads, like ours)
  post    [1, 4+nc, N] -> candidates with max score > conf -> xywh->xyxy -> class-aware greedy NMS
          (Ultralytics' class offset trick, IoU <= iou kept) -> max_det -> undo letterbox, clip
Also: post-processing alone on the model's raw output, and — if `ultralytics` is importable — the
Ultralytics predictor end to end on the same file (its own pre/post, torch NMS).

Run: $SWINGMASTER_PYTHON bench/yolo_peer.py --model M.onnx --image I.jpg [--runs 20] [--json]
Needs numpy + onnxruntime (.deps/venv has them); cv2/Pillow/ultralytics are optional
(`pip install opencv-python-headless==4.10.0.84` makes decode/resize match Ultralytics exactly).
"""
from __future__ import annotations

import argparse
import contextlib
import json
import statistics
import sys
import time

import numpy as np
import onnxruntime as ort

try:
    import cv2  # type: ignore
except Exception:  # noqa: BLE001 - optional
    cv2 = None
try:
    from PIL import Image  # type: ignore
except Exception:  # noqa: BLE001 - optional
    Image = None


def decode(path: str) -> np.ndarray:
    """RGB uint8 HxWx3."""
    if cv2 is not None:
        bgr = cv2.imread(path, cv2.IMREAD_COLOR)
        if bgr is None:
            raise SystemExit(f"cannot read image {path}")
        return cv2.cvtColor(bgr, cv2.COLOR_BGR2RGB)
    if Image is not None:
        return np.asarray(Image.open(path).convert("RGB"))
    with open(path, "rb") as f:  # binary PPM (P6), enough for the generated bench image fallback
        data = f.read()
    if not data.startswith(b"P6"):
        raise SystemExit("no cv2/Pillow: only binary PPM images can be decoded by the numpy fallback")
    fields, pos = [], 2
    while len(fields) < 3:
        while data[pos:pos + 1].isspace():
            pos += 1
        end = pos
        while not data[end:end + 1].isspace():
            end += 1
        fields.append(int(data[pos:end]))
        pos = end
    w, h, _ = fields
    return np.frombuffer(data, np.uint8, count=w * h * 3, offset=pos + 1).reshape(h, w, 3)


def resize_bilinear(img: np.ndarray, nw: int, nh: int) -> np.ndarray:
    if cv2 is not None:
        return cv2.resize(img, (nw, nh), interpolation=cv2.INTER_LINEAR)
    # numpy half-pixel-centre bilinear (cv2 INTER_LINEAR semantics for upscale/downscale < 2x)
    h, w = img.shape[:2]
    ys = np.clip((np.arange(nh) + 0.5) * h / nh - 0.5, 0, h - 1)
    xs = np.clip((np.arange(nw) + 0.5) * w / nw - 0.5, 0, w - 1)
    y0, x0 = np.floor(ys).astype(int), np.floor(xs).astype(int)
    y1, x1 = np.minimum(y0 + 1, h - 1), np.minimum(x0 + 1, w - 1)
    fy, fx = (ys - y0)[:, None, None], (xs - x0)[None, :, None]
    a = img.astype(np.float32)
    top = a[y0][:, x0] * (1 - fx) + a[y0][:, x1] * fx
    bot = a[y1][:, x0] * (1 - fx) + a[y1][:, x1] * fx
    return np.round(top * (1 - fy) + bot * fy).astype(np.uint8)


def letterbox(img: np.ndarray, size: tuple[int, int]):
    h, w = img.shape[:2]
    th, tw = size
    r = min(th / h, tw / w)
    nw, nh = int(round(w * r)), int(round(h * r))
    dw, dh = (tw - nw) / 2, (th - nh) / 2
    if (nw, nh) != (w, h):
        img = resize_bilinear(img, nw, nh)
    top, bottom = int(round(dh - 0.1)), int(round(dh + 0.1))
    left, right = int(round(dw - 0.1)), int(round(dw + 0.1))
    out = np.full((th, tw, 3), 114, np.uint8)
    out[top:top + nh, left:left + nw] = img
    return out, r, left, top


def preprocess(img: np.ndarray, size: tuple[int, int]):
    boxed, r, left, top = letterbox(img, size)
    x = np.ascontiguousarray(boxed.transpose(2, 0, 1)[None], dtype=np.float32) / 255.0
    return x, r, left, top


def nms(boxes: np.ndarray, scores: np.ndarray, iou: float) -> list[int]:
    order = scores.argsort()[::-1]
    x1, y1, x2, y2 = boxes.T
    areas = np.clip(x2 - x1, 0, None) * np.clip(y2 - y1, 0, None)
    keep = []
    while order.size:
        i = order[0]
        keep.append(int(i))
        rest = order[1:]
        iw = np.clip(np.minimum(x2[i], x2[rest]) - np.maximum(x1[i], x1[rest]), 0, None)
        ih = np.clip(np.minimum(y2[i], y2[rest]) - np.maximum(y1[i], y1[rest]), 0, None)
        inter = iw * ih
        ious = inter / (areas[i] + areas[rest] - inter + 1e-7)
        order = rest[ious <= iou]
    return keep


def postprocess(out: np.ndarray, conf: float, iou: float, max_det: int, r: float, left: int, top: int, w: int, h: int):
    p = out[0]  # [4+nc, N]
    scores_all = p[4:]
    cls = scores_all.argmax(0)
    score = scores_all[cls, np.arange(p.shape[1])]
    m = score > conf
    xywh, cls, score = p[:4, m].T, cls[m], score[m]
    boxes = np.empty_like(xywh)
    boxes[:, :2] = xywh[:, :2] - xywh[:, 2:] / 2
    boxes[:, 2:] = xywh[:, :2] + xywh[:, 2:] / 2
    keep = nms(boxes + cls[:, None] * 7680.0, score, iou)[:max_det]  # class-aware via offsets
    boxes, score, cls = boxes[keep], score[keep], cls[keep]
    boxes[:, [0, 2]] = np.clip((boxes[:, [0, 2]] - left) / r, 0, w)
    boxes[:, [1, 3]] = np.clip((boxes[:, [1, 3]] - top) / r, 0, h)
    return boxes, score, cls


def synthetic_detect_output(channels: int, anchors: int) -> np.ndarray:
    """Same formula as BenchStats.syntheticDetectOutput in Sources/swingbench/YOLOBench.swift."""
    a = np.arange(anchors)
    out = np.zeros((channels, anchors), np.float32)
    out[0], out[1] = (a * 13) % 640, (a * 29) % 640
    out[2], out[3] = 20 + a % 50, 20 + a % 70
    c = np.arange(channels - 4)[:, None]
    out[4:] = ((a[None, :] * 7 + c * 13) % 50).astype(np.float32) / 1000
    sel = a[a % 84 == 0]
    out[4 + (sel // 84) % (channels - 4), sel] = ((30 + (sel * 37) % 60).astype(np.float32)) / 100
    return out[None]


def median_ms(samples: list[float]) -> float:
    return round(statistics.median(samples) * 1000, 3)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--model", required=True)
    ap.add_argument("--image", required=True)
    ap.add_argument("--runs", type=int, default=20)
    ap.add_argument("--warmup", type=int, default=3)
    ap.add_argument("--conf", type=float, default=0.25)
    ap.add_argument("--iou", type=float, default=0.45)
    ap.add_argument("--max-det", type=int, default=300)
    ap.add_argument("--json", action="store_true")
    a = ap.parse_args()

    sess = ort.InferenceSession(a.model, providers=["CPUExecutionProvider"])
    inp = sess.get_inputs()[0]
    size = (int(inp.shape[2]), int(inp.shape[3]))
    stages = {"decode": [], "pre": [], "infer": [], "post": [], "total": []}
    n_det = 0
    for i in range(a.warmup + a.runs):
        t0 = time.perf_counter()
        img = decode(a.image)
        t1 = time.perf_counter()
        x, r, left, top = preprocess(img, size)
        t2 = time.perf_counter()
        out = sess.run(None, {inp.name: x})[0]
        t3 = time.perf_counter()
        boxes, _, _ = postprocess(out, a.conf, a.iou, a.max_det, r, left, top, img.shape[1], img.shape[0])
        t4 = time.perf_counter()
        if i >= a.warmup:
            for k, v in zip(stages, (t1 - t0, t2 - t1, t3 - t2, t4 - t3, t4 - t0)):
                stages[k].append(v)
        n_det = len(boxes)
    # post-processing alone, on the same raw output, many repetitions (it is sub-millisecond)
    post_only = []
    for _ in range(max(50, a.runs)):
        t0 = time.perf_counter()
        postprocess(out, a.conf, a.iou, a.max_det, r, left, top, img.shape[1], img.shape[0])
        post_only.append(time.perf_counter() - t0)
    candidates = int((out[0, 4:].max(0) > a.conf).sum())
    synthetic = synthetic_detect_output(out.shape[1], out.shape[2])
    synth_times = []
    for _ in range(max(200, a.runs)):
        t0 = time.perf_counter()
        postprocess(synthetic, a.conf, a.iou, a.max_det, r, left, top, img.shape[1], img.shape[0])
        synth_times.append(time.perf_counter() - t0)
    result = {
        "pipeline": "python onnxruntime+numpy",
        "decoder": "cv2" if cv2 is not None else ("pillow" if Image is not None else "numpy-ppm"),
        "onnxruntime": ort.__version__,
        "image": [int(img.shape[1]), int(img.shape[0])],
        "outputShape": list(out.shape),
        "candidatesAboveConf": candidates,
        "detections": n_det,
        "medianMs": {k: median_ms(v) for k, v in stages.items()},
        "postOnlyMs": median_ms(post_only),
        "postSyntheticMs": median_ms(synth_times),
        "syntheticCandidates": int((synthetic[0, 4:].max(0) > a.conf).sum()),
    }
    try:
        from ultralytics import YOLO  # type: ignore

        times = []
        with contextlib.redirect_stdout(sys.stderr):  # Ultralytics prints loading messages on stdout
            model = YOLO(a.model, task="detect")
            for i in range(a.warmup + a.runs):
                t0 = time.perf_counter()
                model.predict(a.image, conf=a.conf, iou=a.iou, max_det=a.max_det, verbose=False, device="cpu")
                if i >= a.warmup:
                    times.append(time.perf_counter() - t0)
        result["ultralyticsMs"] = median_ms(times)
    except ImportError:
        result["ultralyticsMs"] = None
    if a.json:
        print(json.dumps(result))
    else:
        m = result["medianMs"]
        print(f"python ({result['decoder']}): decode {m['decode']} pre {m['pre']} infer {m['infer']} post {m['post']} "
              f"total {m['total']} ms; post-only {result['postOnlyMs']} ms; {n_det} detections; "
              f"post on a realistic output ({result['syntheticCandidates']} candidates) {result['postSyntheticMs']} ms")
        if result["ultralyticsMs"] is not None:
            print(f"ultralytics predictor: {result['ultralyticsMs']} ms")


if __name__ == "__main__":
    sys.exit(main())
