#!/usr/bin/env python3
"""Pose tracks whose body angles are known by construction (issue #41: the reference for the body measures).

Each frame's skeleton is *built* from chosen angles, so the truth is the construction's parameters, not a
second computation of the definitions: the trunk is tilted by the chosen forward and sideways lean, the
shoulders' line turned by the chosen separation from the hips' line, the hitting arm's forearm rotated by
the chosen elbow flexion from the upper arm about a random axis, each leg's ankle placed at the distance
from its hip the chosen knee flexion gives (law of cosines) with the knee on the circle of points a thigh
from the hip and a shin from the ankle, and the ankles set apart, seen from above, by the chosen stance
width times the shoulder width. The body is placed at a random heading, its segments scaled by the body
size, and for a left-hander the hitting side is the body's left (built directly, not mirrored).

Definitions the construction follows (docs/analysis.md, "Body measures"; MediaPipe world axes: metres,
x right, y down, z away from the camera; up u = (0, -1, 0); right r = the hips' line made horizontal;
forward f = u x r; hitting side h = r for right-handers, -r for left-handers):
  elbowFlexion            180 - angle(shoulder, elbow, wrist) of the hitting arm
  kneeFlexionHittingSide  180 - angle(hip, knee, ankle) of the hitting side's leg; kneeFlexionOtherSide the other
  shoulderHipSeparation   the shoulders' line (other -> hitting shoulder) seen from above, from h toward -f
  trunkLeanForward        atan2(T.f, T.u), T = shoulders' midpoint - pelvis;  trunkLeanSideways atan2(T.h, T.u)
  stanceWidth             the ankles' distance apart perpendicular to u / the shoulders' distance apart

Every angle follows a smooth path over time (a different phase per measure), so frames differ and a
contact between two frames is checked against the truth interpolated the same way as the contact point.

Usage: make_angle_tracks.py OUT_PREFIX [--fps 60] [--hand right|left] [--size 1.0] [--seed 1]
  [--seconds 4] [--contacts N]  ->  OUT_PREFIX.track.json (frames with 33 world landmarks),
  OUT_PREFIX.contacts.json (N contacts at random times), OUT_PREFIX.truth.json
  ({"frames": [{"time", "angles": {measure: value}}], "hand", "size", "fps"}).
Only numpy.
"""
import argparse
import json

import numpy as np

L = dict(nose=0, leftEyeInner=1, leftEye=2, leftEyeOuter=3, rightEyeInner=4, rightEye=5, rightEyeOuter=6,
         leftEar=7, rightEar=8, mouthLeft=9, mouthRight=10, leftShoulder=11, rightShoulder=12, leftElbow=13,
         rightElbow=14, leftWrist=15, rightWrist=16, leftPinky=17, rightPinky=18, leftIndex=19, rightIndex=20,
         leftThumb=21, rightThumb=22, leftHip=23, rightHip=24, leftKnee=25, rightKnee=26, leftAnkle=27,
         rightAnkle=28, leftHeel=29, rightHeel=30, leftFootIndex=31, rightFootIndex=32)
UP = np.array([0.0, -1.0, 0.0])


def unit(v):
    return v / np.linalg.norm(v)


def rotate(v, axis, degrees):
    """Rodrigues: v rotated about the unit `axis` by `degrees`."""
    a = np.radians(degrees)
    return v * np.cos(a) + np.cross(axis, v) * np.sin(a) + axis * np.dot(axis, v) * (1 - np.cos(a))


def angles_at(t, phases):
    """The chosen measures at time t: smooth, inside what a body does (and the construction can build)."""
    def wave(i, lo, hi, rate):
        return lo + (hi - lo) * 0.5 * (1 + np.sin(2 * np.pi * rate * t + phases[i]))
    return {
        "elbowFlexion": wave(0, 5.0, 140.0, 0.7),
        "kneeFlexionHittingSide": wave(1, 5.0, 85.0, 0.5),
        "kneeFlexionOtherSide": wave(2, 5.0, 85.0, 0.6),
        "shoulderHipSeparation": wave(3, -60.0, 60.0, 0.4),
        "trunkLeanForward": wave(4, -15.0, 40.0, 0.3),
        "trunkLeanSideways": wave(5, -30.0, 30.0, 0.45),
        "stanceWidth": wave(6, 0.6, 2.0, 0.35),
    }


def leg(hip, flexion, ankle_horizontal, thigh, shin, forward):
    """Ankle and knee of a leg from its hip, knee flexion and the ankle's place seen from above."""
    reach = np.sqrt(thigh ** 2 + shin ** 2 + 2 * thigh * shin * np.cos(np.radians(flexion)))
    flat = ankle_horizontal - hip
    flat -= UP * np.dot(flat, UP)
    drop = np.sqrt(reach ** 2 - np.dot(flat, flat))
    ankle = hip + flat - UP * drop
    axis = (ankle - hip) / reach
    along = (thigh ** 2 - shin ** 2 + reach ** 2) / (2 * reach)
    radius = np.sqrt(max(thigh ** 2 - along ** 2, 0.0))
    out = unit(forward - axis * np.dot(forward, axis))
    knee = hip + axis * along + out * radius
    return knee, ankle


def frame(t, a, hand, size, heading, arm_axis_phase):
    r = np.array([np.cos(heading), 0.0, -np.sin(heading)])
    f = np.cross(UP, r)
    h = r if hand == "right" else -r
    side = "right" if hand == "right" else "left"
    other = "left" if hand == "right" else "right"
    w = np.zeros((33, 3))
    pelvis = np.array([0.05 * np.sin(t), -0.02 * np.cos(2 * t), 0.1 * t])
    half_hip = 0.10 * size
    tilt = 0.02 * size * np.sin(3 * t)   # hips not level: the hips' line is made horizontal
    w[L["rightHip"]] = pelvis + half_hip * r + tilt * UP
    w[L["leftHip"]] = pelvis - half_hip * r - tilt * UP
    trunk_dir = unit(np.tan(np.radians(a["trunkLeanForward"])) * f
                     + np.tan(np.radians(a["trunkLeanSideways"])) * h + UP)
    mid = pelvis + 0.50 * size * trunk_dir
    sep = np.radians(a["shoulderHipSeparation"])
    across = np.cos(sep) * h - np.sin(sep) * f   # other -> hitting shoulder, seen from above
    shoulder_width = 0.38 * size
    w[L[side + "Shoulder"]] = mid + across * shoulder_width / 2
    w[L[other + "Shoulder"]] = mid - across * shoulder_width / 2
    # hitting arm: the upper arm swings; the forearm is the upper arm turned by the elbow flexion
    upper = unit(rotate(-UP, unit(np.cross(f, -UP)), 50 * np.sin(1.3 * t)) + 0.4 * h)
    bend_axis = unit(np.cross(upper, rotate(f, UP, 40 * np.sin(arm_axis_phase + t))))
    fore = rotate(upper, bend_axis, a["elbowFlexion"])
    shoulder = w[L[side + "Shoulder"]]
    elbow = shoulder + 0.30 * size * upper
    wrist = elbow + 0.26 * size * fore
    w[L[side + "Elbow"]], w[L[side + "Wrist"]] = elbow, wrist
    o_shoulder = w[L[other + "Shoulder"]]
    w[L[other + "Elbow"]] = o_shoulder + 0.30 * size * unit(-UP + 0.2 * f)
    w[L[other + "Wrist"]] = w[L[other + "Elbow"]] + 0.26 * size * unit(f - 0.3 * UP)
    for name, wr in ((side, wrist), (other, w[L[other + "Wrist"]])):
        w[L[name + "Pinky"]] = wr + 0.03 * size * f
        w[L[name + "Index"]] = wr + 0.04 * size * f
        w[L[name + "Thumb"]] = wr + 0.02 * size * f
    # legs: ankles apart, seen from above, by the stance width along a foot line turned from the hips'
    foot_line = rotate(h, UP, 25 * np.sin(0.8 * t))
    apart = a["stanceWidth"] * shoulder_width
    centre = pelvis.copy()
    ground_centre = centre - UP * np.dot(centre, UP)
    thigh, shin = 0.44 * size, 0.42 * size
    for name, sign, key in ((side, 1, "kneeFlexionHittingSide"), (other, -1, "kneeFlexionOtherSide")):
        hip = w[L[name + "Hip"]]
        knee, ankle = leg(hip, a[key], ground_centre + sign * foot_line * apart / 2, thigh, shin, f)
        w[L[name + "Knee"]], w[L[name + "Ankle"]] = knee, ankle
        w[L[name + "Heel"]] = ankle - 0.05 * size * f - 0.04 * size * UP
        w[L[name + "FootIndex"]] = ankle + 0.15 * size * f - 0.06 * size * UP
    head = mid + 0.22 * size * trunk_dir
    for name in ("nose", "leftEyeInner", "leftEye", "leftEyeOuter", "rightEyeInner", "rightEye", "rightEyeOuter",
                 "mouthLeft", "mouthRight"):
        w[L[name]] = head + 0.08 * size * f
    w[L["leftEar"]], w[L["rightEar"]] = head - 0.07 * size * r, head + 0.07 * size * r
    return w


def make(fps, hand, size, seed, seconds, n_contacts):
    rng = np.random.default_rng(seed)
    phases = rng.uniform(0, 2 * np.pi, 7)
    heading = rng.uniform(-np.pi, np.pi)
    arm_phase = rng.uniform(0, 2 * np.pi)
    frames, truth = [], []
    n = int(seconds * fps)
    for i in range(n):
        t = i / fps
        a = angles_at(t, phases)
        w = frame(t, a, hand, size, heading, arm_phase)
        frames.append({"time": round(t, 6), "score": 0.95,
                       "worldLandmarks": [{"x": x, "y": y, "z": z} for x, y, z in np.asarray(w).tolist()]})
        truth.append({"time": round(t, 6), "angles": {k: float(v) for k, v in a.items()}})
    times = sorted(rng.uniform(1.1, seconds - 0.6, n_contacts))
    contacts = [{"time": round(float(t), 6), "confidence": 1.0} for t in times]
    return ({"frames": frames}, {"contacts": contacts},
            {"frames": truth, "hand": hand, "size": size, "fps": fps, "seed": seed})


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("out_prefix")
    ap.add_argument("--fps", type=float, default=60.0)
    ap.add_argument("--hand", choices=("right", "left"), default="right")
    ap.add_argument("--size", type=float, default=1.0)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--seconds", type=float, default=4.0)
    ap.add_argument("--contacts", type=int, default=3)
    args = ap.parse_args(argv)
    track, contacts, truth = make(args.fps, args.hand, args.size, args.seed, args.seconds, args.contacts)
    for suffix, doc in (("track", track), ("contacts", contacts), ("truth", truth)):
        with open(f"{args.out_prefix}.{suffix}.json", "w") as fh:
            fh.write(json.dumps(doc))   # dumps runs the C encoder; dump to a file streams through Python's (4x slower)


if __name__ == "__main__":
    main()
