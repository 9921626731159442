// wasi-libc's `arc4random_buf` asks a WASI host for entropy, and a browser is not one. With
// this one in its place the module imports nothing, and the page instantiates it bare.

/// Hashing's seed. The scheduler hashes message ids only to find duplicates among the page's
/// own numbers, so a fixed seed guards nothing less than a random one would.
@_cdecl("arc4random_buf")
func arc4randomBuffer(_ buffer: UnsafeMutableRawPointer, _ count: Int) {
    var state: UInt64 = 0x9E37_79B9_7F4A_7C15
    for offset in 0..<count {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        buffer.storeBytes(of: UInt8(truncatingIfNeeded: state >> 33), toByteOffset: offset, as: UInt8.self)
    }
}
