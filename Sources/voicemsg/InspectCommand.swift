import AudioPipeline
import ArgumentParser
import Foundation

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

    @Flag(help: "Print JSON on stdout: an object for one file, an array for several.")
    var json = false

    func run() async throws {
        var reports: [FileReport] = []
        var failures: [AudioPipelineError] = []
        for file in files {
            do {
                let report = try FileReport.inspect(path: file)
                reports.append(report)
                if !json { print(report.text) }
            } catch {
                let failure = (error as? AudioPipelineError)?.attributed(to: file)
                    ?? AudioPipelineError(.io, "\(error)", source: file)
                failures.append(failure)
                printError(failure.description)
            }
        }
        if json, !reports.isEmpty { try JSONOutput.print(reports) }
        let status = ExitStatus.forFailures(failures)
        if status != .success { throw status }
    }
}
