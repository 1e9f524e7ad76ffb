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
        return MotionSampleObservation { [weak self] in
            self?.stop { $0.sampleObservers[observerID] = nil }
        }
    }
}

/// A running `observeSamples` subscription; `cancel()` (or releasing it) ends it.
public final class MotionSampleObservation: Sendable {
    private let cancelAction: Locked<(@Sendable () -> Void)?>

    init(cancel: @escaping @Sendable () -> Void) { cancelAction = Locked(cancel) }

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
