/// One game as a pure step per fixed tick, in two halves: first the source's health (a lost
/// source pauses the game), then the tick's motion frame and held buttons become the command
/// the rules step on. The window and the headless replay both drive this, so a recording
/// played either way takes one path.
///
///     var session = CartSession(seed: 1, autostart: true)
///     if session.follow(health) == .back { gestures.resetGestures() }   // before polling them
///     let tick = session.tick(CartSession.Input(motion: frame, buttons: held))
public struct CartSession: Hashable, Sendable {
    public struct Input: Hashable, Sendable {
        /// The motion controls' frame for this tick; nil without motion (or while it is stopped).
        public var motion: MotionControls.Frame?
        /// Keys and pad held now (edges are found here).
        public var buttons: ButtonInput

        public init(motion: MotionControls.Frame?, buttons: ButtonInput = ButtonInput()) {
            self.motion = motion
            self.buttons = buttons
        }
    }

    public struct Tick: Hashable, Sendable {
        public var command: CartCommand
        /// The player started a game on this tick: the caller re-detects the holding pose (not
        /// on an autostart's restart after a game over, which the player did not ask for).
        public var redetectPose: Bool
        /// Whether motion updates should run after this tick (off while paused or over, so the
        /// source is released).
        public var motionWanted: Bool
    }

    public enum DeviceChange: Hashable, Sendable {
        case lost(String)
        case back
    }

    public let rules: CartRules
    /// Start a game at the title and again at once when one ends (headless runs, benchmarks).
    public let autostart: Bool
    public private(set) var previous: CartState
    public private(set) var current: CartState
    /// Games started, and points over the games that ended.
    public private(set) var games = 0
    public private(set) var finishedScore = 0
    private var buttons = ButtonInput()
    private var sourceLost = false

    public init(seed: UInt64, rules: CartRules = .standard, autostart: Bool = false) {
        self.rules = rules
        self.autostart = autostart
        current = CartState(seed: seed, rules: rules)
        previous = current
    }

    /// Points over every game, the one in progress included.
    public var totalScore: Int { finishedScore + current.score }

    public mutating func tick(_ input: Input) -> Tick {
        buttons.leanAxis = input.buttons.leanAxis
        buttons.jumpHeld = input.buttons.jumpHeld
        buttons.duckHeld = input.buttons.duckHeld
        buttons.startHeld = input.buttons.startHeld
        buttons.pauseHeld = input.buttons.pauseHeld
        var command = buttons.mix(with: input.motion?.command ?? .idle)
        let restart = autostart && current.phase == .gameOver
        if autostart && (current.phase == .title || restart) {
            if restart { finishedScore += current.score }
            command.start = true
        }
        previous = current
        current.step(command, rules: rules)
        let started = current.events.contains(.started)
        if started { games += 1 }
        return Tick(command: command, redetectPose: started && !restart, motionWanted: wantsMotion)
    }

    /// Before each tick: a lost source pauses the game (again each tick, so a game started
    /// meanwhile pauses too); its return resumes it. Returns the change, if any: on `.back`
    /// the caller forgets old gestures before polling them.
    public mutating func follow(_ health: SourceHealth) -> DeviceChange? {
        switch health {
        case .lost(let message):
            current.deviceLost(message)
            guard !sourceLost else { return nil }
            sourceLost = true
            return .lost(message)
        case .delivering:
            guard sourceLost else { return nil }
            sourceLost = false
            current.deviceReturned()
            return .back
        }
    }

    private var wantsMotion: Bool {
        switch current.phase {
        case .paused(.player): return false
        case .gameOver: return autostart
        case .playing, .title, .paused(.deviceLost): return true
        }
    }
}
