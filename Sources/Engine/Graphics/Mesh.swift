import CGL

/// The format of one vertex attribute; attributes are interleaved, tightly packed, and bound to
/// shader locations 0, 1, 2… in order.
public enum VertexFormat: Sendable {
    case float2, float3, float4

    public var components: Int {
        switch self {
        case .float2: return 2
        case .float3: return 3
        case .float4: return 4
        }
    }
}

/// How vertices are assembled.
public enum Primitive: Sendable {
    case triangles, lines, lineStrip, points

    var glMode: GLenum {
        switch self {
        case .triangles: return GLenum(GL_TRIANGLES)
        case .lines: return GLenum(GL_LINES)
        case .lineStrip: return GLenum(GL_LINE_STRIP)
        case .points: return GLenum(GL_POINTS)
        }
    }
}

/// Whether a mesh's data is set once or replaced often (HUD batches).
public enum BufferUsage: Sendable { case immutable, dynamic }

/// Everything to create a mesh; only `vertices` and `layout` are required.
///
///     MeshDesc(vertices: positionsAndNormals, layout: [.float3, .float3], indices: triangles)
///     MeshDesc(vertices: [], layout: [.float2, .float2, .float4], usage: .dynamic)   // filled later
public struct MeshDesc: Sendable {
    /// Interleaved attribute values, `layout` repeated per vertex.
    public var vertices: [Float]
    public var layout: [VertexFormat]
    /// Indices into the vertices; empty draws the vertices in order.
    public var indices: [UInt32]
    public var primitive: Primitive
    public var usage: BufferUsage
    public var label: String

    public init(vertices: [Float], layout: [VertexFormat], indices: [UInt32] = [],
                primitive: Primitive = .triangles, usage: BufferUsage = .immutable, label: String = "mesh") {
        self.vertices = vertices
        self.layout = layout
        self.indices = indices
        self.primitive = primitive
        self.usage = usage
        self.label = label
    }

    /// Floats per vertex.
    public var floatsPerVertex: Int { layout.reduce(0) { $0 + $1.components } }
}

struct MeshResource {
    var vertexArray: GLuint
    var vertexBuffer: GLuint
    var indexBuffer: GLuint  // 0 when not indexed
    var primitive: Primitive
    var usage: BufferUsage
    var floatsPerVertex: Int
    var vertexCount: Int
    var indexCount: Int

    func deleteGLObjects() {
        var vao = vertexArray, vbo = vertexBuffer, ibo = indexBuffer
        glDeleteVertexArrays(1, &vao)
        glDeleteBuffers(1, &vbo)
        if ibo != 0 { glDeleteBuffers(1, &ibo) }
    }
}

extension Graphics {
    /// Uploads a mesh. A dynamic mesh may start empty and be filled with `updateMesh`.
    public func makeMesh(_ desc: MeshDesc) throws(EngineError) -> MeshID {
        let stride = desc.floatsPerVertex
        guard stride > 0 else { throw .invalidDescription("mesh \(desc.label) has an empty layout") }
        guard desc.vertices.count % stride == 0 else {
            throw .invalidDescription("mesh \(desc.label): \(desc.vertices.count) floats is not a whole number of \(stride)-float vertices")
        }
        guard desc.usage == .dynamic || !desc.vertices.isEmpty else {
            throw .invalidDescription("immutable mesh \(desc.label) has no vertices")
        }
        let vertexCount = desc.vertices.count / stride
        if let bad = desc.indices.first(where: { Int($0) >= vertexCount }) {
            throw .invalidDescription("mesh \(desc.label): index \(bad) but only \(vertexCount) vertices")
        }
        var vao: GLuint = 0, vbo: GLuint = 0, ibo: GLuint = 0
        glGenVertexArrays(1, &vao)
        glBindVertexArray(vao)
        glGenBuffers(1, &vbo)
        glBindBuffer(GLenum(GL_ARRAY_BUFFER), vbo)
        let glUsage = GLenum(desc.usage == .dynamic ? GL_DYNAMIC_DRAW : GL_STATIC_DRAW)
        desc.vertices.withUnsafeBytes { glBufferData(GLenum(GL_ARRAY_BUFFER), $0.count, $0.baseAddress, glUsage) }
        var offset = 0
        for (location, format) in desc.layout.enumerated() {
            glEnableVertexAttribArray(GLuint(location))
            glVertexAttribPointer(GLuint(location), GLint(format.components), GLenum(GL_FLOAT), GLboolean(GL_FALSE),
                                  GLsizei(stride * 4), UnsafeRawPointer(bitPattern: offset * 4))
            offset += format.components
        }
        if !desc.indices.isEmpty || desc.usage == .dynamic {
            glGenBuffers(1, &ibo)
            glBindBuffer(GLenum(GL_ELEMENT_ARRAY_BUFFER), ibo)
            desc.indices.withUnsafeBytes { glBufferData(GLenum(GL_ELEMENT_ARRAY_BUFFER), $0.count, $0.baseAddress, glUsage) }
        }
        glBindVertexArray(0)
        let resource = MeshResource(vertexArray: vao, vertexBuffer: vbo, indexBuffer: ibo, primitive: desc.primitive,
                                    usage: desc.usage, floatsPerVertex: stride, vertexCount: vertexCount,
                                    indexCount: desc.indices.count)
        return MeshID(raw: meshes.insert(resource))
    }

    /// Replaces a dynamic mesh's vertices (and indices, for a mesh created with or without them:
    /// dynamic meshes always have an index buffer; pass `[]` to draw vertices in order).
    public func updateMesh(_ id: MeshID, vertices: [Float], indices: [UInt32] = []) {
        guard let mesh = meshes.get(id.raw), mesh.usage == .dynamic else { return warnStale("dynamic mesh") }
        glBindVertexArray(mesh.vertexArray)
        glBindBuffer(GLenum(GL_ARRAY_BUFFER), mesh.vertexBuffer)
        vertices.withUnsafeBytes { glBufferData(GLenum(GL_ARRAY_BUFFER), $0.count, $0.baseAddress, GLenum(GL_DYNAMIC_DRAW)) }
        glBindBuffer(GLenum(GL_ELEMENT_ARRAY_BUFFER), mesh.indexBuffer)
        indices.withUnsafeBytes { glBufferData(GLenum(GL_ELEMENT_ARRAY_BUFFER), $0.count, $0.baseAddress, GLenum(GL_DYNAMIC_DRAW)) }
        glBindVertexArray(0)
        meshes.update(id.raw) {
            $0.vertexCount = vertices.count / mesh.floatsPerVertex
            $0.indexCount = indices.count
        }
    }

    /// Draws the whole mesh with the applied pipeline and uniforms.
    public func draw(_ id: MeshID) {
        guard let mesh = meshes.get(id.raw) else { return warnStale("mesh") }
        guard mesh.vertexCount > 0 else { return }
        glBindVertexArray(mesh.vertexArray)
        if mesh.indexCount > 0 {
            glDrawElements(mesh.primitive.glMode, GLsizei(mesh.indexCount), GLenum(GL_UNSIGNED_INT), nil)
        } else {
            glDrawArrays(mesh.primitive.glMode, 0, GLsizei(mesh.vertexCount))
        }
        glBindVertexArray(0)
    }
}
