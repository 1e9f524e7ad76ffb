import Motion

/// Tells a hand pushing the device in strokes from a gait, over the activity window (4 s). Both
/// jolt |acceleration| at a step's cadence, but by different causes, each a rule here:
/// - a gait's jolts come from the feet, along gravity; a hand pushes along any axis
///   (`verticalShare` below 0.3);
/// - strong steps land hard, a heel strike's spike above 1 g over a flatter swing, so |a| is
///   skewed; a hand speeds the device up and slows it as much (|a| spread ≥ 0.5 g, skew < 0.4);
/// - each step lifts the body alike, so the vertical acceleration one step apart repeats; a hand's
///   stroke down then up reverses it half a stroke later, and the classifier counts a stroke as a
///   stride of two steps (correlation one step apart below −0.45).
/// Measured (these measures logged at each of the gate's windows while the rules were chosen) on
/// every window the classifier takes for a gait in all MotionSense walks, jogs and stairs, mPower's
/// walk and the 12 Oxford walks (hand, armband, bag, neck pouch, pockets): share ≥ 0.37, skew ≥ 0.65 where the spread
/// is ≥ 0.5 g, correlation ≥ −0.35; BROAD's fast translation trial 15 (hand strokes): 190 of its 206
/// gait-looking windows meet a rule.
public struct HandStrokes: Sendable {
    /// Seconds of motion measured, the activity window's length.
    public static let span = 4.0

    private var samples: [(t: Double, vertical: Double, horizontal: Vector3, magnitude: Double)] = []

    public init() {}

    public mutating func push(_ motion: DeviceMotion) {
        let g = motion.gravity, a = motion.userAcceleration
        let length = g.length
        guard motion.timestamp.isFinite, a.isFinite, g.isFinite, length > 0.5 else { return }
        let down = g / length
        let vertical = a.dot(down)
        if let last = samples.last, motion.timestamp <= last.t { return }
        samples.append((motion.timestamp, vertical, a - down * vertical, (g + a).length))
        let cut = samples.firstIndex { $0.t >= motion.timestamp - Self.span } ?? 0
        if cut > 64 { samples.removeFirst(cut) }
    }

    public struct Measures: Sendable {
        /// Share of the user acceleration's spread along gravity, 0–1 (RMS over RMS).
        public var verticalShare: Double
        /// Standard deviation of |acceleration|, g.
        public var magnitudeDeviation: Double
        /// Skewness of |acceleration|: a gait's impacts make it positive.
        public var magnitudeSkew: Double
    }

    /// Over the last `span` seconds; nil with fewer than 50 samples.
    public var measures: Measures? {
        guard let end = samples.last?.t else { return nil }
        let window = samples.filter { $0.t > end - Self.span }
        guard window.count >= 50 else { return nil }
        let n = Double(window.count)
        let meanV = window.reduce(0) { $0 + $1.vertical } / n
        let meanH = window.reduce(Vector3.zero) { $0 + $1.horizontal } / n
        let meanM = window.reduce(0) { $0 + $1.magnitude } / n
        var vv = 0.0, hh = 0.0, m2 = 0.0, m3 = 0.0
        for s in window {
            vv += (s.vertical - meanV) * (s.vertical - meanV)
            hh += (s.horizontal - meanH).lengthSquared
            let d = s.magnitude - meanM
            m2 += d * d
            m3 += d * d * d
        }
        let deviation = (m2 / n).squareRoot()
        return Measures(verticalShare: vv + hh > 0 ? (vv / (vv + hh)).squareRoot() : 1,
                        magnitudeDeviation: deviation,
                        magnitudeSkew: deviation > 0 ? m3 / n / (deviation * deviation * deviation) : 0)
    }

    /// Sideways strokes: less than this share of the spread along gravity.
    public static let sidewaysShare = 0.3
    /// Strong smooth strokes: |a| spread at least this (g) with a skew below `impactSkew`.
    public static let strongDeviation = 0.5
    public static let impactSkew = 0.4

    public static let reversedSteps = -0.45

    /// Which rule tells strokes from steps.
    public enum Evidence: Sendable {
        /// The spread is mostly across gravity.
        case sideways
        /// Strong jolts without a heel strike's skew.
        case smooth
        /// The vertical acceleration reverses one step apart. A phone in a trouser pocket follows
        /// its own leg, whose swing reverses half a stride later too: a pocketed gait meets this
        /// rule in runs of windows (up to 8 in a row on MotionSense stairs slowed to a slower climber's pace).
        case reversedSteps
    }

    /// The first rule the jolts meet, nil when they are steps; `stepRate` is the classifier's (steps/s).
    public func evidence(stepRate: Double?) -> Evidence? {
        guard let m = measures else { return nil }
        if m.verticalShare < Self.sidewaysShare { return .sideways }
        if m.magnitudeDeviation >= Self.strongDeviation && m.magnitudeSkew < Self.impactSkew { return .smooth }
        guard let rate = stepRate, rate > 0, let c = verticalCorrelation(lag: 1 / rate) else { return nil }
        return c < Self.reversedSteps ? .reversedSteps : nil
    }

    /// The jolts are a hand's strokes, not steps; `stepRate` is the classifier's (steps/s).
    public func areHandStrokes(stepRate: Double?) -> Bool { evidence(stepRate: stepRate) != nil }

    /// Autocorrelation of the vertical acceleration at `lag` seconds (normalised, unbiased), over
    /// the last `span` seconds; nil without enough samples.
    public func verticalCorrelation(lag: Double) -> Double? {
        guard let end = samples.last?.t, lag > 0 else { return nil }
        let window = samples.filter { $0.t > end - Self.span }
        guard window.count >= 50, let first = window.first else { return nil }
        let interval = (end - first.t) / Double(window.count - 1)
        let k = Int((lag / interval).rounded())
        guard k > 0, k < window.count / 2 else { return nil }
        let mean = window.reduce(0) { $0 + $1.vertical } / Double(window.count)
        let x = window.map { $0.vertical - mean }
        let energy = x.reduce(0) { $0 + $1 * $1 } / Double(x.count)
        guard energy > 1e-12 else { return nil }
        var sum = 0.0
        for i in 0..<(x.count - k) { sum += x[i] * x[i + k] }
        return sum / Double(x.count - k) / energy
    }

    public mutating func reset() { samples.removeAll() }
}
