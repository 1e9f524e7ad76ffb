import Histogram
import Motion

/// `bench latency --source` and `bench pull --source`: how a real source (a pad, an IIO IMU, SDL,
/// or a trace replayed in real time) feeds a game. Its report intervals and lost or repeated
/// reports; how long a sample takes from the source's hand-over to being visible to a pull; the
/// age of the sample a game loop pulls at 60, 120 and 144 Hz beside its ideal; what the manager
/// and fusion cost per sample on this stream; and, for `pull`, the pull's own cost.
///
/// One run, in phases on the same stream: the source is noted throughout (`TappedSource`); a
/// consumer first spins on the pull to catch each new sample, then pulls as game loops at each
/// frame rate (one thread, their deadlines merged), then times the pull.
public struct LiveSourceBenchmark {
    public struct Settings: Sendable {
        /// Seconds of the whole run.
        public var duration = 10.0
        public var frameRates: [Double] = [60, 120, 144]
        /// `MotionManager.deviceMotionUpdateInterval`, s: above 0 it asks the device for that rate.
        public var updateInterval = 0.0
        /// Share of the run spent spinning on the pull (arrival → visible).
        public var spinShare = 0.2
        /// Also time the pull itself (`bench pull`).
        public var measurePullCost = false
        /// Give up when the source sends nothing for this long at the start, s.
        public var firstSampleTimeout = 5.0
        /// Seconds left out after the first sample: a source's opening burst (a pad's queued
        /// reports, a replay catching up after reading its file) is not its stream.
        public var settleSeconds = 0.5

        public init() {}
    }

    /// What the source's timestamps are, from the command that made it.
    public struct SampleClock: Sendable {
        /// e.g. "the pad's counter", "trace time", "arrival time".
        public var name: String
        /// The timestamps come from the device (drops and repeats can be counted).
        public var fromDevice: Bool
        /// Repeats the source found itself so far (a pad counter that stood still).
        public var duplicatesSoFar: @Sendable () -> Int

        public init(name: String, fromDevice: Bool, duplicatesSoFar: @escaping @Sendable () -> Int = { 0 }) {
            self.name = name
            self.fromDevice = fromDevice
            self.duplicatesSoFar = duplicatesSoFar
        }
    }

    public var settings: Settings
    public var clock: SampleClock

    public init(settings: Settings = Settings(), clock: SampleClock) {
        self.settings = settings
        self.clock = clock
    }

    /// Runs on `source` (not yet started); `path` names it in the report; `progress` gets the
    /// fraction done and the phase. `pump` is for a source that delivers only while its owner
    /// pumps events on this thread (SDL): it waits up to the seconds given for events and hands
    /// them on. The game loops then pump while they wait for their next frame, as a game's loop
    /// does, and there is no spinning phase (nothing arrives while the pull spins).
    public func run(_ source: any MotionSource, path: String, pump: ((Double) -> Void)? = nil,
                    progress: (Double, String) -> Void = { _, _ in }) throws -> (LiveSourceReport, LiveSourceSeries) {
        /// Waits until `deadline`, pumping meanwhile where the source needs it.
        func wait(until deadline: UInt64) {
            guard let pump else { return Nanoclock.sleep(until: deadline) }
            var now = Nanoclock.now()
            while now < deadline {
                pump(Nanoclock.seconds(deadline - now))
                now = Nanoclock.now()
            }
        }
        let expectedRate = Swift.max(source.info.nominalRate ?? 1000, 1000)
        let tap = TappedSource(source, capacity: Int(settings.duration * expectedRate * 2) + 10_000)
        let manager = MotionManager(source: tap)
        manager.deviceMotionUpdateInterval = settings.updateInterval
        if !manager.isGyroAvailable { manager.deviceMotionEstimation = .accelerometer }
        let duplicatesBefore = clock.duplicatesSoFar()
        manager.startDeviceMotionUpdates()
        guard manager.isDeviceMotionActive else {
            throw LiveSourceError.noSamples(path: path, reason: "\(manager.connectionState)")
        }
        defer { manager.stopDeviceMotionUpdates() }
        let firstDeadline = Nanoclock.now() + UInt64(settings.firstSampleTimeout * 1e9)
        while manager.latestDeviceMotion == nil {
            guard Nanoclock.now() < firstDeadline else {
                throw LiveSourceError.noSamples(path: path, reason: "nothing in \(Figure.fixed(settings.firstSampleTimeout, 0)) s (\(manager.connectionState))")
            }
            wait(until: Nanoclock.now() + 1_000_000)
        }
        // The phases time from the stream settled: opening a device or a file is not the stream's.
        progress(0, "settling")
        wait(until: Nanoclock.now() + UInt64(settings.settleSeconds * 1e9))
        let begin = Nanoclock.now()
        let total = UInt64(settings.duration * 1e9)
        // The pull's cost needs half a second at most: 10 % of a short run.
        let pullShare = settings.measurePullCost ? Swift.min(0.1, 0.5 / settings.duration) : 0
        let spinEnd = begin + (pump == nil ? UInt64(Double(total) * settings.spinShare) : 0)
        let framesEnd = begin + UInt64(Double(total) * (1 - pullShare))
        func fraction() -> Double { Double(Nanoclock.now() &- begin) / Double(total) }

        progress(0, "arrival → visible to a pull")
        let (visible, caught, spun) = ArrivalToVisible.spin(manager, until: spinEnd)
        progress(fraction(), "game loops at \(settings.frameRates.map { Figure.fixed($0, 0) }.joined(separator: ", ")) Hz")
        var series = LiveSourceSeries()
        let ages = frames(manager, until: framesEnd, series: &series, wait: wait) { progress(fraction(), $0) }
        var pullCost: Distribution?
        if settings.measurePullCost {
            progress(fraction(), "pull cost")
            // At least 0.1 s: on a slow machine (an emulated CPU) the game loops overrun their share.
            let end = begin + total
            let left = Nanoclock.seconds(end &- Swift.min(end, Nanoclock.now()))
            pullCost = ManagerPullProbe.measure(manager, seconds: Swift.max(0.1, left)).0
        }
        let rateControl = manager.sampleRateControl
        let measuredRate = manager.measuredSampleRate
        let state = manager.connectionState
        manager.stopDeviceMotionUpdates()
        progress(1, "fusion on the captured stream")
        let elapsed = Nanoclock.now() &- begin
        let result = summarise(tap, from: begin, path: path, seconds: Nanoclock.seconds(elapsed), visible: visible, caught: caught,
                               spun: spun, ages: ages, pullCost: pullCost, rateControl: rateControl, measuredRate: measuredRate,
                               state: "\(state)", duplicatesBefore: duplicatesBefore, series: series)
        // A recording that ended during the settling leaves nothing to measure: say so, not zeros.
        guard result.0.byTimestamp.samples > 1 else {
            throw LiveSourceError.noSamples(path: path, reason: "none in the measured \(Figure.fixed(settings.duration, 1)) s after the first \(Figure.fixed(settings.settleSeconds, 1)) s; the source is \(state)")
        }
        return result
    }

    /// One game loop per frame rate, all on this thread: at each loop's next deadline, pull and
    /// note the sample's age (now − its arrival). A loop that fell a whole frame behind skips ahead.
    private func frames(_ manager: MotionManager, until end: UInt64, series: inout LiveSourceSeries,
                        wait: (UInt64) -> Void, progress: (String) -> Void) -> [Histogram<UInt64>] {
        let rates = settings.frameRates
        let periods = rates.map { UInt64(1e9 / $0) }
        var ages = rates.map { _ in Distribution.makeHistogram() }
        let start = Nanoclock.now()
        var deadlines = periods.map { start + $0 }
        series.ageOverTime = rates.map { _ in [] }
        var lastProgress = start
        while true {
            let index = deadlines.indices.min { deadlines[$0] < deadlines[$1] }!
            guard deadlines[index] < end else { break }
            wait(deadlines[index])
            let received = manager.latestDeviceMotion
            let now = Nanoclock.now()
            if let received {
                let age = now &- Swift.min(now, Nanoclock.nanoseconds(received.arrivalTime))
                ages[index].record(Swift.max(1, age))
                series.ageOverTime[index].append((Nanoclock.seconds(now &- start), Double(age) / 1000))
            }
            deadlines[index] &+= periods[index]
            if now > deadlines[index] { deadlines[index] = now + periods[index] }
            if now &- lastProgress > 250_000_000 { lastProgress = now; progress("game loops") }
        }
        return ages
    }
}

public enum LiveSourceError: Error, CustomStringConvertible {
    case noSamples(path: String, reason: String)

    public var description: String {
        switch self {
        // The caller names the path (`--source PATH: …`).
        case let .noSamples(_, reason): return "no motion samples (\(reason))"
        }
    }
}
