import Foundation
import Testing
import TestSupport
@testable import Motion

/// A magnet fixed to the device adds a constant offset to every magnetometer reading in the sensor
/// frame. Fusion learns it while the device turns and takes it out before the heading sees the field;
/// without that, the field turns with the device, fails the disturbance check for good and the
/// heading coasts on the gyro. Shown on the x-io board's real recording (two minutes of turning
/// through most directions, then still), its field shifted as a magnet would shift it.
@Suite("Fusion: iron riding along with the sensor")
struct FusionRidingIronTests {
    /// The recording's mean field strength, µT.
    static func meanStrength(_ samples: [MotionSample]) -> Double {
        let fields = samples.compactMap(\.magneticField)
        return fields.reduce(0) { $0 + $1.length } / Double(fields.count)
    }

    /// The board's own calibration: its magnetometer carries some hard iron of its own, which a
    /// calibrator fed the whole recording finds (`MagnetometerFitTests`: it earns high).
    static func boardCalibration(_ samples: [MotionSample]) throws -> MagnetometerCalibration {
        var calibrator = MagnetometerCalibrator()
        for sample in samples { if let m = sample.magneticField { calibrator.add(m, timestamp: sample.timestamp) } }
        return try #require(calibrator.calibration)
    }

    /// 9D attitudes after `from` seconds with every field reading changed by `field`, and the estimator at the end.
    static func run(_ samples: [MotionSample], field: (Vector3) -> Vector3, learns: Bool, from: Double)
        -> (attitudes: [Quaternion], ahrs: AHRS) {
        var settings = AHRSSettings.default
        settings.learnsMagnetometerCalibration = learns
        var ahrs = AHRS(frame: .xMagneticNorthZVertical, settings: settings)
        var attitudes: [Quaternion] = []
        for var sample in samples {
            if let m = sample.magneticField { sample.magneticField = field(m) }
            if let motion = ahrs.update(sample), sample.timestamp >= from { attitudes.append(motion.attitude.quaternion) }
        }
        return (attitudes, ahrs)
    }

    static func medianDegrees(_ a: [Quaternion], _ b: [Quaternion]) -> Double {
        let angles = zip(a, b).map { $0.angle(to: $1) * 180 / .pi }.sorted()
        return angles[angles.count / 2]
    }

    @Test(arguments: [0.5, 2.0])
    func aMagnetRidingAlongIsLearnedAndTheHeadingFollowsNorth(strength: Double) throws {
        let samples = try TraceTestFiles.loaded(TraceTestFiles.xio).samples
        let earth = Self.meanStrength(samples)
        let board = try Self.boardCalibration(samples)
        // off every axis, as a magnet beside the board would be
        let offset = Vector3(1, -2, 2) * (strength * earth / 3)
        let from = 90.0  // after most of the turning
        // The heading a calibrated magnetometer gives, without the magnet.
        let reference = Self.run(samples, field: { board.apply($0) }, learns: false, from: from)
        let learned = Self.run(samples, field: { $0 + offset }, learns: true, from: from)
        let coasting = Self.run(samples, field: { $0 + offset }, learns: false, from: from)
        let found = learned.ahrs.internalStates.magnetometerOffset, expected = board.offset + offset
        #expect((found - expected).length < 0.1 * earth, "learned \(found) µT, the magnet and the board's own iron add \(expected) µT")
        let withLearning = Self.medianDegrees(learned.attitudes, reference.attitudes)
        let without = Self.medianDegrees(coasting.attitudes, reference.attitudes)
        // The recording has no truth: the reference is the same fusion on the field calibrated over the
        // whole recording, which differs from one learned on the way by a few µT of its 44 (a few degrees).
        print("x-io board, magnet \(strength)×|m|: learning \(withLearning)°, coasting \(without)° from the calibrated run (median after \(Int(from)) s)")
        #expect(withLearning < 8, "learning the magnet: \(withLearning)° from the calibrated run")
        #expect(withLearning < 0.3 * without, "learning \(withLearning)°, coasting \(without)°")
        #expect(learned.ahrs.flags.headingInitialised && !learned.ahrs.flags.magneticDisturbance)
        // Without learning, the field turning with the board is never steady while it turns, so it never
        // becomes the reference (at rest in the start-up's pose it passes the provisional one).
        #expect(learned.ahrs.flags.magneticReferenceLearned)
        #expect(!coasting.ahrs.flags.magneticReferenceLearned, "without learning, the field turning with the board became the reference")
    }

    @Test func aFieldThatPassesIsLeftAsItIs() throws {
        // The board's own iron is a fifth of its field, yet the raw field passes the disturbance
        // check: fusion keeps it (a fit would only turn the heading by its own error).
        let samples = try TraceTestFiles.loaded(TraceTestFiles.xio).samples
        let run = Self.run(samples, field: { $0 }, learns: true, from: 0)
        #expect(run.ahrs.internalStates.magnetometerOffset == .zero)
        #expect(!run.ahrs.flags.magneticDisturbance)
    }
}
