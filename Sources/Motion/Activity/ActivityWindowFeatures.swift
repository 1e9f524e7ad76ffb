import Foundation

/// What the classifier measures in one window of resampled acceleration, and the activity the
/// window alone suggests (`vote`). Orientation-free: |a| (gravity included) and the spread of the
/// acceleration's direction, so any placement and holding pose works.
public struct ActivityWindowFeatures: Hashable, Sendable {
    /// Seconds on the source's clock.
    public var start: Double
    public var end: Double
    /// Standard deviation of |a|, g: stillness, vibration or impacts.
    public var magnitudeDeviation: Double
    /// The smallest deviation of |a| (g) over the window's four quarters: a gait fills the window,
    /// a knock or a pick-up leaves a quarter still.
    public var quietestQuarterDeviation: Double
    /// 95th percentile of |a|, g: the impact of steps (robust to one spike).
    public var magnitudePeak: Double
    /// The strongest repetition of |a| between 0.25 and 1.3 s (a step or a stride), nil if none.
    public var magnitudePeriod: Double?
    /// Its autocorrelation, 0 without a period.
    public var magnitudePeriodicity: Double
    /// Steps per second from `magnitudePeriod` (a period above `strideSplitPeriod` is two steps).
    public var stepRate: Double?
    /// RMS angle of the acceleration's direction from the window's mean direction, degrees.
    public var tiltSpread: Double
    /// The strongest repetition of the direction (its most varying component), seconds, and strength.
    public var tiltPeriod: Double?
    public var tiltPeriodicity: Double

    /// `magnitudes` in g and `directions` (unit vectors) sampled at `rate` Hz from `start`.
    init(magnitudes: [Double], directions: [Vector3], rate: Double, start: Double, settings: MotionActivitySettings) {
        let n = magnitudes.count
        self.start = start
        end = start + Double(n) / rate
        let mean = magnitudes.reduce(0, +) / Double(Swift.max(1, n))
        magnitudeDeviation = (magnitudes.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / Double(Swift.max(1, n))).squareRoot()
        quietestQuarterDeviation = (0..<4).map { q in
            Self.variance(Array(magnitudes[(q * n / 4)..<((q + 1) * n / 4)])).squareRoot()
        }.min() ?? 0
        let sorted = magnitudes.sorted()
        magnitudePeak = sorted.isEmpty ? 0 : sorted[Swift.min(n - 1, Int(0.95 * Double(n - 1)))]
        let gait = Periodicity.strongest(in: magnitudes, rate: rate, periods: 0.25...1.3)
        magnitudePeriod = gait?.period
        magnitudePeriodicity = gait?.strength ?? 0
        let peak = magnitudePeak
        stepRate = gait.map { Self.stepRate(period: $0.period, peak: peak, settings) }

        var sum = Vector3.zero
        for d in directions { sum += d }
        let axis = sum.normalized
        var squares = 0.0
        for d in directions {
            let angle = acos(Swift.max(-1, Swift.min(1, d.dot(axis)))) * 180 / Double.pi
            squares += angle * angle
        }
        tiltSpread = directions.isEmpty ? 0 : (squares / Double(directions.count)).squareRoot()
        // The component that swings most carries a pedalling (or any rocking) rhythm.
        let components: [[Double]] = [directions.map(\.x), directions.map(\.y), directions.map(\.z)]
        let swinging = components.max { Self.variance($0) < Self.variance($1) } ?? []
        let rocking = Periodicity.strongest(in: swinging, rate: rate,
                                            periods: (1 / settings.pedalRate.upperBound)...(1 / settings.pedalRate.lowerBound))
        tiltPeriod = rocking?.period
        tiltPeriodicity = rocking?.strength ?? 0
    }

    /// Steps per second in a repetition of `period` seconds. A period above `strideSplitPeriod` is a
    /// stride, two steps (a phone in a trouser pocket follows its own leg) - unless two steps in it
    /// would be a running cadence without a running step's impact (`peak`, g): then it is one slow
    /// step, as a device on the waist or in a hand sees every step. Measured on UCI HAPT's waist-worn
    /// phone: climbing stairs repeats every 0.66-0.78 s at a 95th percentile of 1.4-1.6 g, which read
    /// as strides gave 2.6-3.0 steps/s, a jog without a jog's impact, and no gait at all.
    static func stepRate(period: Double, peak: Double, _ s: MotionActivitySettings) -> Double {
        guard period > s.strideSplitPeriod else { return 1 / period }
        let twoSteps = 2 / period
        return twoSteps >= s.runningStepRate && peak < s.runningPeak ? 1 / period : twoSteps
    }

    private static func variance(_ x: [Double]) -> Double {
        guard !x.isEmpty else { return 0 }
        let m = x.reduce(0, +) / Double(x.count)
        return x.reduce(0) { $0 + ($1 - m) * ($1 - m) } / Double(x.count)
    }

    /// Gait evidence anywhere in the window, even if part of it is still: the start of a walk, a
    /// second or two in, before a whole window is filled. A vote needs the whole window.
    public func showsGait(_ s: MotionActivitySettings) -> Bool {
        let rate = stepRate ?? 0
        let periodicGait = magnitudeDeviation >= s.gaitDeviation && magnitudePeriodicity >= s.periodicity
            && s.stepRate.contains(rate) && (rate < s.runningStepRate || magnitudePeak >= s.runningPeak)
        return periodicGait || magnitudeDeviation >= s.vigorousDeviation
    }

    /// The activity this window alone suggests; the classifier's hysteresis turns votes into calls.
    public func vote(_ s: MotionActivitySettings) -> MotionActivityKind {
        guard magnitudeDeviation.isFinite, magnitudePeak.isFinite else { return .unknown }
        if magnitudeDeviation < s.stillDeviation && tiltSpread < s.stillTiltSpread { return .stationary }
        // A running cadence without running's impact is no gait (a hand-held wobble at 3 Hz).
        let rate = stepRate ?? 0
        let periodicGait = magnitudeDeviation >= s.gaitDeviation && magnitudePeriodicity >= s.periodicity
            && s.stepRate.contains(rate) && (rate < s.runningStepRate || magnitudePeak >= s.runningPeak)
        if quietestQuarterDeviation >= s.stillDeviation && showsGait(s) {
            return periodicGait && rate >= s.runningStepRate ? .running : .walking
        }
        if s.cyclingTiltSpread.contains(tiltSpread), magnitudePeak < s.cyclingPeak, tiltPeriodicity >= s.periodicity,
           let period = tiltPeriod, s.pedalRate.contains(1 / period) {
            return .cycling
        }
        if s.vehicleDeviation.contains(magnitudeDeviation), tiltSpread < s.vehicleTiltSpread,
           magnitudePeriodicity < s.periodicity {
            return .automotive
        }
        return .unknown
    }
}
