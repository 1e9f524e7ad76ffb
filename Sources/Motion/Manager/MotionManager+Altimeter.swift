/// Core Motion's `CMAltimeter` on the manager that owns the source: a source has one reader, and a
/// barometer usually sits beside the IMU (a sensor hub's `pressure` device, a phone recording's
/// barometer column), so its readings arrive on the same samples (`MotionSample.pressure`).
///
///     manager.startRelativeAltitudeUpdates(to: DispatchQueue.main) { data, error in
///         if let data { print(data.relativeAltitude, "m,", data.pressure, "kPa") }
///     }
///
/// One update per new barometer reading (sources repeat a reading on the IMU samples between two),
/// thinned by `altimeterUpdateInterval`; the altitude is relative to the first reading after the
/// start, as Core Motion's is.
extension MotionManager {
    public typealias AltitudeHandler = @Sendable (AltitudeData?, (any Error)?) -> Void

    /// True when the source has a barometer.
    public var isRelativeAltitudeAvailable: Bool { source.info.sensors.contains(.barometer) }

    public var isRelativeAltitudeActive: Bool { pipeline.withLock { $0.altitude.isActive } }

    /// Seconds between delivered altitude updates; 0 (the default) delivers every new reading.
    public var altimeterUpdateInterval: Double {
        get { pipeline.withLock { $0.altitude.decimator.interval } }
        set { pipeline.withLock { $0.altitude.decimator.interval = newValue.isFinite ? Swift.max(0, newValue) : 0 } }
    }

    /// The latest relative altitude, lock-free; nil before the first reading.
    public var altitudeData: AltitudeData? { slots.altitude.load()?.value }
    public var latestAltitudeData: Received<AltitudeData>? { slots.altitude.load() }

    /// Relative altitude for pulling.
    public func startRelativeAltitudeUpdates() {
        start(needs: .barometer, "barometer", fail: { _ in }) { Self.activateAltitude(&$0, channel: nil) }
    }

    /// Relative altitude pushed to `handler`; a source without a barometer is reported to it.
    public func startRelativeAltitudeUpdates(to queue: some MotionHandlerQueue,
                                             withHandler handler: @escaping AltitudeHandler) {
        let channel = Self.channel(queue, handler)
        start(needs: .barometer, "barometer", fail: Self.failer(queue, handler)) {
            Self.activateAltitude(&$0, channel: channel)
        }
    }

    public func stopRelativeAltitudeUpdates() { stop { $0.altitude.deactivate() } }

    static func activateAltitude(_ pipeline: inout MotionPipeline, channel: UpdateChannel<AltitudeData>?,
                                 feed: UpdateFeed<AltitudeData>? = nil) {
        pipeline.altimeter.reset()
        pipeline.altitude.activate(channel: channel, feed: feed)
    }
}
