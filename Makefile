# TrueTrack — the two set-up commands of the README, and the rest of the chores.
#
#   make demo   installs what is missing, builds, runs the main job on the bundled demo input
#   make test   installs what is missing, builds, runs every test (the command CI runs)
#
# Installing needs apt-get (Debian/Ubuntu) and root or sudo; the Swift toolchain (6.0 or newer) must be on PATH.

SWIFT          ?= swift
# The recorded data sets: DATASETS=… on the command line, else $TRUETRACK_DATASETS, else ../shared/datasets
# (every target reads the same folder: `make accuracy` and `make peers` ignored TRUETRACK_DATASETS before).
DATASETS       ?= $(or $(TRUETRACK_DATASETS),$(abspath ../shared/datasets))
export TRUETRACK_DATASETS := $(DATASETS)
# CI mode (the data sets must be present; an instruction count not checked fails): CI set to anything
# but empty, false, 0 or no, as the benchmarks read it (CI systems set CI=true; CI=false read as CI before).
IN_CI          := $(filter-out false False FALSE 0 no No NO,$(strip $(CI)))
APT_PACKAGES   := liblapack-dev libsqlite3-dev valgrind
SUDO           := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
BIN            := .build/release/truetrack
DEMO_INPUT     := datasets/demo/walk-with-noise.csv

.PHONY: all deps build demo test bench bench-quick bench-instructions lint clean peers peers-speed accuracy notebooks

all: build

## deps: install the C libraries (LAPACK, SQLite) when they are missing
deps:
	@command -v $(SWIFT) >/dev/null || { echo "error: swift not found: install a Swift 6 toolchain (swift.org) and put it on PATH" >&2; exit 1; }
	@missing=""; for p in $(APT_PACKAGES); do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
	  echo "installing:$$missing" >&2; \
	  $(SUDO) apt-get update -qq && $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $$missing >/dev/null; \
	fi

build: deps
	$(SWIFT) build -c release --product truetrack

## demo: the main job on the bundled demo input (a synthetic 600 m walk: see datasets/README.md)
demo: build
	@mkdir -p out
	$(BIN) info $(DEMO_INPUT)
	$(BIN) process $(DEMO_INPUT) --out out/demo-track.geojson --decisions out/demo-decisions.csv
	@echo "true length of the demo walk: 599.6 m (datasets/demo/walk-truth.csv); filtered track: out/demo-track.geojson" 

## test: every test, then the accuracy regression check on the recorded data sets and the quick throughput
## benchmark against their checked-in baselines; in CI (CI=true) the recorded data sets must be present
test: deps
	@if [ -n "$(IN_CI)" ]; then export TRUETRACK_REQUIRE_DATASETS=1; fi; \
	$(SWIFT) build --build-tests && $(SWIFT) test --skip-build --disable-xctest
	@if [ -f "$(TRUETRACK_DATASETS)/MANIFEST.json" ]; then \
	  .build/debug/truetrack bench --datasets "$(TRUETRACK_DATASETS)" --baseline Benchmarks/accuracy-baseline.json; \
	elif [ -n "$(IN_CI)" ]; then echo "error: no data sets at $(TRUETRACK_DATASETS)" >&2; exit 1; \
	else echo "skipping the accuracy check: no data sets at $(TRUETRACK_DATASETS)"; fi
	$(MAKE) --no-print-directory bench-quick
	$(MAKE) --no-print-directory bench-instructions

## bench: throughput benchmarks (median of runs), compared with the checked-in baseline
bench: deps
	$(SWIFT) build -c release --product truetrack-benchmarks
	$(SWIFT) build -c release --product truetrack-command-benchmarks
	.build/release/truetrack-benchmarks --baseline Benchmarks/baseline.json

bench-quick: deps
	$(SWIFT) build -c release --product truetrack-benchmarks
	$(SWIFT) build -c release --product truetrack-command-benchmarks
	.build/release/truetrack-benchmarks --quick --baseline Benchmarks/baseline.json

## bench-instructions: instructions per fix of every quick benchmark case (callgrind: the same from run to run,
## unlike times on a shared machine), compared with the checked-in baseline's at a 2 % tolerance (CI runs it)
bench-instructions: deps
	$(SWIFT) build -c release --product truetrack-benchmarks
	$(SWIFT) build -c release --product truetrack-command-benchmarks
	.build/release/truetrack-benchmarks --quick --instructions --baseline Benchmarks/baseline.json

lint:
	$(SWIFT) format lint --strict -r Sources Tests Benchmarks

clean:
	rm -rf .build

## peers: optional comparison with gpxpy, movingpandas, filterpy, pykalman, trackintel (Python venv, not in CI)
PEERS_VENV := Benchmarks/peers/.venv
peers: build
	@test -x $(PEERS_VENV)/bin/python || python3 -m venv $(PEERS_VENV)
	$(PEERS_VENV)/bin/pip install -q -r Benchmarks/peers/requirements.txt
	$(PEERS_VENV)/bin/python Benchmarks/peers/compare.py --truetrack $(BIN) --datasets $(DATASETS) --markdown Benchmarks/results/peers.md

## peers-speed: pyarrow's and orjson's reading speed on the inputs `make bench` wrote (run `make bench` first)
peers-speed:
	@test -x $(PEERS_VENV)/bin/python || python3 -m venv $(PEERS_VENV)
	$(PEERS_VENV)/bin/pip install -q pyarrow==26.0.1 orjson==3.8.3
	$(PEERS_VENV)/bin/python Benchmarks/peers/read_speed.py

## accuracy: truetrack bench against the checked-in accuracy baseline, and refresh the Markdown report
accuracy: build
	$(BIN) bench --datasets $(DATASETS) --baseline Benchmarks/accuracy-baseline.json --markdown Benchmarks/results/accuracy.md

## notebooks: re-execute notebooks/accuracy.ipynb with the release CLI on the recorded data sets and export it,
## figures included, to notebooks-export/accuracy.md (+ accuracy_files/). What the notebook needs (numpy,
## matplotlib, and nbconvert/ipykernel to run it) goes into a virtual environment of its own under .build, so a
## system Python that refuses pip installs (Debian's "externally managed") is not touched. The export is written to
## a temporary folder and moved into place only when the run succeeded. The peers' figures come from
## PEERS-ACCURACY.md beside the data sets (../shared/notes), or TRUETRACK_PEERS=…; without it, no peer bars.
PYTHON            ?= python3
NOTEBOOK_VENV     := .build/notebooks-venv
NOTEBOOK_PACKAGES := numpy matplotlib nbformat nbconvert ipykernel
PEERS_NOTE        ?= $(or $(TRUETRACK_PEERS),$(abspath $(DATASETS)/../notes/PEERS-ACCURACY.md))
notebooks: build
	@[ -x $(NOTEBOOK_VENV)/bin/python ] || $(PYTHON) -m venv $(NOTEBOOK_VENV) || \
	  { echo "error: $(PYTHON) -m venv failed: install python3-venv (apt-get install python3-venv)" >&2; exit 1; }
	@$(NOTEBOOK_VENV)/bin/python -c "import numpy, matplotlib, nbformat, nbconvert, ipykernel" 2>/dev/null || \
	  { echo "installing into $(NOTEBOOK_VENV): $(NOTEBOOK_PACKAGES)" >&2; \
	    $(NOTEBOOK_VENV)/bin/python -m pip install --quiet $(NOTEBOOK_PACKAGES); }
	rm -rf .build/notebooks-export && mkdir -p .build/notebooks-export
	TRUETRACK=$(abspath $(BIN)) TRUETRACK_PEERS=$(PEERS_NOTE) $(NOTEBOOK_VENV)/bin/python -m jupyter nbconvert \
	  --to markdown --execute --ExecutePreprocessor.timeout=600 notebooks/accuracy.ipynb \
	  --output-dir .build/notebooks-export --output accuracy
	test -f .build/notebooks-export/accuracy.md && test -d .build/notebooks-export/accuracy_files
	rm -rf notebooks-export/accuracy_files
	mv .build/notebooks-export/accuracy_files notebooks-export/accuracy_files
	mv .build/notebooks-export/accuracy.md notebooks-export/accuracy.md
