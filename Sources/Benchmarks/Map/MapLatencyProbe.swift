#if canImport(Glibc)
import Glibc
#endif
import Histogram

/// Times `tiltkit map`'s path per report on the mapping thread: `arrived()` when the source hands
/// over what it just read, `written(since:events:)` when the writer's write(2) to /dev/uinput has
/// returned. Records into a histogram allocated up front, so timing adds no allocation to the path.
///
///     let probe = MapLatencyProbe()
///     let start = probe.arrived()                  // in the source's delivery
///     let events = writer.write(mapper.step(…))   // the real path
///     probe.written(since: start, events: events)
///
/// Read `report(…)` only after the source stopped (a source delivers nothing after `stop` returns).
public final class MapLatencyProbe: @unchecked Sendable {
    /// Arrival → written, ns, of every report timed.
    private var latency = Distribution.makeHistogram(highestTrackableValue: 60_000_000_000)
    /// Reports whose step wrote no event (nothing changed, no motion to send): timed all the same.
    private var silent = 0
    private var firstArrival: UInt64?
    private var lastWritten: UInt64 = 0
    private var usageAtStart = rusage()
    private var usageAtEnd = rusage()

    public init() {}

    /// Marks the start of the measured run: process CPU time counts from here.
    public func start() { getrusage(RUSAGE_SELF.rawValue, &usageAtStart) }

    /// Marks its end (after the source stopped).
    public func stop() { getrusage(RUSAGE_SELF.rawValue, &usageAtEnd) }

    /// Now, as a report's arrival.
    @inline(__always) public func arrived() -> UInt64 {
        let now = Nanoclock.now()
        if firstArrival == nil { firstArrival = now }
        return now
    }

    /// The report that arrived at `arrival` is written (`events` input events sent to uinput).
    @inline(__always) public func written(since arrival: UInt64, events: Int) {
        let now = Nanoclock.now()
        latency.record(now &- arrival)
        if events == 0 { silent += 1 }
        lastWritten = now
    }

    /// The figures, for `source` (its spec) and the reports the source delivered meanwhile.
    public func report(source: String) -> MapBenchReport {
        func seconds(_ t: timeval) -> Double { Double(t.tv_sec) + Double(t.tv_usec) * 1e-6 }
        let reports = Int(latency.totalCount)
        let user = seconds(usageAtEnd.ru_utime) - seconds(usageAtStart.ru_utime)
        let system = seconds(usageAtEnd.ru_stime) - seconds(usageAtStart.ru_stime)
        let span = firstArrival.map { Nanoclock.seconds(lastWritten &- $0) } ?? 0
        return MapBenchReport(source: source, seconds: span, reports: reports, silentReports: silent,
                              latency: Distribution(latency, unitsPerNanosecond: 1),
                              cpuUserPerReport: reports > 0 ? user / Double(reports) * 1e9 : 0,
                              cpuSystemPerReport: reports > 0 ? system / Double(reports) * 1e9 : 0)
    }
}
