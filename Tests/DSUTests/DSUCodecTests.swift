import DSU
import Motion
import XCTest

final class DSUCodecTests: XCTestCase {
    func testCRC32CheckValue() {
        XCTAssertEqual(CRC32.checksum(Array("123456789".utf8)), 0xCBF4_3926)
    }

    /// Sizes as Dolphin's packed structs (DualShockUDPProto.h): its client computes the CRC over
    /// exactly sizeof(struct) bytes.
    func testResponseSizesMatchDolphinStructs() {
        let info = DSUSlotInfo(slot: 1, state: .connected, model: .fullGyro, connection: .usb)
        let motion = DSUMotion(timestamp: 1, acceleration: .init(x: 0, y: -1, z: 0), gyroscope: .init(pitch: 0, yaw: 0, roll: 0))
        XCTAssertEqual(DSUCodec.encode(.version(maxProtocolVersion: 1001), from: 9).count, 24)
        XCTAssertEqual(DSUCodec.encode(.portInfo(info), from: 9).count, 32)
        XCTAssertEqual(DSUCodec.encode(.padData(info, counter: 0, input: .neutral, motion: motion), from: 9).count, 100)
        XCTAssertEqual(DSUCodec.encode(.version, from: 9).count, 20)
        XCTAssertEqual(DSUCodec.encode(.portInfo(slots: [0, 1, 2, 3]), from: 9).count, 28)
        XCTAssertEqual(DSUCodec.encode(.padData(.allSlots), from: 9).count, 28)
    }

    func testHeaderFieldsAndCRC() {
        let bytes = DSUCodec.encode(.version(maxProtocolVersion: 1001), from: 0xA1B2_C3D4)
        XCTAssertEqual(Array(bytes[0..<4]), Array("DSUS".utf8))
        XCTAssertEqual(Array(bytes[4..<8]), [0xE9, 0x03, 8, 0])  // 1001, length 24 − 16
        XCTAssertEqual(Array(bytes[12..<16]), [0xD4, 0xC3, 0xB2, 0xA1])
        XCTAssertEqual(Array(bytes[16..<24]), [0x00, 0x00, 0x10, 0x00, 0xE9, 0x03, 0, 0])
        var zeroed = bytes
        zeroed[8..<12] = [0, 0, 0, 0]
        let crc = CRC32.checksum(zeroed)
        XCTAssertEqual(Array(bytes[8..<12]), [UInt8(crc & 0xFF), UInt8(crc >> 8 & 0xFF), UInt8(crc >> 16 & 0xFF), UInt8(crc >> 24)])
    }

    /// A pad-data response, byte by byte where the layout matters (Dolphin's PadDataResponse).
    func testPadDataLayout() {
        let info = DSUSlotInfo(slot: 2, state: .connected, model: .fullGyro, connection: .bluetooth,
                               mac: DSUMAC([1, 2, 3, 4, 5, 6]), battery: 0xEF)
        let motion = DSUMotion(timestamp: 0x0102_0304_0506_0708, acceleration: .init(x: 0.5, y: -1, z: 0.25),
                               gyroscope: .init(pitch: 10, yaw: -20, roll: 30))
        let b = DSUCodec.encode(.padData(info, counter: 0x0A0B_0C0D, input: .neutral, motion: motion), from: 1)
        XCTAssertEqual(Array(b[20..<32]), [2, 2, 2, 2, 1, 2, 3, 4, 5, 6, 0xEF, 1])
        XCTAssertEqual(Array(b[32..<36]), [0x0D, 0x0C, 0x0B, 0x0A])
        XCTAssertEqual(Array(b[40..<44]), [128, 128, 128, 128])
        XCTAssertEqual(Array(b[68..<76]), [8, 7, 6, 5, 4, 3, 2, 1])
        func float(_ at: Int) -> Float { Float(bitPattern: UInt32(b[at]) | UInt32(b[at + 1]) << 8 | UInt32(b[at + 2]) << 16 | UInt32(b[at + 3]) << 24) }
        XCTAssertEqual([float(76), float(80), float(84), float(88), float(92), float(96)], [0.5, -1, 0.25, 10, -20, 30])
        XCTAssertEqual(try DSUCodec.decodeResponse(b).get().message, .padData(info, counter: 0x0A0B_0C0D, input: .neutral, motion: motion))
    }

    func testRequestsRoundTrip() throws {
        let mac = DSUMAC([0xAA, 0xBB, 0xCC, 0xDD, 0xEE, 0xFF])
        for request: DSURequest in [.version, .portInfo(slots: []), .portInfo(slots: [3, 0]), .padData(.allSlots),
                                    .padData(DSUSubscription(slot: 2)), .padData(DSUSubscription(mac: mac)),
                                    .padData(DSUSubscription(slot: 1, mac: mac))] {
            let packet = try DSUCodec.decodeRequest(DSUCodec.encode(request, from: 77)).get()
            XCTAssertEqual(packet.message, request)
            XCTAssertEqual(packet.senderID, 77)
        }
    }

    func testBadPacketsGiveTheirReason() {
        let good = DSUCodec.encode(.padData(DSUSubscription(slot: 0)), from: 5)
        func mutated(_ change: (inout [UInt8]) -> Void, fixCRC: Bool = true) -> [UInt8] {
            var b = good
            change(&b)
            if fixCRC { Self.refreshCRC(&b) }
            return b
        }
        let cases: [(String, [UInt8], DSUDropReason)] = [
            ("empty", [], .short),
            ("header only", Array(good[0..<16]), .short),
            ("oversized", good + [UInt8](repeating: 0, count: 100), .oversized),
            ("server magic", mutated { $0[3] = UInt8(ascii: "S") }, .badMagic),
            ("version 1000", mutated { $0[4] = 0xE8 }, .badVersion),
            ("length too long", mutated { $0[6] = 13 }, .badLength),
            ("extra byte", mutated { $0.append(0) }, .badLength),
            ("bad CRC", mutated({ $0[8] ^= 1 }, fixCRC: false), .badCRC),
            ("payload changed after CRC", mutated({ $0[21] = 3 }, fixCRC: false), .badCRC),
            ("unknown type", mutated { $0[16] = 0x03 }, .unknownType),
            ("flags 4", mutated { $0[20] = 4 }, .badPayload),
            ("port info count 5", { var b = DSUCodec.encode(.portInfo(slots: [0, 1, 2, 3]), from: 5); b[20] = 5; Self.refreshCRC(&b); return b }(), .badPayload),
            ("port info count beyond the bytes", { var b = DSUCodec.encode(.portInfo(slots: [0]), from: 5); b[20] = 3; Self.refreshCRC(&b); return b }(), .badPayload),
            ("pad data cut", { var b = Array(good[0..<24]); b[6] = 8; Self.refreshCRC(&b); return b }(), .badPayload),
        ]
        for (name, bytes, reason) in cases {
            XCTAssertEqual(DSUCodec.decodeRequest(bytes).failure, reason, name)
        }
    }

    static func refreshCRC(_ b: inout [UInt8]) {
        guard b.count >= 12 else { return }
        b[8..<12] = [0, 0, 0, 0]
        let crc = CRC32.checksum(b)
        for i in 0..<4 { b[8 + i] = UInt8(truncatingIfNeeded: crc >> (8 * UInt32(i))) }
    }
}

extension Result {
    var failure: Failure? {
        if case .failure(let f) = self { return f }
        return nil
    }
}
