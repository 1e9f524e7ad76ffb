import Foundation
import Motion

/// Collects a source's events until `done` says so (or `timeout` seconds pass), then stops it.
public func collect(_ source: any MotionSource, timeout: Double = 5,
             until done: @escaping @Sendable (MotionSourceEvent) -> Bool) throws -> [MotionSourceEvent] {
    let box = EventBox()
    try source.start { event in box.append(event, finished: done(event)) }
    box.wait(timeout: timeout)
    source.stop()
    return box.events
}

/// A source's events as they arrive, on any thread; tests wait on it.
public final class EventBox: @unchecked Sendable {
    public init() {}

    private let condition = NSCondition()
    private var stored: [MotionSourceEvent] = []
    private var finished = false

    public func append(_ event: MotionSourceEvent, finished done: Bool) {
        condition.lock()
        stored.append(event)
        if done { finished = true; condition.broadcast() }
        condition.unlock()
    }

    public func wait(timeout: Double) {
        condition.lock()
        let deadline = Date(timeIntervalSinceNow: timeout)
        while !finished && condition.wait(until: deadline) {}
        condition.unlock()
    }

    /// Waits until `predicate` holds for the events so far.
    public func wait(timeout: Double, for predicate: ([MotionSourceEvent]) -> Bool) -> Bool {
        let deadline = Date(timeIntervalSinceNow: timeout)
        while Date() < deadline {
            if predicate(events) { return true }
            Thread.sleep(forTimeInterval: 0.01)
        }
        return predicate(events)
    }

    public var events: [MotionSourceEvent] {
        condition.lock(); defer { condition.unlock() }
        return stored
    }
}

extension Array where Element == MotionSourceEvent {
    /// Every sample in the events, in order, however the source batched them.
    public var samples: [MotionSample] {
        flatMap { event -> [MotionSample] in if case .samples(let batch) = event { batch } else { [] } }
    }
}
