#!/usr/bin/env python3
"""Make a YOLO11n export whose class scores look like a trained model's, for benchmarks.

The YOLO fixture (Tests/SwingVisionTests/Fixtures/yolo/yolo11n.onnx, seeded random weights) scores almost
every anchor near 1, so every frame has 8,400 candidates and 300 detections, and post-processing dominates
any timing. A trained detector passes a few dozen anchors at conf 0.25. This script inserts one `Add`
of a constant before the class head's Sigmoid (logit - SHIFT), which leaves the graph, its size and its
inference cost unchanged and moves the scores down: with the default shift about 1 % of the anchors
stay above 0.25 (printed). Not a trained model: for timing only.

Run: $SWINGMASTER_PYTHON tools/make_realistic_yolo.py OUT.onnx [--shift 17]   (needs onnx==1.19.1, numpy)
"""
import argparse
import numpy as np
import onnx
from onnx import helper, numpy_helper

ROOT = __import__("pathlib").Path(__file__).resolve().parent.parent
ap = argparse.ArgumentParser()
ap.add_argument("out")
ap.add_argument("--shift", type=float, default=17.0)
a = ap.parse_args()
m = onnx.load(str(ROOT / "Tests/SwingVisionTests/Fixtures/yolo/yolo11n.onnx"))
g = m.graph
sig = next(n for n in g.node if n.op_type == "Sigmoid" and n.output[0] == "/model.23/Sigmoid_output_0")
g.initializer.append(numpy_helper.from_array(np.array(-a.shift, np.float32), "score_shift"))
shifted = sig.input[0] + "_shifted"
add = helper.make_node("Add", [sig.input[0], "score_shift"], [shifted], name="score_shift_add")
g.node.insert(list(g.node).index(sig), add)
sig.input[0] = shifted
onnx.checker.check_model(m)
onnx.save(m, a.out)
try:
    import onnxruntime as ort
    s = ort.InferenceSession(a.out)
    x = np.random.RandomState(0).rand(1, 3, 640, 640).astype(np.float32)
    scores = s.run(None, {s.get_inputs()[0].name: x})[0][0][4:].max(0)
    print(f"{a.out}: {(scores > 0.25).sum()} of {scores.size} anchors above 0.25 on noise")
except ImportError:
    pass
