import CartGame
import Demo
import Motion

/// The cart game's gesture latency on the live path, in wall-clock time: a trace replayed in
/// real time through `MotionManager` (the source's own thread, the push queue) and a
/// `CartPlayer` ticked at 60 Hz by the wall clock, as the window does. Each gesture's latency
/// runs from the crossing sample reaching the game's push handler to the tick that acts on it.
enum GestureLatencyProbe {
    /// x-io's two tips toward the user (15.3 s and 24.8 s), looped: two jumps a pass.
    static let segment = 14.0...26.0

    /// Latencies in ns, and the gestures seen, over `seconds` of wall time at `speed`.
    static func measure(_ recording: Recording, speed: Double, seconds: Double) throws -> (Distribution, gestures: Int) {
        let first = recording.samples.first?.timestamp ?? 0
        let samples = recording.samples.filter { segment.contains($0.timestamp - first) }
        let trace = Trace(samples: samples.isEmpty ? recording.samples : samples, metadata: TraceMetadata(source: recording.name))
        let input = SceneMotionInput(source: ReplaySource(trace: trace, pacing: .realTime(speed: speed), loop: true))
        let player = CartPlayer(motion: input, settings: .standard, pose: nil, session: CartSession(seed: 1, autostart: true))
        try player.start()
        defer { player.stop() }
        var histogram = Distribution.makeHistogram()
        var gestures = 0
        let interval = Nanoclock.nanoseconds(CartRules.standard.tickInterval)
        var next = Nanoclock.now()
        let end = next + Nanoclock.nanoseconds(seconds)
        while next < end {
            next += interval
            Nanoclock.sleep(until: next)
            let step = player.tick(buttons: ButtonInput())
            for firing in [step.motion?.jump, step.motion?.duck] {
                guard let firing else { continue }
                histogram.record(Nanoclock.nanoseconds(Swift.max(0, step.time - firing.arrivalTime)))
                gestures += 1
            }
        }
        return (Distribution(histogram, unitsPerNanosecond: 1), gestures)
    }
}
