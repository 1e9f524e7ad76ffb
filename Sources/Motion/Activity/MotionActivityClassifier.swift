/// Motion activity from accelerometer samples, as Core Motion's coprocessor gives it: samples go
/// in, activity calls and segments come out, a few seconds after the fact and with hysteresis.
/// Pure and single-threaded; `MotionActivityManager` runs one on a manager's pushed samples.
///
///     var classifier = MotionActivityClassifier()
///     for sample in trace.samples {
///         if classifier.push(sample) { print(classifier.current) }   // the call or its confidence changed
///     }
///     for segment in classifier.allSegments { print(segment.start, segment.kind) }
///
/// How: each sample's acceleration (g, gravity included, any orientation) is resampled onto a
/// uniform `analysisRate` grid (linear interpolation; NaN, infinite and out-of-order samples are
/// dropped and counted; a gap longer than `maximumGap` restarts). Every `hop` seconds the last
/// `windowLength` seconds become an `ActivityWindowFeatures` and its vote; a new call needs
/// `confirmation` (or `slowConfirmation`) of the recent votes, and its start is backdated to the
/// first of them.
public struct MotionActivityClassifier: Sendable {
    public let settings: MotionActivitySettings
    /// The call now; `.unknown` until the first windows agree.
    public private(set) var current: MotionActivity
    /// Finished segments, oldest first (the one in progress is in `allSegments`).
    public private(set) var segments: [MotionActivitySegment] = []
    /// The newest window and its vote, for displays and tests.
    public private(set) var latestWindow: ActivityWindowFeatures?
    public private(set) var latestVote: MotionActivityKind?
    /// Samples dropped: NaN or infinite values, or a timestamp not after the previous one.
    public private(set) var rejectedSamples = 0
    /// Gaps longer than `maximumGap` (or a new time base) that restarted the analysis.
    public private(set) var gapRestarts = 0

    private struct Vote: Sendable {
        var kind: MotionActivityKind
        /// Where a call this vote confirms begins, seconds.
        var evidenceStart: Double
    }

    private var last: (time: Double, acceleration: Vector3)?
    /// Timestamp of the first of the samples rejected in a row for being behind `last`.
    private var behindSince: Double?
    private var gridTime = 0.0
    private var magnitudes: [Double] = []
    private var directions: [Vector3] = []
    private var lastDirection = Vector3.zero
    private var sinceWindow = 0
    private var windowsSinceRestart = 0
    private var votes: [Vote] = []
    private var confidenceCounts = [0, 0, 0]

    public init(settings: MotionActivitySettings = .default) {
        self.settings = settings
        current = MotionActivity(kind: .unknown, confidence: .low, startDate: 0)
    }

    /// Seconds of the last accepted sample, nil before any.
    public var lastSampleTime: Double? { last?.time }

    /// The finished segments and the one in progress (ending at the last sample).
    public var allSegments: [MotionActivitySegment] {
        guard let end = last?.time, end > current.startDate else { return segments }
        return segments + [MotionActivitySegment(start: current.startDate, end: end,
                                                 kind: current.kind, confidence: segmentConfidence)]
    }

    /// One sample. Returns true when `current` changed (activity or confidence).
    @discardableResult
    public mutating func push(_ sample: MotionSample) -> Bool {
        let t = sample.timestamp, a = sample.acceleration
        guard t.isFinite, a.isFinite else {
            rejectedSamples += 1
            return false
        }
        let before = (current.kind, current.confidence)
        guard let previous = last else {
            restart(at: t, acceleration: a)
            return false
        }
        guard t > previous.time else {
            rejectedSamples += 1
            // One stray timestamp is dropped; a stream that stays behind for longer than a gap has a
            // new time base (a far-future outlier before it, a clock reset): start again on it.
            let behindSince = behindSince ?? t
            self.behindSince = behindSince
            guard t - behindSince > settings.maximumGap else { return false }
            gapRestarts += 1
            close(at: previous.time)
            restart(at: t, acceleration: a)
            return (current.kind, current.confidence) != before
        }
        behindSince = nil
        if t - previous.time > settings.maximumGap {
            gapRestarts += 1
            close(at: previous.time)
            restart(at: t, acceleration: a)
            return (current.kind, current.confidence) != before
        }
        let step = 1 / settings.analysisRate
        while gridTime <= t {
            let f = (gridTime - previous.time) / (t - previous.time)
            append(previous.acceleration + (a - previous.acceleration) * f)
            gridTime += step
        }
        last = (t, a)
        return (current.kind, current.confidence) != before
    }

    // MARK: Resampled points and windows

    private mutating func restart(at t: Double, acceleration a: Vector3) {
        behindSince = nil
        magnitudes.removeAll(keepingCapacity: true)
        directions.removeAll(keepingCapacity: true)
        votes.removeAll(keepingCapacity: true)
        sinceWindow = 0
        windowsSinceRestart = 0
        latestWindow = nil
        latestVote = nil
        current = MotionActivity(kind: .unknown, confidence: .low, startDate: t)
        confidenceCounts = [0, 0, 0]
        last = (t, a)
        gridTime = t
        append(a)
        gridTime += 1 / settings.analysisRate
    }

    private mutating func append(_ a: Vector3) {
        let m = a.length
        // Near free fall the direction means nothing: keep the last one.
        if m > 0.1 { lastDirection = a / m }
        magnitudes.append(m)
        directions.append(lastDirection)
        sinceWindow += 1
        let full = settings.windowSamples
        if magnitudes.count > 2 * full {
            magnitudes.removeFirst(magnitudes.count - full)
            directions.removeFirst(directions.count - full)
        }
        let due = windowsSinceRestart == 0 ? magnitudes.count >= settings.minimumWindowSamples
                                           : sinceWindow >= settings.hopSamples
        if due { cutWindow() }
    }

    private mutating func cutWindow() {
        let n = Swift.min(magnitudes.count, settings.windowSamples)
        let rate = settings.analysisRate
        let newest = gridTime
        let window = ActivityWindowFeatures(magnitudes: Array(magnitudes.suffix(n)), directions: Array(directions.suffix(n)),
                                            rate: rate, start: newest - Double(n - 1) / rate, settings: settings)
        sinceWindow = 0
        let kind = window.vote(settings)
        // The first window after a restart covers the restart itself; later ones are dated by their middle.
        let evidence = windowsSinceRestart == 0 ? window.start : (window.start + window.end) / 2
        windowsSinceRestart += 1
        latestWindow = window
        latestVote = kind
        votes.append(Vote(kind: kind, evidenceStart: evidence))
        let keep = Swift.max(settings.confirmation.of, settings.slowConfirmation.of)
        if votes.count > keep { votes.removeFirst(votes.count - keep) }
        decide(at: window.end)
    }

    // MARK: Hysteresis

    private func agreement(for kind: MotionActivityKind) -> MotionActivitySettings.Agreement {
        // Unknown is no evidence of anything: it replaces a call only when it lasts.
        kind == .automotive || kind == .cycling || kind == .unknown ? settings.slowConfirmation : settings.confirmation
    }

    private mutating func decide(at time: Double) {
        guard let vote = votes.last?.kind else { return }
        if vote != current.kind {
            let need = agreement(for: vote)
            let recent = votes.suffix(need.of)
            if recent.filter({ $0.kind == vote }).count >= need.count, let first = recent.first(where: { $0.kind == vote }) {
                var start = Swift.max(first.evidenceStart, current.startDate)
                if start - current.startDate < 0.5 / settings.analysisRate { start = current.startDate }
                close(at: start)
                current = MotionActivity(kind: vote, confidence: .low, startDate: start)
            }
        }
        let need = agreement(for: current.kind)
        let agreeing = votes.suffix(need.of).filter { $0.kind == current.kind }.count
        current.confidence = agreeing >= need.of ? .high : agreeing >= need.count ? .medium : .low
        confidenceCounts[current.confidence.rawValue] += 1
    }

    /// The confidence most of the current segment's windows had (ties to the higher).
    private var segmentConfidence: MotionActivityConfidence {
        guard confidenceCounts.contains(where: { $0 > 0 }) else { return current.confidence }
        let best = confidenceCounts.max()!
        return MotionActivityConfidence(rawValue: confidenceCounts.lastIndex(of: best)!)!
    }

    private mutating func close(at end: Double) {
        // Under one grid step is rounding, not a segment.
        if end - current.startDate >= 0.5 / settings.analysisRate {
            segments.append(MotionActivitySegment(start: current.startDate, end: end, kind: current.kind,
                                                  confidence: segmentConfidence))
        }
        confidenceCounts = [0, 0, 0]
    }
}
