import Foundation

/// What Linux's /proc says about running processes, for the tests that check what the decoder
/// child holds and whether it outlives its parent.
public enum ProcessTable {
    /// One process as /proc/<pid>/status describes it.
    public struct Entry: Sendable {
        public var pid: Int32
        public var parent: Int32
        /// The executable's name, at most 15 characters (`Name:`).
        public var name: String
        /// "R", "S", "Z"…
        public var state: String
        /// 0 none, 1 strict, 2 a seccomp filter (`Seccomp:`).
        public var seccompMode: Int
    }

    /// Nil once the process is gone.
    public static func entry(_ pid: Int32) -> Entry? {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return nil }
        var fields: [String: String] = [:]
        for line in text.split(separator: "\n") {
            guard let colon = line.firstIndex(of: ":") else { continue }
            fields[String(line[..<colon])] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        guard let parent = fields["PPid"].flatMap({ Int32($0) }), let name = fields["Name"] else { return nil }
        return Entry(
            pid: pid, parent: parent, name: name, state: String((fields["State"] ?? "?").prefix(1)),
            seccompMode: fields["Seccomp"].flatMap { Int($0) } ?? 0)
    }

    /// Every process whose name is `name` (the first 15 characters of the executable's name).
    public static func processes(named name: String) -> [Entry] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return names.compactMap { Int32($0) }.compactMap(entry).filter { $0.name == String(name.prefix(15)) }
    }

    /// The children of `parent` named `name`.
    public static func children(of parent: Int32, named name: String) -> [Entry] {
        processes(named: name).filter { $0.parent == parent }
    }

    /// Whether `pid` is gone, or a zombie nobody has reaped yet (it runs no more).
    public static func hasEnded(_ pid: Int32) -> Bool {
        guard let entry = entry(pid) else { return true }
        return entry.state == "Z" || entry.state == "X"
    }

    /// The open descriptors of `pid`: number and what it points at ("pipe:[…]", a path,
    /// "socket:[…]", "anon_inode:[eventpoll]").
    public static func descriptors(of pid: Int32) -> [(fd: Int32, target: String)] {
        let folder = "/proc/\(pid)/fd"
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        return names.compactMap { name -> (Int32, String)? in
            guard let fd = Int32(name) else { return nil }
            let target = (try? FileManager.default.destinationOfSymbolicLink(atPath: "\(folder)/\(name)")) ?? "?"
            return (fd, target)
        }.sorted { $0.0 < $1.0 }
    }
}
