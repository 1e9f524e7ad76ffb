import Foundation
import Testing
@testable import Motion

@Suite("World Magnetic Model (WMM2025)")
struct GeomagnetismTests {
    /// NOAA NCEI's published WMM2025 test values: the table in the WMM2025 report and its companion
    /// file (https://www.ncei.noaa.gov/sites/default/files/2025-02/WMM2025testvalues.pdf,
    /// WMM2025_TEST_VALUES.txt). Decimal year, height above the WGS-84 ellipsoid (km), latitude,
    /// longitude (degrees), X, Y, Z (nT), declination D (degrees). Figures are rounded to 0.1 nT
    /// and 0.01°.
    static let noaaTestValues: [(year: Double, height: Double, latitude: Double, longitude: Double,
                                 x: Double, y: Double, z: Double, declination: Double)] = [
        (2025.0, 0, 80, 0, 6521.6, 145.9, 54791.5, 1.28),
        (2025.0, 0, 0, 120, 39677.8, -109.6, -10580.2, -0.16),
        (2025.0, 0, -80, 240, 6117.5, 15751.9, -52022.5, 68.78),
        (2025.0, 100, 80, 0, 6216.0, 92.4, 52598.8, 0.85),
        (2025.0, 100, 0, 120, 37688.6, -96.2, -10152.1, -0.15),
        (2025.0, 100, -80, 240, 5907.6, 14780.3, -49540.7, 68.21),
        (2027.5, 0, 80, 0, 6500.8, 294.5, 54869.4, 2.59),
        (2027.5, 0, 0, 120, 39701.6, -167.4, -10381.8, -0.24),
        (2027.5, 0, -80, 240, 6200.7, 15730.3, -51783.7, 68.49),
        (2027.5, 100, 80, 0, 6196.7, 233.8, 52670.5, 2.16),
        (2027.5, 100, 0, 120, 37711.5, -148.7, -9969.8, -0.23),
        (2027.5, 100, -80, 240, 5984.0, 14760.1, -49317.7, 67.93),
    ]

    @Test("matches NOAA's published test values: declination to 0.01°, components to 0.1 nT",
          arguments: noaaTestValues.indices)
    func noaaTestValue(_ index: Int) {
        let row = Self.noaaTestValues[index]
        let field = WorldMagneticModel.wmm2025.field(latitude: row.latitude, longitude: row.longitude,
                                                     altitude: row.height, decimalYear: row.year)
        #expect(abs(field.declination - row.declination) <= 0.01)
        #expect(abs(field.north - row.x) <= 0.1)
        #expect(abs(field.east - row.y) <= 0.1)
        #expect(abs(field.down - row.z) <= 0.1)
    }

    @Test("near the geographic pole the result stays finite (a row from NOAA's 100-point file)")
    func nearPole() {
        // WMM2025_TestValues.txt: 2025.0, 28 km, 89°, −121° → D −99.77°, X −255.388723, Y −1482.460628 nT.
        let field = WorldMagneticModel.wmm2025.field(latitude: 89, longitude: -121, altitude: 28, decimalYear: 2025)
        #expect(abs(field.declination - -99.77) <= 0.01)
        #expect(abs(field.north - -255.388723) <= 0.1)
        #expect(abs(field.east - -1482.460628) <= 0.1)
        let pole = WorldMagneticModel.wmm2025.field(latitude: 90, longitude: 0, altitude: 0, decimalYear: 2026)
        #expect(pole.declination.isFinite && pole.totalIntensity.isFinite)
    }

    @Test("the embedded table is the full degree-12 model")
    func coefficientTable() {
        let model = WorldMagneticModel.wmm2025
        #expect(model.coefficients.count == 90)
        #expect(model.maximumDegree == 12)
        #expect(model.coefficients.first?.g == -29351.8)
        #expect(model.covers(decimalYear: 2026.9))
        #expect(!model.covers(decimalYear: 2030.0))
    }

    @Test("decimal years and the location's declination")
    func location() throws {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let midYear = try #require(calendar.date(from: DateComponents(year: 2027, month: 7, day: 2, hour: 12)))
        #expect(abs(GeodeticLocation.decimalYear(of: midYear) - 2027.5) < 1e-9)
        let location = GeodeticLocation(latitude: 0, longitude: 120, altitude: 0, date: midYear)
        #expect(abs(location.magneticDeclination - -0.24) <= 0.01)
    }
}
