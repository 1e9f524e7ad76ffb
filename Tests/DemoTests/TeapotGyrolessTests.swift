import Foundation
import Motion
import TestSupport
import Testing
@testable import Demo

/// A source without a gyro: the Oxford walk in the user's hand (Samsung S6, accelerometer only,
/// CC BY 4.0, bundled). The teapot runs the accelerometer-only estimate and says so.
@Suite struct TeapotGyrolessTests {
    static func gyrolessTrace() throws -> Trace {
        try Trace.load(contentsOf: TestData.assets.appendingPathComponent("traces/oxford-steps/user1_hand.csv"))
    }

    @Test func aGyrolessTraceRunsAccelerometerOnlyLabelledSo() throws {
        let input = SceneMotionInput(steppedReplay: SteppedReplaySource(trace: try Self.gyrolessTrace()), startTime: 20)
        #expect(!input.manager.isGyroAvailable && !input.manager.isDeviceMotionAvailable)
        // Asked for fusion (the windowed default), a gyro-less state falls back to accelerometer-only.
        var state = TeapotState(mode: .fusion, fusionAvailable: input.manager.isGyroAvailable)
        #expect(state.mode == .accel && state.usesAccelerometerOnly)
        state.configure(input.manager)
        try input.start()
        defer { input.stop() }
        #expect(input.manager.deviceMotionEstimationInUse == .accelerometer)
        let motion = try #require(input.pull())
        state.update(received: motion, now: input.now(), dt: 1.0 / 60)
        #expect(state.attitude.yaw == 0, "gravity alone cannot see yaw")
        let facts = TeapotHUD.Facts(sourceName: input.sourceInfo.name, sampleRate: nil, connection: .running,
                                    frameTime: 1.0 / 60, vsync: false)
        #expect(TeapotHUD.statusLines(state, facts).first == "mode   accelerometer only (no gyro)")

        // Key 1 (fusion) is refused with the reason; translation runs on the high-passed accelerometer.
        state.apply(.setMode(.fusion))
        #expect(state.mode == .accel)
        #expect(TeapotHUD.statusLines(state, facts).contains("! \(TeapotMode.fusionNeedsGyro)"))
        state.apply(.setMode(.translation))
        #expect(state.modeTitle == "translation (high-passed accelerometer, no gyro)" && state.usesAccelerometerOnly)
    }

    @Test func withAGyroTheModesReadAsBefore() {
        let state = TeapotState(mode: .fusion)
        #expect(state.modeTitle == "device motion (fusion)" && !state.usesAccelerometerOnly)
    }
}
