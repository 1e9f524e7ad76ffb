/// A pad's buttons by position, named as JoyShockMapper's players know them (S/E/W/N for the face
/// buttons whatever their labels, L/R shoulders, ZL/ZR the triggers' clicks, MINUS/PLUS, HOME,
/// CAPTURE, L3/R3 the sticks' clicks, UP/DOWN/LEFT/RIGHT the d-pad). A DualShock 4's cross is `S`,
/// a Switch Pro's B is `S` too: position, not label, so one profile serves every pad.
public enum PadButton: String, CaseIterable, Hashable, Sendable {
    case south = "S", east = "E", west = "W", north = "N"
    case leftShoulder = "L", rightShoulder = "R"
    case leftTrigger = "ZL", rightTrigger = "ZR"
    case select = "MINUS", start = "PLUS", home = "HOME", capture = "CAPTURE"
    case leftStick = "L3", rightStick = "R3"
    case dpadUp = "UP", dpadDown = "DOWN", dpadLeft = "LEFT", dpadRight = "RIGHT"

    /// The button's bit in `PadButtons`: its place in the declaration (`allCases`) order. A switch,
    /// not `allCases.firstIndex(of:)`: `allCases` builds a new array on every call, and every
    /// `contains` of every mapper step asked for a bit.
    var bit: UInt32 {
        let place: UInt32 =
            switch self {
            case .south: 0
            case .east: 1
            case .west: 2
            case .north: 3
            case .leftShoulder: 4
            case .rightShoulder: 5
            case .leftTrigger: 6
            case .rightTrigger: 7
            case .select: 8
            case .start: 9
            case .home: 10
            case .capture: 11
            case .leftStick: 12
            case .rightStick: 13
            case .dpadUp: 14
            case .dpadDown: 15
            case .dpadLeft: 16
            case .dpadRight: 17
            }
        return 1 << place
    }
}

/// A set of `PadButton`s held at once, as bits (copied per sample without allocating).
public struct PadButtons: OptionSet, Hashable, Sendable {
    public let rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }
    public init(_ button: PadButton) { rawValue = button.bit }
    public init(_ buttons: [PadButton]) { rawValue = buttons.reduce(0) { $0 | $1.bit } }

    public func contains(_ button: PadButton) -> Bool { rawValue & button.bit != 0 }
    public mutating func set(_ button: PadButton, _ held: Bool) {
        if held { insert(PadButtons(button)) } else { remove(PadButtons(button)) }
    }
    /// The buttons held, in `PadButton.allCases` order.
    public var buttons: [PadButton] { PadButton.allCases.filter(contains) }
}
