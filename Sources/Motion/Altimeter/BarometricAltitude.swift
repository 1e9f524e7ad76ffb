import Foundation

/// Pressure to altitude in the ICAO Standard Atmosphere's troposphere (ICAO Doc 7488; the same
/// constants as the "hypsometric" formula in Bosch's BMP280 and BMP390 datasheets):
///
///     h = T₀ / L · (1 − (p / p₀)^(R·L / g₀))
///
/// with T₀ = 288.15 K, L = 0.0065 K/m, R·L/g₀ = 0.190263 and p₀ the pressure at h = 0. Only
/// differences of this altitude mean anything without a local sea-level pressure (weather moves
/// p₀ by ±3 kPa, hundreds of metres), which is why Core Motion reports altitude relative to the
/// first reading.
public enum BarometricAltitude {
    /// ICAO standard sea-level pressure, kPa.
    public static let standardSeaLevelPressure = 101.325
    /// T₀ / L, m.
    static let scaleHeight = 288.15 / 0.0065
    /// R·L / g₀ for dry air, dimensionless.
    static let exponent = 0.190263

    /// Altitude in metres above the level where the pressure is `reference` kPa; nil for a
    /// pressure that is not a positive finite number.
    public static func altitude(pressure: Double, reference: Double = standardSeaLevelPressure) -> Double? {
        guard pressure.isFinite, pressure > 0, reference.isFinite, reference > 0 else { return nil }
        return scaleHeight * (1 - Foundation.pow(pressure / reference, exponent))
    }

    /// The pressure in kPa at `altitude` metres above the level where it is `reference` kPa.
    public static func pressure(altitude: Double, reference: Double = standardSeaLevelPressure) -> Double {
        reference * Foundation.pow(1 - altitude / scaleHeight, 1 / exponent)
    }
}
