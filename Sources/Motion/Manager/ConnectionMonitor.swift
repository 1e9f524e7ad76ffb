/// The manager's connection state and its optional change handler, kept apart from the
/// per-sample state so a game polling `connectionState` every frame never contends with the
/// producer (which takes this lock only on connection events, not per sample).
final class ConnectionMonitor: Sendable {
    private struct Record: ~Copyable {
        var state = MotionConnectionState.stopped
        var channel: DeliveryChannel<MotionConnectionState>?
    }

    private let record = Locked(Record())

    var state: MotionConnectionState { record.withLock { $0.state } }

    /// Records `state` and tells the handler, if it changed.
    func set(_ state: MotionConnectionState) {
        record.withLock {
            guard $0.state != state else { return }
            $0.state = state
            $0.channel?.send(state)
        }
    }

    func setChannel(_ channel: DeliveryChannel<MotionConnectionState>?) { record.withLock { $0.channel = channel } }
}
