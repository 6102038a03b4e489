#!/usr/bin/env python3
"""Crops of people as the landmark model sees them, for bench/pose_int8.sh (issue #28's int8 lever).

MediaPipe 0.10.14 (static mode) finds the person in each image or every STEP-th video frame; the crop is
the square around its landmarks' extent, centred at the hips, x1.25, resized to 256x256 (the tracker's
rotation is ignored), RGB in [0, 1]. Writes an (N, 256, 256, 3) float32 .npy.

    .deps/bench-venv/bin/python bench/pose_int8_crops.py OUT.npy IMAGE_OR_VIDEO... (env STEP, default 7)
"""
import cv2, numpy as np, mediapipe as mp, glob, sys
out = sys.argv[1]; srcs = sys.argv[2:]
pose = mp.solutions.pose.Pose(static_image_mode=True, model_complexity=1)
crops = []
def add(img):
    h, w = img.shape[:2]
    r = pose.process(cv2.cvtColor(img, cv2.COLOR_BGR2RGB))
    if not r.pose_landmarks: return
    pts = np.array([[l.x * w, l.y * h] for l in r.pose_landmarks.landmark])
    c = (pts[23] + pts[24]) / 2
    half = max(np.abs(pts - c).max(0)) * 1.25
    M = np.array([[256 / (2 * half), 0, 128 - c[0] * 256 / (2 * half)], [0, 256 / (2 * half), 128 - c[1] * 256 / (2 * half)]])
    crop = cv2.warpAffine(img, M, (256, 256), borderMode=cv2.BORDER_REPLICATE)
    crops.append(cv2.cvtColor(crop, cv2.COLOR_BGR2RGB).astype(np.float32) / 255.0)
for s in srcs:
    if s.endswith((".png", ".jpg")):
        add(cv2.imread(s))
    else:
        cap = cv2.VideoCapture(s); k = 0
        while True:
            ok, f = cap.read()
            if not ok: break
            if k % int(__import__("os").environ.get("STEP","7")) == 0: add(f)
            k += 1
np.save(out, np.stack(crops)); print(f"{out.rsplit('/', 1)[-1]}: {len(crops)} crops")
