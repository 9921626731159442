/// Text from a file or a request made safe to print to a terminal or a log line.
///
/// A tag written by an older server may hold ESC, BEL, CR/LF, NUL or a right-to-left override;
/// printed raw, it recolours or rewrites the terminal (`ARTIST=^[[31mRED`) or forges log lines.
/// Every such scalar is shown as `\u{…}` instead, and everything printable is left as it is.
public enum PrintableText {
    /// `text` with control characters (C0, DEL, C1), line and paragraph separators and the
    /// bidirectional embeddings, overrides and isolates written as `\u{HEX}`. Other format
    /// characters stay: the zero-width joiner inside an emoji sequence is harmless and common.
    public static func escaped(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: needsEscape) else { return text }
        var result = ""
        result.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            if needsEscape(scalar) {
                result += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .control, .lineSeparator, .paragraphSeparator:
            return true
        default:
            return (0x202A...0x202E).contains(scalar.value) || (0x2066...0x2069).contains(scalar.value)
        }
    }
}
