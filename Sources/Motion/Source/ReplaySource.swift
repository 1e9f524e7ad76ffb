import Foundation

/// How a replay paces its samples.
public enum ReplayPacing: Hashable, Sendable {
    /// Each sample is delivered when `speed × elapsed clock time` reaches its offset in the
    /// trace (2 = twice as fast). Gaps in the trace are waited out.
    case realTime(speed: Double)
    /// Every sample at once, back to back.
    case asFastAsPossible
}

/// Plays a `Trace` as a `MotionSource`, on its own thread, through the same protocol as live
/// hardware. Deterministic: the same trace gives the same events with the same timestamps
/// whatever the pacing; timestamps are the trace's own. Looping offsets each pass by the trace's
/// duration plus one median period, so timestamps keep increasing.
///
///     let replay = ReplaySource(trace: trace, pacing: .realTime(speed: 1), loop: true)
///     try replay.start { event in if case .sample(let s) = event { use(s) } }
///     …
///     replay.stop()   // joins: nothing is delivered after this returns
public final class ReplaySource: MotionSource, @unchecked Sendable {
    public let trace: Trace
    public let pacing: ReplayPacing
    public let loop: Bool
    public let info: MotionSourceInfo
    private let clock: any MotionClock

    private let lock = NSLock()
    private var worker: Thread?
    private var interruption = SleepInterruption()
    private var finished = DispatchSemaphore(value: 0)

    public init(trace: Trace, clock: any MotionClock = MonotonicClock(), pacing: ReplayPacing = .realTime(speed: 1),
                loop: Bool = false) {
        self.trace = trace
        self.clock = clock
        self.pacing = pacing
        self.loop = loop
        self.info = MotionSourceInfo(name: "trace \(trace.metadata.source)", kind: "trace", sensors: trace.sensors,
                                     nominalRate: trace.metadata.nominalRate ?? Trace.estimatedRate(trace.samples))
        // Computed once: the median period sorts every interval in the trace.
        self.loopLength = trace.duration + (trace.medianPeriod ?? trace.metadata.nominalRate.map { 1 / $0 } ?? 0.01)
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

    private func play(_ deliver: @Sendable (MotionSourceEvent) -> Void, interruption: SleepInterruption) {
        let samples = trace.samples
        guard let first = samples.first?.timestamp else {
            if !interruption.isInterrupted { deliver(.ended) }
            return
        }
        let startTime = clock.now()
        var pass = 0.0
        repeat {
            let offset = pass * loopLength
            for sample in samples {
                if case .realTime(let speed) = pacing {
                    let due = startTime + (sample.timestamp - first + offset) / speed
                    if !clock.sleep(until: due, unless: interruption) { return }
                }
                if interruption.isInterrupted { return }
                var out = sample
                out.timestamp += offset
                deliver(.sample(out))
            }
            pass += 1
        } while loop
        if !interruption.isInterrupted { deliver(.ended) }
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
