#!/usr/bin/env python3
"""The peer for `swingmaster analyze`'s pose stage: OpenCV seeks + MediaPipe 0.10.14 BlazePose.

Given the contact times (as ours found them), it poses the same frames ours does: the swing windows
[t - before, t + after] (merged where they overlap), every frame within `core` seconds of a contact,
every `step`-th frame of the video elsewhere. Two processes (one per core, like our two workers) take
the windows alternately; each seeks with OpenCV (`CAP_PROP_POS_MSEC`: keyframe, then decode forward to
the frame), reads the window in order and runs MediaPipe's video-mode pose (model_complexity=1, reset
at every window, as our tracker restarts) on the selected frames, converted BGR -> RGB.

Prints one JSON line: {"peer": "opencv+mediapipe", "seconds": wall from start to both processes done
(imports and model loading included, as ours includes its own), "work_seconds": the slower process'
time after loading, "cpu_seconds": both processes' user + system CPU, "frames": posed, "persons": found, "processes": 2}.

Run: .deps/bench-venv/bin/python bench/analyze_peer.py VIDEO --contacts 2.5,7.5 --fps 60 --step 4 \
         --core 0.0917 [--before 1.0 --after 0.5 --processes 2]
"""
import argparse
import json
import resource
import subprocess
import sys
import time


def windows(contacts, before, after):
    out = []
    for t in sorted(contacts):
        lo, hi = max(0.0, t - before), t + after
        if out and lo <= out[-1][1]:
            out[-1][1] = max(out[-1][1], hi)
        else:
            out.append([lo, hi])
    return out


def worker(a):
    import cv2
    import mediapipe as mp

    contacts = sorted(float(x) for x in a.contacts.split(","))
    mine = windows(contacts, a.before, a.after)[a.worker::a.processes]
    cap = cv2.VideoCapture(a.video)
    posed = persons = 0
    with mp.solutions.pose.Pose(static_image_mode=False, model_complexity=1) as pose:
        t0 = time.perf_counter()
        for lo, hi in mine:
            pose.reset()
            cap.set(cv2.CAP_PROP_POS_MSEC, lo * 1000)
            while True:
                index = int(round(cap.get(cv2.CAP_PROP_POS_FRAMES)))
                ok, frame = cap.read()
                if not ok:
                    break
                t = index / a.fps
                if t > hi + 1e-4:
                    break
                if t < lo - 1e-4:
                    continue
                near = min(abs(t - c) for c in contacts) <= a.core
                if index % a.step and not near:
                    continue
                posed += 1
                persons += pose.process(cv2.cvtColor(frame, cv2.COLOR_BGR2RGB)).pose_landmarks is not None
        seconds = time.perf_counter() - t0
    print(json.dumps({"frames": posed, "persons": persons, "seconds": seconds}))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("video")
    ap.add_argument("--contacts", required=True, help="comma-separated contact times, seconds")
    ap.add_argument("--fps", type=float, required=True)
    ap.add_argument("--step", type=int, required=True, help="outer grid: every step-th frame")
    ap.add_argument("--core", type=float, required=True, help="every frame within this many seconds of a contact")
    ap.add_argument("--before", type=float, default=1.0)
    ap.add_argument("--after", type=float, default=0.5)
    ap.add_argument("--processes", type=int, default=2)
    ap.add_argument("--worker", type=int, default=-1, help=argparse.SUPPRESS)
    a = ap.parse_args()
    if a.worker >= 0:
        worker(a)
        return
    t0 = time.perf_counter()
    procs = [subprocess.Popen([sys.executable, __file__] + sys.argv[1:] + ["--worker", str(k)],
                              stdout=subprocess.PIPE, text=True) for k in range(a.processes)]
    results = [json.loads(p.communicate()[0].strip().splitlines()[-1]) for p in procs]
    seconds = time.perf_counter() - t0
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    if any(p.returncode for p in procs):
        sys.exit("a peer process failed")
    print(json.dumps({"peer": "opencv+mediapipe", "seconds": seconds, "frames": sum(r["frames"] for r in results),
                      "persons": sum(r["persons"] for r in results), "processes": a.processes,
                      "work_seconds": max(r["seconds"] for r in results),
                      "cpu_seconds": usage.ru_utime + usage.ru_stime}))


if __name__ == "__main__":
    main()
