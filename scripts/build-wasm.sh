#!/usr/bin/env bash
# Builds web/run-tracking.wasm: RunTracking's own sources and the page's exports
# (Sources/RunTrackingWasm) as Embedded Swift for wasm32, linked with Debian's wasi-libc for
# malloc and the math functions. The runner's page runs the very tracker and scheduler that the
# tests and `voicemsg simulate` measure.
#
#   scripts/build-wasm.sh              # writes web/run-tracking.wasm
#   scripts/build-wasm.sh OUT.wasm     # writes OUT.wasm instead (the test compares the two)
#
# The output depends only on the sources and the toolchain: no path, date or random seed goes
# into it, so the committed file can be checked against a fresh build.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
out=${1:-$root/web/run-tracking.wasm}
swift_bin=$(dirname "$(command -v swiftc 2>/dev/null || echo /opt/swift/usr/bin/swiftc)")
swiftc=$swift_bin/swiftc
wasm_ld=$swift_bin/wasm-ld
[[ -x $wasm_ld ]] || wasm_ld=$(command -v wasm-ld || true)
# Debian's wasi-libc, or Homebrew's.
sysroot_lib=/usr/lib/wasm32-wasi
if [[ ! -f $sysroot_lib/libc.a ]] && command -v brew >/dev/null; then
    sysroot_lib=$(brew --prefix wasi-libc 2>/dev/null)/share/wasi-sysroot/lib/wasm32-wasi
fi
if [[ ! -f $sysroot_lib/libc.a ]]; then
    echo "build-wasm: wasi-libc is missing ($sysroot_lib/libc.a); install Debian's wasi-libc (make setup does)" >&2
    exit 1
fi
wasm_opt=$(command -v wasm-opt || true)
if [[ -z $wasm_opt ]]; then
    echo "build-wasm: wasm-opt is missing; install binaryen (make setup does)" >&2
    exit 1
fi
if [[ -z $wasm_ld || ! -x $wasm_ld ]]; then
    echo "build-wasm: wasm-ld is missing; it comes with the Swift toolchain (or Debian's lld)" >&2
    exit 1
fi
tables=$(dirname "$swiftc")/../lib/swift/embedded/wasm32-unknown-none-wasm/libswiftUnicodeDataTables.a

# Relative paths from the root, and the same scratch folder every time: the compiler hashes
# the paths it is given into the module, so a build elsewhere gives other bytes otherwise.
cd "$root"
work=.build/wasm
rm -rf "$work"
mkdir -p "$work"
flags=(-target wasm32-unknown-none-wasm -enable-experimental-feature Embedded
       -enable-experimental-feature Extern -wmo -parse-as-library -Osize
       -Xfrontend -disable-stack-protector)
"$swiftc" "${flags[@]}" -module-name RunTracking -emit-module -emit-module-path "$work/RunTracking.swiftmodule" \
    -c -o "$work/RunTracking.o" Sources/RunTracking/*.swift
"$swiftc" "${flags[@]}" -module-name RunTrackingWasm -I "$work" \
    -c -o "$work/RunTrackingWasm.o" Sources/RunTrackingWasm/*.swift
# Only the exports and what they reach; no entry point, since the page calls in.
"$wasm_ld" --no-entry --gc-sections --strip-all -o "$work/run-tracking.wasm" \
    "$work/RunTrackingWasm.o" "$work/RunTracking.o" "$tables" "$sysroot_lib/libc.a" "$sysroot_lib/libm.a"
# The linker keeps what is reachable; wasm-opt then folds and shrinks what it kept, about a
# tenth off the gzipped bytes the page fetches. The features are the ones the compiler emits.
"$wasm_opt" -Oz --enable-bulk-memory --enable-sign-ext --enable-mutable-globals \
    --enable-nontrapping-float-to-int -o "$out" "$work/run-tracking.wasm"
echo "build-wasm: wrote $out ($(wc -c < "$out") bytes, $(gzip -9c "$out" | wc -c) gzipped)"
