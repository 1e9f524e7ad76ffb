/// What the game sees each tick: the whole of the player's input, already turned from
/// sensors or buttons into intent. A replay is a list of these.
///
///     state.step(CartCommand(lean: 0.4, jump: true), rules: .standard)
public struct CartCommand: Hashable, Sendable {
    /// Lean of the cart, radians, positive to the right. The badger leans at this angle.
    public var lean: Float
    /// Jump over an obstacle (an edge: true on the tick the gesture or button fires).
    public var jump: Bool
    /// Duck under a beam (an edge, as `jump`).
    public var duck: Bool
    /// Start a game from the title or game-over screen, or resume from pause.
    public var start: Bool
    /// Pause a running game, or resume a paused one.
    public var togglePause: Bool

    public init(lean: Float = 0, jump: Bool = false, duck: Bool = false,
                start: Bool = false, togglePause: Bool = false) {
        self.lean = lean
        self.jump = jump
        self.duck = duck
        self.start = start
        self.togglePause = togglePause
    }

    public static let idle = CartCommand()
}
