/// Everything the engine reports instead of crashing. Each case's description is a sentence
/// a user can act on; `tiltkit` maps the cases to exit codes.
public enum EngineError: Error, CustomStringConvertible, Equatable, Sendable {
    /// SDL could not open a video device: no X11/Wayland display and no offscreen driver.
    case noWindowSystem(detail: String)
    /// The window itself could not be created.
    case windowCreationFailed(detail: String)
    /// No OpenGL context of the required version; `found` names what the driver offers, if anything.
    case openGLUnavailable(required: String, found: String?, detail: String)
    /// A shader source file is not where the library looked; `searched` lists every folder
    /// `ShaderLibrary.locate` tried when none had the shaders.
    case shaderFileMissing(path: String, searched: [String] = [])
    /// A shader stage did not compile; `log` is the driver's compile log.
    case shaderCompileFailed(file: String, log: String)
    /// The program did not link; `log` is the driver's link log.
    case shaderLinkFailed(name: String, log: String)
    /// A resource description was rejected before reaching GL (empty mesh, wrong sizes).
    case invalidDescription(String)
    /// A GL object could not be created (framebuffer incomplete, out of memory).
    case resourceCreationFailed(String)
    /// Writing an image file failed.
    case imageWriteFailed(path: String, detail: String)
    /// Reading an image file failed (missing, not a PNG).
    case imageReadFailed(path: String, detail: String)

    public var description: String {
        switch self {
        case .noWindowSystem(let detail):
            return "no window system: SDL could not open a video device (\(detail)). "
                + "Set DISPLAY or WAYLAND_DISPLAY, run under xvfb-run, or use --headless "
                + "(SDL's offscreen driver)."
        case .windowCreationFailed(let detail):
            return "could not create the window: \(detail)"
        case .openGLUnavailable(let required, let found, let detail):
            let offer = found.map { "the driver offers \($0)" } ?? "the driver offers no OpenGL context at all"
            return "OpenGL \(required) is required but not available: \(offer) (\(detail)). "
                + "Update the graphics driver or Mesa, or try LIBGL_ALWAYS_SOFTWARE=1."
        case .shaderFileMissing(let path, let searched):
            let tried = searched.isEmpty ? "" : "; searched \(searched.joined(separator: ", "))"
            return "shader file missing: \(path) (set TILTKIT_SHADERS to the folder holding the .vert/.frag files\(tried))"
        case .shaderCompileFailed(let file, let log):
            return "shader \(file) failed to compile:\n\(log)"
        case .shaderLinkFailed(let name, let log):
            return "shader program \(name) failed to link:\n\(log)"
        case .invalidDescription(let what):
            return "invalid description: \(what)"
        case .resourceCreationFailed(let what):
            return "could not create a GL resource: \(what)"
        case .imageWriteFailed(let path, let detail):
            return "could not write \(path): \(detail)"
        case .imageReadFailed(let path, let detail):
            return "could not read \(path) as an image: \(detail)"
        }
    }
}
