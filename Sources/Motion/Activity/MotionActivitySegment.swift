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
