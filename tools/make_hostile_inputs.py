#!/usr/bin/env python3
"""Writes the hostile inputs of the CLI fault suite (Tests/SwingBinaryTests/FaultSuiteTests.swift) into a folder.

Each file is a class of bad input the commands must refuse with a clear error (no signal, no hang, nothing
stored, inputs untouched):

  deep-names.onnx     a real YOLO-shaped ONNX model whose `names` metadata nests 50 000 levels deep
  huge-kpt.onnx       ... whose `kpt_shape` is [Int.max, 3] (task pose)
  huge-imgsz.onnx     ... whose `imgsz` is [99999999999, 640]
  many-classes.onnx   ... whose `names` lists 100 001 classes
  bomb.zip            a zip holding one 3 GiB `model.onnx` of zeros (deflated to ~14 MB)
  deep.json           100 000 nested `[`
  truncated.mp4       the first 20 % of the bundled sample
  empty.mp4           0 bytes
  text.mp4            a text file named like a video
  not-a-db/swingmaster.sqlite   5 000 random bytes where the database should be

Metadata is edited the way a hostile exporter would: by appending a protobuf `metadata_props` entry
(ModelProto field 14) to a real model; protobuf lets a repeated field appear anywhere and the later
entry of a key wins. Usage: make_hostile_inputs.py OUT_DIR (run from anywhere; paths are found from this file).
"""
import os
import sys
import zipfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MODEL = os.path.join(ROOT, "Tests", "SwingVisionTests", "Fixtures", "catalog_tiny.onnx")
SAMPLE = os.path.join(ROOT, "Samples", "demo_session.mp4")


def varint(n):
    out = bytearray()
    while True:
        b = n & 0x7F
        n >>= 7
        out.append(b | (0x80 if n else 0))
        if not n:
            return bytes(out)


def field(number, payload):
    return varint(number << 3 | 2) + varint(len(payload)) + payload


def with_metadata(pairs):
    data = open(MODEL, "rb").read()
    for key, value in pairs:
        data += field(14, field(1, key.encode()) + field(2, value.encode()))
    return data


def main(out):
    os.makedirs(os.path.join(out, "not-a-db"), exist_ok=True)
    depth = 50_000
    files = {
        "deep-names.onnx": with_metadata([("names", "{0: " * depth + "'x'" + "}" * depth)]),
        "huge-kpt.onnx": with_metadata([("task", "pose"), ("kpt_shape", "[9223372036854775807, 3]")]),
        "huge-imgsz.onnx": with_metadata([("imgsz", "[99999999999, 640]")]),
        "many-classes.onnx": with_metadata([("names", "{" + ", ".join(f"{i}: 'c'" for i in range(100_001)) + "}")]),
        "deep.json": b"[" * 100_000,
        "truncated.mp4": open(SAMPLE, "rb").read()[: os.path.getsize(SAMPLE) // 5],
        "empty.mp4": b"",
        "text.mp4": b"this is not a video\n",
        os.path.join("not-a-db", "swingmaster.sqlite"): os.urandom(5000),
    }
    for name, data in files.items():
        with open(os.path.join(out, name), "wb") as f:
            f.write(data)
    with zipfile.ZipFile(os.path.join(out, "bomb.zip"), "w", compression=zipfile.ZIP_DEFLATED, compresslevel=1) as z:
        with z.open("model.onnx", "w", force_zip64=True) as f:
            chunk = bytes(64 << 20)
            for _ in range(48):
                f.write(chunk)


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    main(sys.argv[1])
