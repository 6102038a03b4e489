#!/usr/bin/env python3
"""Independent numpy reference for `swingmaster measure` (issue 5, scope 2).

Written from the issue text, not from the Swift code, so a misreading on either side shows up as a
mismatch in Tests/SwingBiomechTests/ReferenceCrossCheckTests.swift.

Definitions (MediaPipe world landmarks: metres, x right, y down, z away from the camera):
  P = (hip23 + hip24) / 2;  u = (0, -1, 0);  r = (hip24 - hip23) minus its u component, normalised;
  f = u x r;  h = r (right hand) or -r (left hand);  wrist W = 16 (right) / 15 (left).
  forward = (W-P).f, lateral = (W-P).h, height = (W-P).u - g,
  g = median over the swing-window frames of min over landmarks 29..32 of (F-P).u.
  t_c = contact time - sound delay; window = frames with t_c - 1.0 <= t <= t_c + 0.5.
  interpolate: per-frame values linearly interpolated to t_c (np.interp over the posed window frames;
  outside the posed frames the end value is held). best-confidence: the posed frame with the highest
  confidence (score, else mean visibility, else 0) within +-5 posed frames of the nearest one; ties go to
  the nearer frame, then the earlier.
  speed = |(W-P)[i+3] - (W-P)[i-3]| / (t[i+3] - t[i-3]) (world axes, indices clamped to the posed frames,
  i = nearest posed frame to t_c, earlier on a tie; the chosen frame in best-confidence mode), cm/s.
  A contact before the first / after the last frame, or with no posed frame in its window: "noPerson".
  Stroke (issues #27, #39): "serve" when the wrist is >= 0.4 trunk lengths above the mean of the shoulders
  (11, 12) along u at t_c (interpolated like the wrist), the trunk being |mid-shoulder - pelvis| with its
  median over the window's posed frames, unless the window has posed frames with t_c < t <= t_c + 0.25 and in
  none of them is the wrist at or below the shoulders' mean height (it stayed overhead: a follow-through, not a
  serve); else "forehand" when hands(t_c) + mean side over the posed window frames with t_c - 0.6 <= t <=
  t_c - 0.15 (0 when none) is >= 0, else "backhand". side is the wrist's offset across the picture when the
  camera is behind or in front of the player: v = median over all posed frames of nose(0).z - mean(ears 7, 8).z;
  v >= 0.03 m (facing away, camera behind): side = (W-P).x (x -> -x for the left hand); v <= -0.03 (facing the
  camera): side = -(W-P).x (likewise); else side = lateral. hands is the same of (2 W + the other wrist) / 3
  (both wrists, the dominant one counted twice), interpolated to t_c like the wrist (the chosen frame's in
  best-confidence mode).
  Swing check (issue #27): peak = max over posed frames j with |t_j - t_c| <= 0.25 s of
  |mean rel(B) - mean rel(A)| / (mean t(B) - mean t(A)) * 100, A / B = the posed frames within 0.04 s of
  t_j - 0.1 / t_j + 0.1, rel = W - P in world axes (j skipped when A or B is empty); reported on ok shots as
  "peakWristSpeedCmS". An ok contact with a peak below 140 cm/s (and not "confirmed") is no shot: it goes
  to "rejectedContacts" [{"time", "peakWristSpeedCmS", "kind": "noSwing"}]. One swing, one hit: of the ok,
  unconfirmed shots left, any closer than 0.6 s to a more confident one (ties: the higher wristSpeedCmS, then the
  earlier) goes there too as "tooSoon"; the shots are numbered after both.
  Late < 20 cm, early > 60 cm, else optimal (serves: late < 0 cm, early > 60 cm), each limit times T / 0.5 m
  (the limits are stated for a 50-cm trunk and scale with the body's, issue #39). Stats over ok shots:
  mean, population SD (ddof 0), consistency = 100 exp(-0.5 (sdF^2 + sdL^2 + sdH^2)), SDs in decimetres;
  the same per stroke type present under "byStroke".

Usage:
  reference_measure.py --track T.json --contacts C.json [--hand right|left] [--sound-delay-ms MS]
                       [--contact-frame interpolate|best-confidence]      -> {"shots": [...], "stats": {...}}
  reference_measure.py --batch CASES.json  (a list of {"track", "contacts", "hand", "soundDelayMs",
                       "contactFrame"} file-path cases)                   -> a list of reports

Environment: only numpy. The project venv (`./scripts/setup.sh` -> .deps/venv) has it; on a fresh
machine: `python3 -m venv /tmp/refvenv && /tmp/refvenv/bin/pip install numpy==2.4.6` (tested with 2.4.6;
any numpy >= 1.24 works).
"""
import argparse
import json
import sys

import numpy as np

LATE_BELOW_CM = 20.0
EARLY_ABOVE_CM = 60.0
WINDOW_BEFORE = 1.0
WINDOW_AFTER = 0.5
SPEED_HALF_SPAN = 3
BEST_SEARCH = 5
SERVE_ABOVE_SHOULDER_TRUNKS = 0.4
SERVE_FALL_WITHIN = 0.25   # s: a wrist still overhead throughout this after t_c is a follow-through
VIEW_NOSE_DEPTH = 0.03     # m: the nose behind (ahead of) the ears by this much says the camera is behind (in front)
BACKSWING = (0.6, 0.15)
SERVE_LATE_BELOW_CM, SERVE_EARLY_ABOVE_CM = 0.0, 60.0
THRESHOLD_TRUNK_CM = 50.0  # the limits above are for this trunk; they scale with the body's
SWING_MIN_CM_S, SWING_WINDOW, SWING_SPAN, SWING_AVERAGING = 140.0, 0.25, 0.1, 0.04
MIN_HIT_INTERVAL_S = 0.6  # one swing, one hit (BiomechParameters.minHitIntervalS)


def peak_swing_speed(tp, rel, tc):
    best = None
    for j in np.where(np.abs(tp - tc) <= SWING_WINDOW)[0]:
        a = np.abs(tp - (tp[j] - SWING_SPAN)) <= SWING_AVERAGING
        b = np.abs(tp - (tp[j] + SWING_SPAN)) <= SWING_AVERAGING
        if not a.any() or not b.any():
            continue
        ta, tb = tp[a].mean(), tp[b].mean()
        if tb <= ta:
            continue
        v = float(np.linalg.norm(rel[b].mean(axis=0) - rel[a].mean(axis=0)) / (tb - ta) * 100)
        best = v if best is None else max(best, v)
    return best


def load_track(path):
    with open(path) as fh:
        doc = json.load(fh)
    times, worlds, confs, posed = [], [], [], []
    for fr in doc["frames"]:
        wl = fr.get("worldLandmarks") or []
        times.append(float(fr["time"]))
        if len(wl) == 33:
            worlds.append([[p["x"], p["y"], p["z"]] for p in wl])
            posed.append(True)
        else:
            worlds.append([[0.0, 0.0, 0.0]] * 33)
            posed.append(False)
        lm = fr.get("landmarks") or []
        if fr.get("score") is not None:
            confs.append(float(fr["score"]))
        elif lm and all("visibility" in p for p in lm):
            confs.append(float(np.mean([p["visibility"] for p in lm])))
        else:
            confs.append(0.0)
    order = np.argsort(np.asarray(times), kind="stable")
    return (np.asarray(times)[order], np.asarray(worlds, dtype=float)[order],
            np.asarray(confs)[order], np.asarray(posed)[order])


def per_frame(world, hand):
    up = np.array([0.0, -1.0, 0.0])
    pelvis = 0.5 * (world[:, 23] + world[:, 24])
    across = world[:, 24] - world[:, 23]
    right = across - np.outer(across @ up, up)
    norm = np.linalg.norm(right, axis=1)
    ok = norm > 1e-12
    right = right / np.where(ok, norm, 1.0)[:, None]
    fwd_axis = np.cross(np.broadcast_to(up, right.shape), right)
    hit = right if hand == "right" else -right
    wrist = world[:, 16 if hand == "right" else 15]
    d = wrist - pelvis
    other = world[:, 15 if hand == "right" else 16]
    hands = (2.0 * wrist + other) / 3.0 - pelvis
    feet_up = (world[:, 29:33] - pelvis[:, None, :]) @ up
    shoulders_up = 0.5 * ((world[:, 11] - pelvis) @ up + (world[:, 12] - pelvis) @ up)
    trunk = np.linalg.norm(0.5 * (world[:, 11] + world[:, 12]) - pelvis, axis=1)
    return {
        "across": d[:, 0] * (1.0 if hand == "right" else -1.0),
        "hands_across": hands[:, 0] * (1.0 if hand == "right" else -1.0),
        "hands_lateral": np.einsum("ij,ij->i", hands, hit),
        "nose_behind": world[:, 0, 2] - 0.5 * (world[:, 7, 2] + world[:, 8, 2]),
        "shoulders": shoulders_up,
        "trunk": trunk,
        "ok": ok,
        "forward": np.einsum("ij,ij->i", d, fwd_axis),
        "lateral": np.einsum("ij,ij->i", d, hit),
        "up": d @ up,
        "foot": feet_up.min(axis=1),
        "rel": d,
    }


def measure(track_path, contacts_path, hand="right", delay_ms=0.0, mode="interpolate"):
    times, world, confs, posed = load_track(track_path)
    with open(contacts_path) as fh:
        contacts = json.load(fh)["contacts"]
    m = per_frame(world, hand)
    keep = posed & m["ok"]
    tp = times[keep]
    fwd, lat, up, foot, rel, conf, sh = (m["forward"][keep], m["lateral"][keep], m["up"][keep],
                                         m["foot"][keep], m["rel"][keep], confs[keep], m["shoulders"][keep])
    v = float(np.median(m["nose_behind"][keep])) if keep.any() else 0.0
    side_all = m["across"][keep] if v >= VIEW_NOSE_DEPTH else (-m["across"][keep] if v <= -VIEW_NOSE_DEPTH else lat)
    hands_all = (m["hands_across"][keep] if v >= VIEW_NOSE_DEPTH
                 else (-m["hands_across"][keep] if v <= -VIEW_NOSE_DEPTH else m["hands_lateral"][keep]))
    ctimes = np.asarray([float(c["time"]) for c in contacts])
    shots, rejected = [], []
    for k in np.argsort(ctimes, kind="stable"):
        c = contacts[k]
        t = float(c["time"])
        tc = t - delay_ms / 1000.0
        shot = {"index": len(shots) + 1, "time": t, "contactTime": tc, "confidence": c.get("confidence", 1.0),
                "status": "noPerson", "confirmed": bool(c.get("confirmed", False))}
        shots.append(shot)
        if len(times) == 0 or tc < times[0] or tc > times[-1]:
            continue
        win = (tp >= tc - WINDOW_BEFORE) & (tp <= tc + WINDOW_AFTER)
        if not win.any():
            continue
        g = float(np.median(foot[win]))
        i = int(np.argmin(np.abs(tp - tc)))
        if mode == "interpolate":
            F = float(np.interp(tc, tp[win], fwd[win]))
            L = float(np.interp(tc, tp[win], lat[win]))
            U = float(np.interp(tc, tp[win], up[win]))
            S = float(np.interp(tc, tp[win], sh[win]))
            SIDE = float(np.interp(tc, tp[win], hands_all[win]))
            centre = i
        else:
            cands = range(max(i - BEST_SEARCH, 0), min(i + BEST_SEARCH, len(tp) - 1) + 1)
            centre = sorted(cands, key=lambda j: (-conf[j], abs(tp[j] - tc), j))[0]
            F, L, U, S = float(fwd[centre]), float(lat[centre]), float(up[centre]), float(sh[centre])
            SIDE = float(hands_all[centre])
        a, b = max(centre - SPEED_HALF_SPAN, 0), min(centre + SPEED_HALF_SPAN, len(tp) - 1)
        speed = float(np.linalg.norm(rel[b] - rel[a]) / (tp[b] - tp[a]) * 100) if b > a else None
        fcm = F * 100
        T = float(np.median(m["trunk"][keep][win]))
        after = win & (tp > tc) & (tp <= tc + SERVE_FALL_WITHIN)
        stays_up = after.any() and not bool(np.any(up[after] <= sh[after]))
        if T > 0 and U - S >= SERVE_ABOVE_SHOULDER_TRUNKS * T and not stays_up:
            stroke = "serve"
        else:
            back = win & (tp >= tc - BACKSWING[0]) & (tp <= tc - BACKSWING[1])
            stroke = "forehand" if SIDE + (float(side_all[back].mean()) if back.any() else 0.0) >= 0 else "backhand"
        late, early = (SERVE_LATE_BELOW_CM, SERVE_EARLY_ABOVE_CM) if stroke == "serve" else (LATE_BELOW_CM, EARLY_ABOVE_CM)
        if T > 0:
            late, early = late * T * 100 / THRESHOLD_TRUNK_CM, early * T * 100 / THRESHOLD_TRUNK_CM
        cls = "late" if fcm < late else ("early" if fcm > early else "optimal")
        shot.update({"status": "ok", "contact": {"forwardCm": fcm, "lateralCm": L * 100, "heightCm": (U - g) * 100},
                     "wristSpeedCmS": speed, "classification": cls, "groundCm": g * 100, "stroke": stroke})
        peak = peak_swing_speed(tp, rel, tc)
        shot["peakWristSpeedCmS"] = peak
        if peak is not None and peak < SWING_MIN_CM_S and not shot["confirmed"]:
            shots.pop()
            rejected.append({"time": t, "peakWristSpeedCmS": peak, "kind": "noSwing"})
    shots, too_soon = one_swing_one_hit(shots)
    rejected = sorted(rejected + too_soon, key=lambda r: r["time"])
    for n, shot in enumerate(shots):
        shot["index"] = n + 1
        del shot["confirmed"]
    ok = [s for s in shots if s["status"] == "ok"]
    stats = statistics(ok)
    by = {k: statistics([s for s in ok if s["stroke"] == k]) for k in ("forehand", "backhand", "serve")
          if any(s["stroke"] == k for s in ok)}
    if by:
        stats["byStroke"] = by
    return {"shots": shots, "rejectedContacts": rejected, "stats": stats}


def one_swing_one_hit(shots):
    """Of ok, unconfirmed shots closer than MIN_HIT_INTERVAL_S, the most confident stays (ties: the faster wrist,
    then the earlier); the others go to rejectedContacts as "tooSoon". Confirmed and no-person shots stay."""
    open_ = [s for s in shots if s["status"] == "ok" and not s["confirmed"]]
    order = sorted(open_, key=lambda s: (-s["confidence"], -(s["wristSpeedCmS"] or 0.0), s["time"]))
    kept, dropped = [], []
    for s in order:
        (dropped if any(abs(k["time"] - s["time"]) < MIN_HIT_INTERVAL_S for k in kept) else kept).append(s)
    gone = {id(s) for s in dropped}
    return ([s for s in shots if id(s) not in gone],
            [{"time": s["time"], "peakWristSpeedCmS": s["peakWristSpeedCmS"], "kind": "tooSoon"} for s in dropped])


def statistics(ok):
    stats = {"shotCount": len(ok)}
    if ok:
        sds = []
        for axis, key in (("forward", "forwardCm"), ("lateral", "lateralCm"), ("height", "heightCm")):
            v = np.asarray([s["contact"][key] for s in ok])
            stats[axis] = {"meanCm": float(v.mean()), "sdCm": float(v.std())}
            sds.append(float(v.std()) / 10.0)
        stats["consistency"] = float(100 * np.exp(-0.5 * sum(s * s for s in sds)))
        sp = np.asarray([s["wristSpeedCmS"] for s in ok if s["wristSpeedCmS"] is not None])
        if len(sp):
            stats["wristSpeed"] = {"minCmS": float(sp.min()), "maxCmS": float(sp.max()), "meanCmS": float(sp.mean())}
    return stats


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--track")
    ap.add_argument("--contacts")
    ap.add_argument("--hand", default="right", choices=["right", "left"])
    ap.add_argument("--sound-delay-ms", type=float, default=0.0)
    ap.add_argument("--contact-frame", default="interpolate", choices=["interpolate", "best-confidence"])
    ap.add_argument("--batch")
    args = ap.parse_args()
    if args.batch:
        with open(args.batch) as fh:
            cases = json.load(fh)
        out = [measure(c["track"], c["contacts"], c.get("hand", "right"), c.get("soundDelayMs", 0.0),
                       c.get("contactFrame", "interpolate")) for c in cases]
    elif args.track and args.contacts:
        out = measure(args.track, args.contacts, args.hand, args.sound_delay_ms, args.contact_frame)
    else:
        ap.error("give --track and --contacts, or --batch")
    json.dump(out, sys.stdout, indent=1)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
