import AudioPipeline
import Foundation
import Logging

/// One claim-process-complete loop.
struct Worker: Sendable {
    let pool: WorkerPool
    let workerID: String
    let state: ShutdownState

    /// How long a job's outcome may take to be recorded once shutdown has begun.
    static let settleAtShutdownSeconds = 5.0

    private enum Outcome: Sendable {
        case finished(Result<JobResult, any Error>)
        case leaseLost
        case shutdownExpired
    }

    /// What a claim raced against shutdown gave.
    private enum ClaimOutcome: Sendable {
        case claimed(JobClaim?)
        case stopping
    }

    func run() async {
        let configuration = pool.configuration
        // Consecutive failed claims: each waits longer, up to half a minute, and only the first
        // is logged (an unreachable PostgreSQL is logged by the store, once per outage).
        var failures = 0
        while !state.isStopping {
            let claim: JobClaim?
            do {
                guard case .claimed(let claimed) = try await claimUnlessStopping() else { break }
                claim = claimed
                if failures > 0 {
                    pool.logger.debug("claims work again after \(failures) failures")
                    failures = 0
                }
            } catch {
                failures += 1
                if failures == 1 && (error as? StoreError)?.code != .unreachable {
                    pool.logger.error("claim failed, retrying with backoff: \(error)")
                }
                let backoff = RetryBackoff(
                    baseSeconds: configuration.pollInterval.inSeconds,
                    maxSeconds: max(configuration.pollInterval.inSeconds, 30))
                await state.sleep(seconds: backoff.delay(afterAttempt: failures))
                continue
            }
            guard let claim else {
                await pool.signal.waitForWork(timeoutSeconds: configuration.pollInterval.inSeconds)
                continue
            }
            await execute(claim)
        }
    }

    /// A claim that gives way to shutdown: while PostgreSQL is unreachable a claim waits for a
    /// connection, and SIGTERM must not wait with it.
    private func claimUnlessStopping() async throws -> ClaimOutcome {
        let queue = pool.queue
        let workerID = self.workerID
        let leaseSeconds = pool.configuration.lease.inSeconds
        let state = self.state
        return try await withThrowingTaskGroup(of: ClaimOutcome.self) { group in
            group.addTask { .claimed(try await queue.claim(workerID: workerID, leaseSeconds: leaseSeconds)) }
            group.addTask {
                await state.waitUntilStopping()
                return .stopping
            }
            let first = try await group.next() ?? .stopping
            group.cancelAll()
            if case .stopping = first {
                // A claim whose query had already gone out still lands: give the job back.
                while let late = try? await group.next() {
                    if case .claimed(let claimed?) = late { _ = try? await queue.release(claimed) }
                }
            }
            return first
        }
    }

    private func execute(_ claim: JobClaim) async {
        var logger = pool.logger
        logger[metadataKey: "message"] = "\(claim.messageID)"
        logger[metadataKey: "attempt"] = "\(claim.attempt)"
        logger[metadataKey: "worker"] = "\(workerID)"
        logger.debug("claimed")
        let started = ContinuousClock.now
        await withTaskGroup(of: Outcome?.self) { group in
            group.addTask { .finished(await self.process(claim)) }
            group.addTask { await self.heartbeat(claim) }
            group.addTask {
                await self.state.waitUntilExpired()
                return Task.isCancelled ? nil : .shutdownExpired
            }
            var first: Outcome = .shutdownExpired
            for await case let outcome? in group {
                first = outcome
                break
            }
            group.cancelAll()
            // Settled before the group ends: work already running on the thread pool cannot be
            // interrupted, and an attempt given up on (lease lost, grace period over) must not
            // wait for it to be recorded.
            let duration = ContinuousClock.now - started
            let outcome = first
            do {
                try await settleBeforeExit(claim, outcome: outcome, duration: duration, logger: logger)
            } catch {
                // The lease will expire and another worker will take the job over.
                logger.error("could not record the outcome: \(error)")
            }
        }
    }

    /// Settles, giving up `settleAtShutdownSeconds` after shutdown begins: with the database
    /// unreachable, settling waits for it, and must not hold the process past a SIGTERM.
    private func settleBeforeExit(
        _ claim: JobClaim, outcome: Outcome, duration: Duration, logger: Logger
    ) async throws {
        let settled = try await withThrowingTaskGroup(of: Bool.self) { settling in
            settling.addTask {
                try await settle(claim, outcome: outcome, duration: duration, logger: logger)
                return true
            }
            settling.addTask {
                await state.waitUntilStopping()
                try? await Task.sleep(for: .seconds(Self.settleAtShutdownSeconds))
                return false
            }
            let done = try await settling.next() ?? false
            settling.cancelAll()
            return done
        }
        if !settled {
            logger.warning(
                "could not record the outcome within \(Int(Self.settleAtShutdownSeconds)) s of shutdown; the lease will expire and another worker will take the job over")
        }
    }

    private func settle(_ claim: JobClaim, outcome: Outcome, duration: Duration, logger: Logger) async throws {
        let queue = pool.queue
        switch outcome {
        case .finished(.success(let result)):
            if try await queue.complete(claim, result: result) {
                pool.metrics.recordCompleted(duration: duration)
                logger.info("completed", metadata: ["bytes": "\(result.audio.count)"])
                if let failure = result.aacFailure {
                    logger.warning(
                        "ready without its AAC version (\(PrintableText.escaped(failure))); it will be made when first asked for")
                }
            } else {
                pool.metrics.recordStaleResult()
                logger.warning("lease lost before completion; result discarded")
            }
        case .finished(.failure(let error)):
            let text = "\(error)"
            switch FailureKind(error) {
            case .permanent:
                pool.metrics.recordFailure(.permanent)
                logger.info("failed: \(PrintableText.escaped(text))")
                _ = try await queue.fail(claim, error: text, retryAfterSeconds: nil)
            case .transient where claim.attempt >= claim.maxAttempts:
                pool.metrics.recordFailure(.dead)
                logger.warning("failed after \(claim.attempt) attempts: \(PrintableText.escaped(text))")
                _ = try await queue.fail(
                    claim, error: "gave up after \(claim.attempt) attempts: \(text)", retryAfterSeconds: nil)
            case .transient:
                let backoff = RetryBackoff(
                    baseSeconds: pool.configuration.retryBaseDelay.inSeconds,
                    maxSeconds: pool.configuration.retryMaxDelay.inSeconds)
                let delay = backoff.delay(afterAttempt: claim.attempt)
                pool.metrics.recordFailure(.retry)
                logger.warning("attempt failed, retrying in \(delay) s: \(PrintableText.escaped(text))")
                _ = try await queue.fail(claim, error: text, retryAfterSeconds: delay)
            }
        case .leaseLost:
            pool.metrics.recordStaleResult()
            logger.warning("lease lost while processing; abandoning the attempt")
        case .shutdownExpired:
            if try await queue.release(claim) {
                logger.info("released at shutdown; it will run again")
            }
        }
    }

    private func process(_ claim: JobClaim) async -> Result<JobResult, any Error> {
        let processor = pool.processor
        do {
            let input = ProcessingInput(
                messageID: claim.messageID, runID: claim.runID, runTitle: claim.runTitle,
                marker: try claim.marker.marker(), sender: claim.sender, original: claim.original)
            return .success(
                try await pool.threads.runIfActive {
                    BackgroundPriority.lowerCurrentThread()
                    return try processor.process(input)
                })
        } catch {
            return .failure(error)
        }
    }

    /// Extends the lease until cancelled; returns `.leaseLost` when the queue says it is gone.
    private func heartbeat(_ claim: JobClaim) async -> Outcome? {
        let interval = pool.configuration.effectiveHeartbeatInterval
        while true {
            do {
                try await Task.sleep(for: interval)
            } catch {
                return nil
            }
            do {
                if try await !pool.queue.heartbeat(claim, leaseSeconds: pool.configuration.lease.inSeconds) {
                    return .leaseLost
                }
            } catch {
                // Cancelled because the job ended while the beat was in flight: nothing to report.
                if Task.isCancelled { return nil }
                // An unreachable database is logged once by the store; the next beat retries.
                if (error as? StoreError)?.code != .unreachable { pool.logger.warning("heartbeat failed: \(error)") }
            }
        }
    }
}
