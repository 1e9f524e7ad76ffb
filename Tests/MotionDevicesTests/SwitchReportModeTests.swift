import Foundation
import Motion
@testable import MotionDevices
import Testing

/// Starting a Nintendo pad's full reports and IMU when no kernel driver did, against a pad that
/// answers as the protocol notes say (INPUT_FACTS §4).
@Suite("Switch report mode")
struct SwitchReportModeTests {
    static let full = SwitchReportTests.report(samples: Array(repeating: (SIMD3(0, 0, 4096), SIMD3(14, -4, -32)), count: 3))

    /// A pad without hid-nintendo: silent over USB until the 0x80 handshake, then simple reports
    /// until subcommand 0x03 0x30, and no motion until 0x40 0x01.
    static func silentPad(bus: HIDBus) -> RecordedHIDReader {
        let reader = RecordedHIDReader(identity: HIDRawIdentity(bus: bus, vendorID: 0x057E, productID: 0x2009,
                                                                name: "Pro Controller", uniq: ""), reports: [])
        reader.isLive = true
        var simple = [UInt8](repeating: 0, count: 12)
        simple[0] = 0x3F
        if bus == .bluetooth { reader.reports = [simple, simple] }
        reader.reply = { request in
            switch (request[0], request.count > 10 ? request[10] : 0) {
            case (0x80, _): return request[1] == 0x04 ? [simple] : [[0x81, request[1]] + [UInt8](repeating: 0, count: 62)]
            case (0x01, let id):
                var ack = [UInt8](repeating: 0, count: 64)
                ack[0] = 0x21; ack[13] = 0x80; ack[14] = id
                if id == 0x10 {  // SPI read: answer 0xFF (erased): nominal calibration
                    for i in 0..<4 { ack[15 + i] = request[11 + i] }
                    for i in 20..<64 { ack[i] = 0xFF }
                }
                return id == 0x40 ? [ack, full, full, full] : [ack]
            default: return []
            }
        }
        return reader
    }

    @Test("USB without a driver: handshake, full mode, IMU on, in that order; then the pad streams 0x30")
    func usbHandshake() throws {
        let reader = Self.silentPad(bus: .usb)
        #expect(SwitchReportMode.ensureFullReports(reader, bus: .usb, wait: 0.05) == .started)
        #expect(reader.written.map { Array($0.prefix(2)) } == [[0x80, 0x02], [0x80, 0x03], [0x80, 0x02], [0x80, 0x04], [0x01, 0x00], [0x01, 0x01]])
        #expect(Array(reader.written[4][10...]) == [0x03, 0x30])
        #expect(Array(reader.written[5][10...]) == [0x40, 0x01])
        #expect(Array(reader.written[5][2..<10]) == SwitchSubcommand.neutralRumble)
    }

    @Test("Bluetooth without a driver: no handshake, the two subcommands; the source says it started the pad")
    func bluetoothThroughTheSource() throws {
        let reader = Self.silentPad(bus: .bluetooth)
        let source = try HIDRawSource(reader: reader, path: "/dev/hidraw7")
        #expect(reader.written.prefix(2).map { $0[10] } == [0x03, 0x40])
        #expect(!reader.written.contains { $0[0] == 0x80 })
        #expect(source.info.name.hasSuffix("full reports started"), "\(source.info.name)")
    }

    @Test("a pad the driver already streams from is left alone")
    func alreadyStreaming() {
        let reader = Self.silentPad(bus: .usb)
        reader.reports = [Self.full]
        #expect(SwitchReportMode.ensureFullReports(reader, bus: .usb, wait: 0.05) == .alreadyStreaming)
        #expect(reader.written.isEmpty)
    }

    @Test("a pad that never answers, or a capture that ends, gives up without hanging")
    func noAnswer() {
        let reader = Self.silentPad(bus: .usb)
        reader.reply = { _ in [] }
        #expect(SwitchReportMode.ensureFullReports(reader, bus: .usb, wait: 0.02) == .noAnswer)
        let capture = RecordedHIDReader(identity: nil, reports: [])
        #expect(SwitchReportMode.ensureFullReports(capture, bus: .usb, wait: 0.02) == .noAnswer)
        #expect(capture.written.isEmpty)
    }
}
