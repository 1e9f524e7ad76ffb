/// Everything the cart game is at one tick: a plain value, so the renderer can keep the last
/// two and interpolate, and a replay can compare states exactly.
///
///     var game = CartState(seed: 42)
///     game.step(CartCommand(start: true), rules: .standard)
///     game.step(CartCommand(lean: 0.5), rules: .standard)
public struct CartState: Hashable, Sendable {
    public internal(set) var phase: CartPhase = .title
    /// Ticks simulated while playing (not paused).
    public internal(set) var playTicks: Int = 0
    /// Metres travelled along the track.
    public internal(set) var distance: Double = 0
    /// m/s.
    public internal(set) var speed: Double
    public internal(set) var score: Int = 0
    public internal(set) var livesLeft: Int
    public internal(set) var gemsCollected: Int = 0
    public internal(set) var crashes: Int = 0
    /// The badger's lean, radians, positive right: the command's lean, clamped to ±80°.
    public internal(set) var lean: Float = 0
    /// Seconds of the current jump still to fly; 0 on the rails.
    public internal(set) var airTimeLeft: Double = 0
    /// Seconds of the current duck still to hold; 0 when upright.
    public internal(set) var duckTimeLeft: Double = 0
    /// Seconds of crash recovery left (nothing hits the cart meanwhile).
    public internal(set) var recoveryLeft: Double = 0
    /// Items from just behind the cart to `rules.lookahead` ahead, in track order.
    public internal(set) var items: [TrackItem] = []
    /// What happened in the last tick.
    public internal(set) var events: [CartEvent] = []
    /// The game's own random numbers (never the system's), so a seed fixes the track.
    public internal(set) var random: SplitMix64
    var generator: TrackGenerator

    public init(seed: UInt64, rules: CartRules = .standard) {
        random = SplitMix64(seed: seed)
        speed = rules.startSpeed
        livesLeft = rules.lives
        generator = TrackGenerator(runUp: rules.runUp)
        generator.extend(&items, to: rules.lookahead, speed: speed, rules: rules, random: &random)
    }

    public var isAirborne: Bool { airTimeLeft > 0 }
    public var isDucking: Bool { duckTimeLeft > 0 }
    public var isRecovering: Bool { recoveryLeft > 0 }

    /// Height of the cart above the rails, metres: a parabola over the jump.
    public func jumpHeight(rules: CartRules) -> Double {
        guard airTimeLeft > 0 else { return 0 }
        let s = 1 - airTimeLeft / rules.jumpDuration  // 0 → 1 over the jump
        return 4 * 1.4 * s * (1 - s)                  // 1.4 m at the top
    }

    /// How far the badger is crouched, 0 (upright) … 1, easing in and out of the duck.
    public func crouch(rules: CartRules) -> Double {
        guard duckTimeLeft > 0 else { return 0 }
        let s = 1 - duckTimeLeft / rules.duckDuration
        return min(1, min(s, 1 - s) * 6)
    }
}
