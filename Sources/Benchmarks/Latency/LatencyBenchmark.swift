import Foundation
import Motion

/// `bench latency`: how long a sample takes from entering the motion manager (its arrival stamp,
/// taken on the source's thread when the source hands it over) to being visible to a pull, and
/// from that pull to the end of the frame that shows it (teapot, headless), and the cart game's
/// gesture latency in wall-clock time (`GestureLatencyProbe`).
public struct LatencyBenchmark: Sendable {
    public struct Settings: Sendable {
        /// Seconds of spinning on the pull to catch each new sample.
        public var visibilitySeconds = 3.0
        /// Replay speed (10 turns x-io's 100 Hz recording into a 1 kHz source).
        public var replaySpeed = 10.0
        /// Seconds of wall time the cart game plays x-io's tips live, and at what replay speed.
        public var gestureSeconds = 24.0
        public var gestureReplaySpeed = 2.0
        public var frames = FrameBenchmark.Settings()

        public init() {}

        public static var quick: Settings {
            var s = Settings()
            s.visibilitySeconds = 0.1
            s.gestureSeconds = 1.5
            s.gestureReplaySpeed = 8
            s.frames = .quick
            return s
        }
    }

    public struct Report: Codable, Sendable {
        public var source: String
        /// Arrival → first pull that returns it, ns (consumer spinning on `latestDeviceMotion`).
        public var arrivalToVisible: Distribution
        /// Samples caught / samples published during the spin: below 1 means the spinning consumer
        /// was descheduled while samples came and went.
        public var caughtFraction: Double
        /// Cost of `MotionManager.latestDeviceMotion`, the game's real pull, ns per pull (batches of 100).
        public var managerPullCost: Distribution
        /// Heap allocations on the consumer thread inside those pulls.
        public var managerPullAllocations: UInt64
        /// The frame half; nil when no OpenGL context could be made (the reason is in `frameSkipped`).
        public var frame: FrameBenchmark.SceneResult?
        public var frameSkipped: String?
        public var renderer: String?
        /// Crossing sample at the game's push handler → the 60 Hz tick that acts on it, ns (wall clock).
        public var gestureLatency: Distribution
        public var gestures: Int
    }

    public var settings: Settings
    public var recording: Recording

    public init(settings: Settings = Settings(), recording: Recording) {
        self.settings = settings
        self.recording = recording
    }

    public func run(progress: (String) -> Void = { _ in }) throws -> Report {
        progress("source → pull")
        let trace = Trace(samples: recording.samples, metadata: TraceMetadata(source: recording.name))
        let source = ReplaySource(trace: trace, pacing: .realTime(speed: settings.replaySpeed), loop: true)
        let manager = MotionManager(source: source)
        manager.deviceMotionUpdateInterval = 0
        manager.startDeviceMotionUpdates()
        defer { manager.stopDeviceMotionUpdates() }
        while manager.latestDeviceMotion == nil { Nanoclock.sleep(until: Nanoclock.now() + 1_000_000) }

        let firstCount = manager.latestDeviceMotion!.value.timestamp
        let (visible, caught, _) = ArrivalToVisible.spin(manager, until: Nanoclock.now() + UInt64(settings.visibilitySeconds * 1e9))
        // Published during the spin: trace time advanced / the recording's sample period.
        let period = (recording.samples.last!.timestamp - recording.samples.first!.timestamp) / Double(recording.samples.count - 1)
        let published = (manager.latestDeviceMotion!.value.timestamp - firstCount) / period

        progress("pull cost via the manager")
        let (pullCost, pullAllocations) = ManagerPullProbe.measure(manager, seconds: Swift.min(1, settings.visibilitySeconds))
        manager.stopDeviceMotionUpdates()

        progress("gesture → tick (cart game, live)")
        let (gestureLatency, gestures) = try GestureLatencyProbe.measure(recording, speed: settings.gestureReplaySpeed,
                                                                         seconds: settings.gestureSeconds)

        progress("pull → frame end (teapot)")
        var frame: FrameBenchmark.SceneResult?
        var skipped: String?
        var renderer: String?
        do {
            var frameSettings = settings.frames
            frameSettings.replaySpeed = settings.replaySpeed
            let (results, gl, _) = try FrameBenchmark(settings: frameSettings, recording: recording).run([FrameBenchmark.teapot])
            frame = results.first
            renderer = gl
        } catch {
            skipped = "teapot could not run headless: \(error)"
        }
        return Report(source: "\(recording.name) replayed at \(Figure.fixed(settings.replaySpeed, 0))× (\(Figure.fixed(settings.replaySpeed / period, 0)) Hz) through MotionManager, 6-axis fusion",
                      arrivalToVisible: Distribution(visible, unitsPerNanosecond: 1),
                      caughtFraction: published > 0 ? Double(caught) / published : 0,
                      managerPullCost: pullCost, managerPullAllocations: pullAllocations,
                      frame: frame, frameSkipped: skipped, renderer: renderer,
                      gestureLatency: gestureLatency, gestures: gestures)
    }
}

extension LatencyBenchmark.Report {
    public var text: String {
        func us(_ ns: Double) -> String { Figure.fixed(ns / 1000, 1) }
        var t = TextTable(["path", "p50 µs", "p90 µs", "p99 µs", "max µs", "count"])
        t.append(["arrival → visible to a pull", us(arrivalToVisible.p50), us(arrivalToVisible.p90), us(arrivalToVisible.p99),
                  us(arrivalToVisible.max), Figure.count(arrivalToVisible.count)])
        if let f = frame {
            for (name, d) in [("arrival → the frame's pull", f.arrivalToPull), ("the frame's pull → frame end (GPU done)", f.pullToFrameEnd),
                              ("arrival → frame end", f.arrivalToFrameEnd)] {
                t.append([name, us(d.p50), us(d.p90), us(d.p99), us(d.max), Figure.count(d.count)])
            }
        }
        if gestures > 0 {
            let g = gestureLatency
            t.append(["gesture: crossing sample → the cart game's tick", us(g.p50), us(g.p90), us(g.p99), us(g.max),
                      Figure.count(g.count)])
        }
        var lines = ["Source: \(source)",
                     "Consumer spins on MotionManager.latestDeviceMotion and notes each new sample; caught \(Figure.fixed(caughtFraction * 100, 1))% of those published.",
                     "", t.rendered, "",
                     "MotionManager.latestDeviceMotion (the game's pull): p50 \(Figure.fixed(managerPullCost.p50)) ns, p99 \(Figure.fixed(managerPullCost.p99)) ns, p99.9 \(Figure.fixed(managerPullCost.p999)) ns per pull (batches of 100); allocations \(managerPullAllocations)"]
        if let f = frame, let renderer {
            lines.append("Frames: \(f.scene) \(f.size) headless on \(renderer), \(f.frames) frames, \(Figure.fixed(f.framesPerSecond, 1)) fps")
        }
        if let frameSkipped { lines.append("Frame part skipped: \(frameSkipped)") }
        return lines.joined(separator: "\n")
    }
}
