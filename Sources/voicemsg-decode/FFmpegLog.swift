import CFFmpeg

/// FFmpeg's log, kept from stderr. The first error it reports is remembered: demuxers such as
/// Matroska's resynchronize after a broken element and carry on, so an error in the log is
/// the only sign that audio was skipped, and the decoder refuses such a file with that text.
enum FFmpegLog {
    nonisolated(unsafe) private(set) static var firstError: String?

    static func silence() {
        av_log_set_level(AV_LOG_ERROR)
        av_log_set_callback { context, level, format, arguments in
            guard level <= AV_LOG_ERROR, FFmpegLog.firstError == nil, let format, let arguments else { return }
            var line = [CChar](repeating: 0, count: 512)
            var prefix: Int32 = 0
            _ = av_log_format_line2(context, level, format, arguments, &line, Int32(line.count), &prefix)
            let text = String(cText: line).trimmingCharacters()
            if !text.isEmpty { FFmpegLog.firstError = text }
        }
    }

    /// Forgets what was logged while probing, where demuxers that do not match complain.
    static func reset() { firstError = nil }
}

extension String {
    /// The text before the first NUL of a C buffer.
    init(cText buffer: [CChar]) {
        self = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Without the surrounding spaces and newlines, and without FFmpeg's "[mov @ 0x55…] " prefix.
    func trimmingCharacters() -> String {
        var text = Substring(self)
        if text.hasPrefix("["), let close = text.firstIndex(of: "]") {
            text = text[text.index(after: close)...]
        }
        while let first = text.first, first.isWhitespace { text = text.dropFirst() }
        while let last = text.last, last.isWhitespace { text = text.dropLast() }
        return String(text)
    }
}
