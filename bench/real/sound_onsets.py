#!/usr/bin/env python3
"""Sound-onset finder used to label bench/real/truth/*.json (stdlib + numpy only).

usage: python3 sound_onsets.py FILE.wav [--min-db 12] [--hp 1000] [--frac 0.2]

Used for bench/real/truth: WAVs made with `ffmpeg -i IN -ac 1 -ar 48000 OUT.wav` (tester.wav as is),
run with --min-db 8; every soundTime in the truth files is an onset printed by this script.

Reads a 16-bit PCM WAV (any rate, channels averaged), then:
  1. high-pass at --hp Hz (two cascaded causal 2nd-order Butterworth sections = 4th order;
     group delay 0.24 ms at 1.5 kHz, 0.12 ms at 2 kHz, < 0.05 ms above 3 kHz: negligible);
  2. energy envelope e(t) = mean of x^2 over a centred 1-ms window;
  3. a transient = local maximum of e in a +-30 ms neighbourhood that stands --min-db above the
     background b (median of e over the 200 ms before the peak);
  4. its onset = the first sample, searching back from the peak, after which e stays above
     b + frac*(peak - b) up to the peak (frac = 0.2: "rises above 20 % of the transient's peak",
     background-corrected).
Prints one line per transient: onset_s  peak_s  peak_dB(re full scale)  rise_dB_over_background.
The WAV's sample 0 is time 0 (ffmpeg -i IN -ac 1 -ar 48000 OUT.wav keeps the file's media-time 0
when the audio stream's start_time is 0, as in every bench/real file).
"""
import sys, wave, math
import numpy as np


def read_wav(path):
    with wave.open(path, "rb") as w:
        n, ch, sw, sr = w.getnframes(), w.getnchannels(), w.getsampwidth(), w.getframerate()
        raw = w.readframes(n)
    if sw != 2:
        raise SystemExit("16-bit PCM WAV only")
    x = np.frombuffer(raw, dtype="<i2").astype(np.float64) / 32768.0
    return x.reshape(-1, ch).mean(axis=1), sr


def biquad_hp(x, sr, fc, q):
    w0 = 2 * math.pi * fc / sr
    alpha = math.sin(w0) / (2 * q)
    cw = math.cos(w0)
    b0, b1, b2 = (1 + cw) / 2, -(1 + cw), (1 + cw) / 2
    a0, a1, a2 = 1 + alpha, -2 * cw, 1 - alpha
    b0, b1, b2, a1, a2 = b0 / a0, b1 / a0, b2 / a0, a1 / a0, a2 / a0
    y = np.zeros_like(x)
    x1 = x2 = y1 = y2 = 0.0
    for i, xi in enumerate(x.tolist()):
        yi = b0 * xi + b1 * x1 + b2 * x2 - a1 * y1 - a2 * y2
        x2, x1, y2, y1 = x1, xi, y1, yi
        y[i] = yi
    return y


def envelope(x, sr, hp=1000.0):
    y = biquad_hp(biquad_hp(x, sr, hp, 0.5412), sr, hp, 1.3066)  # 4th-order Butterworth
    w = max(1, int(round(sr * 0.001)))
    c = np.concatenate(([0.0], np.cumsum(y * y)))
    e = np.empty(len(y))
    h = w // 2
    for_idx = np.arange(len(y))
    lo = np.clip(for_idx - h, 0, len(y))
    hi = np.clip(for_idx - h + w, 0, len(y))
    e[:] = (c[hi] - c[lo]) / np.maximum(hi - lo, 1)
    return e


def onsets(e, sr, min_db=12.0, frac=0.2, nbhd=0.030, bg_win=0.200):
    eps = 1e-12
    n = len(e)
    k = int(nbhd * sr)
    out = []
    # candidate peaks: maxima of e within +-nbhd
    from numpy.lib.stride_tricks import sliding_window_view
    pad = np.concatenate((np.full(k, -1.0), e, np.full(k, -1.0)))
    mx = sliding_window_view(pad, 2 * k + 1).max(axis=1)
    cand = np.nonzero((e >= mx) & (e > 0))[0]
    last = -10 ** 9
    for p in cand:
        if p - last < k:
            continue
        b0 = max(0, p - int(bg_win * sr))
        seg = e[b0:max(b0 + 1, p - int(0.005 * sr))]
        bg = float(np.median(seg)) if len(seg) else 0.0
        rise = 10 * math.log10((e[p] + eps) / (bg + eps))
        if rise < min_db:
            continue
        thr = bg + frac * (e[p] - bg)
        j = p
        while j > 0 and e[j - 1] > thr:
            j -= 1
        out.append((j / sr, p / sr, 10 * math.log10(e[p] + eps), rise))
        last = p
    return out


def main():
    a = sys.argv[1:]
    if not a:
        raise SystemExit(__doc__)
    opt = {"--min-db": 12.0, "--hp": 1000.0, "--frac": 0.2}
    path = None
    i = 0
    while i < len(a):
        if a[i] in opt:
            opt[a[i]] = float(a[i + 1]); i += 2
        else:
            path = a[i]; i += 1
    x, sr = read_wav(path)
    e = envelope(x, sr, opt["--hp"])
    for on, pk, db, rise in onsets(e, sr, opt["--min-db"], opt["--frac"]):
        print(f"{on:8.4f} {pk:8.4f} {db:7.1f} {rise:6.1f}")


if __name__ == "__main__":
    main()
