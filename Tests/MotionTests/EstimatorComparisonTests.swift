import Foundation
import Motion
import TestSupport
import Testing

/// Fusion against the accelerometer-only estimate on the same samples, on the bundled BROAD
/// excerpt (optical ground truth as the reference; CC BY 4.0) and the x-io recording (no reference).
@Suite struct EstimatorComparisonTests {
    static func trace(_ path: String) throws -> Trace {
        try Trace.load(contentsOf: TestData.assets.appendingPathComponent("traces/\(path)"))
    }

    @Test func againstGroundTruthFusionFollowsAndTheAccelerometerAloneDoesNot() throws {
        let trace = try Self.trace("broad/01_undisturbed_slow_rotation_A_26-61s.csv")
        var comparison = EstimatorComparison(cutoffFrequency: 2)
        var rest: [ComparisonFrame] = [], moving: [ComparisonFrame] = []
        for sample in trace.samples {
            guard let frame = comparison.update(sample), frame.referenceGravity != nil else { continue }
            if frame.timestamp > 2 && frame.timestamp < 7 { rest.append(frame) }
            if frame.timestamp > 10 { moving.append(frame) }
        }
        func rms(_ frames: [ComparisonFrame], _ error: (ComparisonFrame) -> Double?) -> Double {
            let e = frames.compactMap(error)
            return (e.map { $0 * $0 }.reduce(0, +) / Double(e.count)).squareRoot() * 180 / .pi
        }
        #expect(rest.count > 1000 && moving.count > 5000)
        // At rest both see gravity: they agree and are near the truth.
        #expect(rms(rest, \.fusionError) < 1.5 && rms(rest, \.accelerometerOnlyError) < 1.5)
        #expect(rest.map(\.separation).max()! * 180 / .pi < 1)
        // Turned by hand, fusion stays within a degree or two and the low-pass lags by tens of degrees.
        let fused = rms(moving, \.fusionError), lowPassed = rms(moving, \.accelerometerOnlyError)
        #expect(fused < 2, "\(fused)°")
        #expect(lowPassed > 10, "\(lowPassed)°")
    }

    @Test func withoutAReferenceOnlyTheSeparationIsKnownAndTheFlatSpinPullsTheTwoApart() throws {
        let trace = try Self.trace("xio/sensor_data.csv")
        var comparison = EstimatorComparison()
        var spin: [Double] = []
        for sample in trace.samples {
            guard let frame = comparison.update(sample) else { continue }
            #expect(frame.fusionError == nil && frame.accelerometerOnlyError == nil)
            // 66–70 s: the flat spin, whose centripetal 0.8 g the low-pass takes for gravity.
            if frame.timestamp - trace.samples[0].timestamp > 66 && frame.timestamp - trace.samples[0].timestamp < 70 {
                spin.append(frame.separation * 180 / .pi)
            }
        }
        #expect(spin.max()! > 25, "\(spin.max()!)°")
    }

    @Test func theCutoffCanBeChangedAndNonsenseIsIgnored() {
        var comparison = EstimatorComparison(cutoffFrequency: 2)
        comparison.cutoffFrequency = 5
        #expect(comparison.cutoffFrequency == 5)
        comparison.cutoffFrequency = .nan
        comparison.cutoffFrequency = -1
        #expect(comparison.cutoffFrequency == 5)
    }
}
