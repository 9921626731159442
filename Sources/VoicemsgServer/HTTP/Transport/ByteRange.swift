/// A single `Range: bytes=…` request resolved against a body of known length (RFC 9110 §14).
///
/// Only one range is served; a list of ranges is answered with the whole body, which the RFC
/// allows.
enum ByteRange: Equatable {
    case whole
    case partial(ClosedRange<Int>)
    case unsatisfiable

    init(header: String?, length: Int) {
        guard let header else {
            self = .whole
            return
        }
        let text = header.trimmingCharacters(in: .whitespaces)
        guard text.lowercased().hasPrefix("bytes="), !text.contains(",") else {
            self = .whole
            return
        }
        let spec = text.dropFirst("bytes=".count)
        let parts = spec.split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2 else {
            self = .whole
            return
        }
        let first = parts[0].trimmingCharacters(in: .whitespaces)
        let last = parts[1].trimmingCharacters(in: .whitespaces)
        if first.isEmpty {
            // Suffix: the last n bytes.
            guard let count = Int(last), count >= 0 else {
                self = .whole
                return
            }
            guard count > 0, length > 0 else {
                self = .unsatisfiable
                return
            }
            self = .partial(max(0, length - count)...(length - 1))
            return
        }
        guard let start = Int(first), start >= 0 else {
            self = .whole
            return
        }
        guard start < length else {
            self = .unsatisfiable
            return
        }
        if last.isEmpty {
            self = .partial(start...(length - 1))
        } else if let end = Int(last), end >= start {
            self = .partial(start...min(end, length - 1))
        } else {
            self = .whole
        }
    }
}

import Foundation
