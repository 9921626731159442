import Foundation
import Testing

/// Runs the reference tools (opusenc, opusdec, opusinfo, sox, ffmpeg, ffprobe) that judge the
/// container code, inside a temporary folder that is removed afterwards.
struct ToolBox {
    let folder: URL

    struct Output {
        var status: Int32
        var standardOutput: String
        var standardError: String
        var combined: String { standardOutput + standardError }
    }

    static func withTemporaryFolder<T>(_ body: (ToolBox) throws -> T) throws -> T {
        let folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("voicemsg-containers-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        return try body(ToolBox(folder: folder))
    }

    func path(_ name: String) -> String { folder.appendingPathComponent(name).path }

    /// Runs `tool` with `arguments` in the folder. Output goes to files, so a chatty tool
    /// cannot block on a full pipe.
    @discardableResult
    func run(_ tool: String, _ arguments: [String], expectSuccess: Bool = true) throws -> Output {
        let id = UUID().uuidString
        let outURL = folder.appendingPathComponent("\(id).out")
        let errURL = folder.appendingPathComponent("\(id).err")
        _ = FileManager.default.createFile(atPath: outURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
        let outHandle = try FileHandle(forWritingTo: outURL)
        let errHandle = try FileHandle(forWritingTo: errURL)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [tool] + arguments
        process.currentDirectoryURL = folder
        process.standardOutput = outHandle
        process.standardError = errHandle
        try process.run()
        process.waitUntilExit()
        try outHandle.close()
        try errHandle.close()
        let output = Output(
            status: process.terminationStatus,
            standardOutput: (try? String(contentsOf: outURL, encoding: .utf8)) ?? "",
            standardError: (try? String(contentsOf: errURL, encoding: .utf8)) ?? "")
        try? FileManager.default.removeItem(at: outURL)
        try? FileManager.default.removeItem(at: errURL)
        if expectSuccess, output.status != 0 {
            Issue.record("\(tool) \(arguments.joined(separator: " ")) failed (\(output.status)): \(output.standardError)")
        }
        return output
    }

    func read(_ name: String) throws -> [UInt8] {
        Array(try Data(contentsOf: folder.appendingPathComponent(name)))
    }

    func write(_ bytes: [UInt8], to name: String) throws {
        try Data(bytes).write(to: folder.appendingPathComponent(name))
    }

    /// Decodes an Opus file with opusdec to 32-bit float samples at 48 kHz (no dither, so two
    /// decodes of the same packets are bit-identical).
    func opusdec(_ name: String) throws -> WAVSamples {
        let wav = "\(name).dec.wav"
        try run("opusdec", ["--quiet", "--force-wav", "--float", "--rate", "48000", name, wav])
        return try WAVSamples(parsing: read(wav))
    }

    /// The samples of a WAV file (float or 16-bit PCM), interleaved, read from its RIFF chunks
    /// without trusting any tool.
    struct WAVSamples {
        var channelCount: Int
        var bytesPerSample: Int
        var data: [UInt8]
        var frameCount: Int { data.count / (channelCount * bytesPerSample) }

        init(parsing bytes: [UInt8]) throws {
            func u32(_ at: Int) -> Int { Int(bytes[at]) | Int(bytes[at + 1]) << 8 | Int(bytes[at + 2]) << 16 | Int(bytes[at + 3]) << 24 }
            func u16(_ at: Int) -> Int { Int(bytes[at]) | Int(bytes[at + 1]) << 8 }
            try #require(bytes.count >= 12 && Array(bytes[0..<4]) == Array("RIFF".utf8))
            var offset = 12
            var channels = 0, bits = 0
            var data: [UInt8]?
            while offset + 8 <= bytes.count {
                let id = String(decoding: bytes[offset..<offset + 4], as: UTF8.self)
                let size = u32(offset + 4)
                let body = offset + 8
                if id == "fmt " { channels = u16(body + 2); bits = u16(body + 14) }
                // opusdec leaves the data size at 0 or 0xFFFFFFFF when it cannot seek; take the rest.
                if id == "data" { data = Array(bytes[body..<min(bytes.count, body + size)]); break }
                offset = body + size + (size & 1)
            }
            channelCount = channels
            bytesPerSample = bits / 8
            self.data = try #require(data)
            try #require(channelCount > 0 && bytesPerSample > 0)
        }
    }
}
