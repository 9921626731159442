/// Parses the `xsd:dateTime` values GPX files carry, faster and more leniently than
/// `ISO8601DateFormatter`: any number of fractional digits (devices write up to 9), `Z`, an
/// offset (`+02:00`, `+0200`, `+02`), or no zone at all, which GPX 1.1 says means UTC.
enum GPXTime {
    /// Seconds since 1970-01-01T00:00:00Z, or nil when `text` is not a date-time.
    static func seconds(from text: some StringProtocol) -> Double? {
        // A native string's bytes are read in place; a time is read for every point.
        if let seconds = text.utf8.withContiguousStorageIfAvailable({ seconds(utf8: $0) }) {
            return seconds
        }
        return Array(text.utf8).withUnsafeBufferPointer { seconds(utf8: $0) }
    }

    private static func seconds(utf8 bytes: UnsafeBufferPointer<UInt8>) -> Double? {
        func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 }
        var index = 0
        var end = bytes.count
        while index < end, isSpace(bytes[index]) { index += 1 }
        while end > index, isSpace(bytes[end - 1]) { end -= 1 }

        func digits(_ count: Int) -> Int? {
            guard index + count <= end else { return nil }
            var value = 0
            for _ in 0..<count {
                let byte = bytes[index]
                guard byte >= 0x30, byte <= 0x39 else { return nil }
                value = value * 10 + Int(byte - 0x30)
                index += 1
            }
            return value
        }
        func expect(_ byte: UInt8) -> Bool {
            guard index < end, bytes[index] == byte else { return false }
            index += 1
            return true
        }

        guard let year = digits(4), expect(0x2D), let month = digits(2), expect(0x2D),
              let day = digits(2)
        else { return nil }
        guard index < end, [0x54, 0x74, 0x20].contains(bytes[index]) else { return nil }  // T t ' '
        index += 1
        guard let hour = digits(2), expect(0x3A), let minute = digits(2), expect(0x3A),
              let second = digits(2)
        else { return nil }
        guard (1...12).contains(month), (1...31).contains(day), hour <= 24, minute <= 59,
              second <= 60
        else { return nil }

        var fraction = 0.0
        if index < end, bytes[index] == 0x2E || bytes[index] == 0x2C {
            index += 1
            var scale = 0.1
            let start = index
            while index < end, bytes[index] >= 0x30, bytes[index] <= 0x39 {
                fraction += Double(bytes[index] - 0x30) * scale
                scale /= 10
                index += 1
            }
            guard index > start else { return nil }
        }

        var offsetSeconds = 0
        if index < end {
            switch bytes[index] {
            case 0x5A, 0x7A:  // Z z
                index += 1
            case 0x2B, 0x2D:  // + -
                let sign = bytes[index] == 0x2D ? -1 : 1
                index += 1
                guard let hours = digits(2), hours <= 14 else { return nil }
                var minutes = 0
                if index < end {
                    _ = expect(0x3A)
                    guard let value = digits(2), value <= 59 else { return nil }
                    minutes = value
                }
                offsetSeconds = sign * (hours * 3600 + minutes * 60)
            default:
                return nil
            }
        }
        guard index == end else { return nil }

        let days = daysFromCivil(year: year, month: month, day: day)
        let wholeSeconds = days * 86_400 + hour * 3600 + minute * 60 + second - offsetSeconds
        return Double(wholeSeconds) + fraction
    }

    /// Days since 1970-01-01 in the proleptic Gregorian calendar (Howard Hinnant's algorithm).
    static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }
}
