import Crypto
import Foundation
import HTTPTypes
import Hummingbird
import NIOPosix

/// Writes an upload's body to a file in the spool folder as it arrives, so the server's memory
/// does not grow with the body's size or with how long a client takes to send it.
///
/// The body is written to `<id>.part`, synced, and renamed to `<id>.upload` only once it is
/// whole; a cut-off, refused or failed upload deletes its file, and files left by a killed
/// process are deleted when the next server starts (`removeLeftovers`).
///
/// A body past the limit is refused with 413 only after reading on and discarding the rest, up
/// to `drainBytes` more or `drainSeconds` (a lingering close, as nginx does): a client that sends
/// the whole body before reading (Python's urllib) would otherwise never read the 413.
struct UploadSpooler: Sendable {
    /// A whole upload on disk, with what the caller would otherwise read it back for.
    struct Spooled: Sendable {
        let file: URL
        let length: Int
        /// Lower-case hex, as `IdempotencyFingerprint.bodySHA256` gives.
        let sha256: String
        /// The first bytes, for `AudioSniffer`.
        let prefix: Data
    }

    let directory: URL
    var limit: Int
    /// Where file writes, hashing and the final sync run: at lower priority, never on the
    /// threads that serve requests.
    let threads: UploadThreads
    /// Bytes gathered before one write on `threads`: a hop per 128 KiB keeps their cost low
    /// while a hundred uploads hold at most that much each.
    var batchBytes = 128 * 1024
    var prefixLength = 64
    /// How much more than the limit a refused body is read and discarded.
    var drainBytes = 64 * 1024 * 1024
    var drainSeconds = 5.0
    /// The slowest body kept, as Apache's mod_reqtimeout `body=20,MinRate=500`: a body may take
    /// `graceSeconds` plus one second per `minimumBytesPerSecond` it has sent. The idle timeout
    /// closes a body that stops; this one that trickles (a byte a second would hold a 25 MB
    /// upload's connection for 289 days). 500 B/s is far below any phone network; 0 turns it off.
    var minimumBytesPerSecond = 500.0
    var graceSeconds = APIConfiguration.uploadPaceGrace.inSeconds
    /// How long the body has been arriving, from the instant its spooling started: the clock
    /// the pace is judged by (tests give one that ticks per piece).
    var timeSince: @Sendable (ContinuousClock.Instant) -> Duration = { $0.duration(to: .now) }

    /// Deletes files of uploads that were in progress when an earlier server stopped.
    static func removeLeftovers(in directory: URL) {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        for name in names where name.hasSuffix(".part") || name.hasSuffix(".upload") {
            try? FileManager.default.removeItem(at: directory.appendingPathComponent(name))
        }
    }

    /// Streams `body` into a new file and returns the whole upload; the caller deletes its file.
    func spool(_ body: RequestBody, declaredLength: Int?) async throws -> Spooled {
        var iterator = body.makeAsyncIterator()
        if let declaredLength, declaredLength > limit {
            await drain(&iterator, alreadyOver: 0)
            throw tooLarge()
        }
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let name = UUID().uuidString
        let partial = directory.appendingPathComponent(name + ".part")
        guard FileManager.default.createFile(atPath: partial.path, contents: nil) else {
            throw HTTPError(
                .internalServerError, message: "could not create the upload file in \(directory.path)")
        }
        var keep = false
        defer { if !keep { try? FileManager.default.removeItem(at: partial) } }
        let handle = try FileHandle.closingOnExec(forWritingTo: partial)
        defer { try? handle.close() }

        let directory = self.directory
        var hasher = SHA256()
        var prefix = Data()
        // Sized once: appending past a buffer's capacity doubles it, and a hundred uploads
        // would each hold twice the batch.
        var pending = ByteBufferAllocator().buffer(capacity: batchBytes)
        var written = 0
        let started = ContinuousClock.now
        func flush() async throws {
            guard pending.readableBytes > 0 else { return }
            hasher = try await threads.run { [pending, hasher] in
                try Self.write(pending, to: handle, directory: directory)
                var updated = hasher
                pending.withUnsafeReadableBytes { updated.update(bufferPointer: $0) }
                return updated
            }
            pending.clear()
        }
        while let chunk = try await iterator.next() {
            guard written + chunk.readableBytes <= limit else {
                await drain(&iterator, alreadyOver: written + chunk.readableBytes - limit)
                throw tooLarge()
            }
            try checkPace(written: written + chunk.readableBytes, since: started)
            if prefix.count < prefixLength {
                prefix.append(contentsOf: chunk.readableBytesView.prefix(prefixLength - prefix.count))
            }
            if pending.readableBytes + chunk.readableBytes > batchBytes { try await flush() }
            pending.writeImmutableBuffer(chunk)
            written += chunk.readableBytes
        }
        try await flush()
        guard written > 0 else {
            throw HTTPError(.badRequest, message: "the body must be the recording's bytes; it was empty")
        }
        // A connection closed mid-body ends the stream without an error; the length tells.
        if let declaredLength, written != declaredLength {
            throw HTTPError(
                .badRequest, message: "the body ended after \(written) of its \(declaredLength) bytes")
        }
        try await threads.run { try handle.synchronize() }
        let whole = directory.appendingPathComponent(name + ".upload")
        try FileManager.default.moveItem(at: partial, to: whole)
        keep = true
        let digest = hasher.finalize().map { $0 < 16 ? "0" + String($0, radix: 16) : String($0, radix: 16) }.joined()
        return Spooled(file: whole, length: written, sha256: digest, prefix: prefix)
    }

    private static func write(_ chunk: ByteBuffer, to handle: FileHandle, directory: URL) throws {
        do {
            try chunk.withUnsafeReadableBytes { try handle.write(contentsOf: $0) }
        } catch let error as CocoaError where error.code == .fileWriteOutOfSpace {
            throw diskFull
        } catch let error as NSError where error.domain == NSPOSIXErrorDomain && error.code == Int(ENOSPC) {
            throw diskFull
        }
    }

    /// 507: nothing was stored, and the client may try again once space returns.
    static let diskFull = HTTPError(
        HTTPResponse.Status(code: 507, reasonPhrase: "Insufficient Storage"),
        message: "the server's disk is full; nothing was stored; try again later")

    /// `refusal`, given before the body was read, as a lingering close: the body is read and
    /// discarded (within the same bounds as a 413's) and the answer closes the connection.
    /// Hummingbird would otherwise stop reading a `Connection: close` request (Python's urllib
    /// sends that) at the answer, and a client still sending its body would see a broken pipe
    /// instead of the 503, 429 or 409.
    func lingering(_ refusal: HTTPError, body: RequestBody) async -> HTTPError {
        var iterator = body.makeAsyncIterator()
        await drain(&iterator, alreadyOver: 0)
        var refusal = refusal
        refusal.headers[.connection] = "close"
        return refusal
    }

    /// Reads and discards the rest of a refused body, within the bounds.
    private func drain(_ iterator: inout RequestBody.AsyncIterator, alreadyOver: Int) async {
        let deadline = Date().addingTimeInterval(drainSeconds)
        var discarded = alreadyOver
        while discarded <= drainBytes, Date() < deadline {
            guard let chunk = try? await iterator.next() else { return }
            discarded += chunk.readableBytes
        }
    }

    /// 408 once the body is behind the slowest pace allowed.
    private func checkPace(written: Int, since started: ContinuousClock.Instant) throws {
        guard minimumBytesPerSecond > 0 else { return }
        let elapsed = timeSince(started)
        let allowed = graceSeconds + Double(written) / minimumBytesPerSecond
        guard elapsed > .milliseconds(Int64(allowed * 1000)) else { return }
        throw HTTPError(
            .requestTimeout, headers: [.connection: "close"],
            message: "the body arrived slower than \(Int(minimumBytesPerSecond)) bytes a second; nothing was stored")
    }

    private func tooLarge() -> HTTPError {
        HTTPError(
            .contentTooLarge, headers: [.connection: "close"],
            message: "uploads are limited to \(limit) bytes")
    }
}
