import Foundation
import Mapper
import Motion
import Testing

/// Each space on a tilted pad through the whole mapper (its own 6D fusion finds gravity): a turn
/// about world up, a lean about the pad's pointing direction, at 100 Hz.
@Suite struct GyroSpaceMappingTests {
    let perDegree = 16_364.0 / 360

    func counts(_ space: GyroSpace, pad start: PadMotion, about axis: Vector3, degrees: Double) -> MouseTotal {
        var mapper = Mapper(profile: .exact(space: space))
        var pad = start
        _ = mapper.run(pad.rest(0.5))
        return mapper.run(pad.turn(about: axis, degreesPerSecond: degrees, seconds: 1))
    }

    /// Pad pitched up 40°, turned 90° right about world up: player and world turn follow the room
    /// (90°); local sees only the part about the pad's own z (cos 40°); the lean spaces hardly turn.
    @Test func turnAboutWorldUpOnAPitchedPad() {
        let pad = PadMotion.tilted(pitch: 40 * .pi / 180, rate: 100)
        let up = Vector3(0, 0, 1)
        for space in [GyroSpace.player, .world] {
            let x = Double(counts(space, pad: pad, about: up, degrees: -90).x)
            #expect(abs(x - 90 * perDegree) < 0.02 * 90 * perDegree, "\(space): \(x)")
        }
        let local = Double(counts(.local, pad: pad, about: up, degrees: -90).x)
        #expect(abs(local - 90 * cos(40 * .pi / 180) * perDegree) < 0.02 * 90 * perDegree, "local: \(local)")
        for space in [GyroSpace.playerLean, .worldLean] {
            let x = Double(counts(space, pad: pad, about: up, degrees: -90).x)
            #expect(abs(x) < 0.05 * 90 * perDegree, "\(space): \(x)")
        }
    }

    /// The same pitched pad leaned 30° right (right side down, about the horizontal direction it
    /// points, world y): both lean spaces turn right by 30°; player and world turn barely move.
    @Test func leanOnAPitchedPad() {
        let pad = PadMotion.tilted(pitch: 30 * .pi / 180, rate: 100)
        let forward = Vector3(0, 1, 0)
        for space in [GyroSpace.playerLean, .worldLean] {
            let x = Double(counts(space, pad: pad, about: forward, degrees: 30).x)
            #expect(abs(x - 30 * perDegree) < 0.03 * 30 * perDegree, "\(space): \(x)")
        }
        let world = Double(counts(.world, pad: pad, about: forward, degrees: 30).x)
        #expect(abs(world) < 0.05 * 30 * perDegree, "world: \(world)")
    }
}
