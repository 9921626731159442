#if canImport(Glibc)
import CSeccomp
import Glibc
#else
import Darwin
#endif
import DecoderSandbox
import DecoderWire

// FaultyDecoder: voicemsg-decode as a file that took it over would make it, for the sandbox
// tests. Started as voicemsg-decode is (same arguments, the input on stdin, records on stdout),
// it reads the input's first bytes. An input that starts with "FAULT:<name>" (after an optional
// "#!AMR\n", so that the server's upload check lets it through) gets voicemsg-decode's sandbox,
// through the same DecoderSandbox calls at the same points, and then the fault <name>, from
// `Fault`. Any other input is handed to the real voicemsg-decode beside this executable, so a
// server pointed here decodes ordinary uploads as usual. Built with the tests, never shipped.

/// What a taken-over decoder would try, and the controls beside them. Each forbidden one must be
/// ended by the sandbox before it returns; if it returns, the decoder says so in a failure
/// record, and the test that asked for it fails on that message.
enum Fault: String, CaseIterable {
    /// Open a file that is not its input.
    case openFile = "open-file"
    /// Make a network socket.
    case socket
    /// Connect a descriptor it might have inherited (3) to a local port.
    case connect
    /// Run another program.
    case execve
    /// Write to descriptors 3 and up, where a server's sockets and files would be.
    case writeInherited = "write-inherited"
    /// Stop its death with its parent, then start a process of its own.
    case outlive
    /// No fault: a 1 s tone, sent as the real decoder sends audio, behind the same sandbox.
    case tone
    /// A bug, not an attack: a Swift runtime trap (an index out of range), which must read as
    /// a crash and not as the sandbox.
    case trap
    /// A bug, not an attack: abort(), as a failed assertion in FFmpeg calls it.
    case abort
    /// No fault: spin without a system call for up to 30 s, for the parent-death tests.
    case linger
}

let arguments = CommandLine.arguments
guard let launch = DecoderWire.Launch(arguments: Array(arguments.dropFirst())) else {
    exit(2)
}

var head = [UInt8](repeating: 0, count: 64)
let got = head.withUnsafeMutableBytes { pread(0, $0.baseAddress, $0.count, 0) }
var text = String(decoding: head.prefix(max(0, got)), as: UTF8.self)
if text.hasPrefix("#!AMR\n") { text.removeFirst(6) }
guard text.hasPrefix("FAULT:") else {
    // An ordinary upload: the real decoder, with the same arguments and descriptors.
    let directory = arguments[0].split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")
    let real = directory + "/voicemsg-decode"
    var argv: [UnsafeMutablePointer<CChar>?] = ([real] + arguments.dropFirst()).map { strdup($0) }
    argv.append(nil)
    execv(real, &argv)
    exit(5)
}
let name = text.dropFirst(6).prefix { $0 != "\n" && $0 != "\0" }
guard let fault = Fault(rawValue: String(name)) else { exit(6) }

DecoderSandbox.enter(launch)
DecoderSandbox.restrictSystemCalls()

/// A failure record: the fault was not stopped.
func report(_ message: String) -> Never {
    send(.failure, DecoderWire.Failure(.unreadable, "\(fault.rawValue) was not stopped: \(message)").encoded)
    exit(1)
}

func send(_ tag: DecoderWire.Tag, _ payload: [UInt8]) {
    let bytes = DecoderWire.recordHeader(tag, length: payload.count) + payload
    var offset = 0
    while offset < bytes.count {
        let written = bytes[offset...].withUnsafeBytes { write(1, $0.baseAddress, $0.count) }
        guard written > 0 else { exit(4) }
        offset += written
    }
}

func errorText() -> String { String(cString: strerror(errno)) }

switch fault {
case .openFile:
    let fd = open("/etc/hostname", O_RDONLY)
    report(fd >= 0 ? "opened /etc/hostname" : "open failed (\(errorText()))")
case .socket:
    #if canImport(Glibc)
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    #else
    let fd = socket(AF_INET, SOCK_STREAM, 0)
    #endif
    report(fd >= 0 ? "made socket \(fd)" : "socket failed (\(errorText()))")
case .connect:
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = in_port_t(9).bigEndian
    address.sin_addr.s_addr = in_addr_t(0x7F00_0001).bigEndian
    let result = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(3, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
    }
    report(result == 0 ? "connected descriptor 3" : "connect failed (\(errorText()))")
case .execve:
    let command: [String] = ["/bin/sh", "-c", "exit 0"]
    var argv: [UnsafeMutablePointer<CChar>?] = command.map { strdup($0) }
    argv.append(nil)
    execv("/bin/sh", &argv)
    report("execv failed (\(errorText()))")
case .writeInherited:
    var outcomes: [String] = []
    for fd in Int32(3)..<64 {
        let written = write(fd, "x", 1)
        if written >= 0 { outcomes.append("wrote to \(fd)") }
    }
    report(outcomes.isEmpty ? "every write failed (\(errorText()))" : outcomes.joined(separator: ", "))
case .outlive:
    // Swift marks fork unavailable on Darwin; there the fault has nothing to try.
    #if os(Linux)
    let cleared = vm_prctl(PR_SET_PDEATHSIG, 0)
    let child = fork()
    if child == 0 { exit(0) }
    report("parent-death signal cleared: \(cleared == 0); fork gave \(child)")
    #else
    report("no parent-death signal to clear on this system")
    #endif
case .tone:
    let rate = 48_000
    send(.format, DecoderWire.Format(
        sampleRate: rate, channelCount: 1, container: "faulty", containerDescription: "FaultyDecoder",
        codec: "tone", codecDescription: "a 440 Hz tone", decoder: "tone", declaredSeconds: 1).encoded)
    var samples: [UInt8] = []
    for index in 0..<rate {
        let value = Float(0.25 * sin(2 * Double.pi * 440 * Double(index) / Double(rate)))
        withUnsafeBytes(of: value.bitPattern.littleEndian) { samples.append(contentsOf: $0) }
    }
    send(.samples, samples)
    send(.done, [])
    exit(0)
case .trap:
    let values = [1, 2, 3]
    let index = Int(got)  // 64 or fewer; the array holds 3
    print(values[index + 3])
    exit(0)
case .abort:
    abort()
case .linger:
    var start = timespec()
    clock_gettime(CLOCK_MONOTONIC, &start)
    var now = start
    while now.tv_sec - start.tv_sec < 30 { clock_gettime(CLOCK_MONOTONIC, &now) }
    exit(0)
}
