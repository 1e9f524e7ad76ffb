import Dispatch

/// Core Motion's `CMPedometer` for any `MotionManager`: steps, distance, cadence, pace and floors,
/// pushed as they are counted and queried for any range of what it has seen. Given a device's own
/// step counter (`IIOStepCounter`), it reads it every `deviceReadInterval` s of the samples' clock
/// and counts by it wherever its readings cover the time, by the accelerometer elsewhere.
///
///     let pedometer = Pedometer(manager: manager)       // or Pedometer(source: imu)
///     // or Pedometer(manager: manager, deviceCounter: try IIOStepCounter(directory: dir))
///     pedometer.startUpdates(from: 0, to: DispatchQueue(label: "steps")) { data, error in
///         if let data { print(data.numberOfSteps, data.distance ?? 0) }
///     }
///     …
///     let lastMinute = pedometer.queryPedometerData(from: now - 60, to: now)
///     pedometer.stopUpdates()
///
/// It observes every raw sample of the manager (`observeSamples`), beside whatever else the manager
/// pushes or a game pulls, and counts on its own serial queue with a `StepCounter`. Times are the
/// source's clock, s. A handler gets the data from `start` to the latest sample each time steps or
/// floors change, in order, never concurrently (a `DeliveryChannel`). Floors count only where they
/// were walked (`StepCounter.isWalked`), so a floor may show first with the steps counted after it.
public final class Pedometer: Sendable {
    public typealias Handler = @Sendable (PedometerData?, (any Error)?) -> Void

    public let manager: MotionManager
    /// The device's own step counter, when it has one.
    public let deviceCounter: (any DeviceStepCounter)?
    /// Seconds of the samples' clock between two reads of `deviceCounter`.
    public static let deviceReadInterval = 0.5
    private let counting = DispatchQueue(label: "tiltkit.pedometer")
    private let state: Locked<State>

    private struct State {
        var counter: StepCounter
        var observation: MotionSampleObservation?
        var updates: (start: Double, sink: UpdateSink<PedometerData>)?
        var lastDeviceRead = -Double.infinity
        /// Failed reads of the device counter (the time they would have covered is the accelerometer's).
        var deviceReadFailures = 0
    }

    public init(manager: MotionManager, deviceCounter: (any DeviceStepCounter)? = nil, settings: StepDetectorSettings = .default,
                stepLength: StepLengthModel = .default, floors: FloorCounter.Settings = .default) {
        self.manager = manager
        self.deviceCounter = deviceCounter
        state = Locked(State(counter: StepCounter(settings: settings, stepLength: stepLength, floors: floors)))
    }

    /// A pedometer with its own manager over `source`.
    public convenience init(source: any MotionSource, clock: any MotionClock = MonotonicClock()) {
        self.init(manager: MotionManager(source: source, clock: clock))
    }

    /// Steps need an accelerometer.
    public var isStepCountingAvailable: Bool { manager.isAccelerometerAvailable }
    /// Floors need `MotionSample.pressure`; known only once a sample with it arrived.
    public var isFloorCountingAvailable: Bool { state.withLock { $0.counter.hasAltitude } }

    /// Starts counting (if not yet) and pushes the data from `start` (s, source clock) to the
    /// latest sample to `handler` on `queue` whenever the steps or floors change. A manager that
    /// cannot start (no accelerometer) is reported to the handler.
    public func startUpdates(from start: Double, to queue: some MotionHandlerQueue,
                             withHandler handler: @escaping Handler) {
        guard isStepCountingAvailable else {
            queue.enqueue { handler(nil, MotionManagerError.sensorUnavailable("accelerometer")) }
            return
        }
        let channel = DeliveryChannel<PedometerData>(queue: queue) { handler($0, nil) }
        startUpdates(from: start, sink: .handler(channel))
    }

    /// The updates `startUpdates(from:to:withHandler:)` pushes, as a stream:
    ///
    ///     for await data in try pedometer.updates(from: now) { show(data.numberOfSteps) }
    ///
    /// Cancelling the consuming task stops the updates and the counting moments later (as
    /// `stopUpdates`); starting updates again, or `stopUpdates`, finishes the stream. Throws
    /// `sensorUnavailable` without an accelerometer.
    public func updates(from start: Double, bufferingPolicy: AsyncStream<PedometerData>.Continuation.BufferingPolicy = .unbounded)
        throws(MotionManagerError) -> AsyncStream<PedometerData> {
        guard isStepCountingAvailable else { throw .sensorUnavailable("accelerometer") }
        let (stream, feed) = UpdateFeed<PedometerData>.makeStream(bufferingPolicy: bufferingPolicy) { [weak self] feed in
            // Checked under the lock the stop takes: updates started since, for another consumer, keep running.
            self?.stopUpdates(if: { $0?.isFed(by: feed) ?? false })
        }
        startUpdates(from: start, sink: .stream(feed))
        return stream
    }

    private func startUpdates(from start: Double, sink: UpdateSink<PedometerData>) {
        state.withLock {
            $0.updates?.sink.finish()
            $0.updates = (start, sink)
        }
        startCounting()
    }

    /// Stops pushing and counting; what was seen stays queryable. Handlers may still run for data
    /// sent before this returned.
    public func stopUpdates() { stopUpdates(if: { _ in true }) }

    private func stopUpdates(if current: (UpdateSink<PedometerData>?) -> Bool) {
        let (stopped, observation) = state.withLock { s -> (Bool, MotionSampleObservation?) in
            guard current(s.updates?.sink) else { return (false, nil) }
            s.updates?.sink.finish()
            s.updates = nil
            defer { s.observation = nil }
            return (true, s.observation)
        }
        guard stopped else { return }
        observation?.cancel()
        counting.sync {}  // samples already queued are counted before the last step is flushed
        state.withLock { _ = $0.counter.finish() }
    }

    /// What was seen in [`start`, `end`] s of the source's clock. Waits for the counting queue
    /// first, so what it was handed before the call is counted (as `SensorRecorder`'s queries).
    public func queryPedometerData(from start: Double, to end: Double) -> PedometerData {
        waitForCounting()
        return state.withLock { $0.counter.data(from: start, to: end) }
    }

    /// Reads of the device counter that failed so far.
    public var deviceReadFailures: Int { state.withLock { $0.deviceReadFailures } }

    /// Everything seen so far.
    public func queryPedometerData() -> PedometerData {
        waitForCounting()
        return state.withLock { $0.counter.data() }
    }

    private func waitForCounting() {
        let observation = state.withLock { $0.observation }
        if let observation { observation.waitUntilHandled(on: counting) } else { counting.sync {} }
    }

    private func startCounting() {
        let running = state.withLock { $0.observation != nil }
        guard !running else { return }
        let observation = manager.observeSamples(on: counting) { [weak self] sample in self?.count(sample) }
        state.withLock { $0.observation = observation }
    }

    private func count(_ sample: MotionSample) {
        let (send, data) = state.withLock { s -> (UpdateSink<PedometerData>?, PedometerData?) in
            let floorsBefore = s.counter.floorChanges.count
            let readsDevice = deviceCounter != nil && sample.timestamp - s.lastDeviceRead >= Self.deviceReadInterval
            let before = readsDevice ? s.updates.map { s.counter.data(from: $0.start, to: sample.timestamp).numberOfSteps } : nil
            var steps = s.counter.update(sample)
            if readsDevice, let deviceCounter {
                s.lastDeviceRead = sample.timestamp
                if let reading = try? deviceCounter.read() {
                    s.counter.updateDeviceCounter(time: sample.timestamp, reading: reading)
                } else {
                    s.deviceReadFailures += 1
                }
                // The device may have counted what the accelerometer did not, or the other way.
                if let before, let updates = s.updates {
                    steps = s.counter.data(from: updates.start, to: sample.timestamp).numberOfSteps - before
                }
            }
            guard let updates = s.updates, steps != 0 || s.counter.floorChanges.count != floorsBefore else {
                return (nil, nil)
            }
            return (updates.sink, s.counter.data(from: updates.start, to: sample.timestamp))
        }
        if let send, let data { send.send(data) }
    }
}
