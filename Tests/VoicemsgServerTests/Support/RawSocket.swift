import Dispatch
import Foundation
import Testing
import TestSupport

#if canImport(Glibc)
    import Glibc
#endif

/// A blocking TCP client on this machine, for byte-exact HTTP in tests: requests written as
/// given, answers read as they come, and the moment the server closes seen as it happens.
///
/// Its blocking calls run on a queue of its own, never on a thread of Swift's cooperative pool:
/// the server it talks to runs in this process, and needs those threads to read what is sent.
final class RawSocket: @unchecked Sendable {
    let descriptor: Int32
    // Concurrent: a read may wait for the server while the test goes on writing.
    private let queue = DispatchQueue(label: "RawSocket", attributes: .concurrent)

    /// Connects to `port` on the loopback address a server bound to "localhost" listens on:
    /// each of the name's addresses is tried in turn, as the server took the first it resolved.
    /// Reads give up after `readTimeout` seconds of silence, and so does a write to a server
    /// that stopped reading.
    init(port: Int, readTimeout: Int = 20) throws {
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var list: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo("localhost", String(port), &hints, &list) == 0, let first = list else {
            throw TestFailure("cannot resolve localhost")
        }
        defer { freeaddrinfo(list) }
        var connected: Int32 = -1
        var entry: UnsafeMutablePointer<addrinfo>? = first
        while let address = entry, connected < 0 {
            let candidate = socket(address.pointee.ai_family, address.pointee.ai_socktype, address.pointee.ai_protocol)
            if candidate >= 0, connect(candidate, address.pointee.ai_addr, address.pointee.ai_addrlen) == 0 {
                connected = candidate
            } else if candidate >= 0 {
                Glibc.close(candidate)
            }
            entry = address.pointee.ai_next
        }
        guard connected >= 0 else { throw TestFailure("connect to localhost port \(port) failed: errno \(errno)") }
        descriptor = connected
        var timeout = timeval(tv_sec: readTimeout, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    }

    /// Runs `body` with the descriptor on the socket's own queue.
    func perform<T: Sendable>(_ body: @escaping @Sendable (Int32) throws -> T) async throws -> T {
        let descriptor = self.descriptor
        return try await withCheckedThrowingContinuation { continuation in
            queue.async { continuation.resume(with: Result { try body(descriptor) }) }
        }
    }

    func send(_ bytes: [UInt8]) async throws {
        try await perform { _ in try self.sendHere(bytes) }
    }

    /// `send` on the calling thread, for a caller on a thread of its own.
    func sendHere(_ bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes[offset...].withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard sent > 0 else { throw TestFailure("send failed after \(offset) bytes: errno \(errno)") }
            offset += sent
        }
    }

    /// Everything until the server closes (or the read timeout), as bytes.
    func readAllBytes() async -> Data {
        (try? await perform { _ in self.readAllBytesHere() }) ?? Data()
    }

    /// `readAllBytes` on the calling thread, for a caller on a thread of its own.
    func readAllBytesHere() -> Data {
        var result = Data()
        _ = Self.read(descriptor) { result.append(contentsOf: $0) }
        return result
    }

    /// Everything until the server closes (or the read timeout), as text.
    func readAll() async -> String {
        String(decoding: await readAllBytes(), as: UTF8.self)
    }

    /// Reads and drops what comes; true when the server closed the connection, false when it
    /// stayed silent for the read timeout.
    func readUntilClosed() async -> Bool {
        (try? await perform { descriptor in Self.read(descriptor) { _ in } }) ?? false
    }

    /// Reads until the connection ends; true when it ended by the server's close.
    private static func read(_ descriptor: Int32, _ received: (ArraySlice<UInt8>) -> Void) -> Bool {
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            if count > 0 {
                received(buffer[0..<count])
                continue
            }
            return count == 0
        }
    }

    func close() { Glibc.close(descriptor) }
}
