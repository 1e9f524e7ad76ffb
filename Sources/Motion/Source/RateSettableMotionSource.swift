/// A source whose device can be asked for a sample rate, as Core Motion's update intervals set
/// the sensor's: an IIO sensor's `sampling_frequency`. Pads have no such setting and do not
/// conform; the motion manager thins their samples instead (`MotionManager.sampleRateControl`).
public protocol RateSettableMotionSource: MotionSource {
    /// Asks the device for at least `hertz` samples per second (the nearest rate it offers at or
    /// above); returns the rate it now runs at, nil when it has no setting or refused the write.
    func requestSampleRate(_ hertz: Double) -> Double?
}
