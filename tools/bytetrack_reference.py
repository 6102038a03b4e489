#!/usr/bin/env python3
"""Ultralytics' own ByteTrack on seeded synthetic detections: the reference our Swift ByteTracker is checked against.

Why: `SwingVision.ByteTracker` follows Ultralytics' BYTETracker (two-stage association, Kalman XYAH, unconfirmed
tracks, track buffer). This script feeds Ultralytics' tracker the same detections, frame by frame, and records which
track id each detection received and the tracker's (Kalman) box, so `ByteTrackerTests` can compare frame by frame.

Scenarios (numpy's PCG64 with fixed seeds; every coordinate a multiple of 1/8 px and every confidence a multiple of
1/128 so that float32 (Ultralytics) and Double (Swift) read the same numbers):
  walkers    8 objects entering and leaving, constant velocity + noise, 8 % missed detections, 10 % low-confidence
  crossing   pairs of objects passing through each other with different speeds
  crowd      20 objects plus clutter: random low and high false positives
  huddle     14 objects crowded into 280 × 220 px, boxes overlapping heavily (where greedy matching goes wrong)
  gaps       objects that vanish for 10, 29 and 45 frames (buffer 30): the last comes back with a new id

Output: Tests/SwingVisionTests/Fixtures/tracking/bytetrack_reference.json

Run (from the package root), pinned versions; no model, image or hub is used, torch is only imported. Install the
CPU build of torch first (PyPI's Linux torch pulls the CUDA libraries, gigabytes): here the wheel
/opt/wheels/torch-2.13.0+cpu-cp311-cp311-manylinux_2_28_x86_64.whl, elsewhere `pip install torch==2.13.0
--index-url` PyTorch's CPU index. About a minute on 2 cores:
    python3 -m venv /work/venvs/track
    /work/venvs/track/bin/pip install /opt/wheels/torch-2.13.0+cpu-cp311-cp311-manylinux_2_28_x86_64.whl \
        torchvision==0.28.0 ultralytics==8.4.190 lap==0.5.13 numpy==2.4.6
    /work/venvs/track/bin/python tools/bytetrack_reference.py
"""
from __future__ import annotations

import json
from pathlib import Path

import numpy as np

import lap
import ultralytics
from ultralytics.engine.results import Boxes
from ultralytics.trackers.byte_tracker import BYTETracker
from ultralytics.utils import YAML, IterableSimpleNamespace
from ultralytics.utils.checks import check_yaml

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "Tests/SwingVisionTests/Fixtures/tracking/bytetrack_reference.json"
WIDTH, HEIGHT = 1280, 720


def q(v: float, step: float = 1 / 8) -> float:
    return float(np.round(v / step) * step)


def conf(v: float) -> float:
    return q(min(max(v, 0.0), 1.0), 1 / 128)


class Mover:
    """An object moving at constant velocity with a fixed size, visible in [start, end)."""

    def __init__(self, rng, start, end, x=None, y=None, vx=None, vy=None, w=None, h=None, cls=0):
        self.start, self.end, self.cls = start, end, cls
        self.w = w if w is not None else rng.uniform(30, 90)
        self.h = h if h is not None else self.w * rng.uniform(1.2, 2.5)
        self.x = x if x is not None else rng.uniform(100, WIDTH - 100)
        self.y = y if y is not None else rng.uniform(100, HEIGHT - 100)
        self.vx = vx if vx is not None else rng.uniform(-6, 6)
        self.vy = vy if vy is not None else rng.uniform(-4, 4)

    def box(self, f, rng, noise):
        t = f - self.start
        cx = self.x + self.vx * t + rng.normal(0, noise)
        cy = self.y + self.vy * t + rng.normal(0, noise)
        w = self.w * (1 + rng.normal(0, 0.02))
        h = self.h * (1 + rng.normal(0, 0.02))
        return [q(cx - w / 2), q(cy - h / 2), q(cx + w / 2), q(cy + h / 2)]


def frames_of(rng, movers, n_frames, miss=0.0, low=0.0, noise=1.0, clutter=0, gaps=None):
    gaps = gaps or {}
    frames = []
    for f in range(n_frames):
        dets = []
        for k, m in enumerate(movers):
            if not (m.start <= f < m.end):
                continue
            if any(a <= f < b for a, b in gaps.get(k, [])):
                continue
            if rng.uniform() < miss:
                continue
            c = rng.uniform(0.12, 0.24) if rng.uniform() < low else rng.uniform(0.5, 0.95)
            dets.append(m.box(f, rng, noise) + [conf(c), m.cls])
        for _ in range(clutter):
            w = rng.uniform(20, 60)
            x, y = rng.uniform(0, WIDTH - w), rng.uniform(0, HEIGHT - w)
            c = rng.uniform(0.11, 0.3)
            dets.append([q(x), q(y), q(x + w), q(y + w), conf(c), 1])
        # The predictor's order: best first.
        dets.sort(key=lambda d: -d[4])
        frames.append(dets)
    return frames


def scenarios():
    rng = np.random.default_rng(20240611)
    walkers = [Mover(rng, rng.integers(0, 60), rng.integers(70, 140), cls=int(rng.integers(0, 3))) for _ in range(8)]
    yield "walkers", frames_of(rng, walkers, 140, miss=0.08, low=0.10, noise=1.5)

    rng = np.random.default_rng(7)
    crossing = [
        Mover(rng, 0, 90, x=200, y=300, vx=8, vy=0, w=50, h=110),
        Mover(rng, 0, 90, x=900, y=330, vx=-5, vy=0, w=60, h=130),
        Mover(rng, 5, 90, x=300, y=100, vx=2, vy=5, w=40, h=80),
        Mover(rng, 5, 90, x=500, y=600, vx=-1, vy=-4.5, w=45, h=95),
    ]
    yield "crossing", frames_of(rng, crossing, 90, miss=0.03, noise=1.0)

    rng = np.random.default_rng(99)
    crowd = [Mover(rng, 0, 100, w=rng.uniform(25, 50)) for _ in range(20)]
    yield "crowd", frames_of(rng, crowd, 50, miss=0.05, low=0.05, noise=1.0, clutter=3)

    rng = np.random.default_rng(11)
    huddle = [Mover(rng, 0, 60, x=rng.uniform(500, 780), y=rng.uniform(250, 470), vx=rng.uniform(-2.5, 2.5),
                    vy=rng.uniform(-2, 2), w=rng.uniform(40, 70)) for _ in range(14)]
    yield "huddle", frames_of(rng, huddle, 60, miss=0.05, low=0.1, noise=2.0)

    rng = np.random.default_rng(3)
    gappy = [
        Mover(rng, 0, 120, x=200, y=200, vx=2, vy=0.5, w=60, h=120),
        Mover(rng, 0, 120, x=600, y=400, vx=-1.5, vy=0.2, w=70, h=140),
        Mover(rng, 0, 120, x=1000, y=250, vx=-1, vy=1, w=50, h=100),
    ]
    yield "gaps", frames_of(rng, gappy, 120, noise=0.8, gaps={0: [(20, 30)], 1: [(30, 59)], 2: [(40, 85)]})


def run(frames):
    cfg = IterableSimpleNamespace(**YAML.load(check_yaml("bytetrack.yaml")))
    tracker = BYTETracker(args=cfg)
    out = []
    for dets in frames:
        data = np.asarray(dets, dtype=np.float32).reshape(-1, 6)
        tracks = tracker.update(Boxes(data, (HEIGHT, WIDTH)))
        rows = []
        for t in tracks:
            x1, y1, x2, y2, tid, _score, _cls, idx = (float(v) for v in t)
            rows.append([int(idx), int(tid), round(x1, 2), round(y1, 2), round(x2, 2), round(y2, 2)])
        rows.sort()
        out.append(rows)
    return cfg, out


def main():
    cases = []
    cfg = None
    for name, frames in scenarios():
        cfg, tracks = run(frames)
        cases.append({"name": name, "frames": frames, "tracks": tracks})
    doc = {
        "generator": "tools/bytetrack_reference.py",
        "versions": {"ultralytics": ultralytics.__version__, "numpy": np.__version__, "lap": lap.__version__},
        "config": {k: getattr(cfg, k) for k in
                   ("track_high_thresh", "track_low_thresh", "new_track_thresh", "track_buffer", "match_thresh", "fuse_score")},
        "columns": {"frames": "x1, y1, x2, y2, confidence, class", "tracks": "detection index, track id, x1, y1, x2, y2"},
        "cases": cases,
    }
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(json.dumps(doc, separators=(",", ":")) + "\n")
    print(f"wrote {OUT.relative_to(ROOT)} ({OUT.stat().st_size} bytes)")


if __name__ == "__main__":
    main()
