/// The comment header of an Opus stream (RFC 7845 §5.2), in order, as written.
///
/// Keys are stored upper-case. A key may appear more than once, as Vorbis comments allow.
public struct OpusTags: Sendable, Equatable, Codable {
    /// One comment: a key and its value.
    public struct Entry: Sendable, Equatable, Codable {
        /// The key, upper-case.
        public var key: String
        /// The value, as written.
        public var value: String

        /// A comment; `key` is stored upper-case.
        public init(key: String, value: String) {
            self.key = key.uppercased()
            self.value = value
        }
    }

    /// The encoder's vendor string.
    public var vendor: String
    /// The comments, in order.
    public var entries: [Entry]

    /// A comment header with `vendor` and `entries`.
    public init(vendor: String, entries: [Entry] = []) {
        self.vendor = vendor
        self.entries = entries
    }

    /// The first value for `key`, compared case-insensitively.
    public subscript(key: String) -> String? {
        let wanted = key.uppercased()
        return entries.first(where: { $0.key == wanted })?.value
    }

    /// Appends `value` under `key` unless the value is nil or empty.
    public mutating func append(_ key: String, _ value: String?) {
        guard let value, !value.isEmpty else { return }
        entries.append(Entry(key: key, value: value))
    }

    /// One value per key (the first), for reports and JSON.
    public var dictionary: [String: String] {
        var result: [String: String] = [:]
        for entry in entries where result[entry.key] == nil { result[entry.key] = entry.value }
        return result
    }
}
