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
/// Settling: the anchor is host − device time of the earliest arrival, but right after an open the
/// reader is often late (the first read after a replug came 16–87 ms after the pad sent it in an
/// emulated VM, the reads after it promptly), and every timelier arrival then pulls the anchor
/// earlier at once, squeezing the steps just after the open by the whole first delay. So with
/// `settlingWindow` > 0 and a counter, the samples of the first `settlingWindow` seconds of reads
/// after an open (`init`, `reset()`) are held, the anchor is the least host − device offset among
/// them (a sample cannot arrive before it was measured), and they are then stamped together; a
/// counter that stands still, jumps, or a sample without one ends the window early. The cost is
/// that delay once per open: the first sample comes `settlingWindow` later (50 ms), the last held
/// one a few ms. Samples still held when the device goes away or goes quiet come out by `flush()`.
///
///     var stamper = SensorTimestamper(clock: .dualShock4, settlingWindow: SensorTimestamper.settlingWindow)
///     let stamps = stamper.timestamps(ticks: [report.ticks], hostTime: clock.now())
///     // stamps for the oldest samples not yet stamped: none while settling, then the held ones
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
    /// How long, in host seconds from the first read after an open, samples are held to find the
    /// pad's least latency: a dozen reports at 250 Hz, several reads of an emulated CPU's uneven
    /// reader; short enough that an app sees motion as the pad comes up.
    public static let settlingWindow = 0.05

    public private(set) var statistics = Statistics()
    /// 0: every sample is stamped as it comes (no settling).
    public let settlingWindow: Double
    private var clock: DeviceClock?
    private var anchor: Double?
    private var lastDeviceTime: Double?
    private var last: Double?
    /// Until the first window after an open has passed.
    private var settling: Bool
    /// Samples held while settling, oldest first, and the host time of the first read among them.
    private var held: [(device: Double, host: Double)] = []
    private var firstRead: Double?

    /// `clock` nil: the device has no usable counter, every sample is stamped on arrival (and none
    /// is held). `settlingWindow`: seconds to hold the first samples after an open (0: none).
    public init(clock: DeviceClock?, settlingWindow: Double = 0) {
        self.clock = clock
        self.settlingWindow = settlingWindow
        settling = clock != nil && settlingWindow > 0
    }

    /// Samples held while the stamper settles, not yet stamped.
    public var heldCount: Int { held.count }

    /// Forget the history (after a reconnect the pad's counter restarted). Samples still held are
    /// dropped: `flush()` first.
    public mutating func reset() {
        clock?.reset()
        anchor = nil
        lastDeviceTime = nil
        last = nil
        statistics.clockStalled = false
        held.removeAll()
        firstRead = nil
        settling = clock != nil && settlingWindow > 0
    }

    /// Timestamps, in host seconds, for the oldest samples not yet stamped, oldest first: the held
    /// ones, then the newest with them; none while the stamper settles. `ticks`: the counter of
    /// each of samples read together at `hostTime`, oldest first (one, or a backlog that queued
    /// while the reader was busy: opening the pad, reading its calibration, a stall). Strictly
    /// increasing.
    ///
    /// Stamped one by one on arrival, every sample of a backlog after the first would pull the
    /// anchor earlier, the backlog would bunch at the read, and fusion would integrate its span of
    /// rotation over microseconds; so each arrives as `arrivalTimes` says.
    public mutating func timestamps(ticks: [UInt32], hostTime: Double) -> [Double] {
        guard var deviceClock = clock else { return ticks.map { _ in increasing(hostTime) } }
        let deviceTimes = ticks.map { deviceClock.seconds(ticks: $0) }
        clock = deviceClock
        var stamps: [Double] = []
        for (device, arrival) in zip(deviceTimes, Self.arrivalTimes(deviceTimes, readAt: hostTime)) {
            stamps += settle(device: device, arrival: arrival, readAt: hostTime)
        }
        return stamps
    }

    /// The same for one sample; `ticks` nil (a frame without a counter) is stamped on arrival,
    /// after any held samples.
    public mutating func timestamps(ticks: UInt32?, hostTime: Double) -> [Double] {
        guard let ticks else { return flush() + [increasing(hostTime)] }
        return timestamps(ticks: [ticks], hostTime: hostTime)
    }

    /// Stamps for the samples held so far (the device went away, the stream ended, nothing came
    /// for a while), anchored on the least offset among them; settling is over if any were held.
    public mutating func flush() -> [Double] {
        guard settling, let best = held.map({ $0.host - $0.device }).min() else { return [] }
        settling = false
        // Stamped back from the newest sample of least offset (ties are a backlog's spread
        // arrivals, equal but for rounding), which keeps its own arrival exactly.
        let k = held.lastIndex { $0.host - $0.device <= best + 1e-9 }!
        let reference = held[k]
        anchor = reference.host - reference.device
        let stamps = held.indices.map { increasing($0 == k ? reference.host : reference.host - (reference.device - held[$0].device)) }
        lastDeviceTime = held.last?.device
        held.removeAll()
        return stamps
    }

    /// Holds a sample while settling; the stamps due once the window is over or cut short.
    private mutating func settle(device: Double, arrival: Double, readAt: Double) -> [Double] {
        guard settling else { return [stamp(device: device, hostTime: arrival)] }
        if let previous = held.last {
            // A counter that stands still or goes back, or an offset from the held ones' larger
            // than a reader's delay explains either way (an unseen wrap, a jump): no anchor to
            // settle; the usual checks take it. An earlier arrival within it is what settling is
            // for: the held ones were read late (an emulated CPU's starved reader: 237 ms).
            let best = held.map { $0.host - $0.device }.min()!
            let offset = arrival - (best + device)
            if device <= previous.device || abs(offset) > latencyLimit {
                return flush() + [stamp(device: device, hostTime: arrival)]
            }
        }
        held.append((device, arrival))
        let first = firstRead ?? readAt
        firstRead = first
        return readAt - first >= settlingWindow ? flush() : []
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

    /// The timestamp of one sample stamped `deviceSeconds` on a clock already in seconds (an IIO
    /// buffer's `in_timestamp`, on whatever `current_timestamp_clock` the driver uses: realtime by
    /// default, and some drivers' stamps never move) that arrived at `hostTime`; nil: stamped on
    /// arrival. Never held: such a stamper has no `DeviceClock`, so it does not settle.
    public mutating func timestamp(deviceSeconds: Double?, hostTime: Double) -> Double {
        guard let deviceTime = deviceSeconds else { return increasing(hostTime) }
        return stamp(device: deviceTime, hostTime: hostTime)
    }

    private mutating func stamp(device deviceTime: Double, hostTime: Double) -> Double {
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
