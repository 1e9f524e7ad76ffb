import Foundation

/// The main geomagnetic field at a place and time, in the local geodetic north-east-down frame, nT.
public struct GeomagneticField: Hashable, Sendable {
    /// X: northward component, nT.
    public var north: Double
    /// Y: eastward component, nT.
    public var east: Double
    /// Z: downward component, nT.
    public var down: Double

    public init(north: Double, east: Double, down: Double) {
        self.north = north
        self.east = east
        self.down = down
    }

    /// H, nT.
    public var horizontalIntensity: Double { (north * north + east * east).squareRoot() }
    /// F, nT.
    public var totalIntensity: Double { (north * north + east * east + down * down).squareRoot() }
    /// D: angle from true north to magnetic north, degrees, east positive.
    public var declination: Double { atan2(east, north) * 180 / .pi }
    /// I: angle below the horizontal, degrees, positive downward.
    public var inclination: Double { atan2(down, horizontalIntensity) * 180 / .pi }
}
