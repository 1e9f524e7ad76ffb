/// Relative altitude from a stream of pressure readings, as Core Motion's `CMAltimeter` reports it:
/// metres relative to the first accepted reading. Pure; the motion manager runs one per
/// `startRelativeAltitudeUpdates`, and traces run it directly.
///
///     var altimeter = RelativeAltimeter()
///     if let data = altimeter.update(timestamp: t, pressure: kPa) { print(data.relativeAltitude) }
///
/// A barometer is slow, and sources repeat its latest reading on every IMU sample in between
/// (`MotionSample.pressure`), so a reading equal to the previous one at a later time yields nothing:
/// one `AltitudeData` per new reading. A pressure no barometer on Earth reads (outside
/// `plausiblePressure`, NaN) is dropped and counted rather than moving the altitude by kilometres.
public struct RelativeAltimeter: Sendable {
    /// kPa. The lowest sea-level pressure recorded is 87 kPa, and at Everest's summit the air is about
    /// 34 kPa; a phone's barometer (Bosch BMP390) spans 30–125 kPa.
    public static let plausiblePressure: ClosedRange<Double> = 30...125

    /// The pressure the altitude is relative to, kPa; set by the first accepted reading.
    public private(set) var referencePressure: Double?
    /// Readings dropped as impossible.
    public private(set) var rejectedReadings = 0
    private var lastPressure: Double?
    private var lastTimestamp: Double?

    public init() {}

    /// The altitude for a new reading; nil for a repeat of the last one, an implausible value, or a
    /// timestamp that does not move forward.
    public mutating func update(timestamp: Double, pressure: Double) -> AltitudeData? {
        guard Self.plausiblePressure.contains(pressure), timestamp.isFinite else {
            rejectedReadings += 1
            return nil
        }
        if let lastTimestamp, timestamp <= lastTimestamp { return nil }
        if pressure == lastPressure { return nil }
        lastPressure = pressure
        lastTimestamp = timestamp
        let reference = referencePressure ?? pressure
        referencePressure = reference
        let altitude = BarometricAltitude.altitude(pressure: pressure, reference: reference) ?? 0
        return AltitudeData(timestamp: timestamp, relativeAltitude: altitude, pressure: pressure)
    }

    /// Makes the next reading the new zero.
    public mutating func reset() {
        referencePressure = nil
        lastPressure = nil
        lastTimestamp = nil
    }
}
