#!/usr/bin/env python3
"""Drop the segmentation head from BlazePose's ONNX landmark model (issue #28).

`pose_landmark_full.onnx` as converted by tools/convert_blazepose.py has five outputs: landmarks
(`Identity`), the pose flag (`Identity_1`), a 256×256 segmentation mask (`Identity_2`), a 64×64 heatmap
(`Identity_3`) and world landmarks (`Identity_4`). Swingmaster never reads the mask, but ONNX Runtime runs
every node of a graph whatever outputs a caller fetches, and the mask's upsampling head costs 40 % of the
model's time (bench/results/pose_prune.txt). This keeps the subgraph that feeds the other four outputs
(`onnx.utils.extract_model`): the same nodes and weights, so every kept output is bit-identical, which
the script checks on every photo in Tests/SwingPoseTests/Fixtures before writing.

    .deps/venv/bin/python tools/prune_blazepose.py Models/pose_landmark_full.onnx [--out FILE]

Environment: the project's venv (scripts/setup.sh: onnx, onnxruntime, numpy, pillow). Writes in place
unless --out is given; a model already pruned is left as it is.
"""
import argparse
import glob
import hashlib
import os
import sys
import tempfile

import numpy as np

KEEP = ["Identity", "Identity_1", "Identity_3", "Identity_4"]
FIXTURES = os.path.join(os.path.dirname(__file__), "..", "Tests", "SwingPoseTests", "Fixtures")


def photos(size=256):
    """Every fixture photo resized to the model's input, [0, 1] NHWC (people and no people)."""
    from PIL import Image
    for path in sorted(glob.glob(os.path.join(FIXTURES, "*.png")) + glob.glob(os.path.join(FIXTURES, "*.jpg"))):
        img = Image.open(path).convert("RGB").resize((size, size), Image.BILINEAR)
        yield os.path.basename(path), (np.asarray(img, dtype=np.float32) / 255.0)[None]


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("model")
    ap.add_argument("--out", help="where to write (default: over MODEL)")
    a = ap.parse_args()
    import onnx
    import onnxruntime as ort
    names = [o.name for o in onnx.load(a.model, load_external_data=False).graph.output]
    missing = [k for k in KEEP if k not in names]
    if missing:
        sys.exit(f"{a.model} has no output {', '.join(missing)}: not BlazePose's landmark model")
    if names == KEEP and not a.out:
        print(f"{a.model}: already pruned (outputs {', '.join(KEEP)}); unchanged")
        return
    with tempfile.TemporaryDirectory() as tmp:
        pruned = os.path.join(tmp, "pruned.onnx")
        onnx.utils.extract_model(a.model, pruned, ["input_1"], KEEP)
        full = ort.InferenceSession(a.model, providers=["CPUExecutionProvider"])
        small = ort.InferenceSession(pruned, providers=["CPUExecutionProvider"])
        checked = 0
        for name, x in photos():
            want = full.run(KEEP, {"input_1": x})
            got = small.run(KEEP, {"input_1": x})
            for k, w, g in zip(KEEP, want, got):
                if w.shape != g.shape or not np.array_equal(w, g):
                    sys.exit(f"{k} differs on {name}: not written")
            checked += 1
        if checked == 0:
            sys.exit(f"no photos in {FIXTURES} to check with: not written")
        data = open(pruned, "rb").read()
    out = a.out or a.model
    # Written beside the target and renamed over it, so a full disk or a missing folder never leaves a
    # half-written model (in place, the committed one).
    # (Only for a regular file: a device or a pipe is written as it is, never replaced.)
    special = os.path.exists(out) and not os.path.isfile(out)
    tmp = out if special else out + ".partial"
    try:
        with open(tmp, "wb") as f:
            f.write(data)
        if not special:
            os.replace(tmp, out)
    except OSError as e:
        if not special and os.path.exists(tmp):
            os.remove(tmp)
        sys.exit(f"could not write {out}: {e.strerror}" + ("" if special else "; nothing was changed"))
    print(f"{out}: outputs {', '.join(KEEP)}; bit-identical on {checked} photos; "
          f"{len(data) / 1e6:.1f} MB; sha256 {hashlib.sha256(data).hexdigest()}")


if __name__ == "__main__":
    main()
