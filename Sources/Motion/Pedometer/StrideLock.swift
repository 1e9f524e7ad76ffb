/// Keeps a walk's count at two steps per stride when the acceleration shows more peaks than steps.
/// With the phone in a back pocket the signal repeats once per stride (the leg with the phone and
/// the other differ) and each stride has three or four peaks more than `minimumStepInterval` apart:
/// counted as they come, that is 40 % too many (the Oxford dataset's user1 back pocket, where the
/// phone's own counter was off by as much). When the detections come at least `peaksPerPeriod`
/// times per autocorrelation period, that period is a stride, and a detection counts only once half
/// of it has passed since the last counted one, carrying over the remainder (a phase budget), so
/// the count follows the stride's rhythm rather than its peaks. When peaks come once or twice per
/// period (a step, or a stride whose two steps each peak) nothing is held back.
struct StrideLock {
    let peaksPerPeriod: Double
    /// The last detection intervals, s.
    private var intervals: [Double] = []
    private var lastDetection: Double?
    /// Steps owed, in steps: grows with time at two per period, spent by each counted detection.
    private var budget = 1.0
    private static let memory = 8

    init(peaksPerPeriod: Double) { self.peaksPerPeriod = peaksPerPeriod }

    /// Whether the detection at `time` counts, given the autocorrelation period, s (nil: not periodic).
    mutating func admits(_ time: Double, period: Double?) -> Bool {
        defer { lastDetection = time }
        guard let last = lastDetection, time > last else { return true }
        let interval = time - last
        if intervals.count == Self.memory { intervals.removeFirst() }
        intervals.append(interval)
        guard let period, intervals.count == Self.memory, period / median(intervals) >= peaksPerPeriod else {
            budget = 1
            return true
        }
        budget = min(budget + interval / (period / 2), 1.5)
        guard budget >= 0.5 else { return false }
        budget -= 1
        return true
    }

    mutating func reset() {
        intervals.removeAll(keepingCapacity: true)
        lastDetection = nil
        budget = 1
    }

    private func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        return sorted[sorted.count / 2]
    }
}
