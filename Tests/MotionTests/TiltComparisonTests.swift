import Foundation
import Motion
import MotionEvaluation
import TestSupport
import Testing

/// `tiltkit compare`'s measurements on the bundled recordings: the BROAD excerpt against its
/// optical ground truth, and the x-io recording, which has no reference, against fusion.
@Suite struct TiltComparisonTests {
    static func samples(_ path: String) throws -> [MotionSample] {
        try Trace.load(contentsOf: TestData.assets.appendingPathComponent("traces/\(path)")).samples
    }

    @Test func againstGroundTruthTheCutoffTradesLagForJitterAndFusionBeatsEveryCutoff() throws {
        let report = TiltComparison.measure(try Self.samples("broad/01_undisturbed_slow_rotation_A_26-61s.csv"))
        #expect(report.reference == .recording && report.turnCount > 1000 && report.restCount > 500)
        let fusion = try #require(report.rows.first { $0.cutoff == nil })
        let accelerometerOnly = report.rows.filter { $0.cutoff != nil }
        #expect(accelerometerOnly.map(\.cutoff) == TiltComparison.standardCutoffs.map { Optional($0) })
        // A lower cut-off lags more and wobbles less at rest.
        for (low, high) in zip(accelerometerOnly, accelerometerOnly.dropFirst()) {
            #expect(low.lag > high.lag, "\(low.name) \(low.lag) s, \(high.name) \(high.lag) s")
            #expect(low.jitter < high.jitter, "\(low.name) \(low.jitter)°, \(high.name) \(high.jitter)°")
        }
        // Apple's RC = 1/fc: a 2 Hz low-pass has a 0.5 s time constant, seen as ~0.4 s on the turns.
        let twoHertz = try #require(accelerometerOnly.first { $0.cutoff == 2 })
        #expect(twoHertz.lag > 0.25 && twoHertz.lag < 0.6, "\(twoHertz.lag) s")
        #expect(fusion.lag < 0.02, "\(fusion.lag) s")
        #expect(fusion.errorRMS < 1, "\(fusion.errorRMS)°")
        #expect(accelerometerOnly.allSatisfy { $0.errorRMS > 3 * fusion.errorRMS })
        #expect(report.times.count == fusion.error.count)
    }

    @Test func withoutAReferenceFusionIsTheReferenceAndHasNoRowOfItsOwn() throws {
        let report = TiltComparison.measure(try Self.samples("xio/sensor_data.csv"), cutoffs: [1, 5])
        #expect(report.reference == .fusion)
        #expect(report.rows.map(\.name) == ["accel 1 Hz", "accel 5 Hz"])
        #expect(report.rows[0].lag > report.rows[1].lag && report.rows[0].jitter < report.rows[1].jitter)
    }

    @Test func nothingToMeasureGivesNaNNotACrash() {
        let report = TiltComparison.measure([])
        #expect(report.rows.allSatisfy { $0.errorRMS.isNaN && $0.lag.isNaN && $0.jitter.isNaN })
    }
}
