import Foundation

/// A recording of motion samples plus what it says about itself.
///
///     let trace = try Trace.load(contentsOf: URL(fileURLWithPath: "Assets/traces/xio/sensor_data.csv"))
///     print(trace.samples.count, trace.duration)      // 13514 135.3…
///     try trace.write(to: URL(fileURLWithPath: "copy.csv"))
public struct Trace: Hashable, Sendable {
    /// In time order, timestamps strictly increasing, in seconds.
    public var samples: [MotionSample]
    public var metadata: TraceMetadata
    /// What the reader passed over without failing: a last line cut off mid-write.
    public var warnings: [TraceError]

    public init(samples: [MotionSample], metadata: TraceMetadata, warnings: [TraceError] = []) {
        self.samples = samples
        self.metadata = metadata
        self.warnings = warnings
    }

    /// Reads a trace in any `TraceFormat`, detected from its contents unless `format` is given.
    /// Throws `TraceError` (file, line, what) for anything malformed; never returns part of a file,
    /// except that a last line cut off mid-write is left out and named in `warnings`. The file is
    /// read a piece at a time (`TraceSampleStream`): memory holds the samples, not the text.
    public static func load(contentsOf url: URL, format: TraceFormat? = nil) throws -> Trace {
        let stream = try TraceSampleStream(contentsOf: url, format: format)
        var samples: [MotionSample] = []
        while let sample = try stream.next() { samples.append(sample) }
        var metadata = stream.metadata
        // The stream estimates an import's rate from its first piece; here all of it is at hand.
        if stream.format != .tiltkit { metadata.nominalRate = estimatedRate(samples) }
        return Trace(samples: samples, metadata: metadata, warnings: stream.warnings)
    }

    /// Writes the trace in the tiltkit format (see `TiltkitTraceFormat`), replacing `url`.
    public func write(to url: URL) throws {
        let writer = try TraceWriter(url: url, metadata: metadata, columns: columns)
        for sample in samples { try writer.append(sample) }
        try writer.close()
    }

    /// The optional columns at least one sample fills.
    public var columns: TraceColumns { TraceColumns(filledBy: samples) }

    /// The raw sensors the trace carries.
    public var sensors: SensorSet { columns.sensors }

    /// Seconds from the first sample to the last.
    public var duration: Double {
        guard let first = samples.first, let last = samples.last else { return 0 }
        return last.timestamp - first.timestamp
    }

    /// The median time between samples in seconds, nil with fewer than two samples.
    public var medianPeriod: Double? { Trace.medianPeriod(samples) }

    static func medianPeriod(_ samples: [MotionSample]) -> Double? {
        medianPeriod(times: samples.map(\.timestamp))
    }

    /// The median step between consecutive `times` (seconds), nil with fewer than two.
    static func medianPeriod(times: [Double]) -> Double? {
        guard times.count >= 2 else { return nil }
        var periods = (1..<times.count).map { times[$0] - times[$0 - 1] }
        periods.sort()
        return periods[periods.count / 2]
    }

    /// 1 / median period, rounded to 0.1 Hz: the nominal rate of a recording that does not state one.
    static func estimatedRate(_ samples: [MotionSample]) -> Double? {
        estimatedRate(medianPeriod: medianPeriod(samples))
    }

    static func estimatedRate(medianPeriod period: Double?) -> Double? {
        guard let period, period > 0 else { return nil }
        return ((1 / period) * 10).rounded() / 10
    }

    /// `folder/file.csv`: enough to recognise a recording without the machine's paths.
    static func shortName(_ url: URL) -> String {
        let parent = url.deletingLastPathComponent().lastPathComponent
        let file = url.lastPathComponent
        return parent.isEmpty || parent == "/" || parent == "." ? file : "\(parent)/\(file)"
    }
}
