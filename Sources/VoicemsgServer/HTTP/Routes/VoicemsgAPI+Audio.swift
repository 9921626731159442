import AudioPipeline
import Foundation
import HTTPTypes
import Hummingbird

/// `GET /v1/messages/{id}/audio`: docs/api.md describes it with the messages, and it has a file
/// of its own because it is the one route that serves bytes rather than JSON, with everything
/// that comes with them: the container asked for, entity tags per form, and ranges.
extension VoicemsgAPI {
    /// The Ogg Opus bytes of a ready message, for the run's owner or the message's sender (so
    /// the sender hears what the runner will), with an ETag (the SHA-256)
    /// and single-range requests. `?container=caf` rewraps the same packets as Opus in CAF,
    /// the form Apple's players accept, and `?container=webm` as Opus in WebM, which Safari
    /// plays from iOS 17.4, both without re-encoding. The rewrapped bytes are a function of the
    /// stored file, so their ETag is its SHA-256 with the container's suffix. `?container=mp4`
    /// is the message's AAC version (`audio/mp4`), which every iPhone plays: a file of its own,
    /// with its own SHA-256 as its ETag, made when first asked for if the message has none.
    func audio(_ request: Request, _ context: VoicemsgRequestContext) async throws -> Response {
        let (record, credential) = try await pathMessage(context)
        let id = record.id
        try await authorize(credential, message: record, allowInvite: false)
        let name = request.uri.queryParameters.get("container") ?? "ogg"
        let container = OpusContainer(rawValue: String(name))
        guard container != nil || name == Self.aacContainer else {
            throw HTTPError(.badRequest, message: "container must be ogg, caf, webm or \(Self.aacContainer)")
        }
        guard record.status == .ready, let sha256 = record.audioSHA256 else {
            throw HTTPError(.notFound, message: "message \(id) is \(record.status.rawValue), it has no audio yet")
        }
        let bytes: Data
        let etag: String
        if let container {
            guard let stored = try await store.audio.audio(messageID: id) else {
                throw HTTPError(.notFound, message: "message \(id) is \(record.status.rawValue), it has no audio yet")
            }
            bytes = container == .ogg ? stored : Data(try container.write(OggOpusReader.read(stored)))
            etag = container == .ogg ? "\"\(sha256)\"" : "\"\(sha256)-\(container.rawValue)\""
        } else {
            let aac = try await aacVersions.aac(messageID: id)
            bytes = aac.bytes
            etag = "\"\(aac.sha256)\""
        }
        let headers: HTTPFields = [
            .eTag: etag, .acceptRanges: "bytes", .contentType: container?.mediaType ?? Self.aacMediaType,
            .cacheControl: "private, max-age=31536000, immutable",
        ]
        if EntityTag.ifNoneMatch(request.headers[.ifNoneMatch], matches: etag) {
            return Response(status: .notModified, headers: headers)
        }
        return ByteRange.response(to: request, bytes: bytes, etag: etag, headers: headers)
    }

    /// The `container` that names the AAC version, and its media type.
    static let aacContainer = "mp4"
    static let aacMediaType = "audio/mp4"
}
