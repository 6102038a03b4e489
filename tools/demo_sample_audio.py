#!/usr/bin/env python3
"""Court sound for the bundled demo clip: ambience, ball bounces and racket impacts at known times.

Usage: demo_sample_audio.py --duration 12 --contacts 2.0,4.6 --seed 2026 --wav OUT.wav --truth OUT.json

Impact model (what the detector is built for): a 2–4 ms broadband click, string-bed modes around
1.6–3 kHz and a ball mode near 1.1 kHz decaying over 10–25 ms. Each hit is preceded ~0.5 s earlier by a
ball bounce (a 120–200 Hz thud with a slow decay), and the court has pink-ish ambience with slow
gusts of low-frequency wind. Deterministic for a seed. Needs numpy and scipy (make setup's venv).
"""
import argparse
import json

import numpy as np
from scipy.io import wavfile
from scipy.signal import butter, sosfilt

SR = 44_100


def impact(rng, gain):
    n = int(0.045 * SR)
    t = np.arange(n) / SR
    click_len = rng.uniform(0.002, 0.004)
    click = rng.normal(0, 1, n) * np.clip(1 - t / click_len, 0, None)
    modes = sum(a * np.exp(-t / tau) * np.sin(2 * np.pi * f * t + rng.uniform(0, 2 * np.pi))
                for f, a, tau in [(rng.uniform(1500, 1900), 0.5, rng.uniform(0.008, 0.015)),
                                  (rng.uniform(2500, 3100), 0.35, rng.uniform(0.006, 0.012)),
                                  (rng.uniform(1000, 1250), 0.4, rng.uniform(0.012, 0.025))])
    return gain * (0.6 * click + modes)


def bounce(rng, gain):
    n = int(0.12 * SR)
    t = np.arange(n) / SR
    f = rng.uniform(120, 200)
    return gain * np.exp(-t / 0.03) * np.sin(2 * np.pi * f * t) * np.clip(t / 0.002, 0, 1)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--duration", type=float, required=True)
    ap.add_argument("--contacts", required=True, help="comma-separated impact times, seconds")
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--wav", required=True)
    ap.add_argument("--truth", required=True)
    a = ap.parse_args()
    rng = np.random.default_rng(a.seed)
    n = int(a.duration * SR)
    pink = sosfilt(butter(1, 800, fs=SR, output="sos"), rng.normal(0, 1, n))
    x = 0.01 * pink / np.std(pink)
    wind = sosfilt(butter(2, 60, fs=SR, output="sos"), rng.normal(0, 1, n))
    gust = 0.5 + 0.5 * np.sin(2 * np.pi * 0.15 * np.arange(n) / SR)
    x += 0.03 * gust * wind / np.std(wind)
    times = [float(v) for v in a.contacts.split(",") if v.strip()]
    for c in times:
        for start, sound in [(c - rng.uniform(0.45, 0.6), bounce(rng, 0.25)), (c, impact(rng, rng.uniform(0.35, 0.5)))]:
            i = int(round(start * SR))
            if i < 0:
                continue
            j = min(n, i + len(sound))
            x[i:j] += sound[: j - i]
    x = np.clip(x, -1, 1)
    wavfile.write(a.wav, SR, (x * 32767).astype(np.int16))
    with open(a.truth, "w") as f:
        json.dump({"sampleRate": SR, "duration": a.duration, "seed": a.seed, "contacts": times}, f, indent=2)
        f.write("\n")


if __name__ == "__main__":
    main()
