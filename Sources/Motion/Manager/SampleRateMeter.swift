/// The rate at which samples actually arrive, from their timestamps: samples counted over windows
/// of at least `window` seconds, the last full window's rate kept. A nominal rate says what a
/// device was asked for; this says what it delivers (Bluetooth pads drop to half their rate,
/// IIO buffers batch, replays stall).
struct SampleRateMeter: Hashable, Sendable {
    var window = 1.0
    /// Samples per second over the last full window; nil until one has passed.
    private(set) var rate: Double?
    private var windowStart: Double?
    private var count = 0

    mutating func add(timestamp t: Double) {
        guard t.isFinite else { return }
        guard let start = windowStart, t >= start else {
            // first sample, or time went backwards (a looping replay): start a new window
            windowStart = t
            count = 0
            return
        }
        count += 1
        let elapsed = t - start
        guard elapsed >= window else { return }
        rate = Double(count) / elapsed
        windowStart = t
        count = 0
    }

    /// Forgets everything (a new source, a reconnect).
    mutating func reset() { self = SampleRateMeter(window: window) }
}
