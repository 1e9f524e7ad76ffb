import Foundation
import Testing
import TestSupport
@testable import Motion

@Suite("ShakeDetector")
struct ShakeTests {
    /// User acceleration of a back-and-forth shake along `axis`: `amplitude` g at `frequency` Hz,
    /// sampled at 100 Hz from `start` for `duration` seconds, zero elsewhere.
    static func shake(amplitude: Double, frequency: Double, start: Double = 0.5, duration: Double,
                      total: Double, axis: Vector3 = Vector3(1, 0, 0)) -> [(Double, Vector3)] {
        (0..<Int(total * 100)).map { i in
            let t = Double(i) / 100
            let on = t >= start && t < start + duration
            return (t, on ? axis * (amplitude * sin(2 * .pi * frequency * (t - start))) : .zero)
        }
    }

    static func run(_ samples: [(Double, Vector3)], settings: ShakeDetector.Settings = .default) -> [ShakeDetector.Shake] {
        var detector = ShakeDetector(settings: settings)
        return samples.compactMap { detector.update(userAcceleration: $0.1, timestamp: $0.0) }
    }

    @Test("a one-second 5 Hz shake of 1.5 g is one shake")
    func oneShake() throws {
        let shakes = Self.run(Self.shake(amplitude: 1.5, frequency: 5, duration: 1, total: 3))
        #expect(shakes.count == 1)
        let shake = try #require(shakes.first)
        #expect(shake.timestamp > 0.5 && shake.timestamp < 1.0)
        #expect(shake.reversals == 3)
        #expect(abs(shake.peakAcceleration - 1.5) < 0.05)
    }

    @Test("a long shake repeats only after the refractory time")
    func refractory() {
        let shakes = Self.run(Self.shake(amplitude: 1.5, frequency: 5, duration: 3.5, total: 5))
        #expect(shakes.count == 3)
        let gaps = zip(shakes, shakes.dropFirst()).map { $1.timestamp - $0.timestamp }
        #expect(gaps.allSatisfy { $0 >= ShakeDetector.Settings.default.refractoryTime })
    }

    @Test("too weak, too slow, or a single knock is not a shake")
    func notShakes() {
        #expect(Self.run(Self.shake(amplitude: 0.5, frequency: 5, duration: 2, total: 3)).isEmpty, "below threshold")
        #expect(Self.run(Self.shake(amplitude: 1.5, frequency: 0.5, duration: 4, total: 5)).isEmpty, "reversals too far apart")
        // A knock: a 30 ms spike of −0.8 g and a 30 ms rebound of +0.9 g.
        let knock: [(Double, Vector3)] = (0..<100).map { i in
            let t = Double(i) / 100
            let a = t >= 0.5 && t < 0.53 ? -0.8 : (t >= 0.53 && t < 0.56 ? 0.9 : 0)
            return (t, Vector3(0, 0, a))
        }
        #expect(Self.run(knock).isEmpty)
        #expect(Self.run([(0, Vector3(.nan, 3, 3)), (0.01, Vector3(3, 3, .infinity))]).isEmpty)
    }

    @Test("the threshold and reversal count are honoured")
    func settings() {
        let samples = Self.shake(amplitude: 1.0, frequency: 5, duration: 1, total: 2)
        #expect(Self.run(samples, settings: .init(threshold: 1.2)).isEmpty)
        #expect(Self.run(samples, settings: .init(threshold: 0.9)).count == 1)
        #expect(Self.run(samples, settings: .init(threshold: 0.9, requiredReversals: 20)).isEmpty)
    }
}

extension ShakeTests {
    /// Shakes found in a recorded trace, from fused user acceleration.
    static func shakes(in file: String) throws -> [ShakeDetector.Shake] {
        let trace = try Trace.load(contentsOf: TestData.assets.appendingPathComponent("traces/" + file))
        var estimator = DeviceMotionEstimatorKind.fusion.make(frame: .xArbitraryZVertical)
        var detector = ShakeDetector()
        return trace.samples.compactMap { estimator.update($0).flatMap { detector.update($0) } }
    }

    @Test("real traces: deliberate tilts, spins and knocks (x-io) and a pick-up (mPower) are not shakes")
    func realTracesWithoutShakes() throws {
        #expect(try Self.shakes(in: "xio/sensor_data.csv").isEmpty)
        #expect(try Self.shakes(in: "mpower/balance_data.csv").isEmpty)
    }

    @Test("real trace: jogging with the phone in a pocket reads as shaking, at most once per refractory time")
    func joggingLooksLikeShaking() throws {
        // 3–4 g bumps reversing with each stride: by this definition a shake. A game should pause
        // shake gestures while the player walks; the refractory time bounds the rate meanwhile.
        let shakes = try Self.shakes(in: "motionsense/jog_16_sub_1.csv")
        #expect(shakes.count > 5)
        let gaps = zip(shakes, shakes.dropFirst()).map { $1.timestamp - $0.timestamp }
        #expect(gaps.allSatisfy { $0 >= ShakeDetector.Settings.default.refractoryTime })
    }
}
