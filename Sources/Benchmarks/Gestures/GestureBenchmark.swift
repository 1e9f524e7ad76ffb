import CartGame
import Demo
import Foundation
import Motion
import MotionEvaluation

/// `tiltkit bench gestures`: the cart game's headless replay (the window's path: source → manager →
/// pushed device motion → `GestureInput`) over every recording of the labelled gesture set, scored
/// by `GestureScore`. The pose is the label's (BROAD's trials start flat: the pad pose, as a player
/// who chose it), else detected by the game.
public struct GestureBenchmark {
    public var labels: [GestureLabel]
    /// The shared data folder the labels' paths are relative to.
    public var data: URL
    public var controls: MotionControlSettings

    public init(labels: [GestureLabel], data: URL, controls: MotionControlSettings = .standard) {
        self.labels = labels
        self.data = data
        self.controls = controls
    }

    public struct Report: Sendable, Encodable {
        public var score: GestureScore
        /// Recordings scored, and those absent from the data folder (skipped).
        public var recordings: [String]
        public var missing: [String]
        /// Per recording, when asked for plots: the jump buffer mean at each frame and the fires.
        public var traces: [String: (levels: [Double], fires: [(t: Double, gesture: CartReplayEvent.Gesture)])] = [:]
        /// The set scored again over scaled thresholds, when asked for (`--thresholds`).
        public var curve: GestureThresholdCurve?

        enum CodingKeys: String, CodingKey { case score, recordings, missing, curve }
    }

    /// The recordings in label order, each once.
    public var recordingNames: [String] {
        var seen = Set<String>()
        return labels.map(\.recording).filter { seen.insert($0).inserted }
    }

    public func run(keepLevels: Bool = false, progress: (String) -> Void = { _ in }) throws -> Report {
        var score = GestureScore()
        var scored: [String] = [], missing: [String] = []
        var traces: [String: (levels: [Double], fires: [(t: Double, gesture: CartReplayEvent.Gesture)])] = [:]
        for name in recordingNames {
            let url = data.appendingPathComponent(name)
            guard FileManager.default.fileExists(atPath: url.path) else { missing.append(name); continue }
            progress(name)
            let mine = labels.filter { $0.recording == name }
            let replay = try Self.replay(url: url, pose: mine.first?.pose, controls: controls, keepLevels: keepLevels)
            score.add(labels: mine, recording: name, seconds: replay.seconds, fires: replay.fires)
            if keepLevels { traces[name] = (replay.levels, replay.fires) }
            scored.append(name)
        }
        return Report(score: score, recordings: scored, missing: missing, traces: traces)
    }

    /// The gestures the game fires over one recording (frame times from its first sample), the
    /// recording's length, and the jump buffer's mean at each frame when `keepLevels`.
    public static func replay(url: URL, pose: HoldingPose?, controls: MotionControlSettings, keepLevels: Bool = false)
        throws -> (levels: [Double], fires: [(t: Double, gesture: CartReplayEvent.Gesture)], seconds: Double) {
        let trace: Trace
        if url.path.contains("/broad/") {
            let trial = try BroadTrial.load(contentsOf: url)
            trace = Trace(samples: trial.samples, metadata: TraceMetadata(source: trial.name))
        } else {
            trace = try Trace.load(contentsOf: url)
        }
        var options = CartReplay.Options(seed: 1, pose: pose)
        options.controls = controls
        options.keepLevels = keepLevels
        let result = try CartReplay.run(trace: trace, options: options)
        return (result.jumpLevels, result.events.compactMap {
            if case .gesture(let t, let gesture, _, _) = $0 { (t, gesture) } else { nil }
        }, trace.duration)
    }
}
