import Foundation

/// The rules every stored piece of free text (a run's title, a message's sender) meets.
///
/// Limits count UTF-8 bytes as well as characters: "a" followed by a million combining accents
/// is one character and 2 MB, and it would be written into every message's tags. Text is stored
/// in NFC, so the same name typed on two keyboards is the same bytes. Control characters (C0,
/// DEL, C1, NUL) and bidirectional overrides and isolates are refused with the reason rather than
/// stripped, so what is stored is exactly what the client sees in its answer.
enum TextField {
    static let maxCharacters = 200
    static let maxBytes = 800

    /// The bidirectional embeddings, overrides and isolates, which reorder the text shown after them.
    static let bidiControls: ClosedRange<UInt32> = 0x202A...0x202E
    static let bidiIsolates: ClosedRange<UInt32> = 0x2066...0x2069

    /// The NFC form of `raw`, trimmed of surrounding spaces, or the reason it is refused, which
    /// names the field (`name`) as the client sent it.
    static func validate(_ raw: String, name: String) -> Result<String, TextFieldError> {
        // Checked before normalizing, so a 2 MB title costs a count, not a normalization.
        // NFC can lengthen text only by small factors, so 4× the limit refuses nothing valid.
        guard raw.utf8.count <= 4 * maxBytes else {
            return .failure(.init("\(name) must have at most \(maxBytes) bytes of UTF-8; it has \(raw.utf8.count)"))
        }
        for scalar in raw.unicodeScalars {
            if let reason = refusal(scalar) {
                return .failure(.init("\(name) must not contain \(reason)"))
            }
        }
        let text = raw.precomposedStringWithCanonicalMapping.trimmingCharacters(in: .whitespaces)
        guard !text.isEmpty else { return .failure(.init("\(name) must not be empty")) }
        guard text.utf8.count <= maxBytes else {
            return .failure(.init("\(name) must have at most \(maxBytes) bytes of UTF-8; it has \(text.utf8.count)"))
        }
        guard text.count <= maxCharacters else {
            return .failure(.init("\(name) must have at most \(maxCharacters) characters; it has \(text.count)"))
        }
        return .success(text)
    }

    /// Why this scalar may not be stored, or nil.
    static func refusal(_ scalar: Unicode.Scalar) -> String? {
        let value = scalar.value
        if value == 0 { return "NUL (U+0000)" }
        if scalar.properties.generalCategory == .control {
            return "control characters such as U+\(hex(value)) (tabs, line breaks, escapes)"
        }
        if bidiControls.contains(value) || bidiIsolates.contains(value) {
            return "bidirectional overrides or isolates such as U+\(hex(value))"
        }
        return nil
    }

    private static func hex(_ value: UInt32) -> String {
        let digits = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }
}

/// Why a text field was refused, in words for the 400 answer.
struct TextFieldError: Error, Equatable {
    let reason: String
    init(_ reason: String) { self.reason = reason }
}
