/// Which half of a Joy-Con pair: the left (057E:2006) or the right (057E:2007).
public enum JoyConSide: String, CaseIterable, Hashable, Sendable {
    case left, right

    /// The side a pad model is, nil for pads that are not Joy-Cons.
    public init?(model: GamepadModel) {
        switch model {
        case .joyConLeft: self = .left
        case .joyConRight: self = .right
        default: return nil
        }
    }

    /// The side an evdev node of hid-nintendo belongs to, from its name: "Nintendo Switch Left
    /// Joy-Con" and "… Right Joy-Con", each with an " IMU" twin (hid-nintendo.c joycon_input_create).
    public init?(evdevNodeName name: String) {
        if name.contains("Left Joy-Con") { self = .left } else if name.contains("Right Joy-Con") { self = .right } else { return nil }
    }

    public var model: GamepadModel { self == .left ? .joyConLeft : .joyConRight }
    public var other: JoyConSide { self == .left ? .right : .left }
    public var displayName: String { model.displayName }
}
