/// The talk's gesture test: pushed samples of one signal fill a ring buffer; when the
/// buffer's mean crosses a threshold the gesture fires at the next frame, and not again
/// within a refractory time, so one flick is one jump.
///
/// Crossing, not being beyond: a mean that stays past the threshold (a long push) fires
/// once. The crossing sample's timestamp is kept so the latency to the frame is measurable.
public struct GestureDetector: Hashable, Sendable {
    public struct Settings: Hashable, Sendable {
        /// Samples in the ring buffer.
        public var bufferLength: Int
        /// In the signal's unit. Positive: fires when the mean rises to it or above;
        /// negative: when the mean falls to it or below.
        public var threshold: Double
        /// Seconds after a firing during which a new crossing is ignored.
        public var refractory: Double

        public init(bufferLength: Int, threshold: Double, refractory: Double) {
            self.bufferLength = bufferLength
            self.threshold = threshold
            self.refractory = refractory
        }
    }

    /// A firing as the game sees it.
    public struct Firing: Hashable, Sendable {
        /// Timestamp (source clock, s) of the sample whose arrival made the mean cross.
        public var crossingTimestamp: Double
        /// Buffer mean at the crossing, in the signal's unit.
        public var mean: Double
    }

    public var settings: Settings { didSet { buffer = RingBuffer(capacity: settings.bufferLength); wasBeyond = false } }
    private var buffer: RingBuffer
    private var wasBeyond = false
    private var pending: Firing?
    private var lastFiring: Double = -.infinity

    public init(settings: Settings) {
        self.settings = settings
        buffer = RingBuffer(capacity: settings.bufferLength)
    }

    /// Latest buffer mean, in the signal's unit (for HUD gauges and calibration).
    public var mean: Double { buffer.mean }

    /// Adds one pushed sample. Non-finite values are dropped (a filter hiccup must not fire).
    /// `armed` false lets the sample into the buffer but stops it from firing (a guard the
    /// caller evaluates, such as "the device is not turning fast").
    public mutating func push(_ value: Double, timestamp: Double, armed: Bool = true) {
        guard value.isFinite, timestamp.isFinite else { return }
        buffer.append(value)
        guard buffer.isFull else { return }
        let mean = buffer.mean
        let beyond = settings.threshold >= 0 ? mean >= settings.threshold : mean <= settings.threshold
        if beyond && !wasBeyond && armed && pending == nil && timestamp - lastFiring >= settings.refractory {
            pending = Firing(crossingTimestamp: timestamp, mean: mean)
        }
        // Unarmed, a mean beyond the threshold is not yet "crossed": it may fire once armed.
        wasBeyond = beyond && (armed || wasBeyond)
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
