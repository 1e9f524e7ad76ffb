import Foundation
import Motion

/// What fusion buys over the accelerometer alone, measured on one recording: for the
/// accelerometer-only estimate at each gravity cut-off and for fusion, the tilt (gravity
/// direction) error's RMS against a reference, its lag on the recording's turns and its jitter
/// at rest. The reference is the recording's own (Core Motion's output, or ground truth) where it
/// carries one, else Tiltkit's fusion (then fusion's own figures are not measured).
///
///     let report = TiltComparison.measure(trace.samples)
///     for row in report.rows { print(row.name, row.errorRMS, row.lag, row.jitter) }
public struct TiltComparison: Sendable {
    public enum Reference: String, Sendable { case recording, fusion }

    public struct Row: Sendable {
        /// "fusion" or "accel 2 Hz".
        public var name: String
        /// The accelerometer-only cut-off, Hz; nil for fusion.
        public var cutoff: Double?
        /// RMS of the angle between the estimate's gravity and the reference's, degrees.
        public var errorRMS: Double
        /// The shift that best aligns the estimate with the reference on the turns, seconds.
        public var lag: Double
        /// RMS wobble at rest: the angle between the estimate and its own 1 s centred mean, degrees.
        public var jitter: Double
        /// The error per sample, degrees (NaN where the reference is missing).
        public var error: [Double]
    }

    public var reference: Reference
    public var rows: [Row]
    /// Sample times from the first sample, s, for `Row.error`.
    public var times: [Double]
    /// Samples counted as turning and as resting.
    public var turnCount: Int
    public var restCount: Int

    /// The cut-offs `tiltkit compare` sweeps, Hz: Apple's teapot used 5; the README's range.
    public static let standardCutoffs = [0.5, 1, 2, 5, 10]
    /// The reference turns faster than this: a turn, degrees per second.
    public static let turnRate = 30.0
    /// Slower than this over a second: at rest, degrees per second.
    public static let restRate = 3.0
    /// Start-up skipped before anything is measured, seconds.
    public static let skip = 2.0

    public static func measure(_ samples: [MotionSample], cutoffs: [Double] = standardCutoffs) -> TiltComparison {
        let t0 = samples.first?.timestamp ?? 0
        var fusion = AHRS(frame: .xArbitraryZVertical)
        var accelerometerOnly = cutoffs.map { AccelerometerAttitudeEstimator(cutoffFrequency: $0) }
        var times: [Double] = [], fused: [Vector3] = [], lowPassed: [[Vector3]] = Array(repeating: [], count: cutoffs.count)
        var recorded: [Vector3?] = []
        var motion = DeviceMotion()
        for sample in samples {
            guard fusion.update(sample, into: &motion) else { continue }
            let g = motion.gravity
            var others: [Vector3] = []
            for i in accelerometerOnly.indices {
                guard accelerometerOnly[i].update(sample, into: &motion) else { break }
                others.append(motion.gravity)
            }
            guard others.count == cutoffs.count else { continue }
            times.append(sample.timestamp - t0)
            fused.append(g)
            for i in others.indices { lowPassed[i].append(others[i]) }
            recorded.append(EstimatorComparison.referenceGravity(sample))
        }
        let hasRecording = recorded.contains { $0 != nil }
        let reference = hasRecording ? recorded : fused.map { Optional($0) }
        let period = medianPeriod(times)
        let turns = indices(of: reference, times: times, period: period, window: 0.05) { $0 > turnRate }
        let rests = resting(reference, times: times, period: period)
        func row(_ name: String, _ cutoff: Double?, _ estimate: [Vector3]) -> Row {
            let error = zip(estimate, reference).map { e, r in r.map { e.angle(to: $0) * 180 / .pi } ?? .nan }
            let measured = zip(times, error).filter { $0.0 >= skip && $0.1.isFinite }.map(\.1)
            return Row(name: name, cutoff: cutoff, errorRMS: rms(measured),
                       lag: lag(estimate, reference, turns: turns, period: period),
                       jitter: jitter(estimate, rests: rests, period: period), error: error)
        }
        var rows = [Row]()
        if hasRecording { rows.append(row("fusion", nil, fused)) }
        for (i, cutoff) in cutoffs.enumerated() {
            rows.append(row(String(format: "accel %g Hz", cutoff), cutoff, lowPassed[i]))
        }
        return TiltComparison(reference: hasRecording ? .recording : .fusion, rows: rows, times: times,
                              turnCount: turns.count, restCount: rests.count)
    }

    static func medianPeriod(_ times: [Double]) -> Double {
        let periods = zip(times, times.dropFirst()).map { $1 - $0 }.filter { $0 > 0 }.sorted()
        return periods.isEmpty ? 0.01 : periods[periods.count / 2]
    }

    /// Samples (after the start-up) where the reference's angular rate over ±`window`/2 passes `test`.
    static func indices(of reference: [Vector3?], times: [Double], period: Double, window: Double,
                        _ test: (Double) -> Bool) -> [Int] {
        let k = max(1, Int((window / 2 / period).rounded()))
        guard reference.count > 2 * k else { return [] }
        return (k..<(reference.count - k)).filter { i in
            guard times[i] >= skip, let a = reference[i - k], let b = reference[i + k] else { return false }
            let dt = times[i + k] - times[i - k]
            return dt > 0 && test(a.angle(to: b) * 180 / .pi / dt)
        }
    }

    /// Samples (after the start-up) around which the reference turned slower than `restRate` over
    /// every 0.2 s of the surrounding second: a back-and-forth turn whose ends meet is not rest.
    static func resting(_ reference: [Vector3?], times: [Double], period: Double) -> [Int] {
        let slow = Set(indices(of: reference, times: times, period: period, window: 0.2) { $0 < restRate })
        let w = max(1, Int((0.5 / period).rounded()))
        var run = 0, result: [Int] = []
        var stillBefore = [Int](repeating: 0, count: reference.count)  // consecutive slow samples ending here
        for i in reference.indices {
            run = slow.contains(i) ? run + 1 : 0
            stillBefore[i] = run
        }
        for i in reference.indices where i + w < reference.count && stillBefore[i + w] > 2 * w { result.append(i) }
        return result
    }

    static func rms(_ values: [Double]) -> Double {
        values.isEmpty ? .nan : (values.reduce(0) { $0 + $1 * $1 } / Double(values.count)).squareRoot()
    }

    /// The shift s (0…3 s, about 10 ms steps) minimising the mean angle between estimate(t + s) and
    /// reference(t) over the turns: how long the estimate takes to show a turn.
    static func lag(_ estimate: [Vector3], _ reference: [Vector3?], turns: [Int], period: Double) -> Double {
        guard !turns.isEmpty else { return .nan }
        let stride = max(1, Int((0.01 / period).rounded()))
        let maximum = Int((3 / period).rounded())
        var best = (shift: 0, cost: Double.infinity)
        for shift in Swift.stride(from: 0, through: maximum, by: stride) {
            var sum = 0.0, count = 0
            for i in turns where i + shift < estimate.count {
                guard let r = reference[i] else { continue }
                sum += estimate[i + shift].angle(to: r)
                count += 1
            }
            guard count > 0 else { break }
            if sum / Double(count) < best.cost { best = (shift, sum / Double(count)) }
        }
        return Double(best.shift) * period
    }

    /// RMS angle between the estimate and its own centred 1 s mean over the resting samples, degrees.
    static func jitter(_ estimate: [Vector3], rests: [Int], period: Double) -> Double {
        guard !rests.isEmpty else { return .nan }
        var prefix = [Vector3.zero]
        prefix.reserveCapacity(estimate.count + 1)
        for g in estimate { prefix.append(prefix.last! + g) }
        let w = max(1, Int((0.5 / period).rounded()))
        let angles = rests.map { i -> Double in
            let lo = max(0, i - w), hi = min(estimate.count, i + w + 1)
            let mean = prefix[hi] - prefix[lo]
            return estimate[i].angle(to: mean) * 180 / .pi
        }
        return rms(angles)
    }
}
