#!/usr/bin/env python3
"""Unpack the recorded sounds of Tennix 1.1 (Debian's `tennix` package) into mono WAV files.

Tennix keeps its data in one archive, `tennix.tnx`: a 30-byte magic ("thpinfo.com/2009/tennix/afmt "),
version major and minor, a one-byte key and the item count; then one 100-byte index entry per item
(86-byte NUL-padded name, 2 bytes of padding, big-endian offset and length, the item's own one-byte key),
XOR-ed with the header's key; each item's bytes are XOR-ed with its own key. The format is Tennix's
(archive.hh, GPL-2+); this reader is ours.

Sounds (`data/*.ogg`, © 2004–2007 MelodyLoops.com, public domain per the package's copyright file):
racket1 and racket2 (hits, 44.1 kHz), ground1 and ground2 (bounces, 44.1 kHz), audience and applause
(crowd, 11 kHz), out (a line judge's call, 8 kHz), rain (44.1 kHz). They are written as 16-bit mono WAV at
their own rate; `tools/make_recorded_tracks.py --corpus tennix` mixes them.

    tennix_sounds.py TENNIX_TNX OUT_DIR          (needs the ffmpeg command)
"""
import os
import struct
import subprocess
import sys
import tempfile

MAGIC = b"thpinfo.com/2009/tennix/afmt \x00"
SOUNDS = ("racket1", "racket2", "ground1", "ground2", "audience", "applause", "out", "rain")


def items(blob):
    """Yields (name, bytes) for every item of a Tennix archive."""
    if blob[:30] != MAGIC or len(blob) < 34:
        raise SystemExit("not a Tennix archive (the magic is missing)")
    key, count = blob[32], blob[33]
    for i in range(count):
        start = 34 + 100 * i
        entry = bytes(b ^ key for b in blob[start:start + 100])
        if len(entry) < 97:
            raise SystemExit("the Tennix archive's index is cut short")
        name = entry[:86].split(b"\x00")[0].decode("ascii", "replace")
        offset, length = struct.unpack(">II", entry[88:96])
        if offset + length > len(blob):
            raise SystemExit(f"item {name} lies past the end of the archive")
        yield name, bytes(b ^ entry[96] for b in blob[offset:offset + length])


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    if len(argv) != 2:
        raise SystemExit(__doc__.strip().splitlines()[-1].strip())
    with open(argv[0], "rb") as f:
        blob = f.read()
    os.makedirs(argv[1], exist_ok=True)
    found = {name[:-4]: data for name, data in items(blob) if name.endswith(".ogg")}
    missing = [s for s in SOUNDS if s not in found]
    if missing:
        raise SystemExit(f"the archive has no {', '.join(missing)}")
    with tempfile.TemporaryDirectory() as tmp:
        for sound in SOUNDS:
            ogg = os.path.join(tmp, sound + ".ogg")
            with open(ogg, "wb") as f:
                f.write(found[sound])
            subprocess.run(["ffmpeg", "-v", "error", "-y", "-i", ogg, "-ac", "1", "-c:a", "pcm_s16le",
                            os.path.join(argv[1], sound + ".wav")], check=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
