import ArgumentParser
import VoicemsgServer

/// How long `serve` waits for a slow client.
struct TimeoutOptions: ParsableArguments {
    private static var defaults: APIConfiguration { ServerDefaults.configuration.api }
    /// Below this a timeout would close connections that are merely working.
    private static let shortest: Duration = .milliseconds(100)

    @Option(
        help: """
            Seconds without a byte from a client before its connection is closed: while headers \
            arrive, between body bytes, and idle between requests.
            """)
    var idleTimeoutSeconds: Duration = defaults.idleTimeout

    @Option(
        help: """
            Seconds from a request's first byte until its headers must have arrived whole, \
            however steadily they trickle in; past it the connection is closed.
            """)
    var headerTimeoutSeconds: Duration = defaults.headerTimeout

    @Option(
        help: """
            The slowest upload kept: after \(APIConfiguration.uploadPaceGrace.defaultValueDescription) s, \
            a body must average this many bytes a second or it is cut off with 408 (0: no limit).
            """)
    var minUploadBytesPerSecond: Double = defaults.minimumUploadBytesPerSecond

    func validate() throws {
        guard idleTimeoutSeconds >= Self.shortest else {
            throw ValidationError("--idle-timeout-seconds must be at least \(Self.shortest.defaultValueDescription)")
        }
        guard headerTimeoutSeconds >= Self.shortest else {
            throw ValidationError("--header-timeout-seconds must be at least \(Self.shortest.defaultValueDescription)")
        }
        guard minUploadBytesPerSecond.isFinite, minUploadBytesPerSecond >= 0 else {
            throw ValidationError("--min-upload-bytes-per-second must be 0 or more")
        }
    }

    func apply(to api: inout APIConfiguration) {
        api.idleTimeout = idleTimeoutSeconds
        api.headerTimeout = headerTimeoutSeconds
        api.minimumUploadBytesPerSecond = minUploadBytesPerSecond
    }
}
