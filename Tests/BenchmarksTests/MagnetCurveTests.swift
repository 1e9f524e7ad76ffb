import Foundation
import Motion
import MotionEvaluation
import TestSupport
import Testing
@testable import Benchmarks

/// The magnet curve of `bench accuracy --hard-iron --soft-iron`, on a slice of a real BROAD trial.
@Suite("Magnet curve", .serialized)
struct MagnetCurveTests {
    static func slice(samples: Int) throws -> BroadTrial {
        let broad = try TestData.requireSharedData("broad")
        var trial = try BroadTrial.load(contentsOf: try #require(try BroadTrial.files(in: broad).first))
        trial.samples = Array(trial.samples.prefix(samples))
        trial.groundTruth = Array(trial.groundTruth.prefix(samples))
        trial.movement = Array(trial.movement.prefix(samples))
        return trial
    }

    @Test(.needsSharedData("broad")) func hardIronAddsTheSameSensorFrameOffsetToEveryReading() throws {
        let trial = try Self.slice(samples: 4_000)
        let mean = MagnetometerDistortion.meanStrength(trial.samples)
        #expect(mean > 30 && mean < 60)  // the earth's field, µT (BROAD's README: about 44)
        let altered = MagnetometerDistortion.hardIron(2).applied(to: trial)
        #expect(altered.name == "\(trial.name)@hard-iron-2")
        let expected = MagnetometerDistortion.hardIronDirection * (2 * mean)
        for (a, b) in zip(trial.samples, altered.samples) {
            let difference = try #require(b.magneticField) - (try #require(a.magneticField))
            #expect((difference - expected).length < 1e-9)
            #expect(a.rotationRate == b.rotationRate && a.acceleration == b.acceleration)
        }
        #expect(altered.groundTruth == trial.groundTruth)
    }

    @Test(.needsSharedData("broad")) func softIronMultipliesByItsSymmetricMatrix() throws {
        let trial = try Self.slice(samples: 1_000)
        let altered = MagnetometerDistortion.softIronCase.applied(to: trial)
        let s = MagnetometerDistortion.softIronMatrix
        for i in 0..<3 { for j in 0..<3 { #expect(s[i][j] == s[j][i]) } }
        for (a, b) in zip(trial.samples, altered.samples) {
            let m = try #require(a.magneticField), out = try #require(b.magneticField)
            let expected = Vector3(s[0][0] * m.x + s[0][1] * m.y + s[0][2] * m.z, s[1][0] * m.x + s[1][1] * m.y + s[1][2] * m.z,
                                   s[2][0] * m.x + s[2][1] * m.y + s[2][2] * m.z)
            #expect((out - expected).length < 1e-9)
            #expect(out != m)
        }
    }

    @Test(.needsSharedData("broad")) func theCurveHasOneRowPerStrengthAndFilter() throws {
        let broad = try TestData.requireSharedData("broad")
        var settings = AccuracyBenchmark.Settings()
        settings.trialLimit = 1
        settings.samplesPerFile = 12_000
        settings.magnetDistortions = AccuracyBenchmark.magnetDistortions(hardIron: [0.3, 2], softIron: true)
        let (report, _) = try AccuracyBenchmark(settings: settings, data: BenchData(root: broad)).run(keepSeries: false)
        let labels = ["none", "hard iron 0.3×|m|", "hard iron 2×|m|", "soft iron"]
        // no peers asked for: Tiltkit with and without the gyro delay, per distortion
        #expect(report.magnetCurve.map(\.distortion) == labels.flatMap { [$0, $0] })
        #expect(report.magnetCurve.map(\.filter) == Array(repeating: ["Tiltkit 9D + gyro delay", "Tiltkit 9D"], count: 4).flatMap { $0 })
        for row in report.magnetCurve {
            #expect(row.trials == ["01_undisturbed_slow_rotation_A"])
            #expect(row.directions == (row.hardIronStrength > 0 ? MagnetometerDistortion.hardIronDirections.count : 1))
            #expect(row.total9D.count == 1 && row.total9D[0].isFinite && row.total9D[0] >= 0)
            #expect(row.ratioToVQF == nil)
        }
        // the undistorted case is the bench's own 9D row, run the same way
        let none = try #require(report.magnetCurve.first)
        #expect(abs(none.total9D[0] - (try #require(report.broad.first)).total9D) < 1e-9)
        #expect(report.text.contains("Magnet curve"))
    }

    @Test func theOffsetDirectionsAreOppositeInPairsAlongThreeAxesAtRightAngles() {
        let directions = MagnetometerDistortion.hardIronDirections
        #expect(directions.count == 6)
        #expect(directions[0] == MagnetometerDistortion.hardIronDirection)
        for d in directions { #expect(abs(d.length - 1) < 1e-12) }
        #expect(directions.reduce(Vector3.zero, +).length < 1e-12)
        for i in stride(from: 0, to: 6, by: 2) {
            #expect((directions[i] + directions[i + 1]).length < 1e-12)
            for j in stride(from: i + 2, to: 6, by: 2) { #expect(abs(directions[i].dot(directions[j])) < 1e-12) }
        }
        let keys = Set(directions.indices.map { MagnetometerDistortion.hardIron(0.3, direction: $0).key })
        #expect(keys.count == 6 && keys.contains("hard-iron-0.3"))
    }

    @Test(.needsSharedData("broad")) func aStrengthsFigureIsTheRMSOverItsDirections() throws {
        let trial = try Self.slice(samples: 12_000)
        let each = try MagnetometerDistortion.hardIronDirections.indices.map { i in
            let rows = try AccuracyBenchmark.magnetCurve([trial], distortions: [.hardIron(0.3, direction: i)], peers: nil).rows
            #expect(rows.allSatisfy { $0.directions == 1 })
            return try #require(rows.first { $0.filter == "Tiltkit 9D + gyro delay" }).total9D[0]
        }
        // the directions turn the heading differently: no two alike
        #expect(Set(each.map { ($0 * 1e6).rounded() }).count == each.count, "\(each)")
        let pooled = try AccuracyBenchmark.magnetCurve([trial], distortions: AccuracyBenchmark.magnetDistortions(hardIron: [0.3], softIron: false),
                                                       peers: nil).rows
        let row = try #require(pooled.first { $0.distortion == "hard iron 0.3×|m|" && $0.filter == "Tiltkit 9D + gyro delay" })
        #expect(row.directions == 6)
        let rms = (each.reduce(0) { $0 + $1 * $1 } / Double(each.count)).squareRoot()
        #expect(abs(row.total9D[0] - rms) < 1e-9, "\(row.total9D[0]) against \(rms)")
    }
}
