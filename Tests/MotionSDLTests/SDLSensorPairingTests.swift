import Motion
@testable import MotionSDL
import Testing

/// SDL's gyro and accelerometer updates → one sample per pad report, fed as sequences of updates
/// without SDL. Each report's values here are distinct (gyro x = accel x = the report's number), so a
/// sample made from two reports shows as differing x.
@Suite("SDL sensor pairing")
struct SDLSensorPairingTests {
    typealias Update = (sensor: SDLSensorPairing.Sensor, report: Double, us: UInt64)

    static func gyro(_ report: Double, us: UInt64) -> Update { (.gyro, report, us) }
    static func accel(_ report: Double, us: UInt64) -> Update { (.accelerometer, report, us) }

    /// The samples the updates make, as (gyro's report, accel's report); host time 1 ms per update.
    static func pairs(_ updates: [Update]) -> [(gyro: Double, accel: Double)] {
        var pairing = SDLSensorPairing()
        return updates.enumerated().compactMap { i, u in
            pairing.add(u.sensor, Vector3(u.report, 0, 0), timestampMicroseconds: u.us, hostTime: 10 + Double(i) * 1e-3)
        }.map { ($0.rotationRate!.x, $0.acceleration.x) }
    }

    static func sameReport(_ pairs: [(gyro: Double, accel: Double)]) -> Bool { pairs.allSatisfy { $0.gyro == $0.accel } }

    @Test("SDL's order, gyro then accelerometer with one sensor time: one sample per report")
    func inOrder() {
        let p = Self.pairs([Self.gyro(1, us: 4000), Self.accel(1, us: 4000), Self.gyro(2, us: 8000), Self.accel(2, us: 8000)])
        #expect(p.map(\.gyro) == [1, 2] && Self.sameReport(p))
    }

    @Test("halves in the other order pair by their sensor time")
    func reordered() {
        let p = Self.pairs([Self.accel(1, us: 4000), Self.gyro(1, us: 4000), Self.gyro(2, us: 8000), Self.accel(2, us: 8000)])
        #expect(p.map(\.gyro) == [1, 2] && Self.sameReport(p))
    }

    @Test("a lost accelerometer or gyro update drops its report, never joins two")
    func missingHalf() {
        // Report 2's accel lost: its gyro must not pair with report 3's accel.
        let lostAccel = Self.pairs([Self.gyro(1, us: 4000), Self.accel(1, us: 4000), Self.gyro(2, us: 8000),
                                    Self.gyro(3, us: 12000), Self.accel(3, us: 12000)])
        #expect(lostAccel.map(\.gyro) == [1, 3] && Self.sameReport(lostAccel))
        // Report 2's gyro lost: its accel waits, then gives way to report 3.
        let lostGyro = Self.pairs([Self.gyro(1, us: 4000), Self.accel(1, us: 4000), Self.accel(2, us: 8000),
                                   Self.gyro(3, us: 12000), Self.accel(3, us: 12000)])
        #expect(lostGyro.map(\.gyro) == [1, 3] && Self.sameReport(lostGyro))
    }

    @Test("equal sensor times on consecutive reports (a clock standing still) still give one sample each")
    func equalTimestamps() {
        let p = Self.pairs([Self.gyro(1, us: 4000), Self.accel(1, us: 4000), Self.gyro(2, us: 4000), Self.accel(2, us: 4000),
                            Self.gyro(3, us: 4000), Self.gyro(4, us: 4000), Self.accel(4, us: 4000)])
        #expect(p.map(\.gyro) == [1, 2, 4] && Self.sameReport(p))
    }

    @Test("without sensor times the accelerometer completes the gyro just before it; a lone half is dropped")
    func withoutTimestamps() {
        let p = Self.pairs([Self.gyro(1, us: 0), Self.accel(1, us: 0), Self.accel(2, us: 0), Self.gyro(3, us: 0),
                            Self.accel(3, us: 0), Self.gyro(4, us: 0), Self.gyro(5, us: 0), Self.accel(5, us: 0)])
        #expect(p.map(\.gyro) == [1, 3, 5] && Self.sameReport(p))
    }

    /// One pad report: its gyro update, then its accelerometer update, which completes the sample.
    static func report(_ pairing: inout SDLSensorPairing, microseconds: UInt64, hostTime: Double) throws -> MotionSample {
        _ = pairing.add(.gyro, .zero, timestampMicroseconds: microseconds, hostTime: hostTime)
        let sample = pairing.add(.accelerometer, .zero, timestampMicroseconds: microseconds, hostTime: hostTime)
        return try #require(sample)
    }

    @Test("times: device µs anchored to host time; without them host time, kept strictly increasing")
    func times() throws {
        var pairing = SDLSensorPairing()
        let first = try Self.report(&pairing, microseconds: 48_501, hostTime: 100)
        let second = try Self.report(&pairing, microseconds: 52_501, hostTime: 100.02)
        // Device time, not the (late) host time: 4 ms after the first.
        #expect(first.timestamp == 100 && abs(second.timestamp - 100.004) < 1e-9)
        // The same device time again (a standing clock) still moves forward.
        let third = try Self.report(&pairing, microseconds: 52_501, hostTime: 100.03)
        #expect(third.timestamp > second.timestamp)
        var hostOnly = SDLSensorPairing()
        let a = try Self.report(&hostOnly, microseconds: 0, hostTime: 5)
        let b = try Self.report(&hostOnly, microseconds: 0, hostTime: 5)
        #expect(a.timestamp == 5 && b.timestamp > a.timestamp)
    }
}
