import Motion

/// Whether the motion source still feeds the game, judged once per tick from what the manager
/// says: its connection state and the arrival of the latest sample.
public enum SourceHealth: Hashable, Sendable {
    case delivering
    /// The text is for the player.
    case lost(String)

    /// Seconds without a new sample after which the device counts as lost: long enough for a
    /// Bluetooth pad's hiccup, short enough that the player sees the pause at once.
    public static let staleAfter = 0.5

    /// `lastArrival` and `startedAt` (when motion updates last started: older samples do not
    /// count) and `now` are seconds on the manager's clock.
    public static func judge(_ connection: MotionConnectionState, lastArrival: Double?, startedAt: Double,
                             now: Double) -> SourceHealth {
        switch connection {
        case .disconnected(let reason): return .lost("the motion device went away: \(reason)")
        case .ended: return .lost("the recording ended")
        case .failed(let reason): return .lost(reason)
        case .running, .stopped:
            guard let lastArrival, now - max(lastArrival, startedAt) > staleAfter else { return .delivering }
            return .lost("no motion for \(tenths(now - lastArrival)) s")
        }
    }

    /// "1.3": one decimal without Foundation.
    private static func tenths(_ seconds: Double) -> String {
        let t = Int((seconds * 10).rounded())
        return "\(t / 10).\(t % 10)"
    }
}
