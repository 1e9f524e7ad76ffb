import CSDL2
import Foundation

// The one place the engine talks to SDL for windows and contexts; input comes through the
// window's `SDLEventPump`. The GL layer gets a current context, the app gets `WindowEvent`s.

/// Everything to open a window; call sites name only what differs.
///
///     let window = try Window(WindowDesc(title: "Teapot", size: PixelSize(width: 1280, height: 720)))
///     let headless = try Window(WindowDesc(headless: true))   // hidden; render into a RenderTarget
public struct WindowDesc: Sendable {
    public var title: String
    public var size: PixelSize
    public var vsync: Bool
    public var fullscreen: Bool
    public var resizable: Bool
    /// No visible window: uses SDL's offscreen driver when there is no display, and a hidden
    /// window otherwise. Draw into a `RenderTarget`; the window's own framebuffer may be 1×1.
    public var headless: Bool
    /// Samples per pixel of the window's framebuffer (4 smooths edges); falls back to 1 when the
    /// driver has no multisampled configuration.
    public var sampleCount: Int

    public init(title: String = "Tiltkit", size: PixelSize = PixelSize(width: 1280, height: 720),
                vsync: Bool = true, fullscreen: Bool = false, resizable: Bool = true, headless: Bool = false,
                sampleCount: Int = 1) {
        self.sampleCount = sampleCount
        self.title = title
        self.size = size
        self.vsync = vsync
        self.fullscreen = fullscreen
        self.resizable = resizable
        self.headless = headless
    }
}

/// What the window reports to the app, once per `pollEvents`.
public enum WindowEvent: Hashable, Sendable {
    case quit
    case keyDown(Key)
    case keyUp(Key)
    /// The drawable area changed, in pixels.
    case resized(PixelSize)
}

/// A key, independent of the platform. Letters and digits are their lowercase ASCII character.
///
///     if event == .keyDown(.character("r")) { state.resetReferenceAttitude() }
public struct Key: Hashable, Sendable, CustomStringConvertible {
    /// The platform key code (SDL_Keycode values).
    public let code: Int32

    public init(code: Int32) { self.code = code }

    /// The key that types `c` (lowercase letters, digits, punctuation).
    public static func character(_ c: Character) -> Key { Key(code: Int32(c.asciiValue ?? 0)) }

    public static let escape = Key(code: Int32(SDLK_ESCAPE.rawValue))
    public static let space = Key(code: Int32(SDLK_SPACE.rawValue))
    public static let enter = Key(code: Int32(SDLK_RETURN.rawValue))
    public static let tab = Key(code: Int32(SDLK_TAB.rawValue))
    public static let left = Key(code: Int32(SDLK_LEFT.rawValue))
    public static let right = Key(code: Int32(SDLK_RIGHT.rawValue))
    public static let up = Key(code: Int32(SDLK_UP.rawValue))
    public static let down = Key(code: Int32(SDLK_DOWN.rawValue))
    public static let f1 = Key(code: Int32(SDLK_F1.rawValue))
    public static let f11 = Key(code: Int32(SDLK_F11.rawValue))
    public static let keypadPlus = Key(code: Int32(SDLK_KP_PLUS.rawValue))
    public static let keypadMinus = Key(code: Int32(SDLK_KP_MINUS.rawValue))

    public var description: String {
        if code >= 0x20 && code < 0x7F, let scalar = Unicode.Scalar(UInt32(code)) { return String(Character(scalar)) }
        return String(cString: SDL_GetKeyName(code))
    }
}

/// An SDL window with an OpenGL 3.3 core context current on the creating thread.
public final class Window {
    /// The SDL video driver in use ("x11", "wayland", "offscreen").
    public let videoDriver: String
    public let isHeadless: Bool
    private let window: OpaquePointer
    private let context: SDL_GLContext
    public private(set) var vsync: Bool
    public private(set) var isFullscreen: Bool
    private var closed = false

    /// Opens the window and its context. Fails with `.noWindowSystem` when SDL finds no video
    /// device and `.openGLUnavailable` (naming the version the driver does offer) without GL 3.3 core.
    public init(_ desc: WindowDesc) throws(EngineError) {
        // SDL's video subsystem is process-wide: tests on parallel threads take turns opening and closing.
        Window.lifecycle.lock()
        defer { Window.lifecycle.unlock() }
        let env = ProcessInfo.processInfo.environment
        if desc.headless, env["SDL_VIDEODRIVER"] == nil, env["DISPLAY"] == nil, env["WAYLAND_DISPLAY"] == nil {
            setenv("SDL_VIDEODRIVER", "offscreen", 1)
        }
        if SDL_InitSubSystem(UInt32(SDL_INIT_VIDEO)) != 0 {
            let detail = Window.sdlError()
            // Headless needs no display: a DISPLAY naming a server that is gone should not stop it.
            guard desc.headless, env["SDL_VIDEODRIVER"] == nil else { throw .noWindowSystem(detail: detail) }
            setenv("SDL_VIDEODRIVER", "offscreen", 1)
            guard SDL_InitSubSystem(UInt32(SDL_INIT_VIDEO)) == 0 else {
                throw .noWindowSystem(detail: "\(detail); offscreen: \(Window.sdlError())")
            }
        }
        videoDriver = SDL_GetCurrentVideoDriver().map { String(cString: $0) } ?? "unknown"
        isHeadless = desc.headless
        // Without a display SDL falls back to drivers that show nothing; a window nobody can see
        // is an error unless asked for (headless, or SDL_VIDEODRIVER set by the user).
        if !desc.headless, env["SDL_VIDEODRIVER"] == nil, ["offscreen", "dummy", "evdev"].contains(videoDriver) {
            SDL_QuitSubSystem(UInt32(SDL_INIT_VIDEO))
            throw .noWindowSystem(detail: "no X11 or Wayland display; only SDL's invisible '\(videoDriver)' driver is available")
        }

        var flags = SDL_WINDOW_OPENGL.rawValue | SDL_WINDOW_ALLOW_HIGHDPI.rawValue
        if desc.headless { flags |= SDL_WINDOW_HIDDEN.rawValue }
        if desc.resizable && !desc.headless { flags |= SDL_WINDOW_RESIZABLE.rawValue }
        if desc.fullscreen && !desc.headless { flags |= SDL_WINDOW_FULLSCREEN_DESKTOP.rawValue }
        let center = Int32(0x2FFF0000)  // SDL_WINDOWPOS_CENTERED (a macro Swift cannot import)
        func open(samples: Int) -> (OpaquePointer?, SDL_GLContext?) {
            Window.requestCoreContext(samples: samples)
            guard let w = SDL_CreateWindow(desc.title, center, center, Int32(desc.size.width), Int32(desc.size.height), flags) else {
                return (nil, nil)
            }
            return (w, SDL_GL_CreateContext(w))
        }
        var (window, context) = open(samples: desc.sampleCount)
        if context == nil && desc.sampleCount > 1 {  // no multisampled configuration: try without
            if let w = window { SDL_DestroyWindow(w) }
            (window, context) = open(samples: 1)
        }
        guard let window else {
            let detail = Window.sdlError()
            SDL_QuitSubSystem(UInt32(SDL_INIT_VIDEO))
            throw .windowCreationFailed(detail: detail)
        }
        guard let context else {
            let detail = Window.sdlError()
            let offered = Window.probeAnyContext(window)
            SDL_DestroyWindow(window)
            SDL_QuitSubSystem(UInt32(SDL_INIT_VIDEO))
            throw .openGLUnavailable(required: "3.3 core", found: offered, detail: detail)
        }
        self.window = window
        self.context = context
        self.isFullscreen = desc.fullscreen && !desc.headless
        self.vsync = false
        SDL_GL_MakeCurrent(window, context)
        GLLibraryPin.pinMappedLibraries()
        setVSync(desc.vsync && !desc.headless)
    }

    deinit { close() }

    /// Destroys the context and window. Call `Graphics.shutdown()` first.
    public func close() {
        guard !closed else { return }
        Window.lifecycle.lock()
        defer { Window.lifecycle.unlock() }
        closed = true
        SDL_GL_DeleteContext(context)
        SDL_DestroyWindow(window)
        SDL_QuitSubSystem(UInt32(SDL_INIT_VIDEO))
    }

    /// Makes the context current on the calling thread (needed when work moves between threads).
    public func makeCurrent() { SDL_GL_MakeCurrent(window, context) }

    /// The framebuffer size in pixels (differs from the window size on high-DPI screens).
    public var drawableSize: PixelSize {
        var w: Int32 = 0, h: Int32 = 0
        SDL_GL_GetDrawableSize(window, &w, &h)
        return PixelSize(width: Int(w), height: Int(h))
    }

    /// Shows the frame just drawn.
    public func swapBuffers() { SDL_GL_SwapWindow(window) }

    /// Turns waiting for the display's refresh on or off; returns whether the driver accepted it.
    @discardableResult public func setVSync(_ on: Bool) -> Bool {
        let ok = SDL_GL_SetSwapInterval(on ? 1 : 0) == 0
        if ok { vsync = on }
        return ok
    }

    /// Switches between a window and borderless full screen at the desktop's resolution.
    public func setFullscreen(_ on: Bool) {
        guard !isHeadless else { return }
        if SDL_SetWindowFullscreen(window, on ? SDL_WINDOW_FULLSCREEN_DESKTOP.rawValue : 0) == 0 { isFullscreen = on }
    }

    public func setTitle(_ title: String) { SDL_SetWindowTitle(window, title) }

    /// The window's event pump: set `events.controllerEvents` to hand controller events to a source.
    public let events = SDLEventPump()

    /// Everything that happened since the last call, in order (controller events go to `events`).
    public func pollEvents() -> [WindowEvent] { events.poll { drawableSize } }

    /// Seconds since an arbitrary origin, monotonic (frame timing).
    public static func monotonicSeconds() -> Double {
        Double(SDL_GetPerformanceCounter()) / Double(SDL_GetPerformanceFrequency())
    }

    private static let lifecycle = NSLock()

    private static func requestCoreContext(samples: Int = 1) {
        SDL_GL_SetAttribute(SDL_GL_MULTISAMPLEBUFFERS, samples > 1 ? 1 : 0)
        SDL_GL_SetAttribute(SDL_GL_MULTISAMPLESAMPLES, samples > 1 ? Int32(samples) : 0)
        SDL_GL_SetAttribute(SDL_GL_CONTEXT_MAJOR_VERSION, 3)
        SDL_GL_SetAttribute(SDL_GL_CONTEXT_MINOR_VERSION, 3)
        SDL_GL_SetAttribute(SDL_GL_CONTEXT_PROFILE_MASK, Int32(SDL_GL_CONTEXT_PROFILE_CORE.rawValue))
        SDL_GL_SetAttribute(SDL_GL_DOUBLEBUFFER, 1)
        SDL_GL_SetAttribute(SDL_GL_DEPTH_SIZE, 24)
    }

    /// After a 3.3 core request failed: what does the driver give without constraints?
    private static func probeAnyContext(_ window: OpaquePointer) -> String? {
        SDL_GL_ResetAttributes()
        defer { requestCoreContext() }
        guard let ctx = SDL_GL_CreateContext(window) else { return nil }
        defer { SDL_GL_DeleteContext(ctx) }
        SDL_GL_MakeCurrent(window, ctx)
        let version = glVersionString()
        return version.map { "OpenGL \($0)" }
    }

    private static func sdlError() -> String {
        let message = String(cString: SDL_GetError())
        return message.isEmpty ? "no detail from SDL" : message
    }
}

/// GL_VERSION via SDL's loader, so this file needs no GL headers (0x1F02 is GL_VERSION).
private func glVersionString() -> String? {
    typealias GetString = @convention(c) (UInt32) -> UnsafePointer<UInt8>?
    guard let sym = SDL_GL_GetProcAddress("glGetString") else { return nil }
    let getString = unsafeBitCast(sym, to: GetString.self)
    return getString(0x1F02).map { String(cString: $0) }
}
