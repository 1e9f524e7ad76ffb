import Motion

/// Sample by sample, how long the device has been free of jolts, and whether the jolts since a
/// moment fall into a step's rhythm. The activity windows are 4 s long, so they cannot say a walk
/// ended sooner than 4 s after its last step; a player who stops expects the gestures back at once.
/// A step is a jolt: the measured acceleration's magnitude off 1 g by `joltThreshold`, the feature
/// the activity windows judge gait by (its direction sways with a standing body; its size does not).
/// Walking with the device in a hand deviates 0.2–0.3 g (standard deviation) from 1 g, in a pocket
/// more, while a player standing or sitting holds it within 0.03 g (`MotionActivitySettings.stillDeviation`).
///
///     var settling = StepSettling()
///     settling.push(motion)
///     if settling.quietFor(motion.timestamp) >= 1 { /* the steps have stopped, the device held still */ }
///     if settling.stepsSince(resumedAt) >= 3 { /* a walk again */ }
struct StepSettling: Sendable {
    /// ||a| − 1|, g, above which a sample is a jolt: well above a standing body's sway, well below a
    /// step's. Measured on the bundled and MotionSense walks, jogs and stairs and Oxford's twelve
    /// walks: no 0.8 s without one until the walker stops; standing after a jog, none at all.
    static let joltThreshold = 0.12
    /// rad/s above which the device is being handled, not held: quiet needs it still as well (a
    /// standing body sways it under 0.3 rad/s; sitting down or taking it from a pocket turns it faster).
    static let handlingRate = 0.6
    /// |user acceleration|, g, above which the device is not settled: a standing body's sway reads
    /// up to 0.1 g, a duck needs 0.2 g.
    static let unsettledAcceleration = 0.15
    /// Onsets closer than this to the step before are that step's own ringing (3.6 steps/s at most,
    /// `MotionActivitySettings.stepRate`); one further apart than `longestStep` starts a new rhythm
    /// (1 step/s at least).
    static let shortestStep = 0.25
    static let longestStep = 1.0

    private var lastJolt: Double?
    private var lastHandled: Double?
    private var inJolt = false
    /// Recent jolt onsets, oldest first (only the last few are ever asked for).
    private var onsets: [Double] = []

    mutating func push(_ motion: DeviceMotion) {
        let t = motion.timestamp
        let jolt = abs((motion.gravity + motion.userAcceleration).length - 1) > Self.joltThreshold
        // Quiet is more than no jolt: no fast turn, and a fusion whose gravity has met the
        // measurement (its user acceleration is what the gestures read).
        if motion.rotationRate.length > Self.handlingRate || motion.userAcceleration.length > Self.unsettledAcceleration {
            lastHandled = t
        }
        if jolt {
            if !inJolt, onsets.last.map({ t - $0 >= Self.shortestStep }) ?? true {
                onsets.append(t)
                if onsets.count > 8 { onsets.removeFirst(onsets.count - 8) }
            }
            lastJolt = t
        }
        inJolt = jolt
    }

    /// Seconds since the last jolt or fast turn (infinite before any).
    func quietFor(_ now: Double) -> Double {
        now - max(lastJolt ?? -.infinity, lastHandled ?? -.infinity)
    }

    /// The longest run of jolt onsets after `since`, each a step's spacing after the one before.
    func stepsSince(_ since: Double) -> Int {
        var best = 0, run = 0
        var previous: Double?
        for onset in onsets where onset > since {
            if let p = previous, onset - p <= Self.longestStep { run += 1 } else { run = 1 }
            best = max(best, run)
            previous = onset
        }
        return best
    }

    /// Forgets everything (a gap in the samples).
    mutating func reset() { self = StepSettling() }
}
