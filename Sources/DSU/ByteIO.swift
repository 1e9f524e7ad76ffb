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

    /// Buttons (two bitmasks, PS, touch click), sticks, the 12 analog button bytes, two touches:
    /// 32 bytes, offsets 36…67 of the packet (Dolphin's `PadDataResponse`).
    mutating func padInput(_ p: DSUPadInput) {
        let b = p.buttons
        func analog(_ button: DSUButtons) -> UInt8 { b.contains(button) ? 255 : 0 }
        bytes([b.firstByte, b.secondByte, b.contains(.ps) ? 1 : 0, b.contains(.touchpad) ? 1 : 0])
        bytes([p.leftStick.x, p.leftStick.y, p.rightStick.x, p.rightStick.y])
        bytes([analog(.dpadLeft), analog(.dpadDown), analog(.dpadRight), analog(.dpadUp),
               analog(.square), analog(.cross), analog(.circle), analog(.triangle),
               analog(.r1), analog(.l1), p.rightTrigger, p.leftTrigger])
        for touch in [p.firstTouch, p.secondTouch] {
            uint8(touch == nil ? 0 : 1)
            uint8(touch?.id ?? 0)
            uint16(touch?.x ?? 0)
            uint16(touch?.y ?? 0)
        }
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

    /// The 32 bytes `ByteWriter.padInput` writes. The analog bytes of digital buttons are implied
    /// by the bitmasks and not read back; a touch whose active byte is 0 reads nil.
    mutating func padInput() -> DSUPadInput? {
        guard let head = bytes(8), let analog = bytes(12) else { return nil }
        var input = DSUPadInput(buttons: DSUButtons(firstByte: head[0], secondByte: head[1], ps: head[2] != 0, touchpad: head[3] != 0),
                                leftStick: DSUStick(x: head[4], y: head[5]), rightStick: DSUStick(x: head[6], y: head[7]),
                                leftTrigger: analog[11], rightTrigger: analog[10])
        var touches: [DSUTouch?] = []
        for _ in 0..<2 {
            guard let active = uint8(), let id = uint8(), let x = uint16(), let y = uint16() else { return nil }
            touches.append(active != 0 ? DSUTouch(id: id, x: x, y: y) : nil)
        }
        input.firstTouch = touches[0]
        input.secondTouch = touches[1]
        return input
    }

    private mutating func little(_ count: Int) -> UInt64? {
        guard let b = bytes(count) else { return nil }
        return b.enumerated().reduce(0) { $0 | UInt64($1.element) << (8 * UInt64($1.offset)) }
    }
}
