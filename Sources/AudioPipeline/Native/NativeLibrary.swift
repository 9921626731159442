import CEbur128
import COpus
import CSndfile

/// The C libraries AudioPipeline calls, and how each one reports a failed call: which return
/// values are failures, its own words for each, and which failures may pass if tried again.
///
/// Every library's codes are mapped here, once; `check` is the only caller.
enum NativeLibrary: String, Sendable {
    case libsndfile
    case libopus
    case libsoxr
    case libebur128

    /// Whether `code`, as a call of this library returned it, reports a failure.
    func isFailure(_ code: Int) -> Bool {
        switch self {
        // Counts and OPUS_OK are zero or more; errors are negative.
        case .libopus: return code < 0
        case .libsndfile: return code != SF_ERR_NO_ERROR
        case .libebur128: return code != Int(EBUR128_SUCCESS.rawValue)
        // libsoxr returns NULL or text, never a number: see `check(_:_:_:as:source:)` for it.
        case .libsoxr: return false
        }
    }

    /// The library's own words for the failure `code`.
    func reason(_ code: Int) -> String {
        switch self {
        case .libopus:
            return String(cString: opus_strerror(Int32(clamping: code)))
        case .libsndfile:
            // The same text sf_strerror gives for the code, without needing the handle.
            return String(cString: sf_error_number(Int32(clamping: code)))
        case .libebur128:
            // libebur128 has no strerror; its four codes are named in ebur128.h.
            switch UInt32(clamping: code) {
            case EBUR128_ERROR_NOMEM.rawValue: return "out of memory"
            case EBUR128_ERROR_INVALID_MODE.rawValue: return "the meter was not started in the mode this measurement needs"
            case EBUR128_ERROR_INVALID_CHANNEL_INDEX.rawValue: return "no such channel"
            case EBUR128_ERROR_NO_CHANGE.rawValue: return "nothing to change"
            default: return "error \(code)"
            }
        case .libsoxr:
            return "error \(code)"
        }
    }

    /// Whether the failure `code` is the machine's (memory, the operating system) rather than
    /// the call's: only then may the same call succeed later.
    func isRetryable(_ code: Int) -> Bool {
        switch self {
        case .libopus: return code == Int(OPUS_ALLOC_FAIL)
        case .libsndfile: return code == SF_ERR_SYSTEM
        case .libebur128: return code == Int(EBUR128_ERROR_NOMEM.rawValue)
        case .libsoxr: return false
        }
    }

    /// The error for a failed call of `function` that returned `code` while doing `action`:
    /// "cannot set bitrate (invalid argument)", with the library's account as its cause.
    /// `reason` replaces the text for the code where the library words it better from
    /// elsewhere (libsndfile's `sf_strerror` adds the system's words to a system error).
    func failure(
        _ code: Int, _ function: String, _ action: String,
        as kind: AudioPipelineError.Code, source: String? = nil, reason: String? = nil
    ) -> AudioPipelineError {
        let reason = reason ?? self.reason(code)
        return AudioPipelineError(
            kind, "\(action) (\(reason))", source: source,
            cause: .init(library: rawValue, function: function, code: code, reason: reason),
            isRetryable: isRetryable(code))
    }
}
