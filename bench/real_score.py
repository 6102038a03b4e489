#!/usr/bin/env python3
"""Scores sessions analysed from the real recordings against our hand-made truth (bench/real/truth/).

Usage: real_score.py TRUTH_DIR OUT_DIR MODE [MODE ...]
  For every truth file T.json, reads OUT_DIR/<T>.<MODE>.json: a session document (`analyze --json`) or,
  for audio-only inputs, a `contacts --json` document. Prints one table per mode and the totals.

Matching (docs/analysis.md, "Real recordings"): a counted shot is a truth hit when its heard time lies
within MATCH_S of the hit's sound onset (soundTime); each hit matches at most one shot, the nearest.
  - player's hits found: truth hits by the player matched by a counted shot (a shot, not a turned-down contact);
  - counted shots that are the player's: matched shots whose hit is the player's / all counted shots (a
    session's measured shots; audio only: the heard contacts within 12 dB of the loudest, the who-hit cue);
  - instant error: the shot's contactTime − the truth's ball-on-strings frame time, ms (|err| <= 40 ms counts);
  - stroke right: the shot's stroke equals the truth's (a volley counts as a forehand or backhand; an overhead as a serve);
  - on the hitter: for each found hit with a `hitterBox` (display pixels, the hitter at the ball-on-strings frame),
    whether the person the shot was measured on is the hitter: the midpoint of the hips (landmarks 23 and 24) in
    the posed frame nearest the shot's contactTime (OUT_DIR/<T>.<MODE>.track.json, `analyze --save-track`) lies
    inside the box.
Standard library only.
"""
import json
import math
import os
import sys

MATCH_S = 0.08


def load(path):
    with open(path) as f:
        return json.load(f)


QUIETER_DB = 12.0  # BiomechParameters.opponentQuieterDb


def relative_db(amplitudes):
    """Each amplitude against the 90th percentile (nearest rank), dB — ContactLoudness.relativeDb."""
    valid = sorted(a for a in amplitudes if a > 0)
    if not valid:
        return [None for _ in amplitudes]
    rank = min(len(valid) - 1, max(0, math.ceil(0.9 * len(valid)) - 1))
    return [20 * math.log10(a / valid[rank]) if a > 0 else None for a in amplitudes]


def counted_shots(doc):
    """(heard time, contactTime or None, stroke or None) of every counted shot: a session's measured shots
    (not the no-person ones); for a `contacts --json` document (audio only, nobody to see), the contacts no
    more than QUIETER_DB below the loudest hits — what the who-hit rule keeps by loudness alone."""
    if "session" in doc:
        return [(s["time"], s.get("contactTime"), s.get("stroke")) for s in doc["session"]["shots"] if s["status"] == "ok"]
    contacts = doc.get("contacts", [])
    loud = relative_db([c.get("amplitude", 0) for c in contacts])
    return [(c["time"], None, None) for c, db in zip(contacts, loud) if db is None or db > -QUIETER_DB]


# What no body does at a contact (issue #39): the wrist under the ground or above 3 m, further than an arm and a
# racket reach from the pelvis, or faster than 50 m/s.
def impossible(shot):
    c = shot.get("contact") or {}
    why = []
    h = c.get("heightCm")
    if h is not None and not 0 <= h <= 300:
        why.append(f"height {h:.0f} cm")
    for key in ("forwardCm", "lateralCm"):
        v = c.get(key)
        if v is not None and abs(v) > 200:
            why.append(f"{key[:-2]} {v:.0f} cm")
    v = shot.get("wristSpeedCmS")
    if v is not None and v > 5000:
        why.append(f"speed {v:.0f} cm/s")
    return why


def impossible_shots(doc):
    """The counted shots whose numbers no body can take, each as a short reason."""
    if "session" not in doc:
        return []
    return [f"{s['time']:.2f} s: {', '.join(w)}" for s in doc["session"]["shots"] if s["status"] == "ok" for w in [impossible(s)] if w]


def stroke_ok(truth, measured):
    if measured is None:
        return None
    if truth == "volley":
        return measured in ("forehand", "backhand")
    if truth == "overhead":
        return measured == "serve"
    return truth == measured


def hips_at(track, t):
    """The hips' midpoint (display pixels) in the posed frame of `track` nearest time t, or None."""
    best = None
    for f in track["frames"]:
        lm = f.get("landmarks") or []
        if len(lm) < 25:
            continue
        if best is None or abs(f["time"] - t) < abs(best["time"] - t):
            best = f
    if best is None:
        return None
    a, b = best["landmarks"][23], best["landmarks"][24]
    return ((a["x"] + b["x"]) / 2, (a["y"] + b["y"]) / 2)


def on_hitter(box, track, t):
    p = hips_at(track, t) if track is not None and t is not None else None
    if p is None:
        return None
    x0, y0, x1, y1 = box
    return x0 <= p[0] <= x1 and y0 <= p[1] <= y1


def score(truth, doc, track=None):
    hits = [h for h in truth["hits"] if h.get("soundTime") is not None]
    shots = counted_shots(doc)
    used = set()
    matched = {}  # hit index -> shot index
    pairs = sorted(((abs(s[0] - h["soundTime"]), i, j) for i, h in enumerate(hits) for j, s in enumerate(shots)
                    if abs(s[0] - h["soundTime"]) <= MATCH_S))
    for _, i, j in pairs:
        if i in matched or j in used:
            continue
        matched[i] = j
        used.add(j)
    player = [i for i, h in enumerate(hits) if h["who"] == "player"]
    found = [i for i in player if i in matched]
    mine = sum(1 for i in found)
    errors, strokes, hitter = [], [], []
    for i in found:
        h, s = hits[i], shots[matched[i]]
        if h.get("hitterBox") is not None:
            hitter.append(on_hitter(h["hitterBox"], track, s[1] if s[1] is not None else s[0]))
        if s[1] is not None and h.get("time") is not None and h.get("frame") is not None:
            errors.append((s[1] - h["time"]) * 1000)
        ok = stroke_ok(h.get("stroke"), s[2])
        if ok is not None:
            strokes.append(ok)
    return {"player": len(player), "found": len(found), "counted": len(shots), "mine": mine,
            "errors": errors, "strokes": strokes, "hitter": hitter}


def fmt_errors(errors):
    if not errors:
        return "–"
    within = sum(1 for e in errors if abs(e) <= 40)
    return f"{within}/{len(errors)} ({', '.join(f'{e:+.0f}' for e in errors)})"


def fmt_hitter(flags):
    """k/n of the found hits with a box measured on the hitter (a shot whose track has no pose near it counts as not)."""
    if not flags:
        return "–"
    return f"{sum(1 for f in flags if f)}/{len(flags)}"


def main():
    if len(sys.argv) < 4:
        sys.exit("usage: real_score.py TRUTH_DIR OUT_DIR MODE [MODE ...]")
    truth_dir, out_dir, modes = sys.argv[1], sys.argv[2], sys.argv[3:]
    names = sorted(f[:-5] for f in os.listdir(truth_dir) if f.endswith(".json"))
    for mode in modes:
        print(f"\n## --sound-delay-ms {mode}\n")
        print("| input | player's hits found | counted shots that are the player's | instant within 40 ms (errors, ms) | stroke right | on the hitter | impossible numbers | sound delay |")
        print("|---|---|---|---|---|---|---|---|")
        total = {"player": 0, "found": 0, "counted": 0, "mine": 0, "errors": [], "strokes": [], "hitter": [], "impossible": 0}
        for name in names:
            out = os.path.join(out_dir, f"{name}.{mode}.json")
            truth = load(os.path.join(truth_dir, name + ".json"))
            if not os.path.exists(out) or os.path.getsize(out) == 0:
                # Refused (the sentence the program printed): the player's hits count as not found.
                err = os.path.join(out_dir, f"{name}.{mode}.err")
                why = open(err).read().strip().splitlines()[-1] if os.path.exists(err) and os.path.getsize(err) else "no output"
                hits = sum(1 for h in truth["hits"] if h["who"] == "player" and h.get("soundTime") is not None)
                total["player"] += hits
                print(f"| {name} | 0/{hits} | 0/0 | – | – | – | – | refused: {why.replace('|', '/')} |")
                continue
            doc = load(out)
            track_path = os.path.join(out_dir, f"{name}.{mode}.track.json")
            track = load(track_path) if os.path.exists(track_path) and os.path.getsize(track_path) else None
            r = score(truth, doc, track)
            for k in ("player", "found", "counted", "mine"):
                total[k] += r[k]
            total["errors"] += r["errors"]
            total["strokes"] += r["strokes"]
            total["hitter"] += r["hitter"]
            delay = doc.get("session", {}).get("soundDelay")
            delay_text = "–" if not delay else f"{delay['ms']:.0f} ms {delay['source']}"
            if "contacts" in doc:
                delay_text = f"audio only: {len(doc['contacts'])} heard, {r['counted']} within {QUIETER_DB:.0f} dB of the loudest"
            bad = impossible_shots(doc)
            total["impossible"] += len(bad)
            print(f"| {name} | {r['found']}/{r['player']} | {r['mine']}/{r['counted']} | {fmt_errors(r['errors'])} | "
                  f"{sum(r['strokes'])}/{len(r['strokes'])} | {fmt_hitter(r['hitter'])} | {'; '.join(bad) if bad else 0} | {delay_text} |")
        e = total["errors"]
        within = sum(1 for x in e if abs(x) <= 40)
        pct = lambda a, b: f"{100 * a / b:.0f} %" if b else "–"
        print(f"| **all** | {total['found']}/{total['player']} ({pct(total['found'], total['player'])}) | "
              f"{total['mine']}/{total['counted']} ({pct(total['mine'], total['counted'])}) | "
              f"{within}/{len(e)} ({pct(within, len(e))}) | {sum(total['strokes'])}/{len(total['strokes'])} "
              f"({pct(sum(total['strokes']), len(total['strokes']))}) | {fmt_hitter(total['hitter'])} | "
              f"{total['impossible']} of {total['counted']} | |")


if __name__ == "__main__":
    main()
