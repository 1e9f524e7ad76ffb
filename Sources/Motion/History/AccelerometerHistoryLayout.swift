/// The bytes of an accelerometer history file (`AccelerometerHistoryFile`) and the checks a file
/// read from disk must pass. Pure, over bytes: a damaged or hostile file is refused with the
/// reading it goes wrong at, before any query builds a range from it.
///
/// Layout, native byte order (little-endian on every Linux target Swift has): header `TKHIST01`,
/// capacity, count, head slot (Int64 each); then per slot timestamp s, x, y, z g (Float64).
enum AccelerometerHistoryLayout {
    static let headerBytes = 32
    static let readingBytes = 32
    /// "TKHIST01" read as a little-endian UInt64.
    static let magic = UInt64(littleEndian: 0x3130_5453_4948_4B54)
    /// The most readings a file holds: 2 GiB of readings, twelve hours (Core Motion's longest
    /// recording) at 1.5 kHz with the recorder's 1.25 margin.
    static let maximumCapacity = 1 << 26

    static func fileBytes(capacity: Int) -> Int { headerBytes + capacity * readingBytes }

    /// What the header says: the ring's size, fill and oldest slot.
    struct Header: Hashable {
        var capacity: Int
        var count: Int
        var head: Int
    }

    /// The header in `bytes` (at least `headerBytes` of them), checked against the file's size.
    static func header(_ bytes: [UInt8], fileSize: Int) throws(AccelerometerHistoryFileError.Problem) -> Header {
        guard bytes.count >= headerBytes else {
            throw .init(fileSize == 0 ? "empty (0 bytes), expected a history's 32-byte TKHIST01 header"
                                      : "not a Tiltkit accelerometer history (\(fileSize) bytes, shorter than the 32-byte TKHIST01 header)")
        }
        func field(_ i: Int) -> Int64 {
            bytes.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: 8 * i, as: Int64.self) }
        }
        guard UInt64(bitPattern: field(0)) == magic else {
            throw .init("not a Tiltkit accelerometer history (no TKHIST01 header)")
        }
        let capacity = field(1), count = field(2), head = field(3)
        guard capacity > 0, capacity <= Int64(maximumCapacity) else {
            throw .init("damaged header: capacity \(capacity) readings, expected 1 to \(maximumCapacity)")
        }
        guard count >= 0, count <= capacity else {
            throw .init("damaged header: \(count) readings held in a ring of \(capacity)")
        }
        // The oldest reading is in slot 0 until the ring is full.
        guard head >= 0, head < capacity, count == capacity || head == 0 else {
            throw .init("damaged header: oldest reading in slot \(head) of \(capacity) with \(count) held")
        }
        let expected = fileBytes(capacity: Int(capacity))
        guard fileSize == expected else {
            throw .init("damaged: \(fileSize) bytes, expected \(expected) for \(capacity) readings")
        }
        return Header(capacity: Int(capacity), count: Int(count), head: Int(head))
    }

    /// The header's 32 bytes.
    static func bytes(of header: Header) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: headerBytes)
        bytes.withUnsafeMutableBytes { raw in
            for (i, v) in [Int64(bitPattern: magic), Int64(header.capacity), Int64(header.count), Int64(header.head)].enumerated() {
                raw.storeBytes(of: v, toByteOffset: 8 * i, as: Int64.self)
            }
        }
        return bytes
    }

    /// The reading in `bytes` at `offset` (`readingBytes` of them).
    static func reading(_ bytes: UnsafeRawBufferPointer, at offset: Int) -> AccelerometerData {
        func value(_ i: Int) -> Double { bytes.loadUnaligned(fromByteOffset: offset + 8 * i, as: Double.self) }
        return AccelerometerData(timestamp: value(0), acceleration: Vector3(value(1), value(2), value(3)))
    }

    static func bytes(of data: AccelerometerData) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: readingBytes)
        bytes.withUnsafeMutableBytes { raw in
            for (i, v) in [data.timestamp, data.acceleration.x, data.acceleration.y, data.acceleration.z].enumerated() {
                raw.storeBytes(of: v, toByteOffset: 8 * i, as: Double.self)
            }
        }
        return bytes
    }

    /// Why `data`, the reading after one at `previous` seconds (nil for the first), cannot be in a
    /// history: a time or value that is not finite, or a time before the one before it.
    static func problem(with data: AccelerometerData, after previous: Double?) -> String? {
        guard data.timestamp.isFinite else { return "time is \(data.timestamp), expected a finite number of seconds" }
        let a = data.acceleration
        guard a.x.isFinite, a.y.isFinite, a.z.isFinite else {
            return "acceleration (\(a.x), \(a.y), \(a.z)) g is not finite"
        }
        if let previous, data.timestamp < previous {
            return "time \(data.timestamp) s is before the reading before it (\(previous) s)"
        }
        return nil
    }
}
