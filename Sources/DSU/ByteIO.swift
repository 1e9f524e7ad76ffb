/// Little-endian writing for DSU packets.
struct ByteWriter {
    private(set) var data: [UInt8] = []

    mutating func bytes(_ b: [UInt8]) { data += b }
    mutating func uint8(_ v: UInt8) { data.append(v) }
    mutating func uint16(_ v: UInt16) { little(UInt64(v), 2) }
    mutating func uint32(_ v: UInt32) { little(UInt64(v), 4) }
    mutating func int32(_ v: Int32) { uint32(UInt32(bitPattern: v)) }
    mutating func uint64(_ v: UInt64) { little(v, 8) }
    mutating func float32(_ v: Float) { uint32(v.bitPattern) }

    mutating func slotInfo(_ s: DSUSlotInfo) {
        bytes([s.slot, s.state.rawValue, s.model.rawValue, s.connection.rawValue])
        bytes(s.mac.array)
        uint8(s.battery)
    }

    private mutating func little(_ v: UInt64, _ count: Int) {
        for i in 0..<count { data.append(UInt8(truncatingIfNeeded: v >> (8 * UInt64(i)))) }
    }
}

/// Little-endian reading that never traps: every read past the end is nil.
struct ByteReader {
    private let data: [UInt8]
    private var offset = 0

    init(_ data: [UInt8]) { self.data = data }

    mutating func bytes(_ count: Int) -> [UInt8]? {
        guard count >= 0, data.count - offset >= count else { return nil }
        defer { offset += count }
        return Array(data[offset..<offset + count])
    }

    mutating func uint8() -> UInt8? { bytes(1)?[0] }
    mutating func uint16() -> UInt16? { little(2).map { UInt16($0) } }
    mutating func uint32() -> UInt32? { little(4).map { UInt32($0) } }
    mutating func int32() -> Int32? { uint32().map { Int32(bitPattern: $0) } }
    mutating func uint64() -> UInt64? { little(8) }
    mutating func float32() -> Float? { uint32().map { Float(bitPattern: $0) } }

    mutating func slotInfo() -> DSUSlotInfo? {
        guard let head = bytes(4), let mac = bytes(6), let battery = uint8() else { return nil }
        // Unknown enum values read as the closest "nothing there" rather than failing the packet.
        return DSUSlotInfo(slot: head[0], state: .init(rawValue: head[1]) ?? .disconnected,
                           model: .init(rawValue: head[2]) ?? .none, connection: .init(rawValue: head[3]) ?? .none,
                           mac: DSUMAC(mac), battery: battery)
    }

    private mutating func little(_ count: Int) -> UInt64? {
        guard let b = bytes(count) else { return nil }
        return b.enumerated().reduce(0) { $0 | UInt64($1.element) << (8 * UInt64($1.offset)) }
    }
}
