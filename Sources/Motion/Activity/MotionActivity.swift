/// One call of the activity classifier, shaped like Core Motion's `CMMotionActivity`: a boolean per
/// activity (exactly one true here), a confidence and the time the activity started.
///
///     activityManager.startActivityUpdates(to: .main) { activity in
///         if activity.walking || activity.running { pauseGestures() }
///     }
public struct MotionActivity: Hashable, Sendable {
    public var kind: MotionActivityKind
    public var confidence: MotionActivityConfidence
    /// Seconds on the source's clock when the activity began (backdated to its first evidence, so it
    /// is earlier than the moment the call was made, as Core Motion's `startDate` is).
    public var startDate: Double

    public init(kind: MotionActivityKind, confidence: MotionActivityConfidence, startDate: Double) {
        self.kind = kind
        self.confidence = confidence
        self.startDate = startDate
    }

    public var stationary: Bool { kind == .stationary }
    public var walking: Bool { kind == .walking }
    public var running: Bool { kind == .running }
    public var automotive: Bool { kind == .automotive }
    public var cycling: Bool { kind == .cycling }
    public var unknown: Bool { kind == .unknown }
}
