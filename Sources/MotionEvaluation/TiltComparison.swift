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
///
/// Measured in two passes over the samples (a file read twice, a piece at a time), keeping only
/// the last few seconds: memory does not grow with the recording.
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
        /// The error, degrees (NaN where the reference is missing), at `times`: for a plot.
        public var error: [Double]
    }

    public var reference: Reference
    public var rows: [Row]
    /// Times from the first sample, s, of `Row.error`: every sample's up to `plotPoints`, then
    /// evenly spread over the whole recording.
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
    /// The most error points kept for a plot: more than a chart has pixels across.
    public static let plotPoints = 8192

    public static func measure(_ samples: [MotionSample], cutoffs: [Double] = standardCutoffs) -> TiltComparison {
        measure(cutoffs: cutoffs) { visit in samples.forEach(visit) }
    }

    /// The same over the samples `forEachSample` hands to its argument, in time order. It is
    /// called twice: first for the median period and whether the recording has its own
    /// reference, which the windows and the rows depend on, then to measure.
    public static func measure(cutoffs: [Double] = standardCutoffs,
                               forEachSample: (_ visit: (MotionSample) -> Void) throws -> Void) rethrows -> TiltComparison {
        var survey = Estimators(cutoffs: cutoffs)
        var periods = PeriodHistogram()
        var hasRecording = false
        var t0: Double?, previous: Double?
        try forEachSample { sample in
            if t0 == nil { t0 = sample.timestamp }
            guard let frame = survey.update(sample) else { return }
            let t = sample.timestamp - t0!
            if let previous, t - previous > 0 { periods.add(t - previous) }
            previous = t
            hasRecording = hasRecording || frame.recorded != nil
        }
        var measurement = Measurement(cutoffs: cutoffs, hasRecording: hasRecording, period: periods.median ?? 0.01)
        var estimators = Estimators(cutoffs: cutoffs)
        t0 = nil
        try forEachSample { sample in
            if t0 == nil { t0 = sample.timestamp }
            guard let frame = estimators.update(sample) else { return }
            measurement.add(time: sample.timestamp - t0!, frame: frame)
        }
        return measurement.finish()
    }

    /// Fusion and the accelerometer-only estimates at each cut-off, fed together: a sample counts
    /// only where every one of them takes it.
    private struct Estimators {
        var fusion = AHRS(frame: .xArbitraryZVertical)
        var accelerometerOnly: [AccelerometerAttitudeEstimator]
        var motion = DeviceMotion()

        init(cutoffs: [Double]) { accelerometerOnly = cutoffs.map { AccelerometerAttitudeEstimator(cutoffFrequency: $0) } }

        mutating func update(_ sample: MotionSample) -> (fused: Vector3, lowPassed: [Vector3], recorded: Vector3?)? {
            guard fusion.update(sample, into: &motion) else { return nil }
            let g = motion.gravity
            var others: [Vector3] = []
            for i in accelerometerOnly.indices {
                guard accelerometerOnly[i].update(sample, into: &motion) else { break }
                others.append(motion.gravity)
            }
            guard others.count == accelerometerOnly.count else { return nil }
            return (g, others, EstimatorComparison.referenceGravity(sample))
        }
    }

    /// The second pass: each figure as soon as the samples it looks at have arrived, from a ring of
    /// the last few seconds (the lag's 3 s of shifts, and the windows either side).
    private struct Measurement {
        let names: [(String, Double?)]
        let hasRecording: Bool
        let period: Double
        /// Half-widths in samples: the turn test, the rest test, the jitter's mean.
        let turnHalf: Int, slowHalf: Int, restHalf: Int
        let shiftStride: Int, maximumShift: Int
        let capacity: Int
        var count = 0
        var times: [Double]
        var references: [Vector3?]
        /// `estimates[slot * rows + row]`; `prefix` the running sums of every estimate up to a slot.
        var estimates: [Vector3]
        var prefix: [Vector3]
        var isTurn: [Bool]
        var total: [Vector3]
        var slowRun = 0
        /// The latest turn's index: a sample further than every shift from it measures no lag.
        var lastTurn = Int.min / 2
        var turnCount = 0, restCount = 0
        var errorSquares: [Double], errorCount: [Int]
        var jitterSquares: [Double]
        /// `lagSums[shiftIndex * rows + row]`, and how many turns each shift measured.
        var lagSums: [Double], lagCounts: [Int]
        var plot: PlotPoints

        var rows: Int { names.count }

        init(cutoffs: [Double], hasRecording: Bool, period: Double) {
            let fusion: [(String, Double?)] = hasRecording ? [("fusion", nil)] : []
            names = fusion + cutoffs.map { (String(format: "accel %g Hz", $0), $0) }
            self.hasRecording = hasRecording
            self.period = period
            turnHalf = max(1, Int((0.05 / 2 / period).rounded()))
            slowHalf = max(1, Int((0.2 / 2 / period).rounded()))
            restHalf = max(1, Int((0.5 / period).rounded()))
            shiftStride = max(1, Int((0.01 / period).rounded()))
            maximumShift = Int((3 / period).rounded())
            capacity = max(maximumShift + turnHalf, slowHalf + 2 * restHalf + 1) + 2
            let rows = names.count
            times = Array(repeating: 0, count: capacity)
            references = Array(repeating: nil, count: capacity)
            estimates = Array(repeating: .zero, count: capacity * rows)
            prefix = Array(repeating: .zero, count: (capacity + 1) * rows)
            isTurn = Array(repeating: false, count: capacity)
            total = Array(repeating: .zero, count: rows)
            errorSquares = Array(repeating: 0, count: rows)
            errorCount = Array(repeating: 0, count: rows)
            jitterSquares = Array(repeating: 0, count: rows)
            let shifts = maximumShift / shiftStride + 1
            lagSums = Array(repeating: 0, count: shifts * rows)
            lagCounts = Array(repeating: 0, count: shifts)
            plot = PlotPoints(rows: rows, capacity: TiltComparison.plotPoints)
        }

        private func slot(_ i: Int) -> Int { i % capacity }
        private func prefixSlot(_ i: Int) -> Int { i % (capacity + 1) }

        mutating func add(time: Double, frame: (fused: Vector3, lowPassed: [Vector3], recorded: Vector3?)) {
            let m = count
            count += 1
            let s = slot(m)
            times[s] = time
            let reference = hasRecording ? frame.recorded : frame.fused
            references[s] = reference
            let values = hasRecording ? [frame.fused] + frame.lowPassed : frame.lowPassed
            var errors: [Double] = []
            errors.reserveCapacity(rows)
            for (row, estimate) in values.enumerated() {
                estimates[s * rows + row] = estimate
                prefix[prefixSlot(m) * rows + row] = total[row]
                total[row] = total[row] + estimate
                let error = reference.map { estimate.angle(to: $0) * 180 / .pi } ?? .nan
                errors.append(error)
                if time >= skip && error.isFinite {
                    errorSquares[row] += error * error
                    errorCount[row] += 1
                }
            }
            for row in 0..<rows { prefix[prefixSlot(m + 1) * rows + row] = total[row] }
            plot.add(time: time, errors: errors)
            isTurn[s] = false
            // The turn at m − turnHalf, now that its far side has arrived.
            let i = m - turnHalf
            if i >= turnHalf, rate(from: i - turnHalf, to: m, centre: i).map({ $0 > turnRate }) == true {
                isTurn[slot(i)] = true
                turnCount += 1
                lastTurn = i
            }
            // Rest: slow for every 0.2 s around each sample of the surrounding second.
            let j = m - slowHalf
            if j >= 0 {
                let slow = j >= slowHalf && rate(from: j - slowHalf, to: m, centre: j).map { $0 < restRate } == true
                slowRun = slow ? slowRun + 1 : 0
                let rest = j - restHalf
                if rest >= 0 && slowRun > 2 * restHalf { addJitter(at: rest) }
            }
            if m - turnHalf >= 0 { addLag(at: m - turnHalf) }
        }

        /// The reference's angular rate between samples `a` and `b`, deg/s, where `centre` is past the start-up.
        private func rate(from a: Int, to b: Int, centre: Int) -> Double? {
            guard times[slot(centre)] >= skip, let ra = references[slot(a)], let rb = references[slot(b)] else { return nil }
            let dt = times[slot(b)] - times[slot(a)]
            return dt > 0 ? ra.angle(to: rb) * 180 / .pi / dt : nil
        }

        /// Resting sample `i`: each estimate's angle from its own mean over ±`restHalf` samples.
        private mutating func addJitter(at i: Int) {
            restCount += 1
            let lo = max(0, i - restHalf), hi = i + restHalf + 1
            for row in 0..<rows {
                let mean = prefix[prefixSlot(hi) * rows + row] - prefix[prefixSlot(lo) * rows + row]
                let angle = estimates[slot(i) * rows + row].angle(to: mean) * 180 / .pi
                jitterSquares[row] += angle * angle
            }
        }

        /// Estimate `j` against every turn a shift before it (all turns up to `j` are known by now).
        private mutating func addLag(at j: Int) {
            guard j - lastTurn <= maximumShift else { return }
            for (index, shift) in Swift.stride(from: 0, through: maximumShift, by: shiftStride).enumerated() {
                let i = j - shift
                guard i >= 0 else { break }
                guard isTurn[slot(i)], let reference = references[slot(i)] else { continue }
                for row in 0..<rows { lagSums[index * rows + row] += estimates[slot(j) * rows + row].angle(to: reference) }
                lagCounts[index] += 1
            }
        }

        mutating func finish() -> TiltComparison {
            for j in max(0, count - turnHalf)..<count { addLag(at: j) }
            let rowsMade = names.enumerated().map { row, name in
                Row(name: name.0, cutoff: name.1,
                    errorRMS: errorCount[row] == 0 ? .nan : (errorSquares[row] / Double(errorCount[row])).squareRoot(),
                    lag: lag(row), jitter: restCount == 0 ? .nan : (jitterSquares[row] / Double(restCount)).squareRoot(),
                    error: plot.errors[row])
            }
            return TiltComparison(reference: hasRecording ? .recording : .fusion, rows: rowsMade, times: plot.times,
                                  turnCount: turnCount, restCount: restCount)
        }

        /// The shift (0…3 s, about 10 ms steps) minimising the mean angle between estimate(t + s)
        /// and reference(t) over the turns: how long the estimate takes to show a turn.
        private func lag(_ row: Int) -> Double {
            guard turnCount > 0 else { return .nan }
            var best = (shift: 0, cost: Double.infinity)
            for (index, shift) in Swift.stride(from: 0, through: maximumShift, by: shiftStride).enumerated() {
                guard lagCounts[index] > 0 else { break }
                let cost = lagSums[index * rows + row] / Double(lagCounts[index])
                if cost < best.cost { best = (shift, cost) }
            }
            return Double(best.shift) * period
        }
    }

    /// Every sample's errors until `capacity`, then every other one dropped and only every second
    /// taken after, and so on: evenly spread over the whole recording.
    private struct PlotPoints {
        let capacity: Int
        var times: [Double] = []
        var errors: [[Double]]
        private var offered = 0
        private var stride = 1

        init(rows: Int, capacity: Int) {
            self.capacity = capacity
            errors = Array(repeating: [], count: rows)
        }

        mutating func add(time: Double, errors values: [Double]) {
            defer { offered += 1 }
            guard offered % stride == 0 else { return }
            times.append(time)
            for row in values.indices { errors[row].append(values[row]) }
            guard times.count == capacity else { return }
            func halve(_ list: [Double]) -> [Double] { Swift.stride(from: 0, to: list.count, by: 2).map { list[$0] } }
            times = halve(times)
            errors = errors.map(halve)
            stride *= 2
        }
    }
}
