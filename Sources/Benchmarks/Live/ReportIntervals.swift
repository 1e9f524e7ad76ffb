/// The spacing of a source's reports, and the reports it lost or repeated.
///
/// The expected spacing is the median interval: robust while fewer than half the reports are
/// lost, and right for a pad whose real rate differs from its nominal one (a DualShock 4 over
/// Bluetooth). A gap of k expected spacings is k − 1 lost reports; a spacing under 1 % of the
/// expected one is a repeat (a pad resending a report its counter already showed). Both need
/// timestamps from the device's clock (a pad's counter, an IIO buffer's stamp, a trace's time),
/// which is regular to far better than half a period:
/// on arrival times a host's bunched reads look like repeats and its stalls like losses, so
/// there they are nil.
public struct ReportIntervals: Codable, Hashable, Sendable {
    /// What the timestamps measure, for the report ("the pad's counter", "arrival time", …).
    public var clock: String
    public var samples: Int
    /// Intervals between consecutive timestamps, ns.
    public var intervals: Distribution
    /// The expected spacing (the median interval), ns.
    public var period: Double
    /// Reports lost (gaps of k periods count k − 1); nil when the timestamps are arrival times.
    public var drops: Int?
    /// Reports repeated; nil when the timestamps are arrival times.
    public var duplicates: Int?
    /// Times the timestamps went backwards (a source restarted): not counted as intervals.
    public var restarts: Int

    /// A gap counts as losses from this many expected spacings on (between one and two, so jitter
    /// of up to half a period is not a loss).
    public static let gapThreshold = 1.5
    /// A spacing below this fraction of the expected one is a repeat.
    public static let repeatThreshold = 0.01

    /// `timestamps` in seconds, in delivery order; `fromDeviceClock` says whether they come from the
    /// device (drops and repeats are counted) or from arrival; `knownDuplicates` are repeats the
    /// source found itself (a pad counter that stood still, stamped on arrival).
    public init(timestamps: [Double], clock: String, fromDeviceClock: Bool, knownDuplicates: Int = 0) {
        var deltas: [Double] = []
        deltas.reserveCapacity(Swift.max(0, timestamps.count - 1))
        var restarts = 0
        for (previous, next) in zip(timestamps, timestamps.dropFirst()) {
            let d = next - previous
            if d < 0 || !d.isFinite { restarts += 1; continue }
            deltas.append(d * 1e9)
        }
        let distribution = Distribution(nanoseconds: deltas)
        self.clock = clock
        self.samples = timestamps.count
        self.intervals = distribution
        self.period = distribution.p50
        self.restarts = restarts
        guard fromDeviceClock, distribution.p50 > 0 else {
            drops = nil
            duplicates = nil
            return
        }
        let period = distribution.p50
        var drops = 0, repeats = 0
        for d in deltas {
            if d >= Self.gapThreshold * period { drops += Int((d / period).rounded()) - 1 }
            else if d < Self.repeatThreshold * period { repeats += 1 }
        }
        self.drops = drops
        self.duplicates = repeats + knownDuplicates
    }

    /// Reports per second from the mean interval.
    public var rate: Double { intervals.mean > 0 ? 1e9 / intervals.mean : 0 }
}
