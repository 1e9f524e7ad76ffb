/// Fractions of a mouse count carried from one step to the next, so a slow turn that moves 0.3
/// count a sample still moves a count every few samples instead of never (JoyShockMapper and
/// every gyro mouse do the same).
///
///     var remainder = MouseRemainder()
///     let (x, y) = remainder.take(x: 0.3, y: -1.7)    // (0, -1), carrying 0.3 and -0.7
struct MouseRemainder: Hashable, Sendable {
    private(set) var x = 0.0
    private(set) var y = 0.0

    /// Whole counts of the carried fractions plus `x`, `y` (counts), rounded toward zero; the rest
    /// stays for the next call. A non-finite input is dropped rather than poisoning the carry.
    mutating func take(x dx: Double, y dy: Double) -> (x: Int32, y: Int32) {
        (Self.whole(&x, dx), Self.whole(&y, dy))
    }

    private static func whole(_ carry: inout Double, _ delta: Double) -> Int32 {
        guard delta.isFinite else { return 0 }
        let total = carry + delta
        // Int32's range is far beyond any real step; clamp so a wild value cannot trap.
        let whole = min(Double(Int32.max), max(Double(Int32.min), total.rounded(.towardZero)))
        carry = total - whole
        return Int32(whole)
    }
}
