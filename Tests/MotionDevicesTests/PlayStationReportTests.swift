import Foundation
import Motion
@testable import MotionDevices
import Testing

/// Pad-frame values: undo the Core Motion mapping (x, −z, y) so tests compare with what the
/// pad measured. Acceleration additionally had its sign flipped to Apple's.
private func padFrame(_ v: Vector3) -> SIMD3<Double> { SIMD3(v.x, v.z, -v.y) }

@Suite("PlayStation reports")
struct PlayStationReportTests {
    let ds4USB = GamepadDevice(model: .dualShock4, bus: .usb)

    @Test("real DualShock 4 bytes decode to the values SDL computes (INPUT_FACTS §11.1)")
    func realDualShock4() throws {
        let dump = try Fixtures.ds4dump()
        var decoder = GamepadReportDecoder(device: ds4USB)
        try decoder.applyFeatureReport(dump.feature)
        #expect(decoder.playStationCalibration.isFactory)
        let report = try #require(dump.reports["clone1-after-calibration"]?.first)
        let sample = try #require(decoder.decode(report, hostTime: 100).first)
        let gyro = padFrame(try #require(sample.rotationRate))
        let expectedGyro = SIMD3(-0.020385, -0.008583, -0.019312)
        #expect(maxDifference(gyro, expectedGyro) < 2e-6)
        let accel = -padFrame(sample.acceleration) * CoreMotionFrame.standardGravity
        #expect(maxDifference(accel, SIMD3(0.34716, 9.77912, 1.61369)) < 1e-4)
    }

    @Test("a DualShock 4 lying face up reads gravity down on Core Motion's z")
    func faceUpIsMinusZ() throws {
        let report = try #require(Fixtures.ds4dump().reports["clone1-first"]?.first)
        var decoder = GamepadReportDecoder(device: ds4USB)
        let a = try #require(decoder.decode(report, hostTime: 0).first).acceleration
        #expect(a.z < -0.9 && abs(a.x) < 0.2 && abs(a.y) < 0.2)
    }

    @Test("DualShock 4 timestamps: 16/3 µs ticks, unwrapped across the u16 wrap")
    func dualShock4Timestamps() throws {
        let reports = try #require(Fixtures.ds4dump().reports["clone1-first"])
        var decoder = GamepadReportDecoder(device: ds4USB)
        let times = reports.enumerated().map { i, r in decoder.decode(r, hostTime: 10 + Double(i) * 0.004)[0].timestamp }
        // Within a few µs: the anchor slews toward host time by a fraction of the arrival offset.
        #expect(abs((times[1] - times[0]) - 748 * 16 / 3 * 1e-6) < 5e-6)
        // Clone #2's counter wraps is exercised by the clock directly: 0xFFF0 → 0x0010 is 32 ticks.
        var clock = DeviceClock.dualShock4
        _ = clock.seconds(ticks: 0xFFF0)
        #expect(abs(clock.seconds(ticks: 0x0010) - 32 * 16 / 3 * 1e-6) < 1e-12)
        #expect(zip(times, times.dropFirst()).allSatisfy { $0 < $1 })
    }

    @Test("hid-tools DualShock 4 and DualSense reports decode to the generator's values",
          arguments: ["ds4-usb", "ds4-bt", "dualsense-usb", "dualsense-bt"])
    func generated(_ name: String) throws {
        let fixture = try Fixtures.generated(name)
        let device = try #require(GamepadDevice(hint: name))
        var decoder = GamepadReportDecoder(device: device)
        try decoder.applyFeatureReport(fixture.feature)
        #expect(fixture.reports.count == 5)
        for (accel, gyroDegrees, bytes) in fixture.reports {
            let sample = try #require(decoder.decode(bytes, hostTime: 1).first)
            // Quantisation: one count is ≈ 1/8192 g and ≈ 0.06 deg/s (hid-tools truncates to int).
            let a = -padFrame(sample.acceleration)
            #expect(maxDifference(a, accel) < 2.5 / 8192, "\(name) accel \(a) vs \(accel)")
            let g = padFrame(try #require(sample.rotationRate))
            #expect(maxDifference(g, gyroDegrees.radians) < (0.13 * .pi / 180), "\(name) gyro \(g) vs \(gyroDegrees.radians)")
        }
        #expect(decoder.statistics.decodedReports == 5 && decoder.statistics.rejected == 0)
    }

    @Test("a Bluetooth report with a wrong CRC is rejected and counted")
    func badCRC() throws {
        for name in ["ds4-bt", "dualsense-bt"] {
            var bytes = try Fixtures.generated(name).reports[2].bytes
            bytes[20] ^= 0x01
            var decoder = GamepadReportDecoder(device: try #require(GamepadDevice(hint: name)))
            #expect(decoder.decode(bytes, hostTime: 0).isEmpty)
            #expect(decoder.statistics.badChecksum == 1)
            #expect(decoder.statistics.lastRejection == .badChecksum(reportID: bytes[0]))
        }
    }

    @Test("truncated reports, unknown IDs and simple-mode reports are counted, not decoded")
    func rejections() throws {
        let report = try #require(Fixtures.ds4dump().reports["clone1"]?.first)
        var decoder = GamepadReportDecoder(device: ds4USB)
        #expect(decoder.decode(Array(report.prefix(20)), hostTime: 0).isEmpty)
        #expect(decoder.decode([0x05, 1, 2, 3], hostTime: 0).isEmpty)
        #expect(decoder.decode([0x05, 1, 2, 3], hostTime: 0).isEmpty)
        #expect(decoder.decode([], hostTime: 0).isEmpty)
        #expect(decoder.statistics.truncated == 1)
        #expect(decoder.statistics.unknownReportIDs == [0x05: 2])
        #expect(decoder.statistics.empty == 1)
        #expect(decoder.statistics.lastRejection?.description == "empty read")
        var bluetooth = GamepadReportDecoder(device: GamepadDevice(model: .dualShock4, bus: .bluetooth))
        #expect(bluetooth.decode(Array(report.prefix(10)), hostTime: 0).isEmpty)
        #expect(bluetooth.statistics.noMotionData == 1)
    }

    @Test("the USB adapter without a pad is detected from status byte 31")
    func adapterWithoutPad() throws {
        var report = try #require(Fixtures.ds4dump().reports["clone1"]?.first)
        var decoder = GamepadReportDecoder(device: GamepadDevice(model: .dualShock4Dongle, bus: .usb))
        #expect(decoder.decode(report, hostTime: 0).count == 1)
        report[31] |= 0x04
        #expect(decoder.decode(report, hostTime: 0).isEmpty)
        #expect(decoder.statistics.noControllerOnAdapter == 1)
    }

    @Test("DualSense timestamps are 1/3 µs ticks and unwrap across the u32 wrap")
    func dualSenseTimestamps() throws {
        var first = try Fixtures.generated("dualsense-usb").reports[0].bytes
        var second = first
        func put(_ ticks: UInt32, into r: inout [UInt8]) { for i in 0..<4 { r[28 + i] = UInt8(truncatingIfNeeded: ticks >> (8 * UInt32(i))) } }
        put(0xFFFF_F000, into: &first)
        put(0x0000_0E00, into: &second)  // 0x1E00 ticks later = 7680 / 3 µs = 2.56 ms
        var decoder = GamepadReportDecoder(device: GamepadDevice(model: .dualSense, bus: .usb))
        let t0 = decoder.decode(first, hostTime: 5)[0].timestamp
        let t1 = decoder.decode(second, hostTime: 5.003)[0].timestamp
        #expect(abs((t1 - t0) - 2.56e-3) < 5e-6)
    }

    @Test("calibration: ds4dump report 0x02 parses as SDL does; a bad Bluetooth CRC and implausible values fall back")
    func calibration() throws {
        let dump = try Fixtures.ds4dump()
        let c = try PlayStationCalibration(featureReport: dump.feature, device: ds4USB)
        // speed ±540 over plus 8829 / minus −8740 → 1080/17569 deg/s per count.
        #expect(abs(c.gyroDegreesPerCount.x - 1080.0 / 17569) < 1e-12)
        #expect(c.accelBias == .zero && c.accelGPerCount == SIMD3(repeating: 1.0 / 8192))
        var feature = try Fixtures.generated("ds4-bt").feature
        let bt = GamepadDevice(model: .dualShock4, bus: .bluetooth)
        _ = try PlayStationCalibration(featureReport: feature, device: bt)
        feature[8] ^= 0xFF
        #expect(throws: PlayStationCalibration.ParseError.badChecksum) { try PlayStationCalibration(featureReport: feature, device: bt) }
        var zeros = dump.feature
        for i in 19..<23 { zeros[i] = 0 }
        #expect(throws: PlayStationCalibration.ParseError.self) { try PlayStationCalibration(featureReport: zeros, device: ds4USB) }
    }

    @Test("CRC-32 matches zlib and the hid-tools trailer")
    func crc() throws {
        #expect(CRC32.checksum(Array("123456789".utf8)) == 0xCBF4_3926)
        let report = try Fixtures.generated("ds4-bt").reports[0].bytes
        #expect(CRC32.isValidTrailer(report, seed: CRC32.inputSeed))
        #expect(!CRC32.isValidTrailer(report, seed: CRC32.featureSeed))
    }

    @Test("pads are guessed from report streams without ioctls")
    func guessing() throws {
        let ds4 = try #require(Fixtures.ds4dump().reports["clone1"]?.first)
        #expect(GamepadDevice(guessingFrom: ds4) == GamepadDevice(model: .dualShock4, bus: .usb))
        #expect(GamepadDevice(guessingFrom: try Fixtures.generated("dualsense-usb").reports[0].bytes)
                == GamepadDevice(model: .dualSense, bus: .usb))
        #expect(GamepadDevice(guessingFrom: try Fixtures.generated("ds4-bt").reports[0].bytes)
                == GamepadDevice(model: .dualShock4, bus: .bluetooth))
        #expect(GamepadDevice(guessingFrom: [0x7F, 1, 2]) == nil)
    }
}
