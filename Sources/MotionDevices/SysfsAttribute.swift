#if canImport(Glibc)
import Glibc
#endif

/// A sysfs attribute kept open and re-read with pread(2) at offset 0, which is how sysfs
/// attributes are polled without reopening them.
final class SysfsAttribute {
    let path: String
    private var fd: Int32
    private let calls: SystemCalls
    private var buffer = [UInt8](repeating: 0, count: 128)

    init(path: String, calls: SystemCalls) throws(DeviceError) {
        let (fd, code) = calls.open(path, O_RDONLY)
        guard fd >= 0 else { throw DeviceError.fromOpen(path: path, errno: code, fix: DeviceError.inputFix) }
        self.path = path
        self.fd = fd
        self.calls = calls
    }

    deinit { if fd >= 0 { _ = close(fd) } }

    /// The attribute as a number; throws `.disconnected` when the device went away.
    func read() throws(DeviceError) -> Double {
        let (n, code) = buffer.withUnsafeMutableBytes { calls.pread(fd, $0, 0) }
        if n < 0 {
            if code == ENODEV || code == EIO || code == ENOENT { throw .disconnected(path: path, reason: String(cString: strerror(code))) }
            throw .system(path: path, call: "pread", errno: code)
        }
        let text = String(decoding: buffer[0..<n], as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard let value = Double(text) else { throw .unsupported(path: path, reason: "not a number: '\(text)'") }
        return value
    }
}

import Foundation
