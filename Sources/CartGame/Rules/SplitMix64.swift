/// The game's own random numbers: SplitMix64 (Steele, Lea, Flood, "Fast splittable
/// pseudorandom number generators", OOPSLA 2014; constants from the paper's reference code).
/// Stored in the game state so the same seed always builds the same track.
public struct SplitMix64: RandomNumberGenerator, Hashable, Sendable {
    public private(set) var state: UInt64

    public init(seed: UInt64) { state = seed }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// Uniform in 0..<1 from the top 53 bits.
    public mutating func nextUnit() -> Double { Double(next() >> 11) * 0x1.0p-53 }

    /// Uniform integer in 0..<bound (bound > 0), by Lemire's multiply-shift without rejection
    /// (the bias is below 2⁻⁵⁰ for the small bounds the track uses).
    public mutating func nextInt(below bound: Int) -> Int {
        Int(next().multipliedFullWidth(by: UInt64(bound)).high)
    }
}
