#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// An accelerometer history kept in a file, as CMSensorRecorder keeps its history across launches:
/// a ring of `capacity` readings (32 bytes each, after a 32-byte header), so the file never grows
/// past its size; the oldest readings are overwritten, and a range query is a binary search.
///
///     let history = try AccelerometerHistoryFile(path: "steps.tkhist", capacity: 12 * 3600 * 50)  // 12 h at 50 Hz, 69 MB
///     history.append(data)
///     let lastHour = history.data(from: now - 3600, to: now)
///
/// Reopening the file with the same capacity continues it. The file is mapped into memory
/// (`MAP_SHARED`): appends are memory writes the kernel writes back, `flush()` forces them out.
/// Layout, native byte order (little-endian on every Linux target Swift has): header `TKHIST01`,
/// capacity, count, head slot (Int64 each); then per slot timestamp s, x, y, z g (Float64).
/// Not thread-safe by itself: `SensorRecorder` uses it under its lock.
public final class AccelerometerHistoryFile: AccelerometerReadings, @unchecked Sendable {
    public let path: String
    public var capacity: Int { ring.capacity }
    public var count: Int { ring.count }
    /// Readings refused because their time did not increase.
    public private(set) var outOfOrder = 0
    /// Readings overwritten to make room, since this object opened the file.
    public private(set) var evicted = 0

    private var ring: RingIndex
    private let fd: Int32
    private let base: UnsafeMutableRawPointer
    private let length: Int

    static let headerBytes = 32
    static let readingBytes = 32
    /// "TKHIST01" read as a little-endian UInt64.
    static let magic = UInt64(littleEndian: 0x3130_5453_4948_4B54)

    /// Opens `path` (creating it, sized for `capacity` readings, when it is absent or empty).
    /// Throws when it is another kind of file, was sized for another capacity, or is cut short.
    public init(path: String, capacity: Int) throws(AccelerometerHistoryFileError) {
        let capacity = max(1, capacity)
        guard capacity <= (Int.max - Self.headerBytes) / Self.readingBytes / 2 else {
            throw .init(path: path, problem: "a capacity of \(capacity) readings does not fit in a file")
        }
        self.path = path
        let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw .init(path: path, problem: "cannot open: \(String(cString: strerror(errno)))") }
        let expected = Self.headerBytes + capacity * Self.readingBytes
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw Self.closing(fd, path, "cannot stat: \(String(cString: strerror(errno)))") }
        guard info.st_mode & S_IFMT == S_IFREG else { throw Self.closing(fd, path, "not a regular file (a FIFO, folder or device)") }
        var header = [Int64](repeating: 0, count: 4)
        if info.st_size == 0 {
            guard ftruncate(fd, off_t(expected)) == 0 else {
                throw Self.closing(fd, path, "cannot size to \(expected) bytes: \(String(cString: strerror(errno)))")
            }
            header = [Int64(bitPattern: Self.magic), Int64(capacity), 0, 0]
        } else {
            let read = header.withUnsafeMutableBytes { pread(fd, $0.baseAddress, Self.headerBytes, 0) }
            guard read == Self.headerBytes, UInt64(bitPattern: header[0]) == Self.magic else {
                throw Self.closing(fd, path, "not a Tiltkit accelerometer history (no TKHIST01 header)")
            }
            guard header[1] == Int64(capacity) else {
                throw Self.closing(fd, path, "holds \(header[1]) readings, not \(capacity): open it with that capacity, or delete it")
            }
            guard info.st_size == off_t(expected), header[2] >= 0, header[2] <= header[1],
                  header[3] >= 0, header[3] < max(1, header[1]) else {
                throw Self.closing(fd, path, "damaged: \(info.st_size) bytes or its header do not match \(capacity) readings")
            }
        }
        guard let mapped = mmap(nil, expected, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0), mapped != MAP_FAILED else {
            throw Self.closing(fd, path, "cannot map: \(String(cString: strerror(errno)))")
        }
        self.fd = fd
        base = mapped
        length = expected
        ring = RingIndex(capacity: capacity, count: Int(header[2]), head: Int(header[3]))
        base.storeBytes(of: header[0], toByteOffset: 0, as: Int64.self)
        base.storeBytes(of: header[1], toByteOffset: 8, as: Int64.self)
        writeRing()
    }

    /// Opens a history file that exists, with the capacity it was made for.
    public convenience init(existingAt path: String) throws(AccelerometerHistoryFileError) {
        // Non-blocking: a FIFO with no writer would hold open(2) forever; the header check refuses it.
        let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { throw .init(path: path, problem: "cannot open: \(String(cString: strerror(errno)))") }
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG else {
            throw Self.closing(fd, path, "not a regular file (a FIFO, folder or device)")
        }
        var header = [Int64](repeating: 0, count: 2)
        let read = header.withUnsafeMutableBytes { pread(fd, $0.baseAddress, 16, 0) }
        close(fd)
        guard read == 16, UInt64(bitPattern: header[0]) == Self.magic, header[1] > 0, header[1] <= Int64(Int32.max) else {
            throw .init(path: path, problem: "not a Tiltkit accelerometer history (no TKHIST01 header)")
        }
        try self.init(path: path, capacity: Int(header[1]))
    }

    deinit {
        msync(base, length, MS_SYNC)
        munmap(base, length)
        close(fd)
    }

    /// Adds a reading, overwriting the oldest when full; one that does not follow the newest in
    /// time is refused and counted (`outOfOrder`).
    public func append(_ data: AccelerometerData) {
        guard follows(data) else {
            outOfOrder += 1
            return
        }
        let (slot, evicts) = ring.append()
        let values = base.advanced(by: Self.headerBytes + slot * Self.readingBytes).assumingMemoryBound(to: Double.self)
        values[0] = data.timestamp
        values[1] = data.acceleration.x
        values[2] = data.acceleration.y
        values[3] = data.acceleration.z
        if evicts { evicted += 1 }
        writeRing()
    }

    /// The `i`-th oldest reading, `0 ≤ i < count`.
    public func reading(_ i: Int) -> AccelerometerData {
        let values = base.advanced(by: Self.headerBytes + ring.slot(i) * Self.readingBytes).assumingMemoryBound(to: Double.self)
        return AccelerometerData(timestamp: values[0], acceleration: Vector3(values[1], values[2], values[3]))
    }

    /// Forgets every reading (the file keeps its size).
    public func removeAll() {
        ring.removeAll()
        writeRing()
    }

    /// Writes what the kernel still holds to the disk.
    public func flush() { msync(base, length, MS_SYNC) }

    private func writeRing() {
        base.storeBytes(of: Int64(ring.count), toByteOffset: 16, as: Int64.self)
        base.storeBytes(of: Int64(ring.isFull ? ring.slot(0) : 0), toByteOffset: 24, as: Int64.self)
    }

    private static func closing(_ fd: Int32, _ path: String, _ problem: String) -> AccelerometerHistoryFileError {
        close(fd)
        return AccelerometerHistoryFileError(path: path, problem: problem)
    }
}

/// Why an accelerometer history file could not be opened.
public struct AccelerometerHistoryFileError: Error, CustomStringConvertible, Sendable {
    public var path: String
    public var problem: String
    public var description: String { "\(path): \(problem)" }
}
