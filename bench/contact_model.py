#!/usr/bin/env python3
"""Scores bench/contact_model.sh's run: per track and chain, F1 at ±50 ms on the seed-2 recording of
  - the hand-built detector (`swingmaster contacts`),
  - `swingmaster learn-contacts` → `contacts --contact-model`, the model learnt from the seed-1 recording through
    the same chain with its true contacts,
  - scikit-learn's HistGradientBoostingClassifier (300 trees at 0.05, class_weight="balanced", L2 1)
    learning from the same seed-1 sound events (tools/reference_events.py) with the same threshold rule
    (best F1 on the training recording; the middle of a tie) and the same 300-ms gap,
and the wall time of learning and finding against the hand-built detector's.

    contact_model.py SEED1_DIR SEED2_DIR
Needs numpy, scipy and scikit-learn (the bench venv: `make bench-setup`).
"""
import glob
import json
import os
import sys
from multiprocessing import Pool

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tools"))
import reference_contacts as R  # noqa: E402
import reference_events as E  # noqa: E402

TOLERANCE_S, GAP_S = 0.050, 0.300
THRESHOLDS = 0.30 + 0.02 * np.arange(35)
ORDER = ["clean", "aac-64k", "aac-128k-48k", "aac-256k", "opus-64k", "opus-256k", "comp-2-20", "comp-6-5",
         "comp-10-1", "agc", "limiter", "clip", "phone-aac", "phone-opus", "phone-worst"]


def score(detected, truth):
    pairs = sorted((abs(d - t), i, j) for i, d in enumerate(detected) for j, t in enumerate(truth) if abs(d - t) <= TOLERANCE_S)
    used_d, used_t = set(), set()
    for _, i, j in pairs:
        if i not in used_d and j not in used_t:
            used_d.add(i)
            used_t.add(j)
    tp = len(used_d)
    return np.array([tp, len(detected) - tp, len(truth) - tp])


def f1(s):
    return 2 * s[0] / (2 * s[0] + s[1] + s[2]) if s.sum() else 1.0


def pick(times, scores, threshold):
    model = dict(threshold=threshold, minGapMs=GAP_S * 1000)
    return [times[i] for i in E.contacts(model, times, scores)]


def sklearn_cell(job):
    """scikit-learn learning from seed 1's events of one track and chain, scored on seed 2's."""
    from sklearn.ensemble import HistGradientBoostingClassifier
    seed1, seed2, track, chain = job
    truth1 = json.load(open(os.path.join(seed1, track + ".json")))["contacts"]
    truth2 = json.load(open(os.path.join(seed2, track + ".json")))["contacts"]
    fs1, x1 = R.read_wav(os.path.join(seed1, track + ".chains", chain + ".wav"))
    fs2, x2 = R.read_wav(os.path.join(seed2, track + ".chains", chain + ".wav"))
    t1, F1 = E.events(x1, fs1)
    t2, F2 = E.events(x2, fs2)
    y = np.array([any(abs(t - c) <= TOLERANCE_S for c in truth1) for t in t1], dtype=int)
    if y.sum() < 10 or y.sum() == len(y):  # as learn-contacts, which refuses fewer than 10 heard hits
        return track, chain, None
    model = HistGradientBoostingClassifier(max_iter=300, learning_rate=0.05, l2_regularization=1.0,
                                           class_weight="balanced", random_state=0).fit(F1.astype(np.float32), y)
    s1 = model.predict_proba(F1.astype(np.float32))[:, 1]
    f1s = [f1(score(pick(t1, s1, th), truth1)) for th in THRESHOLDS]
    tied = [th for th, v in zip(THRESHOLDS, f1s) if v >= max(f1s) - 1e-9]
    threshold = tied[len(tied) // 2]
    s2 = model.predict_proba(F2.astype(np.float32))[:, 1] if len(F2) else np.zeros(0)
    return track, chain, score(pick(t2, s2, threshold), truth2)


def table(title, results, tracks, chains):
    print(title)
    print(f"{'track':24s}" + "".join(f"{c.replace('phone-', 'ph-')[:9]:>10s}" for c in chains))
    for t in tracks:
        print(f"{t:24s}" + "".join(f"{f1(results[t, c]):10.3f}" for c in chains))
    print(f"{'pooled':24s}" + "".join(f"{f1(sum(results[t, c] for t in tracks)):10.3f}" for c in chains))
    total = sum(results.values())
    below = sum(1 for v in results.values() if f1(v) < 0.90)
    print(f"every track and chain: F1 {f1(total):.3f} ({total[0]} found, {total[1]} false, {total[2]} missed); "
          f"{below} of {len(results)} cells below 0.90")
    print()


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: contact_model.py SEED1_DIR SEED2_DIR (made by bench/contact_model.sh)")
    seed1, seed2 = sys.argv[1], sys.argv[2]
    tracks = sorted(os.path.basename(p)[:-5] for p in glob.glob(os.path.join(seed2, "*.json")))
    if not tracks:
        sys.exit(f"contact_model: {seed2} holds no tracks made by phone_tracks")
    found = sorted(os.path.basename(p)[:-4] for p in glob.glob(os.path.join(seed2, tracks[0] + ".chains", "*.wav")))
    chains = [c for c in ORDER if c in found] + [c for c in found if c not in ORDER]
    ours, default, seconds, refused = {}, {}, dict(learn=0.0, model=0.0, default=0.0, audio=0.0), []
    for t in tracks:
        truth = json.load(open(os.path.join(seed2, t + ".json")))["contacts"]
        for c in chains:
            base = os.path.join(seed2, t + ".chains", c + ".wav")
            for name, into in (("model", ours), ("default", default)):
                try:
                    into[t, c] = score([x["time"] for x in json.load(open(f"{base}.{name}.json"))["contacts"]], truth)
                except (OSError, ValueError, KeyError):
                    into[t, c] = score([], truth)  # learning or finding failed: every hit missed
                seconds[name] += float(open(f"{base}.{name}.time").read())
            learnt = os.path.join(seed1, t + ".chains", c + ".wav")
            seconds["learn"] += float(open(learnt + ".learn.time").read())
            if not os.path.exists(learnt + ".model.json"):
                refused.append(f"{t} {c}: {open(learnt + '.learn.log').read().strip().splitlines()[-1:]}")
            fs, x = R.read_wav(base)
            seconds["audio"] += len(x) / fs
    with Pool(os.cpu_count() or 1) as pool:
        peer = {(t, c): s for t, c, s in pool.map(sklearn_cell, [(seed1, seed2, t, c) for t in tracks for c in chains])}
    for k, v in peer.items():
        if v is None:
            peer[k] = score([], json.load(open(os.path.join(seed2, k[0] + ".json")))["contacts"])
    print(f"{len(tracks)} tracks × {len(chains)} chains, seed 2: {sum(len(json.load(open(os.path.join(seed2, t + '.json')))['contacts']) for t in tracks)} hits per chain")
    print()
    table("swingmaster contacts (the hand-built detector), seed 2, F1 at ±50 ms", default, tracks, chains)
    table("swingmaster learn-contacts (seed 1, same track and chain) → contacts --contact-model, seed 2", ours, tracks, chains)
    table("scikit-learn HistGradientBoosting on the same events and rule, seed 2", peer, tracks, chains)
    print(f"learn-contacts refused {len(refused)} of {len(ours)} seed-1 recordings (scored as every hit missed):")
    for line in refused:
        print(f"  {line}")
    o, p, d = sum(ours.values()), sum(peer.values()), sum(default.values())
    print(f"F1 over every track and chain: learn-contacts {f1(o):.3f}, scikit-learn {f1(p):.3f} (ratio {f1(o) / max(f1(p), 1e-9):.3f}), "
          f"hand-built {f1(d):.3f}")
    print(f"wall time, {seconds['audio']:.0f} s of audio per step (one process per file, 2 at a time): "
          f"learn {seconds['learn']:.0f} s, contacts --contact-model {seconds['model']:.0f} s ({seconds['audio'] / seconds['model']:.0f}× real time per process), "
          f"contacts {seconds['default']:.0f} s ({seconds['audio'] / seconds['default']:.0f}× real time; --contact-model costs {seconds['model'] / seconds['default']:.1f}×)")


if __name__ == "__main__":
    main()
