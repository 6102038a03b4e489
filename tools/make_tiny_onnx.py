#!/usr/bin/env python3
"""Writes the tiny ONNX models the SwingInference tests run (a few hundred bytes each).

Why generated: the ORT binding must be checked against numbers we can derive by hand, so the
weights are fixed small integers and the expected outputs are recomputed with numpy below and in
the Swift tests.

Re-create the venv on a fresh machine (any Python 3.9–3.11):
    python3 -m venv /tmp/onnx-venv && /tmp/onnx-venv/bin/pip install onnx==1.15.0 numpy==1.26.4
Run (from the package root):
    /work/venvs/convert/bin/python tools/make_tiny_onnx.py   # or /tmp/onnx-venv/bin/python
Output: Tests/SwingInferenceTests/Fixtures/{affine,int_input,fixed_relu}.onnx
"""
import os

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Tests", "SwingInferenceTests", "Fixtures")
OPSET = [helper.make_opsetid("", 13)]
IR_VERSION = 8  # readable by ONNX Runtime >= 1.14, so the oldest supported runtime (1.17) loads it

# y = x @ W + b ; also z = x + 1 and the int64 argmax of y (an int64 output the binding must convert).
W = np.array([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]], dtype=np.float32)
B = np.array([0.5, -1.0], dtype=np.float32)


def affine():
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, ["batch", 3])  # dynamic batch axis
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT, ["batch", 2])
    z = helper.make_tensor_value_info("z", TensorProto.FLOAT, ["batch", 3])
    am = helper.make_tensor_value_info("argmax", TensorProto.INT64, ["batch"])
    nodes = [
        helper.make_node("MatMul", ["x", "W"], ["xw"]),
        helper.make_node("Add", ["xw", "B"], ["y"]),
        helper.make_node("Add", ["x", "one"], ["z"]),
        helper.make_node("ArgMax", ["y"], ["argmax"], axis=1, keepdims=0),
    ]
    inits = [numpy_helper.from_array(W, "W"), numpy_helper.from_array(B, "B"),
             numpy_helper.from_array(np.array(1.0, dtype=np.float32), "one")]
    graph = helper.make_graph(nodes, "affine_graph", [x], [y, z, am], inits)
    model = helper.make_model(graph, opset_imports=OPSET, producer_name="swingmaster-tests")
    model.ir_version = IR_VERSION
    # Ultralytics stores its metadata like this: `names` is a Python dict literal, not JSON.
    helper.set_model_props(model, {
        "task": "detect",
        "stride": "32",
        "imgsz": "[640, 640]",
        "names": "{0: 'person', 1: \"it's a racket\", 2: 'ball, tennis'}",
    })
    return model


def int_input():
    # An int64 input: the binding accepts float32 inputs only and must say so instead of crashing.
    i = helper.make_tensor_value_info("ids", TensorProto.INT64, [1, 4])
    o = helper.make_tensor_value_info("f", TensorProto.FLOAT, [1, 4])
    graph = helper.make_graph([helper.make_node("Cast", ["ids"], ["f"], to=TensorProto.FLOAT)], "int_graph", [i], [o])
    model = helper.make_model(graph, opset_imports=OPSET, producer_name="swingmaster-tests")
    model.ir_version = IR_VERSION
    return model


def fixed_relu():
    # Fully static NCHW-like shape, like a YOLO export: wrong shapes must be rejected before Run.
    i = helper.make_tensor_value_info("images", TensorProto.FLOAT, [1, 2, 2, 2])
    o = helper.make_tensor_value_info("out", TensorProto.FLOAT, [1, 2, 2, 2])
    graph = helper.make_graph([helper.make_node("Relu", ["images"], ["out"])], "relu_graph", [i], [o])
    model = helper.make_model(graph, opset_imports=OPSET, producer_name="swingmaster-tests")
    model.ir_version = IR_VERSION
    return model


def main():
    os.makedirs(OUT, exist_ok=True)
    for name, model in [("affine", affine()), ("int_input", int_input()), ("fixed_relu", fixed_relu())]:
        onnx.checker.check_model(model)
        path = os.path.join(OUT, f"{name}.onnx")
        onnx.save(model, path)
        print(f"wrote {os.path.relpath(path)} ({os.path.getsize(path)} bytes)")
    x = np.array([[1, 2, 3], [-1, 0, 0.5]], dtype=np.float32)
    y = x @ W + B
    print("reference: x =", x.tolist(), "-> y =", y.tolist(), "argmax =", y.argmax(1).tolist())


if __name__ == "__main__":
    main()
