import Motion

/// Everything `tiltkit map` is told by a profile: where the gyro goes and how fast, what each
/// stick and button does, and the game's mouse calibration. Read from TOML
/// (`MapperProfile(toml:file:)`, keys in `MapperProfile+TOML.swift` and Assets/profiles/README.md);
/// names follow JoyShockMapper's settings (its README) in lower case.
///
///     var profile = MapperProfile.default
///     profile.gyroSensitivity = 2                       // the view turns twice the pad's angle
///     profile.countsPer360 = 16_364                     // measured in the game
///     var mapper = Mapper(profile: profile)
public struct MapperProfile: Hashable, Sendable {
    // MARK: Gyro

    public var gyroOutput: GyroOutput = .mouse
    public var gyroSpace: GyroSpace = .player
    /// In-game degrees per degree the pad turns (GYRO_SENS; GyroWiki's real-world sensitivity).
    /// Used when `gyroAcceleration` is nil.
    public var gyroSensitivity: Double = MapperProfile.defaultGyroSensitivity
    /// MIN/MAX_GYRO_SENS between MIN/MAX_GYRO_THRESHOLD (°/s of the pad); nil: `gyroSensitivity` at every speed.
    public var gyroAcceleration: GyroAcceleration?
    /// GYRO_SMOOTH_THRESHOLD, °/s of the pad: slower aim is smoothed, fully below half of it
    /// (JoyShockMapper's convention); 0: no smoothing.
    public var gyroSmoothThreshold: Double = 5
    /// GYRO_SMOOTH_TIME, seconds averaged over.
    public var gyroSmoothTime: Double = 0.125
    /// GYRO_CUTOFF_SPEED and GYRO_CUTOFF_RECOVERY, °/s of the pad; 0 and 0: no cutoff.
    public var gyroCutoffSpeed: Double = 0
    public var gyroCutoffRecovery: Double = 0
    /// GYRO_AXIS_X / GYRO_AXIS_Y = INVERTED: turning the pad right turns the view left / up turns down.
    public var gyroInvertX = false
    public var gyroInvertY = false
    /// GYRO_OFF: gyro output stops while any of these is held (a lifted mouse).
    public var gyroOffButtons: PadButtons = []
    /// GYRO_ON: when set, gyro output runs only while one of these is held.
    public var gyroOnButtons: PadButtons = []
    /// GYRO_TOGGLE: each press flips the gyro on or off.
    public var gyroToggleButtons: PadButtons = []
    /// Gyro bias calibration the platform edge applies before the mapper (the mapper only passes it
    /// on): the raw values of MotionSources' `GyroCalibrationChoice`.
    public var gyroCalibration: GyroCalibrationSetting = .auto

    // MARK: Calibration

    /// Mouse counts that turn the game's view 360° at its current mouse sensitivity (what a player
    /// measures; JoyShockMapper's REAL_WORLD_CALIBRATION × 360 / IN_GAME_SENS).
    public var countsPer360: Double = MapperProfile.defaultCountsPer360
    /// VIRTUAL_STICK_CALIBRATION: the game's turn speed, °/s, at a full stick deflection
    /// (gyro-to-stick output).
    public var stickTurnSpeed: Double = 360

    // MARK: Sticks

    public var leftStick = StickSettings()
    public var rightStick = StickSettings()
    /// FLICK_TIME, seconds a flick is spread over.
    public var flickTime: Double = 0.1
    /// FLICK_TIME_EXPONENT: 0 every flick takes `flickTime`; 1 a flick's time proportional to its
    /// angle (`flickTime` for 180°).
    public var flickTimeExponent: Double = 0
    public var flickSnapMode: FlickSnapMode = .none
    /// FLICK_SNAP_STRENGTH, 0 (no snapping) … 1 (full).
    public var flickSnapStrength: Double = 1
    /// FLICK_DEADZONE_ANGLE, degrees either side of forward treated as forward.
    public var flickDeadzoneAngle: Double = 0
    /// ROTATE_SMOOTH_OVERRIDE, radians of stick rotation per update below which rotation is
    /// smoothed (fully below it, not at all above twice it); nil: JoyShockMapper's automatic 0.02.
    public var rotateSmoothThreshold: Double?

    // MARK: Buttons

    /// What each physical button does; absent buttons mirror to the same virtual pad button.
    public var buttons: [PadButton: ButtonTarget] = [:]

    public init() {}

    /// Gyro to mouse in player space at `defaultGyroSensitivity` against `defaultCountsPer360`,
    /// smoothing below 5 °/s, no acceleration, every button and stick mirrored to the virtual pad,
    /// gyro calibration at rest (auto).
    public static let `default` = MapperProfile()

    /// 1: the view turns by the angle the pad turns (GyroWiki's real-world 1:1), the starting point
    /// GyroWiki recommends for a shooter; against `defaultCountsPer360` a desktop pointer crosses a
    /// 1920-pixel screen in about 48° of pad turn (40 counts a degree, no pointer acceleration).
    public static let defaultGyroSensitivity = 1.0
    /// JoyShockMapper's default REAL_WORLD_CALIBRATION, 40 counts a degree, × 360. Close to a
    /// Source-engine game at mouse sensitivity 1.14 (0.022° a count): measure the real game.
    public static let defaultCountsPer360 = 14_400.0

    /// Mouse counts that turn the view one degree.
    public var countsPerDegree: Double { countsPer360 / 360 }

    /// What `button` does under this profile.
    public func target(of button: PadButton) -> ButtonTarget { buttons[button] ?? .pad(button) }

    /// The Motion aim settings these gyro fields make (sensitivity, acceleration, smoothing, cutoff, space).
    public var gyroAimSettings: GyroAimSettings {
        var settings = GyroAimSettings()
        settings.space = gyroSpace
        settings.sensitivity = gyroSensitivity
        settings.acceleration = gyroAcceleration
        settings.smoothing = gyroSmoothThreshold > 0
            ? TieredSmoothing.Settings(lowerSpeed: gyroSmoothThreshold / 2, upperSpeed: gyroSmoothThreshold, window: gyroSmoothTime)
            : nil
        settings.cutoff = gyroCutoffSpeed > 0 || gyroCutoffRecovery > 0
            ? GyroCutoff(speed: gyroCutoffSpeed, recovery: gyroCutoffRecovery) : nil
        return settings
    }
}

/// Where gyro aim goes (GYRO_OUTPUT).
public enum GyroOutput: String, CaseIterable, Hashable, Sendable {
    case mouse
    case rightStick = "right_stick"
    case leftStick = "left_stick"
    case none
}

/// What a physical stick does (LEFT_STICK_MODE / RIGHT_STICK_MODE).
public enum StickMode: String, CaseIterable, Hashable, Sendable {
    /// Mirrored to the same stick of the virtual pad (plus gyro-to-stick output aimed there).
    case passthrough
    /// Flick stick: point the stick, the view turns to face that way; rotate it, the view follows.
    case flick
    /// Stick to mouse: deflection sets a turn speed (STICK_SENS, STICK_POWER, deadzones).
    case aim
    /// Ignored: the virtual stick rests (or carries only gyro output).
    case none
}

/// FLICK_SNAP_MODE: the angles a flick snaps to.
public enum FlickSnapMode: Int, CaseIterable, Hashable, Sendable {
    case none = 0
    /// Forward, left, right, back (90° apart).
    case four = 4
    /// And the diagonals (45° apart).
    case eight = 8
}

/// The gyro bias calibration the edge wraps its source in (MotionSources' `GyroCalibrationChoice`,
/// same raw values: the edge converts by raw value).
public enum GyroCalibrationSetting: String, CaseIterable, Hashable, Sendable {
    case auto, continuous, manual, off
}

/// One stick's settings (JoyShockMapper's STICK_* and the virtual stick's UNDEADZONE/UNPOWER).
public struct StickSettings: Hashable, Sendable {
    public var mode: StickMode = .passthrough
    /// STICK_SENS, °/s of the view at full deflection (aim mode).
    public var aimSpeed: Double = 360
    /// STICK_POWER: the curve from deflection to speed (1 linear, 2 quadratic; aim mode).
    public var aimPower: Double = 1
    /// STICK_DEADZONE_INNER / OUTER, fractions of the stick's travel (aim and flick modes).
    public var deadzoneInner: Double = 0.15
    public var deadzoneOuter: Double = 0.1
    /// The game's own stick processing, undone for gyro-to-stick output on this virtual stick
    /// (STICK_UNDEADZONE_INNER / OUTER, STICK_UNPOWER): output jumps past the game's inner deadzone,
    /// saturates at its outer one, and the game's response power is inverted.
    public var gameDeadzoneInner: Double = 0
    public var gameDeadzoneOuter: Double = 0
    public var gamePower: Double = 1

    public init() {}
}

/// What a physical button does.
public enum ButtonTarget: Hashable, Sendable {
    /// Presses this virtual pad button (by default, the same one).
    case pad(PadButton)
    /// Presses these mouse buttons.
    case mouse(MouseButtons)
    /// One wheel detent per press.
    case wheelUp, wheelDown
    /// Nothing.
    case none
}
