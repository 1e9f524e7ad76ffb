import CartGame
import Foundation
import Motion
import Testing
import TestSupport
@testable import Demo

/// The motion controls on real recordings, through the headless replay (the motion manager's
/// push and pull paths, detectors, the game session). What happens when: Tests data README and
/// x-io's description.
@Suite struct CartReplayTests {
    typealias Gesture = (t: Double, kind: CartReplayEvent.Gesture)

    func replay(_ trace: Trace, seed: UInt64 = 1) throws -> CartReplay.Result {
        try CartReplay.run(trace: trace, options: .init(seed: seed))
    }

    func gestures(_ result: CartReplay.Result) -> [Gesture] {
        result.events.compactMap { if case .gesture(let t, let kind, _, _) = $0 { (t, kind) } else { nil } }
    }

    func leans(_ result: CartReplay.Result) -> [(t: Double, degrees: Double)] {
        result.events.compactMap { if case .lean(let t, let d) = $0 { (t, d) } else { nil } }
    }

    @Test("events handed over as they happen are the ones a kept run returns, and none is kept")
    func streamedEventsAreTheKeptOnes() throws {
        let trace = try Recordings.xio()
        let kept = try replay(trace)
        var streamed: [CartReplayEvent] = []
        let result = try CartReplay.run(replay: SteppedReplaySource(trace: trace, loop: false), options: .init(seed: 1)) {
            streamed.append($0)
        }
        #expect(streamed == kept.events && result.events.isEmpty)
        let jumps = gestures(kept).filter { $0.kind == .jump }.count, ducks = gestures(kept).count - jumps
        #expect(jumps > 0 && ducks > 0)
        #expect(result.jumps == jumps && result.ducks == ducks && kept.jumps == jumps && kept.ducks == ducks)
        #expect(result.totalScore == kept.totalScore && result.latencies == kept.latencies)
    }

    @Test func xioJumpsOnlyWhileTippedTowardTheUser() throws {
        let result = try replay(Recordings.xio())
        #expect(result.pose == .gamepad)  // the board lies flat: x lateral, tipping about x
        let jumps = gestures(result).filter { $0.kind == .jump }
        #expect(!jumps.isEmpty)
        for jump in jumps { #expect((15...30).contains(jump.t), "jump at \(jump.t) s") }
        // Both tips that raise the top edge (≈15.3 s up to +60°, ≈24.8 s back from −53°), not
        // the tip away at ≈20.2 s.
        #expect(jumps.contains { abs($0.t - 15.3) < 0.5 })
        #expect(jumps.contains { abs($0.t - 24.9) < 0.5 })
        #expect(!jumps.contains { abs($0.t - 20.4) < 0.6 })
    }

    @Test func xioDucksAtTheTwoKnocks() throws {
        let result = try replay(Recordings.xio())
        let ducks = gestures(result).filter { $0.kind == .duck }.map(\.t)
        #expect(ducks.contains { abs($0 - 81) < 1 }, "ducks: \(ducks)")
        #expect(ducks.contains { abs($0 - 101) < 1 }, "ducks: \(ducks)")
        for t in ducks { #expect(abs(t - 81) < 1.5 || abs(t - 101) < 1.5, "duck away from a knock at \(t) s") }
    }

    @Test func xioLeanFollowsTheRollsInSignAndSize() throws {
        let trace = try Recordings.xio()
        let samples = trace.samples
        let result = try replay(trace)
        let rolls = leans(result).filter { (30...45).contains($0.t) }
        #expect(rolls.count >= 140)  // 10 Hz
        let right = rolls.map(\.degrees).max() ?? 0, left = rolls.map(\.degrees).min() ?? 0
        #expect((50...75).contains(right), "right lean \(right)°")
        #expect((-75 ... -50).contains(left), "left lean \(left)°")
        // At every lean line the accelerometer's own roll (a quasi-static estimate) agrees:
        // same sign when beyond 15°, and within 12° while the board is not turning fast.
        var index = 0
        for lean in rolls {
            while index + 1 < samples.count && samples[index].timestamp - samples[0].timestamp < lean.t { index += 1 }
            let a = samples[index].acceleration
            let turning = (samples[index].rotationRate ?? .zero).length
            let accelRoll = atan2(a.x, (a.y * a.y + a.z * a.z).squareRoot()) * 180 / .pi
            if abs(accelRoll) > 15 { #expect((accelRoll > 0) == (lean.degrees > 0), "t \(lean.t)") }
            if turning < 0.3 { #expect(abs(accelRoll - lean.degrees) < 12, "t \(lean.t): \(lean.degrees)° vs \(accelRoll)°") }
        }
    }

    @Test func xioNoGestureWhileStill() throws {
        let result = try replay(Recordings.xio())
        for gesture in gestures(result) {
            #expect(!(0...10).contains(gesture.t) && !(110...136).contains(gesture.t),
                    "\(gesture.kind) at \(gesture.t) s")
        }
        // Still means upright: leans stay within 5° there.
        for lean in leans(result) where (2...10).contains(lean.t) || (110...135).contains(lean.t) {
            #expect(abs(lean.degrees) < 5)
        }
    }

    @Test(arguments: ["sit_13_sub_2", "std_14_sub_1"])
    func noGestureSittingOrStanding(_ name: String) throws {
        let result = try replay(Recordings.motionSense(name))
        #expect(result.frames > 60 * 40)
        #expect(gestures(result).isEmpty, "\(gestures(result))")
    }

    @Test func replaysAreDeterministic() throws {
        let trace = try Recordings.xio()
        let a = try replay(trace, seed: 7)
        let b = try replay(trace, seed: 7)
        #expect(a.events == b.events)
        #expect(a.totalScore == b.totalScore)
        #expect(a.finalState == b.finalState)
        let other = try replay(trace, seed: 8)
        #expect(other.events == a.events)                 // gestures do not depend on the track
        #expect(other.finalState.items != a.finalState.items)
    }

    @Test func gestureLatencyIsWithinOneFrame() throws {
        let result = try replay(Recordings.xio())
        #expect(result.latencies.count == gestures(result).count)
        for latency in result.latencies { #expect(latency >= 0 && latency <= 1.0 / 60 + 1e-9) }
    }

    @Test func theEndOfTheRecordingPausesTheGame() throws {
        var trace = try Recordings.xio()
        trace.samples = Array(trace.samples.prefix(3000))
        let result = try replay(trace)
        #expect(result.finalState.phase == .paused(reason: .deviceLost("the recording ended")))
        guard case .device(_, true, _)? = result.events.last else { Issue.record("no device-lost line"); return }
    }

    @Test func aGapPausesAndTheGameResumesWhenSamplesReturn() throws {
        // Cut 2 s out of the still start: the device "stops sending", then comes back.
        var trace = try Recordings.xio()
        trace.samples = trace.samples.filter { $0.timestamp < 3 || $0.timestamp > 5 }
        let result = try replay(trace)
        let device = result.events.compactMap { if case .device(let t, let lost, _) = $0 { (t, lost) } else { nil } }
        #expect(device.count == 3)
        #expect(device[0].1 && abs(device[0].0 - 3 - SourceHealth.staleAfter) < 0.05)
        #expect(!device[1].1 && abs(device[1].0 - 5) < 0.05)
        #expect(device[2].1)  // the end
    }
}
