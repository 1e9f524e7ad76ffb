/// The activity classifier's settings: window geometry, the per-window thresholds and how much
/// agreement a change needs. Every field says its unit; `.default` holds the values below.
///
///     var settings = MotionActivitySettings.default
///     settings.hop = 0.5                         // a window every 0.5 s
///     var classifier = MotionActivityClassifier(settings: settings)
///
/// Where the numbers come from. "Measured" means per-window values of these features (4 s
/// windows, 1 s hop) on MotionSense (iPhone 6s, front trouser pocket; MIT), the Oxford Step
/// Counter validation walks (Samsung S6 in hand, pockets, bag, armband, neck pouch; CC BY 4.0)
/// and the x-io sensor_data.csv (hand-held IMU waved about; MIT). `tiltkit activity FILE --windows`
/// prints these features for every window of a recording.
public struct MotionActivitySettings: Hashable, Sendable {
    /// Rate the acceleration is resampled to before analysis, Hz: sources of 50–200 Hz (and jittered
    /// ones) give the same windows. 50 Hz keeps a running step's impact (a few Hz) and is
    /// MotionSense's own rate.
    public var analysisRate = 50.0
    /// Length of a window, seconds: at least two strides of slow walking (a stride ≈ 1.1 s).
    public var windowLength = 4.0
    /// The first window after a start or a gap is cut once this many seconds are buffered.
    public var minimumWindowLength = 2.5
    /// Seconds between windows.
    public var hop = 1.0
    /// Longest gap between samples that is bridged by interpolation, seconds; a longer one restarts.
    public var maximumGap = 0.5

    /// Below this standard deviation of |a| (g) a window is still. Measured: sitting and standing
    /// windows stay under 0.02 g (90th percentile), the x-io board at rest 0.003 g.
    public var stillDeviation = 0.03
    /// …and its direction turns less than this, degrees (RMS from the window's mean): turning a
    /// device over slowly hardly changes |a|. Measured: sitting and standing under 3° (90th
    /// percentile), the x-io board tipped ±60° 20–40°.
    public var stillTiltSpread = 5.0
    /// A periodic window is a gait above this deviation of |a|, g, and only if none of its quarters
    /// is still. Measured: walking with the phone in hand 0.21–0.30 g (medians); a dash-mounted
    /// phone driving stays under 0.07 g (90th percentile) but reached 0.12 g, periodic, on one rough stretch.
    public var gaitDeviation = 0.15
    /// A window this agitated (deviation of |a|, g) counts as walking even without a clean period:
    /// climbing stairs measured 0.32–0.45 g with weak periodicity, the x-io hand gestures at most 0.15 g.
    public var vigorousDeviation = 0.25
    /// Smallest normalised autocorrelation peak (0…1) for a period to count. Measured: walking and
    /// jogging 0.78–0.97 (medians), still windows 0.2–0.3 (noise).
    public var periodicity = 0.4
    /// Step rates of walking and running, steps/s. 100 steps/min marks moderate and 130 steps/min
    /// vigorous walking (Tudor-Locke et al., "Walking cadence and intensity in 21–40 year olds:
    /// CADENCE-adults", IJBNPA 16:8, 2019); runners' metabolically best stride rate at 3 m/s is
    /// 85 strides/min, 170 steps/min (Lieberman et al., J Exp Biol 218:3406, 2015). Outside this
    /// band a period is no gait (the x-io board's 4 Hz wobble).
    public var stepRate: ClosedRange<Double> = 1.0...3.6
    /// A period longer than this (seconds) is a stride, one leg's cycle, so two steps: a phone in a
    /// trouser pocket follows its own leg (MotionSense walking 1.12 s, jogging 0.72 s); in a hand both
    /// show (Oxford hand: 0.6 s and 1.2 s, either gives 1.7 steps/s). Unless two steps in it would
    /// be a running cadence without a running step's impact: then it is one slow step (UCI HAPT's
    /// waist-worn phone climbing stairs every 0.66-0.78 s; `ActivityWindowFeatures.stepRate`).
    public var strideSplitPeriod = 0.65
    /// Running needs this cadence (steps/s: 150 steps/min, between vigorous walking's 130 and
    /// running's 170 cited above; measured: MotionSense jogging 2.7–2.8, walking 1.8–1.9)…
    public var runningStepRate = 2.5
    /// …and a 95th percentile of |a| above this, g (measured: MotionSense jogging 3.0–3.7 g,
    /// walking 2.1–2.5 g; Oxford walks 1.4–2.3 g).
    public var runningPeak = 2.0

    /// Stated heuristic, not validated on licensed data: a vehicle shakes the phone a little all the
    /// time (deviation of |a| in this band, g) without turning it (tilt spread under
    /// `vehicleTiltSpread`) and without a gait period. An unlicensed dash-mounted iPhone drive
    /// (10 Hz) measured 0.005–0.07 g, so stops and smooth roads read as still.
    public var vehicleDeviation: ClosedRange<Double> = 0.03...0.15
    /// Degrees (RMS angle of the acceleration from its window mean).
    public var vehicleTiltSpread = 8.0
    /// Stated heuristic, not validated: pedalling swings a pocketed thigh through a periodic tilt
    /// (RMS degrees in this band, at `pedalRate`) with little impact (|a| 95th percentile under
    /// `cyclingPeak`, g). Walking with a phone in a bag or armband sometimes looks like this too
    /// (4–7 % of Oxford windows), hence the longer confirmation.
    public var cyclingTiltSpread: ClosedRange<Double> = 12...35
    /// Pedal revolutions per second (40–120 rpm).
    public var pedalRate: ClosedRange<Double> = 0.67...2.0
    public var cyclingPeak = 1.5

    /// A new call needs this many of the last `of` windows to agree (stationary, walking, running):
    /// 3 of 4 at a 1 s hop calls a change about 3–4 s after it happened, and one odd
    /// window cannot flip it.
    public var confirmation = Agreement(count: 3, of: 4)
    /// Automotive and cycling, whose evidence is weaker, and unknown (no evidence) need longer agreement.
    public var slowConfirmation = Agreement(count: 8, of: 10)

    public struct Agreement: Hashable, Sendable {
        public var count: Int
        public var of: Int
        public init(count: Int, of: Int) {
            self.count = count
            self.of = of
        }
    }

    public init() {}

    public static let `default` = MotionActivitySettings()

    /// Samples per window and per hop at `analysisRate`, at least a few.
    var windowSamples: Int { Swift.max(8, Int((windowLength * analysisRate).rounded())) }
    var minimumWindowSamples: Int { Swift.max(8, Swift.min(windowSamples, Int((minimumWindowLength * analysisRate).rounded()))) }
    var hopSamples: Int { Swift.max(1, Int((hop * analysisRate).rounded())) }
}
