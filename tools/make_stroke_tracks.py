#!/usr/bin/env python3
"""3D pose tracks of forehands, backhands, serves and "no swing", with the truth (issue #27).

`measure` labels each contact forehand / backhand / serve from the pose over the swing; no tennis footage
with known strokes is available, so the tests use tracks made here. Every frame is a full 33-landmark
BlazePose world pose (metres, hip-centred, x right, y down, z away from the camera), the player filmed
from behind (facing +z), so the body frame of docs/analysis.md holds: forward f = +z, right r = +x, up
u = −y, all turned by the hips' heading ψ(t).

A session is a run of 2.4 s segments, one contact in the middle of each, in a seeded random order of:
  forehand   ready → backswing on the hitting side, racket drop, contact in front on the hitting side
             (forward 0.30–0.60 m, lateral 0.35–0.55 m, 0–20 cm above the pelvis), follow-through across
  backhand   the mirror image across the body: backswing and contact on the other side (lateral −0.30 to
             −0.50 m), follow-through high on the hitting side
  serve      trophy position, racket drop behind the back, contact overhead (0.85–1.05 m above the pelvis,
             shoulders at 0.50 m), follow-through down across the body
  standing / walking / split-step   no swing: a sound heard while the player stands (wrist sways 2 cm),
             walks (arms swing ±15 cm at 1 Hz while the body moves at 1.2 m/s) or split-steps (a 8 cm hop)
The dominant wrist follows a cubic spline through each stroke's keyframes (time from contact, forward,
lateral, up), every keyframe jittered by ±6 cm and the timing by ±15 %; the elbow sits between shoulder
and wrist, the hand landmarks on the wrist; the hips turn up to 35° through a stroke. Left-handers are the
mirror image (x → −x, left and right landmarks swapped). Noise like BlazePose's world landmarks: Gaussian,
σ = 1 cm across and 2.5 cm in depth (z) per landmark and frame.

    make_stroke_tracks.py OUT_PREFIX [--fps 60] [--hand right|left] [--seed 1] [--segments 24]
                          [--kinds forehand,backhand,serve,standing,walking,split-step]
                          [--view behind|front] [--hips-at-contact DEG] [--finish low|high] [--heard-late-ms MS]

Real strokes differ from these in ways the stroke type must survive (docs/analysis.md, "Stroke type"), each an
option (the defaults make the tracks above, unchanged):
  --view front          the camera in front of the player instead of behind (the world turned 180° about the
                        vertical: x → −x, z → −z; the player faces the camera, their right on the picture's left)
  --hips-at-contact DEG the hips and trunk turned DEG at a backhand's contact (the hitting shoulder to the net;
                        real backhands: 90–120°) and DEG/2 open at a forehand's, easing back over ±0.35 s, while the
                        hitting arm's path stays where it is on the court
  --finish high         forehands finish over the head (the wrist 0.4–0.45 m above the shoulders from 0.1 s to
                        0.45 s after contact, rising there within 0.1 s), as a topspin forehand does
  --heard-late-ms MS    every contact written MS later than it happened (the truth keeps the true time): a
                        recording whose sound lags its picture

Writes OUT_PREFIX.track.json (the `pose --json` shape: {"frames": [{"time", "score", "worldLandmarks"}]}),
OUT_PREFIX.contacts.json ({"contacts": [{"time", "confidence"}]}) and OUT_PREFIX.truth.json
({"shots": [{"time", "kind", "stroke" (null for no swing), "swing"}]}). Needs numpy and scipy.
"""
import argparse
import json
import sys

import numpy as np
from scipy.interpolate import CubicSpline

SEGMENT = 2.4
# Keyframes of the dominant wrist: (time from contact s, forward m, lateral m toward the hitting side, up m).
STROKES = {
    "forehand": [(-1.2, 0.15, 0.25, 0.0), (-0.55, -0.35, 0.65, 0.25), (-0.2, -0.2, 0.55, 0.0), (0.0, 0.45, 0.45, 0.1),
                 (0.15, 0.45, -0.05, 0.3), (0.45, 0.15, -0.35, 0.55), (1.2, 0.15, 0.25, 0.0)],
    "backhand": [(-1.2, 0.15, 0.25, 0.0), (-0.55, -0.3, -0.55, 0.2), (-0.2, -0.15, -0.5, 0.0), (0.0, 0.4, -0.4, 0.05),
                 (0.15, 0.45, 0.0, 0.3), (0.45, 0.1, 0.45, 0.6), (1.2, 0.15, 0.25, 0.0)],
    "serve": [(-1.2, 0.05, 0.2, 0.0), (-0.65, -0.1, 0.35, 0.55), (-0.25, -0.25, 0.3, 0.25), (0.0, 0.3, 0.25, 0.95),
              (0.2, 0.45, -0.2, 0.3), (0.5, 0.2, -0.35, -0.15), (1.2, 0.05, 0.2, 0.0)],
}
CONTACT_RANGES = {  # forward, lateral, up at contact
    "forehand": ((0.30, 0.60), (0.35, 0.55), (0.0, 0.2)),
    "backhand": ((0.25, 0.55), (-0.50, -0.30), (-0.05, 0.15)),
    "serve": ((0.15, 0.45), (0.15, 0.35), (0.85, 1.05)),
}
NO_SWING = ("standing", "walking", "split-step")
KINDS = tuple(STROKES) + NO_SWING

# Neutral pose in body coordinates (forward, right, up) from the pelvis, metres, for a right-hander.
NEUTRAL = {
    0: (0.06, 0.0, 0.66), 1: (0.05, -0.02, 0.69), 2: (0.05, -0.03, 0.69), 3: (0.05, -0.045, 0.69),
    4: (0.05, 0.02, 0.69), 5: (0.05, 0.03, 0.69), 6: (0.05, 0.045, 0.69), 7: (0.0, -0.075, 0.67),
    8: (0.0, 0.075, 0.67), 9: (0.05, -0.02, 0.61), 10: (0.05, 0.02, 0.61),
    11: (0.0, -0.18, 0.5), 12: (0.0, 0.18, 0.5), 13: (0.08, -0.24, 0.27), 14: (0.08, 0.24, 0.27),
    15: (0.25, -0.2, 0.1), 16: (0.15, 0.25, 0.0),
    23: (0.0, -0.12, 0.0), 24: (0.0, 0.12, 0.0), 25: (0.06, -0.14, -0.45), 26: (0.06, 0.14, -0.45),
    27: (0.0, -0.15, -0.85), 28: (0.0, 0.15, -0.85), 29: (-0.05, -0.15, -0.9), 30: (-0.05, 0.15, -0.9),
    31: (0.12, -0.16, -0.92), 32: (0.12, 0.16, -0.92),
}
HAND_OFFSETS = {17: (0.03, -0.02, -0.06), 19: (0.05, 0.0, -0.07), 21: (0.03, 0.02, -0.04)}  # pinky, index, thumb
MIRROR = [(1, 4), (2, 5), (3, 6), (7, 8), (9, 10), (11, 12), (13, 14), (15, 16), (17, 18), (19, 20), (21, 22),
          (23, 24), (25, 26), (27, 28), (29, 30), (31, 32)]


# A topspin forehand's high finish: after contact the wrist rises over the head and stays there.
HIGH_FINISH_FOREHAND = [(-1.2, 0.15, 0.25, 0.0), (-0.55, -0.35, 0.65, 0.25), (-0.2, -0.2, 0.55, 0.0), (0.0, 0.45, 0.45, 0.1),
                        (0.05, 0.4, 0.25, 0.6), (0.1, 0.3, 0.05, 0.9), (0.25, 0.15, -0.15, 0.95), (0.45, 0.05, -0.3, 0.9),
                        (1.2, 0.15, 0.25, 0.0)]
ARM = (14, 16, 18, 20, 22)   # the right elbow, wrist and hand: the hitting arm before mirroring


def wrist_path(kind, rng, keys=None):
    """The dominant wrist's (forward, lateral, up) as a function of time from contact, and the contact point."""
    keys = np.array(STROKES[kind] if keys is None else keys, dtype=float)
    keys[:, 1:] += rng.uniform(-0.06, 0.06, keys[:, 1:].shape)
    keys[:, 0] *= rng.uniform(0.85, 1.15)
    contact = [rng.uniform(*r) for r in CONTACT_RANGES[kind]]
    i = int(np.flatnonzero(keys[:, 0] == 0.0)[0])
    keys[i, 1:] = contact
    spline = CubicSpline(keys[:, 0], keys[:, 1:], bc_type="clamped")
    lo, hi = keys[0, 0], keys[-1, 0]
    return lambda t: spline(np.clip(t, lo, hi)), contact


def segment_pose(kind, rng, hips_at_contact=0.0, finish="low"):
    """For one segment: a function of time from contact giving (body points dict, pelvis world offset, heading,
    the hitting arm's heading: that of the court when the hips turn at contact, else the body's)."""
    stroke = kind in STROKES
    high = finish == "high" and kind == "forehand"
    path = wrist_path(kind, rng, HIGH_FINISH_FOREHAND if high else None)[0] if stroke else None
    turn = np.radians(rng.uniform(20, 35)) * (1 if kind != "backhand" else -1)
    # Hips at contact: closed into a backhand (the hitting side's hip toward the net), open at a forehand.
    closed = np.radians(hips_at_contact) * {"backhand": -1.0, "forehand": 0.5}.get(kind, 0.0)
    sway_phase = rng.uniform(0, 2 * np.pi)

    def at(t):
        pts = {k: np.array(v, dtype=float) for k, v in NEUTRAL.items()}
        pelvis = np.zeros(3)
        heading = 0.0
        arm_heading = None
        if stroke:
            w = path(t)
            heading = turn * np.tanh(t / 0.3)  # hips turn through the contact
            if closed:
                arm_heading = heading
                heading += closed * np.exp(-(t / 0.35) ** 2)
        elif kind == "standing":
            w = np.array(NEUTRAL[16]) + 0.02 * np.sin(2 * np.pi * 0.5 * t + sway_phase)
        elif kind == "walking":
            w = np.array(NEUTRAL[16]) + np.array([0.15 * np.sin(2 * np.pi * t + sway_phase), 0.0, 0.03])
            pts[15] = np.array(NEUTRAL[15]) + np.array([-0.15 * np.sin(2 * np.pi * t + sway_phase), 0.0, 0.0])
            pelvis = np.array([0.9 * t, 0.03 * np.sin(4 * np.pi * t), 0.0])
        else:  # split step: a hop, the racket held in front
            w = np.array([0.3, 0.2, 0.1]) + 0.01 * np.sin(3 * t + sway_phase)
            pelvis = np.array([0.0, 0.08 * max(0.0, np.sin(np.pi * (t + 0.25) / 0.5)) if -0.25 <= t <= 0.25 else 0.0, 0.0])
        pts[16] = np.asarray(w, dtype=float)
        pts[14] = 0.5 * (pts[12] + pts[16]) + np.array([-0.05, 0.05, -0.05])
        for k, off in HAND_OFFSETS.items():
            pts[k] = pts[15] + np.array(off) * np.array([1, 1, 1])
            pts[k + 1] = pts[16] + np.array(off) * np.array([1, -1, 1])
        return pts, pelvis, heading, arm_heading
    return at


def world_of(pts, pelvis_offset, heading, hand, arm_heading=None, view="behind"):
    """Body points → MediaPipe world landmarks (33 × 3)."""
    def basis(h):
        return np.array([np.sin(h), 0.0, np.cos(h)]), np.array([np.cos(h), 0.0, -np.sin(h)])
    f, r = basis(heading)
    u = np.array([0.0, -1.0, 0.0])
    world = np.zeros((33, 3))
    keys = list(pts)
    p = np.array([pts[k] for k in keys])
    # Row by row a·f + b·r + c·u, as one array expression (the same products and sums, so the same bits).
    world[keys] = p[:, 0:1] * f + p[:, 1:2] * r + p[:, 2:3] * u
    if arm_heading is not None:
        # The hitting arm keeps its path on the court while the hips and trunk turn under it.
        fa, ra = basis(arm_heading)
        for k in ARM[1:]:
            world[k] = pts[k][0] * fa + pts[k][1] * ra + pts[k][2] * u
        world[14] = 0.5 * (world[12] + world[16]) + np.array([0.0, 0.05, -0.05])
    # pelvis offset: walking moves the body forward (+z) and it bobs (y); expressed in world axes
    world += np.array([0.0, -pelvis_offset[1], pelvis_offset[0]])
    if hand == "left":
        world[:, 0] *= -1
        for a, b in MIRROR:
            world[[a, b]] = world[[b, a]]
    if view == "front":
        world[:, 0] *= -1
        world[:, 2] *= -1
    return world


def make(fps, hand, seed, segments, kinds, view="behind", hips_at_contact=0.0, finish="low", heard_late_ms=0.0):
    rng = np.random.default_rng(seed)
    order = [kinds[i % len(kinds)] for i in range(segments)]
    rng.shuffle(order)
    frames, contacts, truth = [], [], []
    dt = 1.0 / fps
    for s, kind in enumerate(order):
        start = s * SEGMENT
        tc = start + SEGMENT / 2 + rng.uniform(-0.1, 0.1)
        pose = segment_pose(kind, rng, hips_at_contact, finish)
        t = start + (dt - (start % dt)) % dt
        while t < start + SEGMENT - 1e-9:
            pts, pelvis, heading, arm_heading = pose(t - tc)
            w = world_of(pts, pelvis, heading, hand, arm_heading, view)
            w += rng.normal(0.0, 1.0, w.shape) * np.array([0.01, 0.01, 0.025])
            frames.append({"time": round(t, 6), "score": 0.95,
                           "worldLandmarks": [{"x": x, "y": y, "z": z} for x, y, z in w.tolist()]})
            t += dt
        contacts.append({"time": round(tc + heard_late_ms / 1000, 6), "confidence": 1.0})
        truth.append({"time": round(tc, 6), "kind": kind, "stroke": kind if kind in STROKES else None,
                      "swing": kind in STROKES})
    return {"frames": frames}, {"contacts": contacts}, {"shots": truth, "fps": fps, "hand": hand, "seed": seed}


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("out_prefix")
    ap.add_argument("--fps", type=float, default=60.0)
    ap.add_argument("--hand", choices=("right", "left"), default="right")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--segments", type=int, default=24)
    ap.add_argument("--kinds", default=",".join(KINDS))
    ap.add_argument("--view", choices=("behind", "front"), default="behind")
    ap.add_argument("--hips-at-contact", type=float, default=0.0)
    ap.add_argument("--finish", choices=("low", "high"), default="low")
    ap.add_argument("--heard-late-ms", type=float, default=0.0)
    a = ap.parse_args(argv)
    kinds = a.kinds.split(",")
    if any(k not in KINDS for k in kinds) or not (1 <= a.fps <= 1000) or a.segments < 1:
        ap.error(f"kinds are {', '.join(KINDS)}; fps 1-1000; at least one segment")
    if not (0 <= a.hips_at_contact <= 150) or not (0 <= a.heard_late_ms <= 500):
        ap.error("--hips-at-contact is 0-150 degrees; --heard-late-ms 0-500")
    track, contacts, truth = make(a.fps, a.hand, a.seed, a.segments, kinds, a.view, a.hips_at_contact, a.finish,
                                  a.heard_late_ms)
    for suffix, doc in (("track", track), ("contacts", contacts), ("truth", truth)):
        path = f"{a.out_prefix}.{suffix}.json"
        try:
            with open(path, "w") as fh:
                fh.write(json.dumps(doc))   # dumps runs the C encoder; dump to a file streams through Python's (4x slower)
        except OSError as e:
            sys.exit(f"make_stroke_tracks.py: cannot write {path}: {e.strerror}.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
