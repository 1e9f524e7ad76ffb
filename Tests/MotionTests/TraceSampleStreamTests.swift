import Foundation
import Testing
@testable import Motion

/// Read in pieces, a trace gives the same samples as read whole, errors keep their line numbers,
/// and a cut last line is a warning.
@Suite struct TraceSampleStreamTests {
    private func all(_ stream: TraceSampleStream) throws -> [MotionSample] {
        var samples: [MotionSample] = []
        while let s = try stream.next() { samples.append(s) }
        return samples
    }

    @Test(arguments: [997, 4096, 4 << 20])
    func piecesGiveTheWholeTrace(_ pieceSize: Int) throws {
        let trace = try TraceTestFiles.loaded(TraceTestFiles.mpowerBalance)
        let url = try TraceTestFiles.scratchFolder().appendingPathComponent("own.csv")
        try trace.write(to: url)
        let own = try TraceSampleStream(contentsOf: url, pieceSize: pieceSize)
        #expect(try all(own) == trace.samples)
        #expect(own.metadata == trace.metadata && own.columns == trace.columns && own.warnings.isEmpty)
        // The `t,ax,…` layout streams too, with the metadata the whole read gives.
        let columns = try TraceSampleStream(contentsOf: TraceTestFiles.mpowerBalance, pieceSize: pieceSize)
        #expect(try all(columns) == trace.samples)
        #expect(columns.metadata.importedFrom == .columns)
    }

    @Test func errorsNameTheirLineAcrossPieces() throws {
        var lines = try TraceTestFiles.lines(of: TraceTestFiles.mpowerBalance, count: 300)
        lines[250] = lines[250].replacingOccurrences(of: ",", with: ",x", options: [], range: lines[250].range(of: ","))
        let url = try TraceTestFiles.write(lines.joined(separator: "\n") + "\n", named: "bad.csv", in: try TraceTestFiles.scratchFolder())
        let stream = try TraceSampleStream(contentsOf: url, pieceSize: 1000)
        let error = try #require(throws: TraceError.self) { try all(stream) }
        #expect(error.line == 251)
        #expect(error.file == url.relativePath)
        #expect("\(error)".contains("bad.csv") && "\(error)".contains("251"))
    }

    @Test func aCutLastLineIsAWarning() throws {
        var lines = try TraceTestFiles.lines(of: TraceTestFiles.mpowerBalance, count: 300)
        lines[299] = String(lines[299].prefix(20))
        let url = try TraceTestFiles.write(lines.joined(separator: "\n"), named: "cut.csv", in: try TraceTestFiles.scratchFolder())
        let stream = try TraceSampleStream(contentsOf: url, pieceSize: 1000)
        #expect(try all(stream).count == 298)
        #expect(stream.warnings.map(\.line) == [300])
    }

    @Test func otherFormatsLoadBehindTheSameCalls() throws {
        let stream = try TraceSampleStream(contentsOf: TraceTestFiles.xioOriginal)
        #expect(try all(stream) == Trace.load(contentsOf: TraceTestFiles.xioOriginal).samples)
    }
}
