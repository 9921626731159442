/// Reads an Ogg Opus file (RFC 7845) into an `OpusStream`, checking everything a decoder
/// relies on: page checksums and sequence, header packets and their pages, packet reassembly
/// across pages, and granule positions.
///
/// Only a single logical stream is supported: chained files (one stream after another) and
/// multiplexed files (several streams interleaved) are rejected with a message saying so.
/// Anything malformed or truncated, including a missing end-of-stream page, throws
/// `.invalidContainer`.
public enum OggOpusReader {
    /// The stream in an Ogg Opus file's bytes.
    public static func read(_ bytes: some Collection<UInt8>) throws -> OpusStream {
        let bytes = Array(bytes)
        guard !bytes.isEmpty else {
            throw AudioPipelineError(.invalidContainer, "empty input: not an Ogg Opus file")
        }
        var reader = ByteReader(bytes, context: "Ogg Opus")
        var assembler = OggOpusPacketAssembler()

        while !reader.isAtEnd {
            let offset = reader.offset
            let page = try OggPage.parse(from: &reader)
            do {
                try assembler.consume(page)
            } catch let error as AudioPipelineError {
                throw AudioPipelineError(error.code, "Ogg page at byte \(offset): \(error.message)")
            }
            if assembler.hasEnded, !reader.isAtEnd {
                // Anything after the end-of-stream page is another stream (a chain) or junk.
                let end = reader.offset
                if let next = try? OggPage.parse(from: &reader), next.flags.contains(.beginningOfStream) {
                    throw AudioPipelineError(
                        .invalidContainer,
                        "chained Ogg streams are not supported: a second stream starts at byte \(end)")
                }
                throw AudioPipelineError(
                    .invalidContainer, "\(bytes.count - end) bytes of unexpected data after the end-of-stream page at byte \(offset)")
            }
        }
        return try assembler.finish()
    }
}
