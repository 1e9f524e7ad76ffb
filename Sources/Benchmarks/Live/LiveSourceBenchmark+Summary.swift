import Histogram
import Motion

/// What a `LiveSourceBenchmark` run keeps for its charts (not in the JSON).
public struct LiveSourceSeries: Sendable {
    /// Report intervals, µs: by the sample timestamps, and by arrival.
    public var timestampIntervals: [Double] = []
    public var arrivalIntervals: [Double] = []
    /// Per frame rate: (seconds into the game loops, age µs) of each pull.
    public var ageOverTime: [[(Double, Double)]] = []

    public init() {}
}

extension LiveSourceBenchmark {
    /// The figures from the samples that arrived from `begin` on (the phases' start: not the
    /// catching up of a source that was slow to open).
    func summarise(_ tap: TappedSource, from begin: UInt64, path: String, seconds: Double, visible: Histogram<UInt64>, caught: Int,
                   spun: (UInt64, UInt64), ages: [Histogram<UInt64>], pullCost: Distribution?,
                   rateControl: SampleRateControl, measuredRate: Double?, state: String,
                   duplicatesBefore: Int, series: LiveSourceSeries) -> (LiveSourceReport, LiveSourceSeries) {
        var series = series
        let records = tap.records.filter { $0.arrival >= begin }
        let timestamps = records.map(\.sample.timestamp)
        let arrivals = records.map { Nanoclock.seconds($0.arrival) }
        let byTimestamp = ReportIntervals(timestamps: timestamps, clock: clock.name, fromDeviceClock: clock.fromDevice,
                                          knownDuplicates: clock.duplicatesSoFar() - duplicatesBefore)
        let byArrival = ReportIntervals(timestamps: arrivals, clock: "arrival time (host)", fromDeviceClock: false)
        series.timestampIntervals = Self.deltas(timestamps).map { $0 * 1e6 }
        series.arrivalIntervals = Self.deltas(arrivals).map { $0 * 1e6 }

        let processing = Distribution(nanoseconds: records.map { Double($0.processing) })
        let ideal = IdealAge(arrivalIntervals: Self.deltas(arrivals).map { $0 * 1e9 }, processing: processing.mean)
        let frames = zip(settings.frameRates, ages).map { rate, histogram in
            LiveSourceReport.FrameAge(frameRate: rate, age: Distribution(histogram, unitsPerNanosecond: 1))
        }
        let inSpin = records.lazy.filter { $0.arrival >= spun.0 && $0.arrival < spun.1 }.count
        return (LiveSourceReport(
            path: path, source: tap.info.name, kind: tap.info.kind, nominalRate: tap.info.nominalRate,
            measuredRate: measuredRate, seconds: seconds, arrivalSpan: [arrivals.first, arrivals.last].compactMap { $0 },
            byTimestamp: byTimestamp, byArrival: byArrival,
            arrivalToVisible: Distribution(visible, unitsPerNanosecond: 1),
            caughtFraction: settings.updateInterval == 0 && inSpin > 0 ? Double(caught) / Double(inSpin) : nil,
            processing: processing, fusion: fusionCost(records), idealAge: ideal, frames: frames, pullCost: pullCost,
            rateControl: rateControl.description, connection: state, disconnections: tap.disconnections,
            notedAll: tap.records.count < tap.capacity), series)
    }

    /// The estimator alone on the captured samples, per update, ns (the clock read's cost removed).
    private func fusionCost(_ records: [TappedSource.Record]) -> Distribution {
        guard let first = records.first else { return Distribution(nanoseconds: []) }
        let kind: DeviceMotionEstimatorKind = first.sample.rotationRate == nil ? .accelerometer : .fusion
        var estimator = kind.make()
        var motion = DeviceMotion()
        let clockCost = Nanoclock.readCost()
        var costs: [Double] = []
        costs.reserveCapacity(records.count)
        for record in records {
            let start = Nanoclock.now()
            _ = estimator.update(record.sample, into: &motion)
            let stop = Nanoclock.now()
            costs.append(Swift.max(0, Double(stop &- start) - clockCost))
        }
        blackHole(motion)
        return Distribution(nanoseconds: costs)
    }

    static func deltas(_ times: [Double]) -> [Double] {
        zip(times, times.dropFirst()).map { $1 - $0 }.filter { $0 >= 0 }
    }
}

/// The mean age a game loop would see if nothing but the source's spacing and the processing
/// delayed its samples: a frame lands at a random moment within an interval, so on average half
/// of it has passed, plus the processing before the sample is visible. With uneven intervals
/// (Bluetooth's bunched reports) a frame more likely lands in a long one: the mean wait is
/// Σd² / (2 Σd), not Σd / 2n.
public struct IdealAge: Codable, Hashable, Sendable {
    /// Half the mean interval plus processing, ns: the ideal for evenly spaced reports.
    public var evenSpacing: Double
    /// Σd² / (2 Σd) plus processing, ns: the ideal for the intervals measured.
    public var measuredSpacing: Double

    public init(arrivalIntervals d: [Double], processing: Double) {
        let sum = d.reduce(0, +)
        let squares = d.reduce(0) { $0 + $1 * $1 }
        evenSpacing = d.isEmpty ? 0 : sum / Double(d.count) / 2 + processing
        measuredSpacing = sum > 0 ? squares / (2 * sum) + processing : 0
    }
}
