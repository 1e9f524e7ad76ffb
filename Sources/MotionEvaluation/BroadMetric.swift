import Foundation
import Motion

/// Orientation errors of one trial, RMS in degrees.
public struct OrientationErrors: Hashable, Sendable {
    /// Total rotation error, for estimates in BROAD's earth frame (9D).
    public var total: Double
    public var heading: Double
    /// Gravity-direction error (6D and 9D alike).
    public var inclination: Double
    /// Total error after removing one constant heading offset (the 6D figure of merit).
    public var totalHeadingCorrected: Double
    public var headingCorrected: Double
    /// The removed offset, degrees.
    public var headingOffset: Double
}

/// BROAD's error metric (Laidig et al. 2021, `calculateRMSE` in dlaidig/broad's broad_utils.py),
/// as `../shared/data/broad/eval.py` computes it: q_err = q_est ⊗ conj(q_gt) in the earth frame;
/// total = 2·acos|w|, heading = 2·atan|z/w|, inclination = 2·acos√(w² + z²); the heading-corrected
/// total removes the circular mean of the heading error 2·atan2(z, w). RMS over samples with
/// `movement` set and finite ground truth.
public enum BroadMetric {
    public static func errors(estimates: [Quaternion], groundTruth: [Quaternion], movement: [Bool]) -> OrientationErrors {
        precondition(estimates.count == groundTruth.count && movement.count == groundTruth.count)
        var errors = [Quaternion]()
        errors.reserveCapacity(estimates.count)
        var sinSum = 0.0, cosSum = 0.0
        for i in estimates.indices where movement[i] && groundTruth[i].isFinite {
            let e = (estimates[i].normalized * groundTruth[i].normalized.conjugate).normalized
            guard e.isFinite else { continue }
            errors.append(e)
            let psi = 2 * atan2(e.z, e.w)
            sinSum += sin(psi)
            cosSum += cos(psi)
        }
        let offset = atan2(sinSum, cosSum)
        let undo = Quaternion(w: cos(-offset / 2), x: 0, y: 0, z: sin(-offset / 2))
        var total = 0.0, heading = 0.0, inclination = 0.0, totalHC = 0.0, headingHC = 0.0
        for e in errors {
            total += square(2 * acos(min(abs(e.w), 1)))
            heading += square(2 * atan(abs(e.z / e.w)))
            inclination += square(2 * acos(min((e.w * e.w + e.z * e.z).squareRoot(), 1)))
            let c = (undo * e).normalized
            totalHC += square(2 * acos(min(abs(c.w), 1)))
            headingHC += square(2 * atan(abs(c.z / c.w)))
        }
        let n = Double(max(errors.count, 1))
        func rmsDegrees(_ sum: Double) -> Double { (sum / n).squareRoot() * 180 / .pi }
        return OrientationErrors(total: rmsDegrees(total), heading: rmsDegrees(heading),
                                 inclination: rmsDegrees(inclination),
                                 totalHeadingCorrected: rmsDegrees(totalHC), headingCorrected: rmsDegrees(headingHC),
                                 headingOffset: offset * 180 / .pi)
    }
}

private func square(_ x: Double) -> Double { x * x }
