import AudioPipeline
import ArgumentParser
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

struct InspectCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "inspect",
        abstract: "Report what a message or recording holds: header, tags, exact duration, loudness, true peak.",
        discussion: """
            For Ogg Opus and Opus-in-CAF files: the header (channels, pre-skip, input rate, \
            output gain), every tag, the exact duration and bitrate, and the decoded audio's \
            integrated loudness and true peak. For any other audio file: the format, duration, \
            rate, channels, loudness, true peak, and the speech span that `encode` would keep.
            """)

    @Argument(help: "Files to inspect.", completion: .file())
    var files: [String]

    @Flag(help: "Print JSON on stdout: an object for one file, an array for several, with {file, error, errorCode} for a file that failed.")
    var json = false

    func run() async throws {
        var results: [InspectResult] = []
        var failures: [AudioPipelineError] = []
        for file in files {
            do {
                let report = try FileReport.inspect(path: file)
                results.append(.report(report))
                if !json { print(report.text) }
            } catch {
                let failure = (error as? AudioPipelineError)?.attributed(to: file)
                    ?? AudioPipelineError(.io, "\(error)", source: file)
                failures.append(failure)
                results.append(.failure(file: file, failure))
                printError(failure.description)
            }
        }
        // One entry per file, in order, failures included, as `encode --json` does: a script
        // reading the array by position must not have it shifted by a bad file.
        if json { try JSONOutput.print(results, asArray: files.count > 1) }
        let status = ExitStatus.forFailures(failures)
        if status != .success { throw status }
    }
}

/// One entry of `inspect --json`: the file's report, or why it has none.
enum InspectResult: Encodable {
    case report(FileReport)
    case failure(file: String, AudioPipelineError)

    private enum CodingKeys: String, CodingKey { case file, error, errorCode }

    func encode(to encoder: any Encoder) throws {
        switch self {
        case .report(let report):
            try report.encode(to: encoder)
        case .failure(let file, let error):
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(file, forKey: .file)
            try container.encode(error.description, forKey: .error)
            try container.encode(error.code.rawValue, forKey: .errorCode)
        }
    }
}
