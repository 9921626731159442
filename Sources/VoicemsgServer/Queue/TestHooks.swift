import Foundation

/// Faults that only the crash tests switch on, through environment variables read by the CLI.
/// Nothing sets them in normal use; with none set, processing is untouched.
///
/// - `VOICEMSG_TEST_CRASH_SENDER=name`: a worker processing a message from sender `name` kills
///   its own process with SIGKILL, as a poisoned input crashing a decoder would.
/// - `VOICEMSG_TEST_PROCESSING_DELAY_MS=n`: each job sleeps n ms before processing, so a test
///   can kill or stop a worker while it holds a job.
public struct TestHooks: Sendable {
    public var crashSender: String?
    public var processingDelayMilliseconds: Int = 0

    public init(crashSender: String? = nil, processingDelayMilliseconds: Int = 0) {
        self.crashSender = crashSender
        self.processingDelayMilliseconds = processingDelayMilliseconds
    }

    /// The hooks the environment asks for.
    public static func fromEnvironment(
        _ environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> TestHooks {
        TestHooks(
            crashSender: environment["VOICEMSG_TEST_CRASH_SENDER"].flatMap { $0.isEmpty ? nil : $0 },
            processingDelayMilliseconds: environment["VOICEMSG_TEST_PROCESSING_DELAY_MS"]
                .flatMap(Int.init) ?? 0)
    }

    /// Called on the processing thread before the pipeline runs.
    func beforeProcessing(sender: String?) {
        if processingDelayMilliseconds > 0 {
            Thread.sleep(forTimeInterval: Double(processingDelayMilliseconds) / 1000)
        }
        if let crashSender, sender == crashSender {
            kill(getpid(), SIGKILL)
        }
    }
}
