import Motion

/// The pull a game actually makes, `MotionManager.latestDeviceMotion`, timed while a real
/// recording is replayed into the manager (fused on the replay thread and published to the
/// manager's own slot). Batches of 100 pulls, as in `PullBenchmark`'s tight loop.
public enum ManagerPullProbe {
    public struct Result: Codable, Sendable {
        public var source: String
        /// ns per pull.
        public var cost: Distribution
        /// malloc calls on the consumer thread inside the timed pulls.
        public var allocations: UInt64
    }

    /// Replays `recording` at `speed`× through a manager with device motion on, then pulls for `seconds`.
    public static func run(_ recording: Recording, speed: Double, seconds: Double) -> Result {
        let trace = Trace(samples: recording.samples, metadata: TraceMetadata(source: recording.name))
        let manager = MotionManager(source: ReplaySource(trace: trace, pacing: .realTime(speed: speed), loop: true))
        manager.deviceMotionUpdateInterval = 0
        manager.startDeviceMotionUpdates()
        defer { manager.stopDeviceMotionUpdates() }
        let deadline = Nanoclock.now() + 2_000_000_000
        while manager.latestDeviceMotion == nil && Nanoclock.now() < deadline { Nanoclock.sleep(until: Nanoclock.now() + 1_000_000) }
        let (cost, allocations) = measure(manager, seconds: seconds)
        let period = (recording.samples.last!.timestamp - recording.samples.first!.timestamp) / Double(recording.samples.count - 1)
        return Result(source: "\(recording.name) replayed at \(Figure.fixed(speed / period, 0)) Hz, 6-axis fusion",
                      cost: cost, allocations: allocations)
    }

    /// Times batches of 100 `latestDeviceMotion` pulls for `seconds`.
    public static func measure(_ manager: MotionManager, seconds: Double) -> (Distribution, UInt64) {
        var cost = Distribution.makeHistogram()
        var allocations: UInt64 = 0
        let end = Nanoclock.now() + UInt64(seconds * 1e9)
        var sink = 0.0
        while Nanoclock.now() < end {
            let before = AllocationCount.onThisThread()
            let start = Nanoclock.now()
            for _ in 0..<100 { sink += manager.latestDeviceMotion?.arrivalTime ?? 0 }
            let stop = Nanoclock.now()
            allocations &+= AllocationCount.onThisThread() &- before
            cost.record((stop &- start) &* 10)    // ps per pull: ns × 1000 / 100
        }
        blackHole(sink)
        return (Distribution(cost, unitsPerNanosecond: 1000), allocations)
    }
}
