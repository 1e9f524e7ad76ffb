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

    /// The button's bit, in `allCases` order. A switch: `allCases.firstIndex(of:)` allocated on
    /// every call, and this runs for every button on every step.
    var bit: UInt32 {
        let index: UInt32
        switch self {
        case .south: index = 0
        case .east: index = 1
        case .west: index = 2
        case .north: index = 3
        case .leftShoulder: index = 4
        case .rightShoulder: index = 5
        case .leftTrigger: index = 6
        case .rightTrigger: index = 7
        case .select: index = 8
        case .start: index = 9
        case .home: index = 10
        case .capture: index = 11
        case .leftStick: index = 12
        case .rightStick: index = 13
        case .dpadUp: index = 14
        case .dpadDown: index = 15
        case .dpadLeft: index = 16
        case .dpadRight: index = 17
        }
        return 1 << index
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
