/// Everything but motion in a pad-data packet: buttons, sticks, analog triggers, two touches.
/// The analog bytes of the D-pad, face buttons, R1 and L1 follow the buttons (255 held, 0 not:
/// "if button is not analog, report 0 for released and 255 for pressed", v1993/cemuhook-protocol),
/// as DS4Windows sends them for a DualShock 4.
///
///     var input = DSUPadInput.neutral
///     input.buttons = [.cross]
///     input.leftStick = DSUStick(deflectionX: 1, deflectionY: 0)   // full right: byte 40 reads 255
///     input.firstTouch = DSUTouch(id: 7, x: 960, y: 471)
public struct DSUPadInput: Hashable, Sendable {
    public var buttons: DSUButtons
    public var leftStick: DSUStick
    public var rightStick: DSUStick
    /// Analog travel, 0 released … 255 fully pressed (the packet's L2 and R2 analog bytes).
    public var leftTrigger: UInt8
    public var rightTrigger: UInt8
    /// The touchpad's contacts, nil when no finger is down.
    public var firstTouch: DSUTouch?
    public var secondTouch: DSUTouch?

    public init(buttons: DSUButtons = [], leftStick: DSUStick = .centre, rightStick: DSUStick = .centre,
                leftTrigger: UInt8 = 0, rightTrigger: UInt8 = 0, firstTouch: DSUTouch? = nil, secondTouch: DSUTouch? = nil) {
        self.buttons = buttons
        self.leftStick = leftStick
        self.rightStick = rightStick
        self.leftTrigger = leftTrigger
        self.rightTrigger = rightTrigger
        self.firstTouch = firstTouch
        self.secondTouch = secondTouch
    }

    /// Nothing held, sticks centred, no touch: what a source without controls (a trace, an IMU) sends.
    public static let neutral = DSUPadInput()
}

/// A stick on the wire: one byte per axis, 0…255, 128 centred; x plus rightward, y plus **upward**
/// (v1993/cemuhook-protocol; DS4Windows sends 255 − the DualShock 4's down-positive byte,
/// Dolphin names the field `left_stick_y_inverted`).
public struct DSUStick: Hashable, Sendable {
    public var x: UInt8
    public var y: UInt8
    public init(x: UInt8, y: UInt8) { self.x = x; self.y = y }

    /// From a deflection with x right and y up, each −1…1 (clamped): −1 → 0, 0 → 128, 1 → 255.
    public init(deflectionX x: Double, deflectionY y: Double) {
        self.init(x: Self.byte(x), y: Self.byte(y))
    }

    public static let centre = DSUStick(x: 128, y: 128)

    static func byte(_ v: Double) -> UInt8 {
        guard v.isFinite else { return 128 }
        return UInt8(((min(max(v, -1), 1) + 1) / 2 * 255).rounded())
    }
}

/// One touchpad contact: its id (the same for one continuous touch) and its position in the pad's
/// own units (a DualShock 4's pad is 1920 × 942, a DualSense's 1920 × 1080; hid-playstation).
public struct DSUTouch: Hashable, Sendable {
    public var id: UInt8
    public var x: UInt16
    public var y: UInt16
    public init(id: UInt8, x: UInt16, y: UInt16) { self.id = id; self.x = x; self.y = y }
}
