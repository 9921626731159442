// The C library's elementary functions, declared here rather than imported, so that every
// build of RunTracking links the same few: Foundation is not there in Embedded Swift, and
// Glibc, Darwin and wasi-libc would each need an import of their own. The C library provides
// them on every platform: libm on Linux, libSystem on Apple's, wasi-libc in the browser.

@_extern(c, "sin") func sin(_ x: Double) -> Double
@_extern(c, "cos") func cos(_ x: Double) -> Double
@_extern(c, "tan") func tan(_ x: Double) -> Double
@_extern(c, "asin") func asin(_ x: Double) -> Double
@_extern(c, "atan") func atan(_ x: Double) -> Double
@_extern(c, "atan2") func atan2(_ y: Double, _ x: Double) -> Double
@_extern(c, "exp") func exp(_ x: Double) -> Double
