#!/usr/bin/env python3
"""Pass a recording through the processing a phone's video app applies to its sound (issue #26).

Phones do not hand us the sound the ball made: the app raises the gain, compresses the dynamic range with a
fast attack, limits, sometimes rides an automatic gain control, and encodes AAC (or Opus) at 44.1 or 48 kHz.
Each chain below is that class of processing written as FFmpeg filters and encoders (nothing else is needed),
so the contact detector can be scored on what a phone records, made at test time from any clean track.

Every chain except `clean` first scales the track so its loudest sample is at −1 dBFS (the phone's input gain
puts the loudest hit near full scale), so compressor and limiter thresholds mean the same on every track.
Output is float32 mono WAV at the chain's rate, decoded back from the encoded file (AAC in MP4 and Opus in
Ogg carry their encoder delay, which FFmpeg removes on decoding; the limiter compensates its look-ahead).
`--check` proves it: it passes a click train through every chain and fails if any click moves by more than
1 ms, so the input's truth times hold for the output.

    phone_chain.py IN.wav OUT.wav --chain NAME      process one file
    phone_chain.py IN.wav OUTDIR --chain all        every chain: OUTDIR/NAME.wav (or --chain A,B,C: those)
    phone_chain.py --list                            the chains as JSON: [{"name", "description"}]
    phone_chain.py --check                           every chain's latency on a click train, ms (JSON)

Chains (`CHAINS` below; compressor thresholds are relative to full scale after the −1 dBFS normalisation):
  clean           the WAV as mixed
  aac-64k         AAC 64 kbit/s at 44.1 kHz
  aac-128k-48k    AAC 128 kbit/s resampled to 48 kHz
  aac-256k        AAC 256 kbit/s at 44.1 kHz
  opus-64k        Opus 64 kbit/s (48 kHz)
  opus-256k       Opus 256 kbit/s (48 kHz)
  comp-2-20       compressor 2:1, attack 20 ms, release 250 ms, threshold −24 dB, make-up 6 dB
  comp-6-5        compressor 6:1, attack 5 ms, release 100 ms, threshold −30 dB, make-up 18 dB, limiter
  comp-10-1       compressor 10:1, attack 1 ms, release 50 ms, threshold −36 dB, make-up 24 dB, limiter
  agc             automatic gain control (FFmpeg dynaudnorm: 100 ms frames, 3-frame window, up to 30 dB gain)
  limiter         +18 dB of gain into a brick-wall limiter (1 ms attack, 20 ms release) at −1 dBFS
  clip            +12 dB of gain, hard-clipped at full scale
  phone-aac       +6 dB, compressor 6:1 (5 ms attack), limiter, AAC 96 kbit/s at 48 kHz
  phone-opus      compressor 4:1 (10 ms attack), AGC, Opus 64 kbit/s
  phone-worst     AGC, compressor 10:1 (1 ms attack), +12 dB, limiter, hard clip, AAC 64 kbit/s at 44.1 kHz
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

import numpy as np
from scipy.io import wavfile

LIMIT = "alimiter=limit=0.891:attack=1:release=20:level=0:latency=1"  # −1 dBFS brick wall, delay compensated


def comp(ratio, attack, release, threshold_db, makeup_db):
    return (f"acompressor=ratio={ratio}:attack={attack}:release={release}:threshold={10 ** (threshold_db / 20):.6f}"
            f":makeup={10 ** (makeup_db / 20):.4f}:detection=peak")


AGC = "dynaudnorm=f=100:g=3:p=0.89:m=30"
# name: (description, filters, encoder arguments or None for PCM, output rate or None for the input's)
CHAINS = {
    "clean": ("the WAV as mixed", None, None, None),
    "aac-64k": ("AAC 64 kbit/s, 44.1 kHz", "", ["-c:a", "aac", "-b:a", "64k"], 44100),
    "aac-128k-48k": ("AAC 128 kbit/s, 48 kHz", "", ["-c:a", "aac", "-b:a", "128k"], 48000),
    "aac-256k": ("AAC 256 kbit/s, 44.1 kHz", "", ["-c:a", "aac", "-b:a", "256k"], 44100),
    "opus-64k": ("Opus 64 kbit/s", "", ["-c:a", "libopus", "-b:a", "64k"], 48000),
    "opus-256k": ("Opus 256 kbit/s", "", ["-c:a", "libopus", "-b:a", "256k"], 48000),
    "comp-2-20": ("compressor 2:1, 20 ms attack", comp(2, 20, 250, -24, 6), None, None),
    "comp-6-5": ("compressor 6:1, 5 ms attack, limiter", comp(6, 5, 100, -30, 18) + "," + LIMIT, None, None),
    "comp-10-1": ("compressor 10:1, 1 ms attack, limiter", comp(10, 1, 50, -36, 24) + "," + LIMIT, None, None),
    "agc": ("automatic gain control", AGC, None, None),
    "limiter": ("+18 dB into a limiter", "volume=18dB," + LIMIT, None, None),
    "clip": ("+12 dB, hard clipped", "volume=12dB,asoftclip=type=hard:threshold=1", None, None),
    "phone-aac": ("gain, compressor 6:1 (5 ms), limiter, AAC 96 kbit/s 48 kHz",
                  "volume=6dB," + comp(6, 5, 100, -30, 18) + "," + LIMIT, ["-c:a", "aac", "-b:a", "96k"], 48000),
    "phone-opus": ("compressor 4:1 (10 ms), AGC, Opus 64 kbit/s",
                   comp(4, 10, 150, -30, 12) + "," + AGC + "," + LIMIT, ["-c:a", "libopus", "-b:a", "64k"], 48000),
    "phone-worst": ("AGC, compressor 10:1 (1 ms), gain, limiter, clip, AAC 64 kbit/s",
                    AGC + "," + comp(10, 1, 50, -36, 24) + ",volume=12dB," + LIMIT + ",asoftclip=type=hard:threshold=1",
                    ["-c:a", "aac", "-b:a", "64k"], 44100),
}


def read(path):
    sr, x = wavfile.read(path)
    x = x.astype(np.float64)
    if x.ndim > 1:
        x = x.mean(axis=1)
    return sr, x


def click_train(sr, seconds=6.0):
    """Probe for the latency check: a 1 ms broadband click every 0.5 s over −60 dBFS noise."""
    rng = np.random.default_rng(0)
    x = rng.normal(0.0, 1e-3, int(seconds * sr))
    click = np.hanning(int(0.001 * sr)) * rng.uniform(-1, 1, int(0.001 * sr))
    at = [int((0.25 + 0.5 * k) * sr) for k in range(int(seconds / 0.5))]
    for i in at:
        x[i:i + len(click)] += 0.9 * click / np.abs(click).max()
    return x, [i / sr for i in at]


def latency_ms(chain):
    """Median shift of the probe's clicks through the chain, ms (each click's loudest sample within ±20 ms
    of where it was put, after the chain against before)."""
    sr = 44100
    x, times = click_train(sr)
    with tempfile.TemporaryDirectory() as tmp:
        src, dst = os.path.join(tmp, "probe.wav"), os.path.join(tmp, "out.wav")
        wavfile.write(src, sr, x.astype(np.float32))
        process(src, dst, chain)
        srb, y = read(dst)
    def loudest(v, rate, t):
        a, b = int((t - 0.02) * rate), int((t + 0.02) * rate)
        return (a + int(np.argmax(np.abs(v[a:b])))) / rate
    shifts = [loudest(y, srb, t) - loudest(x, sr, t) for t in times]
    return 1000 * float(np.median(shifts))


def process(src, dst, chain):
    description, filters, encoder, rate = CHAINS[chain]
    sr, x = read(src)
    with tempfile.TemporaryDirectory() as tmp:
        if filters is None:
            wavfile.write(dst, sr, x.astype(np.float32))
            return
        norm = os.path.join(tmp, "in.wav")
        wavfile.write(norm, sr, (x * 10 ** (-1 / 20) / max(np.abs(x).max(), 1e-12)).astype(np.float32))
        chain_filters = ",".join(f for f in (filters, f"aresample={rate}" if rate and rate != sr else "") if f)
        af = ["-af", chain_filters] if chain_filters else []
        ff = ["ffmpeg", "-v", "error", "-nostdin", "-y", "-i", norm]
        if encoder:
            enc = os.path.join(tmp, "enc.m4a" if "aac" in encoder else "enc.ogg")
            subprocess.run(ff + af + ["-ac", "1"] + encoder + [enc], check=True)
            subprocess.run(["ffmpeg", "-v", "error", "-nostdin", "-y", "-i", enc, "-ac", "1", "-c:a", "pcm_f32le", dst],
                           check=True)
        else:
            subprocess.run(ff + af + ["-ac", "1", "-c:a", "pcm_f32le", dst], check=True)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("src", nargs="?")
    ap.add_argument("dst", nargs="?", help="output WAV, or a folder with --chain all")
    ap.add_argument("--chain", help="a chain's name; `all`, or names separated by commas, write DST/NAME.wav each")
    ap.add_argument("--list", action="store_true", help="print the chains as JSON and exit")
    ap.add_argument("--check", action="store_true", help="measure every chain's latency on a click train; "
                    "exit 1 if any shifts the sound by more than 1 ms")
    a = ap.parse_args(argv)
    if a.list:
        print(json.dumps([{"name": k, "description": v[0]} for k, v in CHAINS.items()]))
        return 0
    if a.check:
        lags = {name: latency_ms(name) for name in CHAINS}
        print(json.dumps(lags))
        bad = [f"{k} ({v:+.1f} ms)" for k, v in lags.items() if abs(v) > 1]
        if bad:
            print("phone_chain: these chains shift the sound in time: " + ", ".join(bad), file=sys.stderr)
            return 1
        return 0
    names = list(CHAINS) if a.chain == "all" else (a.chain or "").split(",")
    if not (a.src and a.dst and a.chain) or any(n not in CHAINS for n in names):
        ap.error(f"give IN.wav OUT.wav --chain NAME (one of: all, {', '.join(CHAINS)}), or --list, or --check")
    if len(names) == 1 and a.chain != "all":
        process(a.src, a.dst, names[0])
    else:
        os.makedirs(a.dst, exist_ok=True)
        for name in names:
            process(a.src, os.path.join(a.dst, name + ".wav"), name)
    return 0


if __name__ == "__main__":
    sys.exit(main())
