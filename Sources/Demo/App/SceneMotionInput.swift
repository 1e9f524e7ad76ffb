import Dispatch
import Motion
import MotionDevices
import Synchronization

/// A scene's motion: one `MotionManager` over a source, pulled once per frame and, for scenes
/// that want every sample (the cart game's gestures), pushed to a handler. Live sources run on
/// their own thread against the monotonic clock and push on a serial queue; a
/// `SteppedReplaySource` is stepped by the frame loop and pushes inline, so headless runs are
/// deterministic.
///
///     let input = SceneMotionInput(source: try spec.makeSource())
///     try input.start()                                   // pull only
///     let latest = input.pull()                           // once per frame
public final class SceneMotionInput: Sendable {
    public let manager: MotionManager
    /// Set for frame-stepped replays: `advance(toFrameTime:)` moves it.
    public let steppedReplay: SteppedReplaySource?
    /// Trace seconds at frame time 0 (`--at`), for stepped replays.
    public let startTime: Double
    private let queue: any MotionHandlerQueue
    /// The raw-sample observation `start(observe:)` asked for, kept alive while the input runs.
    private let observation = Mutex<MotionSampleObservation?>(nil)
    private let frame = Mutex(AttitudeReferenceFrame.xArbitraryZVertical)
    /// Where a live device's magnetometer calibration is kept between runs (nil for recordings,
    /// which replay as recorded, and for sources without a magnetometer).
    public let magnetometerCalibrationStore: MagnetometerCalibrationStore?

    /// Runs pushed blocks at once on the delivering thread (the frame loop, for stepped replays).
    private struct InlineQueue: MotionHandlerQueue {
        func enqueue(_ work: @escaping @Sendable () -> Void) { work() }
    }

    /// A live (self-paced) source, e.g. a `ReplaySource` or a device.
    public init(source: any MotionSource, clock: any MotionClock = MonotonicClock()) {
        manager = MotionManager(source: source, clock: clock)
        steppedReplay = nil
        startTime = 0
        magnetometerCalibrationStore = source.info.sensors.contains(.magnetometer) && source.info.kind != "trace"
            && source.info.kind != "hid-recording" ? MagnetometerCalibrationStore() : nil
        queue = DispatchQueue(label: "tiltkit.scene.motion")
    }

    /// A replay the frame loop steps, starting `startTime` seconds into the trace; with
    /// `gyroCalibration` its gyro goes through a `GyroCalibratedSource` (inline, so still
    /// deterministic). Replays are left as recorded unless asked.
    public init(steppedReplay: SteppedReplaySource, startTime: Double = 0, gyroCalibration: GyroCalibration.Mode? = nil) {
        let source: any MotionSource = gyroCalibration.map {
            GyroCalibratedSource(wrapping: steppedReplay, calibration: GyroCalibration(mode: $0))
        } ?? steppedReplay
        manager = MotionManager(source: source, clock: steppedReplay.clock)
        self.steppedReplay = steppedReplay
        self.startTime = max(0, startTime)
        queue = InlineQueue()
        magnetometerCalibrationStore = nil
    }

    public var sourceInfo: MotionSourceInfo { manager.source.info }

    /// Chooses the reference frame device motion starts in (and the location true north needs);
    /// throws, with the reason, when the source cannot give it.
    public func use(frame requested: AttitudeReferenceFrame, location: GeodeticLocation? = nil) throws {
        manager.location = location
        guard manager.availableAttitudeReferenceFrames.contains(requested) else {
            let missing = !manager.isGyroAvailable ? "a gyro" : !manager.isMagnetometerAvailable ? "a magnetometer"
                : "a location (--location LAT,LON)"
            throw FrameUnavailable(frame: requested, missing: missing, source: sourceInfo.name)
        }
        frame.withLock { $0 = requested }
    }

    /// The frame device motion runs in.
    public var referenceFrame: AttitudeReferenceFrame { frame.withLock { $0 } }
    /// Whether the source is delivering, for the HUD ("running", "ended", "disconnected: …").
    public var connectionState: MotionConnectionState { manager.connectionState }
    public var isRunning: Bool { manager.isDeviceMotionActive }

    /// One line for the end of a windowed run, so a person (or a test) can see what the scene
    /// received: "motion: DualSense … (hidraw3), 250 Hz measured, attitude roll 1.0° pitch -2.0° yaw 35.2°"
    /// (the last pulled attitude: the scene turned by it).
    public var summary: String {
        // The rate needs a full second of samples; a shorter run that did receive some says so.
        let rate = manager.measuredSampleRate.map { String(format: "%.0f Hz measured", $0) }
            ?? (pull() == nil ? "no samples received" : "samples received, under a second of them (no rate yet)")
        let attitude = pull().map { motion in
            let a = motion.value.attitude
            return String(format: ", attitude roll %.1f° pitch %.1f° yaw %.1f°", a.roll * 180 / .pi, a.pitch * 180 / .pi, a.yaw * 180 / .pi)
        } ?? ""
        return "motion: \(sourceInfo.name), \(rate)\(attitude)"
    }

    /// Starts device motion for pulling (every `interval` seconds; nil: the manager's default;
    /// the accelerometer-only estimate on a source without a gyro) and, with a handler, pushes each update to it with the time it reached the handler (on `manager.clock`). Throws when
    /// the source lacks an accelerometer or cannot start (the source's reason).
    /// With `observe`, every raw sample also goes to it (on the same queue, before the replay is
    /// stepped to `startTime`, so it sees what device motion saw).
    public func start(interval: Double? = nil,
                      push handler: (@Sendable (DeviceMotion, _ arrivedAt: Double) -> Void)? = nil,
                      observe: (@Sendable (MotionSample) -> Void)? = nil) throws {
        guard manager.isAccelerometerOnlyDeviceMotionAvailable else { throw MotionManagerError.sensorUnavailable("accelerometer") }
        // A gyro-less source can give only the accelerometer-only estimate; scenes label what runs.
        if !manager.isGyroAvailable { manager.deviceMotionEstimation = .accelerometer }
        guard !manager.isDeviceMotionActive else { return }
        if let interval { manager.deviceMotionUpdateInterval = interval }
        let frame = referenceFrame
        if let store = magnetometerCalibrationStore, let saved = store.load(device: sourceInfo.name) {
            manager.restoreMagnetometerCalibration(saved)
        }
        if let handler {
            let clock = manager.clock
            manager.startDeviceMotionUpdates(using: frame, to: queue) { motion, _ in
                if let motion { handler(motion, clock.now()) }
            }
        } else {
            manager.startDeviceMotionUpdates(using: frame)
        }
        if case .failed(let reason) = manager.connectionState { throw MotionManagerError.sourceFailedToStart(reason) }
        if let observe { observation.withLock { $0 = manager.observeSamples(on: queue, observe) } }
        steppedReplay?.advance(to: startTime)
    }

    /// Stops device motion: the source is released.
    public func stop() {
        observation.withLock { $0?.cancel(); $0 = nil }
        manager.stopDeviceMotionUpdates()
        if let store = magnetometerCalibrationStore, let learned = manager.magnetometerCalibration {
            try? store.save(learned, device: sourceInfo.name)  // a read-only home only loses the head start
        }
    }

    /// For stepped replays: deliver the trace up to `startTime + frameTime`.
    public func advance(toFrameTime frameTime: Double) {
        steppedReplay?.advance(to: startTime + frameTime)
    }

    /// The latest device motion and when it arrived: the one pull per frame.
    public func pull() -> Received<DeviceMotion>? { manager.latestDeviceMotion }

    /// The gyro calibration in use, nil when the source's gyro is used as delivered.
    public var gyroCalibration: GyroCalibration? { (manager.source as? GyroCalibratedSource)?.currentCalibration }

    /// The "hold still" key: averages the next second's gyro as the bias (no-op without calibration).
    public func calibrateGyro() { (manager.source as? GyroCalibratedSource)?.calibrateNow() }

    /// The source's report statistics, for sources that keep them (hidraw), beneath any calibration.
    public var diagnostics: String? {
        (GyroCalibratedSource.unwrapped(manager.source) as? any DiagnosableMotionSource)?.diagnostics
    }

    /// Seconds on the manager's clock, for the sample's age.
    public func now() -> Double { manager.clock.now() }
}

/// A reference frame the source cannot give, and what it lacks.
public struct FrameUnavailable: Error, CustomStringConvertible {
    public var frame: AttitudeReferenceFrame
    public var missing: String
    public var source: String
    public var description: String { "reference frame \(frame.rawValue) needs \(missing), which \(source) lacks" }
}
