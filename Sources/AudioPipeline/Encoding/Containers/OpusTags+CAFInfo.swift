extension OpusTags {
    /// The info key that holds the Opus vendor string, which CAF has no field for.
    static let cafVendorKey = "vendor"

    /// The `info` chunk (CAF specification, "Information Chunk"): an entry count, then key and
    /// value as NUL-terminated UTF-8 strings. Keys are written lower-case, the spelling of
    /// Apple's own keys, so that ARTIST and TITLE arrive as the `artist` and `title` that
    /// Apple's players show; custom keys (`distance_marker`) ride along the same way.
    func cafInfo() throws -> [UInt8] {
        let pairs = [(Self.cafVendorKey, vendor)] + entries.map { ($0.key.lowercased(), $0.value) }
        var bytes: [UInt8] = []
        bytes.appendBigEndian(UInt32(pairs.count))
        for (key, value) in pairs {
            guard !key.utf8.contains(0), !value.utf8.contains(0) else {
                throw AudioPipelineError(.invalidContainer, "tag '\(key)' contains a NUL character, which a CAF info string cannot hold")
            }
            bytes.append(contentsOf: key.utf8)
            bytes.append(0)
            bytes.append(contentsOf: value.utf8)
            bytes.append(0)
        }
        return bytes
    }

    /// Parses an `info` chunk. Keys come back upper-case, as Opus comments are.
    init(parsingCAFInfo reader: inout ByteReader) throws {
        let count = Int(try reader.readBigEndian(UInt32.self, "number of entries"))
        // Each entry needs two terminators at least.
        guard count <= reader.remaining / 2 else {
            throw reader.error("declares \(count) entries but only \(reader.remaining) bytes remain")
        }
        func string(_ what: String) throws -> String {
            let start = reader.offset
            guard let end = reader.bytes[start...].firstIndex(of: 0) else {
                throw reader.error("\(what) has no terminating NUL")
            }
            let text = String(decoding: try reader.readBytes(end - start, what), as: UTF8.self)
            try reader.skip(1, "terminator")
            return text
        }
        var vendor = ""
        var entries: [Entry] = []
        for index in 0..<count {
            let key = try string("key \(index)")
            let value = try string("value \(index)")
            if key == Self.cafVendorKey { vendor = value } else { entries.append(Entry(key: key, value: value)) }
        }
        self.init(vendor: vendor, entries: entries)
    }
}
