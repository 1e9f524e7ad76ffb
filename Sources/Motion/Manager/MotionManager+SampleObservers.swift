import Dispatch

/// Every raw sample the source delivers, for consumers that run beside the manager's own update
/// types: the pedometer, the activity classifier and the sensor recorder each observe the same
/// manager while a game pushes or pulls device motion from it (Core Motion's `CMPedometer` and
/// `CMMotionActivityManager` are fed by the system the same way, not through a motion manager's
/// single accelerometer handler).
///
///     let observation = manager.observeSamples(on: DispatchQueue(label: "steps")) { sample in
///         detector.add(sample)
///     }
///     …
///     observation.cancel()
///
/// Each observer gets every sample once, in order, on its queue (a `DeliveryChannel`: the source
/// never waits for it); no update interval applies. Observing starts the source like any update
/// type, and the last cancel stops it. Cancelling is also done when the observation is released.
extension MotionManager {
    public func observeSamples(on queue: some MotionHandlerQueue,
                               _ handler: @escaping @Sendable (MotionSample) -> Void) -> MotionSampleObservation {
        let channel = DeliveryChannel<MotionSample>(queue: queue, handler: handler)
        let id = Locked(-1)
        start(needs: .accelerometer, "accelerometer", fail: { _ in }) { pipeline in
            id.withLock { $0 = pipeline.nextObserverID }
            pipeline.sampleObservers[pipeline.nextObserverID] = channel
            pipeline.nextObserverID += 1
        }
        let observerID = id.withLock { $0 }
        return MotionSampleObservation(cancel: { [weak self] in
            self?.stop { $0.sampleObservers[observerID] = nil }
        }, backlog: { channel.backlog })
    }
}

/// A running `observeSamples` subscription; `cancel()` (or releasing it) ends it.
public final class MotionSampleObservation: Sendable {
    private let cancelAction: Locked<(@Sendable () -> Void)?>
    private let backlogCount: @Sendable () -> Int

    init(cancel: @escaping @Sendable () -> Void, backlog: @escaping @Sendable () -> Int) {
        cancelAction = Locked(cancel)
        backlogCount = backlog
    }

    /// Samples sent to the observer's queue and not yet taken by it.
    var backlog: Int { backlogCount() }

    /// Returns once every sample sent before the call has been handled on `queue`, the serial
    /// queue the observer runs on: the queue's drain re-enqueues itself behind a single sync.
    func waitUntilHandled(on queue: DispatchQueue) {
        while true {
            let pending = backlog
            queue.sync {}
            if pending == 0 { return }
        }
    }

    /// Stops delivery; samples already queued may still reach the handler. Safe to call twice.
    public func cancel() {
        let action = cancelAction.withLock { action -> (@Sendable () -> Void)? in
            defer { action = nil }
            return action
        }
        action?()
    }

    deinit { cancel() }
}
