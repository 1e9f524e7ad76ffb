import Engine

/// What the user can ask of the teapot demo; keys map to commands in one table (`keyMap`), so the
/// help overlay and the handling cannot disagree.
public enum TeapotCommand: Hashable, Sendable {
    case setMode(TeapotMode)
    /// Fusion and accelerometer-only side by side.
    case toggleCompare
    case togglePivot
    case resetReferenceAttitude
    case togglePause
    /// Multiply the accelerometer-only gravity cut-off by this factor.
    case scaleGravityCutoff(Double)
    case cycleGraphAxis
    /// Average the next second's gyro as its bias (the pad must be held still).
    case calibrateGyro
    case toggleHelp
    case toggleFullscreen
    case toggleVSync
    case quit

    /// Key bindings with the text the help overlay shows, in display order.
    public static let keyMap: [(keys: [Key], label: String, command: TeapotCommand)] = [
        ([.character("1")], "1  device motion (fusion)", .setMode(.fusion)),
        ([.character("2")], "2  accelerometer only (roll, pitch)", .setMode(.accel)),
        ([.character("3")], "3  translation (rubber band)", .setMode(.translation)),
        ([.character("b")], "B  both: fusion | accelerometer only", .toggleCompare),
        ([.character("p"), .tab], "P  pivot: camera / object", .togglePivot),
        ([.character("r")], "R  reset reference attitude", .resetReferenceAttitude),
        ([.space], "Space  pause", .togglePause),
        ([.character("="), .keypadPlus], "+  gravity filter cut-off up", .scaleGravityCutoff(1.25)),
        ([.character("-"), .keypadMinus], "-  gravity filter cut-off down", .scaleGravityCutoff(0.8)),
        ([.character("g")], "G  graph axis x / y / z", .cycleGraphAxis),
        ([.character("c")], "C  gyro bias: hold still, calibrating", .calibrateGyro),
        ([.character("f"), .f11], "F  fullscreen", .toggleFullscreen),
        ([.character("v")], "V  vsync on / off", .toggleVSync),
        ([.character("h"), .f1], "H / F1  this help", .toggleHelp),
        ([.character("q"), .escape], "Q / Esc  quit", .quit),
    ]

    /// The command bound to `key`, if any.
    public static func command(for key: Key) -> TeapotCommand? {
        keyMap.first { $0.keys.contains(key) }?.command
    }
}
