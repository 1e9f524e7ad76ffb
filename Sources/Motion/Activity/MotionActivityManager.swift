/// Core Motion's `CMMotionActivityManager` for any `MotionSource`: the activity classifier runs on
/// every sample a `MotionManager`'s source delivers, calls are pushed to a handler on your queue as
/// they change, and what it has seen can be queried.
///
///     let activities = MotionActivityManager(motionManager: manager)
///     activities.startActivityUpdates(to: DispatchQueue.main) { activity in
///         if activity.walking { print("walking since", activity.startDate, activity.confidence) }
///     }
///     let lastMinute = activities.queryActivity(from: now - 60, to: now)
///
/// It observes the manager's samples (`observeSamples`) beside whatever else the manager runs: a
/// game's device motion, accelerometer handler, pedometer or sensor recorder. Like Core Motion it is late on purpose: a call comes a few
/// seconds after the change, its `startDate` backdated to the first evidence.
public final class MotionActivityManager: Sendable {
    public typealias ActivityHandler = @Sendable (MotionActivity) -> Void

    public let motionManager: MotionManager

    private struct State {
        var classifier: MotionActivityClassifier
        var sink: UpdateSink<MotionActivity>?
        var observation: MotionSampleObservation?
    }

    private let state: Locked<State>

    public init(motionManager: MotionManager, settings: MotionActivitySettings = .default) {
        self.motionManager = motionManager
        state = Locked(State(classifier: MotionActivityClassifier(settings: settings)))
    }

    /// Its own `MotionManager` over `source`.
    public convenience init(source: any MotionSource, clock: any MotionClock = MonotonicClock(),
                            settings: MotionActivitySettings = .default) {
        self.init(motionManager: MotionManager(source: source, clock: clock), settings: settings)
    }

    /// An accelerometer is all it needs.
    public var isActivityAvailable: Bool { motionManager.isAccelerometerAvailable }

    /// The call now (`.unknown` before the first windows agree).
    public var currentActivity: MotionActivity { state.withLock { $0.classifier.current } }

    /// Starts the classifier (and the source, if nothing else runs it); `handler` gets every change of
    /// activity or confidence, in order, on `queue`.
    public func startActivityUpdates(to queue: some MotionHandlerQueue, withHandler handler: @escaping ActivityHandler) {
        startActivityUpdates(sink: .handler(DeliveryChannel(queue: queue, handler: handler)))
    }

    /// The calls `startActivityUpdates(to:withHandler:)` pushes, as a stream:
    ///
    ///     for await activity in try activities.activityUpdates() where activity.walking { … }
    ///
    /// Cancelling the consuming task stops the updates moments later (as `stopActivityUpdates`);
    /// starting them again, or `stopActivityUpdates`, finishes the stream. Throws
    /// `sensorUnavailable` without an accelerometer.
    public func activityUpdates(bufferingPolicy: AsyncStream<MotionActivity>.Continuation.BufferingPolicy = .unbounded)
        throws(MotionManagerError) -> AsyncStream<MotionActivity> {
        guard isActivityAvailable else { throw .sensorUnavailable("accelerometer") }
        let (stream, feed) = UpdateFeed<MotionActivity>.makeStream(bufferingPolicy: bufferingPolicy) { [weak self] feed in
            guard let self, state.withLock({ $0.sink?.isFed(by: feed) ?? false }) else { return }
            stopActivityUpdates()
        }
        startActivityUpdates(sink: .stream(feed))
        return stream
    }

    private func startActivityUpdates(sink: UpdateSink<MotionActivity>) {
        stopActivityUpdates()
        state.withLock { $0.sink = sink }
        // Inline: the classifier is cheap and must see every sample in order on the source's thread.
        let observation = motionManager.observeSamples(on: InlineHandlerQueue()) { [weak self] sample in
            self?.receive(sample)
        }
        state.withLock { $0.observation = observation }
    }

    /// Stops the updates (and the source, if nothing else runs it). What was seen stays queryable.
    public func stopActivityUpdates() {
        let observation = state.withLock { s -> MotionSampleObservation? in
            s.sink?.finish()
            defer { s.sink = nil; s.observation = nil }
            return s.observation
        }
        observation?.cancel()
    }

    /// The segments seen that overlap `start…end` (seconds on the source's clock), clipped to it,
    /// oldest first; the one in progress ends at the last sample. As Core Motion's
    /// `queryActivityStarting(from:to:to:withHandler:)`, but over what this manager has seen.
    public func queryActivity(from start: Double, to end: Double) -> [MotionActivitySegment] {
        guard start.isFinite, end.isFinite, end > start else { return [] }
        return state.withLock { $0.classifier.allSegments }.compactMap { segment in
            guard segment.end > start, segment.start < end else { return nil }
            var clipped = segment
            clipped.start = Swift.max(segment.start, start)
            clipped.end = Swift.min(segment.end, end)
            return clipped
        }
    }

    private func receive(_ sample: MotionSample) {
        state.withLock { s in
            if s.classifier.push(sample) { s.sink?.send(s.classifier.current) }
        }
    }
}

/// Runs work at once on the delivering thread.
struct InlineHandlerQueue: MotionHandlerQueue {
    func enqueue(_ work: @escaping @Sendable () -> Void) { work() }
}
