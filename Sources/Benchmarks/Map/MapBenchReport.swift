/// `tiltkit bench map`'s figures: a report's arrival → its virtual events written to /dev/uinput,
/// and the process's CPU time per report, against the target p99 ≤ 0.5 ms.
public struct MapBenchReport: Codable, Sendable {
    /// The `--source` spec.
    public var source: String
    /// From the first report's arrival to the last write, s.
    public var seconds: Double
    /// Motion reports mapped and timed.
    public var reports: Int
    /// Of those, reports whose step changed nothing on the virtual devices (no event written).
    public var silentReports: Int
    /// Arrival (the source's hand-over of what it read) → the writer's write to uinput returned, ns.
    public var latency: Distribution
    /// Process CPU time (getrusage, all threads) per report, ns: user and system (the writes).
    public var cpuUserPerReport: Double
    public var cpuSystemPerReport: Double
    /// Their sum, ns.
    public var cpuPerReport: Double
    /// The target for the latency's p99, ns, and whether the run met it.
    public var targetP99: Double
    public var meetsTarget: Bool

    /// 0.5 ms: a 1000 Hz pad's report period halved, so mapping never adds a report's worth of delay.
    public static let targetP99 = 500_000.0

    public init(source: String, seconds: Double, reports: Int, silentReports: Int, latency: Distribution,
                cpuUserPerReport: Double, cpuSystemPerReport: Double) {
        self.source = source
        self.seconds = seconds
        self.reports = reports
        self.silentReports = silentReports
        self.latency = latency
        self.cpuUserPerReport = cpuUserPerReport
        self.cpuSystemPerReport = cpuSystemPerReport
        cpuPerReport = cpuUserPerReport + cpuSystemPerReport
        targetP99 = Self.targetP99
        meetsTarget = latency.count > 0 && latency.p99 <= Self.targetP99
    }

    public var text: String {
        func us(_ ns: Double) -> String { Figure.fixed(ns / 1000, 1) }
        var t = TextTable(["figure", "value"])
        t.append(["reports mapped", "\(Figure.count(UInt64(reports))) in \(Figure.fixed(seconds, 1)) s (\(Figure.count(UInt64(silentReports))) wrote no event)"])
        t.append(["arrival → uinput written p50 µs", us(latency.p50)])
        t.append(["arrival → uinput written p99 µs", us(latency.p99)])
        t.append(["arrival → uinput written p99.9 µs", us(latency.p999)])
        t.append(["arrival → uinput written max µs", us(latency.max)])
        t.append(["CPU per report µs (user + system)", "\(us(cpuPerReport)) (\(us(cpuUserPerReport)) + \(us(cpuSystemPerReport)))"])
        let verdict = reports == 0 ? "no reports" : meetsTarget ? "PASS" : "MISS"
        return [
            "source \(source)", "", t.rendered, "",
            "target: p99 ≤ \(Figure.fixed(targetP99 / 1e6, 1)) ms: \(verdict) (p99 \(Figure.fixed(latency.p99 / 1e6, 3)) ms)",
            "Arrival = the source handing over what it just read (decoded); written = the write(2) of the step's events to /dev/uinput returned. CPU = getrusage(RUSAGE_SELF), every thread of the process, over the run.",
        ].joined(separator: "\n")
    }
}
