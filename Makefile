# Swingmaster — the commands a user and CI type. Every target runs `setup` first (idempotent).
SWIFT ?= swift
CONFIG ?= release
export SWINGMASTER_ONNXRUNTIME ?= $(CURDIR)/.deps/onnxruntime/lib/libonnxruntime.so
export SWINGMASTER_PYTHON ?= $(CURDIR)/.deps/venv/bin/python
BIN_DEBUG := $(CURDIR)/.build/debug/swingmaster
BIN := $(CURDIR)/.build/$(CONFIG)/swingmaster

.PHONY: setup build test demo bench clean

setup:
	@./scripts/setup.sh

build: setup
	$(SWIFT) build -c $(CONFIG) --product swingmaster

# Debug build of everything (the CLI tests run the real binary), then the whole suite.
test: setup
	$(SWIFT) build
	SWINGMASTER_BIN=$(BIN_DEBUG) $(SWIFT) test

demo: build
	./scripts/demo.sh $(BIN)

bench: build
	./scripts/bench.sh $(BIN)

clean:
	rm -rf .build
