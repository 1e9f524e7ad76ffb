/// GyroWiki's soft tiered smoothing ("Tight and smooth: soft tiered smoothing"): each rate is split
/// by its speed into a direct part, weight w = clamp((|v| − t1)/(t2 − t1), 0, 1), and the rest,
/// which goes through a moving average over `window` seconds. Fast motions (above t2) pass
/// untouched; only the smallest (below t1) are fully smoothed, hiding sensor noise and hand tremor.
public struct TieredSmoothing: Sendable {
    public struct Settings: Hashable, Sendable {
        /// Speeds, °/s, of the aim before sensitivity: below `lowerSpeed` fully smoothed, above
        /// `upperSpeed` not at all. GyroWiki suggests the lower threshold at half the upper.
        public var lowerSpeed: Double
        public var upperSpeed: Double
        /// Averaging window, seconds (GyroWiki: about 0.125 s).
        public var window: Double

        public init(lowerSpeed: Double, upperSpeed: Double, window: Double = 0.125) {
            self.lowerSpeed = lowerSpeed
            self.upperSpeed = upperSpeed
            self.window = window
        }

        /// Tiltkit's choice, not a figure from the sources: smooth only what is slower than 5 °/s
        /// (hand tremor, sensor noise), so deliberate aiming, tens of °/s, is never delayed.
        public static let `default` = Settings(lowerSpeed: 2.5, upperSpeed: 5)

        /// The direct part's weight at `speed` °/s.
        public func directWeight(atSpeed speed: Double) -> Double {
            guard upperSpeed > lowerSpeed else { return speed >= upperSpeed ? 1 : 0 }
            return min(1, max(0, (speed - lowerSpeed) / (upperSpeed - lowerSpeed)))
        }
    }

    public let settings: Settings
    // Ring of (rate, dt) for the smoothed parts: fixed capacity, so no allocation per sample.
    private var rates: [AimRate]
    private var durations: [Double]
    private var head = 0
    private var count = 0

    public init(_ settings: Settings, capacity: Int = 512) {
        self.settings = settings
        rates = Array(repeating: .zero, count: capacity)
        durations = Array(repeating: 0, count: capacity)
    }

    /// The smoothed rate for `rate` (rad/s) held for `dt` seconds.
    public mutating func smooth(_ rate: AimRate, dt: Double) -> AimRate {
        let w = settings.directWeight(atSpeed: rate.magnitude * 180 / Double.pi)
        push(rate * (1 - w), dt: dt)
        return rate * w + average()
    }

    public mutating func reset() { count = 0; head = 0 }

    private mutating func push(_ rate: AimRate, dt: Double) {
        rates[head] = rate
        durations[head] = max(0, dt)
        head = (head + 1) % rates.count
        count = min(count + 1, rates.count)
    }

    /// The time-weighted mean over the newest `window` seconds (the newest sample always counts).
    private func average() -> AimRate {
        var sum = AimRate.zero
        var time = 0.0
        var i = head
        for n in 0..<count {
            i = (i - 1 + rates.count) % rates.count
            let d = durations[i]
            if n > 0 && time >= settings.window { break }
            let use = n == 0 ? max(d, 1e-9) : min(d, settings.window - time)
            sum = sum + rates[i] * use
            time += use
        }
        return time > 0 ? sum * (1 / time) : .zero
    }
}
