/// Handles a source's events on its thread, one at a time (a batch of samples is one event):
/// what the manager's delivery closure calls.
///
/// It holds the manager's parts, not the manager: a closure that reached the manager through a
/// weak reference (so that dropping the manager still stops the source) paid for it on every
/// sample, since an object with weak references keeps its counts in a side table and each
/// `weak` load retains and releases through it (about a seventh of the push's CPU time,
/// `perf record` on `tiltkit bench fusion`). Holding the parts strongly makes no cycle: the
/// source holds this, and nothing here holds the source or the manager.
struct SourceEventHandler: Sendable {
    let pipeline: Locked<MotionPipeline>
    let slots: PullSlots
    let connection: ConnectionMonitor
    let clock: any MotionClock

    func handle(_ event: MotionSourceEvent) {
        switch event {
        case .samples(let batch):
            // Read together, so they arrived together: one clock read and one lock for the batch.
            guard !batch.isEmpty else { return }
            let arrival = clock.now()
            pipeline.withLock { $0.process(batch, arrivalTime: arrival, into: slots) }
        case .disconnected(let reason):
            connection.set(.disconnected(reason: reason))
            pipeline.withLock {
                $0.rateMeter.reset()
                $0.reportToHandlers(.sourceDisconnected(reason: reason))
            }
        case .reconnected:
            connection.set(.running)
        case .ended:
            connection.set(.ended)
            pipeline.withLock { $0.finishFeeds() }
        }
    }
}
