#!/usr/bin/env bash
# Idempotent machine set-up for Swingmaster, in two steps; each installs only what is missing and
# remembers success in a stamp under .deps/, so running it again costs a fraction of a second.
#
#   scripts/setup.sh         what the program needs to build and run (`make setup`, run by `make build`
#                            and `make demo`):
#     1. checks: x86_64 Linux (the ONNX Runtime library pinned below is built for it) and a Swift
#        toolchain on PATH or under $SWIFT_HOME (default /opt/swift);
#     2. Debian packages: FFmpeg's development libraries, libjpeg-turbo's TurboJPEG, pkg-config, SQLite,
#        unzip (model archives, and the wheel below), python3 + python3-pip (to download the wheel);
#     3. ONNX Runtime's shared library from the pinned `onnxruntime` wheel on PyPI, checksum-verified,
#        extracted to .deps/onnxruntime/lib (the binary finds it there; SWINGMASTER_ONNXRUNTIME overrides).
#
#   scripts/setup.sh --test  the above, then the test and benchmark stack (`make setup-test`, run by
#                            `make test`, `make test-asan`, `make test-browser` and `make bench`):
#     4. Debian packages: the ffmpeg CLI (tests and benchmarks encode their inputs with it), python3-venv,
#        chromium + chromium-driver (browser tests), wrk and time (benchmarks);
#     5. a Python venv (.deps/venv, sees system site-packages) with numpy, scipy and the same onnxruntime
#        for the Python reference implementations, tests and benchmark peers; Pillow and
#        opencv-python-headless (reference decodes for the frame-size sweep: libjpeg-turbo, libpng, EXIF
#        orientation as cv2.imread applies it), selenium (drives chromium in the browser tests) and
#        opensim 4.6 (Apache-2.0; OpenSim's own TRC/MOT readers, which the export tests read our files with);
#     6. recorded tennis sounds for the recorded-sound contact tests and measurements
#        (tools/make_recorded_tracks.py, bench/recorded_contacts.sh): Free Tennis 0.4.8's sound effects
#        (GPL-2+, Debian's checksum-pinned `freetennis-common`) to .deps/sounds/freetennis, and Tennix 1.1's
#        (MelodyLoops.com, public domain, Debian's checksum-pinned `tennix`, amd64), unpacked by
#        tools/tennix_sounds.py to .deps/sounds/tennix. Fetched here, never committed nor shipped.
set -euo pipefail
cd "$(dirname "$0")/.."

# One ONNX Runtime version for the library and the venv. Bumping it: change ORT_VERSION, check that the
# wheel's platform tags in ORT_WHEEL still match PyPI's file name, and replace ORT_SHA256 with the new
# wheel's (`sha256sum` of the file pip downloads). The stamps below carry the version, so the next run
# installs the new one.
# 1.32.0 runs YOLO11n and BlazePose faster than 1.23.2 on the same machine (bench/results/ort_versions.txt).
ORT_VERSION="1.32.0"
ORT_PLATFORM="manylinux_2_28_x86_64"
ORT_WHEEL="onnxruntime-${ORT_VERSION}-cp311-cp311-${ORT_PLATFORM}.whl"
ORT_SHA256="5a34fc4dfeb5a7b4a74c95dcba1e773d722abda720b474edf1b0c419dc6d163d"
DEPS=".deps"
PY_PINS=(numpy==2.4.6 scipy==1.17.1 pillow==13.0.0 opencv-python-headless==4.12.0.88 selenium==4.51.0 onnx==1.19.1 opensim==4.6)
FREETENNIS_DEB="freetennis-common_0.4.8-14_all.deb"
FREETENNIS_SHA256="33e49368e75e2aaaa4ce036c07bd5eb34085359b0cf082d21c448fc7af3290d4"
TENNIX_DEB="tennix_1.1-3.2+b3_amd64.deb"
TENNIX_SHA256="0aa7beb065627217fff2dbcba0745b13a809ebcbd2fddab5570b547f44040374"
RUN_PACKAGES=(libavformat-dev libavcodec-dev libavutil-dev libswresample-dev libswscale-dev
              libturbojpeg0-dev pkg-config libsqlite3-dev unzip ca-certificates python3 python3-pip)
# postgresql: the PostgreSQL store's tests start a throw-away server of their own (initdb, pg_ctl on 127.0.0.1).
TEST_PACKAGES=(ffmpeg python3-venv time chromium chromium-driver wrk postgresql)
RUN_STAMP="$DEPS/.setup-ok-${ORT_VERSION}-v9"
TEST_STAMP="$DEPS/.setup-test-ok-${ORT_VERSION}-v11"
SWIFT_TESTED="6.3"

say() { printf 'setup: %s\n' "$*" >&2; }
fail() { say "$*"; exit 1; }

mode=run
case "${1:-}" in
  "") ;;
  --test) mode=test ;;
  *) fail "Unknown option '$1': run scripts/setup.sh alone (what the program needs) or with --test (also the test and benchmark stack)." ;;
esac

# ---- 1. checks that no package can fix ------------------------------------------------------
os="$(uname -s)"; arch="$(uname -m)"
if [ "$os" != "Linux" ] || [ "$arch" != "x86_64" ]; then
  fail "Swingmaster runs on x86_64 Linux only (tested on Debian 12): the ONNX Runtime library it pins is built for that, and this machine is $os $arch."
fi
command -v swift >/dev/null || export PATH="${SWIFT_HOME:-/opt/swift}/usr/bin:$PATH"
if ! command -v swift >/dev/null; then
  fail "No Swift toolchain found (swift is not on PATH nor in ${SWIFT_HOME:-/opt/swift}/usr/bin): install Swift $SWIFT_TESTED for Debian 12 from https://www.swift.org/install/linux/ and put its usr/bin on PATH, or unpack it to /opt/swift."
fi
swift_version="$(swift --version 2>&1 | sed -n 's/.*Swift version \([0-9][0-9]*\.[0-9][0-9]*\).*/\1/p' | head -n 1)"
if [ -n "$swift_version" ] && [ "$(printf '%s\n%s\n' "$SWIFT_TESTED" "$swift_version" | sort -V | head -n 1)" != "$SWIFT_TESTED" ]; then
  say "Swift $swift_version found; Swingmaster is built and tested with Swift $SWIFT_TESTED, and an older toolchain may fail to build it."
fi

run_done() { [ -f "$RUN_STAMP" ] && [ -z "${SWINGMASTER_FORCE_SETUP:-}" ]; }
test_done() { [ -f "$TEST_STAMP" ] && [ -z "${SWINGMASTER_FORCE_SETUP:-}" ]; }
if run_done && { [ "$mode" = run ] || test_done; }; then
  exit 0
fi

SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
apt_updated=""
apt_update() { [ -n "$apt_updated" ] || { $SUDO apt-get update -qq; apt_updated=1; }; }

# install_missing PACKAGE…: apt-get install the ones dpkg does not list as installed (Debian, Ubuntu).
install_missing() {
  command -v apt-get >/dev/null || { say "no apt-get: install $* with your package manager (names are Debian's)"; return 0; }
  local missing=() p
  for p in "$@"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  say "installing Debian packages: ${missing[*]}"
  apt_update
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
}

# fetch_deb NAME VERSION FILE SHA256: Debian's package file into $DEPS/debs, checksum-verified.
fetch_deb() {
  local name=$1 version=$2 file=$3 sha=$4 deb="$DEPS/debs/$3"
  mkdir -p "$DEPS/debs"
  if [ ! -f "$deb" ] || ! echo "$sha  $deb" | sha256sum -c --status; then
    say "downloading Debian's $name (recorded tennis sounds)"
    rm -f "$deb"
    (cd "$DEPS/debs" && apt-get download -qq "$name=$version" 2>/dev/null) || {
      apt_update && (cd "$DEPS/debs" && apt-get download -qq "$name=$version")
    }
  fi
  echo "$sha  $deb" | sha256sum -c --status || fail "$file does not have the pinned SHA-256."
}

wheel="$DEPS/wheels/$ORT_WHEEL"

if ! run_done; then
  # ---- 2. Debian packages the program needs --------------------------------------------------
  install_missing "${RUN_PACKAGES[@]}"

  # ---- 3. ONNX Runtime shared library --------------------------------------------------------
  mkdir -p "$DEPS/wheels" "$DEPS/onnxruntime/lib"
  if [ ! -f "$wheel" ] || ! echo "$ORT_SHA256  $wheel" | sha256sum -c --status; then
    say "downloading onnxruntime==$ORT_VERSION wheel"
    rm -f "$wheel"
    python3 -m pip download -q --no-deps --only-binary=:all: --python-version 3.11 \
      --platform "$ORT_PLATFORM" -d "$DEPS/wheels" "onnxruntime==$ORT_VERSION"
  fi
  echo "$ORT_SHA256  $wheel" | sha256sum -c --status || fail "The onnxruntime wheel does not have the pinned SHA-256."
  lib="$DEPS/onnxruntime/lib/libonnxruntime.so.$ORT_VERSION"
  if [ ! -f "$lib" ]; then
    unzip -q -o -j "$wheel" "onnxruntime/capi/libonnxruntime.so.$ORT_VERSION" -d "$DEPS/onnxruntime/lib"
  fi
  ln -sf "libonnxruntime.so.$ORT_VERSION" "$DEPS/onnxruntime/lib/libonnxruntime.so"

  pkg-config --exists libavformat libavcodec libavutil libswresample libswscale libturbojpeg sqlite3 \
    || fail "The FFmpeg, TurboJPEG or SQLite development files are missing (pkg-config cannot find them)."
  command -v unzip >/dev/null || fail "unzip is missing."
  touch "$RUN_STAMP"
  say "ok (FFmpeg $(pkg-config --modversion libavformat), ONNX Runtime $ORT_VERSION, Swift ${swift_version:-?})"
fi

[ "$mode" = test ] || exit 0
test_done && exit 0

# ---- 4. Debian packages the tests and benchmarks need ---------------------------------------
install_missing "${TEST_PACKAGES[@]}"

# ---- 5. Python venv for reference implementations and benchmark peers -----------------------
if [ ! -x "$DEPS/venv/bin/python" ]; then
  say "creating Python venv $DEPS/venv"
  python3 -m venv --system-site-packages "$DEPS/venv"
fi
if ! "$DEPS/venv/bin/python" -c "import numpy, scipy, onnxruntime; assert onnxruntime.__version__ == '$ORT_VERSION'" 2>/dev/null; then
  say "installing numpy, scipy, onnxruntime==$ORT_VERSION into the venv"
  "$DEPS/venv/bin/pip" install -q "${PY_PINS[@]:0:2}" "$wheel" 2>/dev/null \
    || "$DEPS/venv/bin/pip" install -q "${PY_PINS[@]:0:2}" "onnxruntime==$ORT_VERSION"
fi
if ! "$DEPS/venv/bin/python" -c "import PIL, cv2, selenium, onnx, opensim" 2>/dev/null; then
  say "installing ${PY_PINS[*]:2} into the venv"
  "$DEPS/venv/bin/pip" install -q "${PY_PINS[@]:2}"
fi

# ---- 6. Recorded tennis sounds ------------------------------------------------------------------
if command -v apt-get >/dev/null; then
  sounds="$DEPS/sounds/freetennis"
  if [ ! -f "$sounds/colpo.wav" ]; then
    fetch_deb freetennis-common 0.4.8-14 "$FREETENNIS_DEB" "$FREETENNIS_SHA256"
    mkdir -p "$sounds"
    tmp="$(mktemp -d)"
    dpkg-deb -x "$DEPS/debs/$FREETENNIS_DEB" "$tmp"
    cp "$tmp"/usr/share/sounds/freetennis-common/sfx/*.wav "$sounds/"
    cp "$tmp"/usr/share/doc/freetennis-common/copyright "$sounds/COPYRIGHT"
    rm -rf "$tmp"
  fi
  # Debian's tennix is published for amd64 only (its data archive is the same on every architecture).
  sounds="$DEPS/sounds/tennix"
  if [ "$(dpkg --print-architecture)" = "amd64" ] && [ ! -f "$sounds/racket1.wav" ]; then
    fetch_deb tennix 1.1-3.2+b3 "$TENNIX_DEB" "$TENNIX_SHA256"
    mkdir -p "$sounds"
    tmp="$(mktemp -d)"
    dpkg-deb -x "$DEPS/debs/$TENNIX_DEB" "$tmp"
    "$DEPS/venv/bin/python" tools/tennix_sounds.py "$tmp/usr/share/games/tennix/tennix.tnx" "$sounds"
    cp "$tmp"/usr/share/doc/tennix/copyright "$sounds/COPYRIGHT"
    rm -rf "$tmp"
  fi
fi

command -v ffmpeg >/dev/null || fail "The ffmpeg command is missing."
"$DEPS/venv/bin/python" -c "import numpy, scipy, onnxruntime, PIL, cv2, selenium" || fail "The Python venv $DEPS/venv is broken: remove it and run this again."
command -v chromium >/dev/null && command -v chromedriver >/dev/null || fail "chromium or chromedriver is missing."
command -v wrk >/dev/null || fail "wrk is missing."
ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || command -v initdb >/dev/null || fail "PostgreSQL (initdb) is missing."
touch "$TEST_STAMP"
say "ok: test and benchmark stack (Python venv, chromium, wrk, PostgreSQL, recorded sounds)"
