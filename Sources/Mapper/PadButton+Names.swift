extension PadButton {
    /// The button a profile names: JoyShockMapper's names (S E W N L R ZL ZR MINUS PLUS HOME CAPTURE
    /// L3 R3 UP DOWN LEFT RIGHT) or a PlayStation or Xbox alias, case-insensitive, by position:
    /// CROSS/A = S, CIRCLE/B = E, SQUARE/X = W, TRIANGLE/Y = N (Xbox's letters, where Linux puts
    /// BTN_A; a Nintendo pad's B is also S), L1/LB = L, R1/RB = R, L2/LT = ZL, R2/RT = ZR,
    /// SHARE/CREATE/SELECT/BACK/VIEW = MINUS, OPTIONS/START/MENU = PLUS, PS/GUIDE/XBOX = HOME,
    /// TOUCHPAD = CAPTURE (JoyShockMapper's touchpad click), LS = L3, RS = R3,
    /// DPAD_UP/DPAD_DOWN/DPAD_LEFT/DPAD_RIGHT = UP/DOWN/LEFT/RIGHT.
    public init?(name: String) {
        let upper = name.uppercased()
        if let button = PadButton(rawValue: upper) ?? Self.aliases[upper] { self = button } else { return nil }
    }

    static let aliases: [String: PadButton] = [
        "CROSS": .south, "A": .south, "CIRCLE": .east, "B": .east,
        "SQUARE": .west, "X": .west, "TRIANGLE": .north, "Y": .north,
        "L1": .leftShoulder, "LB": .leftShoulder, "R1": .rightShoulder, "RB": .rightShoulder,
        "L2": .leftTrigger, "LT": .leftTrigger, "R2": .rightTrigger, "RT": .rightTrigger,
        "SHARE": .select, "CREATE": .select, "SELECT": .select, "BACK": .select, "VIEW": .select,
        "OPTIONS": .start, "START": .start, "MENU": .start,
        "PS": .home, "GUIDE": .home, "XBOX": .home, "TOUCHPAD": .capture,
        "LS": .leftStick, "RS": .rightStick,
        "DPAD_UP": .dpadUp, "DPAD_DOWN": .dpadDown, "DPAD_LEFT": .dpadLeft, "DPAD_RIGHT": .dpadRight,
    ]

    /// Every name `init(name:)` accepts, for "did you mean".
    static var allNames: [String] { allCases.map(\.rawValue) + aliases.keys.sorted() }
}

extension ButtonTarget {
    /// `mouse_left`, `mouse_right`, `mouse_middle`, `mouse_back`, `mouse_forward`, `wheel_up`,
    /// `wheel_down`, `none`, or a pad button's name (`PadButton(name:)`); case-insensitive.
    public init?(name: String) {
        switch name.lowercased() {
        case "mouse_left": self = .mouse(.left)
        case "mouse_right": self = .mouse(.right)
        case "mouse_middle": self = .mouse(.middle)
        case "mouse_back": self = .mouse(.side)
        case "mouse_forward": self = .mouse(.extra)
        case "wheel_up": self = .wheelUp
        case "wheel_down": self = .wheelDown
        case "none": self = .none
        default:
            guard let button = PadButton(name: name) else { return nil }
            self = .pad(button)
        }
    }

    static let mouseNames = ["mouse_left", "mouse_right", "mouse_middle", "mouse_back", "mouse_forward", "wheel_up", "wheel_down", "none"]
}
