import Dispatch
import Foundation
import Synchronization

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
///
/// Batching the hand-off: a handler that keeps up would otherwise get batches of one, and each
/// would cost a queue hand-off and a thread wake-up (about 1 µs of CPU, ten times the fusion).
/// So while the producer is in a burst — more than one element arrived during the last batch, as
/// in a replay as fast as possible or a buffered IIO read — the drain block waits up to
/// `lingerNanoseconds` (yielding the core) for the next element before it ends, and the burst
/// goes over in a few large batches. A device at its real rate (a sample every 1–10 ms) gets
/// batches of one and never triggers it, so its samples go over as soon as they arrive, as before.
final class DeliveryChannel<Element: Sendable>: Sendable {
    private struct State: ~Copyable {
        var pending: [Element] = []
        var spare: [Element] = []
        var draining = false
    }
    /// Sends so far: watched by a lingering drain without taking the lock, which the producer
    /// would otherwise find contended.
    private let sent = Atomic<UInt64>(0)

    /// How long a drain in a burst waits for the next element, ns.
    static var lingerNanoseconds: UInt64 { 20_000 }

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
            sent.add(1, ordering: .relaxed)
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
        let inBurst = batch.count > 1
        batch.removeAll(keepingCapacity: true)
        state.withLock { s in swap(&s.spare, &batch) }
        let more = waitForMore(inBurst: inBurst)
        if more { queue.enqueue { self.drainOneBatch() } }
    }

    /// True when elements are pending (the caller drains them again); otherwise ends the drain.
    /// In a burst, first waits a little for the next element (see the type's note).
    private func waitForMore(inBurst: Bool) -> Bool {
        if inBurst {
            let seen = sent.load(ordering: .relaxed)
            let started = DispatchTime.now().uptimeNanoseconds
            while sent.load(ordering: .relaxed) == seen
                    && DispatchTime.now().uptimeNanoseconds &- started <= Self.lingerNanoseconds {
                sched_yield()
            }
        }
        // Decided under the lock: a send racing with this look must not be stranded.
        return state.withLock { s -> Bool in
            if s.pending.isEmpty { s.draining = false; return false }
            return true
        }
    }
}
