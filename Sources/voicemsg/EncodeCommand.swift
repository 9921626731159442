import AudioPipeline
import ArgumentParser
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import SystemPackage
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import RunTracking

struct EncodeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "encode",
        abstract: "Turn recordings into trimmed, loudness-normalized Opus messages tagged with their marker.",
        discussion: """
            Each input is decoded (any format libsndfile reads), resampled to 48 kHz, cleared of \
            DC and rumble, cleared of noise when it is noisy (--denoise; clean recordings pass \
            untouched), trimmed to its speech plus padding, normalized to the target loudness \
            under a true-peak ceiling that holds on the decoded Opus, and encoded. Several inputs \
            are processed in parallel; one bad input does not stop the others.

            Markers: 5km, 2500m, 3.1mi, 50%, halfway, finish, finish-1km (case and spaces ignored).

            The container follows -o's extension (.caf: Opus in CAF; .webm: Opus in WebM; .opus, \
            .ogg, .oga: Ogg Opus; .m4a: the same message as AAC-LC in an M4A, for browsers that \
            play no Opus) unless --format names one; an extension that contradicts --format is refused.

            Exit status: 0 when every input was encoded; 3 when the only failures are recordings \
            with no speech; 1 when any input failed for another reason; 64 for bad arguments. A \
            message whose decoded true peak stays above the ceiling (a low --bitrate) is written \
            and counts as encoded, with a warning line on stderr and isTruePeakAboveCeiling in \
            its JSON report.
            """)

    @Argument(help: "Recordings to encode.", completion: .file())
    var inputs: [String]

    @Option(name: [.short, .customLong("output")], help: "The output file (one input only).")
    var output: String?

    @Option(help: "Write each output here (created if missing), named after its input with the container's extension.")
    var outputDir: String?

    @Option(parsing: .unconditional, help: "Where on the run the message plays, e.g. 5km, halfway, finish-1km.",
            transform: DistanceMarker.init(parsing:))
    var marker: DistanceMarker

    @Option(help: "Who the message is from (also written as ARTIST).")
    var sender: String?

    @Option(help: "The run's identifier (RUN_ID tag).")
    var runId: String?

    @Option(help: "The message's identifier (MESSAGE_ID tag).")
    var messageId: String?

    @Option(help: "A title (TITLE tag).")
    var title: String?

    @Option(help: "Container: ogg (Ogg Opus), caf (Opus in CAF, what AVAudioPlayer plays on iOS), webm (Opus in WebM, what Safari plays from iOS 17.4) or m4a (AAC in MP4, what every iPhone plays) (default: -o's extension, else ogg).")
    var format: MessageFormat?

    @OptionGroup(title: "Audio")
    var audio: AudioOptions

    @Flag(help: "Print each message's report as JSON on stdout.")
    var json = false

    func validate() throws {
        switch (output, outputDir) {
        case (nil, nil): throw ValidationError("Give -o OUT or --output-dir DIR.")
        case (.some, .some): throw ValidationError("Give either -o OUT or --output-dir DIR, not both.")
        case (.some, nil) where inputs.count > 1:
            throw ValidationError("-o takes one input; use --output-dir for \(inputs.count) inputs.")
        default: break
        }
        if let output, let named = MessageFormat(pathExtension: URL(fileURLWithPath: output).pathExtension),
           let format, format != named {
            throw ValidationError("-o \(output) names \(named) but --format \(format.name) asks for \(format); make them agree")
        }
        try audio.validate()
    }

    /// --format, else what -o's extension names, else Ogg: a `.caf` file always holds CAF.
    private var container: MessageFormat {
        format ?? output.flatMap { MessageFormat(pathExtension: URL(fileURLWithPath: $0).pathExtension) } ?? .opus(.ogg)
    }

    func run() async throws {
        let metadata = MessageMetadata(
            marker: marker, sender: sender, runID: runId,
            messageID: messageId, title: title)
        var configuration = audio.pipelineConfiguration
        // One input leaves cores idle: let the encoder cut a long message into pieces instead.
        if inputs.count == 1 { configuration.encoder.segments = ProcessInfo.processInfo.activeProcessorCount }
        // The AAC is made from the same levelled signal as the Opus, which is still made first:
        // the one checked the same way, and the one whose length the AAC keeps.
        if container == .m4a { configuration.aac = AACEncoder.Configuration() }
        // An engine asked for by name must be there; `auto` finds out only if a message needs it.
        if case .engine = configuration.denoiser.mode {
            do {
                _ = try Denoiser.engine(for: configuration.denoiser.mode)
            } catch let error as AudioPipelineError {
                printError("--denoise \(audio.denoise.defaultValueDescription): \(error.message)")
                throw ExitCode(ExitStatus.failure)
            }
        }
        let pipeline = MessagePipeline(configuration: configuration)
        // A batch names a folder that need not exist yet.
        if let outputDir {
            do {
                try FileManager.default.createDirectory(atPath: outputDir, withIntermediateDirectories: true)
            } catch {
                printError("\(outputDir): cannot create the output folder (\(Self.reason(error)))")
                throw ExitCode(ExitStatus.failure)
            }
        }
        let jobs = inputs.map { ($0, destination(for: $0)) }
        var progress = Progress(total: jobs.count)

        var reports: [Int: EncodeResult] = [:]
        var failures: [AudioPipelineError] = []
        await withTaskGroup(of: (Int, EncodeResult).self) { group in
            var next = 0
            func addNext() {
                guard next < jobs.count else { return }
                let index = next
                let (input, destination) = jobs[index]
                let format = self.container
                group.addTask {
                    (index, Self.encode(input, to: destination, format: format, metadata: metadata, pipeline: pipeline))
                }
                next += 1
            }
            for _ in 0..<max(1, ProcessInfo.processInfo.activeProcessorCount) { addNext() }
            for await (index, result) in group {
                reports[index] = result
                if let error = result.error {
                    failures.append(error)
                    if progress.isVisible { write(Data("\r\u{1B}[K".utf8), to: .standardError) }
                    printError(error.description)
                } else if let report = result.report, report.normalization.isTruePeakAboveCeiling {
                    if progress.isVisible { write(Data("\r\u{1B}[K".utf8), to: .standardError) }
                    printError(Self.ceilingWarning(result.input, report, bitrate: audio.bitrate))
                } else if let report = result.report, let aac = report.aac, aac.normalization.isTruePeakAboveCeiling {
                    if progress.isVisible { write(Data("\r\u{1B}[K".utf8), to: .standardError) }
                    printError(Self.ceilingWarning(result.input, aac))
                }
                progress.advance(jobs[index].0, ok: result.error == nil)
                addNext()
            }
        }
        // Said once for the whole batch, naming how many messages it concerns.
        let passedThrough = reports.values.compactMap(\.report).filter { $0.denoise.decision == .unavailable }
        if let first = passedThrough.first {
            let count = passedThrough.count
            printError("note: \(count) noisy message\(count == 1 ? "" : "s") encoded without noise suppression: \(first.denoise.note ?? "no engine")")
        }
        if json { try JSONOutput.print((0..<jobs.count).compactMap { reports[$0] }, asArray: jobs.count > 1) }
        let status = ExitStatus.forFailures(failures)
        if status != .success { throw status }
    }

    private func destination(for input: String) -> String {
        if let output { return output }
        let base = URL(fileURLWithPath: input).deletingPathExtension().lastPathComponent
        return URL(fileURLWithPath: outputDir!).appendingPathComponent(base + "." + container.pathExtension).path
    }

    /// The one line that keeps a missed ceiling from passing as done.
    static func ceilingWarning(_ input: String, _ report: MessageReport, bitrate: Double) -> String {
        let peak = report.loudnessAfter.truePeak.map { String(printf: "%.2f", $0) } ?? "?"
        let ceiling = report.normalization.truePeakCeilingDB.map { String(printf: "%g", $0) } ?? "?"
        return "\(input): warning: written, but its decoded true peak is \(peak) dBTP, above the \(ceiling) dBTP ceiling after \(report.normalization.encodePasses) encodes at \(String(printf: "%g", bitrate)) kb/s; a higher --bitrate keeps it under"
    }

    /// The same line for the AAC version, which has no bitrate option to raise.
    static func ceilingWarning(_ input: String, _ aac: AACReport) -> String {
        let peak = aac.loudness.truePeak.map { String(printf: "%.2f", $0) } ?? "?"
        let ceiling = aac.normalization.truePeakCeilingDB.map { String(printf: "%g", $0) } ?? "?"
        return "\(input): warning: written, but its decoded AAC's true peak is \(peak) dBTP, above the \(ceiling) dBTP ceiling after \(aac.normalization.encodePasses) encodes"
    }

    private static func encode(
        _ input: String, to destination: String, format: MessageFormat,
        metadata: MessageMetadata, pipeline: MessagePipeline
    ) -> EncodeResult {
        do {
            let message = try pipeline.process(.file(path: input), metadata: metadata)
            switch format {
            case .opus(let container):
                let file = try message.file(in: container)
                try AtomicFile.write(file.bytes, to: destination)
                return EncodeResult(input: input, output: destination, report: file.report, error: nil)
            case .m4a:
                guard let aac = message.aac else {
                    throw AudioPipelineError(.invalidConfiguration, "no AAC version was asked for")
                }
                try AtomicFile.write(try aac.get().bytes, to: destination)
                return EncodeResult(input: input, output: destination, report: message.report, error: nil)
            }
        } catch let error as AudioPipelineError {
            return EncodeResult(input: input, output: destination, report: nil, error: error.attributed(to: input))
        } catch {
            return EncodeResult(input: input, output: destination, report: nil,
                                error: AudioPipelineError(.io, "\(error)", source: input))
        }
    }
}

/// One line of `encode --json`: the report, or the error.
struct EncodeResult: Encodable, Sendable {
    var input: String
    var output: String
    var report: MessageReport?
    var error: AudioPipelineError?

    enum CodingKeys: String, CodingKey { case input, output, report, error, errorCode }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(input, forKey: .input)
        if let report {
            try container.encode(output, forKey: .output)
            try container.encode(report, forKey: .report)
        }
        if let error {
            try container.encode(error.description, forKey: .error)
            try container.encode(error.code.rawValue, forKey: .errorCode)
        }
    }
}

extension EncodeCommand {
    /// Why a file-system call failed, as the system says it ("Not a directory"): the
    /// POSIX error under FileManager's, not the error's debug description.
    static func reason(_ error: any Error) -> String {
        let posix = error as? POSIXError
            ?? (error as? CocoaError)?.userInfo["NSUnderlyingError"] as? POSIXError
        return posix.map { String(cString: strerror($0.code.rawValue)) } ?? "\(error)"
    }
}
