/// A stretch of time with one activity call: what `tiltkit activity` prints and
/// `MotionActivityManager.queryActivity(from:to:)` returns.
public struct MotionActivitySegment: Hashable, Sendable {
    /// Seconds on the source's clock.
    public var start: Double
    /// Seconds on the source's clock: the next segment's start, or the last sample seen.
    public var end: Double
    public var kind: MotionActivityKind
    /// The confidence most of the segment's windows had.
    public var confidence: MotionActivityConfidence

    public init(start: Double, end: Double, kind: MotionActivityKind, confidence: MotionActivityConfidence) {
        self.start = start
        self.end = end
        self.kind = kind
        self.confidence = confidence
    }

    public var duration: Double { end - start }
}

extension MotionActivitySegment {
    /// One JSON object, `{"start":…,"end":…,"activity":"…","confidence":"…"}`, times in seconds
    /// after `origin` (the trace's first sample), two decimals: `tiltkit activity --json`.
    public func jsonLine(origin: Double = 0) -> String {
        "{\"start\":\(Self.seconds(start - origin)),\"end\":\(Self.seconds(end - origin)),"
            + "\"activity\":\"\(kind.rawValue)\",\"confidence\":\"\(confidence)\"}"
    }

    /// Two decimals without Foundation's locale.
    private static func seconds(_ value: Double) -> String {
        guard value.isFinite else { return "null" }
        let hundredths = Int((abs(value) * 100).rounded())
        let fraction = hundredths % 100
        return (value < 0 && hundredths != 0 ? "-" : "") + "\(hundredths / 100)." + (fraction < 10 ? "0" : "") + "\(fraction)"
    }
}
