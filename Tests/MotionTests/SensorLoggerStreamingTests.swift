import Foundation
import Testing
import TestSupport
@testable import Motion

/// A Sensor Logger folder is merged from its files as they are read: the samples must be the ones
/// the whole-file importer made (`SensorLoggerWholeFileImporter`), on the bundled exports and on
/// generated ones whose streams jitter, stall, end early or run on, and errors deep in a file must
/// still name the file and line.
@Suite("Sensor Logger folders, streamed")
struct SensorLoggerStreamingTests {
    static let bundled = ["SensorLogger-iOS", "SensorLogger-standardised"].map { TraceTestFiles.fixtures.appendingPathComponent($0) }

    /// Every sample of `folder` as streamed, read in pieces of `pieceSize` bytes.
    static func streamed(_ folder: URL, pieceSize: Int = 4 << 20) throws -> [MotionSample] {
        let stream = try TraceSampleStream(contentsOf: folder, pieceSize: pieceSize)
        var samples: [MotionSample] = []
        while let sample = try stream.next() { samples.append(sample) }
        return samples
    }

    static func wholeFile(_ folder: URL) throws -> Trace {
        try SensorLoggerWholeFileImporter.read(folder: folder, name: folder.relativePath)
    }

    @Test("the bundled exports give the samples and rate the whole-file importer gave, in any piece size",
          arguments: bundled)
    func bundledExportsAreUnchanged(_ folder: URL) throws {
        let expected = try Self.wholeFile(folder)
        let loaded = try Trace.load(contentsOf: folder)
        #expect(loaded.samples.count == 40)
        #expect(loaded.samples == expected.samples)
        #expect(loaded.metadata == expected.metadata)
        for pieceSize in [256, 1000, 4096] {
            #expect(try Self.streamed(folder, pieceSize: pieceSize) == expected.samples, "pieces of \(pieceSize) bytes")
        }
    }

    @Test("streams that jitter, stall, end early and run on pair as the whole-file importer paired them")
    func unevenStreamsPairAsBefore() throws {
        let folder = try TraceTestFiles.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        var export = SensorLoggerFolder(seconds: 8)
        export.jitter = 0.0015
        export.gyroscopeGap = 2.0..<2.5
        export.gyroscopeSeconds = 9      // runs on past the accelerometer
        export.magnetometerSeconds = 5   // ends early
        try export.write(to: folder)
        let expected = try Self.wholeFile(folder).samples
        try #require(expected.count == 800)
        let samples = try Self.streamed(folder, pieceSize: 1000)
        #expect(samples == expected)
        // What the pairing must show: no rotation in the gap, no field after the magnetometer ends.
        let inGap = samples.filter { $0.timestamp > 2.01 && $0.timestamp < 2.49 }
        #expect(!inGap.isEmpty && inGap.allSatisfy { $0.rotationRate == nil })
        #expect(samples.filter { $0.timestamp < 1.9 }.allSatisfy { $0.rotationRate != nil })
        #expect(samples.filter { $0.timestamp > 5.05 }.allSatisfy { $0.magneticField == nil })
        #expect(samples.filter { $0.timestamp < 4.9 }.contains { $0.magneticField != nil })
        #expect(samples.allSatisfy { $0.reference?.attitude != nil && $0.pressure != nil || $0.timestamp < 0.46 })
    }

    @Test("a recording longer than the period's read-ahead streams the same samples")
    func longerThanTheReadAhead() throws {
        let folder = try TraceTestFiles.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try SensorLoggerFolder(seconds: 3 * Double(SensorLoggerSamples.periodReadings) / 100).write(to: folder)
        let expected = try Self.wholeFile(folder)
        let loaded = try Trace.load(contentsOf: folder)
        #expect(loaded.samples.count == 3 * SensorLoggerSamples.periodReadings)
        #expect(loaded.samples == expected.samples)
        #expect(loaded.metadata.nominalRate == 100)
        #expect(try TraceSampleStream(contentsOf: folder).metadata.nominalRate == 100)
    }

    /// A copy of a generated folder with `edit` applied to the lines of `file` (header included).
    static func folder(editing file: String, seconds: Double = 30, _ edit: (inout [String]) -> Void) throws -> URL {
        let folder = try TraceTestFiles.scratchFolder()
        try SensorLoggerFolder(seconds: seconds).write(to: folder)
        let url = folder.appendingPathComponent(file)
        var lines = try String(contentsOf: url, encoding: .utf8).split(separator: "\n").map(String.init)
        edit(&lines)
        try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: url)
        return folder
    }

    @Test("a malformed line deep in a sensor file, beyond the first pieces, is named by file and line")
    func malformedLineDeepInAFile() throws {
        let folder = try Self.folder(editing: "Magnetometer.csv") { lines in
            var cells = lines[1200].split(separator: ",").map(String.init)
            cells[3] = "abc"  // time, seconds_elapsed, z, y, x
            lines[1200] = cells.joined(separator: ",")
        }
        defer { try? FileManager.default.removeItem(at: folder) }
        let error = try #require(throws: TraceError.self) { try Self.streamed(folder, pieceSize: 4096) }
        #expect(error.file == folder.relativePath + "/Magnetometer.csv")
        #expect(error.line == 1201)
        #expect(error.problem == .textInNumber(column: "y", text: "abc"))
        #expect(error.description.contains("Magnetometer.csv:1201"))
    }

    @Test("a malformed line after the accelerometer's last row is still found")
    func malformedLineAfterTheTimelineEnds() throws {
        let folder = try Self.folder(editing: "Gyroscope.csv", seconds: 5) { lines in
            lines.append("1700000009000000000,9.0,1,2")  // past the accelerometer's end, a cell short
        }
        defer { try? FileManager.default.removeItem(at: folder) }
        let error = try #require(throws: TraceError.self) { try Self.streamed(folder) }
        #expect(error.file.hasSuffix("/Gyroscope.csv") && error.line == 502)
        #expect(error.problem == .wrongCellCount(found: 4, expected: 5))
    }

    @Test("rows out of time order are refused at the first one, by file and line")
    func unsortedRows() throws {
        let folder = try Self.folder(editing: "Gravity.csv") { $0.swapAt(900, 901) }
        defer { try? FileManager.default.removeItem(at: folder) }
        let error = try #require(throws: TraceError.self) { try Self.streamed(folder, pieceSize: 4096) }
        #expect(error.file.hasSuffix("/Gravity.csv") && error.line == 902)
        guard case .nonIncreasingTime = error.problem else { Issue.record("got \(error)"); return }
    }

    @Test("a sensor file with a header and no rows is refused when the folder is opened")
    func sensorFileWithoutRows() throws {
        let folder = try Self.folder(editing: "Gyroscope.csv", seconds: 2) { $0.removeSubrange(1...) }
        defer { try? FileManager.default.removeItem(at: folder) }
        let error = try #require(throws: TraceError.self) { try TraceSampleStream(contentsOf: folder) }
        #expect(error.file.hasSuffix("/Gyroscope.csv") && error.line == 1 && error.problem == .noSamples)
    }
}
