import Foundation
import Testing
import TestSupport
@testable import Motion
@testable import MotionEvaluation

/// The gyro error estimator learns a per-axis scale error from the inclination corrections while
/// an axis turns fast and is not vertical, and the attitude stays level although the gyro is off.
@Suite("Fusion gyro scale estimation")
struct FusionGyroScaleTests {
    /// A device turning like a wheel about its own x axis, held horizontal, after `rest` seconds
    /// lying flat; the gyro reads `(1 + scaleError)` times the true rate on x, plus `bias`.
    static func wheel(rate: Double, scaleError: Double, bias: Vector3, rest: Double, turning: Double,
                      sampleRate: Double = 200) -> [(sample: MotionSample, truth: Quaternion)] {
        var out = [(sample: MotionSample, truth: Quaternion)]()
        let dt = 1 / sampleRate
        for i in 0..<Int((rest + turning) * sampleRate) {
            let t = Double(i) * dt
            let angle = max(t - rest, 0) * rate
            let truth = Quaternion(axis: Vector3(1, 0, 0), angle: angle)
            let ω = t < rest ? 0 : rate
            // Core Motion's acceleration at rest is gravity, (0, 0, −1) g in the earth frame, seen from the device
            let gravity = truth.conjugate.rotate(Vector3(0, 0, -1))
            let gyro = Vector3(ω * (1 + scaleError), 0, 0) + bias
            out.append((MotionSample(timestamp: t, acceleration: gravity, rotationRate: gyro), truth))
        }
        return out
    }

    static func run(_ samples: [(sample: MotionSample, truth: Quaternion)], settings: AHRSSettings = .default)
        -> (ahrs: AHRS, lastInclinationError: Double) {
        var ahrs = AHRS(frame: .xArbitraryZVertical, settings: settings)
        var error = 0.0
        for (sample, truth) in samples {
            guard let motion = ahrs.update(sample) else { continue }
            // the angle between estimated and true gravity, degrees
            let trueGravity = truth.conjugate.rotate(Vector3(0, 0, -1))
            error = acos(min(max(motion.gravity.normalized.dot(trueGravity), -1), 1)) * 180 / .pi
        }
        return (ahrs, error)
    }

    @Test func learnsTheScaleOfAnAxisTurningHorizontally() {
        let samples = Self.wheel(rate: 4 * .pi, scaleError: 0.03, bias: Vector3(0.004, -0.003, 0.002), rest: 5, turning: 60)
        let (ahrs, lastError) = Self.run(samples)
        let scale = ahrs.internalStates.gyroScaleError
        #expect(abs(scale.x - 0.03) < 0.003, "scale \(scale)")
        // y and z never turn: nothing to learn, nothing invented
        #expect(abs(scale.y) < 0.002 && abs(scale.z) < 0.002, "scale \(scale)")
        #expect(lastError < 1.5, "gravity \(lastError)° off after a minute at 720 °/s with a 3 % scale error")
    }

    @Test func withoutScaleEstimationTheSameMotionTiltsTheAttitude() {
        let samples = Self.wheel(rate: 4 * .pi, scaleError: 0.03, bias: .zero, rest: 5, turning: 60)
        var off = AHRSSettings.default
        off.gyroScaleInitialUncertainty = 0
        let without = Self.run(samples, settings: off)
        let with = Self.run(samples)
        #expect(without.ahrs.internalStates.gyroScaleError == .zero)
        // 3 % of 720 °/s is 21.6 °/s of drift the 3 s acceleration low-pass must chase
        #expect(without.lastInclinationError > 3 * max(with.lastInclinationError, 0.2),
                "without \(without.lastInclinationError)°, with \(with.lastInclinationError)°")
    }

    @Test func anExactGyroGetsNoScaleCorrection() {
        let samples = Self.wheel(rate: 4 * .pi, scaleError: 0, bias: .zero, rest: 5, turning: 60)
        let scale = Self.run(samples).ahrs.internalStates.gyroScaleError
        #expect(scale.length < 0.002, "scale \(scale)")
    }

    @Test func badSamplesAndGapsLeaveTheLearnedScaleAlone() {
        let samples = Self.wheel(rate: 4 * .pi, scaleError: 0.03, bias: .zero, rest: 5, turning: 40)
        // the same accepted samples: once with every 500th left out, once with it turned into NaN
        var skipping = AHRS(frame: .xArbitraryZVertical), refusing = AHRS(frame: .xArbitraryZVertical)
        for (i, pair) in samples.enumerated() {
            if i % 500 == 250 {
                var bad = pair.sample
                bad.rotationRate!.y = .nan
                #expect(refusing.update(bad) == nil)
                continue
            }
            _ = skipping.update(pair.sample)
            _ = refusing.update(pair.sample)
        }
        let learned = refusing.internalStates.gyroScaleError
        #expect(learned == skipping.internalStates.gyroScaleError)
        #expect(abs(learned.x - 0.03) < 0.003)
        // a 3 s gap restarts the attitude; the scale belongs to the sensor and is kept
        var late = samples[samples.count - 1].sample
        late.timestamp += 3
        #expect(refusing.update(late) != nil)
        #expect(refusing.internalStates.gyroScaleError == learned)
        #expect(refusing.rejections.gapRestarts == 1)
    }

    /// Real data: BROAD's fast rotation with breaks (trial 08) with 2 % added to one gyro axis.
    /// The estimate must move by those 2 % on that axis and stay put on the others, and the
    /// attitude must stay closer to the truth than without the estimate.
    @Test(.needsSharedData("broad"), arguments: [0, 1, 2])
    func findsAScaleErrorAddedToRealFastRotation(axis: Int) throws {
        let broad = try TestData.requireSharedData("broad")
        let url = try #require(try BroadTrial.files(in: broad).first { $0.lastPathComponent.hasPrefix("08_") })
        let clean = try BroadTrial.load(contentsOf: url)
        var scaled = clean
        for i in scaled.samples.indices {
            switch axis {
            case 0: scaled.samples[i].rotationRate!.x *= 1.02
            case 1: scaled.samples[i].rotationRate!.y *= 1.02
            default: scaled.samples[i].rotationRate!.z *= 1.02
            }
        }
        func evaluate(_ trial: BroadTrial, _ settings: AHRSSettings = .default) -> (scale: Vector3, inclination: Double) {
            var estimator: any DeviceMotionEstimator = AHRS(frame: .xArbitraryZVertical, settings: settings)
            let result = BroadEvaluation.evaluate(trial, estimator: &estimator)
            return ((estimator as! AHRS).internalStates.gyroScaleError, result.errors.inclination)
        }
        var off = AHRSSettings.default
        off.gyroScaleInitialUncertainty = 0
        let before = evaluate(clean), after = evaluate(scaled), unestimated = evaluate(scaled, off)
        let moved = [after.scale.x - before.scale.x, after.scale.y - before.scale.y, after.scale.z - before.scale.z]
        print(String(format: "BROAD 08, +2 %% on axis %d: scale moved by (%.4f, %.4f, %.4f); inclination %.2f° clean, %.2f° with the error, %.2f° without the estimate",
                     axis, moved[0], moved[1], moved[2], before.inclination, after.inclination, unestimated.inclination))
        #expect(abs(moved[axis] - 0.02) < 0.0025)
        for other in 0..<3 where other != axis { #expect(abs(moved[other]) < 0.002) }
        #expect(after.inclination < unestimated.inclination)
    }
}
