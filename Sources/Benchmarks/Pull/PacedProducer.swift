import Histogram
import Motion

/// How often the producer publishes: a fixed rate paced by absolute deadlines, or as fast as it can.
public struct ProducerRate: Hashable, Sendable, Codable, CustomStringConvertible {
    /// Samples per second; nil means no pacing at all.
    public var hertz: Double?

    public init(hertz: Double?) { self.hertz = hertz }

    public static let asFastAsPossible = ProducerRate(hertz: nil)
    public static func hz(_ value: Double) -> ProducerRate { ProducerRate(hertz: value) }

    /// Period in ns, nil when unpaced.
    public var periodNanoseconds: UInt64? { hertz.map { UInt64((1e9 / $0).rounded()) } }

    public var description: String {
        guard let hertz else { return "max" }
        return hertz >= 1000 && hertz.truncatingRemainder(dividingBy: 1000) == 0
            ? "\(Int(hertz / 1000)) kHz" : "\(Int(hertz)) Hz"
    }
}

/// What the producer does for each sample it publishes: take the sample's arrival time (monotonic
/// seconds) and return the device motion to publish, stamped with that time. For `bench pull`
/// this runs the real fusion over a real recording, so the sample's age includes the fusion cost.
public struct ProducerWork: Sendable {
    public var name: String
    /// Builds the per-thread work (it may hold a mutable estimator); called on the producer thread.
    public var make: @Sendable () -> (_ arrivalSeconds: Double) -> DeviceMotion

    public init(name: String, make: @escaping @Sendable () -> (_ arrivalSeconds: Double) -> DeviceMotion) {
        self.name = name
        self.make = make
    }
}

/// What a producer thread saw; written by that thread, read after `join`.
struct ProducerOutcome {
    var published: UInt64 = 0
    var elapsedNanoseconds: UInt64 = 0
    /// Time in `work` per sample (the fusion cost), ps.
    var workCost = Distribution.makeHistogram()
    /// Time in `publish` per sample, ps: how long the consumer can stall the producer.
    var publishCost = Distribution.makeHistogram()
}

/// A producer thread: at each deadline (or back to back when unpaced) it stamps the arrival time,
/// runs the work and publishes a `SequencedMotion` into the slot.
final class PacedProducer<Slot: PullSlot>: @unchecked Sendable {
    private let slot: Slot
    private let rate: ProducerRate
    private let work: ProducerWork
    private let stop = StopFlag()
    private var outcome = ProducerOutcome()
    private var thread: BenchThread?

    init(slot: Slot, rate: ProducerRate, work: ProducerWork) {
        self.slot = slot
        self.rate = rate
        self.work = work
    }

    func start() throws(BenchError) {
        thread = try BenchThread { [self] in run() }
    }

    /// Stops and joins the thread, then returns what it measured.
    func finish() -> ProducerOutcome {
        stop.raise()
        thread?.join()
        thread = nil
        return outcome
    }

    private func run() {
        var result = ProducerOutcome()
        let step = work.make()
        let period = rate.periodNanoseconds
        let begin = Nanoclock.now()
        var deadline = begin
        var sequence: UInt64 = 0
        while !stop.isRaised {
            if let period {
                deadline &+= period
                Nanoclock.sleep(until: deadline)
            }
            let arrival = Nanoclock.now()
            var motion = step(Nanoclock.seconds(arrival))
            motion.timestamp = Nanoclock.seconds(arrival)
            sequence &+= 1
            let payload = SequencedMotion(sequence: sequence, motion: motion)
            let published = Nanoclock.now()
            slot.publish(payload)
            let done = Nanoclock.now()
            result.workCost.record((published &- arrival) &* 1000)
            result.publishCost.record((done &- published) &* 1000)
            if let period, done &- deadline > 100 * period {
                // Descheduled for 100 periods: restart the schedule instead of publishing a burst.
                deadline = done
            }
        }
        result.published = sequence
        result.elapsedNanoseconds = Nanoclock.now() &- begin
        outcome = result
    }
}
