#!/usr/bin/env python3
"""MediaPipe Python peer for `swingbench pose`: BlazePose throughput on the same frames.

Decodes all frames first (OpenCV), then times `mp.solutions.pose.Pose(model_complexity=1)` over
them — video mode (tracking + smoothing) for --video, static mode for --images — and prints one
JSON line: {"peer": "mediapipe", "frames": N, "seconds": S, "fps": F, "persons": P}.

Environment: `make bench-setup` (.deps/bench-venv, pins in bench/requirements-peers.txt)
Run: .deps/bench-venv/bin/python bench/pose_peer.py --video clip.mp4 [--frames 300]
     .deps/bench-venv/bin/python bench/pose_peer.py --images a.png b.jpg
"""
import argparse
import json
import time

import cv2
import mediapipe as mp


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--video")
    ap.add_argument("--images", nargs="*")
    ap.add_argument("--frames", type=int, default=0, help="limit (0 = all)")
    ap.add_argument("--repeat", type=int, default=1, help="images: passes over the list")
    a = ap.parse_args()
    frames = []
    if a.video:
        cap = cv2.VideoCapture(a.video)
        while True:
            ok, f = cap.read()
            if not ok or (a.frames and len(frames) >= a.frames):
                break
            frames.append(cv2.cvtColor(f, cv2.COLOR_BGR2RGB))
    else:
        imgs = [cv2.cvtColor(cv2.imread(p, cv2.IMREAD_COLOR), cv2.COLOR_BGR2RGB) for p in a.images]
        frames = imgs * max(1, a.repeat)
    with mp.solutions.pose.Pose(static_image_mode=not a.video, model_complexity=1) as pose:
        pose.process(frames[0])  # load + warm up, as our side warms up too
        if a.video:
            pose.reset()
        persons = 0
        t0 = time.perf_counter()
        for f in frames:
            persons += pose.process(f).pose_landmarks is not None
        dt = time.perf_counter() - t0
    print(json.dumps({"peer": "mediapipe", "frames": len(frames), "seconds": dt,
                      "fps": len(frames) / dt, "persons": persons}))


if __name__ == "__main__":
    main()
