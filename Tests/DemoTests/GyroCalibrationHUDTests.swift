import Foundation
import Motion
import MotionDevices
import TestSupport
import Testing
@testable import Demo

/// The gyro calibration as the scenes see it: through `SceneMotionInput` on the stepped x-io
/// replay (flat and still for its first 12 s), the HUD line, and the C key's request.
@Suite struct GyroCalibrationHUDTests {
    static func input(_ mode: GyroCalibration.Mode?) throws -> SceneMotionInput {
        SceneMotionInput(steppedReplay: SteppedReplaySource(trace: try Recordings.xio()), gyroCalibration: mode)
    }

    @Test func aReplayIsLeftAsRecordedUnlessAskedAndTheHUDSaysSo() throws {
        let input = try Self.input(nil)
        try input.start()
        defer { input.stop() }
        #expect(input.gyroCalibration == nil)
        #expect(GyroCalibrationHUD.line(input.gyroCalibration) == "gyro bias off (as delivered)")
    }

    @Test func autoSettlesAtRestAndTheHUDShowsTheBiasInDegreesPerSecond() throws {
        let input = try Self.input(.automatic)
        try input.start()
        defer { input.stop() }
        input.advance(toFrameTime: 1)
        #expect(GyroCalibrationHUD.line(input.gyroCalibration).hasSuffix("settling (auto)"))
        input.advance(toFrameTime: 10)
        let line = GyroCalibrationHUD.line(input.gyroCalibration)
        #expect(line.hasPrefix("gyro bias "))
        #expect(line.hasSuffix(" deg/s  settled (auto)"))
        // The recording's own rest bias: a few hundredths of a degree per second.
        #expect(input.gyroCalibration!.bias.length * 180 / .pi < 0.1)
    }

    @Test func theCKeysRequestAveragesTheNextSecondInManualMode() throws {
        let input = try Self.input(.manual)
        try input.start()
        defer { input.stop() }
        input.advance(toFrameTime: 2)
        #expect(GyroCalibrationHUD.line(input.gyroCalibration).hasSuffix("off (manual, C to calibrate)"))
        input.calibrateGyro()
        input.advance(toFrameTime: 2.5)
        #expect(GyroCalibrationHUD.line(input.gyroCalibration).contains("settling: hold still, calibrating"))
        input.advance(toFrameTime: 3.2)
        #expect(input.gyroCalibration?.status == .settled)
        #expect(GyroCalibrationHUD.line(input.gyroCalibration).hasSuffix("settled (manual)"))
    }

    @Test func theTeapotHUDCarriesTheLineAndCIsInTheHelp() throws {
        let facts = TeapotHUD.Facts(sourceName: "x", sampleRate: nil, connection: .running, frameTime: 1.0 / 60, vsync: true)
        #expect(TeapotHUD.statusLines(TeapotState(), facts).contains("gyro bias off (as delivered)"))
        #expect(TeapotCommand.command(for: .character("c")) == .calibrateGyro)
    }

    @Test func aCartReplayWithCalibrationGivenIsStillDeterministic() throws {
        let trace = try Recordings.xio()
        var options = CartReplay.Options(seed: 3)
        options.gyroCalibration = .automatic
        let first = try CartReplay.run(trace: trace, options: options)
        let again = try CartReplay.run(trace: trace, options: options)
        #expect(first == again)
    }
}
