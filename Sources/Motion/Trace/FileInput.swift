import Foundation

/// A file opened for reading with open(2)/read(2): whole into one array (no `Data` copy beside
/// it) or a piece at a time, with the system's own words for what went wrong instead of Cocoa
/// error codes, and a device or pipe named for what it is (`/dev/null` is a character device).
public final class FileInput {
    let name: String
    /// Bytes in the file when it was opened.
    let size: Int
    private let fd: Int32

    init(path: String, name: String) throws {
        self.name = name
        // Non-blocking: a FIFO with no writer would otherwise hold open(2) forever, before fstat
        // could call it a pipe. Regular files ignore the flag.
        fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else {
            throw TraceError(file: name, line: nil, problem: .unreadable(reason: errno == ENOENT ? "no such file" : systemReason(errno)))
        }
        var info = stat()
        guard fstat(fd, &info) == 0 else {
            let reason = systemReason(errno)
            _ = close(fd)
            throw TraceError(file: name, line: nil, problem: .unreadable(reason: reason))
        }
        if let kind = FileInput.nonFileKind(info.st_mode) {
            _ = close(fd)
            throw TraceError(file: name, line: nil, problem: .unreadable(reason: "\(kind), not a file"))
        }
        size = Int(info.st_size)
    }

    deinit { _ = close(fd) }

    /// The whole file; a missing or unreadable file, a folder or a device throws a `TraceError`
    /// saying so in plain words.
    public static func bytes(path: String, name: String) throws -> [UInt8] {
        let file = try FileInput(path: path, name: name)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(file.size)
        while try file.read(upTo: max(file.size + 1 - bytes.count, 1 << 16), appendingTo: &bytes) > 0 {}
        return bytes
    }

    /// Appends up to `count` bytes; returns how many, 0 at the end of the file.
    func read(upTo count: Int, appendingTo bytes: inout [UInt8]) throws -> Int {
        // Read into uninitialised storage, then one bulk copy: filling `count` zeros element by
        // element (and removing the unread tail) took about a second per 4 MB piece in debug builds.
        var failure: Int32 = 0
        let piece = [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            initialized = 0
            while true {
                let n = Glibc.read(fd, buffer.baseAddress!, count)
                if n < 0 && errno == EINTR { continue }
                if n < 0 { failure = errno } else { initialized = n }
                return
            }
        }
        guard failure == 0 else {
            throw TraceError(file: name, line: nil, problem: .unreadable(reason: systemReason(failure)))
        }
        bytes.append(contentsOf: piece)
        return piece.count
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
