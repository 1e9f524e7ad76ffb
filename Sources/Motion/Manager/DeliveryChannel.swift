/// An unbounded first-in-first-out hand-off from the producer thread to a handler on a queue:
/// every element sent is handed to the handler exactly once, in order, however slow the handler.
///
///     let channel = DeliveryChannel(queue: DispatchQueue(label: "rec")) { sample in record(sample) }
///     channel.send(sample)          // producer: appends under a short lock, never waits for the handler
///
/// Why it is exactly-once and ordered: `send` appends to `pending` under the lock; at most one
/// drain block is ever in flight (`draining`), and it takes the whole of `pending` in one swap
/// under the same lock, so each element leaves the list once, and batches are handed over in the
/// order they were taken. The producer holds the lock only to append (or to schedule a drain),
/// never while the handler runs, so a slow handler makes the list grow instead of stalling it.
/// The drained batch's storage is swapped back in, so steady state appends do not allocate.
final class DeliveryChannel<Element: Sendable>: Sendable {
    private struct State: ~Copyable {
        var pending: [Element] = []
        var spare: [Element] = []
        var draining = false
    }

    private let state = Locked(State())
    private let queue: any MotionHandlerQueue
    private let handler: @Sendable (Element) -> Void

    init(queue: any MotionHandlerQueue, handler: @escaping @Sendable (Element) -> Void) {
        self.queue = queue
        self.handler = handler
    }

    /// Queues `element` for the handler. Never runs the handler on the caller's thread.
    func send(_ element: Element) {
        let mustSchedule = state.withLock { s in
            s.pending.append(element)
            if s.draining { return false }
            s.draining = true
            return true
        }
        if mustSchedule { queue.enqueue { self.drainOneBatch() } }
    }

    /// Elements sent but not yet handed to the handler.
    var backlog: Int { state.withLock { $0.pending.count } }

    /// Hands over one batch, then yields the queue to other work and reschedules if more arrived.
    private func drainOneBatch() {
        var batch = state.withLock { s -> [Element] in
            var taken: [Element] = []
            swap(&taken, &s.spare)
            swap(&taken, &s.pending)
            return taken
        }
        for element in batch { handler(element) }
        batch.removeAll(keepingCapacity: true)
        let more = state.withLock { s -> Bool in
            swap(&s.spare, &batch)
            if s.pending.isEmpty {
                s.draining = false
                return false
            }
            return true
        }
        if more { queue.enqueue { self.drainOneBatch() } }
    }
}
