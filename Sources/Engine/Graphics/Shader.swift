import CGL
import Foundation

/// GLSL sources for one program. Build by hand or with `ShaderLibrary.load(_:)`.
///
///     let desc = ShaderDesc(name: "flat", vertexSource: vs, fragmentSource: fs)
public struct ShaderDesc: Sendable {
    /// Shown in error messages.
    public var name: String
    public var vertexSource: String
    public var fragmentSource: String
    /// Where the sources came from, for error messages ("Shaders/lit.vert"); defaults to the name.
    public var vertexOrigin: String
    public var fragmentOrigin: String

    public init(name: String, vertexSource: String, fragmentSource: String,
                vertexOrigin: String? = nil, fragmentOrigin: String? = nil) {
        self.name = name
        self.vertexSource = vertexSource
        self.fragmentSource = fragmentSource
        self.vertexOrigin = vertexOrigin ?? "\(name).vert"
        self.fragmentOrigin = fragmentOrigin ?? "\(name).frag"
    }
}

/// A linked program and its uniform locations, looked up once and cached.
final class ShaderResource {
    let program: GLuint
    let name: String
    private var locations: [String: GLint] = [:]

    init(program: GLuint, name: String) { self.program = program; self.name = name }

    func location(_ uniform: String) -> GLint {
        if let l = locations[uniform] { return l }
        let l = glGetUniformLocation(program, uniform)
        locations[uniform] = l
        return l
    }
}

extension Graphics {
    /// Compiles and links a program. Errors carry the source file and the driver's log.
    public func makeShader(_ desc: ShaderDesc) throws(EngineError) -> ShaderID {
        let vs = try compile(GLenum(GL_VERTEX_SHADER), desc.vertexSource, origin: desc.vertexOrigin)
        defer { glDeleteShader(vs) }
        let fs = try compile(GLenum(GL_FRAGMENT_SHADER), desc.fragmentSource, origin: desc.fragmentOrigin)
        defer { glDeleteShader(fs) }
        let program = glCreateProgram()
        glAttachShader(program, vs)
        glAttachShader(program, fs)
        glLinkProgram(program)
        var ok: GLint = 0
        glGetProgramiv(program, GLenum(GL_LINK_STATUS), &ok)
        if ok == 0 {
            let log = Self.infoLog(program, isProgram: true)
            glDeleteProgram(program)
            throw .shaderLinkFailed(name: desc.name, log: log)
        }
        return ShaderID(raw: shaders.insert(ShaderResource(program: program, name: desc.name)))
    }

    private func compile(_ stage: GLenum, _ source: String, origin: String) throws(EngineError) -> GLuint {
        let shader = glCreateShader(stage)
        source.withCString { cstr in
            var p: UnsafePointer<GLchar>? = cstr
            glShaderSource(shader, 1, &p, nil)
        }
        glCompileShader(shader)
        var ok: GLint = 0
        glGetShaderiv(shader, GLenum(GL_COMPILE_STATUS), &ok)
        if ok == 0 {
            let log = Self.infoLog(shader, isProgram: false)
            glDeleteShader(shader)
            throw .shaderCompileFailed(file: origin, log: log)
        }
        return shader
    }

    private static func infoLog(_ object: GLuint, isProgram: Bool) -> String {
        var length: GLint = 0
        if isProgram { glGetProgramiv(object, GLenum(GL_INFO_LOG_LENGTH), &length) }
        else { glGetShaderiv(object, GLenum(GL_INFO_LOG_LENGTH), &length) }
        guard length > 1 else { return "(the driver gave no log)" }
        var buffer = [GLchar](repeating: 0, count: Int(length))
        if isProgram { glGetProgramInfoLog(object, length, nil, &buffer) }
        else { glGetShaderInfoLog(object, length, nil, &buffer) }
        let bytes = buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
        return String(decoding: bytes, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }
}

/// Finds `<name>.vert` / `<name>.frag` pairs in a folder (the repository's `Shaders/`).
///
///     let library = try ShaderLibrary.locate()
///     let lit = try gfx.makeShader(library.load("lit"))
public struct ShaderLibrary: Sendable {
    public var directory: URL
    /// Every folder `locate` tried, when none held the shaders (for the missing file's error).
    public var searched: [URL]

    public init(directory: URL, searched: [URL] = []) {
        self.directory = directory
        self.searched = searched
    }

    /// Reads both stages; a missing or unreadable file is `EngineError.shaderFileMissing` naming its path.
    public func load(_ name: String) throws(EngineError) -> ShaderDesc {
        let vert = directory.appendingPathComponent("\(name).vert")
        let frag = directory.appendingPathComponent("\(name).frag")
        return ShaderDesc(name: name, vertexSource: try read(vert), fragmentSource: try read(frag),
                          vertexOrigin: vert.path, fragmentOrigin: frag.path)
    }

    private func read(_ url: URL) throws(EngineError) -> String {
        guard let data = FileManager.default.contents(atPath: url.path) else {
            throw .shaderFileMissing(path: url.path, searched: searched.map(\.path))
        }
        return String(decoding: data, as: UTF8.self)
    }

    /// The first folder that holds `probe` (default "lit.vert"), searching in order:
    /// `$TILTKIT_SHADERS`, `./Shaders`, `Shaders/` and `share/tiltkit/Shaders` beside the executable
    /// and in its parents (a build folder inside the checkout; an installed `PREFIX/bin/tiltkit`),
    /// the checkout this file was compiled from, then `tiltkit/Shaders` in the XDG data folders
    /// (/usr/local/share, /usr/share unless `$XDG_DATA_DIRS` says otherwise).
    /// Falls back to the first candidate, so a later `load` names the path it tried and all it searched.
    public static func locate(probe: String = "lit.vert",
                              executable: String = Bundle.main.executablePath ?? CommandLine.arguments.first ?? "",
                              sourceFile: String = #filePath) -> ShaderLibrary {
        let environment = ProcessInfo.processInfo.environment
        if let env = environment["TILTKIT_SHADERS"], !env.isEmpty {
            return ShaderLibrary(directory: URL(fileURLWithPath: env))
        }
        var candidates: [URL] = []
        candidates.append(URL(fileURLWithPath: FileManager.default.currentDirectoryPath).appendingPathComponent("Shaders"))
        var dir = URL(fileURLWithPath: executable).resolvingSymlinksInPath().deletingLastPathComponent()
        for _ in 0..<6 {
            candidates += [dir.appendingPathComponent("Shaders"), dir.appendingPathComponent("share/tiltkit/Shaders")]
            dir = dir.deletingLastPathComponent()
        }
        // Sources/Engine/Graphics/Shader.swift → the checkout root.
        let root = URL(fileURLWithPath: sourceFile).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        candidates.append(root.appendingPathComponent("Shaders"))
        let dataDirs = environment["XDG_DATA_DIRS"].flatMap { $0.isEmpty ? nil : $0 } ?? "/usr/local/share:/usr/share"
        candidates += dataDirs.split(separator: ":").map { URL(fileURLWithPath: String($0)).appendingPathComponent("tiltkit/Shaders") }
        if let found = candidates.first(where: { FileManager.default.fileExists(atPath: $0.appendingPathComponent(probe).path) }) {
            return ShaderLibrary(directory: found)
        }
        return ShaderLibrary(directory: candidates[0], searched: candidates)
    }
}
