import ArgumentParser
import Demo
import Engine
import Foundation
import Motion

/// The window and headless-render options the demo scenes share (`teapot`, `cart`).
struct WindowOptions: ParsableArguments {
    @Option(help: "Window or image size, WIDTHxHEIGHT.")
    var size: String = "1280x720"

    @Flag(help: "No window: render offscreen (needs --frames; cart also takes --events instead).")
    var headless = false

    @Option(help: "Stop after this many frames.")
    var frames: Int?

    @Option(help: "Write the last frame to this PNG file.")
    var screenshot: String?

    @Option(help: "Headless: start this many seconds into the trace.")
    var at: Double = 0

    @Flag(help: "Do not wait for the display's refresh.")
    var noVsync = false

    @Flag(help: "Start in full screen.")
    var fullscreen = false

    @Flag(help: "No progress lines on stderr while --headless renders \(RenderProgress.minimumFrames) frames or more.")
    var quiet = false

    func validate() throws {
        guard PixelSize(parsing: size) != nil else { throw ValidationError("--size must look like 1280x720, got '\(size)'") }
        if let frames, frames < 1 { throw ValidationError("--frames must be at least 1") }
        guard at >= 0, at.isFinite else { throw ValidationError("--at must be a time in seconds, 0 or more") }
    }

    func runOptions(title: String, clearColor: Color? = nil, sampleCount: Int = 1) -> DemoRunOptions {
        var options = DemoRunOptions(title: title, size: PixelSize(parsing: size)!, headless: headless, frames: frames,
                                     screenshotPath: screenshot, vsync: !noVsync, fullscreen: fullscreen,
                                     sampleCount: sampleCount)
        if let clearColor { options.clearColor = clearColor }
        if headless && !quiet, let frames, frames >= RenderProgress.minimumFrames {
            let progress = RenderProgress(command: title.lowercased(), total: frames)
            options.progress = { drawn, _ in progress.frameDrawn(drawn) }
        }
        return options
    }
}

/// Exit codes and messages the demo commands share.
enum DemoExit {
    static func code(_ error: EngineError) -> Int32 {
        switch error {
        case .noWindowSystem, .windowCreationFailed: return 3
        case .openGLUnavailable: return 4
        case .shaderFileMissing, .shaderCompileFailed, .shaderLinkFailed: return 5
        case .imageWriteFailed, .imageReadFailed: return 7
        case .invalidDescription, .resourceCreationFailed: return 1
        }
    }

    static func fail(_ command: String, _ message: String, code: Int32) -> Never {
        FileHandle.standardError.write(Data("tiltkit \(command): \(message)\n".utf8))
        Foundation.exit(code)
    }
}
