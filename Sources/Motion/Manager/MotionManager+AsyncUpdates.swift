/// Every update type as an `AsyncSequence`: Swift concurrency's shape of the push handlers.
///
///     let motions = try manager.deviceMotionUpdates(using: .xArbitraryZVertical)
///     let task = Task {
///         for await motion in motions { draw(motion.attitude) }
///     }
///     …
///     task.cancel()      // stops device motion, and the source if nothing else runs it
///
/// Each stream gets every sample that passes the update interval, in order, exactly once (with
/// the default `.unbounded` buffering; `.bufferingNewest(1)` keeps only the latest for a consumer
/// that only wants to be current). The source's thread never waits for the consumer: it yields to
/// the stream's buffer. Starting fails at once, with the error a handler would get
/// (`sensorUnavailable`, `referenceFrameUnavailable`, `sourceFailedToStart`…), thrown here.
///
/// An update type has one consumer at a time, a stream or a handler: starting it again finishes the
/// stream before, as does `stop…Updates()`. Cancelling the consuming task (or dropping the stream)
/// stops the update type, and the source when it was the last, moments later on a thread of its own
/// (stopping may wait for the source's thread, which may be yielding to that very task). When the
/// source ends (a replay's last sample) the stream finishes; a disconnection only pauses it (see
/// `connectionState`). The stream does not keep the manager alive: releasing the manager finishes it.
extension MotionManager {
    public typealias UpdateBuffering<Data> = AsyncStream<Data>.Continuation.BufferingPolicy

    /// Raw accelerometer data (g), as `startAccelerometerUpdates(to:withHandler:)` pushes them.
    public func accelerometerUpdates(bufferingPolicy: UpdateBuffering<AccelerometerData> = .unbounded)
        throws(MotionManagerError) -> AsyncStream<AccelerometerData> {
        try updates(bufferingPolicy, stop: { $0.accelerometer.deactivate(ifFedBy: $1) }) { feed, fail in
            start(needs: .accelerometer, "accelerometer", fail: fail) { $0.accelerometer.activate(channel: nil, feed: feed) }
        }
    }

    /// Raw gyro data (rad/s).
    public func gyroUpdates(bufferingPolicy: UpdateBuffering<GyroData> = .unbounded)
        throws(MotionManagerError) -> AsyncStream<GyroData> {
        try updates(bufferingPolicy, stop: { $0.gyro.deactivate(ifFedBy: $1) }) { feed, fail in
            start(needs: .gyroscope, "gyroscope", fail: fail) { $0.gyro.activate(channel: nil, feed: feed) }
        }
    }

    /// Raw magnetometer data (µT).
    public func magnetometerUpdates(bufferingPolicy: UpdateBuffering<MagnetometerData> = .unbounded)
        throws(MotionManagerError) -> AsyncStream<MagnetometerData> {
        try updates(bufferingPolicy, stop: { $0.magnetometer.deactivate(ifFedBy: $1) }) { feed, fail in
            start(needs: .magnetometer, "magnetometer", fail: fail) { $0.magnetometer.activate(channel: nil, feed: feed) }
        }
    }

    /// Device motion in `frame`, as `startDeviceMotionUpdates(using:to:withHandler:)` pushes it.
    public func deviceMotionUpdates(using frame: AttitudeReferenceFrame = .xArbitraryZVertical,
                                    bufferingPolicy: UpdateBuffering<DeviceMotion> = .unbounded)
        throws(MotionManagerError) -> AsyncStream<DeviceMotion> {
        try updates(bufferingPolicy, stop: { pipeline, feed in
            if pipeline.deviceMotion.feed === feed { pipeline.stopDeviceMotion() }
        }) { feed, fail in
            startDeviceMotion(frame, channel: nil, feed: feed, fail: fail)
        }
    }

    /// Relative altitude (m) and pressure (kPa), one per new barometer reading.
    public func relativeAltitudeUpdates(bufferingPolicy: UpdateBuffering<AltitudeData> = .unbounded)
        throws(MotionManagerError) -> AsyncStream<AltitudeData> {
        try updates(bufferingPolicy, stop: { $0.altitude.deactivate(ifFedBy: $1) }) { feed, fail in
            start(needs: .barometer, "barometer", fail: fail) { Self.activateAltitude(&$0, channel: nil, feed: feed) }
        }
    }

    /// Makes the stream, starts the update type with its feed and throws what starting reported.
    private func updates<Data: Sendable>(
        _ bufferingPolicy: UpdateBuffering<Data>,
        stop deactivate: @escaping @Sendable (inout MotionPipeline, UpdateFeed<Data>) -> Void,
        start: (UpdateFeed<Data>, @escaping @Sendable (MotionManagerError) -> Void) -> Void
    ) throws(MotionManagerError) -> AsyncStream<Data> {
        let (stream, feed) = UpdateFeed<Data>.makeStream(bufferingPolicy: bufferingPolicy) { [weak self] feed in
            self?.stop { deactivate(&$0, feed) }
        }
        let failure = Locked<MotionManagerError?>(nil)
        start(feed) { error in failure.withLock { $0 = error } }
        if let error = failure.withLock({ $0 }) {
            feed.finish()
            throw error
        }
        return stream
    }
}
