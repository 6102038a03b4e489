# Swingmaster — the commands a user and CI type. Every target runs `setup` first (idempotent).
SWIFT ?= swift
CONFIG ?= release
export SWINGMASTER_ONNXRUNTIME ?= $(CURDIR)/.deps/onnxruntime/lib/libonnxruntime.so
export SWINGMASTER_PYTHON ?= $(CURDIR)/.deps/venv/bin/python
BIN_DEBUG := $(CURDIR)/.build/debug/swingmaster
BIN := $(CURDIR)/.build/$(CONFIG)/swingmaster

.PHONY: setup build test test-asan demo bench clean

setup:
	@./scripts/setup.sh

build: setup
	$(SWIFT) build -c $(CONFIG) --product swingmaster

# Debug build of everything (the CLI tests run the real binary), then the whole suite.
test: setup
	$(SWIFT) build
	SWINGMASTER_BIN=$(BIN_DEBUG) $(SWIFT) test

# The media, vision and pose suites and the frame-size sweep under AddressSanitizer (issue #10):
# any overrun of a buffer we hand FFmpeg, ONNX Runtime or our own pointer loops is a failure.
ASAN_SUITES := SwingMediaTests\.|SwingVisionTests\.|SwingPoseTests\.|SwingSweepTests\.
test-asan: setup
	$(SWIFT) build --build-tests --sanitize=address --build-path .build-asan
	ASAN_OPTIONS=abort_on_error=1:halt_on_error=1:detect_leaks=1 \
	  $(SWIFT) test --skip-build --sanitize=address --build-path .build-asan --filter '$(ASAN_SUITES)'

demo: build
	./scripts/demo.sh $(BIN)

bench: build
	./scripts/bench.sh $(BIN)

clean:
	rm -rf .build .build-asan
