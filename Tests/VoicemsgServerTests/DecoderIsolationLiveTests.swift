import Foundation
import GRDB
import Testing
import TestSupport

@testable import VoicemsgServer

/// The decoder child inside a real `voicemsg serve`, looked at from outside through /proc: it
/// holds none of the server's descriptors, it dies with the server, a killed server comes back
/// on its port at once, and its sandbox stops every forbidden action of the FaultyDecoder while
/// the worker goes on. Linux only: /proc, PR_SET_PDEATHSIG and seccomp are Linux's.
@Suite(.serialized, .enabled(if: isLinux, "reads /proc; the walls it checks are Linux's"))
struct DecoderIsolationLiveTests {
    // MARK: Descriptors

    /// While the child decodes an upload, with clients connected to the server, it holds
    /// descriptors 0 (the upload, in unlinked shared memory), 1 (its pipe to the server) and 2
    /// (/dev/null), and nothing else; the server itself holds sockets all along.
    @Test func theChildHoldsOnlyItsOwnThreeDescriptors() async throws {
        let server = try await ServerProcess.start(["--lease-seconds", "30"], workers: 1)
        defer { Task { await server.stop() } }
        let run = try await server.createRun()
        // Five minutes of Opus in WebM: the child decodes for a while, blocked on its pipe while
        // the worker works through the samples.
        let webm = server.directory.file("long.webm")
        try Fixtures.tone(seconds: 300, to: webm)

        let connections = try (0..<4).map { _ in try RawSocket(port: server.port) }
        defer { for connection in connections { connection.close() } }

        let upload = try await server.request(
            "/v1/runs/\(run.id)/messages?marker=5km", method: .post, headers: bearer(run.inviteToken),
            body: try Data(contentsOf: URL(fileURLWithPath: webm)))
        #expect(upload.status == 202, "\(upload.text)")

        // The child once its sandbox is up (seccomp mode 2): from then on what it holds is
        // what it keeps.
        let serverPID = server.process.pid
        var child: ProcessTable.Entry?
        _ = try await eventually(within: 60) {
            child = ProcessTable.children(of: serverPID, named: "voicemsg-decode").first { $0.seccompMode == 2 }
            return child != nil
        }
        let decoder = try #require(child, "no decoder child seen:\n\(server.process.log)")
        let held = ProcessTable.descriptors(of: decoder.pid)
        let serverHeld = ProcessTable.descriptors(of: serverPID)
        print("voicemsg-decode \(decoder.pid) holds: " + held.map { "\($0.fd) -> \($0.target)" }.joined(separator: ", "))
        print("the server \(serverPID) holds \(serverHeld.count) descriptors, \(serverHeld.filter { $0.target.hasPrefix("socket:") }.count) of them sockets")

        #expect(serverHeld.filter { $0.target.hasPrefix("socket:") }.count >= 5, "the listening socket and the four clients")
        #expect(held.map(\.fd) == [0, 1, 2], "\(held)")
        let targets = Dictionary(uniqueKeysWithValues: held.map { ($0.fd, $0.target) })
        #expect(targets[0]?.hasPrefix("/dev/shm/voicemsg-decode-\(serverPID)-") == true, "the upload: \(targets[0] ?? "")")
        #expect(targets[1]?.hasPrefix("pipe:") == true)
        #expect(targets[2] == "/dev/null")
    }

    // MARK: The sandbox, in the server

    /// Every forbidden action fails its message after one attempt with the sandbox's line, and
    /// the same worker then decodes a real recording (the FaultyDecoder hands it to the real
    /// voicemsg-decode).
    @Test func theSandboxStopsEachForbiddenActionAndTheWorkerGoesOn() async throws {
        let faulty = try Tool.built("FaultyDecoder")
        let server = try await ServerProcess.start(workers: 1, environment: ["VOICEMSG_DECODE": faulty])
        defer { Task { await server.stop() } }
        let run = try await server.createRun()
        let m4a = server.directory.file("speech.m4a")
        try Fixtures.speech(to: m4a)

        var uploads: [(fault: String?, id: String)] = []
        for fault in ["open-file", "socket", "connect", "execve", "write-inherited", "outlive"] {
            let file = server.directory.file("\(fault).amr")
            try (Data("#!AMR\nFAULT:\(fault)\n".utf8) + Data(repeating: 0x3C, count: 500)).write(to: URL(fileURLWithPath: file))
            uploads.append((fault, try await Self.upload(file, to: server, run: run)))
            uploads.append((nil, try await Self.upload(m4a, to: server, run: run)))
        }
        for (fault, id) in uploads {
            let message = try await Self.settled(id, on: server, run: run)
            if let fault {
                print("\(fault): \(message.status), attempts \(message.attempts): \(message.error ?? "")")
                #expect(message.status == .failed, "\(fault)")
                #expect(message.attempts == 1, "\(fault): a hostile file is not tried again")
                #expect(message.error?.contains("the decoder was stopped by its sandbox") == true, "\(fault): \(message.error ?? "")")
            } else {
                #expect(message.status == .ready, "\(message.error ?? "")\n\(server.process.log.suffix(2000))")
            }
        }
        #expect(server.process.isRunning)
    }

    // MARK: Death with the parent

    /// A decoder that would linger (the FaultyDecoder spinning for 30 s) is gone within 2 s of
    /// its server's SIGKILL, and a server started at once on the same port binds it.
    @Test func aLingeringDecoderDiesWithItsServer() async throws {
        let directory = try TemporaryDirectory()
        let port = try freeLoopbackPort()
        let faulty = try Tool.built("FaultyDecoder")
        let server = try await Self.startKillable(port: port, directory: directory, index: 0, workers: 1, environment: ["VOICEMSG_DECODE": faulty])
        _ = try await server.waitForPort()
        let run = try await Self.createRun(port: port)
        let file = directory.file("linger.amr")
        try (Data("#!AMR\nFAULT:linger\n".utf8) + Data(repeating: 0x3C, count: 500)).write(to: URL(fileURLWithPath: file))
        _ = try await Self.upload(file, port: port, run: run)

        var children: [ProcessTable.Entry] = []
        _ = try await eventually(within: 60) {
            children = ProcessTable.children(of: server.pid, named: "FaultyDecoder").filter { $0.seccompMode == 2 }
            return !children.isEmpty
        }
        try #require(!children.isEmpty, "the lingering decoder never started:\n\(server.log)")
        server.send(SIGKILL)
        _ = try await server.waitForExit(seconds: 10)
        let gone = try await eventually(within: 2) { children.allSatisfy { ProcessTable.hasEnded($0.pid) } }
        #expect(gone, "still running 2 s after the server's SIGKILL: \(children.map(\.pid))")

        let restarted = try await Self.startKillable(port: port, directory: directory, index: 1, workers: 0)
        defer { Task { await restarted.stop() } }
        let bound = try? await restarted.waitForPort()
        #expect(bound == port, "the restarted server did not bind \(port):\n\(restarted.log)")
        for child in children where !ProcessTable.hasEnded(child.pid) { kill(child.pid, SIGKILL) }
    }

    // MARK: Kill and restart under load

    /// The server is SIGKILLed 10 times while 4 clients upload M4A and WebM recordings, each time
    /// while a decoder child is at work. Every restart binds the port at once; no decoder of a
    /// killed server is left 2 s after its SIGKILL; every 202 ends ready, completed once; the
    /// database passes its integrity check.
    @Test func killedAndRestartedTenTimesUnderUploads() async throws {
        let directory = try TemporaryDirectory()
        let port = try freeLoopbackPort()
        let m4a = directory.file("speech.m4a")
        let webm = directory.file("speech.webm")
        try Fixtures.speech(to: m4a)
        try Fixtures.speech(to: webm)

        var servers = [try await Self.startKillable(port: port, directory: directory, index: 0, workers: 2)]
        _ = try await servers[0].waitForPort()
        let run = try await Self.createRun(port: port)
        let load = UploadLoad(port: port, run: run, files: [m4a, webm], clients: 4)
        load.start()

        var lingering: [Int32] = []
        var decodersKilled = 0
        var cleanRestarts = 0
        let started = Date()
        for round in 1...10 {
            let current = servers[round - 1]
            // Killed while a decoder child of this server is at work.
            var busy: [ProcessTable.Entry] = []
            _ = try await eventually(within: 30) {
                busy = ProcessTable.children(of: current.pid, named: "voicemsg-decode")
                return !busy.isEmpty
            }
            current.send(SIGKILL)
            _ = try await current.waitForExit(seconds: 10)
            let killedAt = Date()
            // Started again at once, on the same port.
            let next = try await Self.startKillable(port: port, directory: directory, index: round, workers: 2)
            servers.append(next)

            // Every decoder this server started: the ones seen, and any other whose input is
            // this server's shared memory.
            let ofThisServer = Set(busy.map(\.pid)).union(
                ProcessTable.processes(named: "voicemsg-decode").filter { entry in
                    ProcessTable.descriptors(of: entry.pid).first { $0.fd == 0 }?.target
                        .hasPrefix("/dev/shm/voicemsg-decode-\(current.pid)-") == true
                }.map(\.pid))
            decodersKilled += ofThisServer.count
            let gone = try await eventually(within: max(0, 2 - Date().timeIntervalSince(killedAt))) {
                ofThisServer.allSatisfy(ProcessTable.hasEnded)
            }
            if !gone { lingering += ofThisServer.filter { !ProcessTable.hasEnded($0) } }

            let bound = try? await next.waitForPort(seconds: 60)
            if bound == port { cleanRestarts += 1 }
            #expect(bound == port, "restart \(round) did not bind \(port):\n\(next.log)")
        }
        // Ten kills can take only a couple of seconds; the clients go on against the last server
        // until their uploads make a queue worth draining, so the floor below is never a race.
        _ = try await eventually(within: 60) { load.acceptedCount >= 20 }
        let (accepted, cut) = await load.stop()
        let uploadSeconds = Date().timeIntervalSince(started)

        // The last server finishes everything, the jobs of the killed ones once their leases end.
        let last = servers.last!
        var statuses: [String: MessageStatus] = [:]
        _ = try await eventually(within: 300) {
            for id in accepted where statuses[id] != .ready && statuses[id] != .failed {
                statuses[id] = try? await Self.status(id, port: port, run: run).status
            }
            return statuses.count == accepted.count && statuses.values.allSatisfy { $0 == .ready || $0 == .failed }
        }
        last.send(SIGTERM)
        _ = try await last.waitForExit(seconds: 30)
        for server in servers { await server.stop() }

        var completions: [String: Int] = [:]
        for server in servers {
            for line in server.log.split(separator: "\n") where line.contains("] completed") {
                guard let range = line.range(of: "message=") else { continue }
                let id = line[range.upperBound...].prefix { !$0.isWhitespace }
                completions[String(id), default: 0] += 1
            }
        }
        let database = try DatabaseQueue(path: directory.file("data/voicemsg.sqlite"))
        let integrity = try await database.read { try String.fetchAll($0, sql: "PRAGMA integrity_check") }
        let ready = accepted.filter { statuses[$0] == .ready }
        let twice = accepted.filter { (completions[$0] ?? 0) > 1 }
        print("""
            killed and restarted: 10 SIGKILLs in \(Int(uploadSeconds)) s under 4 clients; restarts that bound at once \
            \(cleanRestarts)/10; decoders killed with their server \(decodersKilled), left 2 s after \(lingering.count); \
            202s \(accepted.count), cut off \(cut); ready \(ready.count), completed twice \(twice.count); \
            integrity_check \(integrity)
            """)
        #expect(cleanRestarts == 10)
        #expect(lingering.isEmpty, "decoders outlived their server: \(lingering)")
        #expect(decodersKilled >= 10, "each kill caught a decoder at work")
        #expect(accepted.count >= 20, "the clients kept uploading: \(accepted.count) 202s")
        #expect(ready.count == accepted.count, "not ready: \(accepted.filter { statuses[$0] != .ready }.map { "\($0): \(statuses[$0].map { "\($0)" } ?? "unknown")" })")
        #expect(twice.isEmpty, "completed more than once: \(twice)")
        #expect(accepted.allSatisfy { completions[$0] == 1 }, "every ready message's completion is logged once")
        #expect(integrity == ["ok"])
    }

    // MARK: Helpers

    /// A `voicemsg serve` on `port` with its data in `directory`, to be killed and started again
    /// there; its log is server-`index`.log. Returns at once: the test waits for its port.
    static func startKillable(
        port: Int, directory: TemporaryDirectory, index: Int, workers: Int, environment: [String: String] = [:]
    ) async throws -> ChildProcess {
        try await ServerProcess.launch(
            ["--lease-seconds", "10", "--uploads-per-minute-per-token", "100000"], workers: workers, port: port,
            in: directory, logName: "server-\(index).log", environment: environment)
    }

    static func upload(_ file: String, to server: ServerProcess, run: CreateRunResponse) async throws -> String {
        try await upload(file, port: server.port, run: run)
    }

    static func settled(_ id: String, on server: ServerProcess, run: CreateRunResponse) async throws -> MessageResponse {
        var message: MessageResponse?
        _ = try await eventually(within: 120) {
            message = try? await status(id, port: server.port, run: run)
            return message?.status == .ready || message?.status == .failed
        }
        return try #require(message)
    }

    static func createRun(port: Int) async throws -> CreateRunResponse {
        try await HTTPAnswer.createRun(host: "127.0.0.1", port: port, title: "Walls", planned: 10000)
    }

    static func upload(_ file: String, port: Int, run: CreateRunResponse) async throws -> String {
        let answer = try await HTTPAnswer.fetch(
            "/v1/runs/\(run.id)/messages?marker=5km", host: "127.0.0.1", port: port, method: .post,
            headers: bearer(run.inviteToken), body: try Data(contentsOf: URL(fileURLWithPath: file)))
        guard answer.status == 202 else { throw TestFailure("upload of \(file): \(answer.status) \(answer.text)") }
        return try JSONDecoder().decode(UploadResponse.self, from: answer.body).id
    }

    static func status(_ id: String, port: Int, run: CreateRunResponse) async throws -> MessageResponse {
        let answer = try await HTTPAnswer.fetch(
            "/v1/messages/\(id)", host: "127.0.0.1", port: port, headers: bearer(run.ownerToken))
        guard answer.status == 200 else { throw TestFailure("message \(id): \(answer.status) \(answer.text)") }
        return try JSONDecoder().decode(MessageResponse.self, from: answer.body)
    }
}

/// Clients uploading in a loop, each a task of its own, until stopped: the ids of the 202s, and
/// how many uploads were cut off by a kill. Each client rests `pause` after an upload, and all
/// stop at `limit` taken, so that the jobs made stay what two workers can drain on a loaded
/// machine however fast the uploads are taken: unpaced, four clients queue hundreds in the few
/// seconds the kills take.
final class UploadLoad: Sendable {
    private let port: Int
    private let run: CreateRunResponse
    private let files: [String]
    private let clients: Int
    private let pause: Duration
    private let limit: Int
    private let state = Locked((stopped: false, accepted: [String](), cut: 0))
    private let tasks = Locked([Task<Void, Never>]())

    init(port: Int, run: CreateRunResponse, files: [String], clients: Int, pause: Duration = .milliseconds(100), limit: Int = 80) {
        self.port = port
        self.run = run
        self.files = files
        self.clients = clients
        self.pause = pause
        self.limit = limit
    }

    func start() {
        for client in 0..<clients {
            let task = Task { [self] in
                var index = client
                while !state.withLock({ $0.stopped || $0.accepted.count >= limit }) {
                    let file = files[index % files.count]
                    index += 1
                    if let id = try? await DecoderIsolationLiveTests.upload(file, port: port, run: run) {
                        state.withLock { $0.accepted.append(id) }
                        try? await Task.sleep(for: pause)
                    } else {
                        state.withLock { $0.cut += 1 }
                        try? await Task.sleep(for: .milliseconds(100))
                    }
                }
            }
            tasks.withLock { $0.append(task) }
        }
    }

    /// How many uploads were taken so far.
    var acceptedCount: Int { state.withLock { $0.accepted.count } }

    /// Stops the clients and waits for their last upload to end.
    func stop() async -> (accepted: [String], cut: Int) {
        state.withLock { $0.stopped = true }
        for task in tasks.withLock({ $0 }) { await task.value }
        return state.withLock { ($0.accepted, $0.cut) }
    }
}

/// The recordings these tests make.
enum Fixtures {
    /// Four seconds of speech (espeak-ng), encoded by ffmpeg as the file's extension says: AAC in
    /// M4A as a phone records, Opus in WebM as a browser does.
    static func speech(to path: String) throws {
        let wav = path + ".wav"
        defer { try? FileManager.default.removeItem(atPath: wav) }
        try Tool.run("espeak-ng", ["-w", wav, "Halfway there, keep going, we are all so proud of you"])
        let codec = path.hasSuffix(".webm") ? ["-c:a", "libopus", "-ar", "48000"] : ["-c:a", "aac", "-ar", "44100"]
        try Tool.run("ffmpeg", ["-nostdin", "-v", "error", "-y", "-i", wav] + codec + [path])
    }

    /// A 300 Hz tone of `seconds`, Opus in WebM.
    static func tone(seconds: Int, to path: String) throws {
        try Tool.run("ffmpeg", ["-nostdin", "-v", "error", "-y", "-f", "lavfi", "-i", "sine=frequency=300:sample_rate=48000",
                                "-t", "\(seconds)", "-c:a", "libopus", "-f", "webm", path])
    }
}
