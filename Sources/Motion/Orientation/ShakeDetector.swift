/// Recognises a shake: user acceleration that repeatedly reverses direction, strongly, within a
/// short window. Event in (`update`), shake out; after a shake it stays quiet for a refractory time
/// so one shake is reported once.
///
///     var shakes = ShakeDetector()
///     if let shake = shakes.update(motion) { game.undo() }
///
/// A sample counts as a swing when |userAcceleration| ≥ `threshold`; a reversal is a swing whose
/// direction is more than 90° from the previous swing's. `requiredReversals` reversals within
/// `window` seconds make a shake. A single knock (one spike and its rebound) gives at most one
/// reversal, so it is not a shake.
public struct ShakeDetector: Sendable {
    public struct Settings: Hashable, Sendable {
        /// Smallest user acceleration that counts as a swing, g.
        public var threshold: Double
        /// Reversals needed within `window`.
        public var requiredReversals: Int
        /// Seconds the reversals must fall in.
        public var window: Double
        /// Seconds after a shake during which no new shake is reported.
        public var refractoryTime: Double

        public init(threshold: Double = 0.8, requiredReversals: Int = 3, window: Double = 0.8,
                    refractoryTime: Double = 1.0) {
            self.threshold = threshold
            self.requiredReversals = requiredReversals
            self.window = window
            self.refractoryTime = refractoryTime
        }

        public static let `default` = Settings()
    }

    /// A recognised shake.
    public struct Shake: Hashable, Sendable {
        /// Seconds, the timestamp of the sample that completed the shake.
        public var timestamp: Double
        /// Reversals counted in the window.
        public var reversals: Int
        /// Largest |user acceleration| in the shake, g.
        public var peakAcceleration: Double
    }

    public var settings: Settings
    /// Timestamps of the reversals still inside the window, oldest first.
    private var reversalTimes: [Double] = []
    /// Direction (unit) of the last swing, if it is recent enough to pair with the next.
    private var lastSwing: (direction: Vector3, timestamp: Double)?
    private var peak = 0.0
    private var quietUntil = -Double.infinity

    public init(settings: Settings = .default) { self.settings = settings }

    /// Feeds one sample: user acceleration in g at `timestamp` seconds. Returns a shake when one completes.
    public mutating func update(userAcceleration a: Vector3, timestamp t: Double) -> Shake? {
        guard a.isFinite, t.isFinite else { return nil }
        if t < quietUntil { return nil }
        reversalTimes.removeAll { t - $0 > settings.window }
        if let swing = lastSwing, t - swing.timestamp > settings.window { lastSwing = nil }
        if reversalTimes.isEmpty && lastSwing == nil { peak = 0 }

        let magnitude = a.length
        guard magnitude >= settings.threshold else { return nil }
        peak = Swift.max(peak, magnitude)
        let direction = a / magnitude
        if let swing = lastSwing, swing.direction.dot(direction) < 0 { reversalTimes.append(t) }
        lastSwing = (direction, t)

        guard reversalTimes.count >= settings.requiredReversals else { return nil }
        let shake = Shake(timestamp: t, reversals: reversalTimes.count, peakAcceleration: peak)
        reversalTimes.removeAll()
        lastSwing = nil
        peak = 0
        quietUntil = t + settings.refractoryTime
        return shake
    }

    /// `update` from a device-motion sample's user acceleration.
    public mutating func update(_ motion: DeviceMotion) -> Shake? {
        update(userAcceleration: motion.userAcceleration, timestamp: motion.timestamp)
    }
}
