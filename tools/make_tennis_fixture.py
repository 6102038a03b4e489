#!/usr/bin/env python3
"""Write a tiny ONNX "YOLO detect export" that finds a tennis racket and a ball touching it, for the studio's
tennis-mode tests (Tests/SwingServerTests/StudioTennisTests.swift, Tests/browser/test_studio.py).

Why: no trained racket/ball model is available offline, and the random-weight fixtures never score a racket
and a ball together, so the tennis-contact banner could not be seen. This graph has the layout of an
Ultralytics YOLO11 detect export at 160 px (input `images` [1, 3, 160, 160], output `output0` [1, 84, 525],
COCO's 80 names in the metadata): the engine letterboxes, runs, decodes, applies NMS and interprets it as it
does any export. Two anchors carry boxes, in the letterboxed input's pixels: a racket (class 38, score 0.9)
and a ball (class 32, score 0.8) whose centre lies inside the racket box (the interpreter's proximity rule).
Their scores are multiplied by min(1, 10 · the brightest input value), so a black picture gives no detection
and any other picture gives both. Everything else scores 0.

Run: $SWINGMASTER_PYTHON tools/make_tennis_fixture.py [OUT.onnx]   (needs onnx, numpy)
     default OUT: Tests/SwingVisionTests/Fixtures/yolo/tennis-contact.onnx
"""
import sys
from pathlib import Path

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

ROOT = Path(__file__).resolve().parent.parent
OUT = Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "Tests/SwingVisionTests/Fixtures/yolo/tennis-contact.onnx"
SIZE = 160
ANCHORS = (SIZE // 8) ** 2 + (SIZE // 16) ** 2 + (SIZE // 32) ** 2  # 525, as a YOLO11 head at 160 px
COCO = ["person", "bicycle", "car", "motorcycle", "airplane", "bus", "train", "truck", "boat", "traffic light",
        "fire hydrant", "stop sign", "parking meter", "bench", "bird", "cat", "dog", "horse", "sheep", "cow",
        "elephant", "bear", "zebra", "giraffe", "backpack", "umbrella", "handbag", "tie", "suitcase", "frisbee",
        "skis", "snowboard", "sports ball", "kite", "baseball bat", "baseball glove", "skateboard", "surfboard",
        "tennis racket", "bottle", "wine glass", "cup", "fork", "knife", "spoon", "bowl", "banana", "apple",
        "sandwich", "orange", "broccoli", "carrot", "hot dog", "pizza", "donut", "cake", "chair", "couch",
        "potted plant", "bed", "dining table", "toilet", "tv", "laptop", "mouse", "remote", "keyboard",
        "cell phone", "microwave", "oven", "toaster", "sink", "refrigerator", "book", "clock", "vase", "scissors",
        "teddy bear", "hair drier", "toothbrush"]
RACKET, BALL = COCO.index("tennis racket"), COCO.index("sports ball")

# Boxes (cx, cy, w, h) in the 160×160 letterboxed input: the racket, and the ball at its upper right inside it.
boxes = np.array([[80, 88], [76, 70], [40, 8], [56, 8]], dtype=np.float32).reshape(1, 4, 2)
scores = np.zeros((1, len(COCO), 2), dtype=np.float32)
scores[0, RACKET, 0] = 0.9
scores[0, BALL, 1] = 0.8

nodes = [
    helper.make_node("ReduceMax", ["images"], ["brightest"], keepdims=0),
    helper.make_node("Mul", ["brightest", "ten"], ["lit"]),
    helper.make_node("Min", ["lit", "one"], ["gate"]),
    helper.make_node("Mul", ["scores", "gate"], ["gated"]),
    helper.make_node("Concat", ["boxes", "gated"], ["two"], axis=1),
    helper.make_node("Pad", ["two", "pads"], ["output0"], mode="constant"),
]
inits = [
    numpy_helper.from_array(boxes, "boxes"),
    numpy_helper.from_array(scores, "scores"),
    numpy_helper.from_array(np.array(10, np.float32), "ten"),
    numpy_helper.from_array(np.array(1, np.float32), "one"),
    numpy_helper.from_array(np.array([0, 0, 0, 0, 0, ANCHORS - 2], np.int64), "pads"),
]
graph = helper.make_graph(
    nodes, "tennis_contact_fixture",
    [helper.make_tensor_value_info("images", TensorProto.FLOAT, [1, 3, SIZE, SIZE])],
    [helper.make_tensor_value_info("output0", TensorProto.FLOAT, [1, 4 + len(COCO), ANCHORS])], inits)
model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)], producer_name="swingmaster-tests")
model.ir_version = 8
helper.set_model_props(model, {
    "description": "Swingmaster test fixture: a racket and a ball touching (tools/make_tennis_fixture.py)",
    "task": "detect", "stride": "32", "batch": "1", "imgsz": f"[{SIZE}, {SIZE}]",
    "names": "{" + ", ".join(f"{i}: '{n}'" for i, n in enumerate(COCO)) + "}",
})
onnx.checker.check_model(model)
onnx.save(model, str(OUT))
print(f"{OUT}: {OUT.stat().st_size} bytes")
