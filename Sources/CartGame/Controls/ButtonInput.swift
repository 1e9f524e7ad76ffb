/// The traditional controls, held state from keyboard and gamepad, and how they mix with
/// motion: a stick or key lean adds to the device's lean; a button jumps or ducks as a gesture
/// does. Edges (jump, duck, start, pause) fire on the press, once.
public struct ButtonInput: Hashable, Sendable {
    /// −1 … 1 from a stick or the arrow keys, positive right.
    public var leanAxis: Float = 0
    public var jumpHeld = false
    public var duckHeld = false
    public var startHeld = false
    public var pauseHeld = false
    private var wasJump = false, wasDuck = false, wasStart = false, wasPause = false

    /// Lean, radians, of a full stick or a held key (≈ 35°: beyond the lane reach).
    public static let fullLean: Float = 0.6

    public init() {}

    /// This frame's command: the motion frame's lean and gestures mixed with the buttons.
    public mutating func mix(with motion: CartCommand) -> CartCommand {
        let axis = max(-1, min(1, leanAxis.isFinite ? leanAxis : 0))
        var command = motion
        command.lean = max(-1.4, min(1.4, motion.lean + axis * Self.fullLean))
        command.jump = motion.jump || (jumpHeld && !wasJump)
        command.duck = motion.duck || (duckHeld && !wasDuck)
        command.start = motion.start || (startHeld && !wasStart) || (jumpHeld && !wasJump)
        command.togglePause = motion.togglePause || (pauseHeld && !wasPause)
        (wasJump, wasDuck, wasStart, wasPause) = (jumpHeld, duckHeld, startHeld, pauseHeld)
        return command
    }

}
