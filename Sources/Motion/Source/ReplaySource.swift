import Foundation

/// How a replay paces its samples.
public enum ReplayPacing: Hashable, Sendable {
    /// Each sample is delivered when `speed × elapsed clock time` reaches its offset in the
    /// trace (2 = twice as fast). Gaps in the trace are waited out; samples already due when the
    /// replay comes to them (it fell behind) go together, in batches of `ReplaySource.batchLimit`.
    case realTime(speed: Double)
    /// Every sample at once, back to back, in batches of `ReplaySource.batchLimit`.
    case asFastAsPossible
}

/// Plays a `Trace`, or a trace file read piece by piece on each pass, as a `MotionSource`, on its
/// own thread, through the same protocol as live hardware. Deterministic: the same trace gives the
/// same events with the same timestamps whatever the pacing; timestamps are the trace's own.
/// Looping offsets each pass by the trace's duration plus one median period, so timestamps keep
/// increasing.
///
///     let replay = ReplaySource(trace: trace, pacing: .realTime(speed: 1), loop: true)
///     try replay.start { event in if case .samples(let batch) = event { batch.forEach(use) } }
///     …
///     replay.stop()   // joins: nothing is delivered after this returns
public final class ReplaySource: MotionSource, @unchecked Sendable {
    public let metadata: TraceMetadata
    /// The optional columns the trace fills.
    public let columns: TraceColumns
    /// What the first reading pass passed over (a cut last line); empty for a trace in memory and
    /// when a `summary` was given (the pass that made it saw them).
    public let warnings: [TraceError]
    public let pacing: ReplayPacing
    public let loop: Bool
    public let info: MotionSourceInfo
    private let clock: any MotionClock
    private let samples: Samples
    private let firstTimestamp: Double?

    private let lock = NSLock()
    private var worker: Thread?
    private var interruption = SleepInterruption()
    private var finished = DispatchSemaphore(value: 0)

    /// Where the samples of each pass come from.
    private enum Samples {
        case memory([MotionSample])
        /// Read again on every pass, a piece at a time, so memory does not grow with the file.
        case file(URL, TraceFormat?)
    }

    public convenience init(trace: Trace, clock: any MotionClock = MonotonicClock(), pacing: ReplayPacing = .realTime(speed: 1),
                loop: Bool = false) {
        // Computed once: the median period sorts every interval in the trace.
        let period = trace.medianPeriod
        self.init(samples: .memory(trace.samples), metadata: trace.metadata, columns: trace.columns, warnings: [],
                  first: trace.samples.first?.timestamp, duration: trace.duration, medianPeriod: period,
                  clock: clock, pacing: pacing, loop: loop)
    }

    /// Replays a trace file (any `TraceFormat`) without holding it: one reading pass first finds
    /// its columns, length and median period, then every pass of the replay reads it again.
    /// Pass `summary` when you have one (`tiltkit replay` does) to save that first pass. Throws
    /// `TraceError` for a malformed file; should the file change under a running replay, the
    /// error is delivered as `.disconnected` followed by `.ended`.
    public convenience init(file url: URL, format: TraceFormat? = nil, summary: TraceSummary? = nil,
                            clock: any MotionClock = MonotonicClock(), pacing: ReplayPacing = .realTime(speed: 1),
                            loop: Bool = false) throws {
        let stream = try TraceSampleStream(contentsOf: url, format: format)
        let timing: (first: Double?, duration: Double, period: Double?, columns: TraceColumns)
        if let summary {
            timing = (try stream.next()?.timestamp, summary.duration, summary.medianPeriod, summary.columns)
        } else {
            let tally = try TraceTally(reading: stream)
            timing = (tally.first, tally.duration, tally.periods.median, tally.columns)
        }
        self.init(samples: .file(url, format), metadata: stream.metadata, columns: timing.columns,
                  warnings: summary == nil ? stream.warnings : [], first: timing.first, duration: timing.duration,
                  medianPeriod: timing.period, clock: clock, pacing: pacing, loop: loop)
    }

    private init(samples: Samples, metadata: TraceMetadata, columns: TraceColumns, warnings: [TraceError],
                 first: Double?, duration: Double, medianPeriod: Double?,
                 clock: any MotionClock, pacing: ReplayPacing, loop: Bool) {
        self.samples = samples
        self.metadata = metadata
        self.columns = columns
        self.warnings = warnings
        self.firstTimestamp = first
        self.clock = clock
        self.pacing = pacing
        self.loop = loop
        info = MotionSourceInfo(name: "trace \(metadata.source)", kind: "trace", sensors: columns.sensors,
                                nominalRate: metadata.nominalRate ?? Trace.estimatedRate(medianPeriod: medianPeriod))
        loopLength = TraceTally.loopLength(duration: duration, medianPeriod: medianPeriod, nominalRate: metadata.nominalRate)
    }

    /// Seconds added to timestamps on each further pass of a loop: duration + one median period.
    public let loopLength: Double

    public func start(_ deliver: @escaping @Sendable (MotionSourceEvent) -> Void) throws {
        lock.lock(); defer { lock.unlock() }
        guard worker == nil else { throw ReplayError.alreadyStarted }
        if case .realTime(let speed) = pacing, !(speed > 0 && speed.isFinite) {
            throw ReplayError.badSpeed(speed)
        }
        let interruption = SleepInterruption()
        let finished = DispatchSemaphore(value: 0)
        self.interruption = interruption
        self.finished = finished
        let thread = Thread { [self] in
            play(deliver, interruption: interruption)
            finished.signal()
        }
        thread.name = "tiltkit.replay"
        worker = thread
        thread.start()
    }

    public func stop() {
        lock.lock()
        guard let thread = worker else { lock.unlock(); return }
        worker = nil
        let interruption = self.interruption, finished = self.finished
        lock.unlock()
        interruption.interrupt()
        // Called from inside `deliver` (on the replay thread): the loop ends when `deliver` returns.
        if Thread.current !== thread { finished.wait() }
    }

    /// Samples in one `.samples` event at most. Samples already due (as fast as possible, or a
    /// real-time replay behind its schedule) go over together, so the consumer's per-event work (a
    /// clock read and a lock in the manager) is paid once for them; capped so a catch-up still
    /// streams, in batches a handler can take while the next is read.
    public static let batchLimit = 64

    private func play(_ deliver: @Sendable (MotionSourceEvent) -> Void, interruption: SleepInterruption) {
        guard let first = firstTimestamp else {
            if !interruption.isInterrupted { deliver(.ended) }
            return
        }
        let startTime = clock.now()
        var batch: [MotionSample] = []
        batch.reserveCapacity(Self.batchLimit)
        /// Delivers the samples gathered so far; false once stopped (nothing is delivered then).
        /// The batch is a parameter, not captured: a local function capturing it made every
        /// sample's append check exclusive access at run time (swift_beginAccess, ~80 instructions).
        func flush(_ batch: inout [MotionSample]) -> Bool {
            if interruption.isInterrupted { return false }
            if !batch.isEmpty { deliver(.samples(batch)) }
            batch.removeAll(keepingCapacity: true)
            return true
        }
        var pass = 0.0
        repeat {
            let offset = pass * loopLength
            if case .asFastAsPossible = pacing, case .memory(let samples) = samples {
                guard deliverInBatches(samples, offset: offset, &batch, flush: flush), flush(&batch) else { return }
                pass += 1
                continue
            }
            let played = forEachSample { sample in
                // A sample not yet due: what is due goes now, then the wait; the sample waited
                // for goes alone, at once, so a replay keeping up delivers each on its time.
                var waited = false
                if case .realTime(let speed) = pacing {
                    let due = startTime + (sample.timestamp - first + offset) / speed
                    if clock.now() < due {
                        guard flush(&batch), clock.sleep(until: due, unless: interruption) else { return false }
                        waited = true
                    }
                }
                batch.append(sample)  // then moved in place: a copy made first cost a second one
                batch[batch.count - 1].timestamp += offset
                return waited || batch.count == Self.batchLimit ? flush(&batch) : true
            }
            // what was read before the end or an error goes first
            guard flush(&batch) else { return }
            switch played {
            case .success(true): break
            case .success(false): return
            case .failure(let error):
                deliver(.disconnected(reason: "\(error)")); deliver(.ended)
                return
            }
            pass += 1
        } while loop
        if !interruption.isInterrupted { deliver(.ended) }
    }

    /// One pass as fast as possible over samples in memory: each batch copied from the trace in one
    /// piece (appended one by one, each 216-byte sample was a call of its own to copy). False once stopped.
    private func deliverInBatches(_ samples: [MotionSample], offset: Double, _ batch: inout [MotionSample],
                                  flush: (inout [MotionSample]) -> Bool) -> Bool {
        var next = 0
        while next < samples.count {
            let end = min(next + Self.batchLimit - batch.count, samples.count)
            let first = batch.count
            batch.append(contentsOf: samples[next..<end])
            if offset != 0 { for i in first..<batch.count { batch[i].timestamp += offset } }
            next = end
            if batch.count == Self.batchLimit, !flush(&batch) { return false }
        }
        return true
    }

    /// One pass over the samples while `visit` returns true; true when the pass reached the end.
    private func forEachSample(_ visit: (MotionSample) -> Bool) -> Result<Bool, any Error> {
        switch samples {
        case .memory(let samples):
            // each sample lent from the array in place: iterating the array copied every one out first
            return .success(samples.withUnsafeBufferPointer { buffer in
                for i in buffer.indices where !visit(buffer[i]) { return false }
                return true
            })
        case .file(let url, let format):
            return Result {
                let stream = try TraceSampleStream(contentsOf: url, format: format)
                while let sample = try stream.next() { if !visit(sample) { return false } }
                return true
            }
        }
    }
}

/// Why a replay cannot start.
public enum ReplayError: Error, Equatable, CustomStringConvertible {
    case alreadyStarted
    case badSpeed(Double)

    public var description: String {
        switch self {
        case .alreadyStarted: return "the replay is already running; stop it first"
        case .badSpeed(let s): return "replay speed must be a positive number, got \(s)"
        }
    }
}
