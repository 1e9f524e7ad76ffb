import Foundation
import Testing
@testable import Motion

/// Each kind of malformed trace gets its own error naming the file and the line, never a crash and
/// never a partial read. The bad files are the first lines of real recordings with one fault put in.
@Suite struct TraceErrorTests {
    /// Header + 20 samples of mpower/balance_data.csv (lines 1…21), with `edit` applied to line `line`.
    private func mpower(editing line: Int, _ edit: (String) -> String) throws -> String {
        var lines = try TraceTestFiles.lines(of: TraceTestFiles.mpowerBalance, count: 21)
        lines[line - 1] = edit(lines[line - 1])
        return lines.joined(separator: "\n") + "\n"
    }

    private func load(_ text: String, format: TraceFormat? = nil) throws -> TraceError {
        let folder = try TraceTestFiles.scratchFolder()
        let url = try TraceTestFiles.write(text, named: "bad.csv", in: folder)
        let error = try #require(throws: TraceError.self) { try Trace.load(contentsOf: url, format: format) }
        #expect(error.file.hasSuffix("bad.csv"))
        #expect(error.description.hasPrefix(error.file + ":"))
        return error
    }

    /// Replaces cell `index` (0-based) of a CSV line.
    private func replacingCell(_ index: Int, with text: String) -> (String) -> String {
        { line in
            var cells = line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            cells[index] = text
            return cells.joined(separator: ",")
        }
    }

    @Test func theUntouchedExcerptLoads() throws {
        let folder = try TraceTestFiles.scratchFolder()
        let url = try TraceTestFiles.write(try mpower(editing: 1) { $0 }, named: "good.csv", in: folder)
        #expect(try Trace.load(contentsOf: url).samples.count == 20)
    }

    @Test func missingColumns() throws {
        // Drop the `az` column from the header and every row.
        let text = try TraceTestFiles.lines(of: TraceTestFiles.mpowerBalance, count: 21).map { line in
            var cells = line.split(separator: ",", omittingEmptySubsequences: false)
            cells.remove(at: 3)
            return cells.joined(separator: ",")
        }.joined(separator: "\n") + "\n"
        let error = try load(text)
        #expect(error.line == 1)
        #expect(error.problem == .missingColumns(["az"]))
        #expect(error.what == "missing columns: az")
    }

    @Test func textInANumber() throws {
        let error = try load(try mpower(editing: 8, replacingCell(2, with: "0.97x")))
        #expect(error.line == 8)
        #expect(error.problem == .textInNumber(column: "ay", text: "0.97x"))
    }

    @Test(arguments: ["NaN", "nan", "inf", "-Infinity", "1e999"])
    func nonFiniteValues(_ value: String) throws {
        let error = try load(try mpower(editing: 12, replacingCell(5, with: value)))
        #expect(error.line == 12)
        #expect(error.problem == .notFinite(column: "gy", text: value))
    }

    @Test func timeGoingBackwards() throws {
        let error = try load(try mpower(editing: 15, replacingCell(0, with: "0.05")))
        #expect(error.line == 15)
        guard case .nonIncreasingTime(let previous, let current) = error.problem else { Issue.record("\(error)"); return }
        #expect(current == 0.05 && previous > 0.05)
    }

    @Test func repeatedTime() throws {
        let lines = try TraceTestFiles.lines(of: TraceTestFiles.mpowerBalance, count: 21)
        let t10 = String(lines[9].split(separator: ",")[0])
        let error = try load(try mpower(editing: 11, replacingCell(0, with: t10)))
        #expect(error.line == 11)
        #expect(error.problem == .nonIncreasingTime(previous: Double(t10)!, current: Double(t10)!))
    }

    @Test func aCutLastLineIsLeftOutWithAWarning() throws {
        // A recording cut off mid-write: the last line stops after a few cells, no final newline.
        // The 19 whole rows before it read; the cut one is named (the whole file used to be rejected).
        var text = try mpower(editing: 21) { String($0.prefix(40)) }
        text.removeLast()
        let url = try TraceTestFiles.write(text, named: "cut.csv", in: try TraceTestFiles.scratchFolder())
        let trace = try Trace.load(contentsOf: url)
        #expect(trace.samples.count == 19)
        let warning = try #require(trace.warnings.first)
        #expect(warning.line == 21)
        guard case .truncatedLastLine(let found, let expected) = warning.problem else { Issue.record("\(warning)"); return }
        #expect(expected == 23 && found < 23)
    }

    @Test func aShortLastLineWithItsNewlineIsAnError() throws {
        let error = try load(try mpower(editing: 21) { String($0.prefix(40)) })
        #expect(error.line == 21)
        guard case .wrongCellCount(_, 23) = error.problem else { Issue.record("\(error)"); return }
    }

    @Test func aByteOrderMarkIsAccepted() throws {
        let url = try TraceTestFiles.write("\u{FEFF}" + (try mpower(editing: 1) { $0 }), named: "bom.csv",
                                           in: try TraceTestFiles.scratchFolder())
        #expect(try Trace.load(contentsOf: url).samples.count == 20)
    }

    @Test func aTimeBeyondRangeIsRejected() throws {
        let error = try load(try mpower(editing: 21, replacingCell(0, with: "1e308")))
        #expect(error.line == 21)
        #expect(error.problem == .timeOutOfRange(column: "t", value: 1e308))
    }

    @Test func aDeviceIsNotATrace() throws {
        let error = try #require(throws: TraceError.self) { try Trace.load(contentsOf: URL(fileURLWithPath: "/dev/null")) }
        #expect(error.problem == .unreadable(reason: "a character device, not a file"))
    }

    @Test func shortLineInTheMiddleIsNotCalledTruncated() throws {
        let error = try load(try mpower(editing: 5) { String($0.prefix(30)) })
        #expect(error.line == 5)
        guard case .wrongCellCount(_, 23) = error.problem else { Issue.record("\(error)"); return }
    }

    @Test func emptyFile() throws {
        #expect(try load("").problem == .emptyFile)
        #expect(try load("\n  \n").problem == .emptyFile)
        #expect(try load("").line == 1)
    }

    @Test func unknownFormat() throws {
        let error = try load("timestamp;x;y;z\n1;2;3;4\n")
        #expect(error.line == 1)
        guard case .unknownFormat(let header) = error.problem else { Issue.record("\(error)"); return }
        #expect(header == "timestamp;x;y;z")
    }

    @Test func halfAVector() throws {
        let error = try load(try mpower(editing: 9, replacingCell(6, with: "")))
        #expect(error.line == 9)
        #expect(error.problem == .incompleteVector(columns: ["gx", "gy", "gz"]))
    }

    @Test func headerOnly() throws {
        let error = try load(try TraceTestFiles.lines(of: TraceTestFiles.mpowerBalance, count: 1)[0] + "\n")
        #expect(error.problem == .noSamples)
    }

    @Test func missingFile() throws {
        let url = URL(fileURLWithPath: "/nonexistent/trace.csv")
        let error = try #require(throws: TraceError.self) { try Trace.load(contentsOf: url) }
        #expect(error.problem == .unreadable(reason: "no such file"))
    }

    @Test func tiltkitTraceErrorsCountTheCommentLines() throws {
        // Convert a real excerpt, then spoil its 5th data row: the error must name the file's own line.
        let folder = try TraceTestFiles.scratchFolder()
        let source = try TraceTestFiles.write(try mpower(editing: 1) { $0 }, named: "excerpt.csv", in: folder)
        let own = folder.appendingPathComponent("own.csv")
        try Trace.load(contentsOf: source).write(to: own)
        var lines = try String(contentsOf: own, encoding: .utf8).split(separator: "\n").map(String.init)
        let headerIndex = try #require(lines.firstIndex { $0.hasPrefix("t (s)") })
        lines[headerIndex + 5] = replacingCell(1, with: "abc")(lines[headerIndex + 5])
        let error = try load(lines.joined(separator: "\n") + "\n")
        #expect(error.line == headerIndex + 6)
        #expect(error.problem == .textInNumber(column: "ax", text: "abc"))
    }

    @Test func tiltkitTraceWithAWrongUnitOrVersion() throws {
        let wrongUnit = "# tiltkit-trace v1\nt (s),ax (m/s^2),ay (g),az (g)\n0.0,0.0,0.0,-1.0\n"
        #expect(try load(wrongUnit).problem == .wrongUnit(column: "ax", found: "m/s^2", expected: "g"))
        let future = "# tiltkit-trace v7\nt (s),ax (g),ay (g),az (g)\n0.0,0.0,0.0,-1.0\n"
        let error = try load(future)
        #expect(error.line == 1 && error.problem == .unsupportedVersion("v7"))
    }

    @Test func sensorLoggerStreamErrorsNameTheSensorFile() throws {
        let folder = try TraceTestFiles.scratchFolder()
        let fixture = TraceTestFiles.fixtures.appendingPathComponent("SensorLogger-iOS")
        for name in try FileManager.default.contentsOfDirectory(atPath: fixture.path) {
            try FileManager.default.copyItem(at: fixture.appendingPathComponent(name), to: folder.appendingPathComponent(name))
        }
        let gyro = folder.appendingPathComponent("Gyroscope.csv")
        var lines = try String(contentsOf: gyro, encoding: .utf8).split(separator: "\n").map(String.init)
        lines[10] = replacingCell(3, with: "nan")(lines[10])
        try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: gyro)
        let error = try #require(throws: TraceError.self) { try Trace.load(contentsOf: folder) }
        #expect(error.file.hasSuffix("/Gyroscope.csv"))
        #expect(error.line == 11)
        #expect(error.problem == .notFinite(column: "y", text: "nan"))
    }
}
