import Foundation
import Motion
import Testing
import TestSupport

@Suite("tiltkit history, the command")
struct HistoryCommandTests {
    static func run(_ arguments: [String]) throws -> (status: Int32, out: Data, err: String) {
        try PedometerCommandTests.run(arguments)
    }

    /// A fresh path in the temporary directory, removed when `body` returns.
    private func withTemporaryPath(_ body: (String) throws -> Void) rethrows {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("tiltkit-history-\(UUID().uuidString).tkhist").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        try body(path)
    }

    @Test("record keeps --duration seconds of a replayed trace in the file; query gives back its readings by range, exactly",
          .enabled(if: PedometerCommandTests.executable != nil || TestData.isCI, "tiltkit is not built beside the tests; under CI=true this fails instead"))
    func recordAndQuery() throws {
        try withTemporaryPath { path in
            let trace = try Recordings.xio()
            let file = try Recordings.url("xio/sensor_data.csv").path
            let recorded = try Self.run(["history", "record", "--source", file, "--out", path, "--duration", "10", "--speed", "50"])
            #expect(recorded.status == 0, "\(recorded.err)")
            let t0 = trace.samples[0].timestamp
            let window = trace.samples.filter { $0.timestamp <= t0 + 10 }
            let summary = String(decoding: recorded.out, as: UTF8.self)
            #expect(summary.contains("\(window.count) readings"), "\(summary)")
            // The file is sized for 10 s at the trace's rate × 1.25, and no larger.
            let size = try #require(try FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber).intValue
            #expect(size < 32 + 32 * 1300 && size > 32 + 32 * window.count)

            let queried = try Self.run(["history", "query", path, "--start", "2", "--end", "4", "--json"])
            #expect(queried.status == 0, "\(queried.err)")
            let lines = String(decoding: queried.out, as: UTF8.self).split(separator: "\n")
            let readings = try lines.map { line in
                try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Double])
            }
            let expected = trace.samples.filter { $0.timestamp >= 2 && $0.timestamp <= 4 }
            #expect(readings.count == expected.count && readings.count > 150)
            #expect(Set(readings.first.map { Array($0.keys) } ?? []) == ["timestamp", "x", "y", "z"])
            #expect(readings.map { $0["timestamp"]! } == expected.map(\.timestamp))
            #expect(readings.map { Vector3($0["x"]!, $0["y"]!, $0["z"]!) } == expected.map(\.acceleration))

            let line = try Self.run(["history", "query", path, "--start", "2", "--end", "4"])
            #expect(String(decoding: line.out, as: UTF8.self).hasPrefix("\(expected.count) readings in range"))

            // The trace replayed again restarts its clock: the file starts afresh instead of mixing the two.
            let again = try Self.run(["history", "record", "--source", file, "--out", path, "--duration", "10", "--speed", "50"])
            #expect(again.status == 0 && String(decoding: again.out, as: UTF8.self).contains("\(window.count) readings"))
        }
    }

    @Test("a missing, foreign or cut file, another duration, and a reversed range are refused with one line each",
          .enabled(if: PedometerCommandTests.executable != nil || TestData.isCI, "tiltkit is not built beside the tests; under CI=true this fails instead"))
    func refusals() throws {
        try withTemporaryPath { path in
            let file = try Recordings.url("xio/sensor_data.csv").path
            let missing = try Self.run(["history", "query", path])
            #expect(missing.status != 0 && missing.err == "tiltkit: \(path): cannot open: No such file or directory\n")

            try Data("not a history\n".utf8).write(to: URL(fileURLWithPath: path))
            let foreign = try Self.run(["history", "query", path])
            #expect(foreign.status != 0 && foreign.err.contains("not a Tiltkit accelerometer history"))
            #expect(foreign.err.split(separator: "\n").count == 1)
            try FileManager.default.removeItem(atPath: path)

            #expect(try Self.run(["history", "record", "--source", file, "--file", path, "--duration", "2", "--speed", "50"]).status == 0)
            let other = try Self.run(["history", "record", "--source", file, "--file", path, "--duration", "5", "--speed", "50"])
            #expect(other.status != 0 && other.err.contains("was made for") && other.err.contains("--duration 2 "), "\(other.err)")

            let whole = try Data(contentsOf: URL(fileURLWithPath: path))
            try whole.prefix(whole.count - 7).write(to: URL(fileURLWithPath: path))
            let cut = try Self.run(["history", "query", path])
            #expect(cut.status != 0 && cut.err.contains("damaged") && cut.err.split(separator: "\n").count == 1, "\(cut.err)")

            let reversed = try Self.run(["history", "query", path, "--from", "4", "--to", "2"])
            #expect(reversed.status != 0 && reversed.err.contains("--start must not be after --end"))
        }
    }
}
