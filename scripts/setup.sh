#!/usr/bin/env bash
# Idempotent machine set-up for Swingmaster. Called by every Makefile target.
#  1. Debian packages: FFmpeg dev libraries (+ the ffmpeg CLI used by tests to encode fixtures),
#     libjpeg-turbo's TurboJPEG (JPEG decoding as OpenCV/Pillow do it), pkg-config, SQLite,
#     chromium + chromedriver (browser tests) — installed only when missing.
#  2. ONNX Runtime shared library from the pinned `onnxruntime` wheel on PyPI, checksum-verified,
#     extracted to .deps/onnxruntime/lib (the binary finds it there; SWINGMASTER_ONNXRUNTIME overrides).
#  3. A Python venv (.deps/venv, sees system site-packages) with numpy, scipy and the same
#     onnxruntime, used only by the Python reference implementations, tests and benchmarks; Pillow
#     and opencv-python-headless (reference decodes for the frame-size sweep: libjpeg-turbo, libpng,
#     EXIF orientation as cv2.imread applies it) and selenium (drives the Debian chromium in the
#     browser tests), pinned below.
#  4. Recorded tennis sounds (Free Tennis 0.4.8's sound effects, GPL-2+, from Debian's checksum-pinned
#     `freetennis-common` package) unpacked to .deps/sounds/freetennis, for the recorded-sound contact
#     measurements (tools/make_recorded_tracks.py, bench/recorded_contacts.sh); and Tennix 1.1's
#     (MelodyLoops.com, public domain, from Debian's checksum-pinned `tennix` package, amd64) unpacked by
#     tools/tennix_sounds.py to .deps/sounds/tennix. Never committed.
set -euo pipefail
cd "$(dirname "$0")/.."

ORT_VERSION="1.23.2"
ORT_WHEEL="onnxruntime-${ORT_VERSION}-cp311-cp311-manylinux_2_27_x86_64.manylinux_2_28_x86_64.whl"
ORT_SHA256="da44b99206e77734c5819aa2142c69e64f3b46edc3bd314f6a45a932defc0b3e"
DEPS=".deps"
PY_PINS=(numpy==2.4.6 scipy==1.17.1 pillow==13.0.0 opencv-python-headless==4.12.0.88 selenium==4.51.0)
FREETENNIS_DEB="freetennis-common_0.4.8-14_all.deb"
FREETENNIS_SHA256="33e49368e75e2aaaa4ce036c07bd5eb34085359b0cf082d21c448fc7af3290d4"
TENNIX_DEB="tennix_1.1-3.2+b3_amd64.deb"
TENNIX_SHA256="0aa7beb065627217fff2dbcba0745b13a809ebcbd2fddab5570b547f44040374"
STAMP="$DEPS/.setup-ok-${ORT_VERSION}-v8"

say() { printf 'setup: %s\n' "$*" >&2; }

if [ -f "$STAMP" ] && [ -z "${SWINGMASTER_FORCE_SETUP:-}" ]; then
  exit 0
fi

# ---- 1. Debian packages -------------------------------------------------------------------
if [ "$(uname -s)" = "Linux" ] && command -v apt-get >/dev/null; then
  pkgs=(ffmpeg libavformat-dev libavcodec-dev libavutil-dev libswresample-dev libswscale-dev
        libturbojpeg0-dev pkg-config libsqlite3-dev python3-venv unzip time chromium chromium-driver wrk)
  missing=()
  for p in "${pkgs[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  if [ ${#missing[@]} -gt 0 ]; then
    say "installing Debian packages: ${missing[*]}"
    SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
  fi
elif [ "$(uname -s)" = "Darwin" ]; then
  command -v ffmpeg >/dev/null || { say "install FFmpeg first: brew install ffmpeg jpeg-turbo pkg-config"; exit 1; }
fi

# ---- 2. ONNX Runtime shared library ------------------------------------------------------
mkdir -p "$DEPS/wheels" "$DEPS/onnxruntime/lib"
wheel="$DEPS/wheels/$ORT_WHEEL"
if [ "$(uname -s)" = "Linux" ]; then
  if [ ! -f "$wheel" ] || ! echo "$ORT_SHA256  $wheel" | sha256sum -c --status; then
    say "downloading onnxruntime==$ORT_VERSION wheel"
    rm -f "$wheel"
    python3 -m pip download -q --no-deps --only-binary=:all: --python-version 3.11 \
      --platform manylinux_2_27_x86_64 -d "$DEPS/wheels" "onnxruntime==$ORT_VERSION"
  fi
  echo "$ORT_SHA256  $wheel" | sha256sum -c --status || { say "onnxruntime wheel checksum mismatch"; exit 1; }
  lib="$DEPS/onnxruntime/lib/libonnxruntime.so.$ORT_VERSION"
  if [ ! -f "$lib" ]; then
    unzip -q -o -j "$wheel" "onnxruntime/capi/libonnxruntime.so.$ORT_VERSION" -d "$DEPS/onnxruntime/lib"
  fi
  ln -sf "libonnxruntime.so.$ORT_VERSION" "$DEPS/onnxruntime/lib/libonnxruntime.so"
fi

# ---- 3. Python venv for reference implementations and benchmark peers --------------------
if [ ! -x "$DEPS/venv/bin/python" ]; then
  say "creating Python venv $DEPS/venv"
  python3 -m venv --system-site-packages "$DEPS/venv"
fi
if ! "$DEPS/venv/bin/python" -c "import numpy, scipy, onnxruntime; assert onnxruntime.__version__ == '$ORT_VERSION'" 2>/dev/null; then
  say "installing numpy, scipy, onnxruntime==$ORT_VERSION into the venv"
  "$DEPS/venv/bin/pip" install -q "${PY_PINS[@]:0:2}" "$wheel" 2>/dev/null \
    || "$DEPS/venv/bin/pip" install -q "${PY_PINS[@]:0:2}" "onnxruntime==$ORT_VERSION"
fi
if ! "$DEPS/venv/bin/python" -c "import PIL, cv2, selenium" 2>/dev/null; then
  say "installing ${PY_PINS[*]:2} into the venv"
  "$DEPS/venv/bin/pip" install -q "${PY_PINS[@]:2}"
fi

# ---- 4. Recorded tennis sounds ----------------------------------------------------------------
sounds="$DEPS/sounds/freetennis"
if [ "$(uname -s)" = "Linux" ] && command -v apt-get >/dev/null && [ ! -f "$sounds/colpo.wav" ]; then
  mkdir -p "$DEPS/debs" "$sounds"
  deb="$DEPS/debs/$FREETENNIS_DEB"
  if [ ! -f "$deb" ] || ! echo "$FREETENNIS_SHA256  $deb" | sha256sum -c --status; then
    say "downloading Debian's freetennis-common (recorded tennis sounds)"
    rm -f "$deb"
    (cd "$DEPS/debs" && apt-get download -qq freetennis-common=0.4.8-14 2>/dev/null) || {
      SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
      $SUDO apt-get update -qq && (cd "$DEPS/debs" && apt-get download -qq freetennis-common=0.4.8-14)
    }
  fi
  echo "$FREETENNIS_SHA256  $deb" | sha256sum -c --status || { say "freetennis-common checksum mismatch"; exit 1; }
  tmp="$(mktemp -d)"
  dpkg-deb -x "$deb" "$tmp"
  cp "$tmp"/usr/share/sounds/freetennis-common/sfx/*.wav "$sounds/"
  cp "$tmp"/usr/share/doc/freetennis-common/copyright "$sounds/COPYRIGHT"
  rm -rf "$tmp"
fi
# Debian's tennix: amd64 only (its data archive is the same on every architecture, the package is not).
sounds="$DEPS/sounds/tennix"
if [ "$(uname -s)" = "Linux" ] && command -v apt-get >/dev/null && [ "$(dpkg --print-architecture)" = "amd64" ] \
   && [ ! -f "$sounds/racket1.wav" ]; then
  mkdir -p "$DEPS/debs" "$sounds"
  deb="$DEPS/debs/$TENNIX_DEB"
  if [ ! -f "$deb" ] || ! echo "$TENNIX_SHA256  $deb" | sha256sum -c --status; then
    say "downloading Debian's tennix (recorded tennis sounds)"
    rm -f "$deb"
    (cd "$DEPS/debs" && apt-get download -qq tennix=1.1-3.2+b3 2>/dev/null) || {
      SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
      $SUDO apt-get update -qq && (cd "$DEPS/debs" && apt-get download -qq tennix=1.1-3.2+b3)
    }
  fi
  echo "$TENNIX_SHA256  $deb" | sha256sum -c --status || { say "tennix checksum mismatch"; exit 1; }
  tmp="$(mktemp -d)"
  dpkg-deb -x "$deb" "$tmp"
  "$DEPS/venv/bin/python" tools/tennix_sounds.py "$tmp/usr/share/games/tennix/tennix.tnx" "$sounds"
  cp "$tmp"/usr/share/doc/tennix/copyright "$sounds/COPYRIGHT"
  rm -rf "$tmp"
fi

# ---- verify ---------------------------------------------------------------------------------
pkg-config --exists libavformat libavcodec libswresample libswscale libturbojpeg || { say "FFmpeg or TurboJPEG pkg-config files missing"; exit 1; }
command -v ffmpeg >/dev/null || { say "ffmpeg CLI missing"; exit 1; }
"$DEPS/venv/bin/python" -c "import numpy, scipy, onnxruntime, PIL, cv2, selenium" || { say "Python venv broken"; exit 1; }
if [ "$(uname -s)" = "Linux" ]; then
  command -v chromium >/dev/null && command -v chromedriver >/dev/null || { say "chromium / chromedriver missing"; exit 1; }
fi
command -v swift >/dev/null || [ -x /opt/swift/usr/bin/swift ] || { say "swift toolchain not found"; exit 1; }
touch "$STAMP"
say "ok (FFmpeg $(pkg-config --modversion libavformat), ONNX Runtime $ORT_VERSION)"
