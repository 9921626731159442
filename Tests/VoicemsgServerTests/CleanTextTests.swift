import AudioPipeline
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing
import TestSupport

@testable import VoicemsgServer

/// Titles and senders: limits in bytes and characters, NFC, and no control characters stored.
@Suite struct CleanTextTests {
    /// Whatever the validator accepts is within both limits, in NFC, and free of every refused
    /// scalar; whatever holds such a scalar is refused.
    @Test(arguments: [1, 2, 3] as [UInt64]) func randomTextNeverPassesWithAControlOrOverLimit(seed: UInt64) {
        var generator = SeededGenerator(seed: seed)
        var accepted = 0
        for _ in 0..<2000 {
            let raw = HostileText.make(&generator)
            let hasRefused = raw.unicodeScalars.contains { TextField.refusal($0) != nil }
            switch TextField.validate(raw, name: "title") {
            case .success(let text):
                accepted += 1
                #expect(!hasRefused)
                #expect(text.utf8.count <= TextField.maxBytes)
                #expect(text.count <= TextField.maxCharacters)
                #expect(text == text.precomposedStringWithCanonicalMapping)
                #expect(!text.unicodeScalars.contains { TextField.refusal($0) != nil })
            case .failure(let error):
                #expect(error.reason.hasPrefix("title must"))
            }
        }
        // The generator makes acceptable text too, so the accepting path was exercised.
        #expect(accepted > 50)
    }

    @Test func theProbesFindingsAreRefusedWithAReason() throws {
        let combining = "a" + String(repeating: "\u{0301}", count: 1_000_000)
        #expect(combining.count == 1)
        guard case .failure(let tooLong) = TextField.validate(combining, name: "title") else {
            Issue.record("a 2 MB one-character title was accepted")
            return
        }
        #expect(tooLong.reason.contains("800 bytes"))
        for hostile in ["ab\u{0}cd", "\u{1B}[31mRED", "bell\u{7}", "line\r\nbreak", "\u{202E}txt.exe", "c1\u{85}"] {
            guard case .failure(let error) = TextField.validate(hostile, name: "sender") else {
                Issue.record("\(hostile.debugDescription) was accepted")
                continue
            }
            #expect(error.reason.hasPrefix("sender must not contain"))
        }
        #expect(try TextField.validate("Caf\u{65}\u{301} 🏃‍♀️ Ünïcødé", name: "title").get() == "Caf\u{E9} 🏃‍♀️ Ünïcødé")
        #expect(try TextField.validate(String(repeating: "é", count: 200), name: "title").get().utf8.count == 400)
        #expect(throws: TextFieldError.self) { try TextField.validate(String(repeating: "x", count: 201), name: "title").get() }
        // 200 characters of four bytes each is 800 bytes: allowed. 201 is not.
        #expect(try TextField.validate(String(repeating: "🏃", count: 200), name: "title").get().utf8.count == 800)
    }

    @Test func printableTextEscapesWhatATerminalWouldObey() {
        #expect(PrintableText.escaped("\u{1B}[31mRED") == "\\u{1B}[31mRED")
        #expect(PrintableText.escaped("a\u{0}b\u{7}\r\n\u{202E}") == "a\\u{0}b\\u{7}\\u{D}\\u{A}\\u{202E}")
        // The zero-width joiner of an emoji sequence is left alone.
        #expect(PrintableText.escaped("Anna Läufer \u{1F3C3}\u{200D}\u{2640}") == "Anna Läufer \u{1F3C3}\u{200D}\u{2640}")
        #expect(PrintableText.escaped("x\u{2028}y\u{2067}") == "x\\u{2028}y\\u{2067}")
        #expect(PrintableText.escaped("plain text, 5 km") == "plain text, 5 km")
    }

    /// Through the API: random titles and senders, and what the store then holds.
    @Test func theAPINeverStoresAControlCharacterOrMoreThanTheByteLimit() async throws {
        let server = try TestServer { $0.api.runCreationsPerMinute = 1000 }
        let store = server.store
        var generator = SeededGenerator(seed: 16)
        // Made up front: the client's closure may not mutate a captured generator.
        let cases = (0..<150).map { _ in (HostileText.make(&generator), HostileText.make(&generator)) }
        try await server.app.test(.router) { client in
            let base = try await client.execute(
                uri: "/v1/runs", method: .post, body: ByteBuffer(string: #"{"title":"Base","plannedDistanceMeters":10000}"#))
            let run = try JSONDecoder().decode(CreateRunResponse.self, from: Data(buffer: base.body))
            var created = 0
            var uploaded = 0
            for (title, sender) in cases {
                let body = try JSONEncoder().encode(["title": title])
                let response = try await client.execute(uri: "/v1/runs", method: .post, body: ByteBuffer(bytes: body))
                if response.status == .created {
                    created += 1
                    let id = try JSONDecoder().decode(CreateRunResponse.self, from: Data(buffer: response.body)).id
                    let stored = try #require(try await store.records.run(id: id))
                    Self.expectClean(stored.title)
                } else {
                    #expect(response.status == .badRequest)
                }
                let query = sender.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
                let upload = try await client.execute(
                    uri: "/v1/runs/\(run.id)/messages?marker=1km&sender=\(query)", method: .post,
                    headers: bearer(run.inviteToken),
                    body: ByteBuffer(bytes: [UInt8](repeating: 7, count: 1000)))
                if upload.status == .accepted {
                    uploaded += 1
                    let id = try JSONDecoder().decode(UploadResponse.self, from: Data(buffer: upload.body)).id
                    let stored = try #require(try await store.records.message(id: id))
                    Self.expectClean(try #require(stored.sender))
                } else {
                    #expect(upload.status == .badRequest, "\(upload.status) for \(sender.debugDescription.prefix(80))")
                }
            }
            #expect(created > 10 && uploaded > 10)
        }
    }

    static func expectClean(_ text: String) {
        #expect(text.utf8.count <= TextField.maxBytes)
        #expect(!text.unicodeScalars.contains { TextField.refusal($0) != nil })
    }
}
