/// The game's tunables, in SI units. `CartRules.standard` is the game as shipped; tests
/// build variants with only the fields they care about changed.
public struct CartRules: Hashable, Sendable {
    /// Simulation ticks per second (the fixed step, "Fix Your Timestep").
    public var tickRate: Double = 60
    /// Cart speed at the start, m/s.
    public var startSpeed: Double = 8
    /// Speed gained per second of play, m/s².
    public var acceleration: Double = 0.12
    /// Top speed, m/s.
    public var maxSpeed: Double = 22
    /// Crashes allowed before the game is over.
    public var lives: Int = 3
    /// Time in the air after a jump, seconds.
    public var jumpDuration: Double = 0.65
    /// Time crouched after a duck, seconds.
    public var duckDuration: Double = 0.65
    /// After a crash, seconds during which nothing hits the cart (and the cart slows).
    public var recoveryDuration: Double = 1.5
    /// Lean, radians, at which the badger reaches a side lane (≈ 20°).
    public var laneReach: Float = 0.35
    /// Points for a gem; obstacles and beams cleared score `clearPoints`.
    public var gemPoints: Int = 10
    public var clearPoints: Int = 5
    /// How far ahead the track is generated, metres.
    public var lookahead: Double = 120
    /// Length of one track section (one obstacle, beam or gem row), metres, at start speed;
    /// sections stretch with speed so reaction time stays fair.
    public var sectionLength: Double = 14
    /// Empty track before the first item, metres.
    public var runUp: Double = 30

    public init() {}

    public static let standard = CartRules()

    /// Seconds per tick.
    public var tickInterval: Double { 1 / tickRate }
}
