import Foundation
import Testing
import TestSupport
@testable import Motion
@testable import MotionEvaluation

/// A late gyro (`AHRSSettings.gyroDelay`): the output is the attitude at the sample's time, not the
/// delay before, and `GyroDelayMeasurement` finds the delay against a reference.
@Suite("Fusion gyro delay")
struct FusionGyroDelayTests {
    /// A device rocking about its horizontal x axis, ±`amplitude` rad/s at 1 Hz, after 3 s flat: each
    /// gyro reading is the mean true rate over its sample period shifted `delay` seconds back.
    static func rocking(delay: Double, amplitude: Double = 2 * .pi, sampleRate: Double = 200, seconds: Double = 20)
        -> BroadTrial {
        let dt = 1 / sampleRate, rest = 3.0, w = 2 * Double.pi
        // angle(t) = ∫ rate: rate = A·sin(w(t − rest)) after rest
        func angle(_ t: Double) -> Double { t <= rest ? 0 : amplitude / w * (1 - cos(w * (t - rest))) }
        var trial = BroadTrial(name: "rocking", samples: [], groundTruth: [], movement: [])
        for i in 0..<Int(seconds * sampleRate) {
            let t = Double(i) * dt
            let truth = Quaternion(axis: Vector3(1, 0, 0), angle: angle(t))
            let rate = (angle(t - delay) - angle(t - delay - dt)) / dt
            trial.samples.append(MotionSample(timestamp: t, acceleration: truth.conjugate.rotate(Vector3(0, 0, -1)),
                                              rotationRate: Vector3(rate, 0, 0)))
            trial.groundTruth.append(truth)
            trial.movement.append(t > rest + 2)
        }
        return trial
    }

    /// RMS angle between output and truth over the moving samples, degrees.
    static func error(_ trial: BroadTrial, gyroDelay: Double) -> Double {
        var settings = AHRSSettings.default
        settings.gyroDelay = gyroDelay
        var ahrs = AHRS(frame: .xArbitraryZVertical, settings: settings)
        var sum = 0.0, count = 0
        for (i, sample) in trial.samples.enumerated() {
            guard let motion = ahrs.update(sample), trial.movement[i] else { continue }
            let e = motion.attitude.quaternion * trial.groundTruth[i].conjugate
            let degrees = 2 * acos(min(1, abs(e.w))) * 180 / .pi
            sum += degrees * degrees
            count += 1
        }
        return (sum / Double(max(count, 1))).squareRoot()
    }

    @Test func theOutputCatchesUpWithAGyroThatIsLate() {
        let delay = 0.004
        let trial = Self.rocking(delay: delay)
        let uncompensated = Self.error(trial, gyroDelay: 0), compensated = Self.error(trial, gyroDelay: delay)
        // 360 °/s × 4 ms: about a degree and a half at the fastest
        #expect(uncompensated > 0.5, "a 4 ms late gyro at up to 360 °/s lags \(uncompensated)°")
        #expect(compensated < 0.2 * uncompensated, "with the delay given: \(compensated)° against \(uncompensated)°")
        // a gyro on time gains nothing from the setting being 0, and loses from a wrong one
        let onTime = Self.rocking(delay: 0)
        #expect(Self.error(onTime, gyroDelay: 0) < 0.2 * Self.error(onTime, gyroDelay: delay))
    }

    @Test func theMeasurementFindsTheDelay() throws {
        for delay in [0.0, 0.003, 0.007] {
            let measured = try #require(GyroDelayMeasurement.delay(of: Self.rocking(delay: delay)))
            #expect(abs(measured - delay) < 0.0003, "measured \(measured * 1000) ms for \(delay * 1000) ms")
        }
    }

    /// The bundled BROAD excerpt (trial 01, 26–61 s, its optical reference): its gyro is BROAD's
    /// `gyroDelay` late, as the ten public trials measured by the bench.
    @Test func broadsGyroIsLateAgainstItsReference() throws {
        let trace = try Trace.load(contentsOf: TestData.assets.appendingPathComponent("traces/broad/01_undisturbed_slow_rotation_A_26-61s.csv"))
        let attitudes = trace.samples.map { $0.reference?.attitude ?? Quaternion(w: .nan, x: .nan, y: .nan, z: .nan) }
        let trial = BroadTrial(name: "01 excerpt", samples: trace.samples, groundTruth: attitudes,
                               movement: trace.samples.map { $0.timestamp > 5 })
        let measured = try #require(GyroDelayMeasurement.delay(of: trial))
        #expect(abs(measured - BroadTrial.gyroDelay) < 0.0005, "measured \(measured * 1000) ms")
    }
}
