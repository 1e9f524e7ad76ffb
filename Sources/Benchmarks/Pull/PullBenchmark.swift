import Histogram
import Motion

/// `bench pull`: what it costs a render loop to pull the latest device motion while a producer
/// thread publishes it, how old the pulled sample is, and whether any read was torn.
///
/// Per producer rate (1 kHz, 250 Hz, as fast as possible) and per slot (the motion manager's
/// lock-free slot, a mutex), a consumer pulls (a) in a tight loop and (b) once per simulated
/// frame. A plain struct copy with no producer is the floor every ratio is taken against.
public struct PullBenchmark: Sendable {
    public struct Settings: Sendable {
        public var rates: [ProducerRate] = [.hz(1000), .hz(250), .asFastAsPossible]
        /// Tight-loop pulling time per scenario, s.
        public var tightLoopSeconds = 2.0
        /// Simulated frames per scenario.
        public var frames = 360
        /// Frame rate of the simulated game, Hz. 59.94 (a common real refresh rate) rather than 60
        /// so frames do not phase-lock to a 1 kHz or 250 Hz producer, as real clocks never do.
        public var frameRate = 59.94
        /// Pulls timed together in the tight loop; the clock read (≈20 ns) is spread over them.
        public var batchSize = 100

        public init() {}

        /// A brief run that proves every path works (CI).
        public static var quick: Settings {
            var s = Settings()
            s.tightLoopSeconds = 0.05
            s.frames = 12
            return s
        }
    }

    public enum Consumer: String, Codable, Sendable { case tightLoop = "tight loop", frames = "per frame" }

    /// One consumer against one slot under one producer rate.
    public struct Scenario: Codable, Sendable {
        public var variant: String
        public var producerRate: String
        public var producerHertz: Double?
        public var consumer: Consumer
        /// Samples the producer actually published per second.
        public var publishedHertz: Double
        /// Pull cost, ns per pull (tight loop: batch mean; per frame: one pull, clock cost removed).
        public var pullCost: Distribution
        /// now − timestamp of the pulled sample, ns; nil without a producer.
        public var age: Distribution?
        /// Ideal mean age: half the measured sample period plus the producer's work before it
        /// publishes (fusion), ns. Only for frames under a paced producer: an unpaced producer's
        /// period is set by the scheduler, not by the sensor.
        public var idealMeanAge: Double?
        /// Producer's work per sample (fusion and payload checksum), ns, median.
        public var producerWork: Double?
        /// Producer's publish call, ns, p99.9: how long the consumer can stall the producer.
        public var producerPublishP999: Double?
        public var reads: UInt64
        public var freshReads: UInt64
        public var tornReads: UInt64
        public var outOfOrderReads: UInt64
        /// malloc calls on the consumer thread inside the timed pulls.
        public var allocations: UInt64
    }

    public struct Report: Codable, Sendable {
        public var method: String
        public var producerWork: String
        /// Median cost of one clock read, ns, measured in this run.
        public var clockReadCost: Double
        public var scenarios: [Scenario]
        /// Variant p50 / floor p50 in the tight loop, per variant and rate.
        public var ratios: [Ratio]
        /// The game's real pull, `MotionManager.latestDeviceMotion`, measured in the same run.
        public var managerPull: ManagerPullProbe.Result?
        /// The pull's targets against this run's figures.
        public var targets: [TargetCheck] = []
    }

    public struct Ratio: Codable, Sendable {
        public var variant: String
        public var producerRate: String
        public var p50OverFloor: Double
        public var p999OverFloor: Double
    }

    public var settings: Settings
    public var work: ProducerWork
    /// Histograms kept for plotting, by "variant · rate · consumer".
    public typealias Histograms = [(name: String, cost: Histogram<UInt64>, age: Histogram<UInt64>?)]

    public init(settings: Settings = Settings(), work: ProducerWork) {
        self.settings = settings
        self.work = work
    }

    public static let method = """
        Tight loop: each sample is one batch of {batch} back-to-back pulls timed with two CLOCK_MONOTONIC \
        reads (vDSO, ~20 ns) and divided by {batch}, so the clock cost is spread thin; each pull copies the \
        whole payload into the consumer's buffer. Per frame: one pull timed alone, the median clock-read cost subtracted. \
        Torn reads: every payload carries its sequence number and a checksum over all fields, checked \
        outside the timed region. Allocations: malloc calls on the consumer thread (allocation hook) \
        inside the timed pulls.
        """

    /// Runs every scenario; `progress` is told each step's name.
    public func run(latest makeLatest: () -> some PullSlot, progress: (String) -> Void = { _ in })
        throws(BenchError) -> (Report, Histograms)
    {
        let clockCost = Nanoclock.readCost()
        var scenarios: [Scenario] = []
        var histograms: Histograms = []

        progress("plain copy floor")
        let floor = PlainCopySlot()
        floor.publish(SequencedMotion(sequence: 1, motion: SequencedMotion.empty.motion))
        let floorRun = tightLoop(floor, clockCost: clockCost)
        scenarios.append(scenario(PlainCopySlot.variantName, rate: nil, consumer: .tightLoop, run: floorRun, producer: nil))
        histograms.append((PlainCopySlot.variantName + " · tight loop", floorRun.cost, nil))

        for rate in settings.rates {
            try measure(makeLatest, rate: rate, clockCost: clockCost, into: &scenarios, &histograms, progress)
            try measure(MutexSlot.init, rate: rate, clockCost: clockCost, into: &scenarios, &histograms, progress)
        }

        let floorP50 = scenarios[0].pullCost.p50, floorP999 = scenarios[0].pullCost.p999
        let ratios = scenarios.dropFirst().filter { $0.consumer == .tightLoop }.map {
            Ratio(variant: $0.variant, producerRate: $0.producerRate,
                  p50OverFloor: $0.pullCost.p50 / Swift.max(floorP50, 1e-3),
                  p999OverFloor: $0.pullCost.p999 / Swift.max(floorP999, 1e-3))
        }
        var report = Report(method: PullBenchmark.method.replacingOccurrences(of: "{batch}", with: "\(settings.batchSize)"),
                            producerWork: work.name, clockReadCost: clockCost, scenarios: scenarios, ratios: ratios)
        report.targets = report.evaluateTargets()
        return (report, histograms)
    }

    /// One scenario per consumer, each on a new slot: a producer numbers its payloads from 1, so a
    /// slot still holding the last producer's payload (a sequence in the millions) would pass the
    /// wait below at once and make the new producer's first payloads read as going back.
    private func measure<Slot: PullSlot>(_ makeSlot: () -> Slot, rate: ProducerRate, clockCost: Double,
                                         into scenarios: inout [Scenario], _ histograms: inout Histograms,
                                         _ progress: (String) -> Void) throws(BenchError) {
        for consumer in [Consumer.tightLoop, .frames] {
            progress("\(Slot.variantName) · \(rate) · \(consumer.rawValue)")
            let slot = makeSlot()
            let producer = PacedProducer(slot: slot, rate: rate, work: work)
            try producer.start()
            // Let the producer publish before the consumer starts, so no read sees the empty slot.
            var latest = SequencedMotion.empty
            slot.pull(into: &latest)
            while latest.sequence < 2 {
                Nanoclock.sleep(until: Nanoclock.now() + 200_000)
                slot.pull(into: &latest)
            }
            let run = consumer == .tightLoop ? tightLoop(slot, clockCost: clockCost) : frames(slot, clockCost: clockCost)
            let outcome = producer.finish()
            scenarios.append(scenario(Slot.variantName, rate: rate, consumer: consumer, run: run, producer: outcome))
            histograms.append(("\(Slot.variantName) · \(rate) · \(consumer.rawValue)", run.cost, run.age))
        }
    }

    struct ConsumerRun {
        var cost = Distribution.makeHistogram()
        var age = Distribution.makeHistogram()
        var detector = TornReadDetector()
        var allocations: UInt64 = 0
    }

    /// Batches of back-to-back pulls, each copied into a buffer, timed per batch.
    func tightLoop<Slot: PullSlot>(_ slot: Slot, clockCost: Double) -> ConsumerRun {
        var run = ConsumerRun()
        let batch = settings.batchSize
        let buffer = UnsafeMutableBufferPointer<SequencedMotion>.allocate(capacity: batch)
        buffer.initialize(repeating: .empty)
        defer { buffer.deallocate() }
        let end = Nanoclock.now() + UInt64(settings.tightLoopSeconds * 1e9)
        var now = Nanoclock.now()
        while now < end {
            let allocationsBefore = AllocationCount.onThisThread()
            let start = Nanoclock.now()
            for i in 0..<batch { slot.pull(into: &buffer[i]) }
            let stop = Nanoclock.now()
            run.allocations &+= AllocationCount.onThisThread() &- allocationsBefore
            run.cost.record((stop &- start) &* 1000 / UInt64(batch))
            for payload in buffer { run.detector.check(payload) }
            if Slot.allowsConcurrentProducer, let last = buffer.last {
                run.age.record(stop &- Swift.min(stop, Nanoclock.nanoseconds(last.motion.timestamp)))
            }
            now = stop
        }
        return run
    }

    /// One pull per simulated frame at absolute frame deadlines.
    func frames<Slot: PullSlot>(_ slot: Slot, clockCost: Double) -> ConsumerRun {
        var run = ConsumerRun()
        let cell = UnsafeMutablePointer<SequencedMotion>.allocate(capacity: 1)
        cell.initialize(to: .empty)
        defer { cell.deallocate() }
        let period = 1e9 / settings.frameRate
        let begin = Nanoclock.now()
        for frame in 1...settings.frames {
            Nanoclock.sleep(until: begin + UInt64(Double(frame) * period))
            let allocationsBefore = AllocationCount.onThisThread()
            let start = Nanoclock.now()
            slot.pull(into: &cell.pointee)
            let stop = Nanoclock.now()
            run.allocations &+= AllocationCount.onThisThread() &- allocationsBefore
            let cost = Swift.max(0, Double(stop &- start) - clockCost)
            run.cost.record(Swift.max(1, UInt64(cost * 1000)))
            run.detector.check(cell.pointee)
            run.age.record(stop &- Swift.min(stop, Nanoclock.nanoseconds(cell.pointee.motion.timestamp)))
        }
        return run
    }

    private func scenario(_ variant: String, rate: ProducerRate?, consumer: Consumer, run: ConsumerRun,
                          producer: ProducerOutcome?) -> Scenario {
        let publishedHertz = producer.map { Double($0.published) / Swift.max(1e-9, Nanoclock.seconds($0.elapsedNanoseconds)) } ?? 0
        let workCost = producer.map { Distribution($0.workCost, unitsPerNanosecond: 1000) }
        var ideal: Double?
        if consumer == .frames, rate?.hertz != nil, let workCost, publishedHertz > 0 {
            ideal = 0.5e9 / publishedHertz + workCost.mean
        }
        return Scenario(
            variant: variant, producerRate: rate?.description ?? "none", producerHertz: rate?.hertz,
            consumer: consumer, publishedHertz: publishedHertz,
            pullCost: Distribution(run.cost, unitsPerNanosecond: 1000),
            age: producer == nil ? nil : Distribution(run.age, unitsPerNanosecond: 1),
            idealMeanAge: ideal, producerWork: workCost?.p50,
            producerPublishP999: producer.map { Distribution($0.publishCost, unitsPerNanosecond: 1000).p999 },
            reads: run.detector.reads, freshReads: run.detector.fresh, tornReads: run.detector.torn,
            outOfOrderReads: run.detector.outOfOrder, allocations: run.allocations)
    }
}
