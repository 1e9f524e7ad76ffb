import Foundation
import Motion

/// BROAD at the rates real devices have: a trial resampled to a lower rate and, optionally, with
/// its sample times jittered (pads over Bluetooth deliver 4–8 ms apart around their nominal 5 ms).
///
///     let pad = trial.resampled(rate: 100, jitter: 0.2)
///
/// Each new sample k stands for the interval (t[k-1], t[k]]: gyro and accelerometer are their
/// time-weighted mean over it, each source reading standing for its own interval — a device's
/// own decimation filter, and the mean rate integrates to the interval's rotation exactly — the
/// magnetometer is the latest source reading
/// (BROAD's is held between updates anyway), and the ground truth is interpolated (nlerp) at t[k],
/// NaN when either neighbour is. Sample times are t[k] = t[k-1] + T·(1 + u), u uniform in
/// ±`jitter`, from a fixed seed so every run and every filter sees the same times; the timestamps
/// are the true times.
extension BroadTrial {
    /// The nominal sample period, seconds (BROAD: 3.5 ms).
    public var samplePeriod: Double {
        guard samples.count > 1 else { return 0 }
        return (samples[samples.count - 1].timestamp - samples[0].timestamp) / Double(samples.count - 1)
    }

    /// This trial at `rate` Hz (nil: its own rate) with sample intervals jittered by ±`jitter`
    /// (a fraction of the period). Rates above the trial's own are refused (nothing to average).
    public func resampled(rate: Double?, jitter: Double, seed: UInt64 = 0x5EED) -> BroadTrial {
        let sourcePeriod = samplePeriod
        let period = rate.map { 1 / $0 } ?? sourcePeriod
        guard samples.count > 1, period >= sourcePeriod * 0.999 else { return self }
        var random = SplitMix(state: seed)
        var out = BroadTrial(name: name, samples: [], groundTruth: [], movement: [])
        let start = samples[0].timestamp, end = samples[samples.count - 1].timestamp
        out.samples.reserveCapacity(Int((end - start) / period) + 1)
        var source = 1          // the source sample whose interval (t[i-1], t[i]] holds the cursor
        var t = start
        out.samples.append(samples[0]); out.groundTruth.append(groundTruth[0]); out.movement.append(movement[0])
        while true {
            let previous = t
            t += period * (1 + jitter * (2 * random.unit() - 1))
            guard t <= end else { break }
            // Time-weighted mean over (previous, t], each source reading standing for its own
            // interval: the integral of the rate (the rotation) is kept exactly.
            var gyro = Vector3(0, 0, 0), acceleration = Vector3(0, 0, 0)
            var cursor = previous
            while cursor < t {
                let segmentEnd = Swift.min(samples[source].timestamp, t)
                let weight = segmentEnd - cursor
                gyro = gyro + (samples[source].rotationRate ?? Vector3(0, 0, 0)) * weight
                acceleration = acceleration + samples[source].acceleration * weight
                cursor = segmentEnd
                if segmentEnd == samples[source].timestamp && source < samples.count - 1 { source += 1 }
            }
            let span = t - previous
            let latest = samples[source].timestamp <= t ? source : source - 1   // last source sample at or before t
            out.samples.append(MotionSample(timestamp: t, acceleration: acceleration * (1 / span),
                                            rotationRate: gyro * (1 / span),
                                            magneticField: samples[latest].magneticField))
            let next = Swift.min(latest + 1, samples.count - 1)
            let gap = samples[next].timestamp - samples[latest].timestamp
            let f = gap > 0 ? (t - samples[latest].timestamp) / gap : 0
            out.groundTruth.append(Self.nlerp(groundTruth[latest], groundTruth[next], f))
            out.movement.append(f < 0.5 ? movement[latest] : movement[next])
        }
        return out
    }

    /// Normalised linear interpolation along the shorter arc; NaN stays NaN.
    static func nlerp(_ a: Quaternion, _ b: Quaternion, _ f: Double) -> Quaternion {
        // `normalized` turns NaN into the identity, which the metric would score as truth.
        guard a.isFinite && b.isFinite else { return Quaternion(w: .nan, x: .nan, y: .nan, z: .nan) }
        let sign: Double = a.w * b.w + a.x * b.x + a.y * b.y + a.z * b.z < 0 ? -1 : 1
        return Quaternion(w: a.w * (1 - f) + sign * b.w * f, x: a.x * (1 - f) + sign * b.x * f,
                          y: a.y * (1 - f) + sign * b.y * f, z: a.z * (1 - f) + sign * b.z * f).normalized
    }
}

/// SplitMix64 (Steele, Lea, Flood 2014): repeatable jitter without a dependency on the game's copy.
private struct SplitMix {
    var state: UInt64

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// Uniform in [0, 1).
    mutating func unit() -> Double { Double(next() >> 11) * 0x1p-53 }
}
