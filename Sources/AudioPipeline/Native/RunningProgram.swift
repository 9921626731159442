#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
import MachO  // _NSGetExecutablePath
#endif
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The program this process runs: the sibling executables (`voicemsg-decode`,
/// `voicemsg-server`) are looked for beside it.
public enum RunningProgram {
    /// Its file, symbolic links resolved.
    public static var executableURL: URL? {
        #if os(Linux)
        return URL(filePath: "/proc/self/exe").resolvingSymlinksInPath()
        #else
        var size: UInt32 = 0
        _ = _NSGetExecutablePath(nil, &size)
        var path = [CChar](repeating: 0, count: Int(size) + 1)
        guard _NSGetExecutablePath(&path, &size) == 0 else { return nil }
        return URL(filePath: String(cString: path)).resolvingSymlinksInPath()
        #endif
    }
}
