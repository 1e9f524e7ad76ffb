/// The talk's gesture test: pushed samples of one signal fill a ring buffer; when the
/// buffer's mean crosses a threshold the gesture fires at the next frame, and not again
/// within a refractory time, so one flick is one jump.
///
/// Crossing, not being beyond: a mean that stays past the threshold (a long push) fires
/// once. The crossing sample's timestamp and arrival are kept so the latency to the tick is measurable.
public struct GestureDetector: Hashable, Sendable {
    public struct Settings: Hashable, Sendable {
        /// Seconds of samples in the ring buffer (its length is this over the update interval).
        public var window: Double
        /// In the signal's unit. Positive: fires when the mean rises to it or above;
        /// negative: when the mean falls to it or below.
        public var threshold: Double
        /// Seconds after a firing during which a new crossing is ignored.
        public var refractory: Double
        /// Hysteresis: after a crossing the mean must fall back within this fraction of the
        /// threshold (0.5: half of it) before a new crossing counts, so a mean that wobbles
        /// about the threshold during one motion fires once. 1: plain crossing.
        public var rearm: Double

        public init(window: Double, threshold: Double, refractory: Double, rearm: Double = 1) {
            self.window = window
            self.threshold = threshold
            self.refractory = refractory
            self.rearm = rearm
        }

        /// Buffer length for samples `interval` seconds apart, at least one.
        public func sampleCount(every interval: Double) -> Int {
            interval > 0 ? max(1, Int((window / interval).rounded())) : 1
        }
    }

    /// A firing as the game sees it.
    public struct Firing: Hashable, Sendable {
        /// Timestamp (source clock, s) of the sample whose arrival made the mean cross.
        public var crossingTimestamp: Double
        /// When the crossing sample reached the game (its clock, s): the start of the gesture's latency.
        public var arrivalTime: Double
        /// Buffer mean at the crossing, in the signal's unit.
        public var mean: Double
    }

    public var settings: Settings {
        didSet { buffer = RingBuffer(capacity: settings.sampleCount(every: sampleInterval)); wasBeyond = false }
    }
    /// Seconds between pushed samples.
    public let sampleInterval: Double
    private var buffer: RingBuffer
    private var wasBeyond = false
    private var pending: Firing?
    private var lastFiring: Double = -.infinity

    public init(settings: Settings, sampleInterval: Double) {
        self.settings = settings
        self.sampleInterval = sampleInterval
        buffer = RingBuffer(capacity: settings.sampleCount(every: sampleInterval))
    }

    /// Latest buffer mean, in the signal's unit (for HUD gauges and calibration).
    public var mean: Double { buffer.mean }

    /// Adds one pushed sample. Non-finite values are dropped (a filter hiccup must not fire).
    /// `armed` false lets the sample into the buffer but stops it from firing (a guard the
    /// caller evaluates, such as "the device is not turning fast"). `arrivedAt` nil: the timestamp.
    /// `threshold` (nil: the settings') is a stricter level this sample must reach to fire (the
    /// duck's while the device turns); the rearm level stays the settings'.
    public mutating func push(_ value: Double, timestamp: Double, arrivedAt: Double? = nil, armed: Bool = true,
                              threshold: Double? = nil) {
        guard value.isFinite, timestamp.isFinite else { return }
        buffer.append(value)
        guard buffer.isFull else { return }
        let mean = buffer.mean
        let sign = settings.threshold >= 0 ? 1.0 : -1.0
        let beyond = mean * sign >= (threshold ?? settings.threshold) * sign
        let back = mean * sign < settings.threshold * sign * settings.rearm
        if beyond && !wasBeyond && armed && pending == nil && timestamp - lastFiring >= settings.refractory {
            pending = Firing(crossingTimestamp: timestamp, arrivalTime: arrivedAt ?? timestamp, mean: mean)
        }
        // Unarmed, a mean beyond the threshold is not yet "crossed": it may fire once armed.
        // Once crossed, it stays crossed until the mean is back within the rearm level.
        if beyond { wasBeyond = armed || wasBeyond } else if back { wasBeyond = false }
    }

    /// Called just before each frame: the firing since the last frame, if any.
    public mutating func poll() -> Firing? {
        guard let firing = pending else { return nil }
        pending = nil
        lastFiring = firing.crossingTimestamp
        return firing
    }

    /// Forgets the buffer and any pending firing (after a pause, so stale motion cannot fire).
    public mutating func reset() {
        buffer.removeAll()
        wasBeyond = false
        pending = nil
    }
}
