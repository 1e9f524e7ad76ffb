import Foundation
import Testing
@testable import Motion
@testable import MotionEvaluation

/// BROAD at device rates: a steady rotation about z sampled at BROAD's 285.7 Hz, resampled to
/// 100 Hz with ±20 % jitter, must keep its rate, its attitude at the new times and its flags.
@Suite("BROAD resampling")
struct EvaluationResamplingTests {
    static let omega = 1.3   // rad/s about z

    static func steadyRotation(seconds: Double) -> BroadTrial {
        let period = 7.0 / 2000
        let n = Int(seconds / period)
        var trial = BroadTrial(name: "steady", samples: [], groundTruth: [], movement: [])
        for i in 0..<n {
            let t = Double(i) * period
            trial.samples.append(MotionSample(timestamp: t, acceleration: Vector3(0, 0, -1),
                                              rotationRate: Vector3(0, 0, omega), magneticField: Vector3(0, 20, -40)))
            trial.groundTruth.append(Quaternion(axis: Vector3(0, 0, 1), angle: omega * t))
            trial.movement.append(t >= seconds / 2)
        }
        return trial
    }

    @Test func resampledTrialKeepsRateAttitudeAndFlags() {
        let source = Self.steadyRotation(seconds: 20)
        let pad = source.resampled(rate: 100, jitter: 0.2)
        #expect(abs(Double(pad.samples.count) - 20 * 100) < 40)
        #expect(pad.groundTruth.count == pad.samples.count && pad.movement.count == pad.samples.count)
        var shortest = Double.infinity, longest = 0.0
        for k in 1..<pad.samples.count {
            let dt = pad.samples[k].timestamp - pad.samples[k - 1].timestamp
            shortest = min(shortest, dt); longest = max(longest, dt)
            #expect(abs(pad.samples[k].rotationRate!.z - Self.omega) < 1e-12)
            let exact = Quaternion(axis: Vector3(0, 0, 1), angle: Self.omega * pad.samples[k].timestamp)
            let e = pad.groundTruth[k] * exact.conjugate
            #expect(2 * acos(min(1, abs(e.w))) < 1e-4)
            let t = pad.samples[k].timestamp
            if abs(t - 10) > 0.002 { #expect(pad.movement[k] == (t >= 10)) }   // the nearest source sample's flag
        }
        // Jittered: intervals spread over most of 8–12 ms and never outside it.
        #expect(shortest >= 0.008 - 1e-9 && shortest < 0.0085)
        #expect(longest <= 0.012 + 1e-9 && longest > 0.0115)
        // The same seed gives the same times (every filter sees the same trial).
        #expect(source.resampled(rate: 100, jitter: 0.2).samples.map(\.timestamp) == pad.samples.map(\.timestamp))
    }

    /// Occluded ground truth stays NaN (the metric skips it), never the identity.
    @Test func occludedGroundTruthStaysUnscored() {
        var source = Self.steadyRotation(seconds: 4)
        for i in 300..<320 { source.groundTruth[i] = Quaternion(w: .nan, x: .nan, y: .nan, z: .nan) }
        let pad = source.resampled(rate: 100, jitter: 0.2)
        let hole = pad.samples.indices.filter { (300 * 0.0035...319 * 0.0035).contains(pad.samples[$0].timestamp) }
        #expect(!hole.isEmpty)
        for k in hole { #expect(!pad.groundTruth[k].isFinite) }
        #expect(pad.groundTruth.filter(\.isFinite).count >= pad.samples.count - hole.count - 2)
    }

    /// At the trial's own rate the resampled trial is the trial (timestamps, readings).
    @Test func resamplingAtTheOwnRateKeepsTheReadings() {
        let source = Self.steadyRotation(seconds: 2)
        let same = source.resampled(rate: 2000.0 / 7, jitter: 0)
        #expect(abs(same.samples.count - source.samples.count) <= 1)
        for k in 1..<min(same.samples.count, source.samples.count) {
            #expect(abs(same.samples[k].timestamp - source.samples[k].timestamp) < 1e-9)
        }
    }

    @Test func refusesToUpsample() {
        let source = Self.steadyRotation(seconds: 2)
        #expect(source.resampled(rate: 1000, jitter: 0).samples.count == source.samples.count)
    }
}
