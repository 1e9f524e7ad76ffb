/// How `StepDetector` finds steps, every quantity in seconds or g so a sample-rate change needs
/// no rescaling. The stages and the filter and score widths are the windowed peak detector of
/// Salvi, Velardo, Brynes and Tarassenko, "An optimised algorithm for accurate steps counting from
/// smart-phone accelerometry", IEEE EMBC 2018 (their Java implementation,
/// github.com/Oxford-step-counter/Java-Step-Counter, converted from samples at 100 Hz to
/// seconds). The threshold (0.8 σ, theirs 1.2), the minimum interval (0.3 s, theirs 0.2), the
/// forgetting time, the noise floor, the gait's sway, the walk check, the missed-step rule and the
/// cadence hold are ours, tuned on the 48 recordings of their dataset's `optimisation` half only
/// (truth: the foot sensor's log with its bounces out and missed landings in, beside `stats.csv`'s
/// count): mean absolute error 1.2 %, 48 of 48 within 5 %; against `stats.csv` 1.8 %, 46 of 48
/// (`tiltkit bench pedometer --data DIR`). The 12 `validation` recordings were not used for tuning.
///
///     var settings = StepDetectorSettings.default
///     settings.minimumStepInterval = 0.25
///     var detector = StepDetector(settings: settings)
public struct StepDetectorSettings: Hashable, Sendable {
    /// Rate, Hz, the acceleration magnitude is resampled to (linear interpolation), so filters
    /// work on an even grid whatever the source's rate and jitter. Oxford: 100 Hz.
    public var resampleRate: Double
    /// Standard deviation, s, of the Gaussian low-pass over the magnitude. Oxford: 0.35 of the
    /// half-length of a 35-tap window at 100 Hz, 0.0595 s (a −3 dB point near 2.2 Hz).
    public var smoothingSigma: Double
    /// Half-width, s, of that Gaussian window. Oxford: 17 samples at 100 Hz.
    public var smoothingHalfWidth: Double
    /// Half-width, s, of the peak score: the mean rise of a sample over its neighbours within this
    /// distance. Oxford: 5 samples at 100 Hz.
    public var scoreHalfWidth: Double
    /// A score is a candidate step when it exceeds the running mean of scores by this many running
    /// standard deviations. Oxford: 1.2; 0.8 counted better on their optimisation set once the
    /// minimum interval was 0.3 s.
    public var thresholdDeviations: Double
    /// Time constant, s, of the running mean and deviation of scores. Oxford kept the whole
    /// recording; a forgetting average lets the threshold follow a change of gait or placement.
    public var thresholdTimeConstant: Double
    /// Smallest score, g, that can be a step: without it the threshold sinks into sensor noise
    /// when the device lies still. Small, since the score of a 0.1 g, 2 Hz sway is only ≈0.005 g.
    public var minimumScore: Double
    /// Least sway, g, of a gait: a peak is a step only while the standard deviation of the smoothed
    /// magnitude over about `gaitAmplitudeTime` reaches this. The score measures how sharp a peak
    /// is, not how far the device moves, so a device held still (a hand's tremor, a lift car's hum)
    /// still makes peaks above `minimumScore` that can repeat, and lift rides counted steps and
    /// floors. Over 1 s windows the lift rides of the floors recordings (README) sway 0.01–0.02 g
    /// (median); walks and stair climbs in every placement 0.23–0.26 g (median), 95 % above 0.11 g,
    /// but a slow walk on carpet with the phone in hand sways little: at 0.06 two of the
    /// optimisation set's lose 14 % of their steps. 0.04 sits between, 1.5 times below that.
    public var minimumGaitAmplitude: Double
    /// Time constant, s, of that sway's running mean and deviation: about two steps.
    public var gaitAmplitudeTime: Double
    /// Candidates closer than this, s, are one step (the largest wins). Oxford: 200 ms; 0.3 s
    /// merges the second peak (push-off) of a slow step and still allows 3.3 steps/s.
    public var minimumStepInterval: Double
    /// Least normalised autocorrelation, 0…1, of the last 4 s of magnitude at a lag of one step or
    /// stride for the signal to be periodic (see `StepPeriodEstimator`); a walk is confirmed only
    /// while it is, so shaking about and knocks, which are not periodic, do not count.
    public var minimumPeriodicity: Double
    /// Longest interval, s, between two steps of one walk; a longer pause ends the walk.
    public var maximumStepInterval: Double
    /// Steps a walk must reach, each within `maximumStepInterval` of the last, with the signal
    /// periodic, before any of them counts; then they all count. A bump or a fumble counts nothing.
    public var minimumWalkSteps: Int
    /// A missed step: during a walk, when two detected steps lie about two step periods apart
    /// (1.6–2.4 periods of the autocorrelation) and the signal repeats at one step with at least
    /// this autocorrelation, the step between them is counted too. Against the weaker step of the
    /// leg without the phone, which a pocket at 50 Hz can lose. Above 1 turns it off (the step is
    /// still counted when the detections come once a stride all along, see `CadenceLock`).
    public var missedStepPeriodicity: Double
    /// A hole in the input longer than this, s, restarts the filters instead of being bridged.
    public var maximumGap: Double
    /// An autocorrelation period longer than this, s, is a stride (two steps), not a step, and the
    /// count is held to the cadence it gives (`CadenceLock`). 0.9 s (67 steps/min) on the
    /// optimisation set: 0.75 and 0.8 held a slow walk of 0.74 s steps (81 steps/min) to too many.
    public var longestStepPeriod: Double
    /// Detections at least this many times per autocorrelation period (median of the last eight
    /// intervals) mean the period is a stride whatever its length (`CadenceLock`): both its steps
    /// peak. Fewer mean a step, and the count is held to one per period. 2 on the optimisation set
    /// (1.6 let a slow walk's double peaks through). Above 10 with a long `longestStepPeriod` holds
    /// only to one detection per period.
    public var stridePeaks: Double

    public init(resampleRate: Double = 100, smoothingSigma: Double = 0.0595, smoothingHalfWidth: Double = 0.17,
                scoreHalfWidth: Double = 0.05, thresholdDeviations: Double = 0.8, thresholdTimeConstant: Double = 10,
                minimumScore: Double = 0.002, minimumGaitAmplitude: Double = 0.04, gaitAmplitudeTime: Double = 1,
                minimumStepInterval: Double = 0.3, maximumStepInterval: Double = 2,
                minimumWalkSteps: Int = 4, minimumPeriodicity: Double = 0.4, missedStepPeriodicity: Double = 0.5,
                maximumGap: Double = 0.5, longestStepPeriod: Double = 0.9, stridePeaks: Double = 2) {
        self.resampleRate = resampleRate
        self.smoothingSigma = smoothingSigma
        self.smoothingHalfWidth = smoothingHalfWidth
        self.scoreHalfWidth = scoreHalfWidth
        self.thresholdDeviations = thresholdDeviations
        self.thresholdTimeConstant = thresholdTimeConstant
        self.minimumScore = minimumScore
        self.minimumGaitAmplitude = minimumGaitAmplitude
        self.gaitAmplitudeTime = gaitAmplitudeTime
        self.minimumStepInterval = minimumStepInterval
        self.maximumStepInterval = maximumStepInterval
        self.minimumWalkSteps = minimumWalkSteps
        self.minimumPeriodicity = minimumPeriodicity
        self.missedStepPeriodicity = missedStepPeriodicity
        self.maximumGap = maximumGap
        self.longestStepPeriod = longestStepPeriod
        self.stridePeaks = stridePeaks
    }

    public static let `default` = StepDetectorSettings()

    /// These settings with every value that is not finite, or outside what it can mean (a rate of
    /// 0 Hz, a negative width, a resample rate the filters cannot hold), replaced by its default: a
    /// detector is never built from numbers that would crash or stall it.
    public var sanitized: StepDetectorSettings {
        let d = StepDetectorSettings.default
        func fix(_ value: Double, _ fallback: Double, _ range: ClosedRange<Double>) -> Double {
            value.isFinite && range.contains(value) ? value : fallback
        }
        var s = self
        s.resampleRate = fix(resampleRate, d.resampleRate, 10...1000)
        s.smoothingSigma = fix(smoothingSigma, d.smoothingSigma, 0.001...1)
        s.smoothingHalfWidth = fix(smoothingHalfWidth, d.smoothingHalfWidth, 0...2)
        s.scoreHalfWidth = fix(scoreHalfWidth, d.scoreHalfWidth, 0...2)
        s.thresholdDeviations = fix(thresholdDeviations, d.thresholdDeviations, -10...10)
        s.thresholdTimeConstant = fix(thresholdTimeConstant, d.thresholdTimeConstant, 0.1...3600)
        s.minimumScore = fix(minimumScore, d.minimumScore, 0...10)
        s.minimumGaitAmplitude = fix(minimumGaitAmplitude, d.minimumGaitAmplitude, 0...10)
        s.gaitAmplitudeTime = fix(gaitAmplitudeTime, d.gaitAmplitudeTime, 0.1...60)
        s.minimumStepInterval = fix(minimumStepInterval, d.minimumStepInterval, 0...10)
        s.maximumStepInterval = fix(maximumStepInterval, d.maximumStepInterval, 0...60)
        s.minimumWalkSteps = (1...60).contains(minimumWalkSteps) ? minimumWalkSteps : d.minimumWalkSteps
        s.minimumPeriodicity = fix(minimumPeriodicity, d.minimumPeriodicity, -1...1)
        s.missedStepPeriodicity = fix(missedStepPeriodicity, d.missedStepPeriodicity, -1...2)
        s.maximumGap = fix(maximumGap, d.maximumGap, 0...3600)
        s.longestStepPeriod = fix(longestStepPeriod, d.longestStepPeriod, 0...100)
        s.stridePeaks = fix(stridePeaks, d.stridePeaks, 1...1000)
        return s
    }
}
