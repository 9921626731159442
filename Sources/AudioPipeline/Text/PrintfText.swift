#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension String {
    /// Text made by C's `vsnprintf` from `format` (`%.1f`, `%+.2f`, `%g`, `%02x`, `%lld`, ...):
    /// the figures the command line and the messages print, without Foundation's
    /// `String(format:)`, which on Linux would link its locale and ICU layers into every binary
    /// for a handful of numbers. voicemsg never sets a locale, so the decimal point is C's `.`.
    public init(printf format: String, _ arguments: any CVarArg...) {
        var buffer = [CChar](repeating: 0, count: 64)
        let needed = withVaList(arguments) { vsnprintf(&buffer, buffer.count, format, $0) }
        if needed >= buffer.count {
            buffer = [CChar](repeating: 0, count: Int(needed) + 1)
            _ = withVaList(arguments) { vsnprintf(&buffer, buffer.count, format, $0) }
        }
        self = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
