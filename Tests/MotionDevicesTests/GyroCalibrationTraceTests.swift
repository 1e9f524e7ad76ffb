import Foundation
import Motion
@testable import MotionDevices
import Testing
import TestSupport

/// The calibration modes on real motion: x-io's Fusion recording (100 Hz; flat and still for the
/// first 12 s, spinning about z at up to 200 °/s over 65–71 s) with a known bias added to its gyro.
/// The recording's own rest bias is under 0.05 °/s per axis, inside every tolerance below.
@Suite("gyro calibration on the x-io trace")
struct GyroCalibrationTraceTests {
    /// °/s per axis, about what a DualSense or Switch Pro pad reads at rest out of the box.
    static let addedBias = Vector3(1.5, -2.0, 0.8)
    static let degrees = 180 / Double.pi

    /// The trace's samples up to `end` seconds, with `bias(t)` (°/s) added to the gyro.
    static func samples(upTo end: Double, bias: (Double) -> Vector3 = { _ in addedBias }) throws -> [MotionSample] {
        try Recordings.xio().samples.prefix { $0.timestamp <= end }.map { sample in
            var s = sample
            s.rotationRate = s.rotationRate! + bias(s.timestamp) / degrees
            return s
        }
    }

    /// Largest per-axis magnitude of `v`, in °/s.
    static func worstAxis(_ v: Vector3) -> Double { max(abs(v.x), abs(v.y), abs(v.z)) * degrees }

    /// Mean corrected gyro over the samples in `range`, °/s per axis at worst.
    static func residual(_ corrected: [MotionSample], in range: ClosedRange<Double>) -> Double {
        let inside = corrected.filter { range.contains($0.timestamp) }
        let mean = inside.reduce(Vector3.zero) { $0 + $1.rotationRate! } / Double(inside.count)
        return worstAxis(mean)
    }

    @Test("auto: an added 2 °/s bias is removed at rest to under 0.05 °/s, settled within 5 s")
    func automaticAtRest() throws {
        var c = GyroCalibration()
        var settledAt: Double?
        var corrected: [MotionSample] = []
        for s in try Self.samples(upTo: 12) {
            corrected.append(c.correct(s))
            if s.timestamp < 2 { #expect(c.status == .settling) }
            if settledAt == nil, c.status == .settled { settledAt = s.timestamp }
        }
        // 0.5 s window + 2 s settle time + three 0.5 s half-times = 4 s.
        #expect(settledAt.map { $0 < 5 } == true)
        #expect(Self.worstAxis(c.bias - Self.addedBias / Self.degrees) < 0.05)
        #expect(Self.residual(corrected, in: 10...12) < 0.05)
    }

    @Test("auto: the 200 °/s spin is not taken for rest; the bias holds through it")
    func automaticIgnoresMotion() throws {
        var c = GyroCalibration()
        var before: Vector3?, after: Vector3?
        for s in try Self.samples(upTo: 135) {
            _ = c.correct(s)
            if before == nil, s.timestamp >= 65 { before = c.bias }
            if after == nil, s.timestamp >= 72 { after = c.bias }
        }
        #expect(Self.worstAxis(after! - before!) < 0.01)
        #expect(Self.worstAxis(c.bias - Self.addedBias / Self.degrees) < 0.05)
        #expect(c.status == .settled)
    }

    @Test("continuous: follows a 0.1 °/s-per-second drift with a lag under 0.35 °/s (a plain mean lags 0.6)")
    func continuousTracksDrift() throws {
        let rate = 0.1
        let drift = { (t: Double) in Self.addedBias + Vector3(1, 1, 1) * (rate * t) }
        var c = GyroCalibration(mode: .continuous)
        var corrected: [MotionSample] = []
        for s in try Self.samples(upTo: 12, bias: drift) { corrected.append(c.correct(s)) }
        // An exponential average lags a ramp by rate × half-time / ln 2 = 0.29 °/s here.
        let lag = Self.worstAxis(drift(12) / Self.degrees - c.bias)
        #expect(lag < 0.35)
        #expect(lag > 0.2)
        #expect(c.status == .settled)
        #expect(Self.residual(corrected, in: 11...12) < 0.35)
    }

    @Test("manual: nothing is learned until the request; then a second's mean, to under 0.05 °/s")
    func manualOnlyOnRequest() throws {
        var c = GyroCalibration(mode: .manual)
        var corrected: [MotionSample] = []
        for s in try Self.samples(upTo: 12) {
            if s.timestamp < 5 {
                corrected.append(c.correct(s))
                #expect(c.bias == .zero)
                #expect(c.status == .off)
                continue
            }
            if case .idle = c.state, c.status == .off { c.calibrateNow() }
            corrected.append(c.correct(s))
            if s.timestamp < 5.9 { #expect(c.status == .settling) }
        }
        #expect(c.status == .settled)
        #expect(Self.residual(corrected, in: 0...4.9) > 1)
        #expect(Self.residual(corrected, in: 6.5...12) < 0.05)
    }

    @Test("off: never corrects, not even on request; samples pass through unchanged")
    func offNever() throws {
        var c = GyroCalibration(mode: .off)
        for s in try Self.samples(upTo: 12) {
            if abs(s.timestamp - 5) < 0.005 { c.calibrateNow() }
            #expect(c.correct(s) == s)
        }
        #expect(c.bias == .zero)
        #expect(c.status == .off)
    }

    @Test("switching to off drops the bias learned so far")
    func switchingOff() throws {
        var c = GyroCalibration()
        for s in try Self.samples(upTo: 6) { _ = c.correct(s) }
        #expect(c.status == .settled)
        c.mode = .off
        #expect(c.bias == .zero)
        #expect(c.status == .off)
    }
}
