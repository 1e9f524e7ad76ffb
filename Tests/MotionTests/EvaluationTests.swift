import Foundation
import Testing
import TestSupport
@testable import Motion
@testable import MotionEvaluation

/// BROAD's metric, the CSV reader behind it, and the accuracy guard on BROAD's ten trials.
@Suite("Evaluation")
struct EvaluationTests {
    /// Real attitudes to perturb: the fused x-io recording (every 10th sample).
    static func realAttitudes() throws -> [Quaternion] {
        var ahrs = AHRS(frame: .xMagneticNorthZVertical)
        let samples = try TraceTestFiles.loaded(TraceTestFiles.xio).samples
        return samples.enumerated().compactMap { i, s in
            let q = ahrs.update(s)?.attitude.quaternion
            return i % 10 == 0 ? q : nil
        }
    }

    @Test func aHeadingOffsetIsHeadingErrorOnly() throws {
        let truth = try Self.realAttitudes()
        let offset = Quaternion(axis: Vector3(0, 0, 1), angle: 10 * .pi / 180)
        let e = BroadMetric.errors(estimates: truth.map { offset * $0 }, groundTruth: truth,
                                   movement: Array(repeating: true, count: truth.count))
        #expect(abs(e.total - 10) < 1e-6 && abs(e.heading - 10) < 1e-6)
        #expect(e.inclination < 1e-6)
        #expect(e.totalHeadingCorrected < 1e-6 && abs(e.headingOffset - 10) < 1e-6)
    }

    @Test func aTiltIsInclinationError() throws {
        let truth = try Self.realAttitudes()
        let tilt = Quaternion(axis: Vector3(1, 0, 0), angle: 3 * .pi / 180)
        let e = BroadMetric.errors(estimates: truth.map { tilt * $0 }, groundTruth: truth,
                                   movement: Array(repeating: true, count: truth.count))
        #expect(abs(e.inclination - 3) < 1e-6 && abs(e.total - 3) < 1e-6)
        #expect(e.heading < 1e-6)
    }

    @Test func onlyMovingSamplesWithGroundTruthCount() throws {
        var truth = try Self.realAttitudes()
        var estimates = truth
        let n = truth.count
        let big = Quaternion(axis: Vector3(0, 1, 0), angle: 1)
        estimates[0] = big * truth[0]                                 // not moving: ignored
        truth[1] = Quaternion(w: .nan, x: .nan, y: .nan, z: .nan)     // occluded: ignored
        estimates[1] = big * estimates[1]
        let movement = (0..<n).map { $0 != 0 }
        let e = BroadMetric.errors(estimates: estimates, groundTruth: truth, movement: movement)
        #expect(e.total < 1e-6)
    }

    @Test func numericTableReadsEmptyCellsAsNaNAndNamesTheBadLine() throws {
        let table = try NumericTable.parse(Data("a,b\n1,\n2.5,-3e2\n".utf8))
        #expect(table.names == ["a", "b"])
        #expect(table.column("a") == [1, 2.5])
        #expect(table.column("b")![0].isNaN && table.column("b")![1] == -300)
        #expect(throws: NumericTable.Error.malformed(path: "x.csv", line: 3, reason: "column 2 is not a number")) {
            try NumericTable.parse(Data("a,b\n1,2\n3,x\n".utf8), path: "x.csv")
        }
        #expect(throws: NumericTable.Error.malformed(path: "x.csv", line: 2, reason: "1 columns, header has 2")) {
            try NumericTable.parse(Data("a,b\n1\n".utf8), path: "x.csv")
        }
    }

    @Test func percentilesInterpolateAsNumPy() {
        // numpy.percentile([1, 2, 3, 4, 10], [50, 95]) = [3.0, 8.8]
        #expect(GravityAgreement.percentile([1, 2, 3, 4, 10], 0.5) == 3)
        #expect(abs(GravityAgreement.percentile([1, 2, 3, 4, 10], 0.95) - 8.8) < 1e-12)
    }
}
