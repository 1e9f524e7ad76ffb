#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// An accelerometer history kept in a file, as CMSensorRecorder keeps its history across launches:
/// a ring of `capacity` readings (32 bytes each, after a 32-byte header; layout in
/// `AccelerometerHistoryLayout`), so the file never grows past its size; the oldest readings are
/// overwritten, and a range query is a binary search.
///
///     let history = try AccelerometerHistoryFile(path: "steps.tkhist", capacity: 12 * 3600 * 50)  // 12 h at 50 Hz, 69 MB
///     history.append(data)
///     let lastHour = history.data(from: now - 3600, to: now)
///
/// Reopening the file with the same capacity continues it. A file read from disk is checked whole
/// when opened (header, size, every reading finite and in time order), and refused with the
/// reading at fault. A new file's blocks are all allocated when it is made (posix_fallocate), so a
/// full disk is said then, not found in the middle of a recording; readings go in with pwrite(2),
/// whose failure is a value (`writeFailure`), where a store into a mapped page the disk cannot
/// hold would kill the process with SIGBUS. The header's count is written after the reading, so
/// the file on disk is a whole history at every moment.
/// Not thread-safe by itself: `SensorRecorder` uses it under its lock.
public final class AccelerometerHistoryFile: AccelerometerReadings, @unchecked Sendable {
    /// pwrite(2); tests put a failing one here (a disk that fails).
    public typealias PositionedWrite = (_ fd: Int32, _ bytes: UnsafeRawPointer, _ count: Int, _ offset: off_t) -> Int

    public let path: String
    public var capacity: Int { ring.capacity }
    public var count: Int { ring.count }
    /// Opened for reading only (`init(existingAt:readOnly:)`): appends are refused.
    public let isReadOnly: Bool
    /// Readings refused because their time did not increase or a value was not finite.
    public private(set) var outOfOrder = 0
    /// Readings overwritten to make room, since this object opened the file.
    public private(set) var evicted = 0
    /// The write that failed (a disk error); later appends are refused, the file keeps what it held.
    public private(set) var writeFailure: AccelerometerHistoryFileError?

    private var ring: RingIndex
    private let fd: Int32
    private let write: PositionedWrite

    /// The most readings a file holds (2 GiB of them).
    public static let maximumCapacity = AccelerometerHistoryLayout.maximumCapacity
    /// Bytes of a file holding `capacity` readings.
    public static func fileBytes(capacity: Int) -> Int { AccelerometerHistoryLayout.fileBytes(capacity: capacity) }

    /// Opens `path` for reading and writing, creating it (all its blocks allocated) when it is
    /// absent or empty. Throws when `capacity` is beyond `maximumCapacity`, the disk has no room,
    /// or the file is another kind of file, was sized for another capacity, or is damaged.
    public convenience init(path: String, capacity: Int, write: @escaping PositionedWrite = { pwrite($0, $1, $2, $3) })
        throws(AccelerometerHistoryFileError) {
        let capacity = max(1, capacity)
        guard capacity <= Self.maximumCapacity else {
            throw .init(path: path, problem: "\(capacity) readings (\(Self.weight(capacity))) is more than a history file holds "
                        + "(\(Self.maximumCapacity) readings, \(Self.weight(Self.maximumCapacity)))")
        }
        var created = true
        var fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        if fd < 0 && errno == EEXIST {
            created = false
            fd = open(path, O_RDWR | O_NONBLOCK | O_CLOEXEC)
        }
        guard fd >= 0 else { throw .init(path: path, problem: "cannot open: \(Self.reason(errno))") }
        let ring: RingIndex
        do throws(AccelerometerHistoryFileError) {
            let size = try Self.regularFileSize(fd, path)
            if size == 0 {
                ring = RingIndex(capacity: capacity)
                try Self.allocate(fd, path, capacity: capacity)
                let header = AccelerometerHistoryLayout.Header(capacity: capacity, count: 0, head: 0)
                if let failure = Self.writeAll(fd, write, AccelerometerHistoryLayout.bytes(of: header), at: 0, path: path, held: 0) {
                    throw failure
                }
            } else {
                let header = try Self.checkedHeader(fd, path, size: size)
                guard header.capacity == capacity else {
                    throw AccelerometerHistoryFileError(
                        path: path, problem: "holds \(header.capacity) readings, not \(capacity): open it with that capacity, or delete it")
                }
                ring = RingIndex(capacity: capacity, count: header.count, head: header.head)
                try Self.checkReadings(fd, path, ring)
            }
        } catch {
            close(fd)
            // A file this call made and could not fill is not left behind.
            if created { unlink(path) }
            throw error
        }
        self.init(path: path, fd: fd, write: write, ring: ring, isReadOnly: false)
    }

    /// Opens a history file that exists, with the capacity it was made for; `readOnly` opens it
    /// for queries only (a file the user may not write is still read).
    public convenience init(existingAt path: String, readOnly: Bool = false, write: @escaping PositionedWrite = { pwrite($0, $1, $2, $3) })
        throws(AccelerometerHistoryFileError) {
        // Non-blocking: a FIFO with no writer would hold open(2) forever; the file-type check refuses it.
        let fd = open(path, (readOnly ? O_RDONLY : O_RDWR) | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { throw .init(path: path, problem: "cannot open: \(Self.reason(errno))") }
        let ring: RingIndex
        do throws(AccelerometerHistoryFileError) {
            let header = try Self.checkedHeader(fd, path, size: try Self.regularFileSize(fd, path))
            ring = RingIndex(capacity: header.capacity, count: header.count, head: header.head)
            try Self.checkReadings(fd, path, ring)
        } catch {
            close(fd)
            throw error
        }
        self.init(path: path, fd: fd, write: write, ring: ring, isReadOnly: readOnly)
    }

    /// A file already opened and checked.
    private init(path: String, fd: Int32, write: @escaping PositionedWrite, ring: RingIndex, isReadOnly: Bool) {
        self.path = path
        self.fd = fd
        self.write = write
        self.ring = ring
        self.isReadOnly = isReadOnly
    }

    deinit {
        if !isReadOnly { fsync(fd) }
        close(fd)
    }

    /// Adds a reading, overwriting the oldest when full; one that does not follow the newest in
    /// time, or with a value that is not finite, is refused and counted (`outOfOrder`). After a
    /// failed write (`writeFailure`) nothing more is added.
    public func append(_ data: AccelerometerData) {
        guard writeFailure == nil, !isReadOnly else { return }
        guard follows(data) else {
            outOfOrder += 1
            return
        }
        var next = ring
        let (slot, evicts) = next.append()
        let offset = AccelerometerHistoryLayout.headerBytes + slot * AccelerometerHistoryLayout.readingBytes
        if let failure = Self.writeAll(fd, write, AccelerometerHistoryLayout.bytes(of: data), at: offset, path: path, held: count) {
            writeFailure = failure
            return
        }
        ring = next
        if evicts { evicted += 1 }
        if let failure = writeRing() { writeFailure = failure }
    }

    /// The `i`-th oldest reading, `0 ≤ i < count`; NaN if the file can no longer be read (another
    /// process cut it short).
    public func reading(_ i: Int) -> AccelerometerData {
        readings(i..<(i + 1)).first ?? AccelerometerData(timestamp: .nan, acceleration: Vector3(.nan, .nan, .nan))
    }

    /// The readings with `start ≤ timestamp ≤ end`, oldest first: two binary searches, then one
    /// read per stretch of the ring.
    public func data(from start: Double, to end: Double) -> [AccelerometerData] {
        guard start <= end else { return [] }
        let lower = (0..<count).partitionPoint { reading($0).timestamp < start }
        let upper = (0..<count).partitionPoint { reading($0).timestamp <= end }
        return readings(lower..<max(lower, upper))
    }

    /// Forgets every reading (the file keeps its size).
    public func removeAll() {
        guard writeFailure == nil, !isReadOnly else { return }
        ring.removeAll()
        if let failure = writeRing() { writeFailure = failure }
    }

    /// Writes what the kernel still holds to the disk.
    public func flush() { fsync(fd) }

    // MARK: - Reading

    /// Readings `range` (oldest first), as far as the file can be read.
    private func readings(_ range: Range<Int>) -> [AccelerometerData] {
        var result: [AccelerometerData] = []
        result.reserveCapacity(range.count)
        _ = Self.forEachRun(fd, ring, range) { _, bytes in
            bytes.withUnsafeBytes { raw in
                for k in 0..<(raw.count / AccelerometerHistoryLayout.readingBytes) {
                    result.append(AccelerometerHistoryLayout.reading(raw, at: k * AccelerometerHistoryLayout.readingBytes))
                }
            }
            return true
        }
        return result
    }

    /// Reads readings `range` in pieces of contiguous slots (a ring's readings lie in two stretches
    /// of the file), handing each to `body` with the index of its first reading; stops when `body`
    /// returns false or a read comes up short. Returns false when a read failed.
    private static func forEachRun(_ fd: Int32, _ ring: RingIndex, _ range: Range<Int>, _ body: (Int, [UInt8]) -> Bool) -> Bool {
        let piece = 1 << 15  // readings per read: 1 MiB
        var i = range.lowerBound
        while i < range.upperBound {
            let slot = ring.slot(i)
            let run = min(range.upperBound - i, ring.capacity - slot, piece)
            let offset = AccelerometerHistoryLayout.headerBytes + slot * AccelerometerHistoryLayout.readingBytes
            let bytes = read(fd, count: run * AccelerometerHistoryLayout.readingBytes, at: offset)
            guard bytes.count == run * AccelerometerHistoryLayout.readingBytes else { return false }
            guard body(i, bytes) else { return true }
            i += run
        }
        return true
    }

    /// Every reading held, oldest first: finite, and no time before the one before it.
    private static func checkReadings(_ fd: Int32, _ path: String, _ ring: RingIndex) throws(AccelerometerHistoryFileError) {
        var previous: Double?
        var failure: AccelerometerHistoryFileError?
        let count = ring.count
        let whole = forEachRun(fd, ring, 0..<count) { first, bytes in
            bytes.withUnsafeBytes { raw in
                for k in 0..<(raw.count / AccelerometerHistoryLayout.readingBytes) {
                    let data = AccelerometerHistoryLayout.reading(raw, at: k * AccelerometerHistoryLayout.readingBytes)
                    if let problem = AccelerometerHistoryLayout.problem(with: data, after: previous) {
                        let index = first + k
                        let offset = AccelerometerHistoryLayout.headerBytes + ring.slot(index) * AccelerometerHistoryLayout.readingBytes
                        failure = AccelerometerHistoryFileError(path: path, problem: problem, reading: (index, count, offset))
                        return
                    }
                    previous = data.timestamp
                }
            }
            return failure == nil
        }
        if let failure { throw failure }
        guard whole else { throw .init(path: path, problem: "cut short while it was read (another program changed it, or the disk failed)") }
    }

    private static func read(_ fd: Int32, count: Int, at offset: Int) -> [UInt8] {
        [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            initialized = 0
            while initialized < count {
                let n = pread(fd, buffer.baseAddress! + initialized, count - initialized, off_t(offset + initialized))
                if n < 0 && errno == EINTR { continue }
                guard n > 0 else { return }
                initialized += n
            }
        }
    }

    /// The size of the regular file open at `fd`; a folder, device or pipe is refused by what it is.
    private static func regularFileSize(_ fd: Int32, _ path: String) throws(AccelerometerHistoryFileError) -> Int {
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw .init(path: path, problem: "cannot stat: \(reason(errno))") }
        switch info.st_mode & S_IFMT {
        case S_IFREG: return Int(info.st_size)
        case S_IFDIR: throw .init(path: path, problem: "a folder, expected a history file")
        case S_IFCHR: throw .init(path: path, problem: "a character device, expected a history file")
        default: throw .init(path: path, problem: "not a regular file, expected a history file")
        }
    }

    private static func checkedHeader(_ fd: Int32, _ path: String, size: Int) throws(AccelerometerHistoryFileError)
        -> AccelerometerHistoryLayout.Header {
        let bytes = read(fd, count: AccelerometerHistoryLayout.headerBytes, at: 0)
        do { return try AccelerometerHistoryLayout.header(bytes, fileSize: size) } catch {
            throw .init(path: path, problem: error.text)
        }
    }

    // MARK: - Writing

    /// Allocates every block of a new file, so that the disk's room is known now.
    private static func allocate(_ fd: Int32, _ path: String, capacity: Int) throws(AccelerometerHistoryFileError) {
        let bytes = fileBytes(capacity: capacity)
        let code = posix_fallocate(fd, 0, off_t(bytes))
        guard code == 0 else {
            throw .init(path: path, problem: "cannot make room for \(capacity) readings (\(weight(capacity))): \(reason(code))")
        }
    }

    /// The count and the oldest slot, after the readings they count are on the file.
    private func writeRing() -> AccelerometerHistoryFileError? {
        let header = AccelerometerHistoryLayout.Header(capacity: capacity, count: ring.count, head: ring.isFull ? ring.slot(0) : 0)
        return Self.writeAll(fd, write, Array(AccelerometerHistoryLayout.bytes(of: header)[16..<32]), at: 16, path: path, held: count)
    }

    /// `bytes` at `offset`, whole; the error says what the file still holds (`held` readings).
    private static func writeAll(_ fd: Int32, _ write: PositionedWrite, _ bytes: [UInt8], at offset: Int, path: String, held: Int)
        -> AccelerometerHistoryFileError? {
        var done = 0
        while done < bytes.count {
            let n = bytes.withUnsafeBytes { write(fd, $0.baseAddress! + done, $0.count - done, off_t(offset + done)) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else {
                let code = n == 0 ? ENOSPC : errno
                return .init(path: path, problem: "cannot write: \(reason(code)); the file keeps the \(held) readings written before")
            }
            done += n
        }
        return nil
    }

    // MARK: - Words

    private static func reason(_ code: Int32) -> String { String(cString: strerror(code)) }

    /// A file's size for `capacity` readings, in the unit that reads best ("69.1 MB").
    static func weight(_ capacity: Int) -> String {
        let bytes = Double(fileBytes(capacity: capacity))
        for (unit, size) in [("GB", 1e9), ("MB", 1e6), ("kB", 1e3)] where bytes >= size {
            return String(format: "%.1f %@", bytes / size, unit)
        }
        return "\(Int(bytes)) bytes"
    }
}
