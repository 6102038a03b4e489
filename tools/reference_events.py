#!/usr/bin/env python3
"""Python (numpy/scipy) reference of Swingmaster's sound events and contact models (issue #26).

Sources/SwingAudio/SoundEvents.swift finds every sound that could be a hit and describes it by 35
gain-invariant features; Sources/SwingAudio/ContactModel.swift scores them with trees learnt from a
player's confirmed contacts (docs/contacts.md, "Learning the player's own racket"). This file does the
same in numpy, for the agreement tests and for bench/contact_model.sh and bench/contact_classifier.py:

    reference_events.py FILE.wav                     every event: time and features, one JSON line each
    reference_events.py FILE.wav --model MODEL.json  the contacts MODEL finds (the `contacts --json` shape)

  events      every peak above 1.3 × its running median (0.5 s) in three envelopes: 1–4 kHz and 2–8 kHz
              (5 ms, two passes) and 300 Hz–0.45·fs (2 ms, one pass), the largest within ±15 ms, merged
              within 20 ms (the stronger by summed ratio stays), 0.15 s from the start and 0.1 s from the end.
  features    all gain-invariant (ratios in dB, ranks): per octave band 125 Hz–16 kHz the event
              [−12, +20] ms, attack [−6, +2] ms and after [+30, +90] ms over the background
              [−130, −30] ms; the event's spectral shape (band levels over the loudest band); the
              high-passed samples' peak over the background's peak; the broadband event over its
              background; the three envelopes over their floors (ln); the event's rank within its
              recording (broadband contrast, broadband ratio; ties by time).

Environment: the project's .deps/venv (numpy, scipy), as tools/reference_contacts.py.
"""
import argparse
import json
import os
import sys

import numpy as np
from scipy.ndimage import maximum_filter1d
from scipy.signal import butter, sosfiltfilt

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import reference_contacts as R  # noqa: E402  (the detector's envelope, floor and WAV reader)

VERSION = "sound-events-1"
BANDS = [(125, 250), (250, 500), (500, 1000), (1000, 2000), (2000, 4000), (4000, 8000), (8000, 16000)]
WINDOWS_MS = dict(background=(-130, -30), event=(-12, 20), attack=(-6, 2), after=(30, 90))
MIN_RATIO, MERGE_S, NEIGHBOURHOOD_S = 1.3, 0.020, 0.015
FEATURES = 4 * len(BANDS) + 7


def envelope(y, fs, ms, passes):
    return R.envelope(y, dict(R.DEFAULTS, envelopeWindowMs=ms, envelopeSmoothingPasses=passes), fs)


def over_floor(env, fs):
    centres, values = R.noise_floor(env, dict(R.DEFAULTS), fs)
    return env / np.maximum(np.interp(np.arange(len(env)), centres, values), 1e-30)


def band(x, fs, lo, hi, order=4):
    hi = min(hi, 0.45 * fs)
    if hi <= 1.2 * lo:
        return np.zeros_like(x)
    return sosfiltfilt(butter(order, [lo, hi], btype="band", fs=fs, output="sos"), x)


def events(x, fs):
    """(times in s, features: one row of FEATURES per event)."""
    n = len(x)
    if n <= 0.3 * fs:
        return np.zeros(0), np.zeros((0, FEATURES))
    wide = band(x, fs, 300, 0.45 * fs, order=2)
    ratios = [over_floor(envelope(band(x, fs, 1000, 4000), fs, 5, 2), fs),
              over_floor(envelope(band(x, fs, 2000, 8000), fs, 5, 2), fs),
              over_floor(envelope(wide, fs, 2, 1), fs)]
    radius = int(NEIGHBOURHOOD_S * fs)
    picked = np.unique(np.concatenate([np.flatnonzero((r == maximum_filter1d(r, 2 * radius + 1)) & (r > MIN_RATIO))
                                       for r in ratios]))
    strength = sum(ratios)
    merged = []
    for i in picked:
        if merged and i - merged[-1] < MERGE_S * fs:
            if strength[i] > strength[merged[-1]]:
                merged[-1] = i
        else:
            merged.append(i)
    idx = np.array([i for i in merged if 0.15 * fs < i < n - 0.1 * fs], dtype=int)
    if len(idx) == 0:
        return np.zeros(0), np.zeros((0, FEATURES))
    sums = [np.concatenate(([0.0], np.cumsum(band(x, fs, lo, hi) ** 2))) for lo, hi in BANDS]
    wide_sum = np.concatenate(([0.0], np.cumsum(wide ** 2)))

    def mean(c, i, w):
        a, b = i + int(w[0] / 1000 * fs), i + int(w[1] / 1000 * fs)
        return (c[b] - c[a]) / (b - a) + 1e-20

    rows = []
    for i in idx:
        row, levels = [], []
        for c in sums:
            bg = mean(c, i, WINDOWS_MS["background"])
            row += [10 * np.log10(mean(c, i, WINDOWS_MS[w]) / bg) for w in ("event", "attack", "after")]
            levels.append(10 * np.log10(mean(c, i, WINDOWS_MS["event"])))
        row += list(np.array(levels) - max(levels))
        ev = slice(i + int(-0.012 * fs), i + int(0.020 * fs))
        bg = slice(i + int(-0.130 * fs), i + int(-0.030 * fs))
        row.append(20 * np.log10((np.abs(wide[ev]).max() + 1e-12) / (np.abs(wide[bg]).max() + 1e-12)))
        row.append(10 * np.log10(mean(wide_sum, i, WINDOWS_MS["event"]) / mean(wide_sum, i, WINDOWS_MS["background"])))
        row += [np.log(r[i] + 1e-6) for r in ratios]
        rows.append(row)
    F = np.array(rows)
    for col in (4 * len(BANDS) + 1, 4 * len(BANDS) + 4):  # rank within the recording, ties by time
        F = np.column_stack([F, F[:, col].argsort(kind="stable").argsort(kind="stable") / max(1, len(F) - 1)])
    F[~np.isfinite(F)] = 0
    return idx / fs, F


def tree_value(tree, x):
    k = 0
    while tree["feature"][k] >= 0:
        k = tree["left"][k] if x[tree["feature"][k]] <= np.float32(tree["threshold"][k]) else tree["right"][k]
    return tree["value"][k]


def probability(model, F):
    """The model's score of each row (float32 features, as Swift stores them)."""
    F = F.astype(np.float32)
    trees = model["trees"]
    margin = np.array([trees["bias"] + sum(tree_value(t, x) for t in trees["trees"]) for x in F])
    return 1 / (1 + np.exp(-margin))


def contacts(model, times, scores):
    """Events scoring at least the threshold, highest first (ties: earlier), none within minGapMs of a kept one."""
    kept = []
    for i in sorted(range(len(times)), key=lambda i: (-scores[i], times[i])):
        if scores[i] < model["threshold"]:
            break
        if all(abs(times[i] - times[k]) >= model["minGapMs"] / 1000 for k in kept):
            kept.append(i)
    return sorted(kept, key=lambda i: times[i])


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("file")
    ap.add_argument("--model", help="a contact model saved by `swingmaster learn-contacts`")
    a = ap.parse_args(argv)
    fs, x = R.read_wav(a.file)
    times, F = events(x, fs)
    if a.model:
        model = json.load(open(a.model))
        if model.get("features") != VERSION:
            sys.exit(f"{a.model} was learnt from features {model.get('features')}; this reference reads {VERSION}")
        scores = probability(model, F)
        kept = contacts(model, times, scores)
        print(json.dumps({"file": a.file, "duration": len(x) / fs, "sampleRate": int(fs),
                          "contacts": [{"time": float(times[i]), "confidence": float(scores[i])} for i in kept]}))
    else:
        for t, row in zip(times, F):
            print(json.dumps({"time": float(t), "features": [float(v) for v in row]}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
