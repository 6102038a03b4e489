#!/usr/bin/env python3
"""An int8 BlazePose landmark model (issue #28's lever), measured against the float model.

Quantizes Models/pose_landmark_full.onnx with ONNX Runtime's static quantization (QDQ, per-channel int8
weights, uint8 activations) calibrated on CALIB.npy, once per calibration method, and prints for each:
single-thread inference time against the float model, and on TEST.npy (crops the calibration never saw)
how far the int8 model's world landmarks are from the float model's (mean over the 33 body landmarks, cm)
and its image landmarks (pixels of the 256 crop). Crops: bench/pose_int8_crops.py.

    .deps/venv/bin/python bench/pose_int8.py CALIB.npy TEST.npy
"""
import os
import sys
import tempfile
import time

import numpy as np
import onnxruntime as ort
from onnxruntime.quantization import (CalibrationDataReader, CalibrationMethod, QuantFormat, QuantType,
                                      quantize_static)

MODEL = os.path.join(os.path.dirname(__file__), "..", "Models", "pose_landmark_full.onnx")


class Crops(CalibrationDataReader):
    def __init__(self, crops):
        self.it = iter(crops)

    def get_next(self):
        v = next(self.it, None)
        return None if v is None else {"input_1": v[None]}


def session(path):
    o = ort.SessionOptions()
    o.intra_op_num_threads = 1
    return ort.InferenceSession(path, o, providers=["CPUExecutionProvider"])


def ms_per_run(s, x, n=100):
    for _ in range(10):
        s.run(None, {"input_1": x})
    t = time.perf_counter()
    for _ in range(n):
        s.run(None, {"input_1": x})
    return (time.perf_counter() - t) / n * 1000


def main():
    calib, test = np.load(sys.argv[1]), np.load(sys.argv[2])
    print(f"int8 landmark model: calibrated on {len(calib)} crops, compared on {len(test)} others "
          f"(each method compared on those where the float model sees a person)")
    flt = session(MODEL)
    names = [o.name for o in flt.get_outputs()]
    world, image = names.index("Identity_4"), names.index("Identity")
    for label, method in [("MinMax", CalibrationMethod.MinMax), ("Entropy", CalibrationMethod.Entropy),
                          ("Percentile 99.99", CalibrationMethod.Percentile)]:
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "int8.onnx")
            quantize_static(MODEL, path, Crops(calib), quant_format=QuantFormat.QDQ,
                            activation_type=QuantType.QUInt8, weight_type=QuantType.QInt8, per_channel=True,
                            calibrate_method=method, extra_options={"CalibPercentile": 99.99})
            q = session(path)
            tf = ms_per_run(flt, test[0][None])
            tq = ms_per_run(q, test[0][None])
            dw, di = [], []
            for x in test:
                a, b = flt.run(None, {"input_1": x[None]}), q.run(None, {"input_1": x[None]})
                if a[1].item() < 0.5:
                    continue
                wa, wb = a[world].reshape(39, 3)[:33], b[world].reshape(39, 3)[:33]
                dw.append(float(np.linalg.norm(wa - wb, axis=1).mean() * 100))
                ia, ib = a[image].reshape(39, 5)[:33, :2], b[image].reshape(39, 5)[:33, :2]
                di.append(float(np.linalg.norm(ia - ib, axis=1).mean()))
            print(f"{label:17s} float {tf:5.2f} ms, int8 {tq:5.2f} ms ({tf / tq:.2f}x); world landmarks "
                  f"{np.mean(dw):5.2f} cm mean, {np.max(dw):5.2f} cm worst crop; image landmarks "
                  f"{np.mean(di):.2f} px of 256 ({len(dw)} crops)")


if __name__ == "__main__":
    main()
