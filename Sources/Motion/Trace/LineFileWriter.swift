import Foundation

/// A text file that only ever holds whole lines. Lines are buffered and written with write(2);
/// when a write fails part-way (a full disk), the file is cut back to the last whole line, so
/// what is on disk stays readable, and the error says in the system's words what happened.
/// `close()` flushes, fsyncs and closes.
///
///     let file = try LineFileWriter(path: "fused.csv", name: "fused.csv")
///     try file.append("t,qw\n")
///     try file.close()
public final class LineFileWriter {
    /// The write(2) the file uses; tests put a failing one here (a disk that fills up).
    public typealias Write = (_ fd: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int

    /// As the user named the file, for messages.
    public let name: String
    private let fd: Int32
    private let write: Write
    private var buffer: [UInt8] = []
    /// Bytes on disk, all of them whole lines.
    private var committed: off_t = 0
    private var isClosed = false
    /// Appends flush by themselves beyond this, so memory stays bounded however much is written.
    private static let bufferLimit = 1 << 16

    /// Creates or truncates `path`. `/dev/stdout` is this process's standard output itself (a
    /// duplicate of descriptor 1): opening it anew would truncate a file the shell opened for
    /// appending (`>>`) and write from its start.
    public init(path: String, name: String, write: @escaping Write = { Glibc.write($0, $1, $2) }) throws {
        self.name = name
        self.write = write
        fd = path == "/dev/stdout" ? fcntl(STDOUT_FILENO, F_DUPFD_CLOEXEC, 0) : open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw TraceError(file: name, line: nil, problem: .unwritable(reason: systemReason(errno))) }
        // Standard output may be a file already holding lines (`>>`); a pipe has no offset (-1).
        committed = max(0, lseek(fd, 0, SEEK_CUR))
    }

    deinit { try? close() }

    /// Adds whole lines (each ending in a newline); written at the next `flush()` or when the buffer is full.
    public func append(_ lines: String) throws {
        buffer.append(contentsOf: lines.utf8)
        if buffer.count >= LineFileWriter.bufferLimit { try flush() }
    }

    /// Writes the buffered lines. On failure the file keeps the lines written before, and the
    /// buffer is dropped: a caller that goes on appending after an error gets no torn lines.
    public func flush() throws {
        guard !buffer.isEmpty, !isClosed else { return }
        defer { buffer.removeAll(keepingCapacity: buffer.count <= LineFileWriter.bufferLimit) }
        var done = 0
        while done < buffer.count {
            let n = buffer.withUnsafeBytes { write(fd, $0.baseAddress! + done, $0.count - done) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else {
                let code = n == 0 ? ENOSPC : errno
                // Best effort: the write already failed, and the cut keeps the file whole.
                _ = ftruncate(fd, committed)
                _ = lseek(fd, committed, SEEK_SET)
                throw TraceError(file: name, line: nil, problem: .unwritable(reason: systemReason(code)))
            }
            done += n
        }
        committed += off_t(done)
    }

    /// Flushes, fsyncs (so the lines survive a power cut) and closes; later calls do nothing.
    public func close() throws {
        guard !isClosed else { return }
        defer { isClosed = true; _ = Glibc.close(fd) }
        try flush()
        guard fsync(fd) == 0 || errno == EINVAL else {
            throw TraceError(file: name, line: nil, problem: .unwritable(reason: systemReason(errno)))
        }
    }
}
