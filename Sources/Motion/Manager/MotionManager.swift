/// Core Motion's `CMMotionManager` for any `MotionSource`: raw accelerometer, gyro and
/// magnetometer data and fused device motion, pushed to a handler or pulled by a render loop; and,
/// where the source has a barometer, `CMAltimeter`'s relative altitude (`MotionManager+Altimeter`).
///
///     let manager = MotionManager(source: gamepad)
///     manager.deviceMotionUpdateInterval = 1.0 / 120
///     manager.startDeviceMotionUpdates(using: .xArbitraryZVertical)
///     // each frame:
///     if let motion = manager.deviceMotion { draw(motion.attitude) }
///     // recording every sample:
///     manager.startAccelerometerUpdates(to: recorderQueue) { data, error in … }
///
/// - Push (`start…Updates(to:withHandler:)`): the handler runs on the caller's queue and gets
///   every sample that passes the update interval, in order, exactly once, however slow it is;
///   the source's thread never waits for it (see `DeliveryChannel`).
/// - Stream (`for await motion in try manager.deviceMotionUpdates()`): the pushed data as an
///   `AsyncStream`; cancelling the task stops them (`MotionManager+AsyncUpdates`).
/// - Pull (`accelerometerData`, `deviceMotion`, …): the latest value, read lock-free and without
///   heap allocation (see `LatestValue`); nil before the first sample.
///
/// Starting the first update type starts the source; stopping the last stops it, which releases
/// the device. Update intervals set the device's rate where it has a setting (an IIO sensor) and thin
/// the source's samples by timestamp (0, the default, keeps every sample); `sampleRateControl`
/// says which happened. Fusion itself always sees every sample. Handlers may still run for samples that arrived
/// before a `stop…` call returned.
public final class MotionManager: Sendable {
    public typealias AccelerometerHandler = @Sendable (AccelerometerData?, (any Error)?) -> Void
    public typealias GyroHandler = @Sendable (GyroData?, (any Error)?) -> Void
    public typealias MagnetometerHandler = @Sendable (MagnetometerData?, (any Error)?) -> Void
    public typealias DeviceMotionHandler = @Sendable (DeviceMotion?, (any Error)?) -> Void
    public typealias ConnectionStateHandler = @Sendable (MotionConnectionState) -> Void

    public let source: any MotionSource
    /// Stamps each sample's arrival (`Received.arrivalTime`) so callers can measure its age.
    public let clock: any MotionClock

    @usableFromInline let slots = PullSlots()
    let pipeline = Locked(MotionPipeline())
    private let connection = ConnectionMonitor()
    /// Serialises start and stop; true while the source runs. Never taken on the source's thread.
    private let lifecycle = Locked(false)
    /// What the update intervals did to the device (`sampleRateControl`).
    let rateControl = Locked(SampleRateControl.everySample(deviceRate: nil))

    public init(source: any MotionSource, clock: any MotionClock = MonotonicClock()) {
        self.source = source
        self.clock = clock
    }

    deinit {
        lifecycle.withLock { running in if running { source.stop() } }
    }

    // MARK: Availability

    public var isAccelerometerAvailable: Bool { source.info.sensors.contains(.accelerometer) }
    public var isGyroAvailable: Bool { source.info.sensors.contains(.gyroscope) }
    public var isMagnetometerAvailable: Bool { source.info.sensors.contains(.magnetometer) }
    /// Device motion (fusion) needs an accelerometer and a gyro, as in Core Motion.
    public var isDeviceMotionAvailable: Bool { isAccelerometerAvailable && isGyroAvailable }
    /// The accelerometer-only estimate (`deviceMotionEstimation = .accelerometer`) needs only an
    /// accelerometer: what a gyro-less source can give.
    public var isAccelerometerOnlyDeviceMotionAvailable: Bool { isAccelerometerAvailable }

    /// The frames `startDeviceMotionUpdates(using:)` accepts for this source: yaw-corrected and
    /// north-referenced frames need a gyro and a magnetometer; true north also needs `location`.
    public var availableAttitudeReferenceFrames: [AttitudeReferenceFrame] {
        let sensors = source.info.sensors
        guard sensors.contains(.accelerometer) else { return [] }
        var frames: [AttitudeReferenceFrame] = [.xArbitraryZVertical]
        if sensors.contains(.gyroscope) && sensors.contains(.magnetometer) {
            frames += [.xArbitraryCorrectedZVertical, .xMagneticNorthZVertical]
            if location != nil { frames.append(.xTrueNorthZVertical) }
        }
        return frames
    }

    // MARK: Update intervals (seconds; 0 delivers every source sample)

    public var accelerometerUpdateInterval: Double {
        get { pipeline.withLock { $0.accelerometer.decimator.interval } }
        set {
            pipeline.withLock { $0.accelerometer.decimator.interval = Self.validInterval(newValue) }
            if lifecycle.withLock({ $0 }) { applySampleRate() }
        }
    }
    public var gyroUpdateInterval: Double {
        get { pipeline.withLock { $0.gyro.decimator.interval } }
        set {
            pipeline.withLock { $0.gyro.decimator.interval = Self.validInterval(newValue) }
            if lifecycle.withLock({ $0 }) { applySampleRate() }
        }
    }
    public var magnetometerUpdateInterval: Double {
        get { pipeline.withLock { $0.magnetometer.decimator.interval } }
        set {
            pipeline.withLock { $0.magnetometer.decimator.interval = Self.validInterval(newValue) }
            if lifecycle.withLock({ $0 }) { applySampleRate() }
        }
    }
    public var deviceMotionUpdateInterval: Double {
        get { pipeline.withLock { $0.deviceMotion.decimator.interval } }
        set {
            pipeline.withLock { $0.deviceMotion.decimator.interval = Self.validInterval(newValue) }
            if lifecycle.withLock({ $0 }) { applySampleRate() }
        }
    }

    private static func validInterval(_ seconds: Double) -> Double { seconds.isFinite ? Swift.max(0, seconds) : 0 }

    // MARK: Device motion settings

    /// Fusion (the default) or the accelerometer-only estimate of Apple's 2010 teapot. Changing it
    /// while device motion runs restarts the estimate. Starting fusion on a source without a gyro
    /// fails (`fusionNeedsGyroscope`); see `deviceMotionEstimationInUse` for what runs.
    public var deviceMotionEstimation: DeviceMotionEstimatorKind {
        get { pipeline.withLock { $0.estimation } }
        set { pipeline.withLock { $0.setEstimation(newValue) } }
    }

    /// The estimator device motion is running now, nil while stopped: fusion asked for on a
    /// gyro-less source while running is the accelerometer-only estimate, and this says so.
    public var deviceMotionEstimationInUse: DeviceMotionEstimatorKind? {
        pipeline.withLock { $0.estimator.map { $0 is AccelerometerAttitudeEstimator ? .accelerometer : .fusion } }
    }

    /// Cut-off of the accelerometer-only gravity low-pass, Hz; takes effect at once, also while running.
    public var gravityFilterCutoff: Double {
        get { pipeline.withLock { $0.gravityFilterCutoff } }
        set {
            guard newValue.isFinite, newValue > 0 else { return }
            pipeline.withLock { $0.setGravityFilterCutoff(newValue) }
        }
    }

    /// How late the source's gyro readings are, s (`AHRSSettings.gyroDelay`: its digital filter and
    /// read-out, beyond the period each reading averages); fusion's attitude is then the one at each
    /// sample's time. 0 (the default) when the device's delay is unknown; negative or non-finite
    /// values are ignored. Takes effect at the next `startDeviceMotionUpdates`.
    public var gyroDelay: Double {
        get { pipeline.withLock { $0.gyroDelay } }
        set {
            guard newValue.isFinite, newValue >= 0 else { return }
            pipeline.withLock { $0.gyroDelay = newValue }
        }
    }

    /// Where the device is, for `xTrueNorthZVertical` (magnetic declination from the World Magnetic
    /// Model). Takes effect at the next `startDeviceMotionUpdates`.
    public var location: GeodeticLocation? {
        get { pipeline.withLock { $0.location } }
        set { pipeline.withLock { $0.location = newValue } }
    }

    /// The magnetometer's calibration learned so far (hard iron, soft iron where the readings
    /// support it), nil before the first fit; `deviceMotion.magneticField` is calibrated by it.
    public var magnetometerCalibration: MagnetometerCalibration? { pipeline.withLock { $0.magnetometerCalibrator.calibration } }

    /// Core Motion's accuracy of the calibrated field now (see `MagnetometerCalibrator.accuracy`).
    public var magnetometerCalibrationAccuracy: MagneticFieldCalibrationAccuracy {
        pipeline.withLock { $0.magnetometerCalibrator.accuracy }
    }

    /// Starts from a calibration stored on an earlier run (`MagnetometerCalibrationStore`); kept until
    /// what is learned now earns at least its accuracy.
    public func restoreMagnetometerCalibration(_ calibration: MagnetometerCalibration) {
        pipeline.withLock { $0.magnetometerCalibrator = MagnetometerCalibrator(restoring: calibration) }
    }

    /// The frame device motion is running in (the last one started).
    public var attitudeReferenceFrame: AttitudeReferenceFrame { pipeline.withLock { $0.frame } }

    /// Samples the device-motion estimator refused so far (NaN, saturated, time going backwards).
    public var deviceMotionRejections: SampleRejectionCounts {
        pipeline.withLock { $0.estimator?.rejections ?? SampleRejectionCounts() }
    }

    /// Samples per second the source delivers, from the samples' own timestamps over the last
    /// second or so (nil until a second has passed; forgotten on disconnect). Compare
    /// `source.info.nominalRate`, what the device was asked for.
    public var measuredSampleRate: Double? { pipeline.withLock { $0.rateMeter.rate } }

    // MARK: Active flags

    public var isAccelerometerActive: Bool { pipeline.withLock { $0.accelerometer.isActive } }
    public var isGyroActive: Bool { pipeline.withLock { $0.gyro.isActive } }
    public var isMagnetometerActive: Bool { pipeline.withLock { $0.magnetometer.isActive } }
    public var isDeviceMotionActive: Bool { pipeline.withLock { $0.deviceMotion.isActive } }

    // MARK: Pull (lock-free, allocation-free)

    // Inlinable, so the caller's module specialises and inlines the slot's copy: a call into this
    // module returning a large Optional costs several times the copy itself.
    @inlinable public var accelerometerData: AccelerometerData? { slots.accelerometer.load()?.value }
    @inlinable public var gyroData: GyroData? { slots.gyro.load()?.value }
    @inlinable public var magnetometerData: MagnetometerData? { slots.magnetometer.load()?.value }
    @inlinable public var deviceMotion: DeviceMotion? { slots.deviceMotion.load()?.value }

    /// As the plain properties, with the time each arrived on `clock`, for measuring sample age.
    @inlinable public var latestAccelerometerData: Received<AccelerometerData>? { slots.accelerometer.load() }
    @inlinable public var latestGyroData: Received<GyroData>? { slots.gyro.load() }
    @inlinable public var latestMagnetometerData: Received<MagnetometerData>? { slots.magnetometer.load() }
    @inlinable public var latestDeviceMotion: Received<DeviceMotion>? { slots.deviceMotion.load() }

    // MARK: Connection

    /// Whether the source is delivering; poll it each frame to pause the game on unplug.
    public var connectionState: MotionConnectionState { connection.state }

    /// Calls `handler` on `queue` with every change of `connectionState`, in order.
    public func startConnectionStateUpdates(to queue: some MotionHandlerQueue,
                                            withHandler handler: @escaping ConnectionStateHandler) {
        connection.setChannel(DeliveryChannel(queue: queue, handler: handler))
    }

    public func stopConnectionStateUpdates() { connection.setChannel(nil) }

    // MARK: Reference attitude

    /// Makes the current attitude the reference: later attitudes (pulled and pushed) are relative
    /// to it, as `attitude.multiply(byInverseOf: reference)`. Before the first device-motion
    /// sample, the first one becomes the reference.
    public func resetReferenceAttitude() { pipeline.withLock { $0.resetReferenceAttitude() } }

    /// Back to attitudes relative to the frame itself.
    public func clearReferenceAttitude() { pipeline.withLock { $0.clearReferenceAttitude() } }

    /// The stored reference attitude (in the frame), if any.
    public var referenceAttitude: Attitude? { pipeline.withLock { $0.referenceAttitude } }

    // MARK: Start and stop

    public func startAccelerometerUpdates() {
        start(needs: .accelerometer, "accelerometer", fail: { _ in }) { $0.accelerometer.activate(channel: nil) }
    }

    public func startAccelerometerUpdates(to queue: some MotionHandlerQueue,
                                          withHandler handler: @escaping AccelerometerHandler) {
        let channel = Self.channel(queue, handler)
        start(needs: .accelerometer, "accelerometer", fail: Self.failer(queue, handler)) {
            $0.accelerometer.activate(channel: channel)
        }
    }

    public func stopAccelerometerUpdates() { stop { $0.accelerometer.deactivate() } }

    public func startGyroUpdates() {
        start(needs: .gyroscope, "gyroscope", fail: { _ in }) { $0.gyro.activate(channel: nil) }
    }

    public func startGyroUpdates(to queue: some MotionHandlerQueue, withHandler handler: @escaping GyroHandler) {
        let channel = Self.channel(queue, handler)
        start(needs: .gyroscope, "gyroscope", fail: Self.failer(queue, handler)) { $0.gyro.activate(channel: channel) }
    }

    public func stopGyroUpdates() { stop { $0.gyro.deactivate() } }

    public func startMagnetometerUpdates() {
        start(needs: .magnetometer, "magnetometer", fail: { _ in }) { $0.magnetometer.activate(channel: nil) }
    }

    public func startMagnetometerUpdates(to queue: some MotionHandlerQueue,
                                         withHandler handler: @escaping MagnetometerHandler) {
        let channel = Self.channel(queue, handler)
        start(needs: .magnetometer, "magnetometer", fail: Self.failer(queue, handler)) {
            $0.magnetometer.activate(channel: channel)
        }
    }

    public func stopMagnetometerUpdates() { stop { $0.magnetometer.deactivate() } }

    /// Device motion for pulling, in `xArbitraryZVertical`.
    public func startDeviceMotionUpdates() { startDeviceMotionUpdates(using: .xArbitraryZVertical) }

    /// Device motion for pulling in `frame`; an unavailable frame leaves device motion stopped.
    public func startDeviceMotionUpdates(using frame: AttitudeReferenceFrame) {
        startDeviceMotion(frame, channel: nil, fail: { _ in })
    }

    public func startDeviceMotionUpdates(to queue: some MotionHandlerQueue,
                                         withHandler handler: @escaping DeviceMotionHandler) {
        startDeviceMotionUpdates(using: .xArbitraryZVertical, to: queue, withHandler: handler)
    }

    /// Device motion in `frame` pushed to `handler`; an unavailable frame is reported to the handler.
    public func startDeviceMotionUpdates(using frame: AttitudeReferenceFrame, to queue: some MotionHandlerQueue,
                                         withHandler handler: @escaping DeviceMotionHandler) {
        startDeviceMotion(frame, channel: Self.channel(queue, handler), fail: Self.failer(queue, handler))
    }

    public func stopDeviceMotionUpdates() { stop { $0.stopDeviceMotion() } }

    // MARK: Lifecycle

    func startDeviceMotion(_ frame: AttitudeReferenceFrame,
                           channel: UpdateChannel<DeviceMotion>?, feed: UpdateFeed<DeviceMotion>? = nil,
                           fail: @escaping @Sendable (MotionManagerError) -> Void) {
        guard isAccelerometerAvailable else { return fail(.sensorUnavailable("accelerometer")) }
        guard availableAttitudeReferenceFrames.contains(frame) else { return fail(.referenceFrameUnavailable(frame)) }
        let hasGyro = isGyroAvailable
        guard hasGyro || deviceMotionEstimation == .accelerometer else { return fail(.fusionNeedsGyroscope) }
        start(needs: .accelerometer, "accelerometer", fail: fail) {
            $0.startDeviceMotion(frame: frame, hasGyro: hasGyro, channel: channel, feed: feed)
        }
    }

    /// Activates an update type and starts the source if it is the first.
    func start(needs sensor: SensorSet, _ sensorName: String,
                       fail: @escaping @Sendable (MotionManagerError) -> Void,
                       activate: (inout MotionPipeline) -> Void) {
        guard source.info.sensors.contains(sensor) else {
            fail(.sensorUnavailable(sensorName))
            return
        }
        lifecycle.withLock { running in
            pipeline.withLock { activate(&$0) }
            guard !running else { return }
            connection.set(.running)
            do {
                let events = SourceEventHandler(pipeline: pipeline, slots: slots, connection: connection, clock: clock)
                try source.start { event in events.handle(event) }
                running = true
            } catch {
                let reason = String(describing: error)
                pipeline.withLock { $0.deactivateAll() }
                connection.set(.failed(reason: reason))
                fail(.sourceFailedToStart(reason))
            }
        }
        if lifecycle.withLock({ $0 }) { applySampleRate() }
    }

    /// Deactivates an update type and stops (releases) the source if it was the last.
    func stop(_ deactivate: (inout MotionPipeline) -> Void) {
        lifecycle.withLock { running in
            let anyActive = pipeline.withLock { p -> Bool in
                deactivate(&p)
                return p.isAnyActive
            }
            guard running, !anyActive else { return }
            // Outside the pipeline lock: `stop` waits for the source's thread, which may be in `handle`.
            source.stop()
            running = false
            connection.set(.stopped)
        }
    }

    @inline(__always) static func channel<Data: Sendable>(
        _ queue: some MotionHandlerQueue, _ handler: @escaping @Sendable (Data?, (any Error)?) -> Void
    ) -> UpdateChannel<Data> {
        UpdateChannel(queue: queue, handler: handler)
    }

    static func failer<Data>(
        _ queue: some MotionHandlerQueue, _ handler: @escaping @Sendable (Data?, (any Error)?) -> Void
    ) -> @Sendable (MotionManagerError) -> Void {
        { error in queue.enqueue { handler(nil, error) } }
    }
}

/// The manager's pull slots, written only on the source's thread.
@usableFromInline struct PullSlots: Sendable {
    @usableFromInline let accelerometer = LatestValue<Received<AccelerometerData>>()
    @usableFromInline let gyro = LatestValue<Received<GyroData>>()
    @usableFromInline let magnetometer = LatestValue<Received<MagnetometerData>>()
    @usableFromInline let deviceMotion = LatestValue<Received<DeviceMotion>>()
    @usableFromInline let altitude = LatestValue<Received<AltitudeData>>()
}
