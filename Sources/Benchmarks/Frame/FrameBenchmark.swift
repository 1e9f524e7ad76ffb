import CartGame
import Demo
import Engine
import Foundation
import Motion

/// `bench frame` and the frame half of `bench latency`: runs a demo scene headless (offscreen,
/// no vsync) at a given size, fed by a real recording replayed through the motion manager, and
/// times every frame from its update to the GPU finishing it.
public struct FrameBenchmark: Sendable {
    public struct Settings: Sendable {
        public var frames = 600
        /// Frames dropped at the start (shader compilation, first uploads).
        public var warmUpFrames = 30
        public var size = PixelSize(width: 1280, height: 720)
        /// Replay speed of the recording (10 turns x-io's 100 Hz into a 1 kHz source).
        public var replaySpeed = 10.0

        public init() {}

        public static var quick: Settings {
            var s = Settings()
            s.frames = 12
            s.warmUpFrames = 2
            return s
        }
    }

    /// A scene to time: its name and how to build it on the app's GL context, given the motion
    /// source to pull from. Returns the scene and the pull it makes each frame.
    public struct SceneMaker: Sendable {
        public var name: String
        /// The scene's own background, where it has one (the app's default otherwise).
        public var clearColor: Color?
        public var make: @Sendable (DemoApp, any MotionSource) throws -> (scene: DemoScene, pull: () -> Received<DeviceMotion>?, stop: () -> Void)

        public init(name: String, clearColor: Color? = nil,
                    make: @escaping @Sendable (DemoApp, any MotionSource) throws -> (scene: DemoScene, pull: () -> Received<DeviceMotion>?, stop: () -> Void)) {
            self.name = name
            self.clearColor = clearColor
            self.make = make
        }
    }

    public struct SceneResult: Codable, Sendable {
        public var scene: String
        public var size: String
        public var frames: Int
        /// Update start to GPU done, ns.
        public var frameTime: Distribution
        public var framesPerSecond: Double
        /// Pulled sample's arrival at the manager → the frame's pull, ns.
        public var arrivalToPull: Distribution
        /// The frame's pull → the frame finished on the GPU, ns.
        public var pullToFrameEnd: Distribution
        /// Arrival → frame finished: how old the motion on screen is, ns.
        public var arrivalToFrameEnd: Distribution
    }

    public var settings: Settings
    public var recording: Recording

    public init(settings: Settings = Settings(), recording: Recording) {
        self.settings = settings
        self.recording = recording
    }

    /// The teapot demo in fusion mode, as `tiltkit teapot` builds it.
    public static let teapot = SceneMaker(name: "teapot") { app, source in
        let input = SceneMotionInput(source: source)
        let state = TeapotState(mode: .fusion, pivot: .object)
        state.configure(input.manager)
        try input.start()
        let renderer = try TeapotRenderer(graphics: app.graphics, shaders: app.shaders, rig: state.rig)
        return (TeapotScene(state: state, input: input, renderer: renderer), { input.pull() }, { input.stop() })
    }

    /// The cart game started at once, leaning by the pulled device motion, as `tiltkit cart` builds it.
    public static let cartGame = SceneMaker(name: "cart game", clearColor: CartRenderer.background) { app, source in
        let player = CartPlayer(motion: SceneMotionInput(source: source), settings: .standard, pose: nil,
                                session: CartSession(seed: 1, autostart: true))
        try player.start()
        let renderer = try CartRenderer(graphics: app.graphics, shaders: app.shaders)
        let scene = CartScene(renderer: renderer, player: player, gamepad: nil)
        return (scene, { player.motion?.pull() }, { player.stop() })
    }

    /// Runs each scene in its own headless app and returns its summary, the GL renderer used and
    /// each scene's frame times in ns (for plots).
    public func run(_ scenes: [SceneMaker], progress: (String) -> Void = { _ in })
        throws -> (results: [SceneResult], renderer: String, frameTimes: [String: [Double]])
    {
        var results: [SceneResult] = []
        var frameTimes: [String: [Double]] = [:]
        var renderer = ""
        for maker in scenes {
            progress(maker.name)
            let trace = Trace(samples: recording.samples, metadata: TraceMetadata(source: recording.name))
            let source = ReplaySource(trace: trace, pacing: .realTime(speed: settings.replaySpeed), loop: true)
            var options = DemoRunOptions(title: "tiltkit bench", size: settings.size, headless: true,
                                         frames: settings.frames + settings.warmUpFrames, vsync: false)
            if let clearColor = maker.clearColor { options.clearColor = clearColor }
            let app = try DemoApp(options)
            defer { app.close() }
            renderer = GLInfo.current().summary
            let (scene, pull, stop) = try maker.make(app, source)
            defer { stop() }
            let timed = TimedScene(scene, pull: pull)
            try app.run(timed)
            timed.finishOpenFrame()
            let kept = Array(timed.timings.dropFirst(settings.warmUpFrames))
            results.append(FrameBenchmark.summarise(maker.name, size: settings.size, kept))
            frameTimes[maker.name] = kept.map { Double($0.frameTime) }
        }
        return (results, renderer, frameTimes)
    }

    static func summarise(_ name: String, size: PixelSize, _ timings: [FrameTiming]) -> SceneResult {
        let frameTimes = timings.map { Double($0.frameTime) }
        let withSample = timings.filter { $0.arrival != nil }
        let mean = frameTimes.isEmpty ? 0 : frameTimes.reduce(0, +) / Double(frameTimes.count)
        return SceneResult(
            scene: name, size: "\(size.width)×\(size.height)", frames: timings.count,
            frameTime: Distribution(nanoseconds: frameTimes), framesPerSecond: mean > 0 ? 1e9 / mean : 0,
            arrivalToPull: Distribution(nanoseconds: withSample.map { Double($0.pulled &- Swift.min($0.pulled, $0.arrival!)) }),
            pullToFrameEnd: Distribution(nanoseconds: withSample.map { Double($0.end &- $0.pulled) }),
            arrivalToFrameEnd: Distribution(nanoseconds: withSample.map { Double($0.end &- Swift.min($0.end, $0.arrival!)) }))
    }
}
