/// One update type's state inside the manager: whether it runs, its interval, and where its data
/// go: a push channel (a handler on a queue) or an `AsyncStream`'s feed, neither when pulled only.
struct UpdateStream<Data: Sendable>: Sendable {
    var isActive = false
    var decimator = UpdateDecimator(interval: 0)
    /// nil when the caller only pulls (or iterates `feed`).
    var channel: UpdateChannel<Data>?
    /// nil unless a stream consumes this update type (`MotionManager.accelerometerUpdates()` …).
    private(set) var feed: UpdateFeed<Data>?
    /// Outputs of the batch being processed, handed to `channel` together by `flush`: one lock
    /// for the samples a source read together instead of one per sample. Empty between batches;
    /// its storage is kept, so steady state does not allocate.
    private var staged: [Data?] = []

    /// Starts (or restarts with a new handler); the first sample after it is delivered.
    /// A stream consuming the update type before is finished: it has one consumer at a time, as
    /// it has one handler.
    mutating func activate(channel: UpdateChannel<Data>?, feed: UpdateFeed<Data>? = nil) {
        isActive = true
        self.channel = channel
        self.feed?.finish()
        self.feed = feed
        decimator.restart()
    }

    /// Stops the update type; a stream consuming it ends after the data it already has.
    mutating func deactivate() {
        isActive = false
        channel = nil
        feed?.finish()
        feed = nil
    }

    /// Deactivates only while `feed` is the one consuming it: a stream its consumer ended must not
    /// stop updates that a later start handed to someone else.
    mutating func deactivate(ifFedBy feed: UpdateFeed<Data>) {
        if self.feed === feed { deactivate() }
    }

    /// True if `timestamp` passes the update interval; call once per sample while active.
    mutating func admits(_ timestamp: Double) -> Bool { isActive && decimator.admits(timestamp) }

    /// Stages `data` for the handler; `flush` sends it, after the rest of its batch.
    mutating func push(_ data: consuming Data) {
        if channel != nil || feed != nil { staged.append(data) }
    }

    /// Sends the batch's staged outputs, in order; called once per batch of samples.
    mutating func flush() {
        guard !staged.isEmpty else { return }
        if let feed {
            feed.yield(moving: &staged)
        } else {
            channel?.send(moving: &staged)
        }
    }

    func report(_ error: MotionManagerError) {
        if isActive { channel?.report(error) }
    }
}
