import DSU
import Motion
import TestSupport
import XCTest

/// The DSU axes and units on x-io's real recording (Core Motion frame, 100 Hz): it lies flat at
/// 0–10 s, tips its top edge up at 15–16 s (pitch), its right edge down at 30–31 s (roll), and
/// spins counter-clockwise seen from above at 65–70 s (yaw left); 45–60 s turns both ways about z.
final class DSUAxesTests: XCTestCase {
    private func motions(_ trace: Trace, from start: Double, to end: Double) -> [DSUMotion] {
        var stamper = DSUTimestamper()
        return trace.samples.filter { $0.timestamp >= start && $0.timestamp < end }
            .map { DSUMotion(sample: $0, timestamp: stamper.stamp(seconds: $0.timestamp)) }
    }

    func testFlatReadsMinusOneGOnY() throws {
        let flat = motions(try Recordings.xio(), from: 0, to: 10)
        let mean = flat.meanAcceleration
        XCTAssertEqual(mean.x, 0, accuracy: 0.03)
        XCTAssertEqual(mean.y, -1, accuracy: 0.03)
        XCTAssertEqual(mean.z, 0, accuracy: 0.03)
        XCTAssertLessThan(flat.map { abs($0.gyroscope.yaw) }.max()!, 2, "°/s, at rest")
    }

    /// Pitch up positive: the °/s integrated over the tip equal the angle gravity says the pad
    /// was tipped by, gravity then pointing toward the player (+z) as the near edge is lowest.
    func testPitchUpIsPositiveAndMatchesTheTiltInDegrees() throws {
        let tip = motions(try Recordings.xio(), from: 14.8, to: 16.5)
        let turned = tip.integrated(\.gyroscope.pitch)
        let a = tip.last!.acceleration
        let tilt = atan2(Double(a.z), Double(-a.y)) * 180 / .pi
        XCTAssertGreaterThan(tilt, 50)
        XCTAssertEqual(turned, tilt, accuracy: 8)
    }

    /// Roll right positive: the right edge goes down, gravity then toward +x.
    func testRollRightIsPositiveAndMatchesTheTiltInDegrees() throws {
        let roll = motions(try Recordings.xio(), from: 29.8, to: 31.5)
        let turned = roll.integrated(\.gyroscope.roll)
        let a = roll.last!.acceleration
        let tilt = atan2(Double(a.x), Double(-a.y)) * 180 / .pi
        XCTAssertGreaterThan(tilt, 50)
        XCTAssertEqual(turned, tilt, accuracy: 8)
    }

    /// Yaw right positive: the spin at 65–70 s is counter-clockwise seen from above (+ω about the
    /// face normal, which points up), a turn to the left, so DSU yaw is negative, ≈ 200 °/s.
    func testYawLeftSpinIsNegativeInDegreesPerSecond() throws {
        let trace = try Recordings.xio()
        let spin = motions(trace, from: 66, to: 68)
        let yaw = spin.map { Double($0.gyroscope.yaw) }.reduce(0, +) / Double(spin.count)
        XCTAssertEqual(yaw, -196, accuracy: 5)
        // 45–60 s: each sample's yaw is −ω_z in °/s, whichever way it turns.
        let source = trace.samples.filter { $0.timestamp >= 45 && $0.timestamp < 60 }
        for (m, s) in zip(motions(trace, from: 45, to: 60), source) {
            XCTAssertEqual(Double(m.gyroscope.yaw), -s.rotationRate!.z * 180 / .pi, accuracy: 1e-3)
        }
        XCTAssertGreaterThan(source.map { abs($0.rotationRate!.z) * 180 / .pi }.max()!, 150)
    }

    func testTimestampsAreMicrosecondsAndStrictlyIncreasing() {
        var stamper = DSUTimestamper()
        XCTAssertEqual(stamper.stamp(seconds: 1.5), 1_500_000)
        XCTAssertEqual(stamper.stamp(seconds: 1.51), 1_510_000)
        // a clock that restarts (a replugged pad) continues one interval later, then keeps its spacing
        XCTAssertEqual(stamper.stamp(seconds: 0.2), 1_520_000)
        XCTAssertEqual(stamper.stamp(seconds: 0.205), 1_525_000)
        XCTAssertEqual(stamper.stamp(seconds: 0.205), 1_530_000)
        XCTAssertEqual(stamper.rebases, 2)
        XCTAssertGreaterThan(stamper.stamp(seconds: .nan), 1_530_000)
    }
}

extension [DSUMotion] {
    var meanAcceleration: (x: Double, y: Double, z: Double) {
        let n = Double(count)
        return (map { Double($0.acceleration.x) }.reduce(0, +) / n, map { Double($0.acceleration.y) }.reduce(0, +) / n,
                map { Double($0.acceleration.z) }.reduce(0, +) / n)
    }

    /// ∫ rate dt in degrees, dt from the µs timestamps (as a client computes it).
    func integrated(_ rate: KeyPath<DSUMotion, Float>) -> Double {
        zip(self, dropFirst()).reduce(0) { sum, pair in
            sum + Double(pair.1[keyPath: rate]) * Double(pair.1.timestamp - pair.0.timestamp) / 1e6
        }
    }
}
