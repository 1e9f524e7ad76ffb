/// A trace replay whose time the caller drives, delivering on the caller's thread: headless runs
/// step it by 1/60 s per frame, so frame N always shows the trace at `start + N/60` s whatever the
/// machine's speed ("replays pin the time step"). Same timestamps and looping as `ReplaySource`;
/// a live source and this one reach the game through the same `MotionManager`.
///
///     let replay = SteppedReplaySource(trace: trace, loop: true)
///     let manager = MotionManager(source: replay, clock: replay.clock)
///     manager.startDeviceMotionUpdates()
///     replay.advance(to: 20.0)            // every sample up to trace time 20 s reaches the manager
public final class SteppedReplaySource: MotionSource, @unchecked Sendable {
    public let trace: Trace
    public let loop: Bool
    public let info: MotionSourceInfo
    /// Trace time as a clock, for the manager's arrival stamps (so sample ages are trace-time too).
    public let clock = ManualClock()

    // Touched only by the thread that calls `start`, `advance` and `stop` (the frame loop).
    private var deliver: (@Sendable (MotionSourceEvent) -> Void)?
    private var next = 0
    private var pass = 0.0
    private var ended = false

    public init(trace: Trace, loop: Bool = true) {
        self.trace = trace
        self.loop = loop
        info = MotionSourceInfo(name: "trace \(trace.metadata.source)", kind: "trace", sensors: trace.sensors,
                                nominalRate: trace.metadata.nominalRate ?? trace.medianPeriod.map { 1 / $0 })
        // Computed once: the median period sorts every interval in the trace.
        loopLength = trace.duration + (trace.medianPeriod ?? trace.metadata.nominalRate.map { 1 / $0 } ?? 0.01)
    }

    /// Seconds added to timestamps on each further pass, as `ReplaySource.loopLength`.
    public let loopLength: Double

    public func start(_ deliver: @escaping @Sendable (MotionSourceEvent) -> Void) throws {
        guard self.deliver == nil else { throw ReplayError.alreadyStarted }
        self.deliver = deliver
    }

    public func stop() { deliver = nil }

    /// Delivers, in order, every sample whose offset from the trace's first sample (plus the loop
    /// offset) is at most `time` seconds, moving `clock` to each sample's due time as it goes (so
    /// arrival stamps, and the ages measured from them, are what a real-time replay would give),
    /// then to `time`.
    public func advance(to time: Double) {
        defer { clock.advance(to: time) }
        guard let deliver, let first = trace.samples.first?.timestamp else { return }
        let samples = trace.samples
        while !ended {
            if next == samples.count {
                guard loop, loopLength > 0 else {
                    ended = true
                    deliver(.ended)
                    return
                }
                next = 0
                pass += 1
            }
            let offset = pass * loopLength
            let due = samples[next].timestamp - first + offset
            guard due <= time else { return }
            clock.advance(to: due)
            var sample = samples[next]
            sample.timestamp += offset
            deliver(.samples([sample]))
            next += 1
        }
    }
}
