#!/usr/bin/env python3
"""Session tracks mixed from recorded tennis sounds, with the true contact times (issue #10, part 3).

The detector was tuned on our own synthesizer (SyntheticSessionAudio); these tracks are made from sounds
recorded by someone else, two independent sets that `scripts/setup.sh` downloads (checksum-pinned) from
Debian — nothing of them is committed:

`--corpus freetennis` (default): Free Tennis 0.4.8's sound effects (© 2005 Maurizio Colucci, GPL-2+), from
`freetennis-common`, in `.deps/sounds/freetennis/`. 11 025 Hz recordings, so every track is band-limited
at 5.5 kHz, as old cameras and voice-band microphones give.
  hits      colpo, battuta3 (serve), fh, fh2 (forehands), spin (topspin), taglio (slice), risposta1
  bounces   palla, palla leggera, palla pesante; muro2 (ball on a wall)
  net cords net, rete
  crowd     pubblico (looped)          grunts  Ahh, hff, hm

`--corpus tennix`: Tennix 1.1's sounds (© 2004–2007 MelodyLoops.com, public domain), from `tennix`,
unpacked by tools/tennix_sounds.py to `.deps/sounds/tennix/`. Full-band 44.1 kHz hits and bounces, so
the broadband-click gate is live on these tracks.
  hits      racket1, racket2           bounces ground1, ground2
  net cords (none: `netcords` is refused) crowd audience (looped)   voices out (a line judge's call)

A track is a rally: hits every 1.2–2.6 s at gains within 6 dB, a bounce between hits, on a quiet
noise floor (−66 dBFS white), at 44 100 Hz (every sound resampled polyphase from its own rate).
Conditions add: `match` crowd (−14 dB) and a grunt (or call) after half the hits; `netcords` a net cord
after a quarter of the hits; `wind` gusty wind: white noise low-passed at 150 Hz (order 8, zero phase)
plus buffeting 30 dB down with a 6 dB/octave slope above 400 Hz, times a slow gust envelope (the cube of
the mean of three 0.1–0.5 Hz sines), peaking at 0.9 of full scale on its own, and the mix is *clipped* at
±1 (gusts up to clipping); `everything` crowd, grunts, net cords (when the corpus has them) and wind.
A hit's true time is where it is placed plus its onset: the first sample where its 5 ms moving-average
envelope reaches 20 % of its peak (measured here, per file). A hit also has a *transient span*: from that
onset to its last attack within 80 ms (an attack: the 2 ms envelope at ≥ 25 % of its peak and at least
double what it was 4 ms before; attacks ≥ 8 ms apart). Recorded hits have 2–4 attacks (frame, strings,
ball) spread over 10–75 ms; scoring "a detection anywhere within the hit's transients" uses the span,
scoring the contact time uses the onset.

    make_recorded_tracks.py SFX_DIR OUT_PREFIX [--corpus freetennis|tennix]
                            [--condition practice|match|netcords|wind|everything] [--seed N] [--duration S]

Writes OUT_PREFIX.wav (float32 mono, 44 100 Hz) and OUT_PREFIX.json
({"sampleRate", "contacts": [seconds], "spans": [[onset, last attack] seconds], "corpus", "condition",
"seed", "hits": [file names]}).
Needs numpy and scipy (the project's .deps/venv).
"""
import argparse
import json
import os
import sys

import numpy as np
from scipy.io import wavfile
from math import gcd

from scipy.signal import butter, resample_poly, sosfilt, sosfiltfilt

CORPORA = {
    "freetennis": dict(hits=["colpo", "battuta3", "fh", "fh2", "spin", "taglio", "risposta1"],
                       bounces=["palla", "palla leggera", "palla pesante", "muro2"], netcords=["net", "rete"],
                       grunts=["Ahh", "hff", "hm"], crowd="pubblico"),
    "tennix": dict(hits=["racket1", "racket2"], bounces=["ground1", "ground2"], netcords=[],
                   grunts=["out"], crowd="audience"),
}
CONDITIONS = ("practice", "match", "netcords", "wind", "everything")
RATE = 44100


def load(sfx, name):
    sr, raw = wavfile.read(os.path.join(sfx, name + ".wav"))
    x = raw.astype(np.float64)
    if x.ndim > 1:
        x = x.mean(axis=1)
    if np.issubdtype(raw.dtype, np.integer):
        x /= float(np.iinfo(raw.dtype).max + 1)
    x -= x.mean()
    g = gcd(RATE, sr)
    return x if sr == RATE else resample_poly(x, RATE // g, sr // g)


def gusty_wind(rng, n):
    """Gusty wind peaking at 0.9 of full scale (see the module text)."""
    noise = rng.uniform(-1.0, 1.0, n)
    rumble = sosfiltfilt(butter(8, 150, btype="low", fs=RATE, output="sos"), noise)
    buffet = sosfilt(butter(1, 400, btype="low", fs=RATE, output="sos"), rng.uniform(-1.0, 1.0, n))
    buffet *= 10 ** (-30 / 20) * np.abs(rumble).max() / (np.abs(buffet).max() + 1e-12)
    t = np.arange(n) / RATE
    gust = sum((1 + np.sin(2 * np.pi * rng.uniform(0.1, 0.5) * t + rng.uniform(0, 2 * np.pi))) / 2
               for _ in range(3)) / 3
    wind = gust ** 3 * (rumble + buffet)
    return 0.9 * wind / (np.abs(wind).max() + 1e-12)


def onset(x):
    """First sample whose 5 ms moving-average |x| reaches 20 % of its peak."""
    w = int(0.005 * RATE)
    env = np.convolve(np.abs(x), np.ones(w) / w, mode="same")
    return int(np.argmax(env >= 0.2 * env.max()))


def last_attack(x):
    """Samples from the onset to the hit's last attack within 80 ms (see the module text)."""
    w, lag, gap = int(0.002 * RATE), int(0.004 * RATE), int(0.008 * RATE)
    env = np.convolve(np.abs(x), np.ones(w) / w, mode="same")
    start = onset(x)
    last, i = start, start
    while i < min(len(env), start + int(0.08 * RATE)):
        if i >= lag and env[i] >= 0.25 * env.max() and env[i] >= 2 * env[i - lag]:
            last, i = i, i + gap
        else:
            i += 1
    return last - start


def mix(sfx, corpus, condition, seed, duration):
    c = CORPORA[corpus]
    HITS, BOUNCES, NETCORDS, GRUNTS, CROWD = c["hits"], c["bounces"], c["netcords"], c["grunts"], c["crowd"]
    if condition == "netcords" and not NETCORDS:
        raise SystemExit(f"the {corpus} corpus has no net cord recordings")
    rng = np.random.default_rng(seed)
    n = int(duration * RATE)
    out = rng.normal(0.0, 10 ** (-66 / 20), n)
    sounds = {k: load(sfx, k) for k in HITS + BOUNCES + NETCORDS + GRUNTS + [CROWD]}

    def add(x, at, gain):
        start = int(at * RATE)
        if start >= n:
            return
        end = min(n, start + len(x))
        out[start:end] += gain * x[: end - start]

    if condition in ("match", "everything"):
        crowd = np.tile(sounds[CROWD], int(np.ceil(n / len(sounds[CROWD]))) + 1)[:n]
        out += 10 ** (-14 / 20) * crowd / (np.abs(crowd).max() + 1e-12) * 0.5
    truth, spans, names = [], [], []
    t = 0.8
    while t < duration - 1.0:
        name = HITS[rng.integers(len(HITS))]
        hit = sounds[name]
        gain = 10 ** (rng.uniform(-6, 0) / 20) * 0.8 / (np.abs(hit).max() + 1e-12)
        add(hit, t, gain)
        truth.append(t + onset(hit) / RATE)
        spans.append([truth[-1], truth[-1] + last_attack(hit) / RATE])
        names.append(name)
        gap = rng.uniform(1.2, 2.6)
        if condition in ("match", "everything") and rng.random() < 0.5:
            g = sounds[GRUNTS[rng.integers(len(GRUNTS))]]
            add(g, t + rng.uniform(0.0, 0.08), 10 ** (rng.uniform(-12, -3) / 20) * 0.8 / (np.abs(g).max() + 1e-12))
        if condition in ("netcords", "everything") and NETCORDS and rng.random() < 0.25:
            c = sounds[NETCORDS[rng.integers(len(NETCORDS))]]
            add(c, t + gap * rng.uniform(0.25, 0.35), 10 ** (rng.uniform(-10, -2) / 20) * 0.8 / (np.abs(c).max() + 1e-12))
        b = sounds[BOUNCES[rng.integers(len(BOUNCES))]]
        add(b, t + gap * rng.uniform(0.45, 0.7), 10 ** (rng.uniform(-8, 0) / 20) * 0.8 / (np.abs(b).max() + 1e-12))
        t += gap
    if condition in ("wind", "everything"):
        out = np.clip(out + gusty_wind(np.random.default_rng(seed + 7919), n), -1.0, 1.0)
    peak = np.abs(out).max()
    if peak > 0.99:
        out *= 0.99 / peak
    return out.astype(np.float32), truth, spans, names


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("sfx_dir")
    ap.add_argument("out_prefix")
    ap.add_argument("--corpus", choices=sorted(CORPORA), default="freetennis")
    ap.add_argument("--condition", choices=CONDITIONS, default="practice")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--duration", type=float, default=60.0)
    a = ap.parse_args(argv)
    if not os.path.isdir(a.sfx_dir):
        raise SystemExit(f"no folder {a.sfx_dir}: run scripts/setup.sh")
    samples, truth, spans, names = mix(a.sfx_dir, a.corpus, a.condition, a.seed, a.duration)
    wavfile.write(a.out_prefix + ".wav", RATE, samples)
    with open(a.out_prefix + ".json", "w") as f:
        json.dump({"sampleRate": RATE, "contacts": truth, "spans": spans, "corpus": a.corpus, "condition": a.condition, "seed": a.seed,
                   "hits": names}, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
