#if canImport(Glibc)
import Glibc
#else
import Darwin
#endif
import DecoderWire

/// Writes `DecoderWire` records on a file descriptor, whole.
struct WireWriter {
    let fd: Int32

    func send(_ tag: DecoderWire.Tag, _ payload: [UInt8]) {
        payload.withUnsafeBytes { send(tag, $0) }
    }

    func send(_ tag: DecoderWire.Tag, _ payload: UnsafeRawBufferPointer) {
        DecoderWire.recordHeader(tag, length: payload.count).withUnsafeBytes { writeAll($0) }
        writeAll(payload)
    }

    private func writeAll(_ bytes: UnsafeRawBufferPointer) {
        guard var base = bytes.baseAddress else { return }
        var remaining = bytes.count
        while remaining > 0 {
            let written = write(fd, base, remaining)
            if written < 0 {
                if errno == EINTR { continue }
                // The parent stopped reading (a limit, or it has enough): nothing left to do.
                exit(4)
            }
            base += written
            remaining -= written
        }
    }
}
