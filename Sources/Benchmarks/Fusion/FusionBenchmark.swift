import Dispatch
import Foundation
import Motion
import MotionEvaluation
import Synchronization

/// `bench fusion`: nanoseconds per sample of each estimator over real recordings, min and median
/// over several runs, against a plain loop over the same samples in the same run; the fusion again
/// over compact readings, as x-io Fusion's C library is timed beside it; and what it costs the
/// motion manager to push every sample to a handler.
public struct FusionBenchmark: Sendable {
    public struct Settings: Sendable {
        /// Timed passes over all recordings per estimator.
        public var runs = 7
        /// Recordings used (nil: all of them).
        public var recordingLimit: Int?
        /// Samples used per recording (nil: all).
        public var samplesPerRecording: Int?
        /// x-io Fusion's C library timed beside Tiltkit in every run (`.build-peers/fusion-cost`,
        /// which scripts/install-peers.sh builds); nil: not measured.
        public var fusionPeer: URL? = FusionPeerCost.locate()

        public init() {}

        public static var quick: Settings {
            var s = Settings()
            s.runs = 2
            s.recordingLimit = 1
            s.samplesPerRecording = 4000
            return s
        }
    }

    /// One estimator's cost. The headline figures are CPU time of the measuring thread (time the
    /// core spent on other processes excluded); the wall-clock median is kept beside them.
    public struct Row: Codable, Sendable {
        public var estimator: String
        public var minNanosecondsPerSample: Double
        public var medianNanosecondsPerSample: Double
        /// Wall-clock median, ns per sample: equal to the CPU figure on an idle machine.
        public var wallMedianNanosecondsPerSample: Double
        /// Samples per second at the median.
        public var samplesPerSecond: Double
        /// Median over the baseline's median.
        public var ratioToBaseline: Double
        /// Samples the estimator rejected (bad data), over all recordings, in one run.
        public var rejected: Int
    }

    public struct Report: Codable, Sendable {
        public var recordings: [String]
        public var samples: Int
        public var runs: Int
        public var baseline: Row
        public var estimators: [Row]
        /// The plain loop, then 6- and 9-axis fusion, over compact readings (`CompactReading`).
        public var compact: [Row]
        /// Manager push: source thread → fusion → handler on a serial queue, ns per sample.
        public var push: [Row]
        /// x-io Fusion (C, -O2) over the same recordings, timed in the same runs; its ratios are to
        /// the plain loop over compact readings, since its program reads compact input.
        public var peers: [Row]
        /// Which peer was measured and how, or why none was.
        public var peerNote: String
        public var targets: [TargetCheck]
    }

    public var settings: Settings
    public var data: BenchData

    public init(settings: Settings = Settings(), data: BenchData) {
        self.settings = settings
        self.data = data
    }

    /// The estimators measured, with the settings `DeviceMotionEstimatorKind.make` gives the motion
    /// manager. Each is timed through its concrete type (`timeEstimator` is generic), so the loop
    /// calls the same `update(_:into:)` the manager reaches through `any DeviceMotionEstimator`,
    /// without the existential's dispatch.
    static let estimators: [(name: String, time: @Sendable ([[MotionSample]]) -> (Timing, Int), needsMagnetometer: Bool)] = [
        ("accelerometer-only", { timeEstimator(AccelerometerAttitudeEstimator(), $0) }, false),
        ("6-axis fusion", { timeEstimator(AHRS(frame: .xArbitraryZVertical), $0) }, false),
        ("9-axis fusion", { timeEstimator(AHRS(frame: .xMagneticNorthZVertical), $0) }, true),
    ]

    static let compactBaseline = "plain loop, compact readings"
    static let compactSixAxis = "6-axis fusion, compact readings"
    static let compactNineAxis = "9-axis fusion, compact readings"
    /// The fusion rows again over compact readings: the input x-io Fusion's rows are timed on.
    static let compactEstimators: [(name: String, time: @Sendable ([[CompactReading]]) -> (Timing, Int), needsMagnetometer: Bool)] = [
        (compactSixAxis, { timeEstimator(AHRS(frame: .xArbitraryZVertical), $0) }, false),
        (compactNineAxis, { timeEstimator(AHRS(frame: .xMagneticNorthZVertical), $0) }, true),
    ]

    public func run(progress: (String, Double) -> Void = { _, _ in }) throws(BenchError) -> Report {
        progress("loading recordings", 0)
        var recordings = try data.costRecordings(limit: settings.recordingLimit)
        if let n = settings.samplesPerRecording {
            recordings = recordings.map { Recording(name: $0.name, samples: Array($0.samples.prefix(n))) }
        }
        let total = recordings.reduce(0) { $0 + $1.samples.count }
        let compact = recordings.map { $0.samples.map(CompactReading.init) }
        let steps = Double(settings.runs * (2 + FusionBenchmark.estimators.count + FusionBenchmark.compactEstimators.count) + 2)
        var done = 0.0

        let peerFolder = FileManager.default.temporaryDirectory.appendingPathComponent("tiltkit-fusion-cost-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: peerFolder) }
        var peer = try settings.fusionPeer.map { url throws(BenchError) in
            try FusionPeerCost(executable: url, recordings: recordings, folder: peerFolder)
        }
        var peerTimes: [FusionPeerCost.Timing] = []
        // A peer that fails is left out with its reason; Tiltkit's own figures still come.
        var peerFailure: String?

        // Runs alternate baseline, estimators and peer so slow phases of a busy machine hit all alike.
        var baselineTimes: [Timing] = [], compactBaselineTimes: [Timing] = []
        var times = [[Timing]](repeating: [], count: FusionBenchmark.estimators.count)
        var rejected = [Int](repeating: 0, count: FusionBenchmark.estimators.count)
        var compactTimes = [[Timing]](repeating: [], count: FusionBenchmark.compactEstimators.count)
        var compactRejected = [Int](repeating: 0, count: FusionBenchmark.compactEstimators.count)
        let hasMagnetometer = recordings.map(\.hasMagnetometer)
        let samples = recordings.map(\.samples)
        for _ in 0..<settings.runs {
            progress("plain loop", done / steps); done += 1
            baselineTimes.append(FusionBenchmark.timeBaseline(samples).perSample(total))
            FusionBenchmark.timePass(FusionBenchmark.estimators, samples, hasMagnetometer: hasMagnetometer,
                                     times: &times, rejected: &rejected) { progress($0, done / steps); done += 1 }
            progress(FusionBenchmark.compactBaseline, done / steps); done += 1
            compactBaselineTimes.append(FusionBenchmark.timeBaseline(compact).perSample(total))
            FusionBenchmark.timePass(FusionBenchmark.compactEstimators, compact, hasMagnetometer: hasMagnetometer,
                                     times: &compactTimes, rejected: &compactRejected) { progress($0, done / steps); done += 1 }
            if let measuring = peer {
                do {
                    peerTimes.append(try measuring.measure())
                } catch {
                    (peer, peerTimes, peerFailure) = (nil, [], "\(error)")
                }
            }
        }
        let baseline = FusionBenchmark.row("plain loop (sum of the sample's fields)", baselineTimes, baseline: nil, rejected: 0)
        let rows = FusionBenchmark.rows(FusionBenchmark.estimators.map(\.name), times, rejected, baseline: baseline)
        let compactBaseline = FusionBenchmark.row(FusionBenchmark.compactBaseline, compactBaselineTimes, baseline: nil, rejected: 0)
        let compactRows = [compactBaseline] + FusionBenchmark.rows(FusionBenchmark.compactEstimators.map(\.name), compactTimes,
                                                                   compactRejected, baseline: compactBaseline)
        let peers = FusionBenchmark.peerRows(peerTimes, baseline: compactBaseline.medianNanosecondsPerSample)
        let peerNote = peer.flatMap { peer in peerTimes.last.map { timing in FusionBenchmark.peerNote(peer.executable, timing) } }
            ?? peerFailure.map { "x-io Fusion not measured: \($0)" }
            ?? "x-io Fusion not measured: .build-peers/fusion-cost is not built (scripts/install-peers.sh builds it)"

        progress("push delivery", done / steps); done += 1
        let pushRecording = recordings.max { $0.samples.count < $1.samples.count }!
        var push: [Row] = []
        for kind in [PushKind.accelerometer, .deviceMotion] {
            var perSample: [Timing] = []
            for _ in 0..<Swift.max(1, settings.runs / 2) {
                perSample.append(try FusionBenchmark.timePush(kind, pushRecording.samples))
            }
            push.append(FusionBenchmark.row(kind.rawValue, perSample, baseline: baseline.medianNanosecondsPerSample, rejected: 0))
        }
        progress("done", 1)

        var targets: [TargetCheck] = []
        if let six = rows.first(where: { $0.estimator == "6-axis fusion" }) {
            targets.append(TargetCheck(name: "6-axis fusion under 150 ns per sample (a 1 kHz pad takes under 0.015% of a core)", measured: Figure.fixed(six.medianNanosecondsPerSample) + " ns", met: six.medianNanosecondsPerSample < 150))
            targets.append(TargetCheck(name: "6-axis fusion at most 80 ns per sample (as cheap as Mahony and Madgwick, 39–82 ns)", measured: Figure.fixed(six.medianNanosecondsPerSample) + " ns", met: six.medianNanosecondsPerSample <= 80))
        }
        if let nine = rows.first(where: { $0.estimator == "9-axis fusion" }) {
            targets.append(TargetCheck(name: "9-axis fusion under 300 ns per sample (a 1 kHz pad takes under 0.03% of a core)", measured: Figure.fixed(nine.medianNanosecondsPerSample) + " ns", met: nine.medianNanosecondsPerSample < 300))
            targets.append(TargetCheck(name: "9-axis fusion at most 100 ns per sample (under a third of VQF, 348–500 ns)", measured: Figure.fixed(nine.medianNanosecondsPerSample) + " ns", met: nine.medianNanosecondsPerSample <= 100))
        }
        // No dearer than x-io Fusion against a plain loop (3.3× 6D, 3.7× 9D), and push delivery.
        for (name, limit) in [("6-axis fusion", 3.5), ("9-axis fusion", 4.0)] {
            if let row = rows.first(where: { $0.estimator == name }) {
                targets.append(TargetCheck(name: "\(name) at most \(Figure.ratio(limit)) the plain loop", measured: Figure.ratio(row.ratioToBaseline), met: row.ratioToBaseline <= limit))
            }
        }
        // The aim itself: at most x-io Fusion's cost, doing the same work from the same readings, in this run.
        for (name, peerName, _) in FusionBenchmark.sameWorkPeers {
            if let ratio = FusionBenchmark.medianRatio(compactRows, name, over: peers, peerName) {
                targets.append(TargetCheck(name: "\(name) at most the cost of \(peerName) (the same outputs from compact readings, this run)",
                                           measured: Figure.ratio(ratio), met: ratio <= 1))
            }
        }
        if let row = push.first(where: { $0.estimator == PushKind.deviceMotion.rawValue }) {
            targets.append(TargetCheck(name: "push delivery of device motion at most 20× the plain loop", measured: Figure.ratio(row.ratioToBaseline), met: row.ratioToBaseline <= 20))
        }
        return Report(recordings: recordings.map(\.name), samples: total, runs: settings.runs, baseline: baseline,
                      estimators: rows, compact: compactRows, push: push, peers: peers, peerNote: peerNote, targets: targets)
    }

    /// x-io Fusion's rows; its program reports one mean per run, so min and median are over runs and
    /// the wall column repeats the CPU figure (the program times CPU only). Per axis count: the
    /// quaternion only, then (from a program that times it) the outputs Tiltkit's rows write.
    static func peerRows(_ runs: [FusionPeerCost.Timing], baseline: Double) -> [Row] {
        let series: [(String, (FusionPeerCost.Timing) -> Double?)] = [
            (peerSixAxis, \.sixAxis), (peerSixAxisDeviceMotion, \.sixAxisDeviceMotion),
            (peerNineAxis, \.nineAxis), (peerNineAxisDeviceMotion, \.nineAxisDeviceMotion),
        ]
        return series.compactMap { name, figure in
            let values = runs.compactMap(figure)
            return values.isEmpty ? nil : row(name, values.map { Timing(wall: $0, cpu: $0) }, baseline: baseline, rejected: 0)
        }
    }

    /// What ran as x-io Fusion, and what its rows time.
    static func peerNote(_ executable: URL, _ timing: FusionPeerCost.Timing) -> String {
        var note = "x-io Fusion measured in this run: \(executable.path) (C, -O2; \(timing.description))"
        if timing.sixAxisDeviceMotion != nil {
            note += "; its rows \"device motion\" also write per sample what Tiltkit's rows write of it, by its getters:"
            note += " attitude, rotation rate, gravity, user acceleration (the others take the quaternion only)"
        }
        return note
    }

    static let peerSixAxis = "x-io Fusion 6-axis (C)"
    static let peerNineAxis = "x-io Fusion 9-axis (C)"
    static let peerSixAxisDeviceMotion = "x-io Fusion 6-axis (C), device motion"
    static let peerNineAxisDeviceMotion = "x-io Fusion 9-axis (C), device motion"
    /// Tiltkit's row over compact readings, x-io Fusion's row doing the same work, and their short
    /// label, per axis count.
    static let sameWorkPeers = [(compactSixAxis, peerSixAxisDeviceMotion, "6D"), (compactNineAxis, peerNineAxisDeviceMotion, "9D")]
    /// The same with x-io Fusion taking its quaternion only.
    static let quaternionPeers = [(compactSixAxis, peerSixAxis, "6D"), (compactNineAxis, peerNineAxis, "9D")]

    /// The median of the row named `ours` over that of the peer row named `theirs`; nil without either.
    static func medianRatio(_ rows: [Row], _ ours: String, over peers: [Row], _ theirs: String) -> Double? {
        guard let a = rows.first(where: { $0.estimator == ours }), let b = peers.first(where: { $0.estimator == theirs }) else { return nil }
        return a.medianNanosecondsPerSample / b.medianNanosecondsPerSample
    }

    // MARK: Timed loops

    /// Wall-clock and thread CPU time of one measured pass, ns.
    struct Timing {
        var wall: Double
        var cpu: Double

        static func measure(_ body: () -> Void) -> Timing {
            let wall = Nanoclock.now(), cpu = Nanoclock.threadCPUTime()
            body()
            return Timing(wall: Double(Nanoclock.now() - wall), cpu: Double(Nanoclock.threadCPUTime() - cpu))
        }

        func perSample(_ count: Int) -> Timing { Timing(wall: wall / Double(count), cpu: cpu / Double(count)) }
        static func + (a: Timing, b: Timing) -> Timing { Timing(wall: a.wall + b.wall, cpu: a.cpu + b.cpu) }
    }

    /// One timed pass of each estimator over the recordings it can use (those with a magnetometer
    /// where it needs one), appended to its times.
    static func timePass<Readings>(
        _ estimators: [(name: String, time: @Sendable ([[Readings]]) -> (Timing, Int), needsMagnetometer: Bool)],
        _ recordings: [[Readings]], hasMagnetometer: [Bool], times: inout [[Timing]], rejected: inout [Int],
        starting: (String) -> Void
    ) {
        for (i, estimator) in estimators.enumerated() {
            starting(estimator.name)
            let usable = recordings.indices.filter { !estimator.needsMagnetometer || hasMagnetometer[$0] }.map { recordings[$0] }
            let count = usable.reduce(0) { $0 + $1.count }
            guard count > 0 else { continue }
            let (timing, dropped) = estimator.time(usable)
            times[i].append(timing.perSample(count))
            rejected[i] = dropped
        }
    }

    /// A row per estimator that was timed, its ratio to `baseline`'s median.
    static func rows(_ names: [String], _ times: [[Timing]], _ rejected: [Int], baseline: Row) -> [Row] {
        names.indices.compactMap { i in
            times[i].isEmpty ? nil : row(names[i], times[i], baseline: baseline.medianNanosecondsPerSample, rejected: rejected[i])
        }
    }

    /// One pass of the plain loop over all recordings.
    static func timeBaseline<Readings: TimedReadings>(_ recordings: [[Readings]]) -> Timing {
        Timing.measure {
            var sum = 0.0
            for recording in recordings {
                for s in recording {
                    sum += s.timestamp + s.acceleration.x + s.acceleration.y + s.acceleration.z
                    if let r = s.rotationRate { sum += r.x + r.y + r.z }
                    if let m = s.magneticField { sum += m.x + m.y + m.z }
                }
            }
            blackHole(sum)
        }
    }

    /// One pass of a copy of `fresh` per recording, and the samples it rejected. The output is
    /// written in place into one `DeviceMotion`, as a per-sample consumer would.
    static func timeEstimator<Estimator: DeviceMotionEstimator, Readings: TimedReadings>(
        _ fresh: Estimator, _ recordings: [[Readings]]
    ) -> (Timing, Int) {
        var total = Timing(wall: 0, cpu: 0)
        var rejected = 0
        var sum = 0.0
        var motion = DeviceMotion()
        for recording in recordings {
            var estimator = fresh
            total = total + Timing.measure {
                recording.withUnsafeBufferPointer { samples in
                    for i in samples.indices {
                        // Each sample as a source hands one over, made from its readings (the fields
                        // the plain loop reads): passing the 216-byte array element itself compiles
                        // to a memcpy call per sample, 7–15 ns here, which is the harness's copy,
                        // not the estimator's work.
                        let reading = samples[i]
                        let sample = MotionSample(timestamp: reading.timestamp, acceleration: reading.acceleration,
                                                  rotationRate: reading.rotationRate, magneticField: reading.magneticField)
                        if estimator.update(sample, into: &motion) { sum += motion.attitude.quaternion.w } else { rejected += 1 }
                    }
                }
            }
        }
        blackHole(sum)
        return (total, rejected)
    }

    enum PushKind: String { case accelerometer = "push: accelerometer updates (no fusion)", deviceMotion = "push: device motion (6-axis fusion)" }

    /// Per sample, from starting a back-to-back replay of `samples` through a motion manager until
    /// a handler on a serial queue has received every one. Work spans three threads, so the CPU
    /// figure is the process's CPU time.
    static func timePush(_ kind: PushKind, _ samples: [MotionSample]) throws(BenchError) -> Timing {
        let trace = Trace(samples: samples, metadata: TraceMetadata(source: "bench"))
        let source = ReplaySource(trace: trace, pacing: .asFastAsPossible)
        let manager = MotionManager(source: source)
        let queue = DispatchQueue(label: "tiltkit.bench.push")
        let received = Atomic<Int>(0)
        let done = DispatchSemaphore(value: 0)
        let expected = FusionBenchmark.expectedPushCount(kind, samples)
        let start = Nanoclock.now()
        let cpuStart = Nanoclock.processCPUTime()
        switch kind {
        case .accelerometer:
            manager.accelerometerUpdateInterval = 0
            manager.startAccelerometerUpdates(to: queue) { data, _ in
                if data != nil, received.add(1, ordering: .relaxed).newValue == expected { done.signal() }
            }
        case .deviceMotion:
            manager.deviceMotionUpdateInterval = 0
            manager.startDeviceMotionUpdates(to: queue) { motion, _ in
                if motion != nil, received.add(1, ordering: .relaxed).newValue == expected { done.signal() }
            }
        }
        // A replay ends on its own; a rejected sample would leave fewer than expected, so time out.
        let finished = done.wait(timeout: .now() + 60) == .success
        let elapsed = Nanoclock.now() - start
        let cpu = Nanoclock.processCPUTime() - cpuStart
        manager.stopAccelerometerUpdates()
        manager.stopDeviceMotionUpdates()
        let got = received.load(ordering: .relaxed)
        guard finished else { throw .unavailable("push delivery: handler got \(got) of \(expected) samples within 60 s") }
        return Timing(wall: Double(elapsed), cpu: Double(cpu)).perSample(expected)
    }

    /// Samples a handler should receive: all of them, less those the estimator rejects for device motion.
    static func expectedPushCount(_ kind: PushKind, _ samples: [MotionSample]) -> Int {
        guard kind == .deviceMotion else { return samples.count }
        var estimator = DeviceMotionEstimatorKind.fusion.make(frame: .xArbitraryZVertical)
        return samples.reduce(0) { $0 + (estimator.update($1) == nil ? 0 : 1) }
    }

    static func row(_ name: String, _ timings: [Timing], baseline: Double?, rejected: Int) -> Row {
        let cpu = timings.map(\.cpu).sorted(), wall = timings.map(\.wall).sorted()
        let median = cpu.isEmpty ? .nan : cpu[cpu.count / 2]
        return Row(estimator: name, minNanosecondsPerSample: cpu.first ?? .nan, medianNanosecondsPerSample: median,
                   wallMedianNanosecondsPerSample: wall.isEmpty ? .nan : wall[wall.count / 2],
                   samplesPerSecond: 1e9 / median, ratioToBaseline: baseline.map { median / $0 } ?? 1, rejected: rejected)
    }
}

extension FusionBenchmark.Report {
    public var text: String {
        var table = TextTable(["", "min ns/sample", "median ns/sample", "wall median", "samples/s", "× plain loop", "rejected"])
        for row in [baseline] + estimators + compact + peers + push {
            table.append([row.estimator, Figure.fixed(row.minNanosecondsPerSample), Figure.fixed(row.medianNanosecondsPerSample),
                          Figure.fixed(row.wallMedianNanosecondsPerSample),
                          Figure.count(Int(row.samplesPerSecond.isFinite ? row.samplesPerSecond : 0)),
                          Figure.ratio(row.ratioToBaseline), String(row.rejected)])
        }
        let quoted = BroadPeers.averages.map { "\($0.filter) \(Figure.fixed($0.nanosecondsPerSample, 0))" }.joined(separator: ", ")
        return """
            \(samples) samples from \(recordings.count) recording(s): \(recordings.joined(separator: ", "))
            \(runs) runs, each a fresh estimator per recording over samples in memory, called through its concrete type
            with the output written in place (update(_:into:), as the motion manager calls it), each sample made from
            the recorded sample's readings as a source makes one (not a memcpy of the array's element); min and median over runs
            of the measuring thread's CPU time per sample (CLOCK_THREAD_CPUTIME_ID, so other processes on a shared
            machine do not count); the wall-clock median beside it.
            Compact readings: the same samples as \(MemoryLayout<CompactReading>.stride)-byte readings rather than \(MemoryLayout<MotionSample>.stride)-byte
            samples: compact input, as x-io Fusion's program reads its own (40 bytes of floats); its rows' ratios are to that plain loop.
            Push: a replay as fast as possible through MotionManager to a handler on a serial DispatchQueue, per sample
            (CPU: the whole process, since the work spans the replay, manager and queue threads).

            \(table.rendered)

            \(peerNote)\(peerComparison)
            Peers on BROAD (ns/sample, native C/C++ -O2; quoted from ../shared/data/broad/README.md, not measured here): \(quoted)

            \(targets.map(\.line).joined(separator: "\n"))
            """
    }
}

extension FusionBenchmark.Report {
    /// Tiltkit's medians over x-io Fusion's, axes for axes, as a sentence ("" without the peer):
    /// against x-io Fusion writing the same outputs, and against its quaternion alone.
    var peerComparison: String {
        func ratios(_ pairs: [(String, String, String)]) -> String {
            pairs.compactMap { ours, theirs, label in
                FusionBenchmark.medianRatio(compact, ours, over: peers, theirs).map { "\(label) \(Figure.ratio($0))" }
            }.joined(separator: ", ")
        }
        let same = ratios(FusionBenchmark.sameWorkPeers)
        let quaternion = ratios(FusionBenchmark.quaternionPeers)
        guard !quaternion.isEmpty else { return "" }
        var sentence = "\nTiltkit's cost over x-io Fusion's in this run, both from compact readings: "
        if !same.isEmpty { sentence += "writing the same device motion \(same); against its quaternion alone " }
        return sentence + quaternion
    }
}
