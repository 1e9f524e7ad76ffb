/// A floor's worth of height the altitude climbed or descended (`FloorCounter`), with the span of
/// time it was made over, so the pedometer can tell a walk up the stairs from a ride in a lift.
public struct FloorChange: Hashable, Sendable {
    /// When the floor completed, s.
    public var time: Double
    /// +1 up, −1 down (more when one reading completed several).
    public var change: Int
    /// When its climb or descent began, s (`FloorCounter.lastChangeStart`).
    public var start: Double

    public init(time: Double, change: Int, start: Double) {
        self.time = time
        self.change = change
        self.start = start
    }
}
