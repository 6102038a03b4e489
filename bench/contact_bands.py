#!/usr/bin/env python3
"""Where a hit still stands out after a phone's processing: per-band contrast of the true hits (issue #26).

For each octave band from 125 Hz to 16 kHz: the energy in [onset − 2, +30] ms over the energy in
[−120, −20] ms (the detector's event and background windows, docs/contacts.md), in dB, at every true hit
(median and 10th percentile) and at 2,000 random moments at least 0.3 s from any hit (90th and 99th
percentile: what the crowd, wind and the rest do on their own). A band where the hits' contrast is far
above the random moments' is one a detector can use.

    .deps/venv/bin/python bench/contact_bands.py TRACK.wav TRUTH.json
TRACK is any mix of tools/make_recorded_tracks.py or the synthetic generator, clean or through
tools/phone_chain.py (the chains keep the truth times); TRUTH is its truth JSON (`contacts` in seconds).
"""
import json
import sys

import numpy as np
from scipy.io import wavfile
from scipy.signal import butter, sosfiltfilt

EDGES = [125, 250, 500, 1000, 2000, 4000, 8000, 16000]


def main():
    fs, x = wavfile.read(sys.argv[1])
    x = x.astype(np.float64)
    if x.ndim > 1:
        x = x.mean(axis=1)
    truth = json.load(open(sys.argv[2]))["contacts"]
    bands = [(a, b) for a, b in zip(EDGES, EDGES[1:]) if b < fs / 2]
    ys = [sosfiltfilt(butter(4, [a, b], btype="band", fs=fs, output="sos"), x) for a, b in bands]

    def contrast(y, t):
        i = int(t * fs)
        ev = np.mean(y[max(0, i - int(0.002 * fs)):i + int(0.03 * fs)] ** 2)
        bg = np.mean(y[max(0, i - int(0.12 * fs)):max(1, i - int(0.02 * fs))] ** 2)
        return 10 * np.log10(max(ev, 1e-30) / max(bg, 1e-30))

    hits = np.array([[contrast(y, t) for y in ys] for t in truth if t > 0.15])
    rng = np.random.default_rng(0)
    moments = [t for t in rng.uniform(0.2, len(x) / fs - 0.1, 2000) if min(abs(t - u) for u in truth) > 0.3]
    rand = np.array([[contrast(y, t) for y in ys] for t in moments])
    print(f"{sys.argv[1]}: {len(hits)} hits, {len(rand)} random moments; event/background contrast, dB")
    print("band (Hz)        " + " ".join(f"{a}-{b}".rjust(10) for a, b in bands))
    for label, values in [("hits, median", np.median(hits, 0)), ("hits, 10th pct", np.percentile(hits, 10, 0)),
                          ("random, 90th pct", np.percentile(rand, 90, 0)),
                          ("random, 99th pct", np.percentile(rand, 99, 0))]:
        print(f"{label:17s}" + " ".join(f"{v:10.1f}" for v in values))


if __name__ == "__main__":
    main()
