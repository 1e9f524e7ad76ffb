/// Which screen the game is on.
public enum CartPhase: Hashable, Sendable {
    case title
    case playing
    /// Paused by the player, or because the motion device stopped sending (`reason`).
    case paused(reason: PauseReason)
    case gameOver
}

public enum PauseReason: Hashable, Sendable {
    case player
    /// The motion source went away or a non-looping trace ended; the text is for the player.
    case deviceLost(String)
}
