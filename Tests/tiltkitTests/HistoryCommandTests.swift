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

    /// Mounts a 64 KiB tmpfs (root, CAP_SYS_ADMIN: a real full disk) for `body`; false where it cannot.
    static func withSmallDisk(_ body: (URL) throws -> Void) throws -> Bool {
        guard getuid() == 0 else { return false }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tiltkit-small-disk-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let mount = try ChildProcess.run(URL(fileURLWithPath: "/bin/mount"), ["-t", "tmpfs", "-o", "size=64k", "tmpfs", folder.path])
        guard mount.status == 0 else { return false }
        defer { _ = try? ChildProcess.run(URL(fileURLWithPath: "/bin/umount"), [folder.path]) }
        try body(folder)
        return true
    }

    @Test("a file too large for the disk: one clear line, no file left, and a readable history where one was",
          .enabled(if: PedometerCommandTests.executable != nil || TestData.isCI, "tiltkit is not built beside the tests; under CI=true this fails instead"))
    func fullDisk() throws {
        let trace = try Recordings.url("xio/sensor_data.csv").path
        let executable = try #require(PedometerCommandTests.executable)
        // `ulimit -f` (RLIMIT_FSIZE, in 1024-byte blocks in bash): any user can make a disk this small.
        try withTemporaryPath { path in
            let limited = try ChildProcess.run(URL(fileURLWithPath: "/bin/bash"), ["-c", "ulimit -f 16; exec \"$0\" \"$@\"", executable.path,
                                                                                   "history", "record", "--source", trace, "--out", path, "--duration", "10"])
            #expect(limited.status == 1 && limited.err == "tiltkit: \(path): cannot make room for 1240 readings (39.7 kB): File too large\n", "\(limited.err)")
            #expect(!FileManager.default.fileExists(atPath: path), "the file it could not fill is not left behind")
        }
        let mounted = try Self.withSmallDisk { disk in
            let path = disk.appendingPathComponent("acc.tkhist").path
            let small = try Self.run(["history", "record", "--source", trace, "--out", path, "--duration", "4", "--speed", "100"])
            #expect(small.status == 0, "\(small.err)")
            let big = try Self.run(["history", "record", "--source", trace, "--out", disk.appendingPathComponent("big.tkhist").path, "--duration", "100"])
            #expect(big.status == 1 && big.err.hasSuffix("No space left on device\n") && big.err.split(separator: "\n").count == 1, "\(big.err)")
            #expect(try FileManager.default.contentsOfDirectory(atPath: disk.path) == ["acc.tkhist"])
            let query = try Self.run(["history", "query", path])
            #expect(query.status == 0 && String(decoding: query.out, as: UTF8.self).hasPrefix("401 readings in range"), "\(query.err)")
        }
        if !mounted { print("HistoryCommandTests.fullDisk: no tmpfs (not root, or mount refused): the ulimit case alone ran") }
    }

    @Test("a history whose times go back or are not finite, or whose --duration is beyond 12 hours, is refused with one line naming the reading",
          .enabled(if: PedometerCommandTests.executable != nil || TestData.isCI, "tiltkit is not built beside the tests; under CI=true this fails instead"))
    func hostileHistories() throws {
        func history(_ readings: [(Double, Double)], capacity: Int = 8) -> Data {
            var words: [UInt64] = [0x3130_5453_4948_4B54, UInt64(capacity), UInt64(readings.count), 0]
            for i in 0..<capacity {
                let (t, x) = i < readings.count ? readings[i] : (0, 0)
                words += [t.bitPattern, x.bitPattern, 0.0.bitPattern, (-1.0).bitPattern]
            }
            return words.withUnsafeBytes { Data($0) }
        }
        try withTemporaryPath { path in
            for (readings, message) in [
                ([(1.0, 0.0), (0.5, 0.0)], "reading 1 of 2 (byte 64): time 0.5 s is before the reading before it (1.0 s)"),
                ([(1.0, 0.0), (.nan, 0.0)], "reading 1 of 2 (byte 64): time is nan, expected a finite number of seconds"),
                ([(.infinity, 0.0)], "reading 0 of 1 (byte 32): time is inf, expected a finite number of seconds"),
                ([(1.0, 0.0), (2.0, .infinity)], "reading 1 of 2 (byte 64): acceleration (inf, 0.0, -1.0) g is not finite"),
            ] {
                try history(readings).write(to: URL(fileURLWithPath: path))
                for command in ["query", "summary"] {
                    let result = try Self.run(["history", command, path])
                    #expect(result.status == 1 && result.err == "tiltkit: \(path): \(message)\n", "\(result.err)")
                }
            }
            let trace = try Recordings.url("xio/sensor_data.csv").path
            for duration in ["1e308", "inf", "50000"] {
                let result = try Self.run(["history", "record", "--source", trace, "--out", path + ".new", "--duration", duration])
                #expect(result.status == 1 && result.err.contains("would make a file of") && result.err.contains("at most 43200 s"), "\(result.err)")
                #expect(!FileManager.default.fileExists(atPath: path + ".new"))
            }
        }
    }
}
