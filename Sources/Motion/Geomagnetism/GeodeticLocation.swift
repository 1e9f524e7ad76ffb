import Foundation

/// Where and when the device is, for the magnetic declination that turns magnetic north into
/// true north (`AttitudeReferenceFrame.xTrueNorthZVertical`).
///
///     manager.location = GeodeticLocation(latitude: 51.48, longitude: 0, altitude: 0.05, date: Date())
public struct GeodeticLocation: Hashable, Sendable {
    /// Degrees, north positive, WGS-84.
    public var latitude: Double
    /// Degrees, east positive, WGS-84.
    public var longitude: Double
    /// Kilometres above the WGS-84 ellipsoid.
    public var altitude: Double
    /// Decimal year (2026.5 is about 2 July 2026), for the model's secular variation.
    public var decimalYear: Double

    public init(latitude: Double, longitude: Double, altitude: Double = 0, decimalYear: Double) {
        self.latitude = latitude
        self.longitude = longitude
        self.altitude = altitude
        self.decimalYear = decimalYear
    }

    public init(latitude: Double, longitude: Double, altitude: Double = 0, date: Date) {
        self.init(latitude: latitude, longitude: longitude, altitude: altitude,
                  decimalYear: Self.decimalYear(of: date))
    }

    /// Magnetic declination here by WMM2025, degrees, east positive.
    public var magneticDeclination: Double {
        WorldMagneticModel.wmm2025.field(latitude: latitude, longitude: longitude, altitude: altitude,
                                         decimalYear: decimalYear).declination
    }

    /// The year plus the elapsed fraction of it (UTC), as the WMM software computes it.
    public static func decimalYear(of date: Date) -> Double {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let year = calendar.component(.year, from: date)
        let start = calendar.date(from: DateComponents(year: year, month: 1, day: 1))!
        let end = calendar.date(from: DateComponents(year: year + 1, month: 1, day: 1))!
        return Double(year) + date.timeIntervalSince(start) / end.timeIntervalSince(start)
    }
}
