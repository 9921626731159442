#!/usr/bin/env bash
# libFuzzer targets for voicemsg's parsers (docs/operations.md). Builds each target with swiftc
# -sanitize=fuzzer,address into .build/fuzz, apart from the package's normal build, then runs it.
#
#   scripts/fuzz.sh build               build every target
#   scripts/fuzz.sh run [TARGET...]     run each for FUZZ_SECONDS (default 60), or FUZZ_RUNS runs
#   scripts/fuzz.sh list                the target names
#
# A fuzz binary holds the sources of the module under test with its imports of voicemsg's own
# modules flattened into it (those lines removed), so the harness in Fuzz/Targets reaches
# internal parsers such as WAVHeader and ByteRange without a testable build of the whole
# package and its server dependencies. Corpora are Fuzz/Corpus/<target> (seeds, committed);
# new inputs libFuzzer finds go to .build/fuzz/corpus/<target>, crashes to
# .build/fuzz/findings/<target>. A crash input belongs in Fuzz/Corpus/<target> once fixed: the
# regression tests in `make test` replay every file there.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
SWIFTC=${SWIFTC:-$(command -v swiftc 2>/dev/null || echo /opt/swift/usr/bin/swiftc)}
OUT=$ROOT/.build/fuzz
FUZZ_SECONDS=${FUZZ_SECONDS:-60}
TARGETS="ogg caf wav marker pace distance gpx course range decode"

# target -> the binary (source set) holding it
set_of() {
    case $1 in
        ogg|caf|wav) echo audio ;;
        marker|pace|distance) echo tracking ;;
        gpx|course) echo gpx ;;
        range) echo range ;;
        decode) echo decode ;;
        *) echo "fuzz: unknown target '$1'; targets: $TARGETS" >&2; exit 2 ;;
    esac
}

sources_of() {
    case $1 in
        audio) find Sources/AudioPipeline Sources/RunTracking Sources/DecoderWire -name '*.swift' ;;
        tracking) find Sources/RunTracking -name '*.swift'; echo Sources/voicemsg/RunDistance.swift ;;
        gpx) find Sources/GPXReplay Sources/RunTracking -name '*.swift' ;;
        range) echo Sources/VoicemsgServer/HTTP/Transport/ByteRange.swift ;;
        decode) find Sources/voicemsg-decode Sources/DecoderWire -name '*.swift' ! -name main.swift ;;
    esac
}

c_modules_of() {
    case $1 in
        audio) echo CSndfile COpus CSoxr CEbur128 CSpawn ;;
        gpx) echo CExpat ;;
        decode) echo CFFmpeg ;;
    esac
}

pkg_config_of() {
    case $1 in
        audio) echo sndfile opus soxr libebur128 ;; gpx) echo expat ;; decode) echo libavformat ;;
    esac
}

harness_of() {
    case $1 in
        audio) echo Audio ;; tracking) echo Tracking ;; gpx) echo GPX ;; range) echo Range ;; decode) echo Decode ;;
    esac
}

build_set() {
    local set=$1 src=$OUT/src/$set
    rm -rf "$src"; mkdir -p "$src"
    local file
    for file in $(sources_of "$set"); do
        # One module: drop the imports of voicemsg's own modules (and ArgumentParser, which only
        # RunDistance's ExpressibleByArgument conformance needs).
        sed -E -e '/^import (RunTracking|DecoderWire|AudioPipeline|GPXReplay|ArgumentParser)$/d' \
               -e 's/: ExpressibleByArgument, /: /' \
            "$file" > "$src/$(echo "$file" | tr / _)"
    done
    cp Fuzz/Targets/FuzzEntry.swift "Fuzz/Targets/$(harness_of "$set")Targets.swift" "$src/"
    local flags=() module
    for module in $(c_modules_of "$set"); do flags+=(-I "Sources/$module"); done
    if [ "$set" = audio ]; then
        # AudioPipeline's file and process code imports swift-system's SystemPackage, a package
        # dependency rather than one of voicemsg's own modules: the package's debug build of it
        # is linked as it is (uninstrumented; none of the parsers fuzzed here runs in it).
        local bin
        bin=$(swift build --show-bin-path)
        [ -f "$bin/Modules/SystemPackage.swiftmodule" ] || swift build --product voicemsg >&2
        flags+=(-I "$bin/Modules" -Xcc "-fmodule-map-file=$ROOT/.build/checkouts/swift-system/Sources/CSystem/include/module.modulemap"
                "$bin"/SystemPackage.build/*.o "$bin/CSystem.build/shims.c.o")
    fi
    # The C headers' own folders (opus.h is in /usr/include/opus), as SwiftPM asks pkg-config.
    local package
    for package in $(pkg_config_of "$set"); do
        for module in $(pkg-config --cflags-only-I "$package"); do flags+=(-Xcc "$module"); done
    done
    echo "fuzz: building $set" >&2
    "$SWIFTC" -sanitize=fuzzer,address -parse-as-library -O -g -enable-experimental-feature Extern -module-name "Fuzz_$set" \
        "${flags[@]}" "$src"/*.swift -o "$OUT/bin/fuzz-set-$set" \
        2> >(grep -v "Cannot export local symbol '__asan" >&2)
}

build() {
    mkdir -p "$OUT/bin"
    local set target
    for set in audio tracking gpx range decode; do build_set "$set"; done
    for target in $TARGETS; do ln -f "$OUT/bin/fuzz-set-$(set_of "$target")" "$OUT/bin/fuzz-$target"; done
}

run_target() {
    local target=$1 corpus=$OUT/corpus/$1 findings=$OUT/findings/$1
    mkdir -p "$corpus" "$findings"
    local limit=(-max_total_time="$FUZZ_SECONDS")
    [ -n "${FUZZ_RUNS:-}" ] && limit=(-runs="$FUZZ_RUNS")
    local dict=()
    [ -f "Fuzz/Dictionaries/$target.dict" ] && dict=(-dict="Fuzz/Dictionaries/$target.dict")
    echo "fuzz: $target" >&2
    # New inputs go to the first corpus folder; the committed seeds are read only.
    "$OUT/bin/fuzz-$target" "${limit[@]}" "${dict[@]}" -timeout=10 -rss_limit_mb=2048 -max_len="${FUZZ_MAX_LEN:-65536}" \
        -print_final_stats=1 -artifact_prefix="$findings/" "$corpus" "Fuzz/Corpus/$target" 2>&1 \
        | tee "$OUT/$target.log" | grep -E '^(#[0-9]+ +(DONE|pulse)|stat::|==[0-9]+==|SUMMARY|.*(crash|leak|timeout)-)' || true
    if ls "$findings"/* >/dev/null 2>&1; then
        echo "fuzz: $target left findings in $findings" >&2
        return 1
    fi
}

case ${1:-run} in
    build) build ;;
    list) echo $TARGETS ;;
    run)
        shift || true
        [ -x "$OUT/bin/fuzz-${1:-decode}" ] || build
        status=0
        for target in ${@:-$TARGETS}; do run_target "$target" || status=1; done
        exit $status ;;
    *) echo "usage: scripts/fuzz.sh build | run [TARGET...] | list" >&2; exit 2 ;;
esac
