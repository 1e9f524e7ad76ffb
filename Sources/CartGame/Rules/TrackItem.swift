/// One thing on the track ahead, at a distance along it.
public struct TrackItem: Hashable, Sendable {
    public enum Kind: Hashable, Sendable {
        /// A gem in a lane: collected by leaning into its lane as the cart passes.
        case gem(Lane)
        /// A rock across the rails: jump over it or crash.
        case obstacle
        /// A low beam across the track: duck under it or crash.
        case beam
    }

    /// Unique in one game, increasing along the track; the renderer keys meshes on it.
    public var id: Int
    public var kind: Kind
    /// Metres from the start of the track.
    public var distance: Double

    public init(id: Int, kind: Kind, distance: Double) {
        self.id = id
        self.kind = kind
        self.distance = distance
    }
}
