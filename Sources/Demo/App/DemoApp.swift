import Engine
import Foundation

/// A scene the app loop drives, in raylib's order: events, then update, then draw; the loop
/// owns the window, the timing and the screenshot. Update logic never draws and draw never
/// changes state.
public protocol DemoScene: AnyObject {
    /// A key or resize (quit, fullscreen and vsync keys are the loop's unless the scene handles
    /// them first: return true to consume the event).
    func handle(_ event: WindowEvent, controls: DemoControls) -> Bool
    /// Advances the scene to `frame.time`. Pull input here, once per frame.
    func update(_ frame: DemoFrame)
    /// Draws into the pass in progress (already cleared by the loop), `frame.size` pixels.
    func draw(_ frame: DemoFrame, graphics: Graphics)
}

/// What one frame knows about time and the target.
public struct DemoFrame: Sendable {
    /// Frames since the start, 0 first.
    public var index: Int
    /// Seconds since the start: wall time, or `index / 60` in headless runs (so a screenshot at
    /// frame N always shows the same moment).
    public var time: Double
    /// Seconds since the previous frame (1/60 in headless runs).
    public var deltaTime: Double
    public var size: PixelSize
    /// Recent frame durations, seconds, measured on the wall clock even in headless runs.
    public var timer: FrameTimer
    public var vsync: Bool
}

/// What a scene may ask of the loop while handling an event.
public final class DemoControls {
    public private(set) var quitRequested = false
    fileprivate let window: Window

    fileprivate init(window: Window) { self.window = window }

    public func quit() { quitRequested = true }
    public func toggleFullscreen() { window.setFullscreen(!window.isFullscreen) }
    public func toggleVSync() { window.setVSync(!window.vsync) }
    public var isFullscreen: Bool { window.isFullscreen }
    public var vsync: Bool { window.vsync }
}

/// How to run: window or headless, how long, and whether to keep the last frame as a PNG.
public struct DemoRunOptions: Sendable {
    public var title: String
    public var size: PixelSize
    public var headless: Bool
    /// Stop after this many frames (nil: until quit). Headless runs need a count.
    public var frames: Int?
    /// Write the last frame here as PNG.
    public var screenshotPath: String?
    public var vsync: Bool
    public var fullscreen: Bool
    public var clearColor: Color
    /// Frame rate of the deterministic clock in headless runs, Hz.
    public var headlessFrameRate: Double
    /// Called after each headless frame with the frames drawn and `frames` (a long render's progress line).
    public var progress: (@Sendable (_ drawn: Int, _ total: Int) -> Void)?
    /// Samples per pixel: 1 (the default) is aliased but cheapest; 4 smooths edges but costs Mesa's
    /// software renderer about ten times the frame time at 1280×720 (measured: 5.8 → 57 ms p50).
    public var sampleCount: Int

    public init(title: String = "Tiltkit", size: PixelSize = PixelSize(width: 1280, height: 720),
                headless: Bool = false, frames: Int? = nil, screenshotPath: String? = nil,
                vsync: Bool = true, fullscreen: Bool = false, clearColor: Color = Color(0.08, 0.09, 0.12),
                headlessFrameRate: Double = 60, sampleCount: Int = 1) {
        self.sampleCount = sampleCount
        self.title = title
        self.size = size
        self.headless = headless
        self.frames = frames
        self.screenshotPath = screenshotPath
        self.vsync = vsync
        self.fullscreen = fullscreen
        self.clearColor = clearColor
        self.headlessFrameRate = headlessFrameRate
    }
}

/// The window, the GL layer and the loop, shared by the demos (sokol_app's init/frame/event/cleanup).
///
///     let app = try DemoApp(options)                       // window + GL 3.3 check
///     let scene = try TeapotScene(graphics: app.graphics, shaders: app.shaders, …)
///     try app.run(scene)                                   // until quit or `frames`
///     app.close()
public final class DemoApp {
    public let options: DemoRunOptions
    public let window: Window
    public let graphics: Graphics
    public let shaders: ShaderLibrary
    /// The offscreen target of headless runs (the hidden window's framebuffer may be 1×1).
    private let target: RenderTargetID?

    public init(_ options: DemoRunOptions, shaders: ShaderLibrary = .locate()) throws(EngineError) {
        self.options = options
        self.shaders = shaders
        window = try Window(WindowDesc(title: options.title, size: options.size, vsync: options.vsync,
                                       fullscreen: options.fullscreen, headless: options.headless,
                                       sampleCount: options.headless ? 1 : options.sampleCount))
        do {
            graphics = try Graphics()
            target = options.headless
                ? try graphics.makeRenderTarget(RenderTargetDesc(size: options.size, sampleCount: options.sampleCount)) : nil
        } catch {
            window.close()
            throw error
        }
    }

    /// Frames a headless screenshot run draws, the last ones of its `frames`.
    static let framesDrawnForAScreenshot = 8

    /// Runs frames until the scene or the user quits, or `options.frames` have been drawn, then
    /// writes the screenshot if one was asked for. Returns the number of frames drawn.
    @discardableResult
    public func run(_ scene: DemoScene) throws(EngineError) -> Int {
        let controls = DemoControls(window: window)
        var timer = FrameTimer()
        var size = options.headless ? options.size : window.drawableSize
        let start = Window.monotonicSeconds()
        var previousTime = 0.0
        var index = 0
        var lastImage: Image?
        while !controls.quitRequested {
            if let limit = options.frames, index >= limit { break }
            for event in window.pollEvents() {
                if scene.handle(event, controls: controls) { continue }
                switch event {
                case .quit, .keyDown(.escape): controls.quit()
                case .keyDown(.f11): controls.toggleFullscreen()
                case .resized(let s) where !options.headless: size = s
                default: break
                }
            }
            if controls.quitRequested { break }
            let wall = Window.monotonicSeconds()
            // A headless screenshot run shows nothing but its last frame, and update never reads
            // what draw did: only its last few frames are drawn (enough for the HUD's frame time to
            // be a drawn frame's), the rest are stepped (software GL drew a 3000-frame one for a minute).
            let drawn = !options.headless || options.screenshotPath == nil
                || options.frames.map { index + Self.framesDrawnForAScreenshot >= $0 } ?? true
            if drawn { timer.tick(now: wall) }
            let time = options.headless ? Double(index) / options.headlessFrameRate : wall - start
            let frame = DemoFrame(index: index, time: time, deltaTime: index == 0 ? 0 : time - previousTime,
                                  size: size, timer: timer, vsync: window.vsync)
            previousTime = time
            scene.update(frame)
            let isLast = options.frames.map { index + 1 >= $0 } ?? false
            if drawn {
                graphics.beginPass(size: size, target: target, action: PassAction(clearColor: options.clearColor))
                scene.draw(frame, graphics: graphics)
                if isLast && options.screenshotPath != nil { lastImage = graphics.readPixels() }
                graphics.endPass()
            }
            if !options.headless { window.swapBuffers() }
            index += 1
            if options.headless, let total = options.frames { options.progress?(index, total) }
        }
        if let path = options.screenshotPath {
            // Quit before the last frame (a key in a windowed run): keep what is on screen now.
            let image = lastImage ?? screenshotNow(scene, index: index, size: size, timer: timer)
            try image.writePNG(to: path)
        }
        return index
    }

    /// Releases GL objects, the context and the window.
    public func close() {
        graphics.shutdown()
        window.close()
    }

    private func screenshotNow(_ scene: DemoScene, index: Int, size: PixelSize, timer: FrameTimer) -> Image {
        let frame = DemoFrame(index: index, time: Double(index) / options.headlessFrameRate, deltaTime: 0,
                              size: size, timer: timer, vsync: window.vsync)
        graphics.beginPass(size: size, target: target, action: PassAction(clearColor: options.clearColor))
        scene.draw(frame, graphics: graphics)
        let image = graphics.readPixels()
        graphics.endPass()
        return image
    }
}
