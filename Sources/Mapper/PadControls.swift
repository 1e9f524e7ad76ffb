/// A stick's deflection: x right and y up, each −1…1 (a full push reads about 1 on its axis).
public struct StickPosition: Hashable, Sendable {
    public var x: Double
    public var y: Double
    public init(x: Double, y: Double) { self.x = x; self.y = y }
    public static let centre = StickPosition(x: 0, y: 0)
    public var magnitude: Double { (x * x + y * y).squareRoot() }
}

/// Everything but motion that a pad reports at one moment: buttons, sticks, analogue triggers.
/// What the mapper reads besides the motion samples; the platform edge fills it from the pad's
/// gamepad evdev node (or a recording), the mapper never sees a device.
public struct PadControls: Hashable, Sendable {
    public var buttons: PadButtons
    public var leftStick: StickPosition
    public var rightStick: StickPosition
    /// Analogue trigger travel, 0 (released) … 1 (fully pressed).
    public var leftTrigger: Double
    public var rightTrigger: Double

    public init(buttons: PadButtons = [], leftStick: StickPosition = .centre, rightStick: StickPosition = .centre,
                leftTrigger: Double = 0, rightTrigger: Double = 0) {
        self.buttons = buttons
        self.leftStick = leftStick
        self.rightStick = rightStick
        self.leftTrigger = leftTrigger
        self.rightTrigger = rightTrigger
    }

    public static let idle = PadControls()
}
