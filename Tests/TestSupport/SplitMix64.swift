import CartGame

/// The tests' seeded generator is the game's own (so synthetic jitter is the same on every run):
/// one implementation, checked against the reference output in `CartRulesTests`.
public typealias SplitMix64 = CartGame.SplitMix64
