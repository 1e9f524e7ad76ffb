import Testing
@testable import CartGame

/// Game rules on the fixed tick: collisions, scoring, speed, states, determinism.
@Suite struct CartRulesTests {
    let rules = CartRules.standard

    /// A started game whose track is replaced by `items` (ids in order).
    func game(with items: [TrackItem], seed: UInt64 = 1) -> CartState {
        var state = CartState(seed: seed, rules: rules)
        state.step(CartCommand(start: true), rules: rules)
        state.items = items
        // Nothing else gets generated before these: push the generator past them.
        state.generator = TrackGenerator(runUp: 10_000)
        return state
    }

    /// Ticks until the cart has passed `distance`, giving `command` on the tick `when` says.
    func run(_ state: inout CartState, past distance: Double, command: (CartState) -> CartCommand) -> [CartEvent] {
        var all: [CartEvent] = []
        var ticks = 0
        while state.distance <= distance && state.phase == .playing && ticks < 10_000 {
            state.step(command(state), rules: rules)
            all += state.events
            ticks += 1
        }
        return all
    }

    @Test func titleWaitsForStartThenPlays() {
        var state = CartState(seed: 3, rules: rules)
        state.step(.idle, rules: rules)
        #expect(state.phase == .title)
        #expect(state.distance == 0)
        state.step(CartCommand(start: true), rules: rules)
        #expect(state.phase == .playing)
        #expect(state.events == [.started])
        state.step(.idle, rules: rules)
        #expect(state.distance > 0)
    }

    @Test func obstacleCrashesUnlessJumped() {
        var crashing = game(with: [TrackItem(id: 0, kind: .obstacle, distance: 20)])
        let crashEvents = run(&crashing, past: 21) { _ in .idle }
        #expect(crashEvents.contains(.crashed(itemID: 0)))
        #expect(crashing.livesLeft == rules.lives - 1)

        var jumping = game(with: [TrackItem(id: 0, kind: .obstacle, distance: 20)])
        let jumpEvents = run(&jumping, past: 21) { s in
            CartCommand(jump: s.distance > 20 - s.speed * 0.3 && !s.isAirborne)
        }
        #expect(jumpEvents.contains(.cleared(itemID: 0)))
        #expect(!jumpEvents.contains(.crashed(itemID: 0)))
        #expect(jumping.score == rules.clearPoints)
    }

    @Test func beamCrashesUnlessDucked() {
        var crashing = game(with: [TrackItem(id: 5, kind: .beam, distance: 20)])
        #expect(run(&crashing, past: 21) { _ in .idle }.contains(.crashed(itemID: 5)))

        // Jumping into a beam is no help.
        var jumping = game(with: [TrackItem(id: 5, kind: .beam, distance: 20)])
        #expect(run(&jumping, past: 21) { s in CartCommand(jump: s.distance > 18) }.contains(.crashed(itemID: 5)))

        var ducking = game(with: [TrackItem(id: 5, kind: .beam, distance: 20)])
        let events = run(&ducking, past: 21) { s in CartCommand(duck: s.distance > 20 - s.speed * 0.3) }
        #expect(events.contains(.cleared(itemID: 5)))
        #expect(ducking.crashes == 0)
    }

    @Test func gemsNeedTheLeanOfTheirLane() {
        let items = [TrackItem(id: 0, kind: .gem(.left), distance: 20),
                     TrackItem(id: 1, kind: .gem(.centre), distance: 30),
                     TrackItem(id: 2, kind: .gem(.right), distance: 40)]
        var upright = game(with: items)
        let events = run(&upright, past: 41) { _ in .idle }
        #expect(events.contains(.gemCollected(itemID: 1, lane: .centre)))
        #expect(events.contains(.gemMissed(itemID: 0)))
        #expect(events.contains(.gemMissed(itemID: 2)))
        #expect(upright.score == rules.gemPoints)

        var leaning = game(with: items)
        _ = run(&leaning, past: 41) { s in
            CartCommand(lean: s.distance < 25 ? -0.6 : (s.distance < 35 ? 0.1 : 0.6))
        }
        #expect(leaning.gemsCollected == 3)
        #expect(leaning.score == 3 * rules.gemPoints)
        // Just short of the reach is still the centre lane.
        #expect(Lane.reached(byLean: rules.laneReach * 0.9, reach: rules.laneReach) == .centre)
    }

    @Test func speedRisesToItsCapAndDropsAfterACrash() {
        var state = game(with: [])
        let start = state.speed
        for _ in 0..<600 { state.step(.idle, rules: rules) }
        #expect(state.speed > start + rules.acceleration * 9)
        for _ in 0..<(60 * 400) { state.step(.idle, rules: rules) }
        #expect(state.speed == rules.maxSpeed)

        state.items = [TrackItem(id: 9, kind: .obstacle, distance: state.distance + 1)]
        for _ in 0..<4 { state.step(.idle, rules: rules) }  // 22 m/s: 0.37 m a tick
        #expect(state.isRecovering)
        for _ in 0..<30 { state.step(.idle, rules: rules) }
        #expect(state.speed < rules.maxSpeed)
    }

    @Test func lastLifeEndsTheGameAndStartBeginsAnother() {
        let items = (0..<rules.lives).map { TrackItem(id: $0, kind: .obstacle, distance: 20 + Double($0) * 40) }
        var state = game(with: items)
        _ = run(&state, past: 20 + Double(rules.lives) * 40) { _ in .idle }
        #expect(state.phase == .gameOver)
        #expect(state.events.contains(.gameOver(score: state.score)))
        let overAt = state.distance
        state.step(.idle, rules: rules)
        #expect(state.distance == overAt)
        state.step(CartCommand(start: true), rules: rules)
        #expect(state.phase == .playing)
        #expect(state.livesLeft == rules.lives)
        #expect(state.score == 0)
    }

    @Test func crashesDuringRecoveryAreForgiven() {
        var state = game(with: [TrackItem(id: 0, kind: .obstacle, distance: 20),
                                TrackItem(id: 1, kind: .beam, distance: 22)])
        let events = run(&state, past: 23) { _ in .idle }
        #expect(events.contains(.crashed(itemID: 0)))
        #expect(!events.contains(.crashed(itemID: 1)))
        #expect(state.livesLeft == rules.lives - 1)
    }

    @Test func pauseFreezesAndResumes() {
        var state = game(with: [])
        state.step(.idle, rules: rules)
        state.step(CartCommand(togglePause: true), rules: rules)
        #expect(state.phase == .paused(reason: .player))
        let frozen = state
        for _ in 0..<30 { state.step(CartCommand(lean: 1, jump: true), rules: rules) }
        #expect(state.distance == frozen.distance)
        #expect(!state.isAirborne)
        state.step(CartCommand(togglePause: true), rules: rules)
        #expect(state.phase == .playing)
    }

    @Test func lostDevicePausesUntilItReturns() {
        var state = game(with: [])
        state.deviceLost("controller unplugged")
        #expect(state.phase == .paused(reason: .deviceLost("controller unplugged")))
        state.step(CartCommand(start: true, togglePause: true), rules: rules)
        #expect(state.phase == .paused(reason: .deviceLost("controller unplugged")))
        state.deviceReturned()
        #expect(state.phase == .playing)
        // On the title screen there is nothing to pause.
        var title = CartState(seed: 1, rules: rules)
        title.deviceLost("gone")
        #expect(title.phase == .title)
    }

    @Test func sameSeedSameGameDifferentSeedDifferentTrack() {
        func play(seed: UInt64) -> CartState {
            var state = CartState(seed: seed, rules: rules)
            state.step(CartCommand(start: true), rules: rules)
            var random = SplitMix64(seed: 99)  // a scripted player, itself seeded
            for _ in 0..<(60 * 60) {
                let r = random.nextInt(below: 40)
                state.step(CartCommand(lean: Float(random.nextUnit() - 0.5) * 1.6, jump: r == 0, duck: r == 1,
                                       start: state.phase == .gameOver), rules: rules)
            }
            return state
        }
        #expect(play(seed: 11) == play(seed: 11))
        #expect(play(seed: 11).items != play(seed: 12).items)
    }

    @Test func trackIsGeneratedAheadInOrderWithUniqueIDs() {
        var state = game(with: [])
        state = CartState(seed: 5, rules: rules)
        state.step(CartCommand(start: true), rules: rules)
        for _ in 0..<(60 * 30) { state.step(CartCommand(jump: true), rules: rules) }
        let distances = state.items.map(\.distance)
        #expect(distances == distances.sorted())
        #expect(Set(state.items.map(\.id)).count == state.items.count)
        #expect((distances.last ?? 0) >= state.distance + rules.lookahead - rules.sectionLength * 3)
        #expect(state.items.contains { $0.kind == .obstacle })
        #expect(state.items.contains { $0.kind == .beam })
        #expect(state.items.contains { if case .gem = $0.kind { return true } else { return false } })
    }

    @Test func nonFiniteLeanIsIgnored() {
        var state = game(with: [])
        state.step(CartCommand(lean: .nan), rules: rules)
        #expect(state.lean == 0)
        state.step(CartCommand(lean: 9), rules: rules)
        #expect(state.lean <= 1.4)
    }

    @Test func splitMixMatchesReferenceOutput() {
        // First outputs of SplitMix64 seeded with 1234567 (from the reference C code, splitmix64.c).
        var random = SplitMix64(seed: 1_234_567)
        #expect(random.next() == 6_457_827_717_110_365_317)
        #expect(random.next() == 3_203_168_211_198_807_973)
    }
}
