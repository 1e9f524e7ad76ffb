import CartGame
import Motion
import MotionDevices

/// Plays a recording through the game without a window, deterministically, on the same path as
/// the window: a `SteppedReplaySource` feeds the real `MotionManager`, and a `CartPlayer` ticks
/// one `CartSession` at 60 Hz of trace time. Before each tick the replay delivers every sample
/// due by then (pushed inline to the gesture buffers, published for the pull).
///
///     let result = try CartReplay.run(trace: trace, options: .init(seed: 7))
///     result.events.forEach { print($0.json) }
public enum CartReplay {
    public struct Options: Hashable, Sendable {
        public var seed: UInt64
        /// nil: detected from gravity at each game start.
        public var pose: HoldingPose?
        public var controls: MotionControlSettings = .standard
        public var rules: CartRules = .standard
        /// Lean lines per second.
        public var leanRate: Double = 10
        /// nil: the trace's gyro as recorded (the default: a recording keeps what was recorded).
        public var gyroCalibration: GyroCalibration.Mode?
        /// Keep the jump buffer's mean at every frame (`Result.jumpLevels`), for plots.
        public var keepLevels = false

        public init(seed: UInt64, pose: HoldingPose? = nil) {
            self.seed = seed
            self.pose = pose
        }
    }

    public struct Result: Hashable, Sendable {
        /// Every event in order; empty when `run` handed them to its `onEvent` instead.
        public var events: [CartReplayEvent]
        /// Gestures fired, counted whether the events were kept or handed over.
        public var jumps = 0
        public var ducks = 0
        public var finalState: CartState
        public var pose: HoldingPose
        /// Games started (a game that ends restarts at once, so the whole recording is played).
        public var games: Int
        /// Points over all games.
        public var totalScore: Int
        /// Tick time minus the crossing sample's arrival, for every gesture, seconds of trace time.
        public var latencies: [Double]
        public var frames: Int
        /// Samples the estimator rejected (NaN, time going backwards, …).
        public var rejectedSamples: Int
        /// The jump buffer mean (rad/s) at each frame (`rules.tickInterval` apart) when `Options.keepLevels`, else empty.
        public var jumpLevels: [Double] = []
    }

    public static func run(trace: Trace, options: Options) throws -> Result {
        try run(replay: SteppedReplaySource(trace: trace, loop: false), options: options)
    }

    /// The same over a replay that does not loop (a file's reads it a piece at a time). Given
    /// `onEvent`, each event goes there as it happens and none is kept, so a recording of any length
    /// plays in the same memory (the command prints them so).
    public static func run(replay: SteppedReplaySource, options: Options,
                           onEvent: ((CartReplayEvent) -> Void)? = nil) throws -> Result {
        precondition(!replay.loop, "a looping replay never ends: pass one made with loop: false")
        let input = SceneMotionInput(steppedReplay: replay, gyroCalibration: options.gyroCalibration)
        let player = CartPlayer(motion: input, settings: options.controls, pose: options.pose,
                                session: CartSession(seed: options.seed, rules: options.rules, autostart: true))
        try player.start()
        defer { player.stop() }
        let first = replay.firstTimestamp ?? 0
        let leanEvery = max(1, Int((options.rules.tickRate / options.leanRate).rounded()))
        var events: [CartReplayEvent] = []
        let emit = onEvent ?? { events.append($0) }
        var jumps = 0, ducks = 0
        var latencies: [Double] = []
        var frames = 0
        var hold: String?
        var levels: [Double] = []
        while replay.sampleCount > 0 {
            input.advance(toFrameTime: Double(frames) * options.rules.tickInterval)
            let step = player.tick(buttons: ButtonInput())
            switch step.deviceChange {
            case .lost(let message)?: emit(.device(t: step.time, lost: true, message: message))
            case .back?: emit(.device(t: step.time, lost: false, message: "motion is back"))
            case nil: break
            }
            if input.connectionState == .ended { break }
            let nowHeld = player.gestureHold?.message
            if nowHeld != hold {
                emit(.gestureHold(t: step.time, hold: nowHeld))
                hold = nowHeld
            }
            for (gesture, firing) in [(CartReplayEvent.Gesture.jump, step.motion?.jump), (.duck, step.motion?.duck)] {
                guard let firing else { continue }
                emit(.gesture(t: step.time, gesture: gesture, crossedAt: firing.crossingTimestamp - first, mean: firing.mean))
                if gesture == .jump { jumps += 1 } else { ducks += 1 }
                latencies.append(step.time - firing.arrivalTime)
            }
            if frames % leanEvery == 0, let lean = step.motion?.lean {
                emit(.lean(t: step.time, degrees: lean * 180 / Double.pi))
            }
            if options.keepLevels { levels.append(player.gestureLevels.jump) }
            frames += 1
        }
        let session = player.session
        return Result(events: events, jumps: jumps, ducks: ducks, finalState: session.current, pose: player.pose ?? options.pose ?? .gamepad,
                      games: session.games, totalScore: session.totalScore, latencies: latencies, frames: frames,
                      rejectedSamples: input.manager.deviceMotionRejections.total, jumpLevels: levels)
    }
}
