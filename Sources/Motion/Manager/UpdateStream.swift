/// One update type's state inside the manager: whether it runs, its interval, and its push channel.
struct UpdateStream<Data: Sendable>: Sendable {
    var isActive = false
    var decimator = UpdateDecimator(interval: 0)
    /// nil when the caller only pulls.
    var channel: UpdateChannel<Data>?
    /// Outputs of the batch being processed, handed to `channel` together by `flush`: one lock
    /// for the samples a source read together instead of one per sample. Empty between batches;
    /// its storage is kept, so steady state does not allocate.
    private var staged: [Data?] = []

    /// Starts (or restarts with a new handler); the first sample after it is delivered.
    mutating func activate(channel: UpdateChannel<Data>?) {
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

    /// Stages `data` for the handler; `flush` sends it, after the rest of its batch.
    mutating func push(_ data: consuming Data) {
        if channel != nil { staged.append(data) }
    }

    /// Sends the batch's staged outputs, in order; called once per batch of samples.
    mutating func flush() {
        guard !staged.isEmpty else { return }
        channel?.send(moving: &staged)
    }

    func report(_ error: MotionManagerError) {
        if isActive { channel?.report(error) }
    }
}
