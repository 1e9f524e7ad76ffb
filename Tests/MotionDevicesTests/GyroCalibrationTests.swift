import Foundation
import Motion
@testable import MotionDevices
import Testing
import TestSupport

@Suite("gyro calibration")
struct GyroCalibrationTests {
    static let bias = Vector3(0.02, -0.015, 0.01)

    /// A pad at 250 Hz with a constant gyro bias and a little deterministic noise.
    static func samples(seconds: Double, start: Double = 0, rotation: (Double) -> Vector3 = { _ in .zero }) -> [MotionSample] {
        (0..<Int(seconds * 250)).map { i in
            let t = start + Double(i) / 250
            let noise = Vector3(sin(Double(i) * 1.7), cos(Double(i) * 2.3), sin(Double(i) * 0.9)) * 0.002
            return MotionSample(timestamp: t, acceleration: Vector3(0, 0, -1) + noise * 0.5,
                                rotationRate: bias + rotation(t) + noise)
        }
    }

    @Test("automatic: a still pad's bias is learned after the settle time")
    func automatic() {
        var c = GyroCalibration()
        var last: MotionSample?
        for s in Self.samples(seconds: 6) { last = c.correct(s) }
        #expect(c.isStill)
        #expect((c.bias - Self.bias).length < 0.001)
        #expect(last!.rotationRate!.length < 0.005)
    }

    @Test("automatic: a turning pad is not still and its bias is left alone")
    func moving() {
        var c = GyroCalibration()
        for s in Self.samples(seconds: 6, rotation: { Vector3(0, 0, 2 * sin($0 * 3)) }) { _ = c.correct(s) }
        #expect(!c.isStill)
        #expect(c.bias == .zero)
    }

    @Test("automatic: a steady turn about gravity (a turntable at 30 °/s) is not taken for a bias")
    func steadyTurn() {
        var c = GyroCalibration()
        for s in Self.samples(seconds: 6, rotation: { _ in Vector3(0, 0, 30 * .pi / 180) }) { _ = c.correct(s) }
        #expect(!c.isStill)
        #expect(c.bias == .zero)
    }

    @Test("before the settle time nothing is corrected (a brief pause in play is not a calibration)")
    func settle() {
        var c = GyroCalibration()
        for s in Self.samples(seconds: 1.5) { _ = c.correct(s) }
        #expect(c.bias == .zero)
    }

    @Test("manual calibrate-now averages the next second, even while moving slowly")
    func manual() {
        var c = GyroCalibration(mode: .manual)
        c.calibrateNow()
        for s in Self.samples(seconds: 0.5) { _ = c.correct(s) }
        guard case .manual(let progress) = c.state else { Issue.record("not calibrating"); return }
        #expect(progress > 0.45 && progress < 0.55)
        for s in Self.samples(seconds: 0.6, start: 0.5) { _ = c.correct(s) }
        #expect(c.state == .idle)
        #expect((c.bias - Self.bias).length < 0.001)
    }

    @Test("continuous: running average until paused; NaN samples pass through untouched")
    func continuous() {
        var c = GyroCalibration(mode: .off)
        c.startContinuous()
        for s in Self.samples(seconds: 1) { _ = c.correct(s) }
        #expect(c.state == .continuous(samples: 250))
        #expect((c.bias - Self.bias).length < 0.001)
        c.pauseContinuous()
        let frozen = c.bias
        for s in Self.samples(seconds: 1, start: 1, rotation: { _ in Vector3(1, 1, 1) }) { _ = c.correct(s) }
        #expect(c.bias == frozen)
        let bad = MotionSample(timestamp: 3, acceleration: Vector3(0, 0, -1), rotationRate: Vector3(.nan, 0, 0))
        #expect(c.correct(bad).rotationRate!.x.isNaN)
        #expect(c.bias == frozen)
    }

    @Test("the source wrapper applies the calibration to a real source's samples")
    func wrapper() throws {
        var options = HIDRecordingSource.Options()
        options.paced = false
        let replay = try HIDRecordingSource(path: HIDRecordingTests.path, options: options)
        var calibration = GyroCalibration(mode: .off)
        calibration.startContinuous()
        let source = GyroCalibratedSource(wrapping: replay, calibration: calibration)
        let events = try collect(source) { $0 == .ended }
        let samples = events.samples
        #expect(samples.count == 8)
        // The continuous average of 8 still samples leaves only their spread.
        #expect(source.currentCalibration.bias.length > 0.01)
        #expect(samples.last!.rotationRate!.length < 0.003)
    }
}
