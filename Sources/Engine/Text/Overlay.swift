/// Immediate-mode 2D drawing over the 3D scene, in pixels with the origin at the top left:
/// bitmap text (`Font8x8`), filled rectangles and thick lines. Calls collect quads; `draw`
/// uploads them as one dynamic mesh and draws them with alpha blending, then starts afresh.
///
///     overlay.rect(x: 8, y: 8, width: 300, height: 60, color: Color(0, 0, 0, 0.5))
///     overlay.text("roll 12.0°", x: 16, y: 16)
///     overlay.polyline(points, width: 2, color: .yellow)
///     overlay.draw(size: gfx.passSize)          // inside a pass, after the 3D draws
public final class Overlay {
    private let graphics: Graphics
    private let shader: ShaderID
    private let font: TextureID
    private let mesh: MeshID
    private var vertices: [Float] = []
    private var indices: [UInt32] = []

    /// Glyph cells per row in the font atlas.
    private static let atlasColumns = 16
    private static let glyphCount = Int(Font8x8.lastCharacter - Font8x8.firstCharacter) + 1
    private static let atlasRows = (glyphCount + atlasColumns - 1) / atlasColumns

    /// `shader` is the `overlay` program (position, uv, colour; samples `uFont`).
    public init(graphics: Graphics, shader: ShaderID) throws(EngineError) {
        self.graphics = graphics
        self.shader = shader
        self.font = try graphics.makeTexture(Self.fontAtlas())
        self.mesh = try graphics.makeMesh(MeshDesc(vertices: [], layout: [.float2, .float2, .float4],
                                                  usage: .dynamic, label: "overlay"))
    }

    /// Width and height in pixels of `text` at `scale` (each glyph is 8·scale pixels square).
    public static func measure(_ text: String, scale: Float = 2) -> (width: Float, height: Float) {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        let columns = lines.map { $0.unicodeScalars.count }.max() ?? 0
        return (Float(columns * Font8x8.glyphSize) * scale, Float(lines.count * Font8x8.glyphSize) * scale * lineSpacing)
    }

    /// Line height as a multiple of the glyph height.
    public static let lineSpacing: Float = 1.25

    /// Draws `text` with its top-left corner at (x, y); `\n` starts a new line. Characters outside
    /// printable ASCII draw as `?` (write "deg", not "°").
    public func text(_ text: String, x: Float, y: Float, scale: Float = 2, color: Color = .white) {
        let cell = Float(Font8x8.glyphSize) * scale
        var penX = x, penY = y
        let columns = Float(Self.atlasColumns), rows = Float(Self.atlasRows)
        for scalar in text.unicodeScalars {
            if scalar == "\n" {
                penX = x
                penY += cell * Self.lineSpacing
                continue
            }
            let code = scalar.isASCII ? UInt8(scalar.value) : UInt8(ascii: "?")
            if code != 0x20 {
                let clamped = (Font8x8.firstCharacter...Font8x8.lastCharacter).contains(code) ? code : UInt8(ascii: "?")
                let index = Int(clamped - Font8x8.firstCharacter)
                let u0 = Float(index % Self.atlasColumns) / columns, v0 = Float(index / Self.atlasColumns) / rows
                quad(x0: penX, y0: penY, x1: penX + cell, y1: penY + cell,
                     u0: u0, v0: v0, u1: u0 + 1 / columns, v1: v0 + 1 / rows, color: color)
            }
            penX += cell
        }
    }

    /// A filled axis-aligned rectangle.
    public func rect(x: Float, y: Float, width: Float, height: Float, color: Color) {
        quad(x0: x, y0: y, x1: x + width, y1: y + height, u0: -1, v0: -1, u1: -1, v1: -1, color: color)
    }

    /// A straight line `width` pixels thick.
    public func line(from a: (x: Float, y: Float), to b: (x: Float, y: Float), width: Float = 1, color: Color) {
        let dx = b.x - a.x, dy = b.y - a.y
        let length = (dx * dx + dy * dy).squareRoot()
        guard length > 0 else { return }
        let nx = -dy / length * width / 2, ny = dx / length * width / 2
        let base = UInt32(vertices.count / 8)
        for (px, py) in [(a.x + nx, a.y + ny), (b.x + nx, b.y + ny), (b.x - nx, b.y - ny), (a.x - nx, a.y - ny)] {
            vertices += [px, py, -1, -1, color.r, color.g, color.b, color.a]
        }
        indices += [base, base + 1, base + 2, base, base + 2, base + 3]
    }

    /// Connected line segments through `points`.
    public func polyline(_ points: [(x: Float, y: Float)], width: Float = 1, color: Color) {
        guard points.count > 1 else { return }
        for i in 1..<points.count { line(from: points[i - 1], to: points[i], width: width, color: color) }
    }

    /// Draws everything collected since the last call over the pass in progress, then clears it.
    public func draw(size: PixelSize) {
        defer { vertices.removeAll(keepingCapacity: true); indices.removeAll(keepingCapacity: true) }
        guard !indices.isEmpty else { return }
        graphics.updateMesh(mesh, vertices: vertices, indices: indices)
        graphics.applyPipeline(Pipeline(shader: shader, depthTest: false, depthWrite: false, blend: .alpha))
        graphics.setUniform("uProjection", Mat4.orthographic(left: 0, right: Float(size.width),
                                                             bottom: Float(size.height), top: 0))
        graphics.bindTexture(font, sampler: "uFont")
        graphics.draw(mesh)
    }

    private func quad(x0: Float, y0: Float, x1: Float, y1: Float, u0: Float, v0: Float, u1: Float, v1: Float, color: Color) {
        let base = UInt32(vertices.count / 8)
        let c = [color.r, color.g, color.b, color.a]
        vertices += [x0, y0, u0, v0] + c + [x1, y0, u1, v0] + c + [x1, y1, u1, v1] + c + [x0, y1, u0, v1] + c
        indices += [base, base + 1, base + 2, base, base + 2, base + 3]
    }

    /// The printable glyphs in a 16-column R8 atlas, one byte per pixel (255 = ink).
    static func fontAtlas() -> TextureDesc {
        let g = Font8x8.glyphSize
        let width = atlasColumns * g, height = atlasRows * g
        var pixels = [UInt8](repeating: 0, count: width * height)
        for index in 0..<glyphCount {
            let rows = Font8x8.rows(of: Font8x8.firstCharacter + UInt8(index))
            let ox = (index % atlasColumns) * g, oy = (index / atlasColumns) * g
            for (r, bits) in rows.enumerated() {
                for bit in 0..<8 where bits & (1 << bit) != 0 {
                    pixels[(oy + r) * width + ox + bit] = 255
                }
            }
        }
        return TextureDesc(width: width, height: height, format: .r8, pixels: pixels, filter: .nearest, label: "font8x8")
    }
}
