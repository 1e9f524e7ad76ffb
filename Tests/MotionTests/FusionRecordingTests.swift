import Foundation
import Testing
import TestSupport
@testable import Motion
@testable import MotionEvaluation

/// Fusion on the real recordings bundled in `Assets/traces/` (iPhone Core Motion output and the
/// x-io board), compared with the devices' own estimates and with the accelerometer-only mode.
@Suite("Fusion on real recordings")
struct FusionRecordingTests {
    static func agreement(_ url: URL, _ kind: DeviceMotionEstimatorKind) throws -> GravityAgreement {
        var estimator = kind.make()
        return GravityAgreement.evaluate(try TraceTestFiles.loaded(url).samples, estimator: &estimator)
    }

    @Test func gravityMatchesCoreMotionOnAStillPhone() throws {
        // mPower balance: pick-up and pocketing in the first 3 s, then 27 s still.
        let fusion = try Self.agreement(TraceTestFiles.mpowerBalance, .fusion)
        #expect(fusion.count > 2000)
        #expect(fusion.median < 0.6, "median \(fusion.median)°")
        #expect(fusion.percentile95 < 2.0, "p95 \(fusion.percentile95)°")
    }

    @Test(arguments: [TraceTestFiles.motionSenseJog, TraceTestFiles.motionSenseStairs])
    func fusionBeatsAccelerometerOnlyWhileMoving(_ url: URL) throws {
        let fusion = try Self.agreement(url, .fusion)
        let accel = try Self.agreement(url, .accelerometer)
        #expect(fusion.median < 0.5 * accel.median, "fusion \(fusion.median)° vs accelerometer-only \(accel.median)°")
        #expect(fusion.percentile95 < 0.5 * accel.percentile95, "fusion \(fusion.percentile95)° vs \(accel.percentile95)°")
    }

    @Test func attitudeHoldsStillOnTheStillBoard() throws {
        // x-io board: still from about 110 s to the end (135 s) after two minutes of motion and knocks;
        // accelerometer and gyro only, so nothing but the gyro bias estimate holds the heading.
        var ahrs = AHRS(frame: .xArbitraryZVertical)
        var start: Quaternion?
        var worst = 0.0
        for sample in try TraceTestFiles.loaded(TraceTestFiles.xio).samples {
            guard let motion = ahrs.update(sample), sample.timestamp >= 115 else { continue }
            let q = motion.attitude.quaternion
            if let s = start { worst = max(worst, s.angle(to: q)) } else { start = q }
        }
        #expect(start != nil)
        #expect(worst * 180 / .pi < 0.5, "attitude moved \(worst * 180 / .pi)° while still")
        #expect(ahrs.flags.atRest)
    }

    @Test func theMagneticReferenceIsLearnedOnTheBoard() throws {
        var ahrs = AHRS(frame: .xMagneticNorthZVertical)
        for sample in try TraceTestFiles.loaded(TraceTestFiles.xio).samples { _ = ahrs.update(sample) }
        #expect(ahrs.flags.magneticReferenceLearned && !ahrs.flags.magneticDisturbance)
        #expect(ahrs.flags.headingInitialised)
        // the x-io recording's field: about 44 µT
        #expect(abs(ahrs.internalStates.magneticReferenceNorm - 44) < 8, "\(ahrs.internalStates.magneticReferenceNorm) µT")
    }

    @Test func gravityAndUserAccelerationAddUpToTheMeasurement() throws {
        var ahrs = AHRS(frame: .xMagneticNorthZVertical)
        for sample in try TraceTestFiles.loaded(TraceTestFiles.xio).samples {
            // the rate is corrected with the estimate in force when the sample arrives
            let states = ahrs.internalStates, raw = sample.rotationRate!
            let motionResult = ahrs.update(sample)
            let motion = try #require(motionResult)
            let sum = motion.gravity + motion.userAcceleration
            #expect((sum - sample.acceleration).length < 1e-12)
            #expect(abs(motion.gravity.length - 1) < 1e-9)
            #expect((motion.gravity - motion.attitude.gravity).length < 1e-9)
            let corrected = Vector3(raw.x * (1 - states.gyroScaleError.x), raw.y * (1 - states.gyroScaleError.y),
                                    raw.z * (1 - states.gyroScaleError.z)) - states.gyroBias
            #expect((motion.rotationRate - corrected).length < 1e-15)
            #expect(motion.heading >= 0 && motion.heading < 360)
        }
    }

    @Test func gyroBiasIsLearnedAtRest() throws {
        // The board lies still for the first 10 s: the estimate must reach the mean rate there.
        let samples = try TraceTestFiles.loaded(TraceTestFiles.xio).samples
        let still = samples.filter { $0.timestamp > 2 && $0.timestamp < 10 }
        let mean = still.reduce(Vector3.zero) { $0 + $1.rotationRate! } / Double(still.count)
        var ahrs = AHRS(frame: .xArbitraryZVertical)
        for sample in samples where sample.timestamp < 10 { _ = ahrs.update(sample) }
        #expect(ahrs.flags.atRest)
        #expect((ahrs.internalStates.gyroBias - mean).length < 0.001, "bias \(ahrs.internalStates.gyroBias) vs mean \(mean)")
    }

    @Test func northReferencedFramesDifferByTheDeclination() throws {
        let samples = try TraceTestFiles.loaded(TraceTestFiles.xio).samples
        var magnetic = AHRS(frame: .xMagneticNorthZVertical)
        var settings = AHRSSettings.default
        settings.declination = 10 * .pi / 180
        var trueNorth = AHRS(frame: .xTrueNorthZVertical, settings: settings)
        var arbitrary = AHRS(frame: .xArbitraryZVertical)
        var corrected = AHRS(frame: .xArbitraryCorrectedZVertical)
        for (i, sample) in samples.enumerated() {
            let (mm, tt, aa, cc) = (magnetic.update(sample), trueNorth.update(sample), arbitrary.update(sample), corrected.update(sample))
            let m = try #require(mm), t = try #require(tt), a = try #require(aa), c = try #require(cc)
            var difference = t.heading - m.heading
            if difference < -180 { difference += 360 } else if difference > 180 { difference -= 360 }
            #expect(abs(difference - 10) < 2e-3)  // heading uses a 1e-5 rad atan2
            #expect(a.heading == -1 && c.heading == -1)
            if i == 0 {
                // the corrected frame keeps the arbitrary start heading
                #expect(a.attitude.quaternion.angle(to: c.attitude.quaternion) < 1e-9)
            }
        }
    }

    @Test func magneticDisturbanceIsDetectedAndTheHeadingCoasts() throws {
        // The real recording with a magnet's field (40 µT) added for 5 s while the board lies still at the end.
        var samples = try TraceTestFiles.loaded(TraceTestFiles.xio).samples
        for i in samples.indices where samples[i].timestamp >= 120 && samples[i].timestamp < 125 {
            samples[i].magneticField! += Vector3(40, 0, 0)
        }
        var ahrs = AHRS(frame: .xMagneticNorthZVertical)
        var before: DeviceMotion?, worst = 0.0, disturbed = false
        for sample in samples {
            let motionResult = ahrs.update(sample)
            let motion = try #require(motionResult)
            if sample.timestamp < 120 { before = motion; continue }
            if sample.timestamp < 125 {
                disturbed = disturbed || ahrs.flags.magneticDisturbance
                if ahrs.flags.magneticDisturbance { #expect(motion.magneticField.accuracy == .low) }
                let b = try #require(before)
                var d = abs(motion.heading - b.heading)
                if d > 180 { d = 360 - d }
                worst = max(worst, d)
            }
        }
        #expect(disturbed)
        #expect(worst < 0.5, "heading moved \(worst)° during the disturbance")
        #expect(!ahrs.flags.magneticDisturbance, "the undisturbed field is recognised again")
    }
}
