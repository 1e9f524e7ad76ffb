/// The rules: one fixed tick of the game for one command.
extension CartState {
    public mutating func step(_ command: CartCommand, rules: CartRules) {
        events.removeAll(keepingCapacity: true)
        switch phase {
        case .title, .gameOver:
            if command.start { startGame(rules: rules) }
        case .paused(.player):
            if command.togglePause || command.start { phase = .playing; events.append(.resumed) }
        case .paused(.deviceLost):
            break  // waits for `deviceReturned()`
        case .playing:
            if command.togglePause {
                phase = .paused(reason: .player)
                events.append(.paused(.player))
                return
            }
            play(command, rules: rules)
        }
    }

    /// The motion source stopped sending: pause with a message (only a running game pauses).
    public mutating func deviceLost(_ message: String) {
        guard phase == .playing || phase == .paused(reason: .player) else { return }
        phase = .paused(reason: .deviceLost(message))
        events.append(.paused(.deviceLost(message)))
    }

    /// Samples flow again: a game paused for a lost device resumes.
    public mutating func deviceReturned() {
        guard case .paused(.deviceLost) = phase else { return }
        phase = .playing
        events.append(.resumed)
    }

    private mutating func startGame(rules: CartRules) {
        // A new track from the generator's current state: the seed still fixes every game.
        self = CartState(seed: random.next(), rules: rules)
        phase = .playing
        events = [.started]
    }

    private mutating func play(_ command: CartCommand, rules: CartRules) {
        let dt = rules.tickInterval
        playTicks += 1
        lean = max(-1.4, min(1.4, command.lean.isFinite ? command.lean : 0))
        airTimeLeft = max(0, airTimeLeft - dt)
        duckTimeLeft = max(0, duckTimeLeft - dt)
        recoveryLeft = max(0, recoveryLeft - dt)
        if command.jump && !isAirborne {
            airTimeLeft = rules.jumpDuration
            duckTimeLeft = 0
            events.append(.jumped)
        }
        if command.duck && !isAirborne && !isDucking {
            duckTimeLeft = rules.duckDuration
            events.append(.ducked)
        }

        let accelerating = isRecovering ? -rules.acceleration * 20 : rules.acceleration
        speed = max(rules.startSpeed, min(rules.maxSpeed, speed + accelerating * dt))
        let from = distance
        distance += speed * dt
        passItems(between: from, and: distance, rules: rules)
        if phase == .playing {
            items.removeAll { $0.distance < distance - 10 }
            generator.extend(&items, to: distance + rules.lookahead, speed: speed, rules: rules, random: &random)
        }
    }

    /// Resolves every item the cart's front passed in this tick, in track order.
    private mutating func passItems(between from: Double, and to: Double, rules: CartRules) {
        for item in items where item.distance > from && item.distance <= to {
            switch item.kind {
            case .gem(let lane):
                if Lane.reached(byLean: lean, reach: rules.laneReach) == lane {
                    score += rules.gemPoints
                    gemsCollected += 1
                    events.append(.gemCollected(itemID: item.id, lane: lane))
                } else {
                    events.append(.gemMissed(itemID: item.id))
                }
            case .obstacle:
                resolveHazard(item, cleared: isAirborne, rules: rules)
            case .beam:
                resolveHazard(item, cleared: isDucking, rules: rules)
            }
            if phase != .playing { return }
        }
    }

    private mutating func resolveHazard(_ item: TrackItem, cleared: Bool, rules: CartRules) {
        if cleared {
            score += rules.clearPoints
            events.append(.cleared(itemID: item.id))
        } else if isRecovering {
            events.append(.cleared(itemID: item.id))  // knocked aside while recovering, no points
        } else {
            crashes += 1
            livesLeft -= 1
            recoveryLeft = rules.recoveryDuration
            events.append(.crashed(itemID: item.id))
            if livesLeft <= 0 {
                phase = .gameOver
                events.append(.gameOver(score: score))
            }
        }
    }
}
