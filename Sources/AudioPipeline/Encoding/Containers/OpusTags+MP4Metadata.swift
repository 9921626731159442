extension OpusTags {
    /// The namespace of the freeform (`----`) items: iTunes's own, which Apple's players, most
    /// taggers and FFmpeg read (`ffprobe -show_format` lists each by its name).
    static let mp4FreeformMean = "com.apple.iTunes"

    /// The tags with an iTunes item of their own; every other key is a freeform item under its
    /// own name. ARTIST is `©ART`, so ordinary players show the sender; SENDER stays freeform
    /// beside it, as the Ogg file has both.
    static let mp4Items: [String: [UInt8]] = [
        "TITLE": [0xA9] + Array("nam".utf8),
        "ARTIST": [0xA9] + Array("ART".utf8),
        "ENCODER": [0xA9] + Array("too".utf8),
    ]

    /// `file`, an MP4 whose `moov` is its last top-level box (as FFmpeg's muxer writes it
    /// without `faststart`), with these tags added to its iTunes metadata list
    /// (`moov/udta/meta/ilst`), which is made when missing.
    ///
    /// Written here because FFmpeg's MP4 muxer writes only the iTunes items it has names for
    /// (title, artist…), or else every tag as QuickTime `mdta` keys instead of them: never
    /// freeform items beside the standard ones. Only boxes inside `moov` grow, and `moov` comes
    /// after the media data, so no chunk offset moves.
    func taggingMP4(_ file: [UInt8]) throws -> [UInt8] {
        let top = try MP4Box.children(of: file, in: 0..<file.count)
        guard let moov = top.first(where: { $0.type == "moov" }) else {
            throw AudioPipelineError(.invalidContainer, "the MP4 file has no 'moov' box")
        }
        guard moov.range.upperBound == file.count else {
            throw AudioPipelineError(.invalidContainer, "the MP4 file's 'moov' box is not its last, so tags cannot be added in place")
        }
        // The boxes to grow, outermost first, and where the new bytes go.
        var ancestors = [moov]
        var insertion: [UInt8]
        var position: Int
        let items = try mp4ItemList()
        if let udta = try MP4Box.children(of: file, in: moov.payload).first(where: { $0.type == "udta" }) {
            ancestors.append(udta)
            // `meta` is a full box: a version and flags before its children.
            if let meta = try MP4Box.children(of: file, in: udta.payload).first(where: { $0.type == "meta" }) {
                ancestors.append(meta)
                let metaChildren = (meta.payload.lowerBound + 4)..<meta.payload.upperBound
                if let ilst = try MP4Box.children(of: file, in: metaChildren).first(where: { $0.type == "ilst" }) {
                    ancestors.append(ilst)
                    (insertion, position) = (items, ilst.range.upperBound)
                } else {
                    (insertion, position) = (MP4Box.make("ilst", items), meta.range.upperBound)
                }
            } else {
                (insertion, position) = (Self.mp4Meta(items), udta.range.upperBound)
            }
        } else {
            (insertion, position) = (MP4Box.make("udta", Self.mp4Meta(items)), moov.range.upperBound)
        }
        var tagged = Array(file[0..<position]) + insertion + Array(file[position...])
        for box in ancestors {
            let size = box.range.count + insertion.count
            guard size <= Int(UInt32.max) else {
                throw AudioPipelineError(.invalidContainer, "the MP4 file's '\(box.type)' box would pass 4 GiB")
            }
            for (index, byte) in withUnsafeBytes(of: UInt32(size).bigEndian, Array.init).enumerated() {
                tagged[box.range.lowerBound + index] = byte
            }
        }
        return tagged
    }

    /// The `ilst` items, in the tags' order; the vendor is the encoder's name, already there.
    private func mp4ItemList() throws -> [UInt8] {
        var items: [UInt8] = []
        for entry in entries {
            let value = MP4Box.make("data", [0, 0, 0, 1, 0, 0, 0, 0] + Array(entry.value.utf8))
            if let name = Self.mp4Items[entry.key] {
                items += MP4Box.make(name, value)
            } else {
                items += MP4Box.make(
                    "----",
                    MP4Box.make("mean", [0, 0, 0, 0] + Array(Self.mp4FreeformMean.utf8))
                        + MP4Box.make("name", [0, 0, 0, 0] + Array(entry.key.utf8)) + value)
            }
        }
        return items
    }

    /// A `meta` box holding `items`, with the handler that marks them as iTunes metadata.
    private static func mp4Meta(_ items: [UInt8]) -> [UInt8] {
        let handler = MP4Box.make("hdlr", [0, 0, 0, 0, 0, 0, 0, 0] + Array("mdirappl".utf8) + [UInt8](repeating: 0, count: 9))
        return MP4Box.make("meta", [0, 0, 0, 0] + handler + MP4Box.make("ilst", items))
    }
}

/// One box of an MP4 file: its four-character type and where it lies.
struct MP4Box {
    var type: String
    /// The whole box, header included.
    var range: Range<Int>
    /// What follows the 8-byte header.
    var payload: Range<Int> { (range.lowerBound + 8)..<range.upperBound }

    /// The boxes one after another in `range` of `bytes`. Only the 32-bit sizes an audio
    /// message needs are read; a box that claims more than its parent holds is refused.
    static func children(of bytes: [UInt8], in range: Range<Int>) throws -> [MP4Box] {
        var boxes: [MP4Box] = []
        var offset = range.lowerBound
        while offset + 8 <= range.upperBound {
            let size = bytes[offset..<(offset + 4)].reduce(0) { $0 << 8 | Int($1) }
            let type = String(decoding: bytes[(offset + 4)..<(offset + 8)], as: UTF8.self)
            let end = size == 0 ? range.upperBound : offset + size
            guard size == 0 || size >= 8, end <= range.upperBound else {
                throw AudioPipelineError(.invalidContainer, "the MP4 file's '\(type)' box at byte \(offset) has a size of \(size), which does not fit")
            }
            boxes.append(MP4Box(type: type, range: offset..<end))
            offset = end
        }
        return boxes
    }

    /// A box of `type` (four bytes) around `payload`.
    static func make(_ type: String, _ payload: [UInt8]) -> [UInt8] {
        make(Array(type.utf8), payload)
    }

    static func make(_ type: [UInt8], _ payload: [UInt8]) -> [UInt8] {
        var box: [UInt8] = []
        box.appendBigEndian(UInt32(8 + payload.count))
        return box + type + payload
    }
}
