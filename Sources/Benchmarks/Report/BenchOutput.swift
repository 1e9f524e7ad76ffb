import Foundation

/// Where a bench's results go: the text table (or JSON) on stdout, SVG charts (and PNG where
/// rsvg-convert is installed) into a folder, progress on stderr.
public struct BenchOutput: Sendable {
    public var json: Bool
    /// Folder for SVG charts; nil writes none.
    public var plotDirectory: URL?

    public init(json: Bool, plotDirectory: URL?) {
        self.json = json
        self.plotDirectory = plotDirectory
    }

    /// Prints the report as text (with the machine line above it) or as a JSON document.
    public func emit<Report: Encodable & Sendable>(bench: String, quick: Bool, report: Report, text: String) throws {
        let document = BenchDocument(bench: bench, quick: quick, report: report)
        if json {
            print(try document.json())
        } else {
            print("tiltkit bench \(bench)\(quick ? " --quick" : "") on \(document.machine.summary)\n")
            print(text)
        }
        // The chart paths go to stderr next; let the table reach a pipe first.
        fflush(nil)
    }

    /// Writes each chart as `DIR/file`, and as PNG beside it where rsvg-convert is installed;
    /// returns the paths written (also listed on stderr).
    @discardableResult
    public func write(charts: [(file: String, chart: SVGChart)]) throws -> [URL] {
        guard let plotDirectory else { return [] }
        try FileManager.default.createDirectory(at: plotDirectory, withIntermediateDirectories: true)
        var written: [URL] = []
        for (file, chart) in charts {
            let url = plotDirectory.appendingPathComponent(file)
            try chart.svg().write(to: url, atomically: true, encoding: .utf8)
            written.append(url)
            FileHandle.standardError.write(Data("wrote \(url.path)\n".utf8))
            if SVGRasterizer.converter != nil, let png = try SVGRasterizer.convertToPNG(url) { written.append(png) }
        }
        return written
    }
}
