import Foundation
import Motion

/// A recording's gyro errors measured against its reference attitude: bias, per-axis scale error,
/// cross-axis sensitivity (the symmetric part of the axes' coupling, their non-orthogonality) and
/// the misalignment between the gyro's axes and the reference's (the antisymmetric part).
///
///     let fit = GyroErrorFit.fit(trial, from: 0, to: 90)   // BROAD 21: cross-axis yz ≈ −0.19 %
///
/// Strapdown, segment by segment: from the reference attitude at a segment's start the gyro
/// (shifted by its delay, `GyroDelayMeasurement`) is integrated for `segment` seconds, and the
/// rotation by which the result misses the reference at the end, in the earth frame, is set
/// against what each error would have turned the attitude by over the segment (∫ R·∂ω dt with the
/// reference's R). Least squares over all segments. Integrating suppresses the reference's own
/// noise, which swamps a sample-by-sample comparison of rates at the tenth-of-a-percent level.
/// Segments wholly inside `from..<to` (seconds from the first sample) with a reference throughout.
public struct GyroErrorFit: Hashable, Sendable {
    /// rad/s.
    public var bias: Vector3
    /// Per-axis scale error: the gyro reads (1 + scale) times the rate, as `AHRS`'s estimate.
    public var scale: Vector3
    /// Cross-axis sensitivity (xy, xz, yz): axis x also reads xy × the rate about y, and y reads xy × x's.
    public var crossAxis: Vector3
    /// Small rotation (rad) between the gyro's axes and the reference's: the antisymmetric part.
    public var misalignment: Vector3
    /// How many segments the fit used.
    public var segments: Int

    /// Regressors per segment: bias 3, scale 3, cross-axis 3, misalignment 3.
    static let parameterCount = 12

    public static func fit(_ trial: BroadTrial, delay: Double = BroadTrial.gyroDelay, from: Double = 0,
                           to: Double = .infinity, segment: Double = 1) -> GyroErrorFit? {
        let n = trial.samples.count
        guard n > 3 else { return nil }
        let m = parameterCount
        // per segment and earth axis: what each error would have turned the attitude by, and the miss
        var equations: [(regressors: [Double], miss: Double)] = []
        let start = trial.samples[0].timestamp
        // the reading that covers the reference's period k: delay/period samples later
        let shift = delay / trial.samplePeriod
        let whole = Int(shift.rounded(.down)), fraction = shift - Double(whole)
        var segments = 0
        var k = 0
        while k < n - whole - 2 {
            let t0 = trial.samples[k].timestamp - start
            guard t0 >= from, trial.groundTruth[k].isFinite else { k += 1; continue }
            var attitude = trial.groundTruth[k].normalized
            var regressors = [Vector3](repeating: .zero, count: m)
            var j = k + 1, complete = true
            while j < n - whole - 1 && trial.samples[j].timestamp - trial.samples[k].timestamp < segment {
                guard trial.samples[j].timestamp - start < to, trial.groundTruth[j].isFinite,
                      let a = trial.samples[j + whole].rotationRate, let b = trial.samples[j + whole + 1].rotationRate
                else { complete = false; break }
                let dt = trial.samples[j].timestamp - trial.samples[j - 1].timestamp
                let w = a * (1 - fraction) + b * fraction
                let r = trial.groundTruth[j].normalized
                let body = [Vector3(1, 0, 0), Vector3(0, 1, 0), Vector3(0, 0, 1),
                            Vector3(w.x, 0, 0), Vector3(0, w.y, 0), Vector3(0, 0, w.z),
                            Vector3(w.y, w.x, 0), Vector3(w.z, 0, w.x), Vector3(0, w.z, w.y),
                            Vector3(0, -w.z, w.y), Vector3(w.z, 0, -w.x), Vector3(-w.y, w.x, 0)]
                for i in 0..<m { regressors[i] += r.rotate(body[i]) * dt }
                attitude = attitude * Self.rotation(w * dt)
                j += 1
            }
            if complete && j > k + 5 {
                // earth-frame rotation from the reference to the integrated attitude
                let miss = Self.rotationVector(attitude * trial.groundTruth[j - 1].normalized.conjugate)
                equations.append((regressors.map(\.x), miss.x))
                equations.append((regressors.map(\.y), miss.y))
                equations.append((regressors.map(\.z), miss.z))
                segments += 1
            }
            k = max(j, k + 1)
        }
        guard segments >= m, let p = LeastSquares.solve(equations, unknowns: m, row: { equation, row in
            row = equation.regressors
            return equation.miss
        }) else { return nil }
        // the gyro reads ω + e; the integrated attitude is turned by +R·e: e's parameters as fitted
        return GyroErrorFit(bias: Vector3(p[0], p[1], p[2]), scale: Vector3(p[3], p[4], p[5]),
                            crossAxis: Vector3(p[6], p[7], p[8]), misalignment: Vector3(p[9], p[10], p[11]),
                            segments: segments)
    }

    /// The rotation by the rotation vector `v` (rad).
    static func rotation(_ v: Vector3) -> Quaternion {
        let angle = v.length
        return angle < 1e-12 ? Quaternion(w: 1, x: v.x / 2, y: v.y / 2, z: v.z / 2) : Quaternion(axis: v / angle, angle: angle)
    }

    /// The rotation vector (rad) of the unit quaternion `q`, the shorter way round.
    static func rotationVector(_ q: Quaternion) -> Vector3 {
        let p = q.w < 0 ? Quaternion(w: -q.w, x: -q.x, y: -q.y, z: -q.z) : q
        let v = Vector3(p.x, p.y, p.z), sine = v.length
        return sine < 1e-12 ? v * 2 : v * (2 * atan2(sine, p.w) / sine)
    }
}
