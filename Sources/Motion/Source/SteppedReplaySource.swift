import Foundation

/// A trace replay whose time the caller drives, delivering on the caller's thread: headless runs
/// step it by 1/60 s per frame, so frame N always shows the trace at `start + N/60` s whatever the
/// machine's speed ("replays pin the time step"). Same timestamps and looping as `ReplaySource`;
/// a live source and this one reach the game through the same `MotionManager`. A trace file is
/// read a piece at a time on each pass, as `ReplaySource(file:)` reads it, so memory does not
/// grow with the file.
///
///     let replay = try SteppedReplaySource(file: url, loop: true)   // or SteppedReplaySource(trace:)
///     let manager = MotionManager(source: replay, clock: replay.clock)
///     manager.startDeviceMotionUpdates()
///     replay.advance(to: 20.0)            // every sample up to trace time 20 s reaches the manager
public final class SteppedReplaySource: MotionSource, @unchecked Sendable {
    public let loop: Bool
    public let info: MotionSourceInfo
    /// Trace time as a clock, for the manager's arrival stamps (so sample ages are trace-time too).
    public let clock = ManualClock()
    /// Seconds added to timestamps on each further pass, as `ReplaySource.loopLength`.
    public let loopLength: Double
    /// Samples one pass holds (a file's counted by the first reading pass).
    public let sampleCount: Int
    /// The trace's first timestamp, which replayed times are offsets from; nil for an empty trace.
    public let firstTimestamp: Double?
    /// What the first reading pass of a file passed over (a cut last line); empty for a trace in memory.
    public let warnings: [TraceError]

    /// Where the samples of each pass come from.
    private enum Samples {
        case memory([MotionSample])
        case file(URL, TraceFormat?)
    }

    private let samples: Samples

    // Touched only by the thread that calls `start`, `advance` and `stop` (the frame loop).
    private var deliver: (@Sendable (MotionSourceEvent) -> Void)?
    private var next = 0
    private var stream: TraceSampleStream?
    private var upcoming: MotionSample?
    private var pass = 0.0
    private var ended = false

    public convenience init(trace: Trace, loop: Bool = true) {
        self.init(samples: .memory(trace.samples), metadata: trace.metadata, sensors: trace.sensors,
                  first: trace.samples.first?.timestamp, count: trace.samples.count, duration: trace.duration,
                  medianPeriod: trace.medianPeriod, warnings: [], loop: loop)
    }

    /// Steps through a trace file (any `TraceFormat`) without holding it: one reading pass first
    /// finds its length, sensors and median period, then each pass of the replay reads it again.
    /// Throws `TraceError` for a malformed file; should the file change under a running replay,
    /// the error is delivered as `.disconnected` followed by `.ended`.
    public convenience init(file url: URL, format: TraceFormat? = nil, loop: Bool = true) throws {
        let stream = try TraceSampleStream(contentsOf: url, format: format)
        let tally = try TraceTally(reading: stream)
        self.init(samples: .file(url, format), metadata: stream.metadata, sensors: tally.columns.sensors,
                  first: tally.first, count: tally.count, duration: tally.duration, medianPeriod: tally.periods.median,
                  warnings: stream.warnings, loop: loop)
    }

    private init(samples: Samples, metadata: TraceMetadata, sensors: SensorSet, first: Double?, count: Int,
                 duration: Double, medianPeriod: Double?, warnings: [TraceError], loop: Bool) {
        self.samples = samples
        self.warnings = warnings
        self.loop = loop
        firstTimestamp = first
        sampleCount = count
        info = MotionSourceInfo(name: "trace \(metadata.source)", kind: "trace", sensors: sensors,
                                nominalRate: metadata.nominalRate ?? Trace.estimatedRate(medianPeriod: medianPeriod))
        loopLength = TraceTally.loopLength(duration: duration, medianPeriod: medianPeriod, nominalRate: metadata.nominalRate)
    }

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
        guard let deliver, let first = firstTimestamp else { return }
        while !ended {
            let sample: MotionSample?
            do { sample = try peek() } catch {
                ended = true
                deliver(.disconnected(reason: "\(error)"))
                deliver(.ended)
                return
            }
            guard var sample else {
                guard loop, loopLength > 0 else {
                    ended = true
                    deliver(.ended)
                    return
                }
                rewind()
                pass += 1
                continue
            }
            let offset = pass * loopLength
            let due = sample.timestamp - first + offset
            guard due <= time else { return }
            clock.advance(to: due)
            sample.timestamp += offset
            deliver(.samples([sample]))
            consume()
        }
    }

    /// The next sample of this pass without taking it; nil at the pass's end.
    private func peek() throws -> MotionSample? {
        switch samples {
        case .memory(let all):
            return next < all.count ? all[next] : nil
        case .file(let url, let format):
            if let upcoming { return upcoming }
            if stream == nil { stream = try TraceSampleStream(contentsOf: url, format: format) }
            upcoming = try stream?.next()
            return upcoming
        }
    }

    private func consume() {
        next += 1
        upcoming = nil
    }

    private func rewind() {
        next = 0
        stream = nil
        upcoming = nil
    }
}
