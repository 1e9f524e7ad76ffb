import Foundation

/// PNG beside an SVG chart, by librsvg's `rsvg-convert` where it is installed: the README shows PNG,
/// and no Swift package on hand renders SVG.
public enum SVGRasterizer {
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    /// `rsvg-convert` on the PATH, or nil.
    public static var converter: String? {
        (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin").split(separator: ":")
            .map { "\($0)/rsvg-convert" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// Writes `svg` as PNG beside it (same name, `.png`) on a white background; nil, with a note on
    /// stderr, where rsvg-convert is not installed.
    public static func convertToPNG(_ svg: URL) throws -> URL? {
        guard let converter else {
            FileHandle.standardError.write(Data("tiltkit: note: rsvg-convert not found (apt install librsvg2-bin); wrote SVG only\n".utf8))
            return nil
        }
        let png = svg.deletingPathExtension().appendingPathExtension("png")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: converter)
        process.arguments = ["--background-color=white", "-o", png.path, svg.path]
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw Failure(description: "rsvg-convert failed (\(process.terminationStatus)) on \(svg.path)")
        }
        return png
    }
}
