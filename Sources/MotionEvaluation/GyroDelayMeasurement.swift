import Foundation
import Motion

/// How late a recording's gyro readings are against its reference attitude (`AHRSSettings.gyroDelay`):
/// the shift at which the readings best match the reference's own rotation rate.
///
///     let delay = GyroDelayMeasurement.delay(of: trial)   // BROAD: ≈ 0.0021 s
///
/// The reference's rate over each sample period (t[k−1], t[k]] is 2·vec(q[k−1]⁻¹ ⊗ q[k]) / dt in the
/// sensor frame; a gyro that takes each reading as the mean over the period before it matches that
/// at shift 0. The delay is the shift s (in samples, linearly interpolated) at which gyro[k] best
/// matches the reference's rate at k − s, least squares over the moving samples with a finite
/// reference, refined by a parabola through the best grid point and its neighbours; times the period.
public enum GyroDelayMeasurement {
    /// The delay in seconds (positive: the gyro is late), nil without enough moving reference.
    public static func delay(of trial: BroadTrial, maximumShift: Int = 3) -> Double? {
        let n = trial.samples.count
        guard n > 2 * maximumShift + 2 else { return nil }
        let period = trial.samplePeriod
        // reference rate over (t[k−1], t[k]], NaN where either end is occluded
        var reference = [Vector3](repeating: Vector3(.nan, .nan, .nan), count: n)
        for k in 1..<n {
            let a = trial.groundTruth[k - 1], b = trial.groundTruth[k]
            guard a.isFinite, b.isFinite else { continue }
            var d = a.conjugate * b
            if d.w < 0 { d = Quaternion(w: -d.w, x: -d.x, y: -d.y, z: -d.z) }
            let dt = trial.samples[k].timestamp - trial.samples[k - 1].timestamp
            guard dt > 0 else { continue }
            reference[k] = Vector3(d.x, d.y, d.z) * (2 / dt)
        }
        let steps = 10  // grid: a tenth of a sample
        var residuals: [(shift: Double, value: Double)] = []
        for i in (-maximumShift * steps)...(maximumShift * steps) {
            let shift = Double(i) / Double(steps)
            var sum = 0.0, count = 0
            for k in (maximumShift + 1)..<(n - maximumShift - 1) where trial.movement[k] {
                guard let gyro = trial.samples[k].rotationRate else { continue }
                let position = Double(k) - shift
                let low = Int(position.rounded(.down)), f = position - Double(low)
                let r = reference[low] * (1 - f) + reference[low + 1] * f
                guard r.isFinite else { continue }
                sum += (gyro - r).lengthSquared
                count += 1
            }
            guard count > 0 else { return nil }
            residuals.append((shift, sum / Double(count)))
        }
        guard let best = residuals.indices.min(by: { residuals[$0].value < residuals[$1].value }) else { return nil }
        var shift = residuals[best].shift
        if best > 0 && best < residuals.count - 1 {
            let (a, b, c) = (residuals[best - 1].value, residuals[best].value, residuals[best + 1].value)
            let curvature = a - 2 * b + c
            if curvature > 0 { shift += 0.5 * (a - c) / curvature / Double(steps) }
        }
        return shift * period
    }

    /// `estimates` (sensor → earth, one per sample) turned on by each sample's gyro reading × `delay`:
    /// what `AHRSSettings.gyroDelay` does to Tiltkit's output, for a peer's (the raw reading, since a
    /// peer's bias estimate is not exported; a bias is far below the rates where this matters).
    public static func advanced(_ estimates: [Quaternion], samples: [MotionSample], delay: Double) -> [Quaternion] {
        zip(estimates, samples).map { q, sample in
            guard let rate = sample.rotationRate, rate.isFinite, q.isFinite else { return q }
            let angle = rate.length * delay
            guard angle > 0 else { return q }
            return q * Quaternion(axis: rate * (1 / rate.length), angle: angle)
        }
    }
}
