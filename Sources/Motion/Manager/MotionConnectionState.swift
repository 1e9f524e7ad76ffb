/// Whether the manager's source is delivering, for a game to pause on unplug.
public enum MotionConnectionState: Hashable, Sendable {
    /// No updates are running; the source is released.
    case stopped
    /// Updates are running and the source is delivering.
    case running
    /// The device went away (unplugged, read error); updates resume on `reconnected`.
    case disconnected(reason: String)
    /// A finite source (a trace) has delivered everything.
    case ended
    /// The source could not be started (for instance permission denied); the reason says what to do.
    case failed(reason: String)
}
