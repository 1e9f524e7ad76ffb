import Motion

/// What the push handler and the game's tick share: the motion controls, a calibration in
/// progress, the holding pose and the activity gate (no gestures while walking or running). Pure;
/// the caller puts it behind a lock when the push handler runs on another thread.
///
///     var input = GestureInput(settings: .standard, pose: nil)
///     input.push(motion, arrivedAt: clock.now())          // every pushed device motion
///     let frame = input.frame(latest: manager.deviceMotion)  // once per tick
public struct GestureInput: Sendable {
    public private(set) var settings: MotionControlSettings
    /// The pose the player chose; nil: detected from gravity.
    public let chosenPose: HoldingPose?
    private var controls: MotionControls?
    private var calibration: GestureCalibration?
    private var latestGravity: Vector3?
    private var gate = ActivityGate()

    public init(settings: MotionControlSettings, pose: HoldingPose?) {
        self.settings = settings
        chosenPose = pose
    }

    /// One pushed device motion, which reached the handler at `arrivedAt` (clock seconds).
    public mutating func push(_ motion: DeviceMotion, arrivedAt: Double) {
        latestGravity = motion.gravity
        // The walk's jolts are in the buffers when the hold ends: they must not fire then.
        if gate.push(motion) { controls?.reset() }
        if var c = calibration {
            c.push(motion)
            calibration = c
            if case .done(let calibrated, let pose) = c.step {
                settings = calibrated
                controls = MotionControls(settings: calibrated, pose: chosenPose ?? pose)
                calibration = nil
            }
            return
        }
        if controls == nil {
            controls = MotionControls(settings: settings, pose: chosenPose ?? HoldingPose.detect(gravity: motion.gravity))
        }
        controls?.push(motion, arrivedAt: arrivedAt)
    }

    /// Just before a tick: the lean from `latest` and the gestures fired since the last tick
    /// (none while the activity gate holds them); nil before the first pushed sample and while calibrating.
    public mutating func frame(latest: DeviceMotion?) -> MotionControls.Frame? {
        guard var frame = controls?.frame(latest: latest) else { return nil }
        if gate.hold != nil {
            frame.jump = nil
            frame.duck = nil
        }
        return frame
    }

    /// Why the gestures are held off now (walking, running, not yet known), nil when they run.
    public var gestureHold: ActivityGate.Hold? { gate.hold }

    /// Starts the "hold still, then tip toward you" calibration on the pushed samples.
    public mutating func calibrate() {
        calibration = GestureCalibration(base: settings)
        controls = nil
    }

    /// The calibration step to prompt for, nil when not calibrating.
    public var calibrationStep: GestureCalibration.Step? { calibration?.step }

    /// At a game start: pick the pose again from the latest gravity, unless the player chose one.
    public mutating func redetectPose() {
        guard chosenPose == nil, let g = latestGravity else { return }
        controls?.pose = HoldingPose.detect(gravity: g)
    }

    /// After a pause or a lost device: old motion must not fire on resume.
    public mutating func resetGestures() { controls?.reset() }

    public var pose: HoldingPose? { controls?.pose ?? chosenPose }
    public var gestureLevels: (jump: Double, duck: Double) { controls?.gestureLevels ?? (0, 0) }
}
