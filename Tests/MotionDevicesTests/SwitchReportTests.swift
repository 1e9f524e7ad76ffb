import Foundation
import Motion
@testable import MotionDevices
import Testing

@Suite("Switch reports")
struct SwitchReportTests {
    /// The user calibration hexdump at 0x8026 from the deku spi_flash_notes (INPUT_FACTS §11.2).
    static let dekuUserCalibration = HexBytes.parse("b2a1 7600 a6fe ea02 0040 0040 0040 0e00 fcff e0ff 3b34 3b34 3b34")!

    /// A 0x30 report built by hand: no public full capture exists (INPUT_FACTS §11.6). Each of the
    /// three samples gets distinct values so their order is visible.
    static func report(samples: [(accel: SIMD3<Int16>, gyro: SIMD3<Int16>)]) -> [UInt8] {
        var r = [UInt8](repeating: 0, count: 49)
        r[0] = 0x30
        r[1] = 0x2C
        for (i, s) in samples.enumerated() {
            let values = [s.accel.x, s.accel.y, s.accel.z, s.gyro.x, s.gyro.y, s.gyro.z]
            for (j, v) in values.enumerated() {
                let o = 13 + i * 12 + j * 2
                r[o] = UInt8(truncatingIfNeeded: v)
                r[o + 1] = UInt8(truncatingIfNeeded: v >> 8)
            }
        }
        return r
    }

    @Test("SPI user calibration from the deku dump gives the documented coefficients")
    func spiCalibration() throws {
        let c = SwitchCalibration(factory: nil, user: Self.dekuUserCalibration)
        #expect(c.origin == "user")
        #expect(c.accelOrigin == SIMD3(118, -346, 746) && c.gyroOrigin == SIMD3(14, -4, -32))
        #expect(maxDifference(c.accelGPerCount, SIMD3(0.0002459, 0.0002391, 0.0002558)) < 5e-8)
        #expect(maxDifference(c.gyroDegreesPerCount, SIMD3(0.070076, 0.069981, 0.069835)) < 5e-7)
        // No magic → factory block; erased flash (0xFF…) → nominal.
        var noMagic = Self.dekuUserCalibration
        noMagic[0] = 0xFF
        #expect(SwitchCalibration(factory: Array(Self.dekuUserCalibration[2...]), user: noMagic).origin == "factory")
        #expect(SwitchCalibration(factory: [UInt8](repeating: 0xFF, count: 24), user: nil).origin == "nominal")
    }

    @Test("three samples per report, Nintendo axes mapped to Core Motion, order switchable, times spread")
    func threeSamples() throws {
        // Lying face up the Nintendo frame reads +Z (reaction), ≈ 4096 counts per g.
        let report = Self.report(samples: [
            (SIMD3(0, 0, 4096), SIMD3(100, 0, 0)),
            (SIMD3(0, 0, 4096), SIMD3(0, 100, 0)),
            (SIMD3(0, 0, 4096), SIMD3(0, 0, 100)),
        ])
        var decoder = GamepadReportDecoder(device: GamepadDevice(model: .switchPro, bus: .bluetooth))
        let samples = decoder.decode(report, hostTime: 10)
        try #require(samples.count == 3)
        for s in samples { #expect(abs(s.acceleration.z + 1) < 1e-9 && abs(s.acceleration.x) < 1e-9) }
        // Nintendo +X (toward the triggers) is Core Motion +y; +Y (left) is −x; +Z is +z.
        let dps = 100.0 * 936 / 13371 * .pi / 180
        #expect(maxDifference(SIMD3(samples[0].rotationRate!.x, samples[0].rotationRate!.y, samples[0].rotationRate!.z), SIMD3(0, dps, 0)) < 1e-9)
        #expect(maxDifference(SIMD3(samples[1].rotationRate!.x, samples[1].rotationRate!.y, samples[1].rotationRate!.z), SIMD3(-dps, 0, 0)) < 1e-9)
        #expect(abs(samples[2].rotationRate!.z - dps) < 1e-9)
        #expect(samples[2].timestamp == 10)
        #expect(abs((samples[2].timestamp - samples[1].timestamp) - 0.005) < 1e-9)

        var reversed = GamepadReportDecoder(device: GamepadDevice(model: .switchPro, bus: .bluetooth))
        reversed.switchSampleOrder = .lastIsOldest
        let r = reversed.decode(report, hostTime: 10)
        #expect(r[0].rotationRate == samples[2].rotationRate && r[2].rotationRate == samples[0].rotationRate)
    }

    @Test("the right Joy-Con's mirrored IMU reads face-up as −1 g on z too (wazho sample, INPUT_FACTS §11.3)")
    func rightJoyCon() throws {
        // accel (479, 22, −3985): the right Joy-Con lying face up, Z mirrored.
        let report = Self.report(samples: Array(repeating: (SIMD3(479, 22, -3985), SIMD3(23, -51, -37)), count: 3))
        var decoder = GamepadReportDecoder(device: GamepadDevice(model: .joyConRight, bus: .bluetooth))
        let a = try #require(decoder.decode(report, hostTime: 0).first).acceleration
        #expect(a.z < -0.9)
    }

    @Test("truncated and non-IMU Nintendo reports are counted")
    func rejections() {
        var decoder = GamepadReportDecoder(device: GamepadDevice(model: .switchPro, bus: .usb))
        #expect(decoder.decode(Array(Self.report(samples: []).prefix(30)), hostTime: 0).isEmpty)
        #expect(decoder.decode([0x3F, 0, 0], hostTime: 0).isEmpty)
        #expect(decoder.decode([0x81, 0x01], hostTime: 0).isEmpty)
        #expect(decoder.statistics.truncated == 1 && decoder.statistics.noMotionData == 1)
        #expect(decoder.statistics.unknownReportIDs == [0x81: 1])
    }

    @Test("SPI read requests and replies are laid out as the deku notes say")
    func spiProtocol() {
        var spi = SwitchSPIReader()
        let request = spi.request(address: 0x6020, length: 24)
        #expect(request == [0x01, 0x00, 0x00, 0x01, 0x40, 0x40, 0x00, 0x01, 0x40, 0x40, 0x10, 0x20, 0x60, 0, 0, 24])
        #expect(spi.request(address: 0x8026, length: 26)[1] == 1)
        var reply = [UInt8](repeating: 0, count: 49)
        reply[0] = 0x21; reply[13] = 0x90; reply[14] = 0x10; reply[15] = 0x20; reply[16] = 0x60
        for i in 0..<24 { reply[20 + i] = UInt8(i) }
        #expect(SwitchSPIReader.data(inReply: reply, address: 0x6020, length: 24) == (0..<24).map(UInt8.init))
        #expect(SwitchSPIReader.data(inReply: reply, address: 0x8026, length: 24) == nil)
    }
}
