#!/usr/bin/env python3
"""Make the SwingPose tracking test clip: a slow zoom and pan over a real photo of a person.

Input: `basketball1.png` (Debian `opencv-doc` 4.6.0+dfsg-12, examples/data; see
Tests/SwingPoseTests/Fixtures/README.md). Output: `pose_clip.mp4`, 640×480, 30 fps, N = 60 frames
(MPEG-4 Part 2). Frame k is the photo warped by the similarity transform

    out = (src − c_k) · z_k + (320, 240),   t = k / (N − 1)
    z_k = 1 + 0.15 t,   c_k = (320 − 120 t, 240 + 25 t)

(bilinear, edge pixels replicated), so a landmark at p in the photo is at that image of p in frame k.
The test uses the same formula to check that tracked landmarks stay on the person.

Environment: python3.11 -m venv v && v/bin/pip install "numpy<2" opencv-python==4.10.0.84
Run: v/bin/python tools/make_pose_clip.py Tests/SwingPoseTests/Fixtures/basketball1.png \
        Tests/SwingPoseTests/Fixtures/pose_clip.mp4
"""
import sys

import cv2
import numpy as np

N, FPS = 60, 30


def transform(k):
    t = k / (N - 1)
    z = 1 + 0.15 * t
    cx, cy = 320 - 120 * t, 240 + 25 * t
    return np.array([[z, 0, 320 - z * cx], [0, z, 240 - z * cy]], dtype=np.float64)


def main():
    src, dst = sys.argv[1], sys.argv[2]
    img = cv2.imread(src, cv2.IMREAD_COLOR)
    if img is None or img.shape[:2] != (480, 640):
        sys.exit(f"{src}: expected a 640×480 image")
    out = cv2.VideoWriter(dst, cv2.VideoWriter_fourcc(*"mp4v"), FPS, (640, 480))
    for k in range(N):
        out.write(cv2.warpAffine(img, transform(k), (640, 480), flags=cv2.INTER_LINEAR,
                                 borderMode=cv2.BORDER_REPLICATE))
    out.release()


if __name__ == "__main__":
    main()
