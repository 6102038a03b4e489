#!/usr/bin/env python3
"""Reference BlazePose output from MediaPipe Python, for SwingPose's parity tests.

Runs `mp.solutions.pose.Pose(static_image_mode=True, model_complexity=1)` (the legacy solution, as
the issue specifies) on each image and writes one JSON file:
    {"mediapipe": "0.10.14", "images": [{"file": "astronaut.png", "width": 512, "height": 512,
      "person": true, "landmarks": [[x, y, z, visibility, presence], ...33 normalised],
      "world": [[x, y, z], ...33 metres]}, ...]}

Environment (a fresh machine):
    python3.11 -m venv venv-mp && venv-mp/bin/pip install mediapipe==0.10.14 "numpy<2"
    (mediapipe pulls in opencv-contrib-python, used here to read images)
Run:
    venv-mp/bin/python tools/pose_reference.py Tests/SwingPoseTests/Fixtures/*.png \
        Tests/SwingPoseTests/Fixtures/*.jpg --out Tests/SwingPoseTests/Fixtures/pose_reference.json
"""
import argparse
import json
import os

import cv2
import mediapipe as mp


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("images", nargs="+")
    ap.add_argument("--out", required=True)
    a = ap.parse_args()
    results = []
    with mp.solutions.pose.Pose(static_image_mode=True, model_complexity=1) as pose:
        for path in sorted(a.images):
            bgr = cv2.imread(path, cv2.IMREAD_COLOR)
            if bgr is None:
                raise SystemExit(f"cannot read {path}")
            h, w = bgr.shape[:2]
            r = pose.process(cv2.cvtColor(bgr, cv2.COLOR_BGR2RGB))
            entry = {"file": os.path.basename(path), "width": w, "height": h,
                     "person": r.pose_landmarks is not None}
            if r.pose_landmarks is not None:
                entry["landmarks"] = [[round(l.x, 6), round(l.y, 6), round(l.z, 6),
                                       round(l.visibility, 6), round(l.presence, 6)]
                                      for l in r.pose_landmarks.landmark]
                entry["world"] = [[round(l.x, 6), round(l.y, 6), round(l.z, 6)]
                                  for l in r.pose_world_landmarks.landmark]
            results.append(entry)
            print(f"{entry['file']}: {'person' if entry['person'] else 'no person'}")
    with open(a.out, "w") as f:
        json.dump({"mediapipe": mp.__version__, "images": results}, f, indent=1)


if __name__ == "__main__":
    main()
