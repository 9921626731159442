import CSoxr

/// Returns `result` when `library` says the call worked, and throws the library's account of
/// the failure when it did not.
///
/// In the manner of swift-system's `valueOrErrno`, every return code from libsndfile, libopus
/// and libebur128 goes through here, so every failure reads alike: what was being done, then
/// the library's own words ("cannot set bitrate (invalid argument)"), with the library, the
/// function and its numeric code kept as the error's `cause`.
///
/// - Parameters:
///   - function: the C function called, for the cause.
///   - action: what was being done, in words, for the message.
///   - kind: the error's code; a library refusing a call is `.codecFailure` unless the caller
///     knows better (an unreadable input, a write the disk refused).
///   - source: the file or stage the error belongs to.
@discardableResult
func check<Result: BinaryInteger>(
    _ result: Result, _ library: NativeLibrary, _ function: String, _ action: @autoclosure () -> String,
    as kind: AudioPipelineError.Code = .codecFailure, source: String? = nil
) throws -> Result {
    let code = Int(clamping: result)
    guard library.isFailure(code) else { return result }
    throw library.failure(code, function, action(), as: kind, source: source)
}

/// The same for libsoxr, whose calls return NULL or the library's words for the failure.
func check(
    _ error: soxr_error_t?, _ function: String, _ action: @autoclosure () -> String,
    as kind: AudioPipelineError.Code = .codecFailure, source: String? = nil
) throws {
    guard let error else { return }
    let reason = String(cString: error)
    throw AudioPipelineError(
        kind, "\(action()) (\(reason))", source: source,
        cause: .init(library: NativeLibrary.libsoxr.rawValue, function: function, code: nil, reason: reason),
        isRetryable: false)
}
