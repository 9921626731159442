import TestSupport

/// Hostile text: letters, controls (C0, DEL, C1, NUL), bidirectional overrides, long runs of
/// combining accents, emoji sequences and any other code point, mixed at random.
enum HostileText {
    static func make(_ generator: inout SeededGenerator) -> String {
        var scalars = String.UnicodeScalarView()
        let pieces = Int.random(in: 1...12, using: &generator)
        for _ in 0..<pieces {
            switch Int.random(in: 0..<8, using: &generator) {
            case 0: append("Anna Läufer ", to: &scalars)
            case 1: scalars.append(Unicode.Scalar(UInt8.random(in: 0...0x1F, using: &generator)))
            case 2: scalars.append(Unicode.Scalar(UInt32.random(in: 0x7F...0x9F, using: &generator))!)
            case 3: scalars.append(Unicode.Scalar(UInt32.random(in: 0x202A...0x202E, using: &generator))!)
            case 4:
                // "a" and a long combining sequence: one character, many bytes.
                scalars.append("a")
                let count = [3, 50, 400, 5000][Int.random(in: 0..<4, using: &generator)]
                for _ in 0..<count { scalars.append(Unicode.Scalar(0x0301)!) }
            case 5: append("e\u{0301}\u{1F469}\u{200D}\u{1F467}", to: &scalars)
            case 6:
                for _ in 0..<Int.random(in: 1...300, using: &generator) {
                    scalars.append(Unicode.Scalar(UInt8.random(in: 0x61...0x7A, using: &generator)))
                }
            default:
                // Any scalar at all (surrogates are not scalars, so they are skipped).
                var value = UInt32.random(in: 0...0x10FFFF, using: &generator)
                while Unicode.Scalar(value) == nil { value = UInt32.random(in: 0...0x10FFFF, using: &generator) }
                scalars.append(Unicode.Scalar(value)!)
            }
        }
        return String(scalars)
    }

    private static func append(_ text: String, to scalars: inout String.UnicodeScalarView) {
        scalars.append(contentsOf: text.unicodeScalars)
    }
}
