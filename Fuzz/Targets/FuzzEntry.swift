#if canImport(Glibc)
import Glibc
#else
import Darwin
#endif

// libFuzzer's entry point for every fuzz binary. A binary holds the sources of one module (its
// imports flattened into it, see scripts/fuzz.sh), so it can reach internal parsers; which
// target it runs is its own name, fuzz-<target>, a hard link made by scripts/fuzz.sh.
// Each target function must return normally for every input: a value or a thrown error.

private let target: String = {
    let path = CommandLine.arguments.first ?? ""
    let name = path.split(separator: "/").last.map(String.init) ?? path
    return name.hasPrefix("fuzz-") ? String(name.dropFirst("fuzz-".count)) : name
}()

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let bytes = count > 0 && data != nil ? Array(UnsafeBufferPointer(start: data, count: count)) : []
    guard let run = fuzzTargets[target] else {
        let message = "fuzz: no target named '\(target)'; have \(fuzzTargets.keys.sorted())\n"
        _ = message.withCString { write(2, $0, strlen($0)) }
        exit(2)
    }
    run(bytes)
    return 0
}
