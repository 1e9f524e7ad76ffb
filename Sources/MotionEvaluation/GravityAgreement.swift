import Foundation
import Motion

/// How closely an estimator's gravity follows the recording device's own (Core Motion's) gravity:
/// the angle between the two, per sample, summarised after the start-up.
public struct GravityAgreement: Hashable, Sendable {
    /// Median angle, degrees.
    public var median: Double
    /// 95th percentile angle, degrees.
    public var percentile95: Double
    /// Samples compared.
    public var count: Int

    /// Runs `estimator` over `samples` and compares its gravity with `sample.reference.gravity`
    /// from `skip` seconds after the first sample on (the README's peer table skips 2 s).
    public static func evaluate(_ samples: [MotionSample], estimator: inout any DeviceMotionEstimator,
                                skip: Double = 2) -> GravityAgreement {
        guard let start = samples.first?.timestamp else { return GravityAgreement(median: .nan, percentile95: .nan, count: 0) }
        var angles = [Double]()
        angles.reserveCapacity(samples.count)
        for sample in samples {
            guard let motion = estimator.update(sample) else { continue }
            guard sample.timestamp - start >= skip, let reference = sample.reference?.gravity, reference.isFinite else { continue }
            angles.append(motion.gravity.angle(to: reference) * 180 / .pi)
        }
        angles.sort()
        return GravityAgreement(median: percentile(angles, 0.5), percentile95: percentile(angles, 0.95), count: angles.count)
    }

    /// Linear interpolation between order statistics (numpy's default).
    static func percentile(_ sorted: [Double], _ p: Double) -> Double {
        guard !sorted.isEmpty else { return .nan }
        let position = p * Double(sorted.count - 1)
        let lower = Int(position.rounded(.down))
        let upper = min(lower + 1, sorted.count - 1)
        return sorted[lower] + (sorted[upper] - sorted[lower]) * (position - Double(lower))
    }
}
