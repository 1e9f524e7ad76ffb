import Engine
import Foundation
import Testing

/// PNG files written and read back through SDL2_image: the pixels survive, and a write that fails
/// (a full disk) says so instead of leaving no file and reporting success.
@Suite struct ImagePNGTests {
    /// A 97×61 gradient with noise, so the encoding cannot shrink it to nothing.
    static let image: Image = {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        var pixels: [UInt8] = []
        for y in 0..<61 {
            for x in 0..<97 {
                state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                pixels += [UInt8(x * 2), UInt8(y * 4), UInt8(truncatingIfNeeded: state >> 56), 255]
            }
        }
        return Image(width: 97, height: 61, pixels: pixels)
    }()

    @Test func aWrittenPNGReadsBackPixelForPixel() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("tiltkit-png-\(UUID().uuidString).png").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        try Self.image.writePNG(to: path)
        #expect(try Image(contentsOfPNG: path) == Self.image)
    }

    @Test func aFullDiskIsAnError() {
        #expect(throws: EngineError.self) { try Self.image.writePNG(to: "/dev/full") }
    }
}
