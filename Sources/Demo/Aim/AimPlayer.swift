import Motion
import Synchronization

/// Feeds one `GyroAim` from one `SceneMotionInput`: every pushed sample (not just the latest
/// pulled one, so no turn is lost between frames) goes through the aim, and each frame takes
/// the turn summed since the last. Stepped replays push inline, so headless runs are exact;
/// live sources push on the manager's queue, hence the lock.
///
///     let player = AimPlayer(motion: input, settings: .default)
///     try player.start()
///     let delta = player.takeDelta()             // once per frame
public final class AimPlayer: Sendable {
    public let motion: SceneMotionInput
    public let settings: GyroAimSettings
    private let feed: SharedFeed

    /// The aim state the push handler (the manager's queue) and the frame share.
    private final class SharedFeed: Sendable {
        let state: Mutex<Feed>
        init(_ feed: Feed) { state = Mutex(feed) }
    }

    struct Feed {
        var aim: GyroAim
        var pending = AimDelta.zero
        var lastTimestamp: Double?
        var gyroOff = false

        mutating func push(_ motion: DeviceMotion) {
            defer { lastTimestamp = motion.timestamp }
            guard let last = lastTimestamp else { return }
            // A gap longer than a quarter second (a pause, a reconnect) is not one long turn.
            let dt = motion.timestamp - last
            guard dt > 0, dt < 0.25 else { return }
            let d = aim.update(motion, dt: dt, gyroOff: gyroOff)
            pending.yaw += d.yaw
            pending.pitch += d.pitch
        }
    }

    public init(motion: SceneMotionInput, settings: GyroAimSettings) {
        self.motion = motion
        self.settings = settings
        feed = SharedFeed(Feed(aim: GyroAim(settings: settings)))
    }

    /// Starts device motion, every sample pushed to the aim (interval 0: no decimation).
    public func start() throws {
        try motion.start(interval: 0) { [feed] m, _ in feed.state.withLock { $0.push(m) } }
    }

    public func stop() { motion.stop() }

    /// The view's turn since the last call, degrees.
    public func takeDelta() -> AimDelta {
        feed.state.withLock { f in
            defer { f.pending = .zero }
            return f.pending
        }
    }

    /// "Gyro off" (the ratchet): while true, samples turn nothing.
    public var gyroOff: Bool {
        get { feed.state.withLock { $0.gyroOff } }
        set { feed.state.withLock { $0.gyroOff = newValue } }
    }
}
