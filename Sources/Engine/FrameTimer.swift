/// Per-frame timing: the step since the last frame and a window of recent frame times for the HUD.
///
///     var timer = FrameTimer()
///     let dt = timer.tick(now: Window.monotonicSeconds())   // seconds since the previous tick
public struct FrameTimer: Sendable {
    /// Frame durations in seconds, oldest first, at most `capacity`.
    public private(set) var recent: [Double] = []
    public let capacity: Int
    /// Frames ticked so far.
    public private(set) var frameCount = 0
    private var last: Double?

    public init(capacity: Int = 120) { self.capacity = capacity }

    /// Records a frame that ends at `now` (seconds) and returns its duration (0 for the first).
    /// Steps are clamped to 0...0.25 s so a pause in the debugger does not fling the simulation.
    @discardableResult
    public mutating func tick(now: Double) -> Double {
        defer { last = now; frameCount += 1 }
        guard let last else { return 0 }
        let dt = min(max(now - last, 0), 0.25)
        recent.append(dt)
        if recent.count > capacity { recent.removeFirst(recent.count - capacity) }
        return dt
    }

    /// Mean of the recent frame times, seconds (0 before two ticks).
    public var averageFrameTime: Double { recent.isEmpty ? 0 : recent.reduce(0, +) / Double(recent.count) }
    /// Longest recent frame, seconds.
    public var worstFrameTime: Double { recent.max() ?? 0 }
}
