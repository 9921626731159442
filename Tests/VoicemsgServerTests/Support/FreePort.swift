import Foundation
import TestSupport

/// A port on 127.0.0.1 that nothing listens on now: the kernel's pick for a socket bound to
/// port 0, released at once.
func freeLoopbackPort() throws -> Int {
    #if canImport(Glibc)
        let socket = Foundation.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    #else
        let socket = Foundation.socket(AF_INET, SOCK_STREAM, 0)
    #endif
    defer { close(socket) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
            bind(socket, $0, length) == 0 && getsockname(socket, $0, &length) == 0
        }
    }
    guard bound else { throw TestFailure("no free port on 127.0.0.1") }
    return Int(UInt16(bigEndian: address.sin_port))
}
