/// One update type's state inside the manager: whether it runs, its interval, and its push channel.
struct UpdateStream<Data: Sendable>: Sendable {
    var isActive = false
    var decimator = UpdateDecimator(interval: 0)
    /// nil when the caller only pulls.
    var channel: DeliveryChannel<Result<Data, MotionManagerError>>?

    /// Starts (or restarts with a new handler); the first sample after it is delivered.
    mutating func activate(channel: DeliveryChannel<Result<Data, MotionManagerError>>?) {
        isActive = true
        self.channel = channel
        decimator.restart()
    }

    mutating func deactivate() {
        isActive = false
        channel = nil
    }

    /// True if `timestamp` passes the update interval; call once per sample while active.
    mutating func admits(_ timestamp: Double) -> Bool { isActive && decimator.admits(timestamp) }

    func push(_ data: consuming Data) { channel?.send(.success(data)) }

    func report(_ error: MotionManagerError) {
        if isActive { channel?.send(.failure(error)) }
    }
}
