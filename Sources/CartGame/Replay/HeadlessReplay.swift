import Motion

/// Plays a recording through the game without a window, deterministically: virtual frames at
/// a fixed rate on the trace's own time. Before each frame, every sample with a timestamp at or
/// before the frame time goes through the estimator and, thinned to the update interval as the
/// motion manager would, into the push path (`MotionControls.push`) and the pull slot (latest
/// device motion); then the frame pulls, polls the gesture detectors and ticks the game once.
///
///     let result = HeadlessReplay.run(samples: trace.samples, options: .init(seed: 7))
///     result.events.forEach { print($0.json) }
public enum HeadlessReplay {
    public struct Options: Hashable, Sendable {
        public var seed: UInt64
        /// nil: detected from gravity at the first frame.
        public var pose: HoldingPose?
        public var controls: MotionControlSettings = .standard
        public var rules: CartRules = .standard
        public var estimator: DeviceMotionEstimatorKind = .fusion
        /// Lean lines per second.
        public var leanRate: Double = 10
        /// Seconds without a sample after which the device counts as lost (the game pauses).
        public var staleAfter: Double = 0.25

        public init(seed: UInt64, pose: HoldingPose? = nil) {
            self.seed = seed
            self.pose = pose
        }
    }

    public struct Result: Hashable, Sendable {
        public var events: [ReplayEvent]
        public var finalState: CartState
        public var pose: HoldingPose
        /// Games started (a game that ends restarts at once, so the whole recording is played).
        public var games: Int
        /// Points over all games.
        public var totalScore: Int
        /// Frame time minus crossing-sample time for every gesture, seconds.
        public var latencies: [Double]
        public var frames: Int
        /// Samples the estimator rejected (NaN, time going backwards, …).
        public var rejectedSamples: Int
    }

    public static func run(samples: [MotionSample], options: Options) -> Result {
        var estimator = options.estimator.make()
        var thinning = UpdateDecimator(interval: options.controls.updateInterval)
        var controls: MotionControls?
        var latest: DeviceMotion?
        var game = CartState(seed: options.seed, rules: options.rules)
        var events: [ReplayEvent] = []
        var latencies: [Double] = []
        var games = 0, totalScore = 0, frames = 0
        var deviceLost = false
        guard let first = samples.first?.timestamp else {
            return Result(events: [], finalState: game, pose: options.pose ?? .gamepad, games: 0, totalScore: 0,
                          latencies: [], frames: 0, rejectedSamples: 0)
        }
        let frameInterval = options.rules.tickInterval
        let leanEvery = max(1, Int((options.rules.tickRate / options.leanRate).rounded()))
        var next = 0
        var lastSampleTime = -Double.infinity

        while true {
            let frameTime = first + Double(frames) * frameInterval
            // Samples due by this frame: estimator on every sample, push/pull on the thinned ones.
            while next < samples.count && samples[next].timestamp <= frameTime {
                let sample = samples[next]
                next += 1
                lastSampleTime = sample.timestamp
                guard let motion = estimator.update(sample), thinning.admits(motion.timestamp) else { continue }
                latest = motion
                if controls == nil {
                    controls = MotionControls(settings: options.controls,
                                              pose: options.pose ?? HoldingPose.detect(gravity: motion.gravity))
                }
                controls?.push(motion)
            }
            let ended = next >= samples.count && frameTime > lastSampleTime
            let stale = frameTime - lastSampleTime > options.staleAfter
            if (ended || stale) && !deviceLost {
                deviceLost = true
                let message = ended ? "the recording ended" : "no motion for \(fixed(options.staleAfter, 2)) s"
                game.deviceLost(message)
                events.append(.device(t: frameTime - first, lost: true, message: message))
            } else if !stale && deviceLost {
                deviceLost = false
                controls?.reset()
                game.deviceReturned()
                events.append(.device(t: frameTime - first, lost: false, message: "motion is back"))
            }
            if ended { break }

            var command = CartCommand.idle
            if var c = controls {
                let frame = c.frame(latest: latest)
                controls = c
                command = frame.command
                if let jump = frame.jump {
                    events.append(.gesture(t: frameTime - first, gesture: .jump, crossedAt: jump.crossingTimestamp - first, mean: jump.mean))
                    latencies.append(frameTime - jump.crossingTimestamp)
                }
                if let duck = frame.duck {
                    events.append(.gesture(t: frameTime - first, gesture: .duck, crossedAt: duck.crossingTimestamp - first, mean: duck.mean))
                    latencies.append(frameTime - duck.crossingTimestamp)
                }
                if frames % leanEvery == 0, let lean = frame.lean {
                    events.append(.lean(t: frameTime - first, degrees: lean * 180 / Double.pi))
                }
            }
            if game.phase == .title || game.phase == .gameOver {
                if game.phase == .gameOver { totalScore += game.score }
                command.start = true
                games += 1
            }
            game.step(command, rules: options.rules)
            frames += 1
        }
        totalScore += game.score
        return Result(events: events, finalState: game, pose: controls?.pose ?? options.pose ?? .gamepad,
                      games: games, totalScore: totalScore, latencies: latencies, frames: frames,
                      rejectedSamples: estimator.rejections.total)
    }
}
