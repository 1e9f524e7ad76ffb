import CartGame

/// What the renderer draws for one frame: the last two simulation states blended by how far
/// the wall clock is between their ticks ("Fix Your Timestep": `alpha = accumulator / dt`).
/// Pure, so tests check it without a window.
public struct CartView: Sendable {
    public var state: CartState
    /// Metres along the track, interpolated.
    public var distance: Double
    /// Radians, positive right, interpolated.
    public var lean: Float
    /// Metres above the rails.
    public var jumpHeight: Double
    /// 0 upright … 1 crouched.
    public var crouch: Double
    public var speed: Double

    public init(previous: CartState, current: CartState, alpha: Double, rules: CartRules) {
        let a = max(0, min(1, alpha))
        // A new game or a restart jumps: never blend across it.
        let blend = current.distance >= previous.distance && current.playTicks >= previous.playTicks
        func mix(_ p: Double, _ c: Double) -> Double { blend ? p + (c - p) * a : c }
        state = current
        distance = mix(previous.distance, current.distance)
        lean = Float(mix(Double(previous.lean), Double(current.lean)))
        jumpHeight = mix(previous.jumpHeight(rules: rules), current.jumpHeight(rules: rules))
        crouch = mix(previous.crouch(rules: rules), current.crouch(rules: rules))
        speed = mix(previous.speed, current.speed)
    }
}
