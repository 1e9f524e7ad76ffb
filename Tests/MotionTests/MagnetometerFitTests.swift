@testable import Motion
import Testing

/// The calibrator's fit arithmetic against the plain definitions it replaced for speed.
@Suite struct MagnetometerFitTests {
    /// The residual's selection gives the element a sort puts at `count / 2`, duplicates included.
    @Test func theResidualIsTheSortedMedian() {
        var generator = SystemRandomNumberGenerator()
        for count in [1, 2, 3, 7, 64, 415, 416] {
            for _ in 0..<20 {
                // Few distinct values, so ties (the selection's hard case) are common.
                let lengths = (0..<count).map { _ in 48 + Double(Int.random(in: 0..<9, using: &generator)) * 0.5 }
                let sorted = lengths.map { abs($0 - 50) / 50 }.sorted()
                #expect(MagnetometerCalibrator.residual(lengths, 50) == sorted[count / 2])
            }
        }
        #expect(MagnetometerCalibrator.residual([], 50).isNaN)
    }

    /// A sphere through readings around a known centre is found from the flat normal equations.
    @Test func theSphereFitFindsTheCentreAndRadius() throws {
        let centre = Vector3(12, -30, 7), radius = 45.0
        let directions = [Vector3(1, 0, 0), Vector3(-1, 0, 0), Vector3(0, 1, 0), Vector3(0, -1, 0), Vector3(0, 0, 1),
                          Vector3(0, 0, -1), Vector3(0.6, 0.8, 0), Vector3(0, 0.6, -0.8), Vector3(-0.8, 0, 0.6),
                          Vector3(0.48, 0.6, 0.64), Vector3(-0.48, -0.6, 0.64), Vector3(0.48, -0.6, -0.64)]
        let fit = try #require(MagnetometerCalibrator.fitSphere(directions.map { centre + $0 * radius }))
        #expect((fit.offset - centre).length < 1e-9)
        #expect(abs(fit.fieldStrength - radius) < 1e-9)
        #expect(MagnetometerCalibrator.fitSphere(Array(repeating: centre, count: 12)) == nil)  // degenerate
    }
}
