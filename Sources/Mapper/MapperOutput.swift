/// Mouse buttons the virtual mouse can press.
public struct MouseButtons: OptionSet, Hashable, Sendable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }
    public static let left = MouseButtons(rawValue: 1 << 0)
    public static let right = MouseButtons(rawValue: 1 << 1)
    public static let middle = MouseButtons(rawValue: 1 << 2)
    /// Back and forward (BTN_SIDE, BTN_EXTRA).
    public static let side = MouseButtons(rawValue: 1 << 3)
    public static let extra = MouseButtons(rawValue: 1 << 4)
}

/// What the virtual devices should do after one step of the mapper. The pad and the mouse's
/// buttons are states (what is held now: the writer sends only what changed); the mouse's motion
/// and wheel are whole counts to move now, the fractions carried inside the mapper to the next step.
public struct MapperOutput: Hashable, Sendable {
    /// The virtual gamepad as it should read now (its sticks carry gyro-to-stick and flick output
    /// where the profile says so, the physical sticks otherwise).
    public var pad: PadControls
    public var mouseButtons: MouseButtons
    /// Relative mouse motion in counts: x right, y down (evdev's REL_X, REL_Y).
    public var mouseX: Int32
    public var mouseY: Int32
    /// Wheel detents, up positive (REL_WHEEL).
    public var wheel: Int32

    public init(pad: PadControls = .idle, mouseButtons: MouseButtons = [], mouseX: Int32 = 0, mouseY: Int32 = 0, wheel: Int32 = 0) {
        self.pad = pad
        self.mouseButtons = mouseButtons
        self.mouseX = mouseX
        self.mouseY = mouseY
        self.wheel = wheel
    }
}
