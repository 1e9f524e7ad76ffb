extension MotionManager {
    /// What the update intervals did to the device: its rate set (an IIO sensor), or its own rate
    /// thinned (a pad, which has no setting). Updated when an update type starts and when an
    /// interval changes while running.
    public var sampleRateControl: SampleRateControl { rateControl.withLock { $0 } }

    /// The rate the running update types need: the fastest of their intervals, nil when one of
    /// them takes every sample (interval 0) or none runs.
    func neededSampleRate() -> Double? {
        pipeline.withLock { p -> Double? in
            let intervals = [(p.accelerometer.isActive, p.accelerometer.decimator.interval),
                             (p.gyro.isActive, p.gyro.decimator.interval),
                             (p.magnetometer.isActive, p.magnetometer.decimator.interval),
                             (p.deviceMotion.isActive, p.deviceMotion.decimator.interval)]
                .filter(\.0).map(\.1)
            guard !intervals.isEmpty, intervals.allSatisfy({ $0 > 0 }) else { return nil }
            return 1 / intervals.min()!
        }
    }

    /// Passes the needed rate to a device that can take it, and notes what happened. Called
    /// outside the pipeline lock: a sysfs write may block.
    func applySampleRate() {
        let nominal = source.info.nominalRate
        guard let needed = neededSampleRate() else {
            rateControl.withLock { $0 = .everySample(deviceRate: source.info.nominalRate) }
            return
        }
        if let settable = source as? any RateSettableMotionSource, let applied = settable.requestSampleRate(needed) {
            rateControl.withLock { $0 = .setOnDevice(requested: needed, applied: applied) }
        } else {
            rateControl.withLock { $0 = .decimated(requested: needed, deviceRate: nominal) }
        }
    }
}
