import DecoderWire

/// Why the decode stopped, sent to the parent as one `failure` record.
struct DecodeFailure: Error {
    var wire: DecoderWire.Failure

    static func unreadable(_ message: String) -> DecodeFailure {
        DecodeFailure(wire: .init(.unreadable, message))
    }

    static func unsupported(_ message: String) -> DecodeFailure {
        DecodeFailure(wire: .init(.unsupported, message))
    }
}
