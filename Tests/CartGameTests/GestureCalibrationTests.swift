import Foundation
import Motion
import Testing
import TestSupport
@testable import CartGame

/// The calibration on a real still start and a real tip.
@Suite struct GestureCalibrationTests {
    @Test func calibrationOnARealStillAndTip() throws {
        // x-io's still start (5–7 s) then its first tip toward the user (14.5–17.7 s), spliced.
        let samples = try Recordings.xio().samples
        var estimator = DeviceMotionEstimatorKind.fusion.make()
        var calibration = GestureCalibration(base: .standard)
        for sample in samples where sample.timestamp < 17.7 {
            guard let motion = estimator.update(sample) else { continue }
            if (5..<7).contains(motion.timestamp) { calibration.push(motion) }
            if motion.timestamp >= 14.5 {
                var shifted = motion
                shifted.timestamp -= 7.5
                calibration.push(shifted)
            }
        }
        guard case .done(let settings, let pose) = calibration.step else {
            Issue.record("calibration not done: \(calibration.step)"); return
        }
        #expect(pose == .gamepad)
        // Half the measured tip (≈2.6 rad/s): about 1.3 rad/s, well above the still noise.
        #expect((1.0...1.6).contains(settings.jump.threshold), "\(settings.jump.threshold)")
        #expect((-0.5 ... -0.2).contains(settings.duck.threshold), "\(settings.duck.threshold)")
    }
}
