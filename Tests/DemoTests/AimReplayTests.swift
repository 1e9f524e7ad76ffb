import Foundation
import Motion
import Testing
import TestSupport
@testable import Demo

/// The target range on the x-io recording through the headless replay (manager, fusion's gravity
/// and bias-corrected rate, GyroAim, the range). x-io's description: flat at rest, then turned
/// about z back and forth at 45–60 s and spun at ~65–71 s.
@Suite struct AimReplayTests {
    func run(_ space: GyroSpace, sensitivity: Double = 1) throws -> AimReplay.Result {
        var settings = GyroAimSettings.default
        settings.space = space
        settings.sensitivity = sensitivity
        return try AimReplay.run(trace: try Recordings.xio(), options: .init(settings: settings))
    }

    /// The pad's turn about z between two times, degrees: the recorded gyro z integrated (the pad
    /// lies nearly flat, so that is its turn about the vertical).
    func integratedYaw(_ trace: Trace, from t0: Double, to t1: Double) -> Double {
        var sum = 0.0
        let s = trace.samples
        for i in 1..<s.count where s[i].timestamp > t0 && s[i].timestamp <= t1 {
            sum += (s[i].rotationRate?.z ?? 0) * (s[i].timestamp - s[i - 1].timestamp)
        }
        return sum * 180 / .pi
    }

    func yawChange(_ result: AimReplay.Result, from t0: Double, to t1: Double) -> Double {
        result.yawByFrame[Int(t1 * 60)] - result.yawByFrame[Int(t0 * 60)]
    }

    @Test func aimYawFollowsTheTracesSpin() throws {
        let trace = try Recordings.xio()
        for space in [GyroSpace.world, .player] {
            let result = try run(space)
            let spin = yawChange(result, from: 64, to: 72)
            let pad = integratedYaw(trace, from: 64, to: 72)
            print("aim \(space) spin 64-72 s: aim \(spin) deg, trace gyro z integrated \(pad) deg")
            #expect(pad > 900)
            #expect(abs(spin - pad) < 0.02 * abs(pad), "\(space): aim \(spin) vs pad \(pad)")
            // The back-and-forth turns: aim tracks the pad's angle through the swings.
            for (t0, t1) in [(44.0, 50.0), (50.0, 55.0), (55.0, 61.0)] {
                let aim = yawChange(result, from: t0, to: t1), padTurn = integratedYaw(trace, from: t0, to: t1)
                print("aim \(space) \(t0)-\(t1) s: aim \(aim) deg, trace \(padTurn) deg")
                #expect(abs(aim - padTurn) < max(3, 0.05 * abs(padTurn)), "\(space) \(t0)-\(t1): \(aim) vs \(padTurn)")
            }
        }
    }

    @Test func sensitivityScalesTheTurn() throws {
        let one = try run(.world), two = try run(.world, sensitivity: 2)
        let a = yawChange(one, from: 64, to: 72), b = yawChange(two, from: 64, to: 72)
        #expect(abs(b - 2 * a) < 0.01 * abs(a))
    }

    @Test func replayIsDeterministicAndHitsTargets() throws {
        let a = try run(.player), b = try run(.player)
        #expect(a.events.map(\.json) == b.events.map(\.json))
        #expect(a.range == b.range)
        // The spin sweeps the crosshair across the ring of targets.
        #expect(a.range.hits > 0)
        #expect(a.events.contains { if case .shot(let s) = $0 { s.target != nil } else { false } })
    }

    @Test("events handed over as they happen are the ones a kept run returns, and none is kept")
    func streamedEventsAreTheKeptOnes() throws {
        let kept = try run(.player)
        var settings = GyroAimSettings.default
        settings.space = .player
        var streamed: [AimReplay.Event] = []
        let result = try AimReplay.run(replay: SteppedReplaySource(trace: try Recordings.xio(), loop: false),
                                       options: .init(settings: settings)) { streamed.append($0) }
        #expect(streamed == kept.events && !streamed.isEmpty)
        #expect(result.events.isEmpty && result.yawByFrame.isEmpty, "a streamed run keeps nothing per frame")
        #expect(result.range == kept.range && result.frames == kept.frames)
    }

    @Test func rangeHitsOnlyUnderTheCrosshairAndRespawns() {
        var range = AimRange(targets: [AimRange.Target(yaw: 90, pitch: 0)])
        #expect(range.step(AimDelta(yaw: 45, pitch: 0), dt: 0.1).isEmpty)
        let shots = range.step(AimDelta(yaw: 44, pitch: 0), dt: 0.1)
        #expect(shots.map(\.target) == [0])
        #expect(!range.targets[0].isUp)
        // Down: auto-fire has nothing to shoot, a trigger misses.
        #expect(range.step(.zero, dt: 0.1).isEmpty)
        #expect(range.step(.zero, dt: 0.1, trigger: true).map(\.target) == [nil])
        _ = range.step(.zero, dt: range.respawnTime)
        // Standing again under the crosshair: shot again at once.
        #expect(range.targets[0].hits == 2)
        #expect(range.hits == 2 && range.shots == 3)
    }
}
