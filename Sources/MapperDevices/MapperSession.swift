import Foundation
import Mapper
import Motion

/// One `Mapper` stepped from two threads, the motion source's and the pad controls reader's,
/// under one lock, each step's output written at once (`MapperOutputWriter`). A controls change
/// steps the mapper without waiting for the next motion sample.
///
///     let session = MapperSession(mapper: Mapper(profile: .default), writer: try VirtualDevices.create())
///     try source.start { event in if case .samples(let s) = event { session.feed(samples: s) } }
///     padReader.start { event in if case .controls(let c, _) = event { session.feed(controls: c) } }
public final class MapperSession: @unchecked Sendable {
    /// Running totals, for the status line and the summary.
    public struct Counters: Hashable, Sendable {
        public var samples = 0
        public var controlChanges = 0
        /// Mouse counts moved, |x| + |y|.
        public var mouseCounts = 0
        public var mouseEvents = 0
        public var padEvents = 0
        /// Writes the kernel refused (the first one's reason is in `writeFailure`).
        public var writeFailures = 0
        public init() {}
    }

    private let lock = NSLock()
    private var mapper: Mapper
    private let writer: any MapperOutputWriter
    private let clock: any MotionClock
    private var controls = PadControls.idle
    private var counters = Counters()
    private var firstWriteFailure: UInputError?
    /// The samples' clock against ours, so a controls change is stepped at a time on the samples' clock.
    private var lastSample: (timestamp: Double, arrival: Double)?
    private let start: Double

    public init(mapper: Mapper, writer: any MapperOutputWriter, clock: any MotionClock = MonotonicClock()) {
        self.mapper = mapper
        self.writer = writer
        self.clock = clock
        start = clock.now()
    }

    /// Motion samples, oldest first, each stepped with the controls held now.
    public func feed(samples: [MotionSample]) {
        let arrival = clock.now()
        lock.lock(); defer { lock.unlock() }
        for sample in samples {
            counters.samples += 1
            write(mapper.step(sample: sample, controls: controls), time: sample.timestamp)
        }
        if let last = samples.last { lastSample = (last.timestamp, arrival) }
    }

    /// The physical pad's controls changed: stepped at once.
    public func feed(controls new: PadControls) {
        let now = clock.now()
        lock.lock(); defer { lock.unlock() }
        guard new != controls else { return }
        controls = new
        counters.controlChanges += 1
        let time = sampleClockTime(at: now)
        write(mapper.step(controls: new, time: time), time: time)
    }

    /// The pad went away: every virtual button released and the sticks centred (the virtual
    /// devices stay, so games keep their handle); the controls read idle until the pad is back.
    public func releaseAll() {
        let now = clock.now()
        lock.lock(); defer { lock.unlock() }
        controls = .idle
        let time = sampleClockTime(at: now)
        _ = mapper.step(controls: .idle, time: time)
        write(MapperOutput(), time: time)
    }

    public func replace(profile: MapperProfile) {
        lock.lock(); defer { lock.unlock() }
        mapper.replace(profile: profile)
    }

    public var gyroEnabled: Bool {
        lock.lock(); defer { lock.unlock() }
        return mapper.gyroEnabled
    }

    public var totals: Counters {
        lock.lock(); defer { lock.unlock() }
        return counters
    }

    /// The first write the kernel refused, if any.
    public var writeFailure: UInputError? {
        lock.lock(); defer { lock.unlock() }
        return firstWriteFailure
    }

    /// `now` on the samples' clock: the last sample's time plus what has passed since it arrived
    /// (before any sample, time since the session began). Call with the lock held.
    private func sampleClockTime(at now: Double) -> Double {
        lastSample.map { $0.timestamp + (now - $0.arrival) } ?? (now - start)
    }

    private func write(_ output: MapperOutput, time: Double) {
        do {
            let sent = try writer.write(output, time: time)
            counters.mouseCounts += sent.mouseCounts
            counters.mouseEvents += sent.mouseEvents
            counters.padEvents += sent.padEvents
        } catch {
            counters.writeFailures += 1
            if firstWriteFailure == nil { firstWriteFailure = error }
        }
    }
}
