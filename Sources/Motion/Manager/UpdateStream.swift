/// One update type's state inside the manager: whether it runs, its interval, and where its data
/// go: a push channel (a handler on a queue) or an `AsyncStream`'s feed, neither when pulled only.
struct UpdateStream<Data: Sendable>: Sendable {
    var isActive = false
    var decimator = UpdateDecimator(interval: 0)
    /// nil when the caller only pulls (or iterates `feed`).
    var channel: UpdateChannel<Data>?
    /// nil unless a stream consumes this update type (`MotionManager.accelerometerUpdates()` …).
    private(set) var feed: UpdateFeed<Data>?
    /// Outputs of the batch being processed: `flush` publishes the newest to the pull slot and hands
    /// them all to `channel` or `feed` together, one lock for the samples a source read together
    /// instead of one per sample. Empty between batches; its storage is kept, so steady state does
    /// not allocate.
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

    /// Stages `data`; `flush` publishes and sends it, after the rest of its batch.
    mutating func push(_ data: consuming Data) { staged.append(data) }

    /// Publishes the batch's newest output to `slot` (stamped `arrivalTime`, the batch's), then sends
    /// every staged output in order; called once per batch of samples. Only the newest is published:
    /// the batch's samples arrived together, so a pull after it wants that one, and publishing each
    /// (a seqlock write of the whole value) was a tenth of a replay's push.
    mutating func flush(publishingTo slot: LatestValue<Received<Data>>, arrivalTime: Double) where Data: BitwiseCopyable {
        guard let newest = staged.last, let newest else { return }
        // before the hand-off: a handler that pulls sees at least what it was sent
        slot.publish(Received(value: newest, arrivalTime: arrivalTime))
        if let feed {
            feed.yield(moving: &staged)
        } else if let channel {
            channel.send(moving: &staged)
        } else {
            staged.removeAll(keepingCapacity: true)
        }
    }

    func report(_ error: MotionManagerError) {
        if isActive { channel?.report(error) }
    }
}
