import Motion

/// The mapping core of `tiltkit map`: pad motion and controls in, a virtual mouse and gamepad out.
/// Pure and deterministic: the platform edge reads the pad, calls `step` and writes the output.
///
///     var mapper = Mapper(profile: try MapperProfile.load(contentsOf: "shooter.toml"))
///     for sample in samples {                                   // bias already removed
///         let out = mapper.step(sample: sample, controls: controlsNow)
///         mouse.move(out.mouseX, out.mouseY); pad.set(out.pad)
///     }
///
/// Per motion sample: 6D fusion gives gravity (for the player and world spaces), `GyroAim` turns the
/// rotation rate into an aim in the profile's space (smoothing, cutoff, acceleration, sensitivity),
/// the gyro switch buttons gate it, and it becomes mouse counts (× counts per degree) or a virtual
/// stick deflection. Sticks (passthrough, flick, aim) and buttons are mapped on every step.
public struct Mapper: Sendable {
    public private(set) var profile: MapperProfile

    private var fusion = AHRS(frame: .xArbitraryZVertical)
    private var motion = DeviceMotion()
    private var aim: GyroAim
    private var gyroSwitch: GyroSwitch
    private var buttons: ButtonMapping
    private var leftFlick = FlickStick()
    private var rightFlick = FlickStick()
    private var remainder = MouseRemainder()
    private var lastSampleTime: Double?
    private var lastTime: Double?
    private var previousButtons: PadButtons = []
    /// The gyro's view turn rate, °/s (x right, y up), held between motion samples for stick output.
    private var gyroTurnRate = StickPosition.centre

    /// The longest gap between two motion samples taken as motion, seconds: after a longer one (a
    /// dropped connection, a paused source) the held rate is not applied across the gap. Aim-stick
    /// motion takes at most this much time a step too.
    public static let maximumSampleInterval = 0.1

    public init(profile: MapperProfile) {
        self.profile = profile
        aim = GyroAim(settings: profile.gyroAimSettings)
        gyroSwitch = GyroSwitch(off: profile.gyroOffButtons, on: profile.gyroOnButtons, toggle: profile.gyroToggleButtons)
        buttons = ButtonMapping(profile)
    }

    /// Is gyro output on now (after the off/on/toggle buttons)? For the status line.
    public var gyroEnabled: Bool { gyroSwitch.enabled }

    /// One motion sample (gyro bias already removed by the source; rad/s, g, Core Motion's device
    /// frame: x right, y toward the pad's top edge, z out of the face) with the controls held at that
    /// moment. Time comes from `sample.timestamp` (seconds).
    public mutating func step(sample: MotionSample, controls: PadControls) -> MapperOutput {
        let enabled = gyroSwitch.update(controls.buttons)
        guard sample.timestamp.isFinite, fusion.update(sample, into: &motion) else {
            // A rejected sample (non-finite, out of order) moves nothing and leaves the clock alone.
            return output(controls: controls, time: sample.timestamp, gyroTurn: .zero)
        }
        let dt = lastSampleTime.map { sample.timestamp - $0 } ?? 0
        lastSampleTime = sample.timestamp
        var turn = AimDelta.zero
        if let rate = sample.rotationRate, dt > 0, dt <= Self.maximumSampleInterval {
            turn = aim.update(rotationRate: rate, gravity: motion.gravity, dt: dt, gyroOff: !enabled)
            if profile.gyroInvertX { turn.yaw = -turn.yaw }
            if profile.gyroInvertY { turn.pitch = -turn.pitch }
            gyroTurnRate = StickPosition(x: -turn.yaw / dt, y: turn.pitch / dt)
        } else {
            gyroTurnRate = .centre
        }
        return output(controls: controls, time: sample.timestamp, gyroTurn: turn)
    }

    /// Controls changed between motion samples (or a source with no motion): buttons and sticks
    /// pass at once; no gyro motion (gyro-to-stick output holds the last sample's rate); flick-stick
    /// progress advanced to `time` (seconds, the samples' clock). A source without motion should
    /// still step at a steady rate (e.g. 250 Hz) while a flick runs or an aim stick is held: both
    /// advance only when stepped.
    public mutating func step(controls: PadControls, time: Double) -> MapperOutput {
        if !gyroSwitch.update(controls.buttons) { gyroTurnRate = .centre }
        return output(controls: controls, time: time, gyroTurn: .zero)
    }

    /// A reloaded profile. The fusion's gravity, the sub-count remainders, a flick in progress and
    /// the toggle's state carry over (the player's gyro stays as they left it); the smoothing
    /// window starts afresh with the new settings.
    public mutating func replace(profile: MapperProfile) {
        let toggled = gyroSwitch.toggled
        self.profile = profile
        aim = GyroAim(settings: profile.gyroAimSettings)
        gyroSwitch = GyroSwitch(off: profile.gyroOffButtons, on: profile.gyroOnButtons, toggle: profile.gyroToggleButtons,
                                toggled: toggled && !profile.gyroToggleButtons.isEmpty, held: previousButtons)
        buttons = ButtonMapping(profile)
    }

    // MARK: One step's output

    private mutating func output(controls: PadControls, time: Double, gyroTurn: AimDelta) -> MapperOutput {
        // A broken clock or stick reading moves nothing rather than poisoning the state.
        let time = time.isFinite ? time : lastTime ?? 0
        var controls = controls
        controls.leftStick = Self.finite(controls.leftStick)
        controls.rightStick = Self.finite(controls.rightStick)
        var out = MapperOutput()
        let mapped = buttons.map(controls.buttons, previous: previousButtons)
        previousButtons = controls.buttons
        out.pad.buttons = mapped.pad
        out.mouseButtons = mapped.mouse
        out.wheel = mapped.wheel
        out.pad.leftTrigger = Self.trigger(controls.leftTrigger, passes: mapped.leftTriggerPasses, pressed: mapped.leftTriggerPressed)
        out.pad.rightTrigger = Self.trigger(controls.rightTrigger, passes: mapped.rightTriggerPasses, pressed: mapped.rightTriggerPressed)

        // Aim-stick motion integrates the time between steps, capped like the gyro's so a step
        // after a long silence does not fling the view.
        let dt = lastTime.map { min(Self.maximumSampleInterval, max(0, time - $0)) } ?? 0
        lastTime = time
        // View turn in degrees this step, x right and y up, from every mouse-bound source.
        var viewX = 0.0, viewY = 0.0
        if profile.gyroOutput == .mouse { viewX -= gyroTurn.yaw; viewY += gyroTurn.pitch }

        let gyroLeft = profile.gyroOutput == .leftStick ? gyroTurnRate : .centre
        let gyroRight = profile.gyroOutput == .rightStick ? gyroTurnRate : .centre
        out.pad.leftStick = Self.stick(controls.leftStick, settings: profile.leftStick, profile: profile, flick: &leftFlick,
                                       time: time, dt: dt, gyroTurnRate: gyroLeft, viewX: &viewX, viewY: &viewY)
        out.pad.rightStick = Self.stick(controls.rightStick, settings: profile.rightStick, profile: profile, flick: &rightFlick,
                                        time: time, dt: dt, gyroTurnRate: gyroRight, viewX: &viewX, viewY: &viewY)

        let counts = remainder.take(x: viewX * profile.countsPerDegree, y: -viewY * profile.countsPerDegree)
        out.mouseX = counts.x
        out.mouseY = counts.y
        return out
    }

    /// One physical stick's virtual position with `gyroTurnRate` (°/s, x right, y up) added, and
    /// what its mode sends to the mouse added to `viewX/Y`. Static: a method on self with a stored
    /// property passed inout would copy the mapper, and the flick's smoothing buffer with it.
    private static func stick(_ physical: StickPosition, settings: StickSettings, profile: MapperProfile, flick: inout FlickStick,
                              time: Double, dt: Double, gyroTurnRate: StickPosition,
                              viewX: inout Double, viewY: inout Double) -> StickPosition {
        var passed = StickPosition.centre
        switch settings.mode {
        case .passthrough:
            passed = physical
        case .flick:
            viewX -= flick.update(physical, time: time, profile: profile, settings: settings)
        case .aim:
            let rate = StickAim.turnRate(physical, settings: settings)
            viewX += rate.x * dt
            viewY += rate.y * dt
        case .none:
            break
        }
        guard gyroTurnRate != .centre else { return passed }
        // The game sees one stick: what it would turn for the physical stick plus the gyro's rate,
        // turned back into the deflection that makes it turn so (JSM's processGyroStick).
        let curve = GameStickCurve(turnSpeed: profile.stickTurnSpeed, deadzoneInner: settings.gameDeadzoneInner,
                                   deadzoneOuter: settings.gameDeadzoneOuter, power: settings.gamePower)
        let physicalTurn = curve.turn(forDeflection: passed)
        return curve.deflection(forTurn: StickPosition(x: physicalTurn.x + gyroTurnRate.x, y: physicalTurn.y + gyroTurnRate.y))
    }

    private static func finite(_ stick: StickPosition) -> StickPosition {
        stick.x.isFinite && stick.y.isFinite ? stick : .centre
    }

    /// A trigger's travel on the virtual pad: its own travel where it mirrors, full where another
    /// button presses it, released otherwise.
    private static func trigger(_ travel: Double, passes: Bool, pressed: Bool) -> Double {
        let own = passes && travel.isFinite ? min(1, max(0, travel)) : 0
        return pressed ? 1 : own
    }
}
