#!/usr/bin/env python3
"""Writes a variable-frame-rate clip, as a phone records in low light or when hot, with every
frame's true timestamp beside it.

A phone's video frames carry their own timestamps: the camera drops runs of frames (a gap) and slows
down for a while (each frame shown longer). This script makes such a clip with the ffmpeg CLI only:

  1. the picture (a --source video, or FFmpeg's testsrc2 pattern) on a constant grid of --fps frames
     per second (the `fps` filter: frame n at n / fps seconds), scaled to --size;
  2. `select` drops every frame in each --drop A:B range (seconds) and keeps only every K-th frame in
     each --stretch A:B:K range, so the frames left keep their grid times;
  3. libx264 (veryfast: B-frames, so decode order differs from presentation order) with
     `-fps_mode vfr` (`-vsync vfr` on older FFmpeg), which writes each frame at its own time instead of
     re-timing them at an even rate; the container follows the extension (.mp4, .mov, .mkv).
     Audio: the source's (AAC), or a 440 Hz tone, unchanged: it keeps the clip's true clock.

Then it reads the frame times back with ffprobe, checks them against the rules above (every time on
the grid, none inside a drop, K grid steps apart inside a stretch, one step elsewhere) and writes
them to OUT.frames.json: {"fps", "width", "height", "drops", "stretches", "times", "duration"}, where
times[n] is frame n's presentation time (0-based, presentation order) and duration the video's end.

Usage:
  make_vfr_clip.py OUT [--source VIDEO] [--fps 30] [--size 640x360] [--duration 6]
                   [--drop 1.0:1.4 ...] [--stretch 3.0:4.0:2 ...]
Example (the demo clip at 30 fps with two runs dropped, between its contacts):
  tools/make_vfr_clip.py /tmp/vfr.mp4 --source Samples/demo_session.mp4 --fps 30 --drop 0.5:1.2 --drop 5.3:6.1
Needs: Python 3.8+ and the ffmpeg / ffprobe CLIs (any FFmpeg from 4.4 on). Idempotent: an OUT whose
manifest records the same arguments is kept.
"""
import argparse
import json
import os
import subprocess
import sys

VERSION = 2   # bump when the output for the same arguments changes


def span(text, parts):
    values = text.split(":")
    if len(values) != parts:
        raise argparse.ArgumentTypeError(f"{text!r} needs {parts} numbers separated by ':'")
    numbers = [float(v) for v in values]
    if numbers[1] <= numbers[0]:
        raise argparse.ArgumentTypeError(f"{text!r} ends before it starts")
    if parts == 3 and (numbers[2] < 2 or numbers[2] != int(numbers[2])):
        raise argparse.ArgumentTypeError(f"{text!r}: K must be a whole number of at least 2")
    return numbers


def select_expression(drops, stretches):
    """A `select` expression keeping the frames the rules keep (commas escaped for the filtergraph)."""
    terms = [f"not(between(t,{a},{b}))" for a, b in drops]
    terms += [f"if(between(t,{a},{b}),not(mod(n,{int(k)})),1)" for a, b, k in stretches]
    return "*".join(terms or ["1"]).replace(",", "\\,")


def encode(args, out):
    w, h = args.size
    grid = f"fps={args.fps},scale={w}:{h},setsar=1,select={select_expression(args.drop, args.stretch)}"
    if args.source:
        inputs = ["-i", args.source]
        maps = ["-map", "0:v:0", "-map", "0:a:0?"]
    else:
        inputs = ["-f", "lavfi", "-i", f"testsrc2=size={w}x{h}:rate={args.fps}",
                  "-f", "lavfi", "-i", "sine=frequency=440:sample_rate=48000"]
        maps = ["-map", "0:v:0", "-map", "1:a:0"]
    common = ["ffmpeg", "-v", "error", "-y", *inputs, "-t", str(args.duration), *maps, "-vf", grid,
              "-c:v", "libx264", "-preset", "veryfast", "-pix_fmt", "yuv420p", "-c:a", "aac"]
    for timing in (["-fps_mode", "vfr"], ["-vsync", "vfr"]):
        if subprocess.run(common + timing + [out], capture_output=True).returncode == 0:
            return
    subprocess.run(common + ["-vsync", "vfr", out], check=True)


def probe(out):
    """(frame times in presentation order, the video stream's end) as ffprobe reads them."""
    cmd = ["ffprobe", "-v", "error", "-select_streams", "v:0", "-show_entries",
           "frame=best_effort_timestamp_time:stream=start_time,duration", "-of", "json", out]
    probed = json.loads(subprocess.run(cmd, capture_output=True, check=True, text=True).stdout)
    times = sorted(float(f["best_effort_timestamp_time"]) for f in probed["frames"])
    stream = probed["streams"][0]
    return times, float(stream.get("start_time", 0)) + float(stream["duration"])


def check(times, args):
    """The frames left are exactly the grid minus the drops and the stretches' skipped frames."""
    step = 1 / args.fps
    tolerance = min(step / 4, 0.002)
    if not times:
        sys.exit("make_vfr_clip: the clip has no frames")
    for t in times:
        n = round(t / step)
        if abs(t - n * step) > tolerance:
            sys.exit(f"make_vfr_clip: frame at {t:.6f} s is off the {args.fps} fps grid")
        for a, b in args.drop:
            if a - tolerance <= t <= b + tolerance:
                sys.exit(f"make_vfr_clip: frame at {t:.6f} s inside the dropped run {a}-{b}")
    for earlier, later in zip(times, times[1:]):
        gap = round((later - earlier) / step)
        middle = (earlier + later) / 2
        dropped = any(earlier < b and later > a for a, b in args.drop)
        stretched = [int(k) for a, b, k in args.stretch if a <= middle <= b]
        if not dropped and gap != 1 and not (stretched and gap <= stretched[0]):
            sys.exit(f"make_vfr_clip: {gap} grid steps between {earlier:.4f} and {later:.4f} s")
    if args.stretch and not any(round((l - e) / step) > 1 for e, l in zip(times, times[1:])):
        sys.exit("make_vfr_clip: no frame was stretched")


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("out")
    p.add_argument("--source", help="a video to take the picture and sound from (default: testsrc2 and a tone)")
    p.add_argument("--fps", type=float, default=30, help="the grid's frames per second (default 30)")
    p.add_argument("--size", default="640x360", help="WxH (default 640x360; even, for 4:2:0)")
    p.add_argument("--duration", type=float, default=6, help="seconds (default 6)")
    p.add_argument("--drop", action="append", default=[], type=lambda s: span(s, 2), help="A:B seconds with no frame")
    p.add_argument("--stretch", action="append", default=[], type=lambda s: span(s, 3),
                   help="A:B:K seconds where only every K-th frame is kept (each shown K times as long)")
    args = p.parse_args()
    w, h = (int(v) for v in args.size.lower().split("x"))
    if w < 2 or h < 2 or w % 2 or h % 2:
        sys.exit("make_vfr_clip: --size needs even sides of at least 2")
    args.size = (w, h)
    if not 1 <= args.fps <= 1000 or args.duration <= 0:
        sys.exit("make_vfr_clip: --fps must be 1-1000 and --duration positive")

    manifest_path = args.out + ".frames.json"
    request = {"version": VERSION, "source": args.source and os.path.abspath(args.source), "fps": args.fps,
               "width": w, "height": h, "seconds": args.duration, "drops": args.drop, "stretches": args.stretch}
    try:
        with open(manifest_path) as f:
            if json.load(f).get("request") == request and os.path.exists(args.out):
                return
    except (OSError, ValueError):
        pass
    partial = args.out + ".part" + os.path.splitext(args.out)[1]
    encode(args, partial)
    times, end = probe(partial)
    check(times, args)
    os.replace(partial, args.out)
    with open(manifest_path, "w") as f:
        json.dump({"request": request, "fps": args.fps, "width": w, "height": h, "drops": args.drop,
                   "stretches": args.stretch, "times": times, "duration": end}, f)


if __name__ == "__main__":
    main()
