import Dispatch
import Synchronization

/// One `AsyncStream` consumer of an update type (`MotionManager.accelerometerUpdates()` and its
/// kin): the continuation the pipeline yields each batch's outputs to, on the source's thread.
///
///     let feed = UpdateFeed(continuation)
///     feed.yield(moving: &staged)     // the batch's outputs, in order; the list is left empty
///     feed.finish()                   // the manager lets go: the consumer's `for await` ends
///
/// `isReleased` says the manager has let go of the feed (stopped, replaced, or the source ended).
/// The stream's termination handler reads it first: a stream the manager still feeds was ended by
/// its consumer (task cancelled, stream dropped), and the handler stops the update type; one the
/// manager let go of needs nothing, and the handler must not take the manager's locks, since
/// `finish` (or dropping the last reference) may run it under them.
final class UpdateFeed<Data: Sendable>: Sendable {
    private let continuation: AsyncStream<Data>.Continuation
    private let released = Atomic<Bool>(false)

    init(_ continuation: AsyncStream<Data>.Continuation) {
        self.continuation = continuation
    }

    /// A stream and the feed that fills it. `consumerEnded` runs, on a thread of its own, when the
    /// consumer ends the stream (its task cancelled, the stream dropped) while the feed is still
    /// fed: the owner stops the updates there. The stream holds the feed only weakly, so dropping
    /// the owner ends the iteration (`deinit`) rather than keeping the owner alive.
    static func makeStream(bufferingPolicy: AsyncStream<Data>.Continuation.BufferingPolicy,
                           consumerEnded: @escaping @Sendable (UpdateFeed<Data>) -> Void)
        -> (stream: AsyncStream<Data>, feed: UpdateFeed<Data>) {
        let (stream, continuation) = AsyncStream.makeStream(of: Data.self, bufferingPolicy: bufferingPolicy)
        let feed = UpdateFeed(continuation)
        continuation.onTermination = { [weak feed] _ in
            guard let feed, !feed.isReleased else { return }
            // Not here: a cancelled task's termination handler runs holding that task's lock, which a
            // source's thread yielding to the same stream waits for, and stopping waits for that thread
            // (the manager's lock it yields under, the counting queue, the source's join): a deadlock.
            DispatchQueue.global().async { consumerEnded(feed) }
        }
        return (stream, feed)
    }

    var isReleased: Bool { released.load(ordering: .acquiring) }

    /// Yields `staged`'s data in order and empties it, keeping its storage. The continuation does
    /// not wait for the consumer: it buffers by the stream's policy.
    func yield(moving staged: inout [Data?]) {
        for data in staged {
            if let data { continuation.yield(data) }
        }
        staged.removeAll(keepingCapacity: true)
    }

    /// Yields one value (the pedometer's and activity manager's updates come one at a time).
    func yield(_ data: Data) { continuation.yield(data) }

    /// Marks the feed released, then ends the consumer's iteration after what it already has.
    func finish() {
        released.store(true, ordering: .releasing)
        continuation.finish()
    }

    /// A manager dropped while its stream is iterated: the iteration ends instead of waiting forever.
    deinit { finish() }
}
