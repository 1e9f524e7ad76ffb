/// One source's figures from `LiveSourceBenchmark`; `--compare-paths` prints several side by side.
public struct LiveSourceReport: Codable, Sendable {
    public struct FrameAge: Codable, Sendable {
        public var frameRate: Double
        /// now − arrival of the sample pulled at each frame, ns.
        public var age: Distribution
    }

    /// The `--source` spec.
    public var path: String
    public var source: String
    public var kind: String
    public var nominalRate: Double?
    /// The manager's `measuredSampleRate` at the end.
    public var measuredRate: Double?
    public var seconds: Double
    /// CLOCK_MONOTONIC seconds of the first and last sample counted, so a test (or a log) can
    /// line the figures up with what a device sent.
    public var arrivalSpan: [Double]
    /// Intervals by the samples' own timestamps (the pad's clock where it has one).
    public var byTimestamp: ReportIntervals
    /// Intervals by arrival on the host: what bunching and jitter the game sees.
    public var byArrival: ReportIntervals
    /// Source hand-over → first pull that returns it, ns (consumer spinning).
    public var arrivalToVisible: Distribution
    /// Samples caught by the spinning consumer / samples arrived meanwhile (nil with an update interval).
    public var caughtFraction: Double?
    /// The manager's work per sample on the source's thread (fusion, publishing), ns.
    public var processing: Distribution
    /// The estimator alone on the captured stream, ns per sample.
    public var fusion: Distribution
    public var idealAge: IdealAge
    public var frames: [FrameAge]
    /// `MotionManager.latestDeviceMotion`, ns per pull (`bench pull`).
    public var pullCost: Distribution?
    /// `MotionManager.sampleRateControl`: the device's rate set, or its own rate thinned.
    public var rateControl: String
    public var connection: String
    public var disconnections: [String]
    /// False when the run outgrew the notes' storage (later samples delivered, not counted).
    public var notedAll: Bool
}

/// Several paths' reports, and the text `bench latency|pull --source` prints.
public struct LiveSourceComparison: Codable, Sendable {
    public var reports: [LiveSourceReport]
    /// Paths that could not run, with why.
    public var skipped: [String]

    public init(reports: [LiveSourceReport], skipped: [String]) {
        self.reports = reports
        self.skipped = skipped
    }

    public var text: String {
        func us(_ ns: Double) -> String { Figure.fixed(ns / 1000, 1) }
        func count(_ n: Int?) -> String { n.map(String.init) ?? "n/a" }
        var lines: [String] = []
        for (i, r) in reports.enumerated() {
            lines.append("[\(i + 1)] \(r.path): \(r.source), \(Figure.fixed(r.seconds, 1)) s; nominal \(r.nominalRate.map { Figure.fixed($0, 0) + " Hz" } ?? "unknown"), measured \(r.measuredRate.map { Figure.fixed($0, 1) + " Hz" } ?? "n/a"); rate: \(r.rateControl)")
            if !r.disconnections.isEmpty { lines.append("    disconnections: \(r.disconnections.joined(separator: "; "))") }
            if r.connection != "running" { lines.append("    the source is \(r.connection) at the end (a recording may have ended: its figures cover what came before)") }
            if !r.notedAll { lines.append("    (more samples than the notes hold: later ones delivered but not counted)") }
        }
        let header = ["figure"] + reports.indices.map { "[\($0 + 1)]" }
        var t = TextTable(header)
        func row(_ name: String, _ value: (LiveSourceReport) -> String) { t.append([name] + reports.map(value)) }
        row("samples") { Figure.count(UInt64($0.byTimestamp.samples)) }
        row("timestamps from") { $0.byTimestamp.clock }
        row("interval mean µs (timestamps)") { us($0.byTimestamp.intervals.mean) }
        row("interval p50 / p99 / p99.9 µs") { "\(us($0.byTimestamp.intervals.p50)) / \(us($0.byTimestamp.intervals.p99)) / \(us($0.byTimestamp.intervals.p999))" }
        row("interval mean µs (arrival)") { us($0.byArrival.intervals.mean) }
        row("arrival p50 / p99 / p99.9 µs") { "\(us($0.byArrival.intervals.p50)) / \(us($0.byArrival.intervals.p99)) / \(us($0.byArrival.intervals.p999))" }
        row("reports per second") { Figure.fixed($0.byTimestamp.rate, 1) }
        row("dropped reports") { count($0.byTimestamp.drops) }
        row("duplicated reports") { count($0.byTimestamp.duplicates) }
        row("arrival → visible p50 / p99 µs") { r in
            // A source delivering on the game's thread (SDL) has no spinning phase.
            r.arrivalToVisible.count == 0 ? "n/a" : "\(us(r.arrivalToVisible.p50)) / \(us(r.arrivalToVisible.p99))"
        }
        row("caught by the spinning pull") { $0.caughtFraction.map { Figure.fixed($0 * 100, 1) + " %" } ?? "n/a" }
        row("manager per sample p50 / p99 ns") { "\(Figure.fixed($0.processing.p50, 0)) / \(Figure.fixed($0.processing.p99, 0))" }
        row("fusion alone p50 / p99 ns") { "\(Figure.fixed($0.fusion.p50, 0)) / \(Figure.fixed($0.fusion.p99, 0))" }
        row("ideal age (even spacing) µs") { us($0.idealAge.evenSpacing) }
        row("ideal age (these intervals) µs") { us($0.idealAge.measuredSpacing) }
        for (index, frame) in (reports.first?.frames ?? []).enumerated() {
            let name = "\(Figure.fixed(frame.frameRate, 0)) Hz"
            row("age at \(name): mean µs") { r in index < r.frames.count ? us(r.frames[index].age.mean) : "" }
            row("age at \(name): p50 / p99 / p99.9 µs") { r in
                guard index < r.frames.count else { return "" }
                let a = r.frames[index].age
                return "\(us(a.p50)) / \(us(a.p99)) / \(us(a.p999))"
            }
            row("age at \(name): mean / ideal") { r in
                guard index < r.frames.count, r.idealAge.measuredSpacing > 0 else { return "" }
                return Figure.ratio(r.frames[index].age.mean / r.idealAge.measuredSpacing)
            }
        }
        if reports.contains(where: { $0.pullCost != nil }) {
            row("latestDeviceMotion pull p50 / p99.9 ns") { r in
                r.pullCost.map { "\(Figure.fixed($0.p50)) / \(Figure.fixed($0.p999))" } ?? ""
            }
        }
        lines += ["", t.rendered, "",
                  "Age = now − arrival of the sample pulled at each frame; ideal = the mean wait for the next report (half the mean interval when even; Σd²/2Σd for the intervals measured) plus the manager's processing.",
                  "Drops and duplicates count from the samples' timestamps (a gap of k median intervals is k − 1 lost); n/a where those are arrival times."]
        for s in skipped { lines.append("skipped: \(s)") }
        return lines.joined(separator: "\n")
    }
}
