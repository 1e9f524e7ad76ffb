import Foundation
import Mapper
import Motion
import Testing
import TestSupport

/// The mapper on real recorded motion: x-io's Fusion example recording (Assets/traces/xio), whose
/// 65–71 s is a flat spin about the sensor's z at ≈ 3.5 rad/s with 0.8 g of centripetal acceleration
/// on x (Assets/traces/README.md) — a hard case for gravity, and so for player space.
@Suite struct RecordedMotionTests {
    /// Read once for the suite: parsing the 135 s recording is most of these tests' time.
    static let recording = Result { try Recordings.xio() }

    static func spin() throws -> [MotionSample] {
        try recording.get().samples.filter { $0.timestamp >= 64 && $0.timestamp <= 72 }
    }

    /// The pad's own turn about z over the samples, degrees (the rate held over each interval).
    static func integratedYaw(_ samples: [MotionSample]) -> Double {
        zip(samples, samples.dropFirst()).reduce(0) { sum, pair in
            sum + (pair.1.rotationRate?.z ?? 0) * (pair.1.timestamp - pair.0.timestamp) * 180 / .pi
        }
    }

    /// Local space is the identity on the pad's z rate: counts = −turn × counts per degree within 1 %.
    /// Player space, with gravity from the mapper's own fusion through the spin's centripetal pull,
    /// stays within 2 % of it (its yaw is capped by, and relaxed towards, the pad's own rate).
    @Test func spinCountsFollowThePadsTurn() throws {
        let samples = try Self.spin()
        let expected = -Self.integratedYaw(samples) * 16_364 / 360
        #expect(abs(expected) > 16_364)     // more than a full turn
        var local = Mapper(profile: .exact(space: .local))
        let localX = Double(local.run(samples).x)
        #expect(abs(localX - expected) < 0.01 * abs(expected), "local \(localX) for \(expected)")
        var player = Mapper(profile: .exact(space: .player))
        let playerX = Double(player.run(samples).x)
        #expect(abs(playerX - expected) < 0.02 * abs(expected), "player \(playerX) for \(expected)")
    }

    @Test func replayIsDeterministicAndGyroOffSilencesIt() throws {
        let samples = try Self.spin()
        var a = Mapper(profile: .default), b = Mapper(profile: .default)
        #expect(a.run(samples) == b.run(samples))
        var profile = MapperProfile.default
        profile.gyroOffButtons = PadButtons(.leftShoulder)
        var off = Mapper(profile: profile)
        #expect(off.run(samples, controls: PadControls(buttons: PadButtons(.leftShoulder))) == MouseTotal())
    }
}
