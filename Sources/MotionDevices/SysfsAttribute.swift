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

    /// Opened non-blocking and checked to be a regular file, as sysfs attributes are: a FIFO in
    /// its place would block every read, a folder fail each one.
    init(path: String, calls: SystemCalls) throws(DeviceError) {
        let (fd, code) = calls.open(path, O_RDONLY | O_NONBLOCK)
        guard fd >= 0 else { throw DeviceError.fromOpen(path: path, errno: code, fix: DeviceError.inputFix) }
        do { try Self.requireRegularFile(fd, path: path) } catch {
            _ = close(fd)
            throw error
        }
        self.path = path
        self.fd = fd
        self.calls = calls
    }

    deinit { if fd >= 0 { _ = close(fd) } }

    /// The attribute as a finite number; throws `.disconnected` when the device went away.
    func read() throws(DeviceError) -> Double {
        let (n, code) = buffer.withUnsafeMutableBytes { calls.pread(fd, $0, 0) }
        if n < 0 {
            if code == ENODEV || code == EIO || code == ENOENT { throw .disconnected(path: path, reason: String(cString: strerror(code))) }
            throw .system(path: path, call: "pread", errno: code)
        }
        let text = String(decoding: buffer[0..<n], as: UTF8.self)
        return try Self.number(text, path: path, expected: "a finite number") { $0.isFinite }
    }

    /// Throws unless `fd` is a regular file (what sysfs attributes are), naming what it is.
    static func requireRegularFile(_ fd: Int32, path: String) throws(DeviceError) {
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw .system(path: path, call: "fstat", errno: errno) }
        let kind: String
        switch info.st_mode & S_IFMT {
        case S_IFREG: return
        case S_IFDIR: kind = "a folder"
        case S_IFIFO: kind = "a FIFO"
        case S_IFCHR: kind = "a character device"
        case S_IFBLK: kind = "a block device"
        case S_IFSOCK: kind = "a socket"
        default: kind = "not a regular file"
        }
        throw .unsupported(path: path, reason: "\(kind), not a sysfs attribute")
    }

    /// The text of the attribute at `path`, whitespace trimmed; nil when there is none. Read once,
    /// non-blocking, from a regular file only: whatever else stands in its place is refused, never
    /// waited on.
    static func text(at path: String) throws(DeviceError) -> String? {
        let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else {
            let code = errno
            if code == ENOENT { return nil }
            throw DeviceError.fromOpen(path: path, errno: code, fix: DeviceError.inputFix)
        }
        defer { _ = close(fd) }
        try requireRegularFile(fd, path: path)
        // sysfs gives an attribute one page at most (Documentation/filesystems/sysfs.rst)
        var bytes = [UInt8](repeating: 0, count: 4096)
        let n = bytes.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
        guard n >= 0 else {
            let code = errno
            if code == ENODEV || code == EIO { throw .disconnected(path: path, reason: String(cString: strerror(code))) }
            throw .system(path: path, call: "read", errno: code)
        }
        guard let text = String(validating: bytes[0..<n], as: UTF8.self) else {
            throw .unsupported(path: path, reason: "reads \(n) bytes that are not text")
        }
        return text.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Writes `text` to the attribute at `path` (made when absent, as in a test's tree), opened
    /// non-blocking and checked to be a regular file first: a FIFO in its place is refused, never
    /// waited on.
    static func write(_ text: String, to path: String) throws(DeviceError) {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_NONBLOCK | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw DeviceError.fromOpen(path: path, errno: errno, fix: DeviceError.inputFix) }
        defer { _ = close(fd) }
        try requireRegularFile(fd, path: path)
        let written = Array(text.utf8).withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
        guard written >= 0 else { throw .system(path: path, call: "write", errno: errno) }
    }

    /// `text` as a number `isValid` accepts; otherwise an error naming the path, the value and
    /// `expected`.
    static func number(_ text: String, path: String, expected: String, isValid: (Double) -> Bool) throws(DeviceError) -> Double {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard let value = Double(trimmed), isValid(value) else { throw .badAttribute(path: path, value: trimmed, expected: expected) }
        return value
    }
}

extension DeviceError {
    /// An attribute whose value cannot be trusted: its path, the value as read (cut and escaped
    /// to stay one line) and what was expected.
    static func badAttribute(path: String, value: String, expected: String) -> DeviceError {
        let shown = value.count > 40 ? String(value.prefix(40)) + "…" : value
        return .unsupported(path: path, reason: "reads '\(shown.debugDescription.dropFirst().dropLast())', expected \(expected)")
    }
}

import Foundation
