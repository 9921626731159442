import Foundation
import VoicemsgServer

/// A processor that does no audio work: the "result" is the upload itself, so each result can be
/// traced to its job. It can also stall, or crash, on purpose.
struct FaultyProcessor: MessageProcessor {
    /// Sleeps this long before answering, so a test can kill or stop a worker mid-job.
    var delayMilliseconds = 0
    /// A message from this sender kills the whole process with SIGKILL, as a poisoned input
    /// crashing a decoder would.
    var crashSender: String?

    func process(_ job: ProcessingInput) throws -> JobResult {
        if delayMilliseconds > 0 {
            Thread.sleep(forTimeInterval: Double(delayMilliseconds) / 1000)
        }
        if let crashSender, job.sender == crashSender {
            kill(getpid(), SIGKILL)
        }
        return JobResult(audio: job.original, durationSeconds: 0)
    }
}
