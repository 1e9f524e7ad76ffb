extension Trace {
    /// The samples with `start ≤ timestamp ≤ end` (seconds on the trace's own time axis),
    /// timestamps unchanged. Throws when the range is inverted or holds no sample.
    ///
    ///     let pitchSection = try trace.cut(from: 15, to: 30)
    public func cut(from start: Double, to end: Double) throws -> Trace {
        guard start <= end else { throw TraceCutError.invertedRange(start: start, end: end) }
        let lower = samples.partitionPoint { $0.timestamp < start }
        let upper = samples.partitionPoint { $0.timestamp <= end }
        guard lower < upper else { throw TraceCutError.emptyRange(start: start, end: end, duration: duration) }
        var cut = self
        cut.samples = Array(samples[lower..<upper])
        cut.metadata.source = Trace.cutSource(metadata.source, from: start, to: end)
        return cut
    }

    /// How a cut names its source: `walk.csv [15.0 s…30.0 s]`.
    public static func cutSource(_ source: String, from start: Double, to end: Double) -> String {
        "\(source) [\(start) s…\(end) s]"
    }
}

/// Why a time range cannot be cut out of a trace.
public enum TraceCutError: Error, Equatable, CustomStringConvertible {
    case invertedRange(start: Double, end: Double)
    case emptyRange(start: Double, end: Double, duration: Double)

    public var description: String {
        switch self {
        case .invertedRange(let s, let e): return "the range starts (\(s) s) after it ends (\(e) s)"
        case .emptyRange(let s, let e, let d): return "no samples between \(s) s and \(e) s (the trace lasts \(d) s)"
        }
    }
}
