import CartGame
import Dispatch
import Motion
import Synchronization

/// The cart game's motion input, wired as the talk does it: device motion is *pushed* to a
/// handler that feeds the gesture ring buffers, and the latest device motion is *pulled* once
/// per frame for the lean. Live sources push on a serial queue; a `FrameSteppedReplay` pushes
/// inline while the frame loop steps it, so headless runs are deterministic.
public final class BadgerMotionInput: Sendable {
    public let manager: MotionManager
    public let steppedReplay: FrameSteppedReplay?
    /// Trace seconds at frame time 0, for stepped replays.
    public let startTime: Double
    private let queue: any MotionHandlerQueue
    private let shared: Mutex<Shared>

    /// What the push handler and the frame share.
    private struct Shared {
        var settings: MotionControlSettings
        var chosenPose: HoldingPose?
        var controls: MotionControls?
        var calibration: GestureCalibration?
        var latestGravity: Vector3?
    }

    /// Runs pushed blocks at once on the delivering thread (the frame loop, for stepped replays).
    private struct InlineQueue: MotionHandlerQueue {
        func enqueue(_ work: @escaping @Sendable () -> Void) { work() }
    }

    /// A live source (a device, or a trace replayed in real time). `pose` nil: detected from gravity.
    public init(source: any MotionSource, settings: MotionControlSettings, pose: HoldingPose?,
                clock: any MotionClock = MonotonicClock()) {
        manager = MotionManager(source: source, clock: clock)
        steppedReplay = nil
        startTime = 0
        queue = DispatchQueue(label: "tiltkit.badger.motion")
        shared = Mutex(Shared(settings: settings, chosenPose: pose))
    }

    /// A replay the frame loop steps from `startTime` seconds into the trace.
    public init(steppedReplay: FrameSteppedReplay, settings: MotionControlSettings, pose: HoldingPose?,
                startTime: Double = 0) {
        manager = MotionManager(source: steppedReplay, clock: steppedReplay.clock)
        self.steppedReplay = steppedReplay
        self.startTime = max(0, startTime)
        queue = InlineQueue()
        shared = Mutex(Shared(settings: settings, chosenPose: pose))
    }

    public var sourceInfo: MotionSourceInfo { manager.source.info }
    public var connectionState: MotionConnectionState { manager.connectionState }
    public var isRunning: Bool { manager.isDeviceMotionActive }

    /// Starts pushed and pulled device motion at the settings' update interval. Throws when the
    /// source lacks an accelerometer or cannot start.
    public func start() throws {
        guard manager.isDeviceMotionAvailable else { throw MotionManagerError.sensorUnavailable("accelerometer") }
        guard !manager.isDeviceMotionActive else { return }
        manager.deviceMotionUpdateInterval = shared.withLock { $0.settings.updateInterval }
        manager.startDeviceMotionUpdates(to: queue) { [weak self] motion, _ in
            guard let motion, let self else { return }
            self.shared.withLock { s in
                s.latestGravity = motion.gravity
                if var calibration = s.calibration {
                    calibration.push(motion)
                    s.calibration = calibration
                    if case .done(let settings, let pose) = calibration.step {
                        s.settings = settings
                        s.chosenPose = s.chosenPose ?? pose
                        s.controls = MotionControls(settings: settings, pose: s.chosenPose ?? pose)
                        s.calibration = nil
                    }
                    return
                }
                if s.controls == nil {
                    s.controls = MotionControls(settings: s.settings,
                                                pose: s.chosenPose ?? HoldingPose.detect(gravity: motion.gravity))
                }
                s.controls?.push(motion)
            }
        }
        if case .failed(let reason) = manager.connectionState { throw MotionManagerError.sourceFailedToStart(reason) }
        steppedReplay?.advance(to: startTime)
    }

    /// Stops motion updates (paused or game over): the source is released.
    public func stop() {
        manager.stopDeviceMotionUpdates()
        shared.withLock { $0.controls?.reset() }
    }

    /// For stepped replays: deliver the trace up to `startTime + frameTime`.
    public func advance(toFrameTime frameTime: Double) {
        steppedReplay?.advance(to: startTime + frameTime)
    }

    /// Just before a tick: pull the latest device motion for the lean and poll the gestures.
    public func frame() -> MotionControls.Frame? {
        let latest = manager.deviceMotion
        return shared.withLock { s in
            guard var controls = s.controls else { return nil }
            let frame = controls.frame(latest: latest)
            s.controls = controls
            return frame
        }
    }

    /// Starts the "hold still, then tip toward you" calibration on the pushed samples.
    public func calibrate() {
        shared.withLock { s in
            s.calibration = GestureCalibration(base: s.settings)
            s.controls = nil
        }
    }

    /// The calibration step to prompt for, nil when not calibrating.
    public var calibrationStep: GestureCalibration.Step? { shared.withLock { $0.calibration?.step } }

    /// At a game start: pick the pose again from the latest gravity, unless the player chose one.
    public func redetectPose() {
        shared.withLock { s in
            guard s.chosenPose == nil, let g = s.latestGravity else { return }
            s.controls?.pose = HoldingPose.detect(gravity: g)
        }
    }

    /// After a pause or a lost device: old motion must not fire on resume.
    public func resetGestures() { shared.withLock { $0.controls?.reset() } }

    public var pose: HoldingPose? { shared.withLock { $0.controls?.pose ?? $0.chosenPose } }
    public var settings: MotionControlSettings { shared.withLock { $0.controls?.settings ?? $0.settings } }
    public var gestureLevels: (jump: Double, duck: Double) {
        shared.withLock { $0.controls?.gestureLevels ?? (0, 0) }
    }
}
