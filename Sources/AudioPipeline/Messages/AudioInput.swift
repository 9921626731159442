#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Where a recording comes from.
public enum AudioInput: Sendable {
    /// A file on disk.
    case file(path: String)
    /// Bytes in memory, such as an upload; `name` appears in error messages.
    case data(Data, name: String)

    /// The name errors and reports use.
    public var name: String {
        switch self {
        case .file(let path): return path
        case .data(_, let name): return name
        }
    }
}
