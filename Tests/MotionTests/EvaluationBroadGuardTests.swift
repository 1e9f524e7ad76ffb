import Foundation
import Testing
import TestSupport
@testable import Motion
@testable import MotionEvaluation

/// The accuracy regression guard on BROAD's ten trials (`../shared/data/broad`): the default
/// settings with BROAD's gyro delay (`BroadTrial.fusionSettings`) must hold the accuracy goals —
/// 9D total ≤ 2.40°, inclination ≤ 0.65°, 6D heading-corrected total ≤ 1.90° (VQF: 3.26 / 0.86 /
/// 2.78; measured 1.53 / 0.51 / 1.58) — and no trial's 9D total, inclination or 6D heading-corrected
/// total may be worse than VQF's published figures (the closest: 26's 9D at 0.81×, 32's 6D at 0.94×).
/// `bench accuracy` sets each trial against VQF run like for like.
/// Skips with a note when the data set is absent, fails under CI. Runs all 1.1 M filter steps (6D
/// and 9D) in the debug build.
@Suite("Evaluation on BROAD")
struct EvaluationBroadGuardTests {
    @Test(.needsSharedData("broad")) func broadAveragesMeetTheGoals() throws {
        let broad = try TestData.requireSharedData("broad")
        let started = Date()
        var six = [BroadTrialResult](), nine = [BroadTrialResult]()
        for url in try BroadTrial.files(in: broad) {
            let trial = try BroadTrial.load(contentsOf: url)
            var estimator6: any DeviceMotionEstimator = AHRS(frame: .xArbitraryZVertical, settings: BroadTrial.fusionSettings)
            var estimator9: any DeviceMotionEstimator = AHRS(frame: .xMagneticNorthZVertical, settings: BroadTrial.fusionSettings)
            six.append(BroadEvaluation.evaluate(trial, estimator: &estimator6))
            nine.append(BroadEvaluation.evaluate(trial, estimator: &estimator9))
        }
        #expect(six.count == 10)
        let m6 = BroadEvaluation.mean(six), m9 = BroadEvaluation.mean(nine)
        print(String(format: "BROAD: 9D total %.3f°, inclination %.3f°, 6D heading-corrected total %.3f° (%.1f s)",
                     m9.total, m6.inclination, m6.totalHeadingCorrected, Date().timeIntervalSince(started)))
        #expect(m9.total <= 2.40)
        #expect(m6.inclination <= 0.65)
        #expect(m6.totalHeadingCorrected <= 1.90)
        for (r6, r9) in zip(six, nine) {
            let vqf = try #require(BroadPeers.vqfPerTrial[r6.trial])
            #expect(r9.errors.total <= vqf.total9D, "\(r9.trial): 9D total \(r9.errors.total)° vs VQF \(vqf.total9D)°")
            #expect(r6.errors.inclination <= vqf.inclination, "\(r6.trial): inclination \(r6.errors.inclination)°")
            #expect(r6.errors.totalHeadingCorrected <= vqf.totalHeadingCorrected6D, "\(r6.trial): 6D \(r6.errors.totalHeadingCorrected)°")
        }
    }
}
