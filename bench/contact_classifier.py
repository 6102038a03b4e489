#!/usr/bin/env python3
"""Could a learned detector survive the phone chains? (issue #26; bench only, nothing ships from here)

The hand-built detector loses hits through fast compressors, limiters and AGC (docs/contacts.md, "Phone
recordings"). This bench asks whether a classifier over gain-invariant features would keep them, and whether
it would on sounds it was not trained on, which is what users bring:

  candidates  the sound events of tools/reference_events.py (as `swingmaster learn-contacts` finds them);
              a candidate is a hit when a true onset lies within ±50 ms. The share of hits with a candidate
              is printed: what no later stage can recover.
  features    the events' 35 gain-invariant features (the same file says which).
  classifiers gradient-boosted trees (scikit-learn HistGradientBoostingClassifier) and logistic regression;
              a track's contacts are its candidates above a threshold, highest score first, none within
              300 ms of a kept one (as MinimumGapSuppression); the threshold is the one with the best F1
              on the training tracks.
  protocols   "heard before": trained on seed-1 tracks of all three corpora, scored on their seed-2
              tracks (other hits' placement, levels, crowd and wind; the same recorded hit sounds).
              "new sounds": trained on two corpora's seed-1 tracks, scored on the third corpus's seed-2
              tracks, for each corpus (Free Tennis, Tennix, the synthetic generator).
              "own session" (trees only): each track and chain scored by a model trained on that track's
              seed-1 recording through the same chain alone, as a player's confirmed contacts of one
              session would train one for their racket and phone.
              "self-trained": no truth; each recording's candidates labelled by its own `swingmaster
              contacts` output and a model fitted to that recording alone (trees, logistic regression).
  reference   `swingmaster contacts` on the same seed-2 files, scored the same way.

    contact_classifier.py SEED1_DIR SEED2_DIR     (each made by bench/lib.sh phone_tracks: TRACK.wav,
                                                   TRACK.json, TRACK.chains/CHAIN.wav and, in SEED2_DIR,
                                                   TRACK.chains/CHAIN.wav.default.json from swingmaster)
Needs numpy, scipy and scikit-learn (the bench venv: `make bench-setup`).
"""
import glob
import json
import os
import sys
from multiprocessing import Pool

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tools"))
import reference_contacts as R  # noqa: E402  (the WAV reader)
import reference_events as E  # noqa: E402  (the events and features, as Sources/SwingAudio/SoundEvents.swift)
from contact_model import f1, table  # noqa: E402  (the tables, as bench/contact_model.sh prints them)

TOLERANCE_S, GAP_S = 0.050, 0.300
CORPORA = ("freetennis", "tennix", "synthetic")


def candidates_and_features(path):
    fs, x = R.read_wav(path)
    return E.events(x, fs)


def load(job):
    directory, track, chain = job
    times, F = candidates_and_features(os.path.join(directory, f"{track}.chains", f"{chain}.wav"))
    truth = np.array(json.load(open(os.path.join(directory, f"{track}.json")))["contacts"])
    labels = (np.min(np.abs(times[:, None] - truth[None, :]), axis=1) <= TOLERANCE_S).astype(int) if len(times) else np.zeros(0, int)
    covered = sum(bool(np.any(np.abs(times - t) <= TOLERANCE_S)) for t in truth)
    reference = None
    ref_path = os.path.join(directory, f"{track}.chains", f"{chain}.wav.default.json")
    if os.path.exists(ref_path):
        reference = [c["time"] for c in json.load(open(ref_path))["contacts"]]
    return dict(track=track, chain=chain, times=times, F=F, labels=labels, truth=truth, covered=covered,
                reference=reference)


def score(detected, truth):
    detected, used, tp = sorted(detected), set(), 0
    for t in truth:
        best = min((i for i, d in enumerate(detected) if i not in used and abs(d - t) <= TOLERANCE_S),
                   key=lambda i: abs(detected[i] - t), default=None)
        if best is not None:
            used.add(best)
            tp += 1
    return np.array([tp, len(detected) - tp, len(truth) - tp])


def contacts(times, scores, threshold):
    kept = []
    for i in np.argsort(-scores):
        if scores[i] < threshold:
            break
        if all(abs(times[i] - times[k]) >= GAP_S for k in kept):
            kept.append(i)
    return times[kept]


def fit(kind, F, y):
    from sklearn.ensemble import HistGradientBoostingClassifier
    from sklearn.linear_model import LogisticRegression
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler
    if kind == "trees":
        model = HistGradientBoostingClassifier(max_iter=300, learning_rate=0.05, l2_regularization=1.0,
                                               class_weight="balanced", random_state=0)
    else:
        model = make_pipeline(StandardScaler(), LogisticRegression(C=0.1, max_iter=3000, class_weight="balanced"))
    return model.fit(F, y)


def run(kind, train, test, threshold=None):
    model = fit(kind, np.vstack([s["F"] for s in train]), np.concatenate([s["labels"] for s in train]))
    for s in train + test:
        s["score"] = model.predict_proba(s["F"])[:, 1] if len(s["F"]) else np.zeros(0)
    if threshold is None:
        threshold = max(np.linspace(0.30, 0.98, 35),
                        key=lambda th: f1(sum(score(contacts(s["times"], s["score"], th), s["truth"]) for s in train)))
    return {(s["track"], s["chain"]): score(contacts(s["times"], s["score"], threshold), s["truth"]) for s in test}, threshold


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: contact_classifier.py SEED1_DIR SEED2_DIR (both made by bench/lib.sh phone_tracks)")
    seed1, seed2 = sys.argv[1], sys.argv[2]
    tracks = sorted(os.path.basename(p)[:-5] for p in glob.glob(os.path.join(seed2, "*.json")))
    missing = [t for t in tracks if not os.path.isdir(os.path.join(seed1, t + ".chains"))]
    if not tracks or missing:
        sys.exit(f"contact_classifier: {seed2 if not tracks else seed1} holds no tracks made by phone_tracks"
                 + (f" (missing {', '.join(missing)})" if missing else ""))
    chains = sorted(os.path.basename(p)[:-4] for p in glob.glob(os.path.join(seed2, tracks[0] + ".chains", "*.wav")))
    order = ["clean", "aac-64k", "aac-128k-48k", "aac-256k", "opus-64k", "opus-256k", "comp-2-20", "comp-6-5",
             "comp-10-1", "agc", "limiter", "clip", "phone-aac", "phone-opus", "phone-worst"]
    chains = [c for c in order if c in chains] + [c for c in chains if c not in order]
    with Pool(os.cpu_count() or 1) as pool:
        first = pool.map(load, [(seed1, t, c) for t in tracks for c in chains])
        second = pool.map(load, [(seed2, t, c) for t in tracks for c in chains])
    hits = sum(len(s["truth"]) for s in second)
    print(f"{len(tracks)} tracks × {len(chains)} chains; seed 2: {hits} hits, "
          f"{sum(len(s['times']) for s in second)} candidates, {sum(s['covered'] for s in second) / hits:.3f} of the hits "
          f"with a candidate within ±50 ms (worst {min((s['covered'] / max(1, len(s['truth'])), s['track'], s['chain']) for s in second)})")
    print()
    if all(s["reference"] is not None for s in second):
        table("swingmaster contacts (the hand-built detector), seed 2, F1 at ±50 ms",
              {(s["track"], s["chain"]): score(s["reference"], s["truth"]) for s in second}, tracks, chains)
    corpus = lambda s: s["track"].split("-")[0]
    for kind in ("trees", "logistic"):
        results, threshold = run(kind, first, second)
        table(f"{kind}, heard before (trained on seed 1 of every corpus, threshold {threshold:.2f}), seed 2", results, tracks, chains)
        results, thresholds = {}, []
        for held in CORPORA:
            r, th = run(kind, [s for s in first if corpus(s) != held], [s for s in second if corpus(s) == held])
            results.update(r)
            thresholds.append(f"{held} {th:.2f}")
        table(f"{kind}, new sounds (each corpus scored by a model trained on the other two; thresholds "
              f"{', '.join(thresholds)}), seed 2", results, tracks, chains)
    # One player's own session: each track through each chain is scored by a model trained on that track's
    # seed-1 recording through the same chain only (about 45 hits, as one session's confirmed contacts
    # would be). A model fitted to one recording scores it perfectly at any threshold, so none is chosen
    # on it: 0.5, the balanced classes' boundary.
    results = {}
    for s2 in second:
        s1 = next(s for s in first if s["track"] == s2["track"] and s["chain"] == s2["chain"])
        results.update(run("trees", [s1], [s2], threshold=0.5)[0])
    table("trees, own session (trained on the same track and chain's seed-1 recording alone, threshold 0.50), seed 2",
          results, tracks, chains)
    # Self-trained: no truth at all. Each seed-2 recording's own contacts from `swingmaster contacts` label
    # its candidates (within 30 ms of a contact: a hit; farther than 300 ms from every contact: not), a
    # model is fitted to that recording alone and then scores all its candidates (threshold 0.5).
    if all(s["reference"] is not None for s in second):
        for kind in ("trees", "logistic"):
            results = {}
            for s2 in second:
                near = np.array([min((abs(t - c) for c in s2["reference"]), default=9.0) for t in s2["times"]])
                use = (near <= 0.030) | (near > GAP_S)
                labels = (near <= 0.030).astype(int)
                if labels[use].sum() < 5 or (1 - labels[use]).sum() < 5:
                    results[s2["track"], s2["chain"]] = score(s2["reference"], s2["truth"])
                    continue
                pseudo = dict(s2, F=s2["F"][use], labels=labels[use], times=s2["times"][use])
                model = fit(kind, pseudo["F"], pseudo["labels"])
                scores = model.predict_proba(s2["F"])[:, 1]
                results[s2["track"], s2["chain"]] = score(contacts(s2["times"], scores, 0.5), s2["truth"])
            table(f"{kind}, self-trained on each recording's own `swingmaster contacts` (no truth; threshold 0.50), seed 2",
                  results, tracks, chains)


if __name__ == "__main__":
    main()
