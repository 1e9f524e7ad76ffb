/// Finds steps in accelerometer samples, whatever the device's orientation or placement (hand,
/// pocket, bag, armband, neck pouch), at any sample rate, through jitter, gaps and NaN.
///
///     var detector = StepDetector()
///     for sample in samples {
///         detector.update(sample) { stepTime in steps.append(stepTime) }
///     }
///
/// Salvi et al.'s windowed peak detection (IEEE EMBC 2018), as a stream: the magnitude of the
/// acceleration (orientation-free, no gravity estimate needed) resampled to an even grid, a
/// Gaussian low-pass, a peak score, an adaptive threshold on the score (mean + k·σ), candidates
/// within the minimum step interval merged to the largest; then `StepRhythm`'s walk check, which
/// asks `StepPeriodEstimator` whether the signal is periodic.
/// A step is reported with the time of its peak, about 0.3 s after it happened, and the first
/// steps of a walk only once the walk is confirmed.
public struct StepDetector: Sendable {
    public let settings: StepDetectorSettings
    /// Seconds between resampled values.
    private let gridPeriod: Double
    private var smoother: GaussianSmoother
    private var scorer: PeakScorer
    private var statistics: RunningStatistics
    /// The sway of the smoothed magnitude, g, over about two steps (`minimumGaitAmplitude`).
    private var sway: RunningStatistics
    private var rhythm: StepRhythm
    private var cadenceLock: CadenceLock
    /// Grid time, s, of the next resampled value, and the input sample before it.
    private var previous: (time: Double, magnitude: Double)?
    private var nextGridTime = 0.0
    /// Grid time of the first value in the filters since the last restart.
    private var gridStart = 0.0
    private var gridIndex = 0
    /// The best candidate within `minimumStepInterval` so far: (time s, score g).
    private var candidate: (time: Double, score: Double)?
    /// The filters' total lag, in grid samples.
    private let lag: Int
    private var periodEstimator: StepPeriodEstimator
    private var lastDetected: Double?
    private let decimation: Int

    /// The step period, s, of the last 4 s from their autocorrelation (at times a stride, two
    /// steps); nil when they are not periodic (no walk, or not yet 4 s of it).
    public var stepPeriod: Double? { periodEstimator.period }

    /// Samples not used: non-finite values, or a time not after the previous sample's.
    public private(set) var rejectedSamples = 0
    /// Holes longer than `maximumGap` that restarted the filters.
    public private(set) var gapRestarts = 0

    public init(settings: StepDetectorSettings = .default) {
        let s = settings.sanitized
        self.settings = s
        gridPeriod = 1 / s.resampleRate
        let smoothHalf = Int((s.smoothingHalfWidth * s.resampleRate).rounded())
        let scoreHalf = max(1, Int((s.scoreHalfWidth * s.resampleRate).rounded()))
        smoother = GaussianSmoother(sigma: s.smoothingSigma * s.resampleRate, halfWidth: smoothHalf)
        scorer = PeakScorer(halfWidth: scoreHalf)
        statistics = RunningStatistics(horizonSamples: s.thresholdTimeConstant * s.resampleRate)
        sway = RunningStatistics(horizonSamples: s.gaitAmplitudeTime * s.resampleRate)
        rhythm = StepRhythm(minimumSteps: s.minimumWalkSteps, maximumInterval: s.maximumStepInterval)
        cadenceLock = CadenceLock(longestStep: s.longestStepPeriod, stridePeaks: s.stridePeaks)
        lag = smoothHalf + scoreHalf
        // The autocorrelation needs no more than 50 Hz (steps are below 4 Hz): cheaper at 200 Hz.
        decimation = max(1, Int((s.resampleRate / 50).rounded()))
        periodEstimator = StepPeriodEstimator(sampleRate: s.resampleRate / Double(decimation),
                                              minimumStrength: s.minimumPeriodicity)
    }

    /// Feeds one sample; `step` is called with the time (s, the sample clock) of every step that
    /// now counts, in order.
    public mutating func update(_ sample: MotionSample, _ step: (Double) -> Void) {
        let a = sample.acceleration
        let magnitude = (a.x * a.x + a.y * a.y + a.z * a.z).squareRoot()
        let t = sample.timestamp
        guard t.isFinite, magnitude.isFinite, magnitude < 1e6 else {
            rejectedSamples += 1
            return
        }
        guard let (t0, m0) = previous else {
            restart(at: t, magnitude: magnitude)
            return
        }
        guard t > t0 else {
            rejectedSamples += 1
            return
        }
        if t - t0 > settings.maximumGap {
            gapRestarts += 1
            flushCandidate(step)
            restart(at: t, magnitude: magnitude)
            return
        }
        // Linear interpolation onto the grid between the previous sample and this one.
        while nextGridTime <= t {
            let f = (nextGridTime - t0) / (t - t0)
            process(m0 + f * (magnitude - m0), step)
        }
        previous = (t, magnitude)
    }

    /// Counts what the filters still hold as if the input had ended: call at the end of a recording.
    public mutating func finish(_ step: (Double) -> Void) { flushCandidate(step) }

    private mutating func restart(at t: Double, magnitude: Double) {
        smoother.reset()
        scorer.reset()
        periodEstimator.reset()
        cadenceLock.reset()
        sway = RunningStatistics(horizonSamples: sway.horizon)
        previous = (t, magnitude)
        gridStart = t
        gridIndex = 0
        nextGridTime = t
    }

    /// One resampled magnitude (g) at `nextGridTime`.
    private mutating func process(_ magnitude: Double, _ step: (Double) -> Void) {
        let now = nextGridTime
        gridIndex += 1
        // Computed from the index, not summed, so the grid does not drift over hours.
        nextGridTime = gridStart + Double(gridIndex) * gridPeriod
        guard let smooth = smoother.push(magnitude) else { return }
        if gridIndex % decimation == 0 { periodEstimator.push(smooth) }
        sway.add(smooth)
        guard let score = scorer.push(smooth) else { return }
        let scoreTime = now - Double(lag) * gridPeriod
        if let c = candidate, scoreTime - c.time > settings.minimumStepInterval {
            candidate = nil
            detected(c.time, step)
        }
        // A peak is a step only while the device sways as a gait does: a still device's noise
        // peaks sharply enough to pass the score alone (see `minimumGaitAmplitude`).
        let isCandidate = statistics.count > 15 && score > settings.minimumScore
            && sway.standardDeviation >= settings.minimumGaitAmplitude
            && score - statistics.mean > settings.thresholdDeviations * statistics.standardDeviation
        statistics.add(score)
        guard isCandidate else { return }
        if let c = candidate, c.score >= score { return }
        candidate = (scoreTime, score)
    }

    private mutating func flushCandidate(_ step: (Double) -> Void) {
        if let c = candidate { detected(c.time, step) }
        candidate = nil
    }

    private mutating func detected(_ time: Double, _ step: (Double) -> Void) {
        let period = periodEstimator.period
        guard cadenceLock.admits(time, period: period) else { return }
        defer { lastDetected = time }
        let periodic = period != nil
        // A missed step: two detections two step periods apart, while the signal repeats strongly
        // at one step, or while the detections come once a stride all along (a jog in a pocket
        // whose other step hardly peaks).
        let stepPeriod = cadenceLock.stepPeriod(period) ?? period
        let repeatsAtStep = stepPeriod == period && periodEstimator.periodStrength >= settings.missedStepPeriodicity
        let oncePerStride = cadenceLock.peaksPerStep(period).map { $0 <= CadenceLock.oncePerStride } ?? false
        if let last = lastDetected, rhythm.isWalking, let stepPeriod, stepPeriod >= settings.minimumStepInterval,
           repeatsAtStep || oncePerStride {
            let periods = (time - last) / stepPeriod
            if periods >= 1.6 && periods <= 2.4 && time - last <= settings.maximumStepInterval {
                rhythm.add((last + time) / 2, periodic: periodic, step)
            }
        }
        rhythm.add(time, periodic: periodic, step)
    }
}
