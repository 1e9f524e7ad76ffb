/// Something that happened during one tick, for the HUD, sounds and tests.
public enum CartEvent: Hashable, Sendable {
    case started
    case jumped
    case ducked
    case gemCollected(itemID: Int, lane: Lane)
    case gemMissed(itemID: Int)
    case cleared(itemID: Int)
    case crashed(itemID: Int)
    case paused(PauseReason)
    case resumed
    case gameOver(score: Int)
}
