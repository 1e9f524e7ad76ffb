import Motion

/// Encodes and decodes DSU packets: the 16-byte header (magic, version 1001, length − 16,
/// CRC-32 of the whole packet with the CRC field zeroed, sender id), the u32 message type, the
/// body. Pure byte work, no sockets; the server, the tests' client and the fuzzer share it.
///
///     let bytes = DSUCodec.encode(.version, from: clientID)           // a request
///     switch DSUCodec.decodeRequest(bytes) { case .success(let p): … case .failure(let why): … }
public enum DSUCodec {
    // MARK: Requests (client → server)

    public static func encode(_ request: DSURequest, from senderID: UInt32) -> [UInt8] {
        var body = ByteWriter()
        let type: DSUMessageType
        switch request {
        case .version:
            type = .version
        case .portInfo(let slots):
            type = .portInfo
            body.int32(Int32(slots.count))
            body.bytes(slots)
        case .padData(let subscription):
            type = .padData
            body.uint8(subscription.flags)
            body.uint8(subscription.slot ?? 0)
            body.bytes(subscription.mac?.array ?? [0, 0, 0, 0, 0, 0])
        }
        return frame(magic: DSU.clientMagic, type: type, body: body.data, senderID: senderID)
    }

    public static func decodeRequest(_ bytes: [UInt8]) -> Result<DSUPacket<DSURequest>, DSUDropReason> {
        decode(bytes, magic: DSU.clientMagic).flatMap { senderID, type, body in
            var r = ByteReader(body)
            switch type {
            case .version:
                return .success(DSUPacket(senderID: senderID, message: .version))
            case .portInfo:
                guard let count = r.int32(), (0...Int32(DSU.slotCount)).contains(count),
                      let slots = r.bytes(Int(count)) else { return .failure(.badPayload) }
                return .success(DSUPacket(senderID: senderID, message: .portInfo(slots: slots)))
            case .padData:
                guard let flags = r.uint8(), flags <= 3, let slot = r.uint8(), let mac = r.bytes(6) else {
                    return .failure(.badPayload)
                }
                let subscription = DSUSubscription(slot: flags & 1 != 0 ? slot : nil,
                                                   mac: flags & 2 != 0 ? DSUMAC(mac) : nil)
                return .success(DSUPacket(senderID: senderID, message: .padData(subscription)))
            }
        }
    }

    // MARK: Responses (server → client)

    public static func encode(_ response: DSUResponse, from senderID: UInt32) -> [UInt8] {
        var body = ByteWriter()
        let type: DSUMessageType
        switch response {
        case .version(let max):
            type = .version
            body.uint16(max)
            body.uint16(0)  // Dolphin's VersionResponse pads to 24 bytes
        case .portInfo(let info):
            type = .portInfo
            body.slotInfo(info)
            body.uint8(0)
        case let .padData(info, counter, input, motion):
            type = .padData
            body.slotInfo(info)
            body.uint8(info.state == .connected ? 1 : 0)  // active
            body.uint32(counter)
            body.padInput(input)
            body.uint64(motion.timestamp)
            for v in [motion.acceleration.x, motion.acceleration.y, motion.acceleration.z,
                      motion.gyroscope.pitch, motion.gyroscope.yaw, motion.gyroscope.roll] { body.float32(v) }
        }
        return frame(magic: DSU.serverMagic, type: type, body: body.data, senderID: senderID)
    }

    public static func decodeResponse(_ bytes: [UInt8]) -> Result<DSUPacket<DSUResponse>, DSUDropReason> {
        decode(bytes, magic: DSU.serverMagic).flatMap { senderID, type, body in
            var r = ByteReader(body)
            switch type {
            case .version:
                guard let max = r.uint16() else { return .failure(.badPayload) }
                return .success(DSUPacket(senderID: senderID, message: .version(maxProtocolVersion: max)))
            case .portInfo:
                guard let info = r.slotInfo() else { return .failure(.badPayload) }
                return .success(DSUPacket(senderID: senderID, message: .portInfo(info)))
            case .padData:
                guard let info = r.slotInfo(), r.uint8() != nil, let counter = r.uint32(),
                      let input = r.padInput(), let timestamp = r.uint64(),
                      let ax = r.float32(), let ay = r.float32(), let az = r.float32(),
                      let pitch = r.float32(), let yaw = r.float32(), let roll = r.float32() else {
                    return .failure(.badPayload)
                }
                let motion = DSUMotion(timestamp: timestamp, acceleration: .init(x: ax, y: ay, z: az),
                                       gyroscope: .init(pitch: pitch, yaw: yaw, roll: roll))
                return .success(DSUPacket(senderID: senderID, message: .padData(info, counter: counter, input: input, motion: motion)))
            }
        }
    }

    // MARK: Framing

    /// Header + type + body, the CRC computed over the whole packet with its field zeroed.
    static func frame(magic: [UInt8], type: DSUMessageType, body: [UInt8], senderID: UInt32) -> [UInt8] {
        var w = ByteWriter()
        w.bytes(magic)
        w.uint16(DSU.protocolVersion)
        w.uint16(UInt16(4 + body.count))
        w.uint32(0)
        w.uint32(senderID)
        w.uint32(type.rawValue)
        w.bytes(body)
        var packet = w.data
        let crc = CRC32.checksum(packet)
        for i in 0..<4 { packet[8 + i] = UInt8(truncatingIfNeeded: crc >> (8 * UInt32(i))) }
        return packet
    }

    /// Checks the header in the order a server must (size, magic, version, length, CRC, type)
    /// and hands back the sender, the type and the body after the type.
    static func decode(_ bytes: [UInt8], magic: [UInt8]) -> Result<(UInt32, DSUMessageType, [UInt8]), DSUDropReason> {
        guard bytes.count >= DSU.headerSize + 4 else { return .failure(.short) }
        guard bytes.count <= DSU.maxPacketSize else { return .failure(.oversized) }
        var r = ByteReader(bytes)
        guard r.bytes(4) == magic else { return .failure(.badMagic) }
        guard r.uint16() == DSU.protocolVersion else { return .failure(.badVersion) }
        guard let length = r.uint16(), Int(length) == bytes.count - DSU.headerSize else { return .failure(.badLength) }
        guard let crc = r.uint32(), let senderID = r.uint32(), let rawType = r.uint32() else { return .failure(.short) }
        var zeroed = bytes
        zeroed[8..<12] = [0, 0, 0, 0]
        guard CRC32.checksum(zeroed) == crc else { return .failure(.badCRC) }
        guard let type = DSUMessageType(rawValue: rawType) else { return .failure(.unknownType) }
        return .success((senderID, type, Array(bytes[(DSU.headerSize + 4)...])))
    }
}
