/// Stamps a device's samples: the pad's own sensor clock where it runs, arrival time where it does
/// not.
///
/// A pad's counter (`DeviceClock`) measures the real spacing of its samples far better than the
/// host's read times, which Bluetooth and USB polling bunch together. But some pads' clocks stand
/// still (third-party DualShock 4s; InputPlumber issue 715; hid-tools' models), wrap unseen during
/// a gap, or jump when the pad restarts. Trusting such a clock makes fusion integrate a real turn
/// over microseconds, so each sample is checked against the host clock:
/// - the counter did not move: the sample is stamped with its arrival time (counted);
/// - the sample would be stamped more than `tolerance` in the future, or later than a reader's
///   scheduling delay explains (`latencyLimit`: an unseen counter wrap): re-anchored (counted);
/// - otherwise: anchor + device time; the anchor follows the earliest arrivals and creeps later
///   no faster than a crystal can drift, so the stamps keep the pad's spacing.
///
///     var stamper = SensorTimestamper(clock: .dualShock4)
///     let t = stamper.timestamp(ticks: report.ticks, hostTime: clock.now())
public struct SensorTimestamper: Sendable {
    /// What happened to the pad's clock so far.
    public struct Statistics: Hashable, Sendable {
        /// Samples stamped with their arrival time because the pad's counter did not move.
        public var arrivalStamped = 0
        /// Times the pad's clock disagreed with the host's by more than the tolerance (a wrap
        /// during a gap, a jump, a restart) and was re-anchored.
        public var resynchronised = 0
        /// True while the pad's counter is standing still.
        public var clockStalled = false

        public init() {}
    }

    /// How far, in seconds, a stamp may lie in the future before the pad's clock is taken to
    /// have jumped: above Bluetooth's bunching of reports (tens of ms).
    public static let tolerance = 0.1
    /// How late a sample may be read before its pad's clock is taken to have lost time: a
    /// reader the scheduler held back (a host that stalls for seconds: swapping, a debugger, an
    /// emulated CPU) is late but its pad's stamps are right, and its backlog, read in a burst,
    /// must keep them; so up to `readerStallLimit`, but below half the counter's period
    /// (DualShock 4: 349.5 ms), so an unseen wrap is caught. Without a counter, 1 s.
    public var latencyLimit: Double { min(Self.readerStallLimit, (clock?.wrapPeriod ?? 2) / 2) }
    /// The longest reader stall a long-period counter (DualSense: 23.9 minutes) rides through.
    static let readerStallLimit = 5.0
    /// How fast the anchor may creep later, as a fraction of elapsed device time: enough for any
    /// pad crystal (±100 ppm typical), so small that arrival jitter cannot shape the stamps.
    static let maximumDrift = 5e-4
    /// Spacing forced between samples whose stamps would not increase.
    static let minimumStep = 1e-6

    public private(set) var statistics = Statistics()
    private var clock: DeviceClock?
    private var anchor: Double?
    private var lastDeviceTime: Double?
    private var last: Double?

    /// `clock` nil: the device has no usable counter, every sample is stamped on arrival.
    public init(clock: DeviceClock?) { self.clock = clock }

    /// Forget the history (after a reconnect the pad's counter restarted).
    public mutating func reset() {
        clock?.reset()
        anchor = nil
        lastDeviceTime = nil
        last = nil
        statistics.clockStalled = false
    }

    /// The timestamp, in host seconds, of a sample whose counter read `ticks` and which arrived at
    /// `hostTime`. Strictly increasing.
    public mutating func timestamp(ticks: UInt32?, hostTime: Double) -> Double {
        guard var deviceClock = clock, let ticks else { return increasing(hostTime) }
        let deviceTime = deviceClock.seconds(ticks: ticks)
        clock = deviceClock
        return timestamp(deviceSeconds: deviceTime, hostTime: hostTime)
    }

    /// Timestamps for samples read together at `hostTime`, oldest first: a backlog that queued
    /// while the reader was busy (opening the pad, reading its calibration, a stall), drained at
    /// once. Stamped one by one on arrival, every sample after the first would pull the anchor
    /// earlier, the backlog would bunch at the read, and fusion would integrate its span of
    /// rotation over microseconds; so each arrives as `arrivalTimes` says.
    public mutating func timestamps(ticks: [UInt32], hostTime: Double) -> [Double] {
        guard var deviceClock = clock else { return ticks.map { _ in increasing(hostTime) } }
        let deviceTimes = ticks.map { deviceClock.seconds(ticks: $0) }
        clock = deviceClock
        return zip(deviceTimes, Self.arrivalTimes(deviceTimes, readAt: hostTime)).map {
            timestamp(deviceSeconds: $0, hostTime: $1)
        }
    }

    /// When each of samples read together arrived, as far as the host can tell: the newest at
    /// `readAt`, the older ones earlier by the spacing of their own stamps (they were queued, not
    /// measured at once), so that a batch does not collapse into one instant. Without usable
    /// stamps (none, or not increasing: a clock that stands still or restarted) all at `readAt`.
    static func arrivalTimes(_ deviceTimes: [Double?], readAt: Double) -> [Double] {
        let stamps = deviceTimes.compactMap { $0 }
        guard stamps.count == deviceTimes.count, let last = stamps.last,
              zip(stamps, stamps.dropFirst()).allSatisfy({ $0 < $1 }) else {
            return deviceTimes.map { _ in readAt }
        }
        return stamps.map { readAt - (last - $0) }
    }

    /// The same for a device whose clock is already in seconds (an IIO buffer's `in_timestamp`,
    /// on whatever `current_timestamp_clock` the driver uses: realtime by default, and some
    /// drivers' stamps never move); nil: stamped on arrival.
    public mutating func timestamp(deviceSeconds: Double?, hostTime: Double) -> Double {
        guard let deviceTime = deviceSeconds else { return increasing(hostTime) }
        defer { lastDeviceTime = deviceTime }
        if let previous = lastDeviceTime, deviceTime == previous {
            statistics.arrivalStamped += 1
            statistics.clockStalled = true
            anchor = nil
            return increasing(hostTime)
        }
        statistics.clockStalled = false
        guard let current = anchor else {
            anchor = hostTime - deviceTime
            return increasing(hostTime)
        }
        let offset = hostTime - (current + deviceTime)
        if offset < -Self.tolerance || offset > latencyLimit {
            statistics.resynchronised += 1
            anchor = hostTime - deviceTime
            return increasing(hostTime)
        }
        // A sample cannot arrive before it was measured: a negative offset moves the anchor at
        // once; a positive one (latency, or a pad clock running slow) only at the drift rate.
        let elapsed = deviceTime - (lastDeviceTime ?? deviceTime)
        anchor = current + (offset < 0 ? offset : min(offset, Self.maximumDrift * elapsed))
        return increasing(anchor! + deviceTime)
    }

    /// Stamps for `count` samples that arrived together (a Nintendo report carries three):
    /// spread over `interval` seconds before `hostTime`, oldest first, on arrival time.
    public mutating func arrivalTimestamps(count: Int, interval: Double, hostTime: Double) -> [Double] {
        let step = interval / Double(count)
        var times = (0..<count).map { hostTime - Double(count - 1 - $0) * step }
        // Shift the whole report rather than squeeze its samples together.
        if let last, let first = times.first, first <= last {
            times = times.map { $0 + last + Self.minimumStep - first }
        }
        last = times.last ?? last
        return times
    }

    private mutating func increasing(_ t: Double) -> Double {
        var t = t
        if let last, t <= last { t = last + Self.minimumStep }
        last = t
        return t
    }
}

extension SensorTimestamper.Statistics {
    /// Phrases for a status line; empty while the clock behaves.
    public var notes: [String] {
        var notes: [String] = []
        if arrivalStamped > 0 {
            notes.append("\(arrivalStamped) stamped on arrival (\(clockStalled ? "the pad's clock stands still" : "its clock stood still"))")
        }
        if resynchronised > 0 { notes.append("clock resynchronised \(resynchronised)×") }
        return notes
    }
}
