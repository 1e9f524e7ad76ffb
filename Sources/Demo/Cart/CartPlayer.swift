import CartGame
import Motion
import Synchronization

/// Plays one `CartSession` from one `SceneMotionInput`, a tick at a time: the window's scene
/// and the headless replay both call `tick(buttons:)`, so a sample takes the same way in both:
/// source → `MotionManager` → pushed to the gesture buffers and pulled for the lean → the
/// session's command → the rules' step.
///
///     let player = CartPlayer(motion: input, settings: .standard, pose: nil, session: CartSession(seed: 1))
///     try player.start()
///     let step = player.tick(buttons: held)      // 60 times a second
public final class CartPlayer {
    public let motion: SceneMotionInput?
    public private(set) var session: CartSession
    private let gestures: SharedGestures
    /// Manager-clock time motion updates last (re)started: samples from before do not count.
    private var startedAt = -Double.infinity

    /// What one tick did, for the HUD, the event lines and the latency.
    public struct Step {
        public var tick: CartSession.Tick
        /// The source was lost or came back before this tick.
        public var deviceChange: CartSession.DeviceChange?
        public var motion: MotionControls.Frame?
        /// Seconds on the manager's clock at the tick: the end of a gesture's latency.
        public var time: Double
    }

    /// The gesture state the push handler (the manager's queue) and the tick share.
    private final class SharedGestures: Sendable {
        let state: Mutex<GestureInput>
        init(_ input: GestureInput) { state = Mutex(input) }
    }

    /// `motion` nil: keys and pad only.
    public init(motion: SceneMotionInput?, settings: MotionControlSettings, pose: HoldingPose?, session: CartSession) {
        self.motion = motion
        self.session = session
        gestures = SharedGestures(GestureInput(settings: settings, pose: pose))
    }

    /// Starts pushed and pulled device motion at the settings' update interval. Throws when the
    /// source lacks an accelerometer or cannot start.
    public func start() throws {
        guard let motion, !motion.isRunning else { return }
        let shared = gestures
        try motion.start(interval: settings.updateInterval) { m, arrivedAt in
            shared.state.withLock { $0.push(m, arrivedAt: arrivedAt) }
        }
        startedAt = motion.now()
        gestures.state.withLock { $0.resetGestures() }
    }

    /// Stops motion updates (paused or game over): the source is released.
    public func stop() {
        motion?.stop()
        gestures.state.withLock { $0.resetGestures() }
    }

    /// One fixed tick: judge the source, poll the gestures and pull the lean, step the session,
    /// then start or stop motion updates as its phase wants.
    public func tick(buttons: ButtonInput) -> Step {
        var frame: MotionControls.Frame?
        var change: CartSession.DeviceChange?
        let now = motion?.now() ?? 0
        if let motion, motion.isRunning {
            let latest = motion.pull()
            change = session.follow(SourceHealth.judge(motion.connectionState, lastArrival: latest?.arrivalTime,
                                                       startedAt: startedAt, now: now))
            frame = gestures.state.withLock { g in
                if change == .back { g.resetGestures() }
                return g.frame(latest: latest?.value)
            }
        }
        let tick = session.tick(CartSession.Input(motion: frame, buttons: buttons))
        if tick.redetectPose { gestures.state.withLock { $0.redetectPose() } }
        if let motion, tick.motionWanted != motion.isRunning {
            // A source that cannot restart leaves the buttons in charge; the HUD shows it.
            if tick.motionWanted { try? start() } else { stop() }
        }
        return Step(tick: tick, deviceChange: change, motion: frame, time: now)
    }

    /// Starts the "hold still, then tip toward you" calibration on the pushed samples.
    public func calibrate() { gestures.state.withLock { $0.calibrate() } }

    public var calibrationStep: GestureCalibration.Step? { gestures.state.withLock { $0.calibrationStep } }
    public var pose: HoldingPose? { gestures.state.withLock { $0.pose } }
    public var settings: MotionControlSettings { gestures.state.withLock { $0.settings } }
    public var gestureLevels: (jump: Double, duck: Double) { gestures.state.withLock { $0.gestureLevels } }
    /// Why the gestures are held off (walking, running, not yet known), nil when they run.
    public var gestureHold: ActivityGate.Hold? { gestures.state.withLock { $0.gestureHold } }
}
