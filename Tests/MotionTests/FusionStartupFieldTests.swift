import Foundation
import Testing
@testable import Motion

/// Before the device first turns, fusion has no reference for the earth's field (one is learned only
/// from a field steady while turning), yet its start-up heading already took north from the field at
/// rest. That field stands as a provisional reference: a magnet met before any turning is rejected
/// against it, and the field is trusted again once the magnet has gone.
@Suite("Fusion: the start-up's field before the first turn")
struct FusionStartupFieldTests {
    /// A device lying flat and still at 100 Hz in a field of 44 µT dipping 60°, with `extra` µT added
    /// (device frame) between `from` and `to` seconds.
    static func still(seconds: Double, extra: Vector3, from: Double, to: Double) -> [MotionSample] {
        let earth = Vector3(0, 22, -38.1)
        return (0..<Int(seconds * 100)).map { i in
            let t = Double(i) / 100
            return MotionSample(timestamp: t, acceleration: Vector3(0, 0, -1), rotationRate: .zero,
                                magneticField: earth + (t >= from && t < to ? extra : .zero))
        }
    }

    @Test func aMagnetMetBeforeTheFirstTurnIsRejectedAgainstTheStartupField() throws {
        // 30 s still (the start-up's running mean is over), a magnet's 40 µT beside it for 5 s, then 10 s still.
        let samples = Self.still(seconds: 45, extra: Vector3(40, 0, 0), from: 30, to: 35)
        var ahrs = AHRS(frame: .xMagneticNorthZVertical)
        var before: Double?, worst = 0.0
        var disturbedBefore = false, disturbedDuring = 0, during = 0
        for sample in samples {
            let result = ahrs.update(sample)
            let motion = try #require(result)
            #expect(!ahrs.flags.magneticReferenceLearned, "a reference learned without turning at \(sample.timestamp) s")
            if sample.timestamp >= 10 && sample.timestamp < 30 { disturbedBefore = disturbedBefore || ahrs.flags.magneticDisturbance }
            if sample.timestamp < 30 { before = motion.heading; continue }
            if sample.timestamp < 35 {
                during += 1
                if ahrs.flags.magneticDisturbance { disturbedDuring += 1 }
                var d = abs(motion.heading - (try #require(before)))
                if d > 180 { d = 360 - d }
                worst = max(worst, d)
            }
        }
        #expect(!disturbedBefore, "the start-up's steady field is judged by itself")
        // the field's low-pass (0.5 s) lets the first moments through, at the full gain (about half a degree)
        #expect(Double(disturbedDuring) > 0.8 * Double(during), "disturbed on \(disturbedDuring) of \(during) samples")
        #expect(worst < 0.75, "heading moved \(worst)° towards the magnet")
        #expect(!ahrs.flags.magneticDisturbance, "the start-up's field is trusted again once the magnet has gone")
    }
}
