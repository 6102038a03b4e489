#!/usr/bin/env python3
"""Python (numpy/scipy) reference of the Swingmaster audio contact detector.

Same recipe, same parameters and switches as Sources/SwingAudio (see docs/contacts.md); used only by
tests (Swift-vs-Python agreement within ±50 ms) and by bench/contacts.sh.

    reference_contacts.py FILE.wav [--json] [--spec-literal] [--param NAME=VALUE ...]

Environment: Python ≥ 3.9 with numpy and scipy (the project's .deps/venv made by scripts/setup.sh; on a
fresh machine: `python3 -m venv v && v/bin/pip install numpy==2.4.6 scipy==1.17.1`).
Reads WAV via scipy.io.wavfile (int PCM scaled to ±1, float as is; channels averaged).
"""
import argparse
import json
import sys

import numpy as np
from scipy.io import wavfile
from scipy.signal import butter, lfilter, sosfiltfilt

DEFAULTS = dict(
    lowHz=1000.0, highHz=4000.0, filterOrder=4, envelopeWindowMs=5.0,
    noiseFloorPercentile=50.0, noiseFloorWindowSeconds=0.5, noiseFloorHopSeconds=0.05,
    noiseFloorDecimationMs=1.0, peakThresholdFactor=2.5, maxImpactFWHMMs=45.0, maxImpactRiseMs=30.0, minGapMs=300.0,
    hitSpreadMs=80.0,
    amplitudeWeight=0.2, narrownessWeight=0.4, symmetryWeight=0.4, minConfidence=0.1,
    envelopeMode="rectified", envelopeSmoothingPasses=2, peakPicking="prominence", peakNeighborhoodMs=15.0,
    prominenceWindowMs=150.0, timeReference="onset", onsetLevel=0.2, amplitudeReferencePercentile=90.0,
    minRelativeAmplitude=0.1, rejectThuds=True, thudBandLowHz=50.0, thudBandHighHz=150.0,
    maxLowBandRatio=4.0, thudMinRise=8.0, requireBroadband=True, clickBandLowHz=5000.0, clickBandHighHz=10000.0,
    minHighBandRatio=0.01, thudMaskedRise=1.5, thudMaskedRatio=10.0, requireBody=True, minBodyBandRatio=0.02,
)
SPEC_LITERAL = dict(envelopeMode="rectified", envelopeSmoothingPasses=1, peakPicking="localMaxima",
                    timeReference="peak", onsetLevel=0.5, peakThresholdFactor=3.0, maxImpactFWHMMs=40.0, minRelativeAmplitude=0.0, rejectThuds=False, requireBroadband=False, requireBody=False,
                    hitSpreadMs=0.0, maxImpactRiseMs=0.0, noiseFloorPercentile=75.0, noiseFloorWindowSeconds=5.0,
                    noiseFloorHopSeconds=0.5)
AUX_ORDER = 4  # SpectralFeatures.auxiliaryOrder
HIT_SPREAD_MIN_RELATIVE_AMPLITUDE = 0.25  # ContactDetectorParameters.hitSpreadMinRelativeAmplitude
EVENT_MS, BACKGROUND_MS, MARGIN_MS = (-2.0, 30.0), (-120.0, -20.0), 30.0
BACKGROUND_PARTS = 4  # whether an event starts is judged against the quietest quarter (SpectralFeatures)
BODY_BAND_HZ = (250.0, 1000.0)  # SpectralFeatures.bodyBandLowHz/HighHz
BODY_FULL_WEIGHT = 0.1  # MinimumGapSuppression.bodyFullWeight


def samples_for(ms, fs):
    v = ms / 1000.0 * fs  # Swift: Int(v.rounded()) rounds half away from zero; Python's round() does not
    return int(np.floor(v + 0.5)) if v >= 0 else -int(np.floor(-v + 0.5))


def moving_average(v, width):
    """Centred mean over `width` (odd) samples; the window shrinks at the ends."""
    n = len(v)
    h = width // 2
    c = np.concatenate(([0.0], np.cumsum(v, dtype=np.float64)))
    i = np.arange(n)
    lo = np.maximum(0, i - h)
    hi = np.minimum(n, i + h + 1)
    return np.maximum(0.0, c[hi] - c[lo]) / (hi - lo)


def envelope(y, p, fs):
    width = samples_for(p["envelopeWindowMs"], fs)
    if width % 2 == 0:
        width += 1
    v = y * y if p["envelopeMode"] == "rms" else np.abs(y)
    for _ in range(max(1, int(p["envelopeSmoothingPasses"]))):
        v = moving_average(v, width)
    return np.sqrt(v) if p["envelopeMode"] == "rms" else v


def noise_floor(env, p, fs):
    n = len(env)
    d = max(1, samples_for(p["noiseFloorDecimationMs"], fs))
    hop = max(1, samples_for(p["noiseFloorHopSeconds"] * 1000, fs))
    half = samples_for(p["noiseFloorWindowSeconds"] * 1000, fs) // 2
    dec = env[::d]
    centres = np.arange(0, n, hop)
    values = []
    for c in centres:
        jlo = max(0, -((half - c) // d)) if c - half > 0 else 0  # ceil((c-half)/d)
        jhi = min(len(dec) - 1, (c + half) // d)
        values.append(np.percentile(dec[jlo:jhi + 1], p["noiseFloorPercentile"]) if jhi >= jlo else 0.0)
    return centres, np.array(values)


def candidates(env, thr, p, fs):
    e = env
    core = np.flatnonzero((e[1:-1] > e[:-2]) & (e[1:-1] >= e[2:]) & (e[1:-1] > thr[1:-1])) + 1
    if p["peakPicking"] != "prominence":
        return core
    r = samples_for(p["peakNeighborhoodMs"], fs)
    out = []
    n = len(e)
    for i in core:
        lo, hi = max(0, i - r), min(n - 1, i + r)
        if lo < i and np.any(e[lo:i] >= e[i]):
            continue
        if np.any(e[i + 1:hi + 1] > e[i]):
            continue
        out.append(i)
    return np.array(out, dtype=int)


def leading_crossing(env, lo, pk, level):
    below = np.flatnonzero(env[lo:pk] <= level)
    if not len(below):
        return float(lo)
    j = lo + below[-1]
    a, b = float(env[j]), float(env[j + 1])
    return j + ((level - a) / (b - a) if b > a else 0.0)


def measure(env, pk, p, fs):
    n = len(env)
    w = samples_for(p["prominenceWindowMs"], fs)
    h = float(env[pk])
    lo, hi = max(0, pk - w), min(n - 1, pk + w)
    left_min = h
    j = pk - 1
    while j >= lo and env[j] <= h:
        left_min = min(left_min, float(env[j])); j -= 1
    right_min = h
    j = pk + 1
    while j <= hi and env[j] <= h:
        right_min = min(right_min, float(env[j])); j += 1
    prom = h - max(left_min, right_min)
    level = h - prom / 2 if p["peakPicking"] == "prominence" else h / 2
    base = h - prom if p["peakPicking"] == "prominence" else 0.0
    onset_level = base + (h - base) * p["onsetLevel"]
    left = leading_crossing(env, lo, pk, level)
    onset = leading_crossing(env, lo, pk, onset_level)
    seg = env[pk + 1:hi + 1]
    below = np.flatnonzero(seg <= level)
    if len(below):
        j = pk + below[0]
        a, b = float(env[j]), float(env[j + 1])
        right = j + ((a - level) / (a - b) if a > b else 0.0)
    else:
        right = float(hi)
    return h, prom, left, right, onset




def window_energies(y, offset, onset, fs, quietest=False):
    def mean(a, b):
        lo, hi = max(0, a - offset), min(len(y), b - offset)
        if hi <= lo:
            return None
        s = y[lo:hi].astype(np.float64)
        return float(np.dot(s, s)) / (hi - lo)
    ev = mean(onset + samples_for(EVENT_MS[0], fs), onset + samples_for(EVENT_MS[1], fs)) or 0.0
    a, b = onset + samples_for(BACKGROUND_MS[0], fs), onset + samples_for(BACKGROUND_MS[1], fs)
    if not quietest:
        return ev, mean(a, b) or 0.0
    parts = [mean(a + (b - a) * k // BACKGROUND_PARTS, a + (b - a) * (k + 1) // BACKGROUND_PARTS)
             for k in range(BACKGROUND_PARTS)]
    parts = [v for v in parts if v is not None]
    return ev, (min(parts) if parts else 0.0)


def transient_energy(y, offset, onset, fs):
    ev, bg = window_energies(y, offset, onset, fs)
    return max(0.0, ev - bg)


BODILESS_BELOW = 0.2  # SpectralFeatures.bodilessBelow


def loudest_background_body(y, body, offset, onset, fs):
    """Body over in-band mean energy in the loudest (in-band) quarter of the background window."""
    def mean(v, lo, hi):
        lo, hi = max(0, lo - offset), min(len(v), hi - offset)
        if hi <= lo:
            return 0.0
        s = np.asarray(v[lo:hi], dtype=np.float64)
        return float(np.dot(s, s)) / (hi - lo)
    a, b = onset + samples_for(BACKGROUND_MS[0], fs), onset + samples_for(BACKGROUND_MS[1], fs)
    spans = [(a + (b - a) * k // BACKGROUND_PARTS, a + (b - a) * (k + 1) // BACKGROUND_PARTS)
             for k in range(BACKGROUND_PARTS)]
    lo, hi = max(spans, key=lambda sp: mean(y, *sp))
    in_band = mean(y, lo, hi)
    return mean(body, lo, hi) / in_band if in_band > 0 else 0.0


def band_ratios(x, y, onset, p, fs, thud_sos, click_sos, body_sos):
    """(low, high, body, in-band transient) as SpectralFeatures.ratios in Swift."""
    n = len(x)
    a = max(0, onset + samples_for(BACKGROUND_MS[0] - MARGIN_MS, fs))
    b = min(n, onset + samples_for(EVENT_MS[1] + MARGIN_MS, fs))
    if b <= a:
        return None, None, None, 0.0
    in_band = transient_energy(y[a:b], a, onset, fs)
    ev, quiet = window_energies(y[a:b], a, onset, fs, quietest=True)
    if ev <= quiet:
        return None, None, None, 0.0
    snippet = x[a:b].astype(np.float64)
    # After a bodiless sound (a squeak), a full-bodied one is judged against the quietest quarter of its
    # background in every band: the squeak's tail is not its background (SpectralFeatures in Swift).
    after_squeak = False
    if body_sos is not None and len(snippet) > 3 * (2 * len(body_sos) + 1):
        bodied = sosfiltfilt(body_sos, snippet)
        e, bg = window_energies(bodied, a, onset, fs, quietest=True)
        after_squeak = max(0.0, e - bg) / max(ev - quiet, 1e-20) >= FULL_BODY_RATIO \
            and loudest_background_body(y[a:b], bodied, a, onset, fs) < BODILESS_BELOW
    if in_band <= 0 and not after_squeak:
        return None, None, None, 0.0
    after_loud = after_squeak
    in_band = ev - quiet if after_loud else in_band
    main = max(in_band, 1e-20)

    def ratio(sos):
        if sos is None or len(snippet) <= 3 * (2 * len(sos) + 1):
            return None
        e, bg = window_energies(sosfiltfilt(sos, snippet), a, onset, fs, quietest=after_loud)
        return max(0.0, e - bg) / main
    body = ratio(body_sos)
    low = None
    if thud_sos is not None and len(snippet) > 3 * (2 * len(thud_sos) + 1):
        ev, bg = window_energies(sosfiltfilt(thud_sos, snippet), a, onset, fs, quietest=after_loud)
        excess = max(0.0, ev - bg) / main
        low = excess if ev >= p["thudMinRise"] * bg or (
            ev >= p["thudMaskedRise"] * bg and excess > p["thudMaskedRatio"]) else 0.0
    if low is not None and low > p["maxLowBandRatio"]:
        return low, None, None, in_band  # a thud needs no click test
    return low, ratio(click_sos), body, in_band


BAND_EXCERPTS, BAND_EXCERPT_S, BAND_EMPTY_BELOW = 24, 0.5, 1e-3
# BandContent.transientShare in Swift: which loud candidates count, what counts as broadband, the share
# below which the recording's hits are taken as band-limited, and the fewest loud candidates to decide on.
LOUD_FRACTION, BROADBAND_FACTOR, BROADBAND_MIN_SHARE, BROADBAND_MIN_LOUD = 0.5, 3.0, 0.15, 3


def broadband_share(heights, highs, p):
    """Share of the loud candidates (peak ≥ half the 90th percentile) whose click-band transient is at
    least 3 × minHighBandRatio; None when fewer than 3 are loud."""
    if not heights:
        return None
    reference = float(np.percentile(heights, p["amplitudeReferencePercentile"]))
    loud = [hi for h, hi in zip(heights, highs) if h >= LOUD_FRACTION * reference and hi is not None]
    if len(loud) < BROADBAND_MIN_LOUD:
        return None
    return sum(hi >= BROADBAND_FACTOR * p["minHighBandRatio"] for hi in loud) / len(loud)


FULL_BODY_RATIO = 1.0  # SpectralFeatures.fullBodyRatio


def has_full_sound(heights, bodies, p):
    """Whether a candidate passing the loudness gate is full-bodied (BandContent.hasFullSound in Swift)."""
    if not heights:
        return False
    reference = float(np.percentile(heights, p["amplitudeReferencePercentile"]))
    return any(h >= p["minRelativeAmplitude"] * reference and (b or 0.0) >= FULL_BODY_RATIO
               for h, b in zip(heights, bodies))


def click_band_content(x, y, p, fs):
    """Energy in the upper 70 % of the click band over the detection band's (BandContent.upperBand)."""
    low, high = p["clickBandLowHz"], min(p["clickBandHighHz"], 0.45 * fs)
    return band_content(x, y, low + 0.3 * (high - low), high, fs)


def band_content(x, y, low, high, fs):
    """Energy in low-high Hz over the detection band's, over evenly spread excerpts (as BandContent.ratio
    in Swift); None when not measurable."""
    if not (high > low and high < 0.5 * fs) or len(x) == 0:
        return None
    sos = butter(AUX_ORDER, [low, high], btype="band", fs=fs, output="sos")
    length = min(len(x), int(BAND_EXCERPT_S * fs))
    count = max(1, min(BAND_EXCERPTS, len(x) // max(length, 1)))
    pad = 4 * 3 * (2 * len(sos) + 1)
    band = main = 0.0
    for k in range(count):
        start = 0 if count == 1 else (len(x) - length) * k // (count - 1)
        a, b = max(0, start - pad), min(len(x), start + length + pad)
        seg = x[a:b]
        if len(seg) <= 3 * (2 * len(sos) + 1):
            continue
        f = sosfiltfilt(sos, seg)[start - a:start - a + length]
        band += float(np.sum(f * f))
        main += float(np.sum(y[start:start + length] ** 2))
    return band / main if main > 0 else None


COMPRESSED_BELOW_DB, CREST_WINDOW_S, CREST_MAX_WINDOWS, CREST_HIGH_PASS_HZ = 21.0, 5.0, 24, 300.0  # Dynamics.swift


def crest_factor_db(x, fs):
    """Median over 5 s windows (at most 24, spread evenly) of 20·log10(peak / RMS) of the samples
    high-passed at 300 Hz (2nd-order Butterworth, one causal pass from 50 ms before each window);
    Dynamics.crestFactorDb in Swift."""
    n = len(x)
    if fs <= 4 * CREST_HIGH_PASS_HZ or n < fs:
        return None
    w = min(n, int(CREST_WINDOW_S * fs))
    count = min(n // w, CREST_MAX_WINDOWS)
    warm = int(0.05 * fs)
    b, a = butter(2, CREST_HIGH_PASS_HZ, btype="high", fs=fs)
    crests = []
    for k in range(count):
        start = 0 if count == 1 else (n - w) * k // (count - 1)
        lo = max(0, start - warm)
        y = lfilter(b, a, np.asarray(x[lo:start + w], dtype=np.float64))[start - lo:]
        rms = float(np.sqrt(np.mean(y * y)))
        if rms > 0:
            crests.append(20 * np.log10(float(np.abs(y).max()) / rms))
    return float(np.median(crests)) if crests else None


def detect(x, fs, params=None):
    p = dict(DEFAULTS, **(params or {}))
    x = np.asarray(x, dtype=np.float64)
    sos = butter(int(p["filterOrder"]), [p["lowHz"], p["highHz"]], btype="band", fs=fs, output="sos")
    if len(x) <= 3 * (2 * len(sos) + 1):
        return []
    y = sosfiltfilt(sos, x)
    env = envelope(y, p, fs)
    centres, values = noise_floor(env, p, fs)
    floor = np.interp(np.arange(len(env)), centres, values)
    peaks = candidates(env, p["peakThresholdFactor"] * floor, p, fs)
    if p["requireBroadband"]:
        # The click gate needs sound in its band: band-limited recordings skip it (BandContent.swift).
        ratio = click_band_content(x, y, p, fs)
        if ratio is not None and ratio < BAND_EMPTY_BELOW:
            p = dict(p, requireBroadband=False)
    thud_sos = butter(AUX_ORDER, [p["thudBandLowHz"], p["thudBandHighHz"]], btype="band", fs=fs,
                      output="sos") if p["rejectThuds"] else None
    click_sos = butter(AUX_ORDER, [p["clickBandLowHz"], min(p["clickBandHighHz"], 0.45 * fs)], btype="band",
                       fs=fs, output="sos") if p["requireBroadband"] else None
    body_sos = butter(AUX_ORDER, list(BODY_BAND_HZ), btype="band", fs=fs, output="sos") \
        if BODY_BAND_HZ[1] < 0.45 * fs else None
    kept = []
    for pk in peaks:
        h, prom, left, right, onset = measure(env, pk, p, fs)
        fwhm = (right - left) / fs * 1000
        # Wider than an impact: kept only as a hit whose decay a compressor stretched (fast rise, longer fall).
        rise, fall = pk - left, right - pk
        stretched = fwhm <= 2 * p["maxImpactFWHMMs"] and rise / fs * 1000 <= p["maxImpactRiseMs"] and fall > rise
        if fwhm > p["maxImpactFWHMMs"] and not stretched:
            continue
        if p["peakPicking"] == "prominence" and prom < (p["peakThresholdFactor"] - 1) * floor[pk]:
            continue
        low = high = body = None
        if p["rejectThuds"] or p["requireBroadband"] or p["requireBody"]:
            low, high, body, in_band = band_ratios(x, y, int(np.floor(onset)), p, fs, thud_sos, click_sos, body_sos)
            if in_band <= 0:
                continue
            if p["rejectThuds"] and low is not None and low > p["maxLowBandRatio"]:
                continue
        kept.append((pk, h, left, right, onset, low, high, floor[pk], body))
    if p["requireBroadband"]:
        # Sound up there, but not in the recording's sharp sounds (hits recorded band-limited under
        # broadband noise): the gate would reject every hit, so it is skipped (ContactDetector.swift).
        share = broadband_share([k[1] for k in kept], [k[6] for k in kept], p)
        if share is not None and share < BROADBAND_MIN_SHARE:
            p = dict(p, requireBroadband=False)
        else:
            kept = [k for k in kept if k[6] is None or k[6] >= p["minHighBandRatio"]]
    if p["requireBody"]:
        # A recording with nothing at 250-1000 Hz cannot show a hit's body: the gate is skipped.
        content = band_content(x, y, BODY_BAND_HZ[0], BODY_BAND_HZ[1], fs)
        if content is not None and content < BAND_EMPTY_BELOW:
            p = dict(p, requireBody=False)
        elif not has_full_sound([k[1] for k in kept], [k[8] for k in kept], p):
            p = dict(p, requireBody=False)  # nothing in the recording has a hit's body: the body tells nothing
        else:
            kept = [k for k in kept if k[8] is None or k[8] >= p["minBodyBandRatio"]]
    if not kept:
        return []
    reference = max(float(np.percentile([k[1] for k in kept], p["amplitudeReferencePercentile"])), 1e-12)
    wsum = p["amplitudeWeight"] + p["narrownessWeight"] + p["symmetryWeight"]
    scored = []
    for pk, h, left, right, onset, low, high, fl, body in kept:
        if h < p["minRelativeAmplitude"] * reference:
            continue
        fwhm = (right - left) / fs * 1000
        rise, fall = pk - left, right - pk
        sym = min(rise, fall) / max(rise, fall) if max(rise, fall) > 0 else 1.0
        conf = (p["amplitudeWeight"] * min(1.0, h / reference)
                + p["narrownessWeight"] * max(0.0, 1 - fwhm / p["maxImpactFWHMMs"])
                + p["symmetryWeight"] * sym) / wsum
        if conf < p["minConfidence"]:
            continue
        t = onset / fs if p["timeReference"] == "onset" else pk / fs
        scored.append(dict(time=t, confidence=conf, fwhmMs=fwhm, symmetry=sym, amplitude=h, peakTime=pk / fs,
                           snr=h / fl if fl > 0 else None, lowBandRatio=low, highBandRatio=high,
                           bodyBandRatio=body))

    def strength(c):
        """MinimumGapSuppression.strength in Swift: confidence x sqrt(amplitude / reference), x the body weight."""
        s = c["confidence"] * np.sqrt(max(c["amplitude"], 0.0) / reference)
        if p["requireBody"] and c["bodyBandRatio"] is not None:
            s *= min(1.0, max(c["bodyBandRatio"], 0.0) / BODY_FULL_WEIGHT)
        return s
    scored.sort(key=lambda c: (-strength(c), c["time"]))
    gap = p["minGapMs"] / 1000
    kept_times, out = [], []
    for c in scored:
        if any(abs(c["time"] - k) < gap for k in kept_times):
            continue
        kept_times.append(c["time"])
        out.append(c)
    # One contact per hit, at its earliest loud-enough transient (EarliestTransient in Swift).
    spread = p["hitSpreadMs"] / 1000
    if spread > 0:
        by_time = sorted((c["time"], c["amplitude"]) for c in scored)
        for c in out:
            for time, amplitude in by_time:
                if time >= c["time"]:
                    break
                if time >= c["time"] - spread and amplitude >= HIT_SPREAD_MIN_RELATIVE_AMPLITUDE * c["amplitude"]:
                    c["time"] = time
                    break
    return sorted(out, key=lambda c: c["time"])


def read_wav(path):
    fs, data = wavfile.read(path)
    if data.dtype.kind == "i":
        data = data.astype(np.float64) / float(np.iinfo(data.dtype).max + 1)
    elif data.dtype.kind == "u":
        data = (data.astype(np.float64) - 128) / 128
    data = data.astype(np.float64)
    if data.ndim == 2:
        data = data.mean(axis=1)
    return float(fs), data


def parse_value(v):
    if v.lower() in ("true", "false"):
        return v.lower() == "true"
    try:
        return int(v)
    except ValueError:
        try:
            return float(v)
        except ValueError:
            return v


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("file")
    ap.add_argument("--json", action="store_true", help="print the `swingmaster contacts --json` shape")
    ap.add_argument("--spec-literal", action="store_true", help="the recipe taken literally (no robustness additions)")
    ap.add_argument("--param", action="append", default=[], metavar="NAME=VALUE",
                    help="override a parameter (Swift property name), e.g. --param peakThresholdFactor=4")
    ap.add_argument("--time", action="store_true", help="report detect() wall/CPU time (median of --repeats) as JSON on stderr")
    ap.add_argument("--repeats", type=int, default=1, help="timed runs for --time")
    a = ap.parse_args(argv)
    params = dict(SPEC_LITERAL) if a.spec_literal else {}
    for kv in a.param:
        k, _, v = kv.partition("=")
        if k not in DEFAULTS:
            ap.error(f"unknown parameter {k}")
        params[k] = parse_value(v)
    fs, x = read_wav(a.file)
    import time
    walls, cpus = [], []
    for _ in range(max(1, a.repeats) if a.time else 1):
        t0, c0 = time.perf_counter(), time.process_time()
        contacts = detect(x, fs, params)
        walls.append(time.perf_counter() - t0)
        cpus.append(time.process_time() - c0)
    if a.time:
        med = lambda v: sorted(v)[len(v) // 2]
        print(json.dumps({"seconds": med(walls), "cpuSeconds": med(cpus), "audioSeconds": len(x) / fs,
                          "contacts": len(contacts)}), file=sys.stderr)
    if a.json:
        print(json.dumps({"file": a.file, "duration": len(x) / fs, "sampleRate": int(fs), "contacts": contacts,
                          "crestFactorDb": crest_factor_db(x.astype(np.float32), fs)}))
    else:
        for c in contacts:
            print(f"{c['time']:9.4f}  confidence {c['confidence']:.2f}  fwhm {c['fwhmMs']:5.1f} ms  "
                  f"symmetry {c['symmetry']:.2f}  amplitude {c['amplitude']:.4f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
