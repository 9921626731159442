#if canImport(Glibc)
import Glibc
#else
import Darwin
#endif

// voicemsg-decode's decoding, in process: the bytes go into anonymous shared memory, as the parent
// hands uploads over, and the records go to /dev/null. The child's resource limits are left
// out (libFuzzer's -rss_limit_mb and -timeout stand in for them). A clean DecodeFailure is a
// good outcome; a crash, a leak or a hang is a finding.
private let sink = open("/dev/null", O_WRONLY)

let fuzzTargets: [String: ([UInt8]) -> Void] = [
    "decode": { bytes in
        FFmpegLog.silence()
        FFmpegLog.reset()
        // POSIX shared memory, unlinked at once, as DecoderInput holds an upload on Linux.
        let name = "/voicemsg-fuzz-\(getpid())"
        let fd = shm_open(name, O_RDWR | O_CREAT | O_TRUNC, 0o600)
        precondition(fd >= 0, "shm_open failed")
        shm_unlink(name)
        defer { close(fd) }
        bytes.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = write(fd, buffer.baseAddress! + offset, buffer.count - offset)
                precondition(written > 0, "write to the anonymous file failed")
                offset += written
            }
        }
        lseek(fd, 0, SEEK_SET)
        do {
            let decoder = try FFmpegDecoder(
                input: try FFmpegInput(fd: fd), maximumSeconds: 600, packetTable: CAFPacketTable(fd: fd))
            try decoder.run(WireWriter(fd: sink))
        } catch is DecodeFailure {
        } catch {
            preconditionFailure("decoding threw something other than a DecodeFailure: \(error)")
        }
    },
]
