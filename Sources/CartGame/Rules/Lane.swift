/// Where across the track a gem hangs: the badger reaches it by leaning that way.
public enum Lane: Int, Hashable, Sendable, CaseIterable {
    case left = -1
    case centre = 0
    case right = 1

    /// The lane a lean reaches: beyond `reach` radians to one side, that side's lane.
    public static func reached(byLean lean: Float, reach: Float) -> Lane {
        if lean <= -reach { return .left }
        if lean >= reach { return .right }
        return .centre
    }
}
