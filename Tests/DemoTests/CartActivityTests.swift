import CartGame
import Engine
import Foundation
import Motion
import MotionEvaluation
import Testing
import TestSupport
@testable import Demo

/// The cart game holds jump and duck off while the player walks or runs, through the headless
/// replay (the window's path: source → manager → pushed to `GestureInput`'s activity gate).
/// Without the gate, MotionSense's jog_16_sub_1 fired 42 jumps and 42 ducks, wlk_15_sub_2 119 and 115.
@Suite struct CartActivityTests {
    static func motionSense(_ name: String) throws -> Trace { try Recordings.sharedMotionSense(name) }

    static func gestures(_ result: CartReplay.Result) -> [(t: Double, kind: CartReplayEvent.Gesture)] {
        result.events.compactMap { if case .gesture(let t, let kind, _, _) = $0 { (t, kind) } else { nil } }
    }

    static func holds(_ result: CartReplay.Result) -> [(t: Double, why: String?)] {
        result.events.compactMap { if case .gestureHold(let t, let why) = $0 { (t, why) } else { nil } }
    }

    @Test(.needsSharedData(Recordings.motionSenseFolder), arguments: ["jog_16_sub_1", "jog_16_sub_2"])
    func joggingFiresNoGestureAndSaysRunning(_ name: String) throws {
        let trace = try Self.motionSense(name)
        let result = try CartReplay.run(trace: trace, options: .init(seed: 1))
        #expect(Self.gestures(result).isEmpty, "\(Self.gestures(result))")
        let holds = Self.holds(result)
        #expect(holds.first?.why == ActivityGate.Hold.waitingForStillness.message)
        // The first window (2.5 s) already shows the jog, and the hold never lifts.
        let running = try #require(holds.first { $0.why == "running - gestures paused" })
        #expect(running.t <= 3)
        #expect(!holds.contains { $0.why == nil })
    }

    @Test(.needsSharedData(Recordings.motionSenseFolder), arguments: ["wlk_15_sub_1", "wlk_15_sub_2", "ups_12_sub_1", "dws_11_sub_2"])
    func walkingFiresNoGesture(_ name: String) throws {
        let trace = try Self.motionSense(name)
        let result = try CartReplay.run(trace: trace, options: .init(seed: 1))
        #expect(Self.gestures(result).isEmpty, "\(Self.gestures(result))")
        #expect(Self.holds(result).contains { $0.why == "walking - gestures paused" })
    }

    /// Oxford's walks (bundled: two walkers, six placements, the hand included) stay paused to the
    /// end, the stop and the phone taken out included: the gate's hand-stroke rules never read a step as a stroke.
    @Test(arguments: OxfordTraces.names) func theOxfordWalksFireNoGesture(_ name: String) throws {
        let result = try CartReplay.run(trace: try OxfordTraces.trace(name), options: .init(seed: 1))
        #expect(Self.gestures(result).isEmpty, "\(Self.gestures(result))")
    }

    /// BROAD's fast translation trial: a hand pushing the pad in strokes about twice a second, which
    /// the classifier's windows alone take for walking (before the stroke rules: held from 44.5 to 150.5 s).
    @Test(.needsSharedData("broad")) func handStrokesAreNoWalk() throws {
        let url = try TestData.requireSharedData("broad").appendingPathComponent("15_undisturbed_fast_translation_A.csv")
        let trial = try BroadTrial.load(contentsOf: url)
        let result = try CartReplay.run(trace: Trace(samples: trial.samples, metadata: TraceMetadata(source: trial.name)),
                                        options: .init(seed: 1, pose: .gamepad))
        // Seconds held for walking within the pushes (40–155 s), from the hold changes.
        var held = 0.0, since: Double?
        for hold in Self.holds(result) {
            if let s = since { held += max(0, min(hold.t, 155) - max(s, 40)) }
            since = hold.why?.hasPrefix("walking") == true || hold.why?.hasPrefix("running") == true ? hold.t : nil
        }
        if let s = since { held += 155 - max(s, 40) }
        #expect(held < 40, "held \(held) s of 115")
    }

    /// The x-io board rests for its first 10 s: the gestures start at the first still window and
    /// its two tips and two knocks still fire.
    @Test func theXIOGesturesStillFire() throws {
        let result = try CartReplay.run(trace: try Recordings.xio(), options: .init(seed: 1))
        let holds = Self.holds(result)
        #expect(holds.count == 2 && holds[1].why == nil && abs(holds[1].t - 2.5) < 0.1, "\(holds)")
        let fired = Self.gestures(result).map { "\($0.kind.rawValue) \(String(format: "%.2f", $0.t))" }
        // The second tip fires one frame later than with a 50 ms jump buffer (24.82 s): the 80 ms
        // buffer keeps a push's brief wobble (1.5–2 rad/s for under 20°) from reading as a tip.
        #expect(fired == ["jump 15.35", "jump 24.83", "duck 81.07", "duck 100.92"])
    }

    /// Sitting, then a jog starting mid-game: the hold comes within 1.5 s of the first step (a window
    /// every 0.5 s that shows a gait in any part), so the first strides fire at most two gestures
    /// (without the gate: 42 jumps and 42 ducks over the jog; with whole-window votes only, 8 at its start).
    @Test(.needsSharedData(Recordings.motionSenseFolder), arguments: ["jog_16_sub_1", "wlk_15_sub_2"])
    func aWalkStartingMidGameIsCaughtWithinASecondAndAHalf(_ name: String) throws {
        let sit = try Self.motionSense("sit_13_sub_1")
        let move = try Self.motionSense(name)
        let s0 = sit.samples[0].timestamp, m0 = move.samples[0].timestamp
        let start = 20.0
        let samples = sit.samples.filter { $0.timestamp - s0 < start }.map { s -> MotionSample in var s = s; s.timestamp -= s0; return s }
            + move.samples.map { s -> MotionSample in var s = s; s.timestamp = s.timestamp - m0 + start; return s }
        let result = try CartReplay.run(trace: Trace(samples: samples, metadata: move.metadata), options: .init(seed: 1))
        let held = try #require(Self.holds(result).first { $0.t > start && $0.why != nil })
        #expect(held.t - start <= 1.5, "held at \(held.t)")
        #expect(Self.gestures(result).count <= 2, "\(Self.gestures(result))")
        #expect(Self.gestures(result).allSatisfy { $0.t < held.t })
    }

    /// `first` then `second` back to back on one clock (`second` from `at` seconds), the join a stop.
    static func joined(_ first: Trace, _ second: Trace, secondSamples: Int) -> (trace: Trace, stop: Double) {
        let f0 = first.samples[0].timestamp, s0 = second.samples[0].timestamp
        let stop = first.samples.last!.timestamp - f0 + 0.02
        let samples = first.samples.map { s -> MotionSample in var s = s; s.timestamp -= f0; return s }
            + second.samples.prefix(secondSamples).map { s -> MotionSample in var s = s; s.timestamp = s.timestamp - s0 + stop; return s }
        return (Trace(samples: samples, metadata: first.metadata), stop)
    }

    /// Walking, then sitting: held while walking, resumed a few seconds after the walk stops (a
    /// whole still window), and the walk's jolts left in the buffers do not fire on resume.
    @Test(.needsSharedData(Recordings.motionSenseFolder)) func gesturesResumeWhenThePlayerIsStillAgain() throws {
        let (trace, stop) = Self.joined(try Self.motionSense("wlk_15_sub_1"), try Self.motionSense("sit_13_sub_1"), secondSamples: 1500)
        let result = try CartReplay.run(trace: trace, options: .init(seed: 1))
        #expect(Self.gestures(result).isEmpty, "\(Self.gestures(result))")
        let resumed = try #require(Self.holds(result).last)
        #expect(resumed.why == nil)
        // A still window is 4 s long, so the earliest resume is 4 s after the last step; MotionSense's
        // phone rides in a trouser pocket, where the steps ending say nothing of play.
        #expect((stop + 3.5...stop + 6.5).contains(resumed.t), "resumed at \(resumed.t), walk stopped at \(stop)")
        #expect(Self.holds(result).filter { $0.why == nil }.count == 1, "\(Self.holds(result))")
    }

    /// The same from the bundled recordings (a fresh clone, CI): a jog with the phone in a pocket,
    /// then standing with it still there. The jog's hold ends a whole still window after it, but the
    /// phone is stowed (upright in the pocket), so the gestures wait for it to be held toward the
    /// player, still; x-io's board lying face up then brings them back.
    @Test func afterAJogTheGesturesWaitForThePocketedPhoneToBeHeldTowardThePlayer() throws {
        let (jogThenStand, stop) = Self.joined(try Recordings.motionSense("jog_16_sub_1"), try Recordings.motionSense("std_14_sub_1"),
                                               secondSamples: 500)
        let board = try Recordings.xio()
        let b0 = board.samples[0].timestamp
        let up = jogThenStand.samples.last!.timestamp + 0.02
        let faceUp = board.samples.filter { $0.timestamp - b0 < 6 }
            .map { s -> MotionSample in var s = s; s.timestamp = s.timestamp - b0 + up; return s }
        #expect(faceUp.allSatisfy { $0.acceleration.z < -0.9 })   // lying face up, as a player's pad in the hands
        let trace = Trace(samples: jogThenStand.samples + faceUp, metadata: jogThenStand.metadata)
        let result = try CartReplay.run(trace: trace, options: .init(seed: 1))
        let holds = Self.holds(result)
        #expect(Self.gestures(result).isEmpty, "\(Self.gestures(result))")
        #expect(holds.contains { $0.why == "running - gestures paused" && $0.t < stop }, "\(holds)")
        let away = try #require(holds.first { $0.why == ActivityGate.Hold.awayFromPlayer.message }, "\(holds)")
        #expect((stop + 3.5...stop + 6.5).contains(away.t), "stowed at \(away.t), jog stopped at \(stop)")
        let opened = holds.filter { $0.why == nil }
        #expect(opened.count == 1, "\(holds)")
        let resumed = try #require(opened.first)
        // the fusion's gravity first turns to the board's, in about 4 s (the recordings are joined
        // without a turn for the gyro to see), then a second still
        #expect((up + 1...up + 6).contains(resumed.t), "resumed at \(resumed.t), held toward the player at \(up)")
    }

    /// A walker who stops with the phone in a pocket, stands still long enough for a still window
    /// (x-io's board at rest, turned into the walk's pose), then walks on: the first step from
    /// standing pushes the phone down as a duck does, so the gestures stay held while it stays
    /// stowed (UCI HAPT's walkers, a phone on the waist, fired 70 ducks that way).
    @Test func aWalkerStandingStillWithThePhoneStowedFiresNothingWhenWalkingOn() throws {
        let (trace, go) = try Self.pocketWalkWithAPause(restSeconds: 10, pauseFrom: 0)
        let result = try CartReplay.run(trace: trace, options: .init(seed: 1))
        let holds = Self.holds(result)
        #expect(holds.contains { $0.why == ActivityGate.Hold.awayFromPlayer.message && $0.t < go }, "\(holds)")
        #expect(!holds.contains { $0.why == nil }, "\(holds)")
        #expect(Self.gestures(result).isEmpty, "\(Self.gestures(result))")
    }

    /// Oxford's walker with the phone in hand, face up toward them (cut mid-stride at 60 s), then
    /// x-io's board at rest (its first `restSeconds`) turned into the walker's pose, accelerometer
    /// only as Oxford's phone records; with `walkAgain`, the walk from 60 s on after the rest.
    /// Returns the trace and when the rest starts and ends.
    static func handWalkThatStops(restSeconds: Double, walkAgain: Bool) throws -> (trace: Trace, stop: Double, go: Double) {
        let walk = try OxfordTraces.trace("user2_hand")
        let w0 = walk.samples[0].timestamp
        let rest = try Recordings.xio()
        let r0 = rest.samples[0].timestamp
        let resting = rest.samples.filter { $0.timestamp - r0 < restSeconds }
        var samples = walk.samples.filter { $0.timestamp - w0 < 60 }.map { s -> MotionSample in var s = s; s.timestamp -= w0; return s }
        func meanDirection(_ samples: some Collection<MotionSample>) -> Vector3 {
            samples.reduce(Vector3(0, 0, 0)) { $0 + $1.acceleration }.normalized
        }
        let from = meanDirection(resting), to = meanDirection(samples.suffix(100))
        let turn = Quaternion(axis: from.cross(to).normalized, angle: acos(min(1, from.dot(to))))
        let stop = samples.last!.timestamp + 0.01
        samples += resting.map { MotionSample(timestamp: $0.timestamp - r0 + stop, acceleration: turn.rotate($0.acceleration)) }
        let go = samples.last!.timestamp + 0.01
        if walkAgain {
            samples += walk.samples.filter { $0.timestamp - w0 >= 60 && $0.timestamp - w0 < 90 }
                .map { s -> MotionSample in var s = s; s.timestamp = s.timestamp - w0 - 60 + go; return s }
        }
        return (Trace(samples: samples, metadata: walk.metadata), stop, go)
    }

    /// A player holding the device to play who stops walking gets the gestures back about a second
    /// after the last step (4 s without the steps' own stillness check: a whole still window).
    @Test func aPlayerHoldingTheDeviceWhoStopsGetsTheGesturesBackWithinASecond() throws {
        let (trace, stop, _) = try Self.handWalkThatStops(restSeconds: 9, walkAgain: false)
        let result = try CartReplay.run(trace: trace, options: .init(seed: 1))
        let holds = Self.holds(result)
        #expect(holds.contains { $0.why == "walking - gestures paused" && $0.t < stop }, "\(holds)")
        let resumed = try #require(holds.last { $0.t > stop - 1 }, "\(holds)")
        #expect(resumed.why == nil)
        #expect(resumed.t - stop <= 1.25, "resumed \(resumed.t - stop) s after the walk stopped")
        #expect(Self.gestures(result).isEmpty, "\(Self.gestures(result))")
    }

    /// …and walking on after a short stop, within the 4 s the windows still hold the old steps, is
    /// held again on the new steps' rhythm within a second and a half: its first strides fire at
    /// most two gestures, as a walk starting mid-game does.
    @Test func walkingOnAfterAShortStopIsHeldAgain() throws {
        let (trace, stop, go) = try Self.handWalkThatStops(restSeconds: 2.5, walkAgain: true)
        let result = try CartReplay.run(trace: trace, options: .init(seed: 1))
        let holds = Self.holds(result)
        let resumed = try #require(holds.first { $0.t > stop && $0.why == nil }, "\(holds)")
        #expect(resumed.t < go, "\(holds)")
        let heldAgain = try #require(holds.first { $0.t > go && $0.why != nil }, "\(holds)")
        #expect(heldAgain.t - go <= 1.5, "held again \(heldAgain.t - go) s after the walk went on")
        #expect(!holds.contains { $0.t > heldAgain.t && $0.why == nil }, "\(holds)")
        #expect(Self.gestures(result).count <= 2, "\(Self.gestures(result))")
        #expect(Self.gestures(result).allSatisfy { $0.t < heldAgain.t })
    }

    /// mPower's pocketed walk for 15 s, a pause of `restSeconds` (x-io's board from `pauseFrom` s,
    /// turned into the walk's pose), then the rest of the walk. Returns when the walk goes on.
    static func pocketWalkWithAPause(restSeconds: Double, pauseFrom: Double) throws -> (trace: Trace, go: Double) {
        let walk = try Recordings.mPowerWalk()
        let w0 = walk.samples[0].timestamp
        let rest = try Recordings.xio()
        let r0 = rest.samples[0].timestamp
        let resting = rest.samples.filter { $0.timestamp - r0 >= pauseFrom && $0.timestamp - r0 < pauseFrom + restSeconds }
        var samples = walk.samples.filter { $0.timestamp - w0 < 15 }.map { s -> MotionSample in var s = s; s.timestamp -= w0; return s }
        func meanDirection(_ samples: some Collection<MotionSample>) -> Vector3 {
            samples.reduce(Vector3(0, 0, 0)) { $0 + $1.acceleration }.normalized
        }
        let from = meanDirection(resting), to = meanDirection(samples)
        let turn = Quaternion(axis: from.cross(to).normalized, angle: acos(min(1, from.dot(to))))
        let stop = samples.last!.timestamp + 0.01
        let p0 = resting.first!.timestamp
        samples += resting.map { MotionSample(timestamp: $0.timestamp - p0 + stop, acceleration: turn.rotate($0.acceleration)) }
        let go = samples.last!.timestamp + 0.01
        samples += walk.samples.filter { $0.timestamp - w0 >= 15 }
            .map { s -> MotionSample in var s = s; s.timestamp = s.timestamp - w0 - 15 + go; return s }
        return (Trace(samples: samples, metadata: walk.metadata), go)
    }

    /// UCI HAPT's walkers pausing at a corridor's end, turning: no window is still, and the hold
    /// ends after 6 s of windows without a gait, which the windows' length judges late, once the
    /// walk has gone on. Its steps are already jolting the device, so the hold stays (it had ended
    /// there, and the next steps fired 3-5 ducks). The pause: x-io's board rolled in the hand.
    @Test(arguments: [6.5, 7.0, 8.0]) func aWalkGoingOnAfterAPauseIsNotReopened(_ restSeconds: Double) throws {
        let (trace, go) = try Self.pocketWalkWithAPause(restSeconds: restSeconds, pauseFrom: 30)
        let result = try CartReplay.run(trace: trace, options: .init(seed: 1))
        let holds = Self.holds(result)
        #expect(!holds.contains { $0.why == nil && $0.t > go }, "\(holds), walk went on at \(go)")
        #expect(!Self.gestures(result).contains { $0.t > go }, "\(Self.gestures(result))")
    }

    /// mPower's walk (bundled; Apache-2.0): someone outside the labelled set, iPhone in a pocket,
    /// 30 s. Held from the first steps to the last, never reopened, nothing fired.
    @Test func aWalkBySomeoneOutsideTheLabelledSetIsHeldThroughout() throws {
        let result = try CartReplay.run(trace: try Recordings.mPowerWalk(), options: .init(seed: 1))
        #expect(Self.gestures(result).isEmpty, "\(Self.gestures(result))")
        let holds = Self.holds(result)
        #expect(holds.contains { $0.why == "walking - gestures paused" })
        #expect(!holds.contains { $0.why == nil }, "\(holds)")
    }

    /// A climber faster or slower than MotionSense's: the stairs replayed at another pace (time
    /// scaled, so rotation rate by 1/scale and user acceleration by 1/scale²). Faster climbing
    /// makes strong jolts a hand-stroke rule reads as smooth (2 windows in a row); slower climbing
    /// turns a pocketed leg's swing into steps that reverse one step apart (runs of 7). Before the
    /// hand rules needed a run while the call was walking, the gate reopened and fired 1 (faster)
    /// and 9 (slower, subject 2) gestures.
    static func atPace(_ trace: Trace, scale: Double) -> Trace {
        let samples = trace.samples.map { s -> MotionSample in
            var s = s
            let gravity = s.reference?.gravity ?? s.acceleration
            let user = s.acceleration - gravity
            s.timestamp *= scale
            s.acceleration = gravity + user / (scale * scale)
            s.rotationRate = s.rotationRate.map { $0 / scale }
            return s
        }
        return Trace(samples: samples, metadata: trace.metadata)
    }

    @Test func aFasterClimberIsHeldThroughout() throws {
        let result = try CartReplay.run(trace: Self.atPace(try Recordings.motionSense("ups_12_sub_1"), scale: 0.8), options: .init(seed: 1))
        #expect(Self.gestures(result).isEmpty, "\(Self.gestures(result))")
        #expect(!Self.holds(result).contains { $0.why == nil }, "\(Self.holds(result))")
    }

    @Test(.needsSharedData(Recordings.motionSenseFolder)) func aSlowerClimberIsHeldThroughout() throws {
        let result = try CartReplay.run(trace: Self.atPace(try Self.motionSense("ups_12_sub_2"), scale: 1.15), options: .init(seed: 1))
        #expect(Self.gestures(result).isEmpty, "\(Self.gestures(result))")
        #expect(!Self.holds(result).contains { $0.why == nil }, "\(Self.holds(result))")
    }
}

/// The HUD line that says why gestures are held, drawn offscreen with real GL.
@Suite(.serialized) struct CartActivityHUDTests {
    @Test func theHoldLineIsDrawnTopCentre() throws {
        let size = PixelSize(width: 640, height: 360)
        let rules = CartRules.standard
        var state = CartState(seed: 3, rules: rules)
        state.step(CartCommand(start: true), rules: rules)
        let view = CartView(previous: state, current: state, alpha: 0, rules: rules)
        let images = try withHeadlessGraphics(size: size) { graphics, shaders, target in
            let renderer = try CartRenderer(graphics: graphics, shaders: shaders)
            return [nil, "walking - gestures paused"].map { hold -> Image in
                graphics.beginPass(size: size, target: target, action: PassAction(clearColor: Color(0.06, 0.05, 0.06)))
                renderer.drawScene(view, rules: rules, size: size)
                let facts = CartHUD.Facts(sinceJump: nil, sinceDuck: nil, jumpLevel: 0, duckLevel: 0, settings: .standard,
                                          pose: .gamepad, sourceName: "test", gestureHold: hold)
                CartHUD.draw(view, facts: facts, overlay: renderer.overlay, size: size)
                renderer.overlay.draw(size: size)
                let image = graphics.readPixels()
                graphics.endPass()
                return image
            }
        }
        // Orange text pixels in the band under the score and speed panels, centred.
        func orange(_ image: Image, xs: Range<Int>) -> Int {
            var count = 0
            for y in 96..<130 {
                for x in xs {
                    let p = image.pixel(x: x, y: y)
                    if p.r > 200 && (110...190).contains(p.g) && p.b < 110 { count += 1 }
                }
            }
            return count
        }
        let text = Overlay.measure("walking - gestures paused", scale: 2).width
        let centre = (320 - Int(text) / 2)..<(320 + Int(text) / 2)
        #expect(orange(images[0], xs: centre) < 20)
        #expect(orange(images[1], xs: centre) > 300)
        #expect(orange(images[1], xs: 0..<(centre.lowerBound - 12)) + orange(images[1], xs: (centre.upperBound + 12)..<640) < 20)
    }
}
