import Foundation
import Testing
import TestSupport
@testable import Motion
@testable import MotionEvaluation

/// Bad input must be refused with a counted reason, never reach the filter state, and a gap must
/// restart the attitude cleanly. Driven by the real x-io recording with faults put into it.
@Suite("Fusion sample validation")
struct FusionValidationTests {
    static func xio() throws -> [MotionSample] { try TraceTestFiles.loaded(TraceTestFiles.xio).samples }

    static func isFinite(_ m: DeviceMotion) -> Bool {
        m.attitude.quaternion.isFinite && m.gravity.isFinite && m.userAcceleration.isFinite && m.rotationRate.isFinite
            && m.heading.isFinite
    }

    @Test func nonFiniteSamplesAreRejectedAndCounted() throws {
        let samples = Array(try Self.xio().prefix(3000))
        var ahrs = AHRS(frame: .xMagneticNorthZVertical)
        var clean = AHRS(frame: .xMagneticNorthZVertical)
        var injected = 0
        for (i, sample) in samples.enumerated() {
            let goodResult = clean.update(sample)
            let good = try #require(goodResult)
            if i % 100 == 50 {
                var bad = sample
                switch (i / 100) % 4 {
                case 0: bad.acceleration.y = .nan
                case 1: bad.rotationRate!.z = .infinity
                case 2: bad.magneticField!.x = -.nan
                default: bad.timestamp = .nan
                }
                #expect(ahrs.update(bad) == nil)
                injected += 1
            }
            let motionResult = ahrs.update(sample)
            let motion = try #require(motionResult)
            #expect(Self.isFinite(motion))
            // a refused sample leaves no trace in the state
            #expect(motion.attitude.quaternion.angle(to: good.attitude.quaternion) < 1e-9)
        }
        #expect(ahrs.rejections.nonFinite == injected)
        #expect(ahrs.rejections.total == injected)
    }

    @Test func saturatedSamplesAreRejected() throws {
        var settings = AHRSSettings.default
        settings.limits.maximumAcceleration = 8
        var ahrs = AHRS(frame: .xMagneticNorthZVertical, settings: settings)
        let samples = Array(try Self.xio().prefix(200))
        for (i, sample) in samples.enumerated() {
            var s = sample
            if i == 100 { s.acceleration.z = -8 }                  // clipped at the ±8 g range
            if i == 101 { s.rotationRate!.x = 1e6 }                 // beyond the default 40 rad/s
            if i == 102 { s.magneticField!.y = 1e5 }                // beyond 4900 µT
            let motion = ahrs.update(s)
            #expect((motion == nil) == (100...102).contains(i))
            if let motion { #expect(Self.isFinite(motion)) }
        }
        #expect(ahrs.rejections.saturated == 3)
    }

    /// A frame that leaves the magnetometer off (6D, as Core Motion's `xArbitraryZVertical`) loses
    /// no sample to a bad field, reports no field (zero, uncalibrated, as Core Motion does there),
    /// and its attitude is the one the clean samples give.
    @Test func aFrameWithoutTheMagnetometerIgnoresItsField() throws {
        var ahrs = AHRS(frame: .xArbitraryZVertical)
        var clean = AHRS(frame: .xArbitraryZVertical)
        for (i, sample) in try Self.xio().prefix(400).enumerated() {
            var bad = sample
            switch i % 4 {
            case 0: bad.magneticField!.x = .nan
            case 1: bad.magneticField!.y = 1e5
            case 2: bad.magneticField!.z = -.infinity
            default: break
            }
            let result = ahrs.update(bad), goodResult = clean.update(sample)
            let motion = try #require(result), good = try #require(goodResult)
            #expect(motion.attitude.quaternion == good.attitude.quaternion)
            #expect(motion.magneticField.field == Vector3(0, 0, 0) && motion.magneticField.accuracy == .uncalibrated)
        }
        #expect(ahrs.rejections.total == 0)
        // the same fields refuse the sample where the frame uses them
        var nine = AHRS(frame: .xMagneticNorthZVertical)
        var fields = try Self.xio().prefix(3)
        fields[fields.startIndex + 2].magneticField!.x = .nan
        var refused: [Bool] = []
        for sample in fields { refused.append(nine.update(sample) == nil) }
        #expect(refused == [false, false, true])
        #expect(nine.rejections.nonFinite == 1)
    }

    @Test func timeGoingBackwardsOrRepeatingIsRejected() throws {
        var ahrs = AHRS(frame: .xArbitraryZVertical)
        let samples = Array(try Self.xio().prefix(100))
        for sample in samples.prefix(50) { #expect(ahrs.update(sample) != nil) }
        #expect(ahrs.update(samples[49]) == nil)   // duplicate
        #expect(ahrs.update(samples[10]) == nil)   // from the past
        for sample in samples.dropFirst(50) { #expect(ahrs.update(sample) != nil) }
        #expect(ahrs.rejections.timeNotIncreasing == 2)
    }

    @Test func aGapRestartsFromTheNextSamplesGravity() throws {
        // Still at the start; after a 3 s gap the board "comes back" turned on its side (acceleration
        // and rotation rate rotated by 90° about x): the first output after the gap must show it.
        let samples = Array(try Self.xio().prefix(800))
        var ahrs = AHRS(frame: .xArbitraryZVertical)
        for sample in samples.prefix(400) { _ = ahrs.update(sample) }
        let biasBefore = ahrs.internalStates.gyroBias
        let turn = Quaternion(axis: Vector3(1, 0, 0), angle: .pi / 2)
        var first = true
        for sample in samples.dropFirst(400) {
            var s = sample
            s.timestamp += 3
            s.acceleration = turn.rotate(s.acceleration)
            s.rotationRate = turn.rotate(s.rotationRate!)
            let motionResult = ahrs.update(s)
            let motion = try #require(motionResult)
            if first {
                let measured = s.acceleration.normalized
                #expect(motion.gravity.angle(to: measured) * 180 / .pi < 0.01)
                #expect((ahrs.internalStates.gyroBias - biasBefore).length < 1e-12, "the bias belongs to the sensor and is kept")
                first = false
            }
            #expect(Self.isFinite(motion))
        }
        #expect(ahrs.rejections.gapRestarts == 1)
    }

    @Test func droppedSamplesAndJitterBarelyMatter() throws {
        // Every third sample dropped and the timestamps jittered by up to ±2 ms (seeded, repeatable):
        // gravity stays within a degree of the run on the clean recording.
        let samples = try Self.xio()
        var clean = AHRS(frame: .xArbitraryZVertical)
        var reference = [Double: Vector3]()
        for s in samples { reference[s.timestamp] = clean.update(s)!.gravity }
        var rough = AHRS(frame: .xArbitraryZVertical)
        var generator = SplitMix64(seed: 7)
        var angles = [Double]()
        for (i, s) in samples.enumerated() where i % 3 != 2 {
            var jittered = s
            jittered.timestamp += (Double(generator.next() % 4001) - 2000) * 1e-6
            let motionResult = rough.update(jittered)
            let motion = try #require(motionResult)
            if s.timestamp > 2 { angles.append(motion.gravity.angle(to: reference[s.timestamp]!) * 180 / .pi) }
        }
        angles.sort()
        #expect(GravityAgreement.percentile(angles, 0.5) < 0.5)
        #expect(GravityAgreement.percentile(angles, 0.95) < 1.5)
    }

    @Test func accelerometerOnlyEstimatorFollowsApplesLowPass() throws {
        // α = dt/(dt + RC), RC = 1/fc (Apple's AccelerometerFilter): check one step on real samples.
        let samples = Array(try Self.xio().prefix(2))
        var estimator = AccelerometerAttitudeEstimator(cutoffFrequency: 5)
        let firstResult = estimator.update(samples[0])
        let first = try #require(firstResult)
        #expect(first.gravity.angle(to: samples[0].acceleration) < 1e-12)
        let secondResult = estimator.update(samples[1])
        let second = try #require(secondResult)
        let dt = samples[1].timestamp - samples[0].timestamp
        let alpha = dt / (dt + 1 / 5.0)
        let expected = (samples[1].acceleration * alpha + samples[0].acceleration * (1 - alpha)).normalized
        #expect(second.gravity.angle(to: expected) < 1e-9)
        #expect((second.gravity + second.userAcceleration - samples[1].acceleration).length < 1e-12)
        #expect(abs(second.attitude.yaw) < 1e-12)
        var bad = samples[1]
        bad.timestamp += 1
        bad.acceleration.x = .nan
        #expect(estimator.update(bad) == nil)
        #expect(estimator.rejections.nonFinite == 1)
    }
}
