/// A pulled value with the time the manager received the source sample it came from, so a
/// caller can measure how old it is: `clock.now() - received.arrivalTime`.
public struct Received<Value: BitwiseCopyable & Sendable>: Sendable, BitwiseCopyable {
    public var value: Value
    /// Seconds on the manager's `MotionClock` when the source delivered the underlying sample.
    /// Samples a source delivered together (one `.samples` event: one device read, a replay's
    /// catch-up) share one arrival time, the time the batch was handed over.
    public var arrivalTime: Double

    public init(value: Value, arrivalTime: Double) {
        self.value = value
        self.arrivalTime = arrivalTime
    }
}
