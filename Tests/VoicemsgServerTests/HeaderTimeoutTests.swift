import Foundation
import Testing
import TestSupport

/// `--header-timeout-seconds`: a request's head must arrive whole within it, however steadily
/// the bytes trickle in (the idle timeout restarts at every byte, so alone it never closes a
/// client sending one header byte at a time). Waiting between requests is the idle timeout's.
@Suite struct HeaderTimeoutTests {
    @Test func aTrickledHeadIsClosedAtTheHeaderTimeoutNotTheIdleOne() async throws {
        try await Self.withServer { server in
            let socket = try RawSocket(port: server.port)
            defer { socket.close() }
            // One byte every 200 ms for up to a minute: never idle long enough for the idle timeout.
            // The trickle and the read run on threads of their own, the time taken where the read
            // ends: the suite's long tests can fill the cooperative pool for minutes on two cores,
            // and a trickle that waits for it sends nothing, as a measure that waits for it counts
            // the wait.
            let head = Array("GET /healthz HTTP/1.1\r\nHost: x\r\nX-Slow: ".utf8) + [UInt8](repeating: 0x61, count: 300)
            let stop = Locked(false)
            let trickled = DispatchSemaphore(value: 0)
            // A thread, not a task: a task would wait for the pool before its first byte.
            Thread.detachNewThread {
                for byte in head where !stop.withLock({ $0 }) {
                    guard (try? socket.sendHere([byte])) != nil else { break }
                    Thread.sleep(forTimeInterval: 0.2)
                }
                trickled.signal()
            }
            // Ends when the server closes, or at the socket's 20 s read timeout.
            let (reply, elapsed) = try await offThePool {
                let started = Date()
                let reply = String(decoding: socket.readAllBytesHere(), as: UTF8.self)
                return (reply, Date().timeIntervalSince(started))
            }
            // Stopped before the socket closes: its descriptor may be another test's next.
            stop.withLock { $0 = true }
            try await offThePool { trickled.wait() }
            #expect(reply.isEmpty, "a head that never arrived gets no answer: \(reply)")
            #expect(elapsed < 15, "closed after \(elapsed) s; the idle timeout is 30 s and the trickle lasts 60 s")
            #expect(try await server.request("/healthz").status == 200, "the server still answers")
        }
    }

    @Test func aKeptAliveConnectionMayWaitLongerThanTheHeaderTimeout() async throws {
        try await Self.withServer { server in
            let socket = try RawSocket(port: server.port)
            defer { socket.close() }
            let request = Array("GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n".utf8)
            try await socket.send(request)
            #expect(try await Self.statusLine(socket).hasPrefix("HTTP/1.1 200"))
            // Idle between requests for twice the header timeout: not a slow head.
            try await Task.sleep(for: .seconds(2))
            try await socket.send(request)
            #expect(try await Self.statusLine(socket).hasPrefix("HTTP/1.1 200"))
        }
    }

    @Test func aHeaderTimeoutUnderATenthOfASecondIsRefusedInOneLine() async throws {
        try await ServerFlagTests.expectRefused(["--header-timeout-seconds", "0"], saying: "--header-timeout-seconds must be at least 0.1")
    }

    /// A server whose heads must arrive within 1 s, with 30 s allowed between requests.
    static func withServer(_ body: @Sendable (TestServer.Live) async throws -> Void) async throws {
        try await TestServer {
            $0.api.headerTimeout = .seconds(1)
            $0.api.idleTimeout = .seconds(30)
        }.live(body)
    }

    /// The status line of the next answer on a kept-alive connection (its head, read whole).
    static func statusLine(_ socket: RawSocket) async throws -> String {
        try await socket.perform { descriptor in
            var bytes: [UInt8] = []
            var byte: UInt8 = 0
            while !bytes.ends(with: Array("\r\n\r\n".utf8)) {
                guard recv(descriptor, &byte, 1, 0) == 1 else { throw TestFailure("the connection ended after \(bytes.count) bytes") }
                bytes.append(byte)
            }
            // /healthz answers with a length: read its body too, so the next answer starts clean.
            let head = String(decoding: bytes, as: UTF8.self)
            let length = head.split(separator: "\r\n").first { $0.lowercased().hasPrefix("content-length:") }
                .flatMap { Int($0.split(separator: ":")[1].trimmingCharacters(in: .whitespaces)) } ?? 0
            var body = [UInt8](repeating: 0, count: length)
            var got = 0
            while got < length {
                let count = body.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress! + got, length - got, 0) }
                guard count > 0 else { throw TestFailure("the body ended after \(got) of \(length) bytes") }
                got += count
            }
            return String(head.prefix { $0 != "\r" })
        }
    }
}

private extension Array where Element == UInt8 {
    func ends(with suffix: [UInt8]) -> Bool { count >= suffix.count && Array(self[(count - suffix.count)...]) == suffix }
}
