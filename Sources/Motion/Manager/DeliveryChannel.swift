import Dispatch
import Foundation

/// An unbounded first-in-first-out hand-off from the producer thread to a handler on a queue:
/// every element sent is handed to the handler exactly once, in order, however slow the handler.
///
///     let channel = DeliveryChannel(queue: DispatchQueue(label: "rec")) { sample in record(sample) }
///     channel.send(sample)          // producer: appends under a short lock, never waits for the handler
///
/// Why it is exactly-once and ordered: `send` (or `send(contentsOf:)`, a run of elements) appends
/// to `pending` under the lock; at most one drain block is ever in flight (`draining`), and it
/// takes the whole of `pending` in one swap under the same lock, so each element leaves the list
/// once, and batches are handed over in the order they were taken. The producer holds the lock only to append (or to schedule or wake a
/// drain), never while the handler runs, so a slow handler makes the list grow instead of stalling
/// it. The drained batch's storage is swapped back in, so steady state appends do not allocate.
///
/// Batching the hand-off: a handler that keeps up would otherwise get batches of one, and each
/// would cost a queue hand-off and a thread wake-up (about 1 µs of CPU, ten times the fusion).
/// So while the producer is in a burst — more than one element arrived during the last batch, as
/// in a replay as fast as possible or a buffered IIO read — the drain block, having emptied the
/// list, sleeps on a condition for up to `lingerNanoseconds` before it ends; the producer wakes it
/// early only once `batchSize` elements wait. The burst goes over in batches of hundreds to
/// thousands, and the waiting costs no CPU: a spin that polls for the next element (this type's first
/// version) catches it alone, so batches stay small and the waiting core burns. A device at its
/// real rate (a sample every 1–10 ms) gets batches of one and never waits, so its samples go
/// over as soon as they arrive, as before. The linger is a quarter of a 1 kHz pad's period, so a
/// source at its real rate, even one that reads in batches, sends its next batch after the wait
/// ended: only a producer faster than 4 kHz (a replay, a catch-up) has elements wait in it. At
/// 20 µs the wait ended before a batch gathered, and the wake-ups cost a sixth of the push
/// (`tiltkit bench fusion`, push device motion 232-317 ns a sample before, 180-217 after).
final class DeliveryChannel<Element: Sendable>: @unchecked Sendable {
    private struct State {
        var pending: [Element] = []
        var spare: [Element] = []
        var draining = false
        /// The drain sleeps in `waitForMore`: the producer signals when a batch is ready.
        var parked = false
    }

    /// How long a drain in a burst waits for more elements, ns: a quarter of a 1 kHz source's period.
    static var lingerNanoseconds: UInt64 { 250_000 }
    /// Pending elements at which the producer wakes a waiting drain early.
    static var batchSize: Int { 2048 }

    /// A pthread mutex and condition variable, which the thread sanitizer models (see `Locked`).
    private let condition = NSCondition()
    /// Unchecked: every access is under `condition` (see `Locked`'s note on the cost of the check).
    @exclusivity(unchecked) private var state = State()
    private let queue: any MotionHandlerQueue
    private let handler: @Sendable (Element) -> Void

    init(queue: any MotionHandlerQueue, handler: @escaping @Sendable (Element) -> Void) {
        self.queue = queue
        self.handler = handler
    }

    /// Queues `element` for the handler. Never runs the handler on the caller's thread.
    /// Consuming: the element is moved into the list, not copied (an element that is not plain
    /// bytes is copied through its type's value witness).
    func send(_ element: consuming Element) {
        condition.lock()
        state.pending.append(element)
        scheduleDrain()
    }

    /// Queues `elements`, in order, under one lock: the outputs of samples read together (a
    /// replay's catch-up, a device's buffered read), which `send` would lock for one by one.
    func send(contentsOf elements: some Collection<Element>) {
        condition.lock()
        state.pending.append(contentsOf: elements)
        scheduleDrain()
    }

    /// As `send(contentsOf:)`, taking the elements out of `elements` (left empty): when nothing is
    /// pending the two lists are swapped, so the elements are not copied at all. The caller keeps a
    /// list's storage.
    func send(moving elements: inout [Element]) {
        condition.lock()
        if state.pending.isEmpty {
            swap(&state.pending, &elements)
        } else {
            state.pending.append(contentsOf: elements)
        }
        scheduleDrain()
        elements.removeAll(keepingCapacity: true)
    }

    /// After an append, with the lock held: starts a drain if none runs, or wakes a waiting one
    /// once a batch is ready; then unlocks.
    private func scheduleDrain() {
        let mustSchedule = !state.draining
        if mustSchedule {
            state.draining = true
        } else if state.parked && state.pending.count >= Self.batchSize {
            state.parked = false
            condition.signal()
        }
        condition.unlock()
        if mustSchedule { queue.enqueue { self.drainOneBatch() } }
    }

    /// Elements sent but not yet handed to the handler.
    var backlog: Int {
        condition.lock()
        defer { condition.unlock() }
        return state.pending.count
    }

    /// Hands over one batch, then yields the queue to other work and reschedules if more arrived.
    private func drainOneBatch() {
        condition.lock()
        var batch: [Element] = []
        swap(&batch, &state.spare)
        swap(&batch, &state.pending)
        condition.unlock()
        // Each element lent to the handler in place: iterating the array copied every one out.
        batch.withUnsafeBufferPointer { elements in
            for i in elements.indices { handler(elements[i]) }
        }
        let inBurst = batch.count > 1
        batch.removeAll(keepingCapacity: true)
        if waitForMore(inBurst: inBurst, recycling: &batch) { queue.enqueue { self.drainOneBatch() } }
    }

    /// True when elements are pending (the caller drains them again); otherwise ends the drain.
    /// In a burst with nothing pending, first sleeps until a batch is ready or the linger passes.
    /// Decided under the lock: a send racing with this look must not be stranded.
    private func waitForMore(inBurst: Bool, recycling batch: inout [Element]) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        swap(&state.spare, &batch)
        if inBurst && state.pending.count < Self.batchSize {
            state.parked = true
            // Bounded on the monotonic clock: the condition's deadline is a wall-clock `Date`, and
            // a clock set back must not keep the last samples of a burst waiting. Looped: a
            // condition may wake spuriously; the producer's signal clears `parked`.
            let started = DispatchTime.now().uptimeNanoseconds
            while state.parked {
                let waited = DispatchTime.now().uptimeNanoseconds &- started
                guard waited < Self.lingerNanoseconds else { break }
                _ = condition.wait(until: Date(timeIntervalSinceNow: Double(Self.lingerNanoseconds - waited) / 1e9))
            }
            state.parked = false
        }
        if state.pending.isEmpty {
            state.draining = false
            return false
        }
        return true
    }
}
