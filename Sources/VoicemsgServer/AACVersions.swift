import AudioPipeline
import Foundation
import HTTPTypes
import Hummingbird
import NIOConcurrencyHelpers

/// The AAC version of a message that has none: one made before AAC versions were, or one whose
/// worker could not make it (`JobResult.aacFailure`). It is made once, from the stored Ogg Opus,
/// the first time a client asks for it, and stored beside the Opus; every later request reads it.
///
/// A request must never turn into unbounded work, so:
/// - each message is made at most once at a time: a second request for it waits for the same
///   work;
/// - at most `limit` messages are made at once in this process, at the workers' lower priority;
///   a request past that gets 503 with `Retry-After` and starts nothing;
/// - a request waits at most `wait`, then gets 503 with `Retry-After` while the work goes on;
/// - a message whose AAC could not be made is not tried again for `failureCooldown`: requests
///   meanwhile get 503 with the reason, at once. Its Opus is untouched either way.
/// Each making is itself bounded: the encoder child's CPU, memory and wall-clock limits, and
/// the pipeline's few passes.
actor AACVersions {
    let store: Store
    let configuration: AACEncoder.Configuration
    let threads: UploadThreads
    let limit: Int
    let wait: Duration
    let failureCooldown: Duration
    private var making: [String: Task<StoredAAC, any Error>] = [:]
    private var failures: [String: (until: ContinuousClock.Instant, reason: String)] = [:]

    init(
        store: Store, configuration: AACEncoder.Configuration, threads: UploadThreads, limit: Int = 1,
        wait: Duration = .seconds(20), failureCooldown: Duration = .seconds(300)
    ) {
        self.store = store
        self.configuration = configuration
        self.threads = threads
        self.limit = limit
        self.wait = wait
        self.failureCooldown = failureCooldown
    }

    /// The AAC version of the ready message `id`, made now if it has none.
    func aac(messageID id: String) async throws -> StoredAAC {
        if let stored = try await store.audio.aac(messageID: id) { return stored }
        let now = ContinuousClock.now
        if let failure = failures[id] {
            if failure.until > now {
                throw HTTPError(
                    .serviceUnavailable, headers: [.retryAfter: "\(Self.seconds(failure.until - now))"],
                    message: "the AAC version of message \(id) could not be made (\(failure.reason)); its Opus is served as container=ogg or webm")
            }
            failures[id] = nil
        }
        let task: Task<StoredAAC, any Error>
        if let running = making[id] {
            task = running
        } else {
            guard making.count < limit else {
                throw HTTPError(
                    .serviceUnavailable, headers: [.retryAfter: "\(Self.retrySeconds)"],
                    message: "the server is making \(limit) AAC version\(limit == 1 ? "" : "s") at once, its most; try again in \(Self.retrySeconds) s")
            }
            task = start(id)
        }
        guard let made = try await Self.value(of: task, waitingAtMost: wait) else {
            throw HTTPError(
                .serviceUnavailable, headers: [.retryAfter: "\(Self.retrySeconds)"],
                message: "the AAC version of message \(id) is being made; try again in \(Self.retrySeconds) s")
        }
        return made
    }

    /// Makes and stores the AAC of `id` in a task of its own, which goes on when the request
    /// that started it is gone.
    private func start(_ id: String) -> Task<StoredAAC, any Error> {
        let store = self.store, configuration = self.configuration, threads = self.threads
        let task = Task<StoredAAC, any Error> {
            do {
                guard let ogg = try await store.audio.audio(messageID: id) else {
                    throw HTTPError(.notFound, message: "message \(id) has no audio")
                }
                let file = try await threads.run {
                    try MessagePipeline().aac(fromOpus: try OggOpusReader.read(ogg), configuration: configuration)
                }
                let made = StoredAAC(Data(file.bytes))
                // A message deleted meanwhile stores nothing; one given its AAC meanwhile (by
                // another server) keeps that one, which its next request reads.
                _ = try await store.audio.storeAAC(made, messageID: id)
                await self.finished(id, failure: nil)
                return made
            } catch let error as HTTPError {
                await self.finished(id, failure: nil)
                throw error
            } catch {
                let reason = (error as? AudioPipelineError)?.message ?? "\(error)"
                await self.finished(id, failure: reason)
                throw HTTPError(
                    .serviceUnavailable, headers: [.retryAfter: "\(Self.seconds(self.failureCooldown))"],
                    message: "the AAC version of message \(id) could not be made (\(reason)); its Opus is served as container=ogg or webm")
            }
        }
        making[id] = task
        return task
    }

    private func finished(_ id: String, failure: String?) {
        making[id] = nil
        guard let failure else { return }
        // Bounded: the oldest failures are forgotten first, and are then tried again.
        if failures.count >= Self.maximumFailuresKept, let oldest = failures.min(by: { $0.value.until < $1.value.until })?.key {
            failures[oldest] = nil
        }
        failures[id] = (ContinuousClock.now + failureCooldown, failure)
    }

    /// `task`'s value, or nil once `wait` has passed. Awaiting a task's value does not end when
    /// the waiter is cancelled, so the two are raced through one continuation, resumed once.
    private static func value(of task: Task<StoredAAC, any Error>, waitingAtMost wait: Duration) async throws -> StoredAAC? {
        let waiter = NIOLockedValueBox<CheckedContinuation<StoredAAC?, any Error>?>(nil)
        @Sendable func resume(_ result: Result<StoredAAC?, any Error>) {
            waiter.withLockedValue { continuation in
                continuation?.resume(with: result)
                continuation = nil
            }
        }
        return try await withCheckedThrowingContinuation { continuation in
            waiter.withLockedValue { $0 = continuation }
            Task { resume(await task.result.map(Optional.some)) }
            Task {
                try? await Task.sleep(for: wait)
                resume(.success(nil))
            }
        }
    }

    static let retrySeconds = 2
    static let maximumFailuresKept = 10_000

    private static func seconds(_ duration: Duration) -> Int {
        max(1, Int(duration.components.seconds) + (duration.components.attoseconds > 0 ? 1 : 0))
    }
}
