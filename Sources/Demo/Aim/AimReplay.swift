import Motion
import MotionDevices

/// Plays a recording through the range without a window, on the window's path: a
/// `SteppedReplaySource` feeds the `MotionManager`, an `AimPlayer` turns each pushed sample into
/// aim, and the range steps at 60 Hz of trace time with auto-fire. Deterministic.
///
///     let result = try AimReplay.run(trace: trace, options: .init(settings: .default))
///     result.events.forEach { print($0.json) }
public enum AimReplay {
    public struct Options: Hashable, Sendable {
        public var settings: GyroAimSettings
        /// Frames per second of trace time.
        public var frameRate: Double = 60
        /// Aim lines per second.
        public var aimLineRate: Double = 2
        /// nil: the trace's gyro as recorded (fusion still removes its bias estimate).
        public var gyroCalibration: GyroCalibration.Mode?

        public init(settings: GyroAimSettings) { self.settings = settings }
    }

    public enum Event: Hashable, Sendable {
        case aim(t: Double, yaw: Double, pitch: Double)
        case shot(AimRange.Shot)

        public var json: String {
            switch self {
            case .aim(let t, let yaw, let pitch):
                return "{\"t\":\(fmt(t, 2)),\"aim\":{\"yaw\":\(fmt(yaw, 2)),\"pitch\":\(fmt(pitch, 2))}}"
            case .shot(let s):
                let target = s.target.map(String.init) ?? "null"
                return "{\"t\":\(fmt(s.time, 2)),\"shot\":{\"target\":\(target),\"hit\":\(s.target != nil),"
                    + "\"yaw\":\(fmt(s.yaw, 2)),\"pitch\":\(fmt(s.pitch, 2))}}"
            }
        }
    }

    public struct Result: Hashable, Sendable {
        /// Every event in order; empty when `run` handed them to its `onEvent` instead.
        public var events: [Event]
        public var range: AimRange
        public var frames: Int
        /// The view's yaw at every frame, degrees (frame i at i / frameRate s of trace time); empty
        /// with `onEvent`, as `events`.
        public var yawByFrame: [Double]
    }

    public static func run(trace: Trace, options: Options) throws -> Result {
        try run(replay: SteppedReplaySource(trace: trace, loop: false), options: options)
    }

    /// The same over a replay that does not loop (a file's reads it a piece at a time). Given
    /// `onEvent`, each event goes there as it happens and nothing grows with the recording's length
    /// (the command prints them so).
    public static func run(replay: SteppedReplaySource, options: Options, onEvent: ((Event) -> Void)? = nil) throws -> Result {
        precondition(!replay.loop, "a looping replay never ends: pass one made with loop: false")
        let input = SceneMotionInput(steppedReplay: replay, gyroCalibration: options.gyroCalibration)
        let player = AimPlayer(motion: input, settings: options.settings)
        try player.start()
        defer { player.stop() }
        var range = AimRange()
        var events: [Event] = []
        var yawByFrame: [Double] = []
        let emit = onEvent ?? { events.append($0) }
        let dt = 1 / options.frameRate
        let aimEvery = max(1, Int((options.frameRate / options.aimLineRate).rounded()))
        var frame = 0
        while input.connectionState != .ended, replay.sampleCount > 0 {
            input.advance(toFrameTime: Double(frame) * dt)
            let shots = range.step(player.takeDelta(), dt: frame == 0 ? 0 : dt)
            for shot in shots { emit(.shot(shot)) }
            if frame % aimEvery == 0 { emit(.aim(t: range.time, yaw: range.yaw, pitch: range.pitch)) }
            if onEvent == nil { yawByFrame.append(range.yaw) }
            frame += 1
        }
        return Result(events: events, range: range, frames: frame, yawByFrame: yawByFrame)
    }
}

private func fmt(_ v: Double, _ digits: Int) -> String {
    // Fixed digits (no locale, no exponent) so two runs print the same bytes.
    let scale = [1.0, 10, 100, 1000][digits]
    let r = (v * scale).rounded() / scale
    var s = String(r == 0 ? 0 : r)
    if s.hasSuffix(".0") { s.removeLast(2) }
    return s
}
