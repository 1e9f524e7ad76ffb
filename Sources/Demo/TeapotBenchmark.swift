import Engine
import Foundation
import Motion

/// Frame-time measurement for `tiltkit bench frame`: renders the teapot scene (HUD included)
/// headless into an offscreen target, fed by the bundled trace stepped at 60 Hz, and times each
/// frame from the start of its update to the end of its GPU work (`glFinish`).
public enum TeapotBenchmark {
    /// Renders `frames` frames at `size` after `warmUp` untimed ones and returns each timed frame's
    /// duration in seconds. Throws `EngineError` without a window system or GL 3.3, and the trace's
    /// error when `trace` cannot be read.
    public static func run(frames: Int, size: PixelSize = PixelSize(width: 1280, height: 720), warmUp: Int = 10,
                           trace: Trace? = nil, mode: TeapotMode = .fusion, pivot: TeapotPivot = .object,
                           shaders: ShaderLibrary = .locate()) throws -> [Double] {
        let replayTrace: Trace
        if let trace {
            replayTrace = trace
        } else {
            guard let url = AssetLocator.defaultTrace else {
                throw EngineError.invalidDescription("the bundled trace \(AssetLocator.defaultTracePath) is missing")
            }
            replayTrace = try Trace.load(contentsOf: url)
        }
        let input = TeapotMotionInput(steppedReplay: FrameSteppedReplay(trace: replayTrace, loop: true), startTime: 15)
        let state = TeapotState(mode: mode, pivot: pivot)
        try input.start(mode: state.mode, gravityCutoff: state.gravityCutoff)
        defer { input.stop() }

        let window = try Window(WindowDesc(size: size, headless: true))
        defer { window.close() }
        let graphics = try Graphics()
        defer { graphics.shutdown() }
        let target = try graphics.makeRenderTarget(RenderTargetDesc(size: size))
        let scene = TeapotScene(state: state, input: input, renderer: try TeapotRenderer(graphics: graphics, shaders: shaders))

        var timer = FrameTimer()
        var times: [Double] = []
        times.reserveCapacity(frames)
        for index in 0..<(warmUp + frames) {
            let start = Window.monotonicSeconds()
            timer.tick(now: start)
            let frame = DemoFrame(index: index, time: Double(index) / 60, deltaTime: index == 0 ? 0 : 1.0 / 60,
                                  size: size, timer: timer, vsync: false)
            scene.update(frame)
            graphics.beginPass(size: size, target: target, action: PassAction(clearColor: Color(0.08, 0.09, 0.12)))
            scene.draw(frame, graphics: graphics)
            graphics.endPass()
            graphics.finish()
            if index >= warmUp { times.append(Window.monotonicSeconds() - start) }
        }
        return times
    }
}
