/// One altimeter reading, as Core Motion's `CMAltitudeData`.
public struct AltitudeData: Hashable, Sendable, BitwiseCopyable {
    /// Seconds on the source's clock.
    public var timestamp: Double
    /// Metres above (positive) or below the altitude of the first reading since updates started.
    public var relativeAltitude: Double
    /// Static air pressure, kPa.
    public var pressure: Double

    public init(timestamp: Double, relativeAltitude: Double, pressure: Double) {
        self.timestamp = timestamp
        self.relativeAltitude = relativeAltitude
        self.pressure = pressure
    }
}
