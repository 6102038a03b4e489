#!/usr/bin/env python3
"""Convert MediaPipe's BlazePose TFLite models (detector + full landmark model) to ONNX.

Source: the `mediapipe==0.10.14` wheel on PyPI (Apache-2.0):
    mediapipe/modules/pose_detection/pose_detection.tflite
    mediapipe/modules/pose_landmark/pose_landmark_full.tflite

Environment (a fresh machine):
    python3.11 -m venv venv-convert
    venv-convert/bin/pip install tensorflow-cpu==2.15.1 tf2onnx==1.16.1 onnx==1.15.0 \
        onnxruntime==1.23.2 "numpy<2"
    venv-convert/bin/pip download mediapipe==0.10.14 --no-deps -d wheels   # any platform wheel works
Run:
    venv-convert/bin/python tools/convert_blazepose.py --wheel wheels/mediapipe-0.10.14-*.whl \
        --image Tests/SwingPoseTests/Fixtures/astronaut.png --out Models
    .deps/venv/bin/python tools/prune_blazepose.py Models/pose_landmark_full.onnx   # the committed model

Why the detector needs a pre-pass: `pose_detection.tflite` stores sparse float16 weights behind
DENSIFY ops, which tf2onnx cannot read. We run the TFLite interpreter with every intermediate tensor
preserved and *without* the XNNPACK delegate (with it the preserved values are wrong), copy each
DENSIFY output into a plain constant buffer, drop the DENSIFY ops and the sparsity info with TFLite's
flatbuffer object API, and convert the rewritten model.

The script verifies ONNX against TFLite on a real image (letterboxed / resized exactly as the models
expect) and exits non-zero if any output differs by more than --tolerance.
"""
import argparse
import glob
import hashlib
import os
import subprocess
import sys
import tempfile
import zipfile

import numpy as np

MODELS = {
    "pose_detection": "mediapipe/modules/pose_detection/pose_detection.tflite",
    "pose_landmark_full": "mediapipe/modules/pose_landmark/pose_landmark_full.tflite",
}


def extract(wheel, member, dest):
    with zipfile.ZipFile(wheel) as z:
        data = z.read(member)
    path = os.path.join(dest, os.path.basename(member))
    with open(path, "wb") as f:
        f.write(data)
    return path


def densify(src, dst):
    """Rewrite `src` so every DENSIFY output becomes a constant buffer; returns the number removed."""
    import flatbuffers
    import tensorflow as tf
    from tensorflow.lite.python import schema_py_generated as schema

    buf = open(src, "rb").read()
    model = schema.ModelT.InitFromObj(schema.Model.GetRootAsModel(buf, 0))
    densify_code = [i for i, c in enumerate(model.operatorCodes)
                    if max(c.builtinCode, c.deprecatedBuiltinCode) == schema.BuiltinOperator.DENSIFY]
    if not densify_code:
        with open(dst, "wb") as f:
            f.write(buf)
        return 0
    interp = tf.lite.Interpreter(
        model_path=src, experimental_preserve_all_tensors=True,
        experimental_op_resolver_type=tf.lite.experimental.OpResolverType.BUILTIN_WITHOUT_DEFAULT_DELEGATES)
    interp.allocate_tensors()
    for d in interp.get_input_details():
        interp.set_tensor(d["index"], np.zeros(d["shape"], dtype=d["dtype"]))
    interp.invoke()
    removed = 0
    for sg in model.subgraphs:
        keep = []
        for op in sg.operators:
            if op.opcodeIndex in densify_code:
                sparse_in, dense_out = op.inputs[0], op.outputs[0]
                dense = interp.get_tensor(dense_out)
                # The sparse tensor and the DENSIFY output both become the same dense constant
                # (the interpreter validates every constant's byte size, used or not).
                b = model.buffers[sg.tensors[sparse_in].buffer]
                b.data = np.frombuffer(dense.tobytes(), dtype=np.uint8)
                sg.tensors[sparse_in].sparsity = None
                sg.tensors[dense_out].buffer = sg.tensors[sparse_in].buffer
                removed += 1
            else:
                keep.append(op)
        sg.operators = keep
    builder = flatbuffers.Builder(1024)
    builder.Finish(model.Pack(builder), file_identifier=b"TFL3")
    with open(dst, "wb") as f:
        f.write(builder.Output())
    return removed


def to_onnx(tflite, onnx_path):
    subprocess.run([sys.executable, "-m", "tf2onnx.convert", "--tflite", tflite, "--opset", "17",
                    "--output", onnx_path], check=True, stdout=subprocess.DEVNULL)


def model_input(image_path, size, detector):
    """The image as the model sees it: detector = letterbox to size, [-1,1]; landmark = resize, [0,1]."""
    import tensorflow as tf
    img = tf.io.decode_image(open(image_path, "rb").read(), channels=3, expand_animations=False)
    img = tf.cast(img, tf.float32)
    if detector:
        x = tf.image.resize_with_pad(img, size, size, method="bilinear", antialias=True) / 127.5 - 1.0
    else:
        x = tf.image.resize(img, (size, size), method="bilinear", antialias=True) / 255.0
    return x.numpy()[None].astype(np.float32)


def verify(tflite, onnx_path, image, detector, tol):
    import onnxruntime as ort
    import tensorflow as tf
    interp = tf.lite.Interpreter(model_path=tflite)
    interp.allocate_tensors()
    inp = interp.get_input_details()[0]
    x = model_input(image, int(inp["shape"][1]), detector)
    interp.set_tensor(inp["index"], x)
    interp.invoke()
    ref = {d["name"]: interp.get_tensor(d["index"]) for d in interp.get_output_details()}
    sess = ort.InferenceSession(onnx_path, providers=["CPUExecutionProvider"])
    got = sess.run(None, {sess.get_inputs()[0].name: x})
    worst = 0.0
    for o, g in zip(sess.get_outputs(), got):
        r = ref[o.name]
        diff = float(np.max(np.abs(r.astype(np.float64) - g.astype(np.float64))))
        scale = float(np.max(np.abs(r))) or 1.0
        print(f"  {o.name:24s} shape={list(g.shape)} max|diff|={diff:.3g} (max|ref|={scale:.3g})")
        worst = max(worst, diff / max(scale, 1.0))
    return worst <= tol, worst


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--wheel", help="mediapipe-0.10.14 wheel (default: first in ./wheels or pip cache)")
    ap.add_argument("--image", required=True, help="a real photo of a person used for verification")
    ap.add_argument("--out", default="Models")
    ap.add_argument("--tolerance", type=float, default=2e-3,
                    help="max |onnx - tflite| relative to max(1, max|tflite|) per output")
    a = ap.parse_args()
    wheel = a.wheel or next(iter(sorted(glob.glob("wheels/mediapipe-0.10.14-*.whl"))), None)
    if not wheel:
        sys.exit("no wheel: pass --wheel (pip download mediapipe==0.10.14 --no-deps -d wheels)")
    os.makedirs(a.out, exist_ok=True)
    ok_all = True
    with tempfile.TemporaryDirectory() as tmp:
        for name, member in MODELS.items():
            src = extract(wheel, member, tmp)
            dense = os.path.join(tmp, name + "_dense.tflite")
            n = densify(src, dense)
            out = os.path.join(a.out, name + ".onnx")
            print(f"{name}: {n} DENSIFY ops folded; converting")
            to_onnx(dense, out)
            ok, worst = verify(src, out, a.image, name == "pose_detection", a.tolerance)
            print(f"  -> {'OK' if ok else 'MISMATCH'} (worst relative diff {worst:.3g}); "
                  f"sha256 {hashlib.sha256(open(out, 'rb').read()).hexdigest()}")
            ok_all &= ok
    if not ok_all:
        sys.exit("ONNX output differs from TFLite beyond tolerance")


if __name__ == "__main__":
    main()
