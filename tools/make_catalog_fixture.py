#!/usr/bin/env python3
"""Write Tests/SwingVisionTests/Fixtures/catalog_tiny.onnx: a real (tiny) ONNX model carrying the
metadata_props Ultralytics writes (task, names as a Python dict literal, imgsz, stride, description),
with a [1, 3, 64, 96] input. The catalog tests read its metadata without ONNX Runtime.

Venv (one-off; not needed by `make test`):
    python3 -m venv /tmp/onnx-venv && /tmp/onnx-venv/bin/pip install onnx==1.15.0 "numpy<2"
    /tmp/onnx-venv/bin/python tools/make_catalog_fixture.py
(On the project machine /work/venvs/convert already has onnx 1.15.)
"""
import pathlib

import onnx
from onnx import TensorProto, helper


def main() -> None:
    x = helper.make_tensor_value_info("images", TensorProto.FLOAT, [1, 3, 64, 96])
    y = helper.make_tensor_value_info("output0", TensorProto.FLOAT, [1, 3, 64, 96])
    graph = helper.make_graph([helper.make_node("Identity", ["images"], ["output0"])], "tiny", [x], [y])
    model = helper.make_model(graph, producer_name="swingmaster-fixture",
                              opset_imports=[helper.make_opsetid("", 13)])
    model.ir_version = 8
    meta = {
        "description": "Tiny catalog fixture",
        "task": "detect",
        "stride": "32",
        "imgsz": "[64, 96]",
        # A Python dict literal, quotes inside names included, as Ultralytics writes it.
        "names": "{0: 'tennis racket', 1: 'sports ball', 2: \"player's shadow\", 3: 'net'}",
    }
    for k, v in meta.items():
        model.metadata_props.add(key=k, value=v)
    onnx.checker.check_model(model)
    out = pathlib.Path(__file__).resolve().parent.parent / "Tests/SwingVisionTests/Fixtures/catalog_tiny.onnx"
    onnx.save(model, out)
    print(out, out.stat().st_size, "bytes")


if __name__ == "__main__":
    main()
