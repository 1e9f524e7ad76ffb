/// Holds a walk's count to its cadence when the peaks outnumber the steps the period allows.
/// The autocorrelation period (`StepPeriodEstimator`) is a step or a stride; the peaks of the
/// magnitude can come once a step, or three or four times a stride (a phone in a back pocket sees
/// one rhythm per stride, the leg with the phone and the other differ, with extra peaks more than
/// `minimumStepInterval` apart: counted as they come that is 20–40 % too many, and the Oxford
/// dataset's phone algorithm was off by as much). The period is taken for a stride, two steps,
/// when it is longer than `longestStep` (no walk or run has steps that slow for long) or when the
/// detections come at least `stridePeaks` times per period (both steps of a stride peaking); else
/// for a step. A detection then counts only while the cadence owes a step: a phase budget grows by
/// the elapsed steps (time ÷ step period), each counted detection spends one, and it saves at most
/// `slack` steps, so a late or early peak still counts but a sustained excess does not. Nor does a
/// detection within `closestSteps` step periods of the last counted one, whatever the budget saved:
/// that is the same step's second peak (a slow walk's push-off, 0.3–0.4 s after the heel strike
/// at 0.75 s steps), and no two steps of one rhythm come that close.
/// Nothing is held back until eight detections show the rhythm, nor while the signal is not periodic.
struct CadenceLock {
    let longestStep: Double
    let stridePeaks: Double
    /// Detections per step at or below which they come once a stride (one in two steps, with margin):
    /// `StepDetector` then counts the step between two detections two step periods apart.
    static let oncePerStride = 0.6
    /// Steps the budget may save up: the jitter of one detection against the period.
    private let slack = 1.5
    /// Least spacing of two counted detections, in step periods.
    static let closestSteps = 0.5
    /// The last detection intervals, s.
    private var intervals: [Double] = []
    private var lastDetection: Double?
    private var lastCounted: Double?
    private var budget = 1.0
    private static let memory = 8

    init(longestStep: Double, stridePeaks: Double) {
        self.longestStep = longestStep
        self.stridePeaks = stridePeaks
    }

    /// Whether the detection at `time` counts, given the autocorrelation period, s (nil: not periodic).
    mutating func admits(_ time: Double, period: Double?) -> Bool {
        defer { lastDetection = time }
        guard let last = lastDetection, time > last else { return counted(time) }
        let interval = time - last
        if intervals.count == Self.memory { intervals.removeFirst() }
        intervals.append(interval)
        guard let step = stepPeriod(period) else {
            budget = 1
            return counted(time)
        }
        budget = min(budget + interval / step, slack)
        guard budget >= 0.5, time - (lastCounted ?? -.infinity) >= Self.closestSteps * step else { return false }
        budget -= 1
        return counted(time)
    }

    private mutating func counted(_ time: Double) -> Bool {
        lastCounted = time
        return true
    }

    /// The step period, s, the period implies given how often the peaks come; nil until known.
    func stepPeriod(_ period: Double?) -> Double? {
        guard let period, period > 0, intervals.count == Self.memory else { return nil }
        let peaksPerPeriod = period / median(intervals)
        return period > longestStep || peaksPerPeriod >= stridePeaks ? period / 2 : period
    }

    /// Detections per step (median of the last eight intervals), given the period; nil until known.
    func peaksPerStep(_ period: Double?) -> Double? {
        stepPeriod(period).map { $0 / median(intervals) }
    }

    mutating func reset() {
        intervals.removeAll(keepingCapacity: true)
        lastDetection = nil
        lastCounted = nil
        budget = 1
    }

    private func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        return sorted[sorted.count / 2]
    }
}
