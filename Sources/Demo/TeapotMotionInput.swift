import Motion

/// The teapot's motion input: a `MotionManager` over a source, pulled once per frame. Live sources
/// run on their own thread against the monotonic clock; a `FrameSteppedReplay` is stepped by the
/// frame loop for deterministic headless runs.
public final class TeapotMotionInput {
    public let manager: MotionManager
    /// Set for frame-stepped replays: `advance(toFrameTime:)` moves it.
    public let steppedReplay: FrameSteppedReplay?
    /// Trace seconds at frame time 0 (`--at`), for stepped replays.
    public let startTime: Double
    public var sourceInfo: MotionSourceInfo { manager.source.info }

    /// A live (self-paced) source, e.g. a `ReplaySource` or a device.
    public init(source: any MotionSource, clock: any MotionClock = MonotonicClock()) {
        manager = MotionManager(source: source, clock: clock)
        steppedReplay = nil
        startTime = 0
    }

    /// A replay the frame loop steps, starting `startTime` seconds into the trace.
    public init(steppedReplay: FrameSteppedReplay, startTime: Double = 0) {
        manager = MotionManager(source: steppedReplay, clock: steppedReplay.clock)
        self.steppedReplay = steppedReplay
        self.startTime = max(0, startTime)
    }

    /// Starts device motion (pull only) with `mode`'s estimator and the gravity cut-off in Hz.
    /// Throws when the source lacks an accelerometer or cannot start (the source's reason).
    public func start(mode: TeapotMode, gravityCutoff: Double) throws {
        guard manager.isDeviceMotionAvailable else { throw MotionManagerError.sensorUnavailable("accelerometer") }
        configure(mode: mode, gravityCutoff: gravityCutoff)
        manager.startDeviceMotionUpdates()
        if case .failed(let reason) = manager.connectionState { throw MotionManagerError.sourceFailedToStart(reason) }
        steppedReplay?.advance(to: startTime)
    }

    /// Whether the source is delivering, for the HUD ("running", "ended", "disconnected: …").
    public var connectionState: MotionConnectionState { manager.connectionState }

    public func stop() { manager.stopDeviceMotionUpdates() }

    /// Brings the manager in line with the state (cheap when nothing changed).
    public func configure(mode: TeapotMode, gravityCutoff: Double) {
        let kind: DeviceMotionEstimatorKind = mode.usesAccelerometerOnly ? .accelerometer : .fusion
        if manager.deviceMotionEstimation != kind { manager.deviceMotionEstimation = kind }
        if manager.gravityFilterCutoff != gravityCutoff { manager.gravityFilterCutoff = gravityCutoff }
    }

    /// For stepped replays: deliver the trace up to `startTime + frameTime`.
    public func advance(toFrameTime frameTime: Double) {
        steppedReplay?.advance(to: startTime + frameTime)
    }

    /// The latest device motion and when it arrived: the one pull per frame.
    public func pull() -> Received<DeviceMotion>? { manager.latestDeviceMotion }

    /// Seconds on the manager's clock, for the sample's age.
    public func now() -> Double { manager.clock.now() }

    public func resetReferenceAttitude() { manager.resetReferenceAttitude() }
}
