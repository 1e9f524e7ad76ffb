import Motion

/// Device motion → `CartCommand`, as the talk plays it: every pushed sample feeds the jump and
/// duck ring buffers; just before each frame the game pulls the latest device motion for the
/// lean and polls the detectors. Pure and single-threaded: the live app guards it with a lock,
/// the headless replay calls it in trace order.
///
///     var controls = MotionControls(settings: .standard, pose: .gamepad)
///     manager.startDeviceMotionUpdates(to: queue) { m, _ in lock.withLock { controls.push(m!) } }
///     let frame = controls.frame(latest: manager.deviceMotion)
public struct MotionControls: Hashable, Sendable {
    public private(set) var settings: MotionControlSettings
    public var pose: HoldingPose
    private var jump: GestureDetector
    private var duck: GestureDetector
    /// |rotation rate| over the duck guard's span, rad/s, for the duck's rotation guard.
    private var turning: RingBuffer
    /// Tip rate and |rotation rate| over the jump buffer's span, rad/s, for the jump's axis test.
    private var jumpTip: RingBuffer
    private var jumpTurning: RingBuffer

    /// What one frame gets from the motion controls.
    public struct Frame: Hashable, Sendable {
        /// Radians, positive right; nil when no device motion has arrived yet.
        public var lean: Double?
        public var jump: GestureDetector.Firing?
        public var duck: GestureDetector.Firing?

        /// The frame's command (lean 0 before any motion; start/pause come from buttons).
        public var command: CartCommand {
            CartCommand(lean: Float(lean ?? 0), jump: jump != nil, duck: duck != nil)
        }
    }

    public init(settings: MotionControlSettings = .standard, pose: HoldingPose) {
        self.settings = settings
        self.pose = pose
        jump = GestureDetector(settings: settings.jump, sampleInterval: settings.updateInterval)
        duck = GestureDetector(settings: settings.duck, sampleInterval: settings.updateInterval)
        let guardWindow = GestureDetector.Settings(window: max(settings.duck.window, settings.duckRotationWindow),
                                                   threshold: 0, refractory: 0)
        turning = RingBuffer(capacity: guardWindow.sampleCount(every: settings.updateInterval))
        jumpTurning = RingBuffer(capacity: settings.jump.sampleCount(every: settings.updateInterval))
        jumpTip = jumpTurning
    }

    /// The push path: one device-motion update from the manager's handler, which it reached at
    /// `arrivedAt` (clock seconds; nil: its timestamp).
    public mutating func push(_ motion: DeviceMotion, arrivedAt: Double? = nil) {
        let rate = motion.rotationRate.length
        jumpTurning.append(rate.isFinite ? rate : .infinity)
        let tip = GestureSignals.tipRate(motion, pose: pose)
        if tip.isFinite { jumpTip.append(tip) }
        jump.push(tip, timestamp: motion.timestamp, arrivedAt: arrivedAt,
                  armed: jumpTip.mean >= settings.jumpAxisShare * jumpTurning.mean)
        turning.append(rate.isFinite ? rate : .infinity)
        // Turning faster than the guard's rate, a duck needs the stricter push; faster still, none.
        let turningRate = turning.mean
        duck.push(GestureSignals.downwardPush(motion), timestamp: motion.timestamp, arrivedAt: arrivedAt,
                  armed: turningRate <= settings.duckTurningRotation,
                  threshold: turningRate > settings.duckMaximumRotation ? settings.duckTurningThreshold : nil)
    }

    /// The pull path, just before a frame: lean from the latest device motion, gestures from
    /// the buffers.
    public mutating func frame(latest: DeviceMotion?) -> Frame {
        Frame(lean: latest.map { LeanAngle.lean(gravity: $0.gravity, pose: pose) },
              jump: jump.poll(), duck: duck.poll())
    }

    /// Live buffer means for the HUD's gesture indicators: (rad/s, g).
    public var gestureLevels: (jump: Double, duck: Double) { (jump.mean, duck.mean) }

    /// After a pause or a lost device: old motion must not fire a gesture on resume.
    public mutating func reset() {
        jump.reset()
        duck.reset()
        turning.removeAll()
        jumpTurning.removeAll()
        jumpTip.removeAll()
    }
}
