#!/usr/bin/env python3
"""Writes the frame-size sweep used by Tests/SwingSweepTests (issue #10, part 1).

Every size and pixel layout a user's camera, phone or editor produces, so the engine's buffers are
exercised at every row length modulo the SIMD block sizes, not only at the sizes we happen to film:

  images/  w x h for w in 1..130 at h in 1, 2, 3, 17 and the large sizes below, as
           JPEG 4:2:0 / 4:2:2 / 4:4:4 / greyscale / progressive (Pillow = libjpeg-turbo) and
           PNG RGB / RGBA / grey / 16-bit RGB. Small sizes rotate through the variants (each width
           and height meets every variant across the sweep); the large sizes get every variant.
  images/exif/  the 8 EXIF orientations as JPEG (37x23 and a 1080x810 phone photo) and PNG eXIf,
           CMYK JPEG, and JPEGs cut short (a broken tail); the reference is cv2.imread, which turns
           the picture upright (issue #10, part 2).
  videos/  2-frame H.264, HEVC and VP9 clips in yuv420p, yuvj420p and yuv444p at the large sizes, and
           H.264 / VP9 at even sizes 2..130 x 18 (4:2:0 encoders need even sizes), made with the ffmpeg CLI.

Usage: make_size_sweep.py OUT_DIR   (idempotent: a finished OUT_DIR/manifest.json is kept)
The manifest lists every file with its width, height and kind, and for images a reference decode
(Pillow = libjpeg-turbo / libpng, as cv2.imread gives) as binary PPM.
"""
import json
import os
import subprocess
import sys

import numpy as np
from PIL import Image

SMALL_WIDTHS = range(1, 131)
SMALL_HEIGHTS = [1, 2, 3, 17]
LARGE = [(1080, 1920), (720, 1280), (810, 1080), (1080, 810), (808, 1080), (1366, 768), (1440, 2560), (4096, 2160)]
IMAGE_VARIANTS = ["jpeg420", "jpeg422", "jpeg444", "jpeggrey", "jpegprogressive", "png", "pngrgba", "pnggrey", "png16"]
VIDEO_CODECS = [("h264", "libx264", "mp4"), ("hevc", "libx265", "mp4"), ("vp9", "libvpx-vp9", "webm")]
# libx265 refuses or crashes on tiny pictures (10x18 refused, 34x18 4:4:4 segfaults), so HEVC is
# swept at the large sizes only; the small even sizes alternate H.264 and VP9.
SMALL_VIDEO_CODECS = [VIDEO_CODECS[0], VIDEO_CODECS[2]]
VIDEO_FORMATS = ["yuv420p", "yuvj420p", "yuv444p"]
VERSION = 4   # bump when the set changes so cached sweeps are rebuilt


def picture(w, h):
    """A gradient with a diagonal edge: content in every row and column, nothing flat."""
    y, x = np.mgrid[0:h, 0:w]
    r = (x * 255 // max(w - 1, 1)).astype(np.uint8)
    g = (y * 255 // max(h - 1, 1)).astype(np.uint8)
    b = (((x + y) % 32) * 8).astype(np.uint8)
    return np.dstack([r, g, b])


def write_image(path, rgb, variant):
    img = Image.fromarray(rgb, "RGB")
    if variant.startswith("jpeg"):
        sub = {"jpeg420": 2, "jpeg422": 1, "jpeg444": 0}.get(variant, 2)
        if variant == "jpeggrey":
            img = img.convert("L")
        img.save(path, "JPEG", quality=90, subsampling=sub, progressive=variant == "jpegprogressive")
    elif variant == "png":
        img.save(path, "PNG")
    elif variant == "pngrgba":
        a = Image.fromarray(((rgb[:, :, 0].astype(np.uint16) + 64) % 256).astype(np.uint8), "L")
        img.putalpha(a)
        img.save(path, "PNG")
    elif variant == "pnggrey":
        img.convert("L").save(path, "PNG")
    elif variant == "png16":
        # 16-bit RGB PNG: Pillow cannot write it, so build the chunks with zlib.
        import struct
        import zlib
        h, w, _ = rgb.shape
        data = (rgb.astype(">u2") * 257).tobytes()
        stride = w * 6
        raw = b"".join(b"\x00" + data[i * stride:(i + 1) * stride] for i in range(h))

        def chunk(tag, body):
            return struct.pack(">I", len(body)) + tag + body + struct.pack(">I", zlib.crc32(tag + body) & 0xFFFFFFFF)
        with open(path, "wb") as f:
            f.write(b"\x89PNG\r\n\x1a\n")
            f.write(chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 16, 2, 0, 0, 0)))
            f.write(chunk(b"IDAT", zlib.compress(raw, 6)))
            f.write(chunk(b"IEND", b""))
    else:
        raise ValueError(variant)


def write_exif_and_damaged(out):
    """Orientation, CMYK and truncated JPEGs, with cv2.imread's decode as the reference."""
    import io
    import cv2
    os.makedirs(os.path.join(out, "images", "exif"), exist_ok=True)
    entries = []

    def add(name, variant, expect="exact"):
        path = os.path.join(out, name)
        ref = cv2.imread(path, cv2.IMREAD_COLOR)
        entry = {"path": name, "kind": "image", "variant": variant, "expect": expect}
        if ref is not None:
            h, w, _ = ref.shape
            Image.fromarray(ref[:, :, ::-1]).save(path + ".ppm")
            entry.update({"width": w, "height": h, "reference": path[len(out) + 1:] + ".ppm"})
        else:
            entry.update({"width": 0, "height": 0, "reference": None})
        entries.append(entry)

    for (w, h) in [(37, 23), (1080, 810)]:
        rgb = picture(w, h)
        img = Image.fromarray(rgb, "RGB")
        for o in range(1, 9):
            exif = Image.Exif()
            exif[0x0112] = o
            name = f"images/exif/{w}x{h}-o{o}.jpg"
            img.save(os.path.join(out, name), "JPEG", quality=90, exif=exif.tobytes())
            add(name, "jpegexif")
            if w < 100:
                name = f"images/exif/{w}x{h}-o{o}.png"
                img.save(os.path.join(out, name), "PNG", exif=exif.tobytes())
                add(name, "pngexif")
        name = f"images/exif/{w}x{h}-cmyk.jpg"
        img.convert("CMYK").save(os.path.join(out, name), "JPEG", quality=95)
        add(name, "jpegcmyk")
        # A JPEG cut at 60 % and one cut inside its header: a picture (missing rows filled, as
        # OpenCV does) or a clear error, never a crash.
        buf = io.BytesIO()
        img.save(buf, "JPEG", quality=90)
        data = buf.getvalue()
        for tag, cut in [("tail", int(len(data) * 0.6)), ("header", 40)]:
            name = f"images/exif/{w}x{h}-cut-{tag}.jpg"
            with open(os.path.join(out, name), "wb") as f:
                f.write(data[:cut])
            add(name, "jpegcut", expect="decodeOrRefuse")
    return entries


def main():
    out = sys.argv[1]
    manifest_path = os.path.join(out, "manifest.json")
    if os.path.exists(manifest_path):
        with open(manifest_path) as f:
            if json.load(f).get("version") == VERSION:
                return
    os.makedirs(os.path.join(out, "images"), exist_ok=True)
    os.makedirs(os.path.join(out, "videos"), exist_ok=True)
    entries = []
    sizes = []
    i = 0
    for h in SMALL_HEIGHTS:
        for w in SMALL_WIDTHS:
            sizes.append((w, h, [IMAGE_VARIANTS[i % len(IMAGE_VARIANTS)]]))
            i += 1
    sizes += [(w, h, IMAGE_VARIANTS) for (w, h) in LARGE]
    for w, h, variants in sizes:
        rgb = picture(w, h)
        for v in variants:
            ext = "jpg" if v.startswith("jpeg") else "png"
            name = f"images/{w}x{h}-{v}.{ext}"
            write_image(os.path.join(out, name), rgb, v)
            # The reference decode: Pillow (libjpeg-turbo, libpng) as RGB, what cv2.imread users get.
            with Image.open(os.path.join(out, name)) as im:
                im.convert("RGB").save(os.path.join(out, name + ".ppm"))
            entries.append({"path": name, "kind": "image", "variant": v, "width": w, "height": h,
                            "reference": name + ".ppm"})

    entries += write_exif_and_damaged(out)

    video_sizes = [(w, 18) for w in range(2, 131, 2)] + LARGE
    j = 0
    for (w, h) in video_sizes:
        large = (w, h) in LARGE
        combos = [(c, p) for c in VIDEO_CODECS for p in VIDEO_FORMATS] if large else \
                 [(SMALL_VIDEO_CODECS[j % 2], VIDEO_FORMATS[(j // 2) % 3])]
        j += 1
        for (codec, encoder, container), pix in combos:
            name = f"videos/{w}x{h}-{codec}-{pix}.{container}"
            path = os.path.join(out, name)
            args = ["ffmpeg", "-hide_banner", "-loglevel", "error", "-nostdin", "-y",
                    "-f", "lavfi", "-i", f"testsrc2=size={w}x{h}:rate=10", "-frames:v", "2",
                    "-c:v", encoder, "-pix_fmt", pix]
            if codec == "hevc":
                args += ["-x265-params", "log-level=error", "-preset", "ultrafast", "-tag:v", "hvc1"]
            elif codec == "h264":
                args += ["-preset", "ultrafast"]
            else:
                args += ["-deadline", "realtime", "-cpu-used", "8"]
            subprocess.run(args + [path], check=True)
            entries.append({"path": name, "kind": "video", "variant": f"{codec}-{pix}", "width": w, "height": h})

    with open(manifest_path + ".tmp", "w") as f:
        json.dump({"version": VERSION, "entries": entries}, f, indent=0)
    os.replace(manifest_path + ".tmp", manifest_path)


if __name__ == "__main__":
    main()
