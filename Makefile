# Swingmaster — the commands a user and CI type. Every target first runs the set-up it needs (idempotent):
# `setup` (what the program needs) for build and demo, `setup-test` (that plus the test and benchmark stack)
# for the tests and benchmarks.
SWIFT_HOME ?= /opt/swift
# The toolchain: `swift` on PATH, else the one under $(SWIFT_HOME) (where CI's image and our machines keep it).
ifeq ($(shell command -v swift 2>/dev/null),)
export PATH := $(SWIFT_HOME)/usr/bin:$(PATH)
endif
SWIFT ?= swift
CONFIG ?= release
PYTHON ?= python3
export SWINGMASTER_ONNXRUNTIME ?= $(CURDIR)/.deps/onnxruntime/lib/libonnxruntime.so
export SWINGMASTER_PYTHON ?= $(CURDIR)/.deps/venv/bin/python
BIN_DEBUG := $(CURDIR)/.build/debug/swingmaster
BIN := $(CURDIR)/.build/$(CONFIG)/swingmaster

.PHONY: setup setup-test build test test-asan test-browser check-docs check-layers demo bench bench-setup clean clean-modules

setup:
	@./scripts/setup.sh

setup-test:
	@./scripts/setup.sh --test

build: setup
	$(SWIFT) build -c $(CONFIG) --product swingmaster

# The layering check first (seconds: each module imports only what it declares and its layer allows, and a
# planted violation of each rule is caught), then a debug build of everything (the CLI tests run the real
# binary), then the whole suite, then the docs check
# (every relative link resolves, every `swingmaster` command and flag the docs name exists in that binary),
# then the web app in a real browser. The frame-size sweep runs once, under AddressSanitizer, in test-asan.
# The model-download suite runs on its own after the rest: its time limits (a refused connection fails in
# 5 s, a stall is noticed in 1 s) measure the downloader, and beside the CLI suites, whose tests wait for
# child processes on Swift's few cooperative threads, its transfers waited 25–190 s for a thread.
# The PostgreSQL suites also run on their own, after the rest: they start a throw-away server (initdb into
# /tmp, pg_ctl on 127.0.0.1 and a free port) and remove it, run serve and worker processes, and measure
# leases in seconds; beside the CLI suites their connections waited minutes for a thread. Here a missing
# PostgreSQL fails them instead of skipping them.
# The conformance suite runs apart from the process suites: their waits for serve and worker processes
# (Thread.sleep, waitUntilExit) hold the cooperative threads, and beside them a PostgreSQL notification
# waited 10-22 s for a thread to be delivered on (the wake-up test allows 10).
# Each of these tiers is a test target of its own (Package.swift): the store suite over both stores
# (SwingPostgresTests) and the serve/worker/migrate process suites (SwingProcessTests).
PG_TIERS := SwingPostgresTests\.|SwingProcessTests\.
# `make test ASAN_FOLLOWS=1` (what .ci/run types, since it runs `make test-asan` next) leaves out the suites
# test-asan runs whole under AddressSanitizer: they run once, instrumented, instead of twice. A plain
# `make test` runs everything.
ASAN_WHOLE := SwingMediaTests\.|SwingVisionTests\.|SwingPoseTests\.|SwingBinaryTests\.|HighlightsTests
MAIN_SKIP := SwingSweepTests\.|SwingDownloadTests\.|$(PG_TIERS)$(if $(ASAN_FOLLOWS),|$(ASAN_WHOLE))
test: setup-test check-layers
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build --skip '$(MAIN_SKIP)'
	SWINGMASTER_REQUIRE_POSTGRES=1 $(SWIFT) test --skip-build --filter 'SwingPostgresTests\.'
	SWINGMASTER_REQUIRE_POSTGRES=1 $(SWIFT) test --skip-build --filter 'SwingProcessTests\.'
	$(SWIFT) test --skip-build --filter 'SwingDownloadTests\.'
	$(PYTHON) tools/check_docs.py --binary $(BIN_DEBUG)
	SWINGMASTER_BIN=$(BIN_DEBUG) ./scripts/test-browser.sh

# The suites below run under AddressSanitizer: the media, vision, pose and audio suites (the audio filters
# split long passes between threads over raw pointers), the frame-size sweep, and the CLI suites that run
# the AddressSanitizer build of the binary (found beside their test executable; the SwingBinaryTests target:
# the fault suite, every command against hostile inputs, the honest-media suite, files cut short, and the
# binary's own suite) —
# and the highlights suite (chapters handed to the muxer, sound packets copied between files).
# Any overrun of a buffer we hand FFmpeg, ONNX Runtime or our own pointer loops is a failure, and so is a
# leak outside the system libraries listed in .ci/lsan.supp. This list is the one the docs point to.
# Swift's crash backtracer is off: under ASan it deadlocks instead of reporting (a leak report once hung
# the run for 40 minutes). Not run under ASan, each a target of its own: the model downloads
# (SwingDownloadTests: timeouts of a real HTTP peer, measured in seconds; beside the ASan build's CPU-bound
# suites its transfers waited 190 s for a thread and every time limit failed; it hands no buffer to C), and
# the accuracy sweeps over recorded and mixed tracks and phone chains (SwingAudioSweepTests: Python mixes
# them, FFmpeg's filters process them and the references run; the DSP they drive is the detector the
# SwingAudioTests suites run instrumented), so the tier checks memory, not F1, and CI stays inside its time.
# Only this package's modules are instrumented (SWINGMASTER_SANITIZE in Package.swift), in the same build
# directory as `make test`: the dependencies are not rebuilt (a whole second build took 18 of CI's minutes),
# and the next `make test` recompiles only our modules, uninstrumented.
ASAN_SUITES := $(ASAN_WHOLE)|SwingAudioTests\.|SwingSweepTests\.
test-asan: setup-test
	SWINGMASTER_SANITIZE=address $(SWIFT) build --build-tests
	SWINGMASTER_SANITIZE=address SWIFT_BACKTRACE=enable=no ASAN_OPTIONS=halt_on_error=1:detect_leaks=1 \
	  LSAN_OPTIONS=suppressions=$(CURDIR)/.ci/lsan.supp:print_suppressions=0 \
	  $(SWIFT) test --skip-build --filter '$(ASAN_SUITES)'

# Only the browser tests (builds the debug binary they drive).
test-browser: setup-test
	$(SWIFT) build --product swingmaster
	SWINGMASTER_BIN=$(BIN_DEBUG) ./scripts/test-browser.sh

# Only the layering check (tools/check_layers.py: the targets' imports against Package.swift and the layers).
check-layers: setup
	$(PYTHON) tools/check_layers.py
	$(PYTHON) tools/check_layers.py --self-test

# Only the docs check (builds the debug binary it asks for its commands and flags).
check-docs: setup
	$(SWIFT) build --product swingmaster
	$(PYTHON) tools/check_docs.py --binary $(BIN_DEBUG)

demo: build
	./scripts/demo.sh $(BIN)

bench: setup-test bench-setup build
	./scripts/bench.sh $(BIN)

# The bench's Python peers (MediaPipe 0.10.14, OpenCV, scikit-learn) in their own venv; only the benchmarks use it.
BENCH_VENV = .deps/bench-venv
bench-setup:
	@if ! $(BENCH_VENV)/bin/python -c "import mediapipe, cv2, sklearn" 2>/dev/null; then \
	  python3 -m venv $(BENCH_VENV) && \
	  $(BENCH_VENV)/bin/pip install -q -r bench/requirements-peers.txt && \
	  $(BENCH_VENV)/bin/pip uninstall -q -y opencv-contrib-python opencv-python-headless && \
	  $(BENCH_VENV)/bin/pip install -q --no-deps opencv-python-headless==4.11.0.86; fi

clean:
	rm -rf .build .build-asan

# Our own modules only (dependencies stay built): SwiftPM's incremental build does not recompile a module
# that holds another module's struct by value when only that struct's stored properties changed, and
# the stale layout corrupts memory at run time (CONTRIBUTING.md, "Running tests").
clean-modules:
	rm -rf .build/*/*/Swing*.build .build/*/*/swing*.build .build/*/*/Modules/Swing* \
	  .build-asan/*/*/Swing*.build .build-asan/*/*/swing*.build .build-asan/*/*/Modules/Swing*
