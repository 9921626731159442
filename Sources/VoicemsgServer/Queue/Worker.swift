import AudioPipeline
import Foundation
import Logging

/// One claim-process-complete loop.
struct Worker: Sendable {
    let pool: WorkerPool
    let workerID: String
    let state: ShutdownState

    private enum Outcome: Sendable {
        case finished(Result<JobResult, any Error>)
        case leaseLost
        case shutdownExpired
    }

    func run() async {
        let queue = pool.queue
        let configuration = pool.configuration
        while !state.isStopping {
            let claim: JobClaim?
            do {
                claim = try await queue.claim(workerID: workerID, leaseSeconds: configuration.leaseSeconds)
            } catch {
                pool.logger.error("claim failed: \(error)")
                try? await Task.sleep(for: .seconds(configuration.pollSeconds))
                continue
            }
            guard let claim else {
                await pool.signal.waitForWork(timeoutSeconds: configuration.pollSeconds)
                continue
            }
            await execute(claim)
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
            do {
                try await settle(claim, outcome: first, duration: ContinuousClock.now - started, logger: logger)
            } catch {
                // The lease will expire and another worker will take the job over.
                logger.error("could not record the outcome: \(error)")
            }
        }
    }

    private func settle(_ claim: JobClaim, outcome: Outcome, duration: Duration, logger: Logger) async throws {
        let queue = pool.queue
        switch outcome {
        case .finished(.success(let result)):
            if try await queue.complete(claim, result: result) {
                pool.metrics.recordCompleted(duration: duration)
                logger.info("completed", metadata: ["bytes": "\(result.audio.count)"])
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
                    baseSeconds: pool.configuration.retryBaseSeconds,
                    maxSeconds: pool.configuration.retryMaxSeconds)
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
        let input = ProcessingInput(
            messageID: claim.messageID, runID: claim.runID, runTitle: claim.runTitle,
            marker: claim.marker, sender: claim.sender, original: claim.original)
        do {
            return .success(try await pool.threads.runIfActive { try processor.process(input) })
        } catch {
            return .failure(error)
        }
    }

    /// Extends the lease until cancelled; returns `.leaseLost` when the queue says it is gone.
    private func heartbeat(_ claim: JobClaim) async -> Outcome? {
        let interval = pool.configuration.effectiveHeartbeatSeconds
        while true {
            do {
                try await Task.sleep(for: .seconds(interval))
            } catch {
                return nil
            }
            do {
                if try await !pool.queue.heartbeat(claim, leaseSeconds: pool.configuration.leaseSeconds) {
                    return .leaseLost
                }
            } catch {
                // Cancelled because the job ended while the beat was in flight: nothing to report.
                if Task.isCancelled { return nil }
                pool.logger.warning("heartbeat failed: \(error)")
            }
        }
    }
}
