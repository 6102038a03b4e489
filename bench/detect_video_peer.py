#!/usr/bin/env python3
"""The short Python script a user would write to run a YOLO ONNX export on every frame of a video — the
peer of `swingmaster detect VIDEO --vid-stride 1` in bench/detect_video.sh.

ffmpeg pipe (rgb24) -> numpy/cv2 letterbox (Ultralytics' LetterBox: min ratio, bilinear, pad 114) ->
onnxruntime (default threads) -> numpy candidates above conf -> class-aware greedy NMS (Ultralytics' offset
trick) -> max_det. Prints one JSON line: frames, detections, seconds, ms per frame, onnxruntime version.

Run: $SWINGMASTER_PYTHON bench/detect_video_peer.py --model M.onnx --video V.mp4 [--conf 0.25]
"""
import argparse, json, subprocess, time
import cv2, numpy as np, onnxruntime as ort

ap = argparse.ArgumentParser()
ap.add_argument("--model"); ap.add_argument("--video"); ap.add_argument("--conf", type=float, default=0.25)
ap.add_argument("--iou", type=float, default=0.45); ap.add_argument("--max-det", type=int, default=300)
a = ap.parse_args()
t0 = time.perf_counter()
sess = ort.InferenceSession(a.model, providers=["CPUExecutionProvider"])
inp = sess.get_inputs()[0]; H, W = inp.shape[2], inp.shape[3]
probe = subprocess.run(["ffprobe", "-v", "error", "-select_streams", "v:0", "-show_entries", "stream=width,height",
                        "-of", "csv=p=0", a.video], capture_output=True, text=True, check=True).stdout.strip().split(",")
w, h = int(probe[0]), int(probe[1])
pipe = subprocess.Popen(["ffmpeg", "-v", "error", "-i", a.video, "-f", "rawvideo", "-pix_fmt", "rgb24", "-"], stdout=subprocess.PIPE)
r = min(H / h, W / w); nw, nh = round(w * r), round(h * r)
top, left = round((H - nh) / 2 - 0.1), round((W - nw) / 2 - 0.1)
frames = dets = 0
while True:
    buf = pipe.stdout.read(w * h * 3)
    if len(buf) < w * h * 3: break
    img = np.frombuffer(buf, np.uint8).reshape(h, w, 3)
    canvas = np.full((H, W, 3), 114, np.uint8)
    canvas[top:top + nh, left:left + nw] = cv2.resize(img, (nw, nh), interpolation=cv2.INTER_LINEAR)
    x = (canvas.transpose(2, 0, 1)[None].astype(np.float32)) / 255.0
    out = sess.run(None, {inp.name: x})[0][0]          # [4+nc, N]
    scores = out[4:]; cls = scores.argmax(0); conf = scores[cls, np.arange(scores.shape[1])]
    keep = conf > a.conf; b = out[:4, keep].T; conf = conf[keep]; cls = cls[keep]
    boxes = np.stack([b[:, 0] - b[:, 2] / 2, b[:, 1] - b[:, 3] / 2, b[:, 0] + b[:, 2] / 2, b[:, 1] + b[:, 3] / 2], 1)
    off = boxes + cls[:, None] * 7680.0
    order = conf.argsort()[::-1]; kept = []
    while order.size and len(kept) < a.max_det:
        i = order[0]; kept.append(i)
        xx1 = np.maximum(off[i, 0], off[order[1:], 0]); yy1 = np.maximum(off[i, 1], off[order[1:], 1])
        xx2 = np.minimum(off[i, 2], off[order[1:], 2]); yy2 = np.minimum(off[i, 3], off[order[1:], 3])
        inter = np.clip(xx2 - xx1, 0, None) * np.clip(yy2 - yy1, 0, None)
        area = lambda q: (q[:, 2] - q[:, 0]) * (q[:, 3] - q[:, 1])
        iou = inter / (area(off[[i]]) + area(off[order[1:]]) - inter + 1e-9)
        order = order[1:][iou <= a.iou]
    frames += 1; dets += len(kept)
pipe.wait()
s = time.perf_counter() - t0
print(json.dumps({"frames": frames, "detections": dets, "seconds": s, "msPerFrame": 1000 * s / max(frames, 1),
                  "onnxruntime": ort.__version__}))
