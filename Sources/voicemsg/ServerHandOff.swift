import ArgumentParser
import AudioPipeline
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// `voicemsg serve` and `voicemsg worker` run a second program, `voicemsg-server`, installed
/// beside this one, with the same arguments and in the same process (exec, so signals, exit
/// status and the process id are the server's own).
///
/// The server brings SwiftNIO, Hummingbird, PostgresNIO, GRDB and BoringSSL. Linked into the
/// encoder they would make every `voicemsg encode` load and relocate all of the server's code
/// before reading a sample; apart, the encoder starts in a fraction of the memory.
enum ServerHandOff {
    static let program = "voicemsg-server"
    static let commands = ["serve", "worker"]

    /// Replaces this process with `voicemsg-server` when the command line asks for a server
    /// command (its `--help` included); returns otherwise.
    static func execIfServerCommand(_ arguments: [String] = CommandLine.arguments) {
        guard arguments.count > 1, commands.contains(arguments[1]) else { return }
        // argv[0] stays "voicemsg": the server's help then reads "voicemsg serve", as typed.
        let forwarded = ["voicemsg"] + arguments.dropFirst()
        let argv = forwarded.map { strdup($0) } + [nil]
        if let sibling = siblingPath() {
            execv(sibling, argv)
        }
        execvp(program, argv)
        let reason = String(cString: strerror(errno))
        printError("voicemsg: cannot start \(program) (\(reason)); it is built with voicemsg and must be installed beside it")
        exit(ExitStatus.failure)
    }

    /// `voicemsg-server` in the directory this executable lives in, symlinks resolved.
    private static func siblingPath() -> String? {
        guard let executable = RunningProgram.executableURL else { return nil }
        let candidate = executable.deletingLastPathComponent().appendingPathComponent(program).path
        return FileManager.default.isExecutableFile(atPath: candidate) ? candidate : nil
    }
}

/// Listed in `voicemsg --help`; the command line never reaches them, because
/// `ServerHandOff` execs `voicemsg-server` first.
struct ServeHandOff: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Run the upload server and its workers (voicemsg-server serve; see voicemsg serve --help).")
    @Argument(parsing: .captureForPassthrough) var arguments: [String] = []
    func run() throws { ServerHandOff.execIfServerCommand(["voicemsg", "serve"] + arguments) }
}

struct WorkerHandOff: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "worker",
        abstract: "Process queued uploads from PostgreSQL (voicemsg-server worker; see voicemsg worker --help).")
    @Argument(parsing: .captureForPassthrough) var arguments: [String] = []
    func run() throws { ServerHandOff.execIfServerCommand(["voicemsg", "worker"] + arguments) }
}
