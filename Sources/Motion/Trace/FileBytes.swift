import Foundation

/// A file's bytes, read with open(2)/read(2) straight into one array (no `Data` copy beside it),
/// with the system's own words for what went wrong instead of Cocoa error codes.
enum FileBytes {
    static func read(path: String, name: String) throws -> [UInt8] {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else {
            throw TraceError(file: name, line: nil, problem: .unreadable(reason: errno == ENOENT ? "no such file" : systemReason(errno)))
        }
        defer { _ = close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw TraceError(file: name, line: nil, problem: .unreadable(reason: systemReason(errno))) }
        // A device or a pipe is not a recording: say what it is (`/dev/null` is a character device).
        if let kind = nonFileKind(info.st_mode) {
            throw TraceError(file: name, line: nil, problem: .unreadable(reason: "\(kind), not a file"))
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(Int(info.st_size))
        let chunk = 1 << 20
        while true {
            let start = bytes.count
            bytes.append(contentsOf: repeatElement(0, count: chunk))
            let n = bytes.withUnsafeMutableBufferPointer { Glibc.read(fd, $0.baseAddress! + start, chunk) }
            if n < 0 {
                if errno == EINTR { bytes.removeLast(chunk); continue }
                throw TraceError(file: name, line: nil, problem: .unreadable(reason: systemReason(errno)))
            }
            bytes.removeLast(chunk - n)
            if n == 0 { return bytes }
        }
    }

    private static func nonFileKind(_ mode: mode_t) -> String? {
        switch mode & S_IFMT {
        case S_IFREG: return nil
        case S_IFDIR: return "a folder"
        case S_IFCHR: return "a character device"
        case S_IFBLK: return "a block device"
        case S_IFIFO: return "a pipe"
        case S_IFSOCK: return "a socket"
        default: return "not a regular file"
        }
    }
}

/// `errno` in words ("No space left on device").
func systemReason(_ code: Int32) -> String {
    String(cString: strerror(code))
}
