# voicemsg: build, test, demo and benchmark.
# `make demo` and `make test` work on a fresh Debian machine or a Mac with Homebrew:
# `setup` installs whatever is missing first, and does nothing when all is there.

SWIFT ?= $(shell command -v swift 2>/dev/null || echo /opt/swift/usr/bin/swift)
CONFIG ?= debug
BIN = $(shell $(SWIFT) build -c $(CONFIG) --show-bin-path 2>/dev/null)/voicemsg

APT_PACKAGES = pkg-config libsndfile1-dev libopus-dev libsoxr-dev libebur128-dev \
               ffmpeg opus-tools sox libsox-fmt-mp3 espeak-ng postgresql
BREW_PACKAGES = pkg-config libsndfile opus libsoxr libebur128 ffmpeg opus-tools sox espeak-ng postgresql@16

.PHONY: setup build test demo bench samples clean

setup:
	@scripts/setup.sh "$(APT_PACKAGES)" "$(BREW_PACKAGES)"

build: setup
	$(SWIFT) build -c $(CONFIG)

# The server's PostgreSQL tests run against a throwaway cluster that with-postgres.sh starts
# on loopback and removes afterwards.
test: setup
	$(SWIFT) build --build-tests
	scripts/with-postgres.sh $(SWIFT) test --skip-build

demo: setup
	$(SWIFT) build -c release
	scripts/demo.sh "$$($(SWIFT) build -c release --show-bin-path)/voicemsg"

# Pipeline vs opusenc and ffmpeg, the tracker and scheduler, and the queue and server.
bench: setup
	$(SWIFT) build -c release
	scripts/bench.sh "$$($(SWIFT) build -c release --show-bin-path)/voicemsg"
	scripts/bench-playback.sh
	scripts/bench-server.sh "$$($(SWIFT) build -c release --show-bin-path)/voicemsg"

samples: setup
	scripts/make-samples.sh

clean:
	rm -rf .build out
