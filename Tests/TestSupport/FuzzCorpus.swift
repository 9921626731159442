import Foundation

/// The saved fuzz corpora, Fuzz/Corpus/<target> (seeds and fixed crash inputs; see
/// scripts/fuzz.sh), which the replay tests of every module read the same way.
public enum FuzzCorpus {
    /// Every file of `target`'s corpus, in name order.
    public static func inputs(_ target: String) throws -> [(name: String, bytes: [UInt8])] {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../Fuzz/Corpus/\(target)").standardizedFileURL
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        return try names.map { ($0, [UInt8](try Data(contentsOf: folder.appendingPathComponent($0)))) }
    }

    /// The same, each file read as UTF-8 text (invalid bytes become U+FFFD), as the text
    /// parsers' fuzz targets read them.
    public static func texts(_ target: String) throws -> [(name: String, text: String)] {
        try inputs(target).map { ($0.name, String(decoding: $0.bytes, as: UTF8.self)) }
    }
}
