import Foundation
import Motion

/// One estimator's errors on one BROAD trial.
public struct BroadTrialResult: Hashable, Sendable {
    public var trial: String
    public var errors: OrientationErrors
    public var sampleCount: Int
}

/// Runs estimators over BROAD's trials and scores them with `BroadMetric`; what
/// `tiltkit bench accuracy` prints and the regression test holds.
///
///     let results = try BroadEvaluation.run(directory: broad) { AHRS(frame: .xMagneticNorthZVertical) }
///     print(BroadEvaluation.mean(results).total)
///
/// Frames: BROAD's earth frame is x east, y magnetic north, z up; Core Motion's
/// `.xMagneticNorthZVertical` has X north, Y west, Z up. A device → Core Motion attitude q is
/// brought into BROAD's frame by a rotation of +90° about the vertical: q_ENU = Rz(90°) ⊗ q.
/// Arbitrary-heading frames are scored as they are (use the heading-corrected total for them).
public enum BroadEvaluation {
    /// Loads every trial in `directory` and evaluates a fresh estimator on each.
    public static func run(directory: URL, estimatorFactory: () -> any DeviceMotionEstimator) throws -> [BroadTrialResult] {
        try BroadTrial.files(in: directory).map { url in
            var estimator = estimatorFactory()
            return evaluate(try BroadTrial.load(contentsOf: url), estimator: &estimator)
        }
    }

    /// Feeds every sample of `trial` to `estimator` and scores its attitude.
    /// A rejected sample keeps the previous estimate (BROAD scores every sample).
    public static func evaluate(_ trial: BroadTrial, estimator: inout any DeviceMotionEstimator) -> BroadTrialResult {
        let toEarth = earthRotation(from: estimator.referenceFrame)
        var estimates = [Quaternion]()
        estimates.reserveCapacity(trial.samples.count)
        var last = Quaternion.identity
        for sample in trial.samples {
            if let motion = estimator.update(sample) { last = toEarth * motion.attitude.quaternion }
            estimates.append(last)
        }
        return BroadTrialResult(trial: trial.name,
                                errors: BroadMetric.errors(estimates: estimates, groundTruth: trial.groundTruth,
                                                           movement: trial.movement),
                                sampleCount: trial.samples.count)
    }

    /// The rotation taking a `frame` attitude into BROAD's east-north-up frame (see the type's note).
    public static func earthRotation(from frame: AttitudeReferenceFrame) -> Quaternion {
        frame == .xMagneticNorthZVertical ? Quaternion(axis: Vector3(0, 0, 1), angle: .pi / 2) : .identity
    }

    /// BROAD's way of summarising: the mean over trials of each per-trial RMS.
    public static func mean(_ results: [BroadTrialResult]) -> OrientationErrors {
        let n = Double(max(results.count, 1))
        func average(_ f: (OrientationErrors) -> Double) -> Double { results.map { f($0.errors) }.reduce(0, +) / n }
        return OrientationErrors(total: average(\.total), heading: average(\.heading), inclination: average(\.inclination),
                                 totalHeadingCorrected: average(\.totalHeadingCorrected),
                                 headingCorrected: average(\.headingCorrected), headingOffset: average(\.headingOffset))
    }
}
