import Motion
import Testing
@testable import Benchmarks

@Suite("Torn-read detector")
struct TornReadDetectorTests {
    static func payload(_ n: UInt64) -> SequencedMotion {
        let x = Double(n)
        return SequencedMotion(sequence: n, motion: DeviceMotion(
            timestamp: x * 0.001, attitude: Attitude(quaternion: Quaternion(axis: Vector3(1, x, 2), angle: x).normalized),
            rotationRate: Vector3(x, -x, 2 * x), gravity: Vector3(0, 0, -1), userAcceleration: Vector3(x, 0, 0)))
    }

    @Test func wholePayloadsAreIntact() {
        #expect(Self.payload(1).isIntact)
        #expect(SequencedMotion.empty.isIntact)
    }

    @Test func aDeliberatelyTornPayloadIsFlagged() {
        // The first half of the bytes from write 7, the rest from write 8: what an unsynchronised
        // read overlapping a write would see.
        let a = Self.payload(7), b = Self.payload(8)
        var torn = a
        withUnsafeMutableBytes(of: &torn) { dst in
            withUnsafeBytes(of: b) { src in
                let half = dst.count / 2
                for i in half..<dst.count { dst[i] = src[i] }
            }
        }
        #expect(!torn.isIntact)
        var detector = TornReadDetector()
        detector.check(torn)
        #expect(detector.torn == 1)
        #expect(detector.fresh == 0)
    }

    @Test func aSingleFieldFromAnotherWriteIsFlagged() {
        var mixed = Self.payload(3)
        mixed.motion.rotationRate = Self.payload(4).motion.rotationRate
        #expect(!mixed.isIntact)
        var stale = Self.payload(3)
        stale.sequence = 4
        #expect(!stale.isIntact)
    }

    @Test func countsFreshRepeatedAndOutOfOrderReads() {
        var detector = TornReadDetector()
        for n: UInt64 in [1, 2, 2, 5, 3, 6] { detector.check(Self.payload(n)) }
        #expect(detector.fresh == 4)         // 1, 2, 5, 6
        #expect(detector.repeated == 1)      // the second 2
        #expect(detector.outOfOrder == 1)    // 3 after 5
        #expect(detector.torn == 0)
        #expect(detector.reads == 6)
        #expect(detector.lastSequence == 6)
    }
}
